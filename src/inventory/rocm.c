/* ROCm / HIP installs: AMD's /opt/rocm[-X.Y.Z] trees, ROCM_PATH, HIP_PATH,
 * library-path entries and the distribution's multiarch directory
 * (Debian/Ubuntu ship libamdhip64.so.5 in /usr/lib/<triplet>). Each is
 * listed once (by its resolved path) with every way it was found. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inv_int.h"

static const char *const rocm_bases[] = {
    "libamdhip64", "librocblas",   "libhipblas", "libhipblaslt",
    "libMIOpen",   "libamd_comgr", "libhiprtc",	 NULL,
};
static const char *const rocm_labels[] = {
    "amdhip64", "rocblas",   "hipblas", "hipblaslt",
    "miopen",	"amd_comgr", "hiprtc",	NULL,
};

static int has_hip(char *const *names, size_t n)
{
	char v[64];

	for (size_t i = 0; i < n; i++)
		if (gd_soname_version(names[i], "libamdhip64", v, sizeof v,
				      NULL))
			return 1;
	return 0;
}

static int dir_has_hip(gd_ctx *ctx, const char *dir)
{
	gd_strvec names;
	int r;

	if (gd_fs_list(&ctx->fs, dir, &names) < 0)
		return 0;
	r = has_hip(names.v, names.n);
	gd_strvec_free(&names);
	return r;
}

static const struct gd_lib *find_lib(const struct gd_rocm_install *r,
				     const char *name)
{
	for (size_t i = 0; i < r->n_libs; i++)
		if (!strcmp(r->libs[i].name, name))
			return &r->libs[i];
	return NULL;
}

/* The libraries and versions of one install. */
static void read_install(gd_ctx *ctx, struct gd_rocm_install *r)
{
	static const char *const sub[] = {"lib", "lib64", NULL};
	char p[700], line[160];
	const struct gd_lib *hip;
	gd_strvec names = {0};
	int rc = -ENOENT;

	gd_strlcpy(r->lib_dir, r->path, sizeof r->lib_dir);
	for (int i = 0; sub[i]; i++) {
		gd_path_join(p, sizeof p, r->path, sub[i]);
		if (gd_fs_list(&ctx->fs, p, &names) == 0) {
			gd_strlcpy(r->lib_dir, p, sizeof r->lib_dir);
			rc = 0;
			break;
		}
	}
	if (rc < 0)
		rc = gd_fs_list(&ctx->fs, r->path, &names);
	if (rc < 0)
		gd_fmt(r->error, sizeof r->error, "cannot list %s: %s",
		       r->lib_dir, gd_fs_strerror(rc));
	gd_inv_match_libs(names.v, names.n, r->lib_dir, rocm_bases, rocm_labels,
			  &r->libs, &r->n_libs);
	gd_strvec_free(&names);

	hip = find_lib(r, "amdhip64");
	if (hip && hip->version[0]) {
		gd_text_set(&r->hip_version, hip->version, hip->path);
		r->hip_major = hip->so_major;
	} else {
		gd_text_unknown(
		    &r->hip_version, GD_UNKNOWN,
		    hip ? "libamdhip64.so has no version in its name"
			: "no libamdhip64 here");
	}
	gd_path_join(p, sizeof p, r->path, ".info/version");
	rc = gd_fs_read_line(&ctx->fs, p, line, sizeof line);
	if (rc == 0 && line[0])
		gd_text_set(&r->version, line, p);
	else if (gd_known(&r->hip_version))
		gd_text_set(&r->version, r->hip_version.v, r->hip_version.src);
	else
		gd_text_unknown(
		    &r->version,
		    rc < 0 && rc != -ENOENT ? GD_FAILED : GD_UNKNOWN, "%s",
		    rc < 0 && rc != -ENOENT
			? gd_fs_strerror(rc)
			: "no .info/version and no versioned libamdhip64");
}

/* Record path as an install found by how; merges duplicates. */
static void add_install(gd_ctx *ctx, struct gd_inventory *inv, const char *path,
			const char *how)
{
	char res[512];
	struct gd_rocm_install *r;
	struct stat st;
	int rc = gd_fs_resolve(&ctx->fs, path, res, sizeof res);

	if (rc == 0 &&
	    (gd_fs_stat(&ctx->fs, res, &st) < 0 || !S_ISDIR(st.st_mode)))
		rc = -ENOTDIR;
	if (rc < 0) {
		if (strcmp(how, "/opt/rocm-*") && strcmp(how, "/opt/rocm"))
			gd_diag_add(ctx, GD_DIAG_WARN, how, "%s=%.200s: %s",
				    how, path, gd_fs_strerror(rc));
		return;
	}
	for (size_t i = 0; i < inv->n_rocm; i++) {
		if (strcmp(inv->rocm[i].resolved, res))
			continue;
		gd_inv_add_found_by(inv->rocm[i].found_by,
				    sizeof inv->rocm[i].found_by, how);
		return;
	}
	if (inv->n_rocm >= GD_INV_MAX_INSTALLS)
		return;
	r = gd_inv_push((void **)&inv->rocm, &inv->n_rocm, sizeof *r);
	if (!r)
		return;
	/* A symlink like /opt/rocm is reported by its target's name. */
	gd_strlcpy(r->path, strcmp(how, "/opt/rocm") ? path : res,
		   sizeof r->path);
	gd_strlcpy(r->resolved, res, sizeof r->resolved);
	gd_strlcpy(r->found_by, how, sizeof r->found_by);
	read_install(ctx, r);
}

/* "/opt/rocm/lib" on LD_LIBRARY_PATH means the install /opt/rocm. */
static void install_of_libdir(const char *dir, char *out, size_t cap)
{
	const char *base = strrchr(dir, '/');

	gd_strlcpy(out, dir, cap);
	if (!base || (strcmp(base, "/lib") && strcmp(base, "/lib64")))
		return;
	if (base == dir || !strncmp(dir, "/usr/", 5) ||
	    !strncmp(dir, "/lib", 4))
		return;
	out[base - dir] = '\0';
}

static int is_multiarch(const char *dir)
{
	char a[128], b[128];

	gd_fmt(a, sizeof a, "/usr/lib/%s", gd_ld_multiarch());
	gd_fmt(b, sizeof b, "/lib/%s", gd_ld_multiarch());
	return !strcmp(dir, a) || !strcmp(dir, b);
}

static void scan_opt(gd_ctx *ctx, struct gd_inventory *inv)
{
	gd_strvec names;
	char p[300];

	if (gd_fs_exists(&ctx->fs, "/opt/rocm"))
		add_install(ctx, inv, "/opt/rocm", "/opt/rocm");
	if (gd_fs_list(&ctx->fs, "/opt", &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		if (strncmp(names.v[i], "rocm-", 5) || strlen(names.v[i]) > 200)
			continue;
		gd_fmt(p, sizeof p, "/opt/%s", names.v[i]);
		add_install(ctx, inv, p, "/opt/rocm-*");
	}
	gd_strvec_free(&names);
}

/* The install whose libamdhip64 the loader finds first, and whether
 * HIP_PATH disagrees with it about the HIP major version. */
static void judge_loader(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			 struct gd_inventory *inv)
{
	struct gd_rocm_install *pick = NULL;
	const char *hp = gd_ctx_getenv(ctx, "HIP_PATH");

	for (size_t d = 0; d < ld->d.n && !pick; d++) {
		for (size_t i = 0; i < inv->n_rocm && !pick; i++) {
			char res[512];

			if (!inv->rocm[i].hip_major)
				continue;
			gd_fs_resolve(&ctx->fs, inv->rocm[i].lib_dir, res,
				      sizeof res);
			if (!strcmp(res, ld->d.v[d].resolved))
				pick = &inv->rocm[i];
		}
	}
	if (pick)
		pick->loader_pick = 1;
	if (!hp || !*hp)
		return;
	for (size_t i = 0; i < inv->n_rocm; i++) {
		struct gd_rocm_install *r = &inv->rocm[i];

		if (!strstr(r->found_by, "HIP_PATH") || r == pick)
			continue;
		if (!r->hip_major) {
			gd_diag_add(ctx, GD_DIAG_WARN, "HIP_PATH",
				    "HIP_PATH=%.200s holds no libamdhip64", hp);
		} else if (pick && pick->hip_major != r->hip_major) {
			r->hip_path_mismatch = 1;
			inv->hip_path_mismatch = 1;
			gd_diag_add(
			    ctx, GD_DIAG_WARN, "HIP_PATH",
			    "HIP_PATH=%.150s has HIP %u but the loader picks "
			    "libamdhip64.so.%u from %.150s",
			    hp, r->hip_major, pick->hip_major, pick->lib_dir);
		}
	}
}

void gd_inv_rocm_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			 struct gd_inventory *inv)
{
	static const char *const envs[] = {"ROCM_PATH", "HIP_PATH", NULL};
	char p[512];

	for (size_t d = 0; d < ld->d.n; d++) {
		if (strcmp(ld->d.v[d].from, "LD_LIBRARY_PATH") ||
		    !dir_has_hip(ctx, ld->d.v[d].path))
			continue;
		install_of_libdir(ld->d.v[d].path, p, sizeof p);
		add_install(ctx, inv, p, "LD_LIBRARY_PATH");
	}
	for (int i = 0; envs[i]; i++) {
		const char *v = gd_ctx_getenv(ctx, envs[i]);

		if (v && v[0] == '/')
			add_install(ctx, inv, v, envs[i]);
		else if (v && *v)
			gd_diag_add(ctx, GD_DIAG_WARN, envs[i],
				    "not an absolute path: %.200s", v);
	}
	scan_opt(ctx, inv);
	/* Debian/Ubuntu's HIP packages: named by the /usr path (on merged-/usr
	 * systems /lib/<triplet> is the same directory) */
	gd_fmt(p, sizeof p, "/usr/lib/%s", gd_ld_multiarch());
	if (dir_has_hip(ctx, p))
		add_install(ctx, inv, p, "multiarch");
	for (size_t d = 0; d < ld->d.n; d++) {
		const char *dir = ld->d.v[d].path;

		if (!strcmp(ld->d.v[d].from, "LD_LIBRARY_PATH") ||
		    !dir_has_hip(ctx, dir))
			continue;
		install_of_libdir(dir, p, sizeof p);
		add_install(ctx, inv, p,
			    is_multiarch(dir) ? "multiarch" : ld->d.v[d].from);
	}
	judge_loader(ctx, ld, inv);
}
