/* Finding the ICD files the Vulkan and OpenCL loaders would use, and
 * whether the library each names exists. Search orders (sources:
 * docs/json-runtimes.md, "Sources"):
 *  - the Vulkan loader's "Linux Driver Discovery": VK_DRIVER_FILES (or
 *    the older VK_ICD_FILENAMES) replaces the search with its
 *    colon-separated files/directories; otherwise $XDG_CONFIG_HOME,
 *    $XDG_CONFIG_DIRS (/etc/xdg), /etc, $XDG_DATA_HOME
 *    (~/.local/share), $XDG_DATA_DIRS (/usr/local/share:/usr/share), each
 *    + /vulkan/icd.d; VK_ADD_DRIVER_FILES adds to it.
 *  - ocl-icd: OCL_ICD_VENDORS (a directory, or one .icd file) replaces
 *    /etc/OpenCL/vendors; OCL_ICD_FILENAMES lists libraries directly. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inv_int.h"

struct icd_walk {
	gd_ctx *ctx;
	const struct gd_ld_dirs *ld;
	struct gd_icd **arr;
	size_t *n;
	int vulkan;
	int capped;
};

static void dir_of(const char *path, char *out, size_t cap)
{
	char *s;

	gd_strlcpy(out, path, cap);
	s = strrchr(out, '/');
	if (s && s != out)
		*s = '\0';
	else if (s)
		s[1] = '\0';
}

static void find_library(struct icd_walk *w, struct gd_icd *icd)
{
	const char *lib = icd->library.v;
	char p[1024], res[512];
	struct stat st;

	if (!gd_known(&icd->library))
		return;
	if (!strchr(lib, '/')) {
		icd->library_found =
		    gd_ld_find(w->ctx, w->ld, lib, p, sizeof p) >= 0;
	} else if (lib[0] == '/') {
		gd_strlcpy(p, lib, sizeof p);
	} else if (w->vulkan) {
		/* the loader takes a relative library_path from the manifest's
		 * dir */
		dir_of(icd->manifest, res, sizeof res);
		gd_path_join(p, sizeof p, res, lib);
	} else {
		gd_strlcpy(icd->error,
			   "relative library path: resolved against the "
			   "program's working directory",
			   sizeof icd->error);
		return;
	}
	if (strchr(lib, '/')) {
		int rc = gd_fs_stat(&w->ctx->fs, p, &st);

		icd->library_found = rc == 0 && S_ISREG(st.st_mode);
		if (rc < 0 && !icd->error[0])
			gd_fmt(icd->error, sizeof icd->error,
			       "library %.150s: %s", lib, gd_fs_strerror(rc));
	}
	if (icd->library_found &&
	    gd_fs_resolve(&w->ctx->fs, p, res, sizeof res) == 0)
		gd_strlcpy(icd->library_resolved, res,
			   sizeof icd->library_resolved);
	else if (!icd->library_found && !icd->error[0])
		gd_fmt(icd->error, sizeof icd->error,
		       "library %.150s not found in the loader's search path",
		       lib);
}

static int seen(struct icd_walk *w, const char *res)
{
	for (size_t i = 0; i < *w->n; i++)
		if ((*w->arr)[i].manifest_resolved[0] &&
		    !strcmp((*w->arr)[i].manifest_resolved, res))
			return 1;
	return 0;
}

static void add_file(struct icd_walk *w, const char *path, const char *how)
{
	struct gd_icd *icd;
	char res[512], *buf = NULL;
	size_t len = 0;
	int rc;

	gd_fs_resolve(&w->ctx->fs, path, res, sizeof res);
	if (seen(w, res))
		return;
	if (*w->n >= GD_INV_MAX_ICDS) {
		if (!w->capped++)
			gd_diag_add(w->ctx, GD_DIAG_WARN, path,
				    "more than %d ICD files; the rest skipped",
				    GD_INV_MAX_ICDS);
		return;
	}
	icd = gd_inv_push((void **)w->arr, w->n, sizeof *icd);
	if (!icd)
		return;
	gd_strlcpy(icd->manifest, path, sizeof icd->manifest);
	gd_strlcpy(icd->manifest_resolved, res, sizeof icd->manifest_resolved);
	gd_strlcpy(icd->found_by, how, sizeof icd->found_by);
	rc = gd_fs_read_alloc(&w->ctx->fs, path, GD_INV_MAX_MANIFEST, &buf,
			      &len);
	if (rc < 0) {
		gd_fmt(icd->error, sizeof icd->error, "%s",
		       rc == -EFBIG ? "larger than 1 MiB: not a manifest"
				    : gd_fs_strerror(rc));
		gd_text_unknown(&icd->library, GD_FAILED, "%s", icd->error);
		gd_text_unknown(&icd->api_version, GD_UNKNOWN, "file not read");
		free(buf);
		return;
	}
	if (w->vulkan)
		gd_vk_manifest_parse(buf, len, icd);
	else
		gd_ocl_icd_parse(buf, len, icd);
	free(buf);
	gd_icd_classify(icd, w->vulkan);
	find_library(w, icd);
}

/* A directory: every *.json (Vulkan) / *.icd (OpenCL) in it. */
static void add_dir(struct icd_walk *w, const char *dir, const char *how)
{
	const char *ext = w->vulkan ? ".json" : ".icd";
	gd_strvec names;
	char p[1024];

	if (gd_fs_list(&w->ctx->fs, dir, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		if (!gd_endswith(names.v[i], ext))
			continue;
		gd_path_join(p, sizeof p, dir, names.v[i]);
		add_file(w, p, how);
	}
	gd_strvec_free(&names);
}

static void add_path(struct icd_walk *w, const char *p, const char *how)
{
	struct stat st;

	if (gd_fs_stat(&w->ctx->fs, p, &st) == 0 && S_ISDIR(st.st_mode))
		add_dir(w, p, how);
	else
		add_file(w, p,
			 how); /* a missing file shows up with its error */
}

/* Each element of a colon-separated list, with suffix appended. */
static void add_list(struct icd_walk *w, const char *list, const char *suffix,
		     const char *how, int dirs_only)
{
	char p[1024];

	while (list && *list) {
		size_t n = strcspn(list, ":");

		if (n && list[0] == '/' && n < 512) {
			gd_fmt(p, sizeof p, "%.*s%s", (int)n, list, suffix);
			if (dirs_only)
				add_dir(w, p, how);
			else
				add_path(w, p, how);
		}
		list += n;
		if (*list)
			list++;
	}
}

void gd_inv_vulkan_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			   struct gd_inventory *inv)
{
	struct icd_walk w = {ctx, ld, &inv->vulkan, &inv->n_vulkan, 1, 0};
	const char *df = gd_ctx_getenv(ctx, "VK_DRIVER_FILES");
	const char *legacy = gd_ctx_getenv(ctx, "VK_ICD_FILENAMES");
	const char *home = gd_ctx_getenv(ctx, "HOME");
	const char *v;
	char p[600];

	if ((df && *df) || (legacy && *legacy)) {
		const char *name =
		    df && *df ? "VK_DRIVER_FILES" : "VK_ICD_FILENAMES";

		gd_strlcpy(inv->vulkan_search, name, sizeof inv->vulkan_search);
		add_list(&w, df && *df ? df : legacy, "", name, 0);
	} else {
		gd_strlcpy(inv->vulkan_search, "standard",
			   sizeof inv->vulkan_search);
		v = gd_ctx_getenv(ctx, "XDG_CONFIG_HOME");
		if (v && v[0] == '/')
			add_list(&w, v, "/vulkan/icd.d", "XDG_CONFIG_HOME", 1);
		else if (home && home[0] == '/' && strlen(home) < 400) {
			gd_fmt(p, sizeof p, "%s/.config/vulkan/icd.d", home);
			add_dir(&w, p, "~/.config");
		}
		v = gd_ctx_getenv(ctx, "XDG_CONFIG_DIRS");
		add_list(&w, v && *v ? v : "/etc/xdg", "/vulkan/icd.d",
			 v && *v ? "XDG_CONFIG_DIRS" : "/etc/xdg", 1);
		add_dir(&w, "/usr/local/etc/vulkan/icd.d", "/usr/local/etc");
		add_dir(&w, "/etc/vulkan/icd.d", "/etc");
		v = gd_ctx_getenv(ctx, "XDG_DATA_HOME");
		if (v && v[0] == '/')
			add_list(&w, v, "/vulkan/icd.d", "XDG_DATA_HOME", 1);
		else if (home && home[0] == '/' && strlen(home) < 400) {
			gd_fmt(p, sizeof p, "%s/.local/share/vulkan/icd.d",
			       home);
			add_dir(&w, p, "~/.local/share");
		}
		v = gd_ctx_getenv(ctx, "XDG_DATA_DIRS");
		if (v && *v)
			add_list(&w, v, "/vulkan/icd.d", "XDG_DATA_DIRS", 1);
		add_dir(&w, "/usr/local/share/vulkan/icd.d",
			"/usr/local/share");
		add_dir(&w, "/usr/share/vulkan/icd.d", "/usr/share");
	}
	v = gd_ctx_getenv(ctx, "VK_ADD_DRIVER_FILES");
	if (v && *v)
		add_list(&w, v, "", "VK_ADD_DRIVER_FILES", 0);
}

/* OCL_ICD_FILENAMES names libraries, no .icd file in between. */
static void add_ocl_filenames(struct icd_walk *w, const char *list)
{
	while (list && *list) {
		size_t n = strcspn(list, ":");
		struct gd_icd *icd;
		char lib[512];

		if (n && n < sizeof lib && *w->n < GD_INV_MAX_ICDS &&
		    (icd = gd_inv_push((void **)w->arr, w->n, sizeof *icd))) {
			gd_fmt(lib, sizeof lib, "%.*s", (int)n, list);
			gd_strlcpy(icd->found_by, "OCL_ICD_FILENAMES",
				   sizeof icd->found_by);
			gd_text_set(&icd->library, lib, "OCL_ICD_FILENAMES");
			gd_text_unknown(&icd->api_version, GD_UNKNOWN,
					"OpenCL ICDs carry no version");
			gd_icd_classify(icd, 0);
			find_library(w, icd);
		}
		list += n;
		if (*list)
			list++;
	}
}

void gd_inv_opencl_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			   struct gd_inventory *inv)
{
	struct icd_walk w = {ctx, ld, &inv->opencl, &inv->n_opencl, 0, 0};
	const char *v = gd_ctx_getenv(ctx, "OCL_ICD_VENDORS");

	if (v && *v) {
		char p[600];

		gd_strlcpy(inv->opencl_search, "OCL_ICD_VENDORS",
			   sizeof inv->opencl_search);
		/* ocl-icd: a relative name is looked up in /etc/OpenCL/vendors
		 */
		if (v[0] != '/')
			gd_fmt(p, sizeof p, "/etc/OpenCL/vendors/%.500s", v);
		else
			gd_strlcpy(p, v, sizeof p);
		add_path(&w, p, "OCL_ICD_VENDORS");
	} else {
		gd_strlcpy(inv->opencl_search, "/etc/OpenCL/vendors",
			   sizeof inv->opencl_search);
		add_dir(&w, "/etc/OpenCL/vendors", "/etc/OpenCL/vendors");
	}
	v = gd_ctx_getenv(ctx, "OCL_ICD_FILENAMES");
	if (v && *v)
		add_ocl_filenames(&w, v);
}
