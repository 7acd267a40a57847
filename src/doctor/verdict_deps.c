/* Why a runtime does not load: each runtime library whose DT_NEEDED
 * closure has a problem (inventory's dependency checks) becomes a fact on
 * the verdicts of its vendor (every verdict for a software or unknown
 * driver), and a step naming the package from the kb's libraries[]: "Install
 * libglvnd0 (Debian/Ubuntu) or libglvnd (Fedora)". A check that could not
 * judge (a capture's empty library) says nothing. */
#include <string.h>

#include "discover/vendor.h"
#include "kb/kb.h"
#include "verdict_util.h"

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

int gd_doctor_packages(const gd_kb *kb, const char *soname, char *out,
		       size_t cap, struct gd_kb_list *sources)
{
	struct gd_kb_library k;

	out[0] = '\0';
	if (!kb || gd_kb_library_get(kb, soname, &k) < 0)
		return 0;
	if (k.debian && k.fedora)
		gd_fmt(out, cap, "%s (Debian/Ubuntu) or %s (Fedora)", k.debian,
		       k.fedora);
	else if (k.debian)
		gd_fmt(out, cap, "%s (Debian/Ubuntu)", k.debian);
	else if (k.fedora)
		gd_fmt(out, cap, "%s (Fedora)", k.fedora);
	if (sources)
		*sources = k.sources;
	return 1;
}

/* The phrase above, citing the entry's sources on v. */
static void packages(gd_ctx *ctx, struct gd_verdict *v, const char *soname,
		     char *out, size_t cap)
{
	struct gd_kb_list src;

	if (gd_doctor_packages(ctx->kb, soname, out, cap, &src))
		gd_v_sources(v, src);
}

static void step_install(gd_ctx *ctx, struct gd_verdict *v,
			 const struct gd_dep_check *d, const char *why)
{
	char pkg[300];

	packages(ctx, v, d->soname, pkg, sizeof pkg);
	if (pkg[0])
		gd_v_step(v, GD_C_DEPS_INSTALL,
			  "Install %s: it provides %s, %s", pkg, d->soname,
			  why);
	else
		gd_v_step(v, GD_C_DEPS_INSTALL,
			  "Install the package that provides %s, %s "
			  "(Debian/Ubuntu: apt-file search %s; Fedora: dnf "
			  "provides '*/%s')",
			  d->soname, why, d->soname, d->soname);
}

static void step_upgrade(gd_ctx *ctx, struct gd_verdict *v,
			 const struct gd_dep_check *d)
{
	char pkg[300];

	if (!strcmp(d->how, "LD_LIBRARY_PATH") || !strcmp(d->how, "RPATH") ||
	    !strcmp(d->how, "RUNPATH")) {
		gd_v_step(v, GD_C_DEPS_UPGRADE,
			  "%s is found first through %s: take that copy out of "
			  "the search path (or replace it with a newer one) so "
			  "that a %s defining %s is loaded",
			  d->path, d->how, d->soname, d->version);
		return;
	}
	packages(ctx, v, d->soname, pkg, sizeof pkg);
	gd_v_step(v, GD_C_DEPS_UPGRADE,
		  "Upgrade %s to a release that defines %s, or use a build of "
		  "%s made for this distribution",
		  pkg[0] ? pkg : d->soname, d->version, d->name);
}

static void judge_one(gd_ctx *ctx, struct gd_verdict *v,
		      const struct gd_dep_check *d)
{
	char why[300];

	gd_fmt(why, sizeof why, "which %s needs",
	       d->needed_by[0] ? base_of(d->needed_by) : d->name);
	switch (d->status) {
	case GD_DEP_MISSING:
		gd_v_fact(v, GD_C_DEPS_MISSING,
			  "%s (%s) would not load: %s: not found%s%s", d->what,
			  d->name, d->chain, d->detail[0] ? "; " : "",
			  d->detail);
		step_install(ctx, v, d, why);
		break;
	case GD_DEP_WRONG_CLASS:
	case GD_DEP_WRONG_MACHINE:
		gd_v_fact(v, GD_C_DEPS_WRONG_ARCH,
			  "%s (%s) would not load: %s: %s is %s, which the "
			  "loader skips",
			  d->what, d->name, d->chain, d->path, d->detail);
		step_install(ctx, v, d, why);
		break;
	case GD_DEP_VERSION:
		gd_v_fact(v, GD_C_DEPS_SYMBOL_VERSION,
			  "%s (%s) would not load: %s needs %s from %s; %s "
			  "%s%s",
			  d->what, d->name, base_of(d->needed_by), d->version,
			  d->soname, d->path,
			  d->provides[0] ? "provides up to "
					 : "does not define it",
			  d->provides);
		step_upgrade(ctx, v, d);
		break;
	case GD_DEP_BAD_ELF:
		gd_v_fact(v, GD_C_DEPS_BAD_ELF,
			  "%s (%s) would not load: %s: %s: %s", d->what,
			  d->name, d->chain, d->path[0] ? d->path : d->lib,
			  d->detail);
		step_install(ctx, v, d, why);
		break;
	default:
		break;
	}
}

void gd_doctor_deps(gd_ctx *ctx, struct gd_inventory *inv)
{
	for (size_t i = 0; ctx->kb && inv && i < inv->n_deps; i++) {
		struct gd_dep_check *d = &inv->deps[i];
		struct gd_kb_library k;
		const char *names[17];
		size_t n = 0;

		if (d->status != GD_DEP_OK ||
		    (gd_kb_library_get(ctx->kb, d->name, &k) < 0 &&
		     gd_kb_library_get(ctx->kb, base_of(d->lib), &k) < 0))
			continue;
		for (size_t j = 0; j < gd_kb_list_n(k.dlopens) && n < 16; j++)
			if (gd_kb_list_at(k.dlopens, j))
				names[n++] = gd_kb_list_at(k.dlopens, j);
		names[n] = NULL;
		if (n)
			gd_inventory_dep_dlopens(ctx, d, names);
	}
}

/* The vendor's own compute runtime broken: the GPU is not "works". */
static int own_stack(const struct gd_dep_check *d, enum gd_vendor vd)
{
	return vd != GD_VENDOR_OTHER && gd_vendor_of_backend(d->backend) == vd;
}

void gd_v_deps(gd_ctx *ctx, const struct gd_machine *m,
	       const struct gd_inventory *inv, struct gd_diagnosis *d)
{
	for (size_t k = 0; inv && k < inv->n_deps; k++) {
		const struct gd_dep_check *dc = &inv->deps[k];

		if (!gd_dep_broken(dc->status))
			continue;
		for (size_t i = 0; i < d->n; i++) {
			struct gd_verdict *v = &d->v[i];
			int gi = v->gpu_index;
			enum gd_vendor vd =
			    gi >= 0 ? m->gpus[gi].vendor : GD_VENDOR_OTHER;

			if (dc->vendor[0] &&
			    (gi < 0 || strcmp(gd_vendor_name(vd), dc->vendor)))
				continue;
			judge_one(ctx, v, dc);
			if (own_stack(dc, vd) && v->status == GD_V_WORKS)
				v->status = GD_V_SETUP;
		}
	}
}
