/* rocBLAS kernel coverage per gfx target, from the file names of its
 * library directories. The layouts (rocBLAS/Tensile build options):
 *  - lazy (TensileCreateLibrary --lazy-library-loading, AMD packages since
 *    ROCm 5.x): TensileLibrary_lazy_gfxN.dat catalogs + per-type code
 *    objects (TensileLibrary_Type_..._gfxN.co/.hsaco) + Kernels.so-000-gfxN*
 *  - single (merged, non-lazy, e.g. Debian's librocblas0): one
 *    TensileLibrary.dat (or per-arch TensileLibrary_gfxN.dat with
 *    --separate-architectures) + TensileLibrary_gfxN.co
 *  - Kernels.so-000-gfxN[-xnack±].hsaco alone: Tensile's source ("fallback")
 *    kernels only: GEMM works but on slow generic kernels.
 * Real listings: Debian trixie librocblas0 5.5.1 (dpkg -c), and rocBLAS's
 * own "List of available TensileLibrary Files" (docs/windows.md, A.3;
 * docs/json-runtimes.md, the kinds). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inv_int.h"

#define MAX_TARGETS 128

struct scan_t {
	char gfx[16], xnack[8];
	int lazy_cat, arch_dat, asm_co, other_code, kernels;
};

struct scan {
	struct scan_t t[MAX_TARGETS];
	size_t n;
	int global_cat; /* TensileLibrary.dat / .yaml */
};

const char *gd_rocblas_kind_name(enum gd_rocblas_kind kind)
{
	switch (kind) {
	case GD_ROCBLAS_TENSILE_LAZY:
		return "tensile-lazy";
	case GD_ROCBLAS_TENSILE_SINGLE:
		return "tensile-single";
	case GD_ROCBLAS_FALLBACK_ONLY:
		return "fallback-only";
	case GD_ROCBLAS_INCOMPLETE:
		return "incomplete";
	}
	return "unknown";
}

/* "gfx90a-xnack+.hsaco" -> gfx "gfx90a", xnack "+"; returns bytes used. */
static size_t parse_gfx(const char *s, char *gfx, char *xnack)
{
	size_t k = 3;

	xnack[0] = '\0';
	if (strncmp(s, "gfx", 3))
		return 0;
	while ((s[k] >= '0' && s[k] <= '9') || (s[k] >= 'a' && s[k] <= 'f'))
		k++;
	if (k == 3 || k >= 16)
		return 0;
	memcpy(gfx, s, k);
	gfx[k] = '\0';
	if ((s[k] == '-' || s[k] == ':') && !strncmp(s + k + 1, "xnack", 5) &&
	    (s[k + 6] == '+' || s[k + 6] == '-')) {
		xnack[0] = s[k + 6];
		xnack[1] = '\0';
		k += 7;
	}
	return k;
}

static struct scan_t *target(struct scan *sc, const char *gfx,
			     const char *xnack)
{
	for (size_t i = 0; i < sc->n; i++)
		if (!strcmp(sc->t[i].gfx, gfx) &&
		    !strcmp(sc->t[i].xnack, xnack))
			return &sc->t[i];
	if (sc->n >= MAX_TARGETS)
		return NULL;
	memset(&sc->t[sc->n], 0, sizeof sc->t[0]);
	gd_strlcpy(sc->t[sc->n].gfx, gfx, sizeof sc->t[0].gfx);
	gd_strlcpy(sc->t[sc->n].xnack, xnack, sizeof sc->t[0].xnack);
	return &sc->t[sc->n++];
}

/* A gfx token preceded by '_' or '-' anywhere in a code-object name. */
static const char *find_gfx(const char *name, char *gfx, char *xnack)
{
	for (const char *p = strstr(name, "gfx"); p; p = strstr(p + 1, "gfx"))
		if (p > name && (p[-1] == '_' || p[-1] == '-') &&
		    parse_gfx(p, gfx, xnack))
			return p;
	return NULL;
}

static void scan_one(struct scan *sc, const char *nm)
{
	char gfx[16], xn[8];
	struct scan_t *t;
	size_t k;

	if (!strcmp(nm, "TensileLibrary.dat") ||
	    !strcmp(nm, "TensileLibrary.yaml")) {
		sc->global_cat = 1;
		return;
	}
	if (!strncmp(nm, "Kernels.so-000-", 15)) {
		k = parse_gfx(nm + 15, gfx, xn);
		if (k && !strcmp(nm + 15 + k, ".hsaco") &&
		    (t = target(sc, gfx, xn)))
			t->kernels = 1;
		return;
	}
	if (!strncmp(nm, "TensileLibrary_lazy_", 20)) {
		k = parse_gfx(nm + 20, gfx, xn);
		if (k && !strcmp(nm + 20 + k, ".dat") &&
		    (t = target(sc, gfx, xn)))
			t->lazy_cat = 1;
		return;
	}
	if (!strncmp(nm, "TensileLibrary_gfx", 18)) {
		k = parse_gfx(nm + 15, gfx, xn);
		if (!k || !(t = target(sc, gfx, xn)))
			return;
		if (!strcmp(nm + 15 + k, ".dat") ||
		    !strcmp(nm + 15 + k, ".yaml"))
			t->arch_dat = 1;
		else if (!strcmp(nm + 15 + k, ".co"))
			t->asm_co = 1;
		return;
	}
	if ((gd_endswith(nm, ".co") || gd_endswith(nm, ".hsaco")) &&
	    find_gfx(nm, gfx, xn) && (t = target(sc, gfx, xn)))
		t->other_code = 1;
}

/* Tensile files are per gfx; Kernels.so files per gfx+xnack. Fold the
 * gfx-wide flags into each xnack variant and drop the gfx-wide entry when
 * variants exist. */
static void fold_xnack(struct scan *sc)
{
	for (size_t i = 0; i < sc->n; i++) {
		struct scan_t *g = &sc->t[i];
		int variants = 0;

		if (g->xnack[0])
			continue;
		for (size_t j = 0; j < sc->n; j++) {
			struct scan_t *v = &sc->t[j];

			if (j == i || strcmp(v->gfx, g->gfx) || !v->xnack[0])
				continue;
			v->lazy_cat |= g->lazy_cat;
			v->arch_dat |= g->arch_dat;
			v->asm_co |= g->asm_co;
			v->other_code |= g->other_code;
			v->kernels |= g->kernels;
			variants = 1;
		}
		if (variants) {
			memmove(g, g + 1, (sc->n - i - 1) * sizeof *g);
			sc->n--;
			i--;
		}
	}
}

static void judge(const struct scan *sc, const struct scan_t *s,
		  struct gd_rocblas_target *t)
{
	int catalog = s->arch_dat || sc->global_cat;

	gd_strlcpy(t->gfx, s->gfx, sizeof t->gfx);
	gd_strlcpy(t->xnack, s->xnack, sizeof t->xnack);
	t->fallback_kernels = s->kernels;
	t->tensile_catalog = s->lazy_cat || catalog;
	t->tensile_code = s->asm_co || s->other_code;
	if (s->lazy_cat) {
		t->kind = GD_ROCBLAS_TENSILE_LAZY;
		if (!s->other_code && !s->asm_co && !s->kernels)
			gd_strlcpy(
			    t->note,
			    "lazy catalog but no code objects for this target",
			    sizeof t->note);
	} else if (catalog && s->asm_co) {
		t->kind = GD_ROCBLAS_TENSILE_SINGLE;
	} else if (catalog && s->kernels) {
		t->kind = GD_ROCBLAS_FALLBACK_ONLY;
		gd_strlcpy(t->note,
			   "no Tensile kernels: GEMM runs on slow generic "
			   "(fallback) kernels",
			   sizeof t->note);
	} else {
		t->kind = GD_ROCBLAS_INCOMPLETE;
		gd_strlcpy(t->note,
			   catalog ? "catalog but no code objects"
				   : "no TensileLibrary.dat: rocBLAS fails to "
				     "load for this target",
			   sizeof t->note);
	}
}

size_t gd_rocblas_scan_names(char *const *names, size_t n,
			     struct gd_rocblas_dir *dir)
{
	struct scan *sc = calloc(1, sizeof *sc);

	dir->targets = NULL;
	dir->n_targets = 0;
	if (!sc)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (names[i])
			scan_one(sc, names[i]);
	fold_xnack(sc);
	if (sc->n)
		dir->targets = calloc(sc->n, sizeof *dir->targets);
	if (dir->targets) {
		for (size_t i = 0; i < sc->n; i++)
			judge(sc, &sc->t[i], &dir->targets[i]);
		dir->n_targets = sc->n;
	}
	free(sc);
	return dir->n_targets;
}

int gd_rocblas_coverage(const struct gd_inventory *inv, const char *gfx)
{
	char want[16], xn[8];
	int best = -1;

	if (!inv || !gfx || !parse_gfx(gfx, want, xn))
		return -1;
	for (size_t d = 0; d < inv->n_rocblas; d++) {
		const struct gd_rocblas_dir *dir = &inv->rocblas[d];

		for (size_t i = 0; i < dir->n_targets; i++) {
			const struct gd_rocblas_target *t = &dir->targets[i];

			if (strcmp(t->gfx, want))
				continue;
			if (xn[0] && t->xnack[0] && strcmp(t->xnack, xn))
				continue;
			if (best < 0 || (int)t->kind < best)
				best = (int)t->kind;
		}
	}
	return best;
}

/* ---- finding the directories ---- */

static void add_dir(gd_ctx *ctx, struct gd_inventory *inv, const char *path,
		    const char *found_by)
{
	char res[512];
	gd_strvec names;
	struct gd_rocblas_dir *d;
	int rc;

	if (gd_fs_resolve(&ctx->fs, path, res, sizeof res) < 0)
		return;
	for (size_t i = 0; i < inv->n_rocblas; i++) {
		if (strcmp(inv->rocblas[i].resolved, res))
			continue;
		gd_inv_add_found_by(inv->rocblas[i].found_by,
				    sizeof inv->rocblas[i].found_by, found_by);
		return;
	}
	rc = gd_fs_list(&ctx->fs, path, &names);
	if (rc == -ENOENT || rc == -ENOTDIR)
		return;
	d = gd_inv_push((void **)&inv->rocblas, &inv->n_rocblas, sizeof *d);
	if (!d) {
		gd_strvec_free(&names);
		return;
	}
	gd_strlcpy(d->path, path, sizeof d->path);
	gd_strlcpy(d->resolved, res, sizeof d->resolved);
	gd_strlcpy(d->found_by, found_by, sizeof d->found_by);
	if (rc < 0) {
		gd_fmt(d->error, sizeof d->error, "cannot list: %s",
		       gd_fs_strerror(rc));
		return;
	}
	if (names.n >= GD_INV_LIST_CAP)
		gd_fmt(d->error, sizeof d->error,
		       "listing stopped at %d entries", GD_INV_LIST_CAP);
	gd_rocblas_scan_names(names.v, names.n, d);
	gd_strvec_free(&names);
}

/* L/rocblas/library and L/rocblas/<version>/library (Debian). */
static void scan_libdir(gd_ctx *ctx, struct gd_inventory *inv,
			const char *libdir, const char *found_by)
{
	char rb[600], p[900];
	gd_strvec sub;

	gd_path_join(rb, sizeof rb, libdir, "rocblas");
	gd_path_join(p, sizeof p, rb, "library");
	if (gd_fs_exists(&ctx->fs, p))
		add_dir(ctx, inv, p, found_by);
	if (gd_fs_list(&ctx->fs, rb, &sub) < 0)
		return;
	for (size_t i = 0; i < sub.n && i < 64; i++) {
		if (!strcmp(sub.v[i], "library"))
			continue;
		gd_fmt(p, sizeof p, "%s/%s/library", rb, sub.v[i]);
		if (!gd_fs_exists(&ctx->fs, p))
			continue;
		add_dir(ctx, inv, p, found_by);
		if (inv->n_rocblas &&
		    !strcmp(inv->rocblas[inv->n_rocblas - 1].path, p))
			gd_strlcpy(inv->rocblas[inv->n_rocblas - 1].version,
				   sub.v[i], sizeof inv->rocblas[0].version);
	}
	gd_strvec_free(&sub);
}

void gd_inv_rocblas_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			    struct gd_inventory *inv)
{
	const char *env = gd_ctx_getenv(ctx, "ROCBLAS_TENSILE_LIBPATH");

	if (env && env[0] == '/')
		add_dir(ctx, inv, env, "ROCBLAS_TENSILE_LIBPATH");
	else if (env && *env)
		gd_diag_add(ctx, GD_DIAG_WARN, "ROCBLAS_TENSILE_LIBPATH",
			    "not an absolute path, ignored: %.150s", env);
	for (size_t i = 0; i < inv->n_rocm; i++) {
		char lib64[600];

		scan_libdir(ctx, inv, inv->rocm[i].lib_dir, inv->rocm[i].path);
		gd_path_join(lib64, sizeof lib64, inv->rocm[i].path, "lib64");
		scan_libdir(ctx, inv, lib64, inv->rocm[i].path);
	}
	for (size_t i = 0; i < ld->d.n; i++) {
		char by[64];

		gd_fmt(by, sizeof by, "library path (%s)", ld->d.v[i].from);
		scan_libdir(ctx, inv, ld->d.v[i].path, by);
	}
}
