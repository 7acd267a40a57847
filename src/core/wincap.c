/* Windows captures and the live Windows registry (wincap.h). */
#include "wincap.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plat.h"

#define REG_FILE_MAX (64u << 20)

#define HKLM "HKEY_LOCAL_MACHINE"
#define HKCU "HKEY_CURRENT_USER"
/* Display adapters and their PCI devices, the machine's and the user's
 * environment, Python installs (PEP 514, also the 32-bit view), AMD's
 * software keys. */
const struct gd_win_regroot gd_win_regroots[] = {
    {"10-display-class", HKLM,
     "SYSTEM\\CurrentControlSet\\Control\\Class\\"
     "{4d36e968-e325-11ce-bfc1-08002be10318}"},
    {"20-enum-pci", HKLM, "SYSTEM\\CurrentControlSet\\Enum\\PCI"},
    {"30-environment", HKLM,
     "SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"},
    {"30-environment", HKCU, "Environment"},
    {"40-python", HKLM, "SOFTWARE\\Python\\PythonCore"},
    {"40-python", HKLM, "SOFTWARE\\WOW6432Node\\Python\\PythonCore"},
    {"40-python", HKCU, "SOFTWARE\\Python\\PythonCore"},
    {"50-amd", HKLM, "SOFTWARE\\AMD"},
};
const size_t gd_win_n_regroots =
    sizeof gd_win_regroots / sizeof *gd_win_regroots;

static int is_reg_file(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcasecmp(name + n - 4, ".reg");
}

static void load_capture_registry(gd_ctx *ctx)
{
	gd_strvec names;
	char path[512], err[160];
	int skipped, rc;

	if (gd_fs_list(&ctx->fs, "/registry", &names) < 0) {
		gd_diag_add(
		    ctx, GD_DIAG_WARN, "registry/",
		    "this Windows capture has no registry/ exports: "
		    "display adapters and environment keys are unknown");
		return;
	}
	for (size_t i = 0; i < names.n; i++) {
		char *buf;
		size_t len;

		if (!is_reg_file(names.v[i]))
			continue;
		gd_fmt(path, sizeof path, "/registry/%s", names.v[i]);
		if ((rc = gd_fs_read_alloc(&ctx->fs, path, REG_FILE_MAX, &buf,
					   &len)) < 0 &&
		    rc != -EFBIG) {
			gd_diag_add(ctx, GD_DIAG_WARN, path, "unreadable: %s",
				    gd_fs_strerror(rc));
			continue;
		}
		if (gd_reg_parse(ctx->reg, buf, len, &skipped, err,
				 sizeof err) < 0)
			gd_diag_add(ctx, GD_DIAG_WARN, path, "%s", err);
		else if (skipped)
			gd_diag_add(ctx, GD_DIAG_INFO, path,
				    "%d malformed line(s) skipped", skipped);
		free(buf);
	}
	gd_strvec_free(&names);
}

void gd_wincap_init(gd_ctx *ctx)
{
	struct stat st;
	int win;

	if (ctx->fs.is_slash)
		win = !strcmp(gd_plat_name(), "windows");
	else
		win = (gd_fs_stat(&ctx->fs, "/registry", &st) == 0 &&
		       S_ISDIR(st.st_mode)) ||
		      (gd_fs_stat(&ctx->fs, "/fs", &st) == 0 &&
		       S_ISDIR(st.st_mode));
	ctx->platform = win ? "windows" : "linux";
	if (!win || !(ctx->reg = calloc(1, sizeof *ctx->reg)))
		return;
	gd_reg_init(ctx->reg);
	if (!ctx->fs.is_slash)
		load_capture_registry(ctx);
	else if (gd_reg_load_live(ctx->reg) < 0)
		gd_diag_add(ctx, GD_DIAG_WARN, "registry",
			    "the registry could not be read");
}

void gd_wincap_free(gd_ctx *ctx)
{
	if (ctx->reg)
		gd_reg_free(ctx->reg);
	free(ctx->reg);
	ctx->reg = NULL;
}

int gd_win_fs_path(const char *w, char *buf, size_t cap)
{
	size_t n;

	if (!isalpha((unsigned char)w[0]) || w[1] != ':')
		return -1;
	if (gd_fmt(buf, cap, "/fs/%c%s%s", toupper((unsigned char)w[0]),
		   w[2] == '\\' || w[2] == '/' || !w[2] ? "" : "/", w + 2) < 0)
		gd_mark_cut(buf, cap); /* never a shorter path: another file */
	for (char *p = buf; *p; p++)
		if (*p == '\\')
			*p = '/';
	n = strlen(buf);
	while (n > 5 && buf[n - 1] == '/')
		buf[--n] = '\0';
	return 0;
}

int gd_win_resolve(gd_ctx *ctx, const char *winpath, char *buf, size_t cap)
{
	char raw[1024], *save = NULL, *c;
	size_t n;

	gd_fs_hook hook = ctx->fs.hook;

	if (gd_win_fs_path(winpath, raw, sizeof raw) < 0)
		return -1;
	/* the listings that match names are not what discovery reads:
	 * `gather` records the path itself when the caller uses it */
	ctx->fs.hook = NULL;
	gd_strlcpy(buf, "/fs", cap);
	for (c = strtok_r(raw + 4, "/", &save); c;
	     c = strtok_r(NULL, "/", &save)) {
		gd_strvec v;
		const char *hit = c;

		if (gd_fs_list(&ctx->fs, buf, &v) ==
		    0) { /* v zeroed on error */
			for (size_t i = 0; i < v.n; i++)
				if (!strcasecmp(v.v[i], c)) {
					hit = v.v[i];
					break;
				}
		}
		n = strlen(buf);
		gd_fmt(buf + n, cap - n, "/%s", hit);
		gd_strvec_free(&v); /* zeroed when the listing failed */
	}
	ctx->fs.hook = hook;
	return 0;
}

/* A versions.tsv path (Windows spelling or fs/...) in /fs/ form. */
static void tsv_path(const char *p, char *buf, size_t cap)
{
	if (gd_win_fs_path(p, buf, cap) == 0)
		return;
	gd_fmt(buf, cap, "%s%s", p[0] == '/' ? "" : "/", p);
	for (char *q = buf; *q; q++)
		if (*q == '\\')
			*q = '/';
}

static int fill_ver(char *line, struct gd_win_filever *out)
{
	char *f[4] = {0}, *t = line;
	int n = 0;

	/* empty fields are fields: no strtok, which would merge tabs */
	while (t && n < 4) {
		f[n++] = t;
		if ((t = strchr(t, '\t')))
			*t++ = '\0';
	}
	memset(out, 0, sizeof *out);
	if (n < 2)
		return -1;
	gd_strlcpy(out->file_version, gd_trim(f[1]), sizeof out->file_version);
	if (f[2])
		gd_strlcpy(out->product_version, gd_trim(f[2]),
			   sizeof out->product_version);
	if (f[3])
		gd_parse_u64(gd_trim(f[3]), 10, &out->size);
	return 0;
}

int gd_wincap_version(gd_ctx *ctx, const char *winpath,
		      struct gd_win_filever *out)
{
	char want[1024], have[1024], *buf, *save = NULL;
	int rc = -ENOENT;
	size_t len;

	tsv_path(winpath, want, sizeof want);
	if (gd_fs_read_alloc(&ctx->fs, "/.gpudoctor/versions.tsv", 8u << 20,
			     &buf, &len) < 0)
		return -ENOENT;
	for (char *l = strtok_r(buf, "\r\n", &save); l;
	     l = strtok_r(NULL, "\r\n", &save)) {
		char *tab = strchr(l, '\t');

		if (!tab || l[0] == '#')
			continue;
		*tab = '\0';
		tsv_path(l, have, sizeof have);
		if (strcasecmp(have, want))
			continue;
		*tab = '\t';
		rc = fill_ver(l, out);
		break;
	}
	free(buf);
	return rc;
}

const char *gd_win_getenv(const gd_ctx *ctx, const char *name)
{
	char *const *env = ctx->judged ? ctx->judged : ctx->env;
	long i = gd_envv_find(env, name, 1);

	return i < 0 ? NULL : env[i] + strlen(name) + 1;
}

int gd_ctx_is_windows(const gd_ctx *ctx)
{
	return ctx->platform && !strcmp(ctx->platform, "windows");
}
