/* plat.h on Windows: the wide environment as UTF-8, GetModuleFileNameW,
 * LoadLibraryExW with the safe search order, and children inside a Job
 * Object that kills the whole tree when it closes. */
#include "plat.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "plat_win32.h"
#include "util.h"

const char *gd_plat_name(void)
{
	return "windows";
}

void gd_plat_sleep_ms(int ms)
{
	Sleep(ms > 0 ? (DWORD)ms : 0);
}

/* "TD": a temporary file, deleted when closed, kept in memory by the cache
 * manager while it is small. In %TEMP%: tmpfile() wants the drive root. */
FILE *gd_plat_memstream_open(gd_memstream *m)
{
	wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 1];

	m->buf = NULL;
	m->len = 0;
	m->f = NULL;
	if (!GetTempPathW(MAX_PATH + 1, dir) ||
	    !GetTempFileNameW(dir, L"gd", 0, name)) {
		errno = EACCES;
		return NULL;
	}
	m->f = _wfopen(name, L"w+bTD");
	if (!m->f)
		DeleteFileW(name);
	return m->f;
}

int gd_plat_memstream_close(gd_memstream *m, char **buf, size_t *len)
{
	long n = -1;
	char *b = NULL;

	if (fflush(m->f) == 0 && fseek(m->f, 0, SEEK_END) == 0)
		n = ftell(m->f);
	if (n >= 0 && (b = malloc((size_t)n + 1))) {
		rewind(m->f);
		if (fread(b, 1, (size_t)n, m->f) != (size_t)n) {
			free(b);
			b = NULL;
		}
	}
	fclose(m->f);
	m->f = NULL;
	if (!b)
		return -1;
	b[n] = '\0';
	*buf = b;
	*len = (size_t)n;
	return 0;
}

wchar_t *gd_w32_wide(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
	wchar_t *w;

	if (n <= 0 || !(w = malloc((size_t)n * sizeof *w)))
		return NULL;
	MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
	return w;
}

char *gd_w32_utf8_dup(const wchar_t *w, int n)
{
	int len = WideCharToMultiByte(CP_UTF8, 0, w, n, NULL, 0, NULL, NULL);
	char *s;

	if (len < 0 || !(s = malloc((size_t)len + 1)))
		return NULL;
	WideCharToMultiByte(CP_UTF8, 0, w, n, s, len, NULL, NULL);
	s[len] = '\0';
	return s;
}

int gd_w32_utf8(const wchar_t *w, char *buf, size_t cap)
{
	char *s = gd_w32_utf8_dup(w, -1);

	if (!s) {
		if (cap)
			buf[0] = '\0';
		return -1;
	}
	gd_strlcpy(buf, s, cap);
	free(s);
	return 0;
}

int gd_w32_errno(unsigned long err)
{
	switch (err) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_NAME:
	case ERROR_BAD_NETPATH:
	case ERROR_NO_MORE_FILES:
		return -ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
		return -EACCES;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return -ENOMEM;
	case ERROR_DIRECTORY:
		return -ENOTDIR;
	case ERROR_FILENAME_EXCED_RANGE:
		return -ENAMETOOLONG;
	default:
		return -EIO;
	}
}

/* The environment converted once: the process's own, read-only for us
 * (gd_ctx copies it), so a lazily built table is constant in effect. */
char **gd_plat_environ(void)
{
	static char **env;
	wchar_t *blk, *p;
	size_t n = 0, i = 0;

	if (env)
		return env;
	if (!(blk = GetEnvironmentStringsW()))
		return NULL;
	for (p = blk; *p; p += wcslen(p) + 1)
		n++;
	env = calloc(n + 1, sizeof *env);
	for (p = blk; env && *p; p += wcslen(p) + 1)
		if (*p != L'=') /* "=C:=C:\dir": cmd's per-drive cwd, not a
				   variable */
			env[i++] = gd_w32_utf8_dup(p, -1);
	FreeEnvironmentStringsW(blk);
	return env;
}

int gd_plat_self_exe(char *buf, size_t cap)
{
	wchar_t w[MAX_PATH * 4];
	DWORD n = GetModuleFileNameW(NULL, w, sizeof w / sizeof *w);

	if (!n || n >= sizeof w / sizeof *w)
		return -ENAMETOOLONG;
	return gd_w32_utf8(w, buf, cap) ? -EINVAL : 0;
}

static void win_error(DWORD e, char *buf, size_t cap)
{
	char msg[256];
	DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM |
				     FORMAT_MESSAGE_IGNORE_INSERTS,
				 NULL, e, 0, msg, sizeof msg, NULL);

	while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r' ||
		     msg[n - 1] == ' ' || msg[n - 1] == '.'))
		msg[--n] = '\0';
	gd_fmt(buf, cap, "%s (error %lu)", n ? msg : "Windows error",
	       (unsigned long)e);
}

void *gd_plat_lib_open(const char *name, char *err, size_t errcap)
{
	wchar_t *w = gd_w32_wide(name);
	DWORD flags = LOAD_LIBRARY_SEARCH_DEFAULT_DIRS;
	HMODULE h;

	if (!w)
		return NULL;
	/* A full path: its own directory serves its dependencies, as for an
	 * extension module that Python loads by path. */
	if (strchr(name, '\\') || strchr(name, '/'))
		flags |= LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR;
	h = LoadLibraryExW(w, NULL, flags);
	if (!h && err && errcap)
		win_error(GetLastError(), err, errcap);
	free(w);
	return (void *)h;
}

void *gd_plat_lib_sym(void *lib, const char *sym)
{
	FARPROC f = lib ? GetProcAddress((HMODULE)lib, sym) : NULL;
	void *p;

	memcpy(&p, &f, sizeof p); /* function to object pointer, as dlsym */
	return p;
}

void gd_plat_lib_close(void *lib)
{
	if (lib)
		FreeLibrary((HMODULE)lib);
}

int gd_plat_lib_path(void *lib, const char *sym, char *buf, size_t cap)
{
	wchar_t w[MAX_PATH * 4];
	DWORD n;

	(void)sym;
	if (!lib)
		return -ENOENT;
	n = GetModuleFileNameW((HMODULE)lib, w, sizeof w / sizeof *w);
	if (!n || n >= sizeof w / sizeof *w)
		return -ENOENT;
	return gd_w32_utf8(w, buf, cap) ? -EINVAL : 0;
}

char gd_plat_path_sep(void)
{
	return ';';
}

/* The supervisor put the inherited pipe handle's number in the variable;
 * handles are 32-bit values even in 64-bit processes. */
int gd_plat_chan_fd(const char *value)
{
	char *end;
	unsigned long long v;

	if (!value || !*value)
		return -1;
	v = strtoull(value, &end, 10);
	if (*end || !v || v > 0xFFFFFFFFull)
		return -1;
	return _open_osfhandle((intptr_t)v, _O_WRONLY | _O_BINARY);
}

/* Console control events arrive on a thread of their own; the flag is
 * all the handler touches. */
static volatile int *intr_flag;

static BOOL WINAPI on_ctrl(DWORD ev)
{
	if (!intr_flag)
		return FALSE;
	*intr_flag = ev == CTRL_C_EVENT ? SIGINT : SIGTERM;
	return TRUE;
}

void gd_plat_interrupts_catch(volatile int *flag)
{
	intr_flag = flag;
	SetConsoleCtrlHandler(on_ctrl, TRUE);
}

void gd_plat_interrupts_restore(void)
{
	SetConsoleCtrlHandler(on_ctrl, FALSE);
	intr_flag = NULL;
}

static int file_in(const wchar_t *dir, const wchar_t *name, char *buf,
		   size_t cap)
{
	wchar_t p[MAX_PATH * 2];
	DWORD a;

	if (_snwprintf(p, sizeof p / sizeof *p, L"%ls\\%ls", dir, name) < 0)
		return -ENAMETOOLONG;
	p[sizeof p / sizeof *p - 1] = 0;
	a = GetFileAttributesW(p);
	if (a == INVALID_FILE_ATTRIBUTES || (a & FILE_ATTRIBUTE_DIRECTORY))
		return -ENOENT;
	return gd_w32_utf8(p, buf, cap) ? -EINVAL : 0;
}

int gd_plat_lib_find(const char *name, char *buf, size_t cap)
{
	wchar_t dir[MAX_PATH * 2], *w, *slash;
	int rc = -ENOENT;
	DWORD n;

	if (!(w = gd_w32_wide(name)))
		return -ENOMEM;
	n = GetModuleFileNameW(NULL, dir, sizeof dir / sizeof *dir);
	if (n && n < sizeof dir / sizeof *dir &&
	    (slash = wcsrchr(dir, L'\\'))) {
		*slash = 0;
		rc = file_in(dir, w, buf, cap);
	}
	n = GetSystemDirectoryW(dir, sizeof dir / sizeof *dir);
	if (rc < 0 && n && n < sizeof dir / sizeof *dir)
		rc = file_in(dir, w, buf, cap);
	free(w);
	return rc;
}

void *gd_plat_c_locale(void)
{
	return NULL;
}

void gd_plat_locale_restore(void *prev)
{
	(void)prev;
}
