/* gd_proc_run on Windows: CreateProcessW suspended, put in a Job Object
 * with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, resumed; output through one
 * pipe; at the deadline or the end the job is terminated and closed, so no
 * grandchild survives the run. */
#include "plat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "plat_win32.h"
#include "util.h"

/* One argument quoted the way CommandLineToArgvW and the MSVC runtime
 * split it: backslashes are literal unless they precede a quote. */
typedef GD_VEC(char) charvec;

static void quote_arg(charvec *cl, const char *a)
{
	int plain = *a && !strpbrk(a, " \t\n\v\"");
	size_t bs = 0;

	if (cl->n)
		*(char *)gd_vec_push(cl) = ' ';
	if (plain) {
		for (; *a; a++)
			*(char *)gd_vec_push(cl) = *a;
		return;
	}
	*(char *)gd_vec_push(cl) = '"';
	for (;; a++) {
		if (*a == '\\') {
			bs++;
			continue;
		}
		/* 2n backslashes before a quote (ours or the closing one). */
		for (size_t k = 0; k < (*a == '"' || !*a ? 2 * bs : bs); k++)
			*(char *)gd_vec_push(cl) = '\\';
		bs = 0;
		if (!*a)
			break;
		if (*a == '"')
			*(char *)gd_vec_push(cl) = '\\';
		*(char *)gd_vec_push(cl) = *a;
	}
	*(char *)gd_vec_push(cl) = '"';
}

wchar_t *gd_w32_command_line(char *const *argv)
{
	charvec cl = {0};
	wchar_t *w;

	for (size_t i = 0; argv[i]; i++)
		quote_arg(&cl, argv[i]);
	*(char *)gd_vec_push(&cl) = '\0';
	w = gd_w32_wide(cl.v);
	free(cl.v);
	return w;
}

/* "A=1\0B=2\0\0" in UTF-16, as CREATE_UNICODE_ENVIRONMENT wants. */
wchar_t *gd_w32_env_block(char *const *envp)
{
	GD_VEC(wchar_t) b = {0};

	for (size_t i = 0; envp[i]; i++) {
		wchar_t *w = gd_w32_wide(envp[i]);

		for (wchar_t *p = w; p && *p; p++)
			*(wchar_t *)gd_vec_push(&b) = *p;
		*(wchar_t *)gd_vec_push(&b) = 0;
		free(w);
	}
	*(wchar_t *)gd_vec_push(&b) = 0;
	*(wchar_t *)gd_vec_push(&b) = 0;
	return b.v;
}

void *gd_w32_kill_job(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;
	HANDLE job = CreateJobObjectW(NULL, NULL);

	if (!job)
		return NULL;
	memset(&li, 0, sizeof li);
	li.BasicLimitInformation.LimitFlags =
	    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE |
	    JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
	SetInformationJobObject(job, JobObjectExtendedLimitInformation, &li,
				sizeof li);
	return job;
}

static int start(const gd_proc_spec *spec, HANDLE job, HANDLE out,
		 PROCESS_INFORMATION *pi)
{
	STARTUPINFOW si;
	wchar_t *cl = gd_w32_command_line(spec->argv);
	wchar_t *env = spec->envp ? gd_w32_env_block(spec->envp) : NULL;
	BOOL ok;

	/* No "DLL not found" or crash dialog waits for a click: the child
	 * inherits this error mode, and a missing DLL is a finding. */
	SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX |
		     SEM_NOOPENFILEERRORBOX);
	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = INVALID_HANDLE_VALUE;
	si.hStdOutput = out;
	si.hStdError = out;
	ok = cl && CreateProcessW(NULL, cl, NULL, NULL, TRUE,
				  CREATE_SUSPENDED | CREATE_NO_WINDOW |
				      CREATE_UNICODE_ENVIRONMENT,
				  env, NULL, &si, pi);
	free(cl);
	free(env);
	if (!ok)
		return (int)GetLastError();
	/* Where jobs do not nest (before Windows 8, some Wine versions) the
	 * child stays in the job we are in; the deadline then ends it with
	 * TerminateProcess. */
	AssignProcessToJobObject(job, pi->hProcess);
	ResumeThread(pi->hThread);
	CloseHandle(pi->hThread);
	return 0;
}

static void take(HANDLE rd, gd_proc_result *res, size_t cap)
{
	char b[4096];
	DWORD avail = 0, got = 0;

	while (PeekNamedPipe(rd, NULL, 0, NULL, &avail, NULL) && avail) {
		if (!ReadFile(rd, b, avail < sizeof b ? avail : sizeof b, &got,
			      NULL) ||
		    !got)
			return;
		if (res->out_len + got > cap) {
			res->out_truncated = 1;
			got = (DWORD)(cap - res->out_len);
		}
		memcpy(res->out + res->out_len, b, got);
		res->out_len += got;
		res->out[res->out_len] = '\0';
	}
}

/* Polls the pipe and the process until it ends or the deadline passes. */
static int wait_child(HANDLE proc, HANDLE rd, const gd_proc_spec *spec,
		      gd_proc_result *res, size_t cap, double t0)
{
	for (;;) {
		DWORD w = WaitForSingleObject(proc, 10);

		take(rd, res, cap);
		if (w == WAIT_OBJECT_0)
			return 0;
		if (spec->timeout_ms > 0 &&
		    (gd_now() - t0) * 1000 >= spec->timeout_ms)
			return 1;
	}
}

int gd_proc_run(const gd_proc_spec *spec, gd_proc_result *res)
{
	size_t cap = spec->out_cap ? spec->out_cap : 64 * 1024;
	SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
	PROCESS_INFORMATION pi;
	HANDLE rd, wr, job;
	double t0 = gd_now();
	DWORD code = 0;
	int e, timed_out;

	memset(res, 0, sizeof *res);
	if (!spec->argv || !spec->argv[0])
		return -EINVAL;
	if (!(res->out = calloc(1, cap + 1)))
		return -ENOMEM;
	if (!CreatePipe(&rd, &wr, &sa, 1 << 16)) /* fewer rounds for a flood */
		return gd_w32_errno(GetLastError());
	SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
	if (!(job = gd_w32_kill_job())) {
		CloseHandle(rd);
		CloseHandle(wr);
		return gd_w32_errno(GetLastError());
	}
	e = start(spec, job, wr, &pi);
	CloseHandle(wr);
	if (e) {
		res->how = GD_PROC_NOSTART;
		res->code = (unsigned)e;
		CloseHandle(rd);
		CloseHandle(job);
		return 0;
	}
	timed_out = wait_child(pi.hProcess, rd, spec, res, cap, t0);
	TerminateJobObject(job, 1); /* the tree, whatever it spawned */
	if (timed_out)
		TerminateProcess(pi.hProcess, 1);
	WaitForSingleObject(pi.hProcess, 2000);
	take(rd, res, cap);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	CloseHandle(rd);
	CloseHandle(job);
	res->elapsed_ms = (long)((gd_now() - t0) * 1000);
	res->code = code;
	/* Exceptions end a process with their NTSTATUS: 0xC0000005 etc. */
	res->how = timed_out				 ? GD_PROC_TIMEOUT
		   : (code & 0xF0000000u) == 0xC0000000u ? GD_PROC_CRASHED
							 : GD_PROC_EXITED;
	return 0;
}

void gd_proc_result_free(gd_proc_result *res)
{
	free(res->out);
	res->out = NULL;
	res->out_len = 0;
}

const char *gd_w32_ntstatus_name(unsigned c)
{
	switch (c) {
	case 0xC0000005u:
		return "access violation";
	case 0xC000001Du:
		return "illegal instruction";
	case 0xC0000094u:
		return "integer divide by zero";
	case 0xC00000FDu:
		return "stack overflow";
	case 0xC0000135u:
		return "a DLL it needs was not found";
	case 0xC0000139u:
		return "an entry point it needs was not found in a DLL";
	case 0xC0000409u:
		return "fail-fast / stack buffer overrun";
	case 0xC0000374u:
		return "heap corruption";
	case 0xC000013Au:
		return "ended by Ctrl-C";
	default:
		return "exception";
	}
}

void gd_proc_describe(const gd_proc_result *res, int timeout_ms, char *buf,
		      size_t cap)
{
	char why[200] = "";

	switch (res->how) {
	case GD_PROC_EXITED:
		gd_fmt(buf, cap, "exited %u", res->code);
		break;
	case GD_PROC_CRASHED:
		gd_fmt(buf, cap, "crashed: 0x%08X (%s)", res->code,
		       gd_w32_ntstatus_name(res->code));
		break;
	case GD_PROC_TIMEOUT:
		gd_fmt(buf, cap, "timed out after %d ms", timeout_ms);
		break;
	case GD_PROC_NOSTART:
		FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM |
				   FORMAT_MESSAGE_IGNORE_INSERTS,
			       NULL, res->code, 0, why, sizeof why, NULL);
		gd_fmt(buf, cap, "did not start: %s", gd_trim(why));
		break;
	}
}

void gd_plat_crash_name(unsigned code, char *buf, size_t cap)
{
	gd_fmt(buf, cap, "0x%08X (%s)", code, gd_w32_ntstatus_name(code));
}

static const char *env_path(char *const *envp)
{
	if (!envp)
		return getenv("PATH");
	for (size_t i = 0; envp[i]; i++)
		if (!_strnicmp(envp[i], "PATH=", 5)) /* Path= too */
			return envp[i] + 5;
	return NULL;
}

wchar_t *gd_w32_find_program(const char *argv0, char *const *envp)
{
	static const wchar_t *const ext[] = {NULL, L".exe", L".com"};
	const char *path = env_path(envp);
	wchar_t *name, *wpath, buf[MAX_PATH * 4], *found = NULL;

	if (strpbrk(argv0, "/\\:") || !(name = gd_w32_wide(argv0)))
		return NULL; /* a path: CreateProcess takes it as it is */
	wpath = path ? gd_w32_wide(path) : NULL;
	for (size_t i = 0; !found && i < sizeof ext / sizeof *ext; i++) {
		DWORD n = SearchPathW(wpath, name, ext[i],
				      sizeof buf / sizeof *buf, buf, NULL);

		if (n && n < sizeof buf / sizeof *buf)
			found = _wcsdup(buf);
	}
	free(name);
	free(wpath);
	return found;
}

/* Ctrl-C reaches every process of the console: the command decides what
 * it means; we only wait for its exit status. Handler routines, unlike
 * SetConsoleCtrlHandler(NULL, TRUE), are not inherited. */
static BOOL WINAPI ignore_ctrl(DWORD ev)
{
	(void)ev;
	return TRUE;
}

int gd_plat_exec(char *const *argv, char *const *envp, unsigned *status)
{
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	wchar_t *prog = gd_w32_find_program(argv[0], envp);
	wchar_t *cl = gd_w32_command_line(argv);
	wchar_t *env = envp ? gd_w32_env_block(envp) : NULL;
	HANDLE job = gd_w32_kill_job();
	DWORD code = 1;
	int e = 0;

	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	if (!cl || !job ||
	    !CreateProcessW(prog, cl, NULL, NULL, TRUE,
			    CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT, env,
			    NULL, &si, &pi))
		e = gd_w32_errno(GetLastError());
	free(prog);
	free(cl);
	free(env);
	if (e) {
		if (job)
			CloseHandle(job);
		return e;
	}
	AssignProcessToJobObject(job, pi.hProcess);
	SetConsoleCtrlHandler(ignore_ctrl, TRUE);
	ResumeThread(pi.hThread);
	CloseHandle(pi.hThread);
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	SetConsoleCtrlHandler(ignore_ctrl, FALSE);
	CloseHandle(pi.hProcess);
	CloseHandle(job); /* whatever it left running ends with it */
	*status = code;
	return 0;
}
