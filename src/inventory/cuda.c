/* CUDA: the driver version (kernel module, else the libcuda.so.<version>
 * file name), toolkits (/usr/local/cuda*, CUDA_HOME, CUDA_PATH) with their
 * versions, the cudart / cuBLAS / cuDNN the loader finds, and whether the
 * driver is new enough for each (rule in cuda_parse.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inv_int.h"

static const char *const cuda_bases[] = {
    "libcudart", "libcublas", "libcublasLt", "libcudnn", "libnvrtc", NULL,
};
static const char *const cuda_labels[] = {
    "cudart", "cublas", "cublasLt", "cudnn", "nvrtc", NULL,
};

static void read_driver(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			struct gd_inventory *inv)
{
	char buf[4096], ver[64];
	int rc = gd_fs_read(&ctx->fs, "/proc/driver/nvidia/version", buf,
			    sizeof buf, NULL);

	if ((rc == 0 || rc == -EFBIG) &&
	    !gd_cuda_parse_nvrm(buf, ver, sizeof ver)) {
		gd_text_set(&inv->cuda_driver, ver,
			    "/proc/driver/nvidia/version");
		goto done;
	}
	if (gd_fs_read_line(&ctx->fs, "/sys/module/nvidia/version", buf,
			    sizeof buf) == 0 &&
	    buf[0]) {
		gd_text_set(&inv->cuda_driver, buf,
			    "/sys/module/nvidia/version");
		goto done;
	}
	/* No kernel module loaded: the user-space driver's file name says
	 * which version is installed (libcuda.so.580.95.05). */
	for (size_t d = 0; d < ld->d.n; d++) {
		gd_strvec names;

		if (gd_fs_list(&ctx->fs, ld->d.v[d].path, &names) < 0)
			continue;
		for (size_t i = 0; i < names.n; i++) {
			unsigned maj;

			if (gd_soname_version(names.v[i], "libcuda", ver,
					      sizeof ver, &maj) &&
			    strchr(ver, '.')) {
				char src[96];

				gd_fmt(src, sizeof src, "%.60s/%.30s",
				       ld->d.v[d].path, names.v[i]);
				gd_text_set(&inv->cuda_driver, ver, src);
				break;
			}
		}
		gd_strvec_free(&names);
		if (gd_known(&inv->cuda_driver))
			goto done;
	}
	gd_text_unknown(&inv->cuda_driver, GD_UNKNOWN,
			"no NVIDIA kernel module (/proc/driver/nvidia/version) "
			"and no libcuda.so.<version>");
	return;
done:
	gd_strlcpy(inv->cuda_driver_from, inv->cuda_driver.src,
		   sizeof inv->cuda_driver_from);
}

static struct gd_lib *tk_lib(struct gd_cuda_toolkit *t, const char *name)
{
	for (size_t i = 0; i < t->n_libs; i++)
		if (!strcmp(t->libs[i].name, name))
			return &t->libs[i];
	return NULL;
}

/* Replace a bare "13" from a file name by "13.1.0.3" from a header or
 * version.json when the majors agree. */
static void refine(struct gd_lib *l, const char *better)
{
	if (!l || !better || !better[0])
		return;
	if (l->so_major && strtoul(better, NULL, 10) != l->so_major)
		return;
	if (strlen(better) > strlen(l->version))
		gd_strlcpy(l->version, better, sizeof l->version);
}

static void header_versions(gd_ctx *ctx, struct gd_cuda_toolkit *t)
{
	static const struct {
		const char *file, *lib, *d[4];
	} hv[] = {
	    {"include/cublas_api.h",
	     "cublas",
	     {"CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR", "CUBLAS_VER_PATCH",
	      "CUBLAS_VER_BUILD"}},
	    {"include/cudnn_version.h",
	     "cudnn",
	     {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL", NULL}},
	};
	char p[700], v[64];
	char *buf;

	for (size_t h = 0; h < sizeof hv / sizeof hv[0]; h++) {
		unsigned long n[4] = {0};
		int k = 0;

		gd_path_join(p, sizeof p, t->path, hv[h].file);
		if (gd_fs_read_alloc(&ctx->fs, p, 1024 * 1024, &buf, NULL) <
		    0) {
			free(buf); /* set on -EFBIG */
			continue;
		}
		while (k < 4 && hv[h].d[k] &&
		       !gd_parse_c_define(buf, hv[h].d[k], &n[k]))
			k++;
		free(buf);
		if (k < 2)
			continue;
		gd_fmt(v, sizeof v,
		       k == 4	? "%lu.%lu.%lu.%lu"
		       : k == 3 ? "%lu.%lu.%lu"
				: "%lu.%lu",
		       n[0], n[1], n[2], n[3]);
		refine(tk_lib(t, hv[h].lib), v);
	}
	/* cudart's header: CUDART_VERSION 12040 = 12.4 */
	gd_path_join(p, sizeof p, t->path, "include/cuda_runtime_api.h");
	if (gd_fs_read_alloc(&ctx->fs, p, 1024 * 1024, &buf, NULL) == 0) {
		unsigned long cv;

		if (!gd_parse_c_define(buf, "CUDART_VERSION", &cv) &&
		    cv >= 1000) {
			gd_fmt(v, sizeof v, "%lu.%lu", cv / 1000,
			       (cv % 1000) / 10);
			refine(tk_lib(t, "cudart"), v);
		}
	}
	free(buf);
}

static void toolkit_version(gd_ctx *ctx, struct gd_cuda_toolkit *t)
{
	struct gd_cuda_version_json vj;
	char p[700], line[160], *buf = NULL;
	size_t len;
	unsigned long cv;
	int rc;

	gd_path_join(p, sizeof p, t->path, "version.json");
	rc = gd_fs_read_alloc(&ctx->fs, p, GD_INV_MAX_MANIFEST, &buf, &len);
	if (rc == 0 && !gd_cuda_parse_version_json(buf, len, &vj)) {
		gd_text_set(&t->version, vj.cuda, p);
		refine(tk_lib(t, "cudart"), vj.cudart);
		refine(tk_lib(t, "cublas"), vj.cublas);
		refine(tk_lib(t, "nvrtc"), vj.nvrtc);
	} else if (rc == 0) {
		gd_fmt(t->error, sizeof t->error, "%s: not a CUDA version.json",
		       p);
	}
	free(buf);
	buf = NULL;
	if (gd_known(&t->version))
		return;
	gd_path_join(p, sizeof p, t->path, "version.txt"); /* before 11.1 */
	if (gd_fs_read_line(&ctx->fs, p, line, sizeof line) == 0 &&
	    gd_startswith(line, "CUDA Version ")) {
		gd_text_set(&t->version, line + 13, p);
		return;
	}
	gd_path_join(p, sizeof p, t->path, "include/cuda.h");
	if (gd_fs_read_alloc(&ctx->fs, p, 2 * 1024 * 1024, &buf, NULL) >= 0 &&
	    !gd_parse_c_define(buf, "CUDA_VERSION", &cv)) {
		char v[32];

		gd_fmt(v, sizeof v, "%lu.%lu", cv / 1000, (cv % 1000) / 10);
		gd_text_set(&t->version, v, p);
	} else {
		gd_text_unknown(
		    &t->version, GD_UNKNOWN,
		    "no version.json, version.txt or include/cuda.h");
	}
	free(buf);
}

static void read_toolkit(gd_ctx *ctx, struct gd_cuda_toolkit *t)
{
	static const char *const sub[] = {"lib64", "lib",
					  "targets/x86_64-linux/lib",
					  "targets/sbsa-linux/lib", NULL};
	gd_strvec names = {0};
	char p[700];

	for (int i = 0; sub[i]; i++) {
		gd_path_join(p, sizeof p, t->path, sub[i]);
		if (gd_fs_list(&ctx->fs, p, &names) == 0) {
			gd_strlcpy(t->lib_dir, p, sizeof t->lib_dir);
			break;
		}
	}
	gd_inv_match_libs(names.v, names.n, t->lib_dir, cuda_bases, cuda_labels,
			  &t->libs, &t->n_libs);
	gd_strvec_free(&names);
	header_versions(ctx, t);
	toolkit_version(ctx, t);
}

static void add_toolkit(gd_ctx *ctx, struct gd_inventory *inv, const char *path,
			const char *how)
{
	char res[512];
	struct gd_cuda_toolkit *t;
	int rc = gd_fs_resolve(&ctx->fs, path, res, sizeof res);

	if (rc < 0) {
		if (gd_startswith(how, "CUDA_"))
			gd_diag_add(ctx, GD_DIAG_WARN, how,
				    "points at %.200s: %s", path,
				    gd_fs_strerror(rc));
		return;
	}
	for (size_t i = 0; i < inv->n_cuda; i++) {
		if (!strcmp(inv->cuda[i].resolved, res)) {
			gd_inv_add_found_by(inv->cuda[i].found_by,
					    sizeof inv->cuda[i].found_by, how);
			return;
		}
	}
	if (inv->n_cuda >= GD_INV_MAX_INSTALLS)
		return;
	t = gd_inv_push((void **)&inv->cuda, &inv->n_cuda, sizeof *t);
	if (!t)
		return;
	gd_strlcpy(t->path, res, sizeof t->path);
	gd_strlcpy(t->resolved, res, sizeof t->resolved);
	gd_strlcpy(t->found_by, how, sizeof t->found_by);
	read_toolkit(ctx, t);
}

static void find_toolkits(gd_ctx *ctx, struct gd_inventory *inv)
{
	static const char *const envs[] = {"CUDA_HOME", "CUDA_PATH", NULL};
	gd_strvec names;
	char p[300];

	for (int i = 0; envs[i]; i++) {
		const char *v = gd_ctx_getenv(ctx, envs[i]);

		if (v && v[0] == '/')
			add_toolkit(ctx, inv, v, envs[i]);
	}
	if (gd_fs_exists(&ctx->fs, "/usr/local/cuda"))
		add_toolkit(ctx, inv, "/usr/local/cuda", "/usr/local/cuda");
	if (gd_fs_list(&ctx->fs, "/usr/local", &names) == 0) {
		for (size_t i = 0; i < names.n; i++) {
			if (strncmp(names.v[i], "cuda-", 5) ||
			    strlen(names.v[i]) > 200)
				continue;
			gd_fmt(p, sizeof p, "/usr/local/%s", names.v[i]);
			add_toolkit(ctx, inv, p, "/usr/local/cuda-*");
		}
		gd_strvec_free(&names);
	}
	if (gd_fs_exists(&ctx->fs, "/opt/cuda/bin")) /* Arch Linux */
		add_toolkit(ctx, inv, "/opt/cuda", "/opt/cuda");
}

/* cudart / cuBLAS / cuDNN as the loader finds them (first dir wins). */
static void find_ld_libs(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			 struct gd_inventory *inv)
{
	static const char *const want[] = {"libcudart", "libcublas", "libcudnn",
					   NULL};
	static const char *const label[] = {"cudart", "cublas", "cudnn", NULL};

	gd_inv_ld_libs(ctx, ld, want, label, &inv->cuda_libs,
		       &inv->n_cuda_libs);
}

static void add_check(gd_ctx *ctx, struct gd_inventory *inv, const char *lib,
		      const char *cuda, const char *path)
{
	struct gd_cuda_check *c;

	(void)ctx;
	for (size_t i = 0; i < inv->n_cuda_checks; i++)
		if (!strcmp(inv->cuda_checks[i].lib, lib) &&
		    !strcmp(inv->cuda_checks[i].path, path))
			return;
	c = gd_inv_push((void **)&inv->cuda_checks, &inv->n_cuda_checks,
			sizeof *c);
	if (!c)
		return;
	gd_strlcpy(c->lib, lib, sizeof c->lib);
	gd_strlcpy(c->path, path, sizeof c->path);
	/* what it was built for; doctor/cuda_driver.c judges the driver */
	gd_strlcpy(c->version, cuda ? cuda : "", sizeof c->version);
	gd_strlcpy(c->cuda, cuda ? cuda : "", sizeof c->cuda);
	c->driver_ok = -1;
}

/* "12.4.127" -> "12.4"; "13" -> "13.0". */
static void major_minor(const char *v, char *out, size_t cap)
{
	unsigned long a = strtoul(v, NULL, 10), b = 0;
	const char *dot = strchr(v, '.');

	if (dot)
		b = strtoul(dot + 1, NULL, 10);
	if (a)
		gd_fmt(out, cap, "%lu.%lu", a, b);
	else if (cap)
		out[0] = '\0';
}

/* The toolkit a library file belongs to (same resolved directory). */
static struct gd_cuda_toolkit *owner(gd_ctx *ctx, struct gd_inventory *inv,
				     const struct gd_lib *l)
{
	char dir[512], r1[512], r2[512];
	char *s;

	gd_strlcpy(dir, l->path, sizeof dir);
	s = strrchr(dir, '/');
	if (s)
		*s = '\0';
	if (gd_fs_resolve(&ctx->fs, dir, r1, sizeof r1) < 0)
		return NULL;
	for (size_t i = 0; i < inv->n_cuda; i++) {
		if (!inv->cuda[i].lib_dir[0] ||
		    gd_fs_resolve(&ctx->fs, inv->cuda[i].lib_dir, r2,
				  sizeof r2) < 0)
			continue;
		if (!strcmp(r1, r2))
			return &inv->cuda[i];
	}
	return NULL;
}

static void make_checks(gd_ctx *ctx, struct gd_inventory *inv)
{
	char mm[32];

	for (size_t i = 0; i < inv->n_cuda; i++) {
		struct gd_cuda_toolkit *t = &inv->cuda[i];

		if (!gd_known(&t->version))
			continue;
		major_minor(t->version.v, mm, sizeof mm);
		add_check(ctx, inv, "toolkit", mm, t->path);
	}
	for (size_t i = 0; i < inv->n_cuda_libs; i++) {
		struct gd_lib *l = &inv->cuda_libs[i];
		struct gd_cuda_toolkit *t = owner(ctx, inv, l);

		if (t)
			refine(l, tk_lib(t, l->name)
				      ? tk_lib(t, l->name)->version
				      : NULL);
		if (!strcmp(l->name, "cudnn")) {
			/* cuDNN's file name does not say which CUDA it was
			 * built for (cudnn-cu12 and -cu13 both ship .so.9);
			 * inside a toolkit it is that toolkit's */
			if (t && gd_known(&t->version))
				major_minor(t->version.v, mm, sizeof mm);
			add_check(ctx, inv, l->name,
				  t && gd_known(&t->version) ? mm : NULL,
				  l->path);
			continue;
		}
		/* cudart X.y is CUDA X.y; cuBLAS's major is CUDA's since 11 */
		major_minor(l->version, mm, sizeof mm);
		if (!strcmp(l->name, "cublas") && mm[0])
			gd_fmt(mm, sizeof mm, "%u.0", l->so_major);
		add_check(ctx, inv, l->name, mm[0] ? mm : NULL, l->path);
	}
}

void gd_inv_cuda_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			 struct gd_inventory *inv)
{
	read_driver(ctx, ld, inv);
	gd_text_unknown(&inv->cuda_driver_api, GD_UNKNOWN, "not judged");
	find_toolkits(ctx, inv);
	find_ld_libs(ctx, ld, inv);
	make_checks(ctx, inv);
}
