/* Imported DLLs of a PE file, resolved from Linux as the Windows loader
 * would find them. Microsoft "Dynamic-link library search order": with
 * LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS (what
 * Python 3.8+ uses for extension modules) the loader looks in the loading
 * DLL's own directory, the application directory, System32 and the
 * directories added with AddDllDirectory (os.add_dll_directory). Here:
 *   1. the file's own directory (inside a wheel: its own members),
 *   2. the directories given with scan --dll-path, in order (a copied
 *      C:\Program Files\AMD\ROCm\6.2\bin, System32, a venv's DLL dirs),
 *   3. the DLLs every Windows has (system_dlls below) count as present.
 * Windows file names are case-insensitive, so matching is too. A candidate
 * counts only when it is a PE of the importer's machine (the loader fails
 * on another one with ERROR_BAD_EXE_FORMAT). User-given paths, so they are
 * opened directly, not through ctx->fs. */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan.h"

/* Present on every supported Windows (System32 / KnownDLLs), plus the
 * Visual C++ runtime that nearly every installer and Python ships. */
static const char *const system_dlls[] = {
    "kernel32.dll", "kernelbase.dll", "ntdll.dll",    "user32.dll",
    "gdi32.dll",    "advapi32.dll",   "shell32.dll",  "shlwapi.dll",
    "ole32.dll",    "oleaut32.dll",   "ws2_32.dll",   "wsock32.dll",
    "msvcrt.dll",   "ucrtbase.dll",   "bcrypt.dll",   "crypt32.dll",
    "rpcrt4.dll",   "secur32.dll",    "version.dll",  "winmm.dll",
    "setupapi.dll", "cfgmgr32.dll",   "dbghelp.dll",  "psapi.dll",
    "iphlpapi.dll", "imm32.dll",      "comctl32.dll", "comdlg32.dll",
    "userenv.dll",  "powrprof.dll",   "wintrust.dll", "normaliz.dll",
    "dxgi.dll",	    "d3d11.dll",      "d3d12.dll",    "dxcore.dll",
    "opengl32.dll", "dwmapi.dll",     "uxtheme.dll",  "winhttp.dll",
    "wininet.dll",  "ncrypt.dll",     "netapi32.dll", "mswsock.dll",
    "dnsapi.dll",
};

static void lower(const char *s, char *out, size_t cap)
{
	size_t i = 0;

	for (; s[i] && i + 1 < cap; i++)
		out[i] = (char)tolower((unsigned char)s[i]);
	out[i] = '\0';
}

int gd_dll_is_system(const char *name)
{
	char low[160];

	lower(name, low, sizeof low);
	/* API sets are names only, mapped by the loader (Microsoft "Windows
	 * API sets"); the VC++ 2015-2022 runtime is vcruntime140*, msvcp140*,
	 * vcomp140, concrt140. */
	if (gd_startswith(low, "api-ms-win-") ||
	    gd_startswith(low, "ext-ms-") ||
	    gd_startswith(low, "vcruntime140") ||
	    gd_startswith(low, "msvcp140") || gd_startswith(low, "vcomp140") ||
	    gd_startswith(low, "concrt140"))
		return 1;
	for (size_t i = 0; i < sizeof system_dlls / sizeof system_dlls[0]; i++)
		if (!strcmp(low, system_dlls[i]))
			return 1;
	return 0;
}

/* COFF Machine of the PE file at path; 0 when it is not a PE. */
static uint16_t machine_at(const char *path)
{
	uint8_t h[64], sig[6];
	uint32_t lfanew;
	uint16_t m = 0;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    pread(fd, h, sizeof h, 0) == (ssize_t)sizeof h && h[0] == 'M' &&
	    h[1] == 'Z' && !gd_bs_rd32(h, sizeof h, 0x3c, &lfanew) &&
	    pread(fd, sig, sizeof sig, lfanew) == (ssize_t)sizeof sig &&
	    !memcmp(sig, "PE\0\0", 4))
		gd_bs_rd16(sig, sizeof sig, 4, &m);
	close(fd);
	return m;
}

/* name in dir, case-insensitively, the exact spelling first. */
static int find_in_dir(const char *dir, const char *name, char *out, size_t cap)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int hit = 0;

	gd_fmt(out, cap, "%s/%s", dir, name);
	if (!stat(out, &st) && S_ISREG(st.st_mode))
		return 1;
	if (!(d = opendir(dir)))
		return 0;
	while (!hit && (de = readdir(d))) {
		if (strcasecmp(de->d_name, name))
			continue;
		gd_fmt(out, cap, "%s/%s", dir, de->d_name);
		hit = !stat(out, &st) && S_ISREG(st.st_mode);
	}
	closedir(d);
	return hit;
}

static int try_dir(const struct gd_bs_file *f, const char *dir, const char *how,
		   struct gd_bs_need *need)
{
	char path[1024];
	uint16_t m;

	if (!find_in_dir(dir, need->soname, path, sizeof path))
		return 0;
	m = machine_at(path);
	if (m && (m == f->pe_machine || f->pe_machine == 0xffff)) {
		need->found = 1;
		gd_strlcpy(need->path, path, sizeof need->path);
		gd_strlcpy(need->how, how, sizeof need->how);
		return 1;
	}
	if (!need->note[0])
		gd_fmt(need->note, sizeof need->note, "%s is %s", path,
		       m ? (m == GD_PE_MACHINE_I386 ? "for i386"
						    : "for another machine")
			 : "not a PE file");
	return 0;
}

/* Runtime DLL families whose names carry a version: "amdhip64_7.dll" ->
 * "amdhip64" + "7", "hiprtc0602.dll" -> "hiprtc" + "0602", "cudart64_12.dll"
 * -> "cudart64" + "12", "libhipblas.dll" -> "hipblas" + "" (the ROCm 7
 * Windows naming, docs/windows.md §F). */
static const char *const families[] = {
    "amdhip64",	 "hiprtc",    "hiprtc-builtins", "amd_comgr",  "rocblas",
    "hipblas",	 "hipblaslt", "rocsolver",	 "hipsolver",  "rocsparse",
    "hipsparse", "rocfft",    "hipfft",		 "rocrand",    "hiprand",
    "miopen",	 "cudart64",  "cublas64",	 "cublaslt64", "cudnn64",
    "cufft64",	 "curand64",  "cusparse64",	 "cusolver64",
};

static int family(const char *name, char *fam, size_t fcap, char *ver,
		  size_t vcap)
{
	char low[160], *p = low;
	size_t len, k;

	lower(name, low, sizeof low);
	if (!gd_endswith(low, ".dll"))
		return 0;
	low[strlen(low) - 4] = '\0';
	if (gd_startswith(p, "lib"))
		p += 3;
	len = k = strlen(p);
	while (k && isdigit((unsigned char)p[k - 1]))
		k--;
	ver[0] = '\0';
	if (k < len && k > 1 && p[k - 1] == '_') {
		gd_strlcpy(ver, p + k, vcap);
		p[k - 1] = '\0';
	} else if (len - k == 4 && k) { /* hiprtc0602: major, minor */
		gd_strlcpy(ver, p + k, vcap);
		p[k] = '\0';
	}
	gd_strlcpy(fam, p, fcap);
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (!strcmp(p, families[i]))
			return 1;
	return 0;
}

/* "7" -> "7", "0602" -> "6.2" */
static void ver_words(const char *v, char *out, size_t cap)
{
	if (strlen(v) == 4)
		gd_fmt(out, cap, "%d.%d", atoi((char[3]){v[0], v[1], 0}),
		       atoi(v + 2));
	else
		gd_strlcpy(out, v, cap);
}

static void say_other(const char *need, const char *found, const char *dir,
		      char *note, size_t cap)
{
	char nf[64], nv[16], ff[64], fv[16], nw[16], fw[16];

	family(need, nf, sizeof nf, nv, sizeof nv);
	family(found, ff, sizeof ff, fv, sizeof fv);
	ver_words(nv, nw, sizeof nw);
	ver_words(fv, fw, sizeof fw);
	if (nv[0] && fv[0] &&
	    (!strcmp(nf, "amdhip64") || gd_startswith(nf, "hiprtc")))
		gd_fmt(note, cap,
		       "needs %s; found %s in %s (HIP SDK %s%s): the build is "
		       "for ROCm %s",
		       need, found, dir, fw, strchr(fw, '.') ? "" : ".x", nw);
	else
		gd_fmt(note, cap,
		       "needs %s; found %s in %s (another version or naming)",
		       need, found, dir);
}

/* Another version of a known runtime DLL in dir: the greatest name. */
static int other_in_dir(const char *dir, const char *need, char *best,
			size_t cap)
{
	char nf[64], nv[16], cf[64], cv[16];
	struct dirent *de;
	DIR *d;

	best[0] = '\0';
	if (!family(need, nf, sizeof nf, nv, sizeof nv) || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		if (!family(de->d_name, cf, sizeof cf, cv, sizeof cv) ||
		    strcmp(cf, nf) || !strcasecmp(de->d_name, need) ||
		    strlen(de->d_name) >= cap)
			continue;
		if (!best[0] || strcmp(de->d_name, best) > 0)
			gd_strlcpy(best, de->d_name, cap);
	}
	closedir(d);
	return best[0] != '\0';
}

static void own_dir(const struct gd_bs_file *f, char *dir, size_t cap)
{
	const char *sl = strrchr(f->path, '/');

	if (sl)
		gd_fmt(dir, cap, "%.*s", (int)(sl - f->path), f->path);
	else
		gd_strlcpy(dir, ".", cap);
	if (!dir[0])
		gd_strlcpy(dir, "/", cap);
}

static void explain_missing(const struct gd_bs_env *env, const char *dir,
			    int delay, struct gd_bs_need *need)
{
	char other[256];
	size_t used;

	if (dir && other_in_dir(dir, need->soname, other, sizeof other))
		say_other(need->soname, other, dir, need->note,
			  sizeof need->note);
	for (size_t i = 0; !need->note[0] && i < env->n_dll_dirs; i++)
		if (other_in_dir(env->dll_dirs[i], need->soname, other,
				 sizeof other))
			say_other(need->soname, other, env->dll_dirs[i],
				  need->note, sizeof need->note);
	used = strlen(need->note);
	if (delay)
		gd_fmt(need->note + used, sizeof need->note - used,
		       "%sdelay-loaded: "
		       "fails only when first used",
		       used ? "; " : "");
}

void gd_dllresolve(gd_ctx *ctx, const struct gd_bs_env *env,
		   const struct gd_bs_file *f, const char *dll, int delay,
		   struct gd_bs_need *need)
{
	char dir[1024];
	int on_disk = strchr(f->path, '!') == NULL;

	(void)ctx;
	memset(need, 0, sizeof *need);
	gd_strlcpy(need->soname, dll, sizeof need->soname);
	own_dir(f, dir, sizeof dir);
	if (on_disk && try_dir(f, dir, "dll-dir", need))
		return;
	for (size_t i = 0; i < env->n_dll_dirs; i++)
		if (try_dir(f, env->dll_dirs[i], "dll-path", need))
			return;
	if (gd_dll_is_system(dll)) {
		need->found = 1;
		gd_strlcpy(need->path, dll, sizeof need->path);
		gd_strlcpy(need->how, "system", sizeof need->how);
		need->note[0] = '\0';
		return;
	}
	/* python3.dll / python313.dll: the interpreter that loads the .pyd */
	if (!strncasecmp(dll, "python3", 7) && gd_endswith(dll, ".dll")) {
		need->found = 1;
		gd_strlcpy(need->path, dll, sizeof need->path);
		gd_strlcpy(need->how, "python", sizeof need->how);
		need->note[0] = '\0';
		return;
	}
	explain_missing(env, on_disk ? dir : NULL, delay, need);
}

static int member_dir_is(const char *name, const char *dir, size_t dlen)
{
	const char *sl = strrchr(name, '/');
	size_t l = sl ? (size_t)(sl - name) : 0;

	return l == dlen && !strncmp(name, dir, dlen);
}

/* delvewheel puts a wheel's DLLs in "<dist>.libs/" at the top. */
static int in_libs_dir(const char *name)
{
	const char *sl = strchr(name, '/');

	return sl && !strchr(sl + 1, '/') && sl - name > 5 &&
	       !strncmp(sl - 5, ".libs", 5);
}

void gd_dll_archive_needs(struct gd_bs_file *f, const char *member,
			  const struct gd_zip_names *names)
{
	const char *sl = strrchr(member, '/');
	size_t dlen = sl ? (size_t)(sl - member) : 0;

	for (size_t i = 0; i < f->dyn.needed.n; i++) {
		const char *dll = f->dyn.needed.v[i];
		size_t first, cnt = gd_zip_names_base(names, dll, &first);

		for (size_t k = first; k < first + cnt; k++) {
			const char *name = names->base[k];
			struct gd_bs_need *nd;

			if (!member_dir_is(name, member, dlen) &&
			    !in_libs_dir(name))
				continue;
			if ((nd = gd_vec_push(&f->needs))) {
				gd_strlcpy(nd->soname, dll, sizeof nd->soname);
				nd->found = 1;
				gd_strlcpy(nd->how, "archive", sizeof nd->how);
				gd_strlcpy(nd->path, name, sizeof nd->path);
			}
			break;
		}
	}
}
