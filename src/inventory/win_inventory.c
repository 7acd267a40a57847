/* gd_win_inventory_collect (win_inventory.h): directory listings under the
 * root through Windows paths (core/wincap.h), names compared without case
 * as Windows does. */
#include "win_inventory.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "binscan/pe_version.h"
#include "core/wincap.h"
#include "win_int.h"

/* The directory's entries (Windows path); 0 or <0. */
int gd_win_list(gd_ctx *ctx, const char *winpath, gd_strvec *out)
{
	char p[1024];

	if (gd_win_resolve(ctx, winpath, p, sizeof p) < 0) {
		memset(out, 0, sizeof *out);
		return -1;
	}
	return gd_fs_list(&ctx->fs, p, out);
}

/* FileVersion of dir\name: versions.tsv for files a capture stored
 * empty, else the PE version resource of the bytes. */
void gd_win_file_version(gd_ctx *ctx, const char *dir, const char *name,
			 char *out, size_t cap)
{
	struct gd_win_filever fv;
	char wp[512], p[1024], pv[48];
	uint8_t *b;
	size_t n;
	int rc;

	out[0] = '\0';
	gd_fmt(wp, sizeof wp, "%s\\%s", dir, name);
	if (gd_wincap_version(ctx, wp, &fv) == 0 && fv.file_version[0]) {
		gd_strlcpy(out, fv.file_version, cap);
		return;
	}
	if (gd_win_resolve(ctx, wp, p, sizeof p) < 0)
		return;
	rc = gd_fs_read_alloc(&ctx->fs, p, 64u << 20, (char **)&b, &n);
	if (rc < 0 && rc != -EFBIG)
		return;
	if (n && gd_pe_version(b, n, out, pv, cap) < 0)
		out[0] = '\0';
	free(b);
}

int gd_win_hip_major(const char *dll)
{
	int m;

	if (!strcasecmp(dll, "amdhip64.dll"))
		return 5;
	if (strncasecmp(dll, "amdhip64_", 9) || sscanf(dll + 9, "%d", &m) != 1)
		return 0;
	return m > 0 && m < 100 ? m : 0;
}

int gd_win_is_comgr(const char *n)
{
	return !strncasecmp(n, "amd_comgr", 9) && strlen(n) > 4 &&
	       !strcasecmp(n + strlen(n) - 4, ".dll") && !strstr(n, "32");
}

static void system32(gd_ctx *ctx, struct gd_win_inventory *wi)
{
	const char *root = gd_win_getenv(ctx, "SystemRoot");
	char dir[256];
	gd_strvec v;

	gd_fmt(dir, sizeof dir, "%s\\System32",
	       root && *root ? root : "C:\\Windows");
	if (gd_win_list(ctx, dir, &v) < 0)
		return;
	wi->sys32_listed = 1;
	for (size_t i = 0; i < v.n; i++) {
		const char *n = v.v[i];
		int m = gd_win_hip_major(n);

		if (m && wi->n_sys_runtimes < 4) {
			gd_win_file_version(
			    ctx, dir, n,
			    wi->sys_runtime_ver[wi->n_sys_runtimes], 48);
			gd_strlcpy(wi->sys_runtimes[wi->n_sys_runtimes++], n,
				   32);
			if (m > wi->driver_hip_major)
				wi->driver_hip_major = m;
		} else if (gd_win_is_comgr(n) && wi->n_sys_comgr < 4) {
			gd_strlcpy(wi->sys_comgr[wi->n_sys_comgr++], n, 32);
		} else if (!strcasecmp(n, "nvcuda.dll")) {
			wi->has_nvcuda = 1;
		} else if (!strcasecmp(n, "nvml.dll")) {
			wi->has_nvml = 1;
		}
	}
	gd_strvec_free(&v);
}

/* TensileLibrary_lazy_gfx1030.dat, TensileLibrary_gfx1030.co, ... -> gfx1030 */
static void tensile(gd_ctx *ctx, struct gd_win_sdk *s)
{
	char dir[256];
	gd_strvec v;

	gd_fmt(dir, sizeof dir, "%s\\bin\\rocblas\\library", s->root);
	if (gd_win_list(ctx, dir, &v) < 0)
		return;
	s->library_listed = 1;
	for (size_t i = 0; i < v.n; i++) {
		const char *g = strstr(v.v[i], "gfx");
		char t[16];
		size_t n, k;
		int dup = 0;

		if (!g || strncasecmp(v.v[i], "TensileLibrary", 14))
			continue;
		n = 3 + strspn(g + 3, "0123456789abcdef");
		if (n < 4 || n >= sizeof t)
			continue;
		memcpy(t, g, n);
		t[n] = '\0';
		for (k = 0; k < (size_t)s->n_tensile; k++)
			dup |= !strcmp(s->tensile[k], t);
		if (!dup && s->n_tensile < GD_WIN_MAX_TARGETS)
			gd_strlcpy(s->tensile[s->n_tensile++], t, 16);
	}
	gd_strvec_free(&v);
}

static void sdk_bin(gd_ctx *ctx, struct gd_win_sdk *s)
{
	char dir[256];
	gd_strvec v;

	gd_fmt(dir, sizeof dir, "%s\\bin", s->root);
	if (gd_win_list(ctx, dir, &v) < 0)
		return;
	for (size_t i = 0; i < v.n; i++) {
		const char *n = v.v[i];
		int m = gd_win_hip_major(n);

		if (m > s->runtime_major) {
			s->runtime_major = m;
			gd_strlcpy(s->runtime, n, sizeof s->runtime);
		} else if (gd_win_is_comgr(n) && !s->comgr[0]) {
			gd_strlcpy(s->comgr, n, sizeof s->comgr);
		} else if (!strcasecmp(n, "hipblas.dll") ||
			   !strcasecmp(n, "libhipblas.dll")) {
			gd_strlcpy(s->hipblas, n, sizeof s->hipblas);
		} else if (!strcasecmp(n, "rocblas.dll")) {
			s->has_rocblas = 1;
		}
	}
	gd_strvec_free(&v);
	if (s->runtime[0])
		gd_win_file_version(ctx, dir, s->runtime, s->runtime_ver,
				    sizeof s->runtime_ver);
	tensile(ctx, s);
}

static void sdk_env(gd_ctx *ctx, struct gd_win_sdk *s)
{
	char var[16];
	const char *v;
	size_t n;

	gd_fmt(var, sizeof var, "HIP_PATH_%d%d", s->major, s->minor);
	v = gd_win_getenv(ctx, var);
	n = strlen(s->root);
	if (v && !strncasecmp(v, s->root, n) && (!v[n] || !strcmp(v + n, "\\")))
		gd_strlcpy(s->env_var, var, sizeof s->env_var);
}

static void sdks(gd_ctx *ctx, struct gd_win_inventory *wi)
{
	const char *pf = gd_win_getenv(ctx, "ProgramFiles");
	char dir[256];
	gd_strvec v;

	gd_fmt(dir, sizeof dir, "%s\\AMD\\ROCm",
	       pf && *pf ? pf : "C:\\Program Files");
	if (gd_win_list(ctx, dir, &v) < 0)
		return;
	for (size_t i = 0; i < v.n && wi->n_sdks < GD_WIN_MAX_SDKS; i++) {
		struct gd_win_sdk *s = &wi->sdks[wi->n_sdks];

		memset(s, 0, sizeof *s);
		if (sscanf(v.v[i], "%d.%d", &s->major, &s->minor) != 2)
			continue; /* "runtime-7.x", other trees: not a HIP SDK
				   */
		gd_strlcpy(s->version, v.v[i], sizeof s->version);
		gd_fmt(s->root, sizeof s->root, "%s\\%s", dir, v.v[i]);
		sdk_bin(ctx, s);
		sdk_env(ctx, s);
		wi->n_sdks++;
	}
	gd_strvec_free(&v);
}

static void hip_path(gd_ctx *ctx, struct gd_win_inventory *wi)
{
	const char *v = gd_win_getenv(ctx, "HIP_PATH");

	wi->hip_path_sdk = -1;
	if (!v)
		return;
	gd_strlcpy(wi->hip_path, v, sizeof wi->hip_path);
	for (int i = 0; i < wi->n_sdks; i++) {
		size_t n = strlen(wi->sdks[i].root);

		if (!strncasecmp(v, wi->sdks[i].root, n) &&
		    (!v[n] || !strcmp(v + n, "\\")))
			wi->hip_path_sdk = i;
	}
}

static void cuda(gd_ctx *ctx, struct gd_win_inventory *wi)
{
	char *const *env = ctx->judged ? ctx->judged : ctx->env;
	const char *v = gd_win_getenv(ctx, "CUDA_PATH");
	int a, b;

	if (v)
		gd_strlcpy(wi->cuda_path, v, sizeof wi->cuda_path);
	for (size_t i = 0; env && env[i] && wi->n_cuda_versions < 4; i++)
		if (!strncasecmp(env[i], "CUDA_PATH_V", 11) &&
		    sscanf(env[i] + 11, "%d_%d", &a, &b) == 2)
			gd_fmt(wi->cuda_versions[wi->n_cuda_versions++], 24,
			       "%d.%d", a, b);
}

void gd_win_inventory_collect(gd_ctx *ctx, struct gd_win_inventory *wi)
{
	memset(wi, 0, sizeof *wi);
	system32(ctx, wi);
	sdks(ctx, wi);
	hip_path(ctx, wi);
	cuda(ctx, wi);
	gd_win_apps_collect(ctx, wi);
}
