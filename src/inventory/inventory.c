/* inventory/: installed software, found by reading files and never loading
 * them. This file runs the collectors in order and holds the helpers they
 * share; rocm.c, rocblas.c, cuda.c, icd.c and ldpath.c do the work. */
#include <stdlib.h>
#include <string.h>

#include "inv_int.h"

void *gd_inv_push(void **arr, size_t *n, size_t elsize)
{
	char *nv;

	/* capacity doubles at 8, 16, 32...: amortised O(1) without a
	 * capacity field in the public structs */
	if (*n == 0 || (*n >= 8 && (*n & (*n - 1)) == 0)) {
		nv = realloc(*arr, (*n ? *n * 2 : 8) * elsize);
		if (!nv)
			return NULL;
		*arr = nv;
	}
	nv = (char *)*arr + *n * elsize;
	memset(nv, 0, elsize);
	(*n)++;
	return nv;
}

void gd_inv_add_found_by(char *dst, size_t cap, const char *src)
{
	size_t k = strlen(src);

	if (!*dst) {
		gd_strlcpy(dst, src, cap);
		return;
	}
	for (const char *p = dst; (p = strstr(p, src)); p++)
		if ((p == dst || p[-1] == ' ') && (p[k] == ',' || !p[k]))
			return;
	if (strlen(dst) + 2 + k < cap)
		gd_fmt(dst + strlen(dst), cap - strlen(dst), ", %s", src);
}

void gd_inv_match_libs(char *const *names, size_t n, const char *dir,
		       const char *const *bases, const char *const *labels,
		       struct gd_lib **libs, size_t *n_libs)
{
	for (size_t b = 0; bases[b]; b++) {
		const char *best = NULL;
		char bestver[64] = "", ver[64];
		unsigned bestmaj = 0, maj;
		struct gd_lib *l;

		for (size_t i = 0; i < n; i++) {
			if (!gd_soname_version(names[i], bases[b], ver,
					       sizeof ver, &maj))
				continue;
			if (best && gd_version_cmp(ver, bestver) < 0)
				continue;
			if (best && !gd_version_cmp(ver, bestver) &&
			    strlen(ver) <= strlen(bestver))
				continue;
			best = names[i];
			gd_strlcpy(bestver, ver, sizeof bestver);
			bestmaj = maj;
		}
		if (!best)
			continue;
		l = gd_inv_push((void **)libs, n_libs, sizeof *l);
		if (!l)
			return;
		gd_strlcpy(l->name, labels[b], sizeof l->name);
		gd_path_join(l->path, sizeof l->path, dir, best);
		gd_strlcpy(l->version, bestver, sizeof l->version);
		l->so_major = bestmaj;
	}
}

void gd_inv_ld_libs(gd_ctx *ctx, const struct gd_ld_dirs *ld,
		    const char *const *want, const char *const *label,
		    struct gd_lib **libs, size_t *n_libs)
{
	for (size_t d = 0; d < ld->d.n; d++) {
		gd_strvec names;

		if (gd_fs_list(&ctx->fs, ld->d.v[d].path, &names) < 0)
			continue;
		for (int b = 0; want[b]; b++) {
			const char *one[2] = {want[b], NULL},
				   *lab[2] = {label[b], NULL};
			int have = 0;

			for (size_t i = 0; i < *n_libs; i++)
				have |= !strcmp((*libs)[i].name, label[b]);
			if (!have)
				gd_inv_match_libs(names.v, names.n,
						  ld->d.v[d].path, one, lab,
						  libs, n_libs);
		}
		gd_strvec_free(&names);
	}
}

int gd_inventory_collect(gd_ctx *ctx, struct gd_inventory *inv)
{
	struct gd_ld_dirs ld;

	memset(inv, 0, sizeof *inv);
	gd_ld_dirs_collect(ctx, &ld);
	gd_inv_rocm_collect(ctx, &ld, inv);
	gd_inv_rocblas_collect(ctx, &ld, inv);
	gd_inv_cuda_collect(ctx, &ld, inv);
	gd_inv_vulkan_collect(ctx, &ld, inv);
	gd_inv_opencl_collect(ctx, &ld, inv);
	gd_inv_intel_collect(ctx, &ld, inv);
	gd_inv_deps_collect(ctx, &ld, inv);
	gd_ld_dirs_free(&ld);
	return 0;
}

void gd_inventory_free(struct gd_inventory *inv)
{
	for (size_t i = 0; i < inv->n_rocm; i++)
		free(inv->rocm[i].libs);
	free(inv->rocm);
	for (size_t i = 0; i < inv->n_rocblas; i++)
		free(inv->rocblas[i].targets);
	free(inv->rocblas);
	for (size_t i = 0; i < inv->n_cuda; i++)
		free(inv->cuda[i].libs);
	free(inv->cuda);
	free(inv->cuda_libs);
	free(inv->intel_libs);
	free(inv->cuda_checks);
	free(inv->vulkan);
	free(inv->opencl);
	free(inv->deps);
	memset(inv, 0, sizeof *inv);
}
