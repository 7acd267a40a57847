/* Would each runtime library load? For every library gpudoctor or a
 * framework loads (the HIP runtime and the ROCm libraries of each
 * install, the HSA runtime beside them, libcuda, the CUDA libraries,
 * each Vulkan ICD's library_path and each OpenCL ICD's library), the
 * whole DT_NEEDED closure as ld.so resolves it (binscan/ldclosure.c),
 * with the judged environment's LD_LIBRARY_PATH and the machine's
 * ld.so.cache, all under the root. The first problem of each is kept. */
#include <stdlib.h>
#include <string.h>

#include "../binscan/binscan.h"
#include "inv_int.h"

#define MAX_DEPS 128

_Static_assert((int)GD_DEP_BAD_ELF == (int)GD_LD_BAD_ELF &&
		   (int)GD_DEP_VERSION == (int)GD_LD_VERSION &&
		   (int)GD_DEP_MISSING == (int)GD_LD_MISSING,
	       "gd_dep_status mirrors gd_ld_status");

const char *gd_dep_status_name(enum gd_dep_status s)
{
	return gd_ld_status_name((enum gd_ld_status)s);
}

int gd_dep_broken(enum gd_dep_status s)
{
	return s != GD_DEP_OK && s != GD_DEP_UNKNOWN;
}

struct deps_walk {
	gd_ctx *ctx;
	struct gd_bs_env env;
	struct gd_inventory *inv;
};

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void fill(struct gd_dep_check *d, const struct gd_ld_result *r);

static void check(struct deps_walk *w, const char *backend, const char *vendor,
		  const char *what, const char *name, const char *lib)
{
	struct gd_ld_result r;
	struct gd_dep_check *d;

	if (!lib || !lib[0] || w->inv->n_deps >= MAX_DEPS)
		return;
	for (size_t i = 0; i < w->inv->n_deps; i++)
		if (!strcmp(w->inv->deps[i].lib, lib))
			return;
	d = gd_inv_push((void **)&w->inv->deps, &w->inv->n_deps, sizeof *d);
	if (!d)
		return;
	gd_ld_closure(w->ctx, &w->env, lib, &r);
	gd_strlcpy(d->backend, backend, sizeof d->backend);
	gd_strlcpy(d->vendor, vendor, sizeof d->vendor);
	gd_strlcpy(d->what, what, sizeof d->what);
	gd_strlcpy(d->name, name && name[0] ? name : base_of(lib),
		   sizeof d->name);
	gd_strlcpy(d->lib, lib, sizeof d->lib);
	fill(d, &r);
}

void gd_inventory_dep_dlopens(gd_ctx *ctx, struct gd_dep_check *d,
			      const char *const *sonames)
{
	struct gd_bs_env env;
	struct gd_ld_result r;

	if (!d || !sonames || !sonames[0] || !d->lib[0])
		return;
	gd_bs_env_init(ctx, &env, NULL, 0);
	env.in_root = 1;
	env.root_dlopens = sonames;
	gd_ld_closure(ctx, &env, d->lib, &r);
	gd_bs_env_free(&env);
	fill(d, &r);
}

static void fill(struct gd_dep_check *d, const struct gd_ld_result *r)
{
	d->status = (enum gd_dep_status)r->status;
	gd_strlcpy(d->chain, r->chain, sizeof d->chain);
	gd_strlcpy(d->soname, r->soname, sizeof d->soname);
	gd_strlcpy(d->needed_by, r->needed_by, sizeof d->needed_by);
	gd_strlcpy(d->path, r->path, sizeof d->path);
	gd_strlcpy(d->version, r->version, sizeof d->version);
	gd_strlcpy(d->provides, r->provides, sizeof d->provides);
	gd_strlcpy(d->how, r->how, sizeof d->how);
	gd_strlcpy(d->detail, r->detail, sizeof d->detail);
	d->objects = r->objects;
	d->truncated = r->truncated;
}

static void rocm(struct deps_walk *w, const struct gd_ld_dirs *ld)
{
	static const struct {
		const char *label, *what;
	} names[] = {
	    {"amdhip64", "HIP runtime"}, {"amd_comgr", "AMD comgr"},
	    {"rocblas", "rocBLAS"},	 {"hipblas", "hipBLAS"},
	    {"hipblaslt", "hipBLASLt"},	 {"miopen", "MIOpen"},
	    {"hiprtc", "HIP RTC"},
	};
	char p[1024];

	for (size_t i = 0; i < w->inv->n_rocm; i++) {
		const struct gd_rocm_install *r = &w->inv->rocm[i];

		for (size_t k = 0; k < r->n_libs; k++)
			for (size_t n = 0; n < sizeof names / sizeof *names;
			     n++)
				if (!strcmp(r->libs[k].name, names[n].label))
					check(w, "hip", "amd", names[n].what,
					      NULL, r->libs[k].path);
		/* HIP needs the HSA runtime beside it (DT_NEEDED), but a
		 * dlopen of it alone (rocminfo, ROCr tools) is checked too */
		if (r->lib_dir[0]) {
			gd_path_join(p, sizeof p, r->lib_dir,
				     "libhsa-runtime64.so.1");
			if (gd_fs_exists(&w->ctx->fs, p))
				check(w, "hip", "amd", "HSA runtime", NULL, p);
		}
	}
	if (gd_ld_find(w->ctx, ld, "libhsa-runtime64.so.1", p, sizeof p) >= 0)
		check(w, "hip", "amd", "HSA runtime", NULL, p);
}

static void cuda(struct deps_walk *w, const struct gd_ld_dirs *ld)
{
	char p[1024];

	if (gd_ld_find(w->ctx, ld, "libcuda.so.1", p, sizeof p) >= 0)
		check(w, "cuda", "nvidia", "CUDA driver", "libcuda.so.1", p);
	for (size_t i = 0; i < w->inv->n_cuda_libs; i++)
		check(w, "cuda", "nvidia", w->inv->cuda_libs[i].name, NULL,
		      w->inv->cuda_libs[i].path);
	for (size_t t = 0; t < w->inv->n_cuda; t++)
		for (size_t i = 0; i < w->inv->cuda[t].n_libs; i++)
			check(w, "cuda", "nvidia", w->inv->cuda[t].libs[i].name,
			      NULL, w->inv->cuda[t].libs[i].path);
}

static const char *icd_vendor(const struct gd_icd *icd)
{
	if (icd->software)
		return "";
	if (!strcmp(icd->driver, "nvidia"))
		return "nvidia";
	if (!strcmp(icd->driver, "radv") || !strcmp(icd->driver, "amdvlk") ||
	    !strcmp(icd->driver, "amd") || !strcmp(icd->driver, "rocm"))
		return "amd";
	return "";
}

static void icds(struct deps_walk *w, const struct gd_icd *v, size_t n,
		 int vulkan)
{
	for (size_t i = 0; i < n; i++) {
		const struct gd_icd *icd = &v[i];
		char what[64];

		if (!icd->library_found || !icd->library_resolved[0])
			continue;
		gd_fmt(what, sizeof what, "%s ICD %s",
		       vulkan ? "Vulkan" : "OpenCL",
		       icd->driver[0] ? icd->driver : "(unknown)");
		check(w, vulkan ? "vulkan" : "opencl", icd_vendor(icd), what,
		      gd_known(&icd->library) ? icd->library.v : NULL,
		      icd->library_resolved);
	}
}

void gd_inv_deps_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			 struct gd_inventory *inv)
{
	struct deps_walk w = {.ctx = ctx, .inv = inv};

	gd_bs_env_init(ctx, &w.env, NULL, 0);
	w.env.in_root = 1;
	rocm(&w, ld);
	cuda(&w, ld);
	icds(&w, inv->vulkan, inv->n_vulkan, 1);
	icds(&w, inv->opencl, inv->n_opencl, 0);
	gd_bs_env_free(&w.env);
}

const struct gd_dep_check *gd_inventory_dep_find(const struct gd_inventory *inv,
						 const char *lib)
{
	for (size_t i = 0; inv && lib && i < inv->n_deps; i++) {
		const struct gd_dep_check *d = &inv->deps[i];

		if (!strcmp(d->lib, lib) || !strcmp(d->name, lib) ||
		    !strcmp(base_of(d->lib), lib) ||
		    !strcmp(base_of(d->name), base_of(lib)))
			return d;
	}
	return NULL;
}

const struct gd_dep_check *
gd_inventory_dep_broken(const struct gd_inventory *inv, const char *backend)
{
	for (size_t i = 0; inv && backend && i < inv->n_deps; i++)
		if (!strcmp(inv->deps[i].backend, backend) &&
		    gd_dep_broken(inv->deps[i].status))
			return &inv->deps[i];
	return NULL;
}
