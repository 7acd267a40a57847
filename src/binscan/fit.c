/* Does the code in a file run on a GPU?
 * Rules and their sources: docs/scan.md, "Fit rules" and "Sources".
 * AMD (LLVM AMDGPUUsage, "Target ID" and "Generic Processors"):
 *   the code object's processor must equal the GPU's, or be a generic
 *   target that lists it; a feature given as + or - must match the GPU's
 *   mode (xnack, sramecc); a feature left out ("any") runs either way.
 * NVIDIA (CUDA C Programming Guide, "Binary Compatibility" and "Feature
 * Availability"): a cubin for sm_XY runs on sm_XZ with Z >= Y (same major);
 * sm_XYa only on sm_XY; sm_XYf on the family (same major, Z >= Y). PTX for
 * compute_XY is JIT-compiled for any sm >= XY when the driver knows that
 * PTX ISA version; compute_XYa only on sm_XY. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "binscan.h"

static const struct {
	const char *generic;
	const char *members;
} generics[] = {
    {"gfx9-generic", " gfx900 gfx902 gfx904 gfx906 gfx909 gfx90c "},
    {"gfx9-4-generic", " gfx940 gfx941 gfx942 gfx950 "},
    {"gfx10-1-generic", " gfx1010 gfx1011 gfx1012 gfx1013 "},
    {"gfx10-3-generic",
     " gfx1030 gfx1031 gfx1032 gfx1033 gfx1034 gfx1035 gfx1036 "},
    {"gfx11-generic",
     " gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 gfx1153 "},
    {"gfx12-generic", " gfx1200 gfx1201 "},
};

/* CUDA driver branch -> PTX ISA it can JIT (CUDA toolkit release notes,
 * "CUDA Driver" minimum versions, and PTX ISA release history). */
static const struct {
	unsigned branch, ptx_major, ptx_minor;
} ptx_by_driver[] = {
    {450, 7, 0}, {455, 7, 1}, {460, 7, 2}, {465, 7, 3}, {470, 7, 4},
    {495, 7, 5}, {510, 7, 6}, {515, 7, 7}, {520, 7, 8}, {525, 8, 0},
    {530, 8, 1}, {535, 8, 2}, {545, 8, 3}, {550, 8, 4}, {555, 8, 5},
    {560, 8, 5}, {570, 8, 7}, {575, 8, 8}, {580, 9, 0},
};

int gd_bs_ptx_ceiling(const char *driver_version, unsigned *major,
		      unsigned *minor)
{
	unsigned br = (unsigned)strtoul(driver_version, NULL, 10);
	int found = -1;

	for (size_t i = 0; i < sizeof ptx_by_driver / sizeof ptx_by_driver[0];
	     i++)
		if (br >= ptx_by_driver[i].branch)
			found = (int)i;
	if (found < 0)
		return -1;
	*major = ptx_by_driver[found].ptx_major;
	*minor = ptx_by_driver[found].ptx_minor;
	return 0;
}

static int feature(const char *feats, const char *name)
{
	const char *p = strstr(feats, name);

	if (!p)
		return -1;
	p += strlen(name);
	return *p == '+' ? 1 : *p == '-' ? 0 : -1;
}

int gd_bs_gpu_parse(const char *s, struct gd_bs_gpu *g)
{
	char buf[48];
	unsigned v;
	char *colon;

	memset(g, 0, sizeof *g);
	g->xnack = g->sramecc = -1;
	if (!s || strlen(s) >= sizeof buf)
		return -1;
	gd_strlcpy(g->name, s, sizeof g->name);
	gd_strlcpy(buf, s, sizeof buf);
	if (!strncmp(buf, "gfx", 3)) {
		g->amd = 1;
		colon = strchr(buf, ':');
		if (colon) {
			g->xnack = feature(colon, "xnack");
			g->sramecc = feature(colon, "sramecc");
			*colon = '\0';
		}
		if (strlen(buf) < 5)
			return -1;
		gd_strlcpy(g->gfx, buf, sizeof g->gfx);
		return 0;
	}
	if (!strncmp(buf, "sm_", 3))
		memmove(buf, buf + 3, strlen(buf + 3) + 1);
	if (strchr(buf, '.')) { /* "8.6" compute capability */
		unsigned a, b;

		if (sscanf(buf, "%u.%u", &a, &b) != 2)
			return -1;
		v = a * 10 + b;
	} else if (gd_parse_u32(buf, 10, &v)) {
		return -1;
	}
	if (v < 10 || v > 2000)
		return -1;
	g->sm_major = v / 10;
	g->sm_minor = v % 10;
	return 0;
}

static enum gd_bs_fit fit_amd(const struct gd_bs_target *t,
			      const struct gd_bs_gpu *g, char *why, size_t cap)
{
	int tx = feature(t->features, "xnack"),
	    ts = feature(t->features, "sramecc");
	int match = !strcmp(t->target, g->gfx);
	char key[32];

	if (!match && strstr(t->target, "generic")) {
		gd_fmt(key, sizeof key, " %s ", g->gfx);
		for (size_t i = 0; i < sizeof generics / sizeof generics[0];
		     i++)
			if (!strcmp(generics[i].generic, t->target) &&
			    strstr(generics[i].members, key))
				match = 1;
	}
	if (!match)
		return GD_FIT_NO;
	if ((tx >= 0 && g->xnack >= 0 && tx != g->xnack) ||
	    (ts >= 0 && g->sramecc >= 0 && ts != g->sramecc)) {
		gd_fmt(why, cap, "%s:%s does not match the GPU's mode",
		       t->target, t->features);
		return GD_FIT_NO;
	}
	return GD_FIT_YES;
}

static enum gd_bs_fit fit_nv(const struct gd_bs_target *t,
			     const struct gd_bs_gpu *g, char *why, size_t cap)
{
	const char *num = strchr(t->target, '_');
	unsigned v, maj, min;
	char sfx;
	char *end;

	if (!num)
		return GD_FIT_NO;
	v = (unsigned)strtoul(num + 1, &end, 10);
	sfx = *end;
	maj = v / 10;
	min = v % 10;
	if (sfx == 'a' && (maj != g->sm_major || min != g->sm_minor))
		return GD_FIT_NO;
	if (t->kind == GD_BS_SASS || sfx == 'f')
		if (maj != g->sm_major || min > g->sm_minor)
			return GD_FIT_NO;
	if (t->kind == GD_BS_SASS)
		return GD_FIT_YES;
	if (maj > g->sm_major || (maj == g->sm_major && min > g->sm_minor))
		return GD_FIT_NO;
	if (g->ptx_max_major && (t->ptx_major > g->ptx_max_major ||
				 (t->ptx_major == g->ptx_max_major &&
				  t->ptx_minor > g->ptx_max_minor))) {
		gd_fmt(why, cap,
		       "PTX ISA %u.%u is newer than the driver's %u.%u",
		       t->ptx_major, t->ptx_minor, g->ptx_max_major,
		       g->ptx_max_minor);
		return GD_FIT_NO;
	}
	return GD_FIT_PTX;
}

enum gd_bs_fit gd_bs_target_fits(const struct gd_bs_target *t,
				 const struct gd_bs_gpu *g, char *why,
				 size_t cap)
{
	if (why && cap)
		why[0] = '\0';
	if (t->kind == GD_BS_AMDGCN)
		return g->amd ? fit_amd(t, g, why, cap) : GD_FIT_NO;
	return g->amd ? GD_FIT_NO : fit_nv(t, g, why, cap);
}

void gd_bs_targets_str(const struct gd_bs_target *t, size_t n, const char *sep,
		       char *out, size_t cap)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && used + 1 < cap; i++) {
		gd_fmt(out + used, cap - used, "%s%s%s%s", i ? sep : "",
		       t[i].target, t[i].features[0] ? ":" : "", t[i].features);
		used = strlen(out);
	}
}

/* Best fit of the file on one GPU; why gets a near-miss reason. */
static enum gd_bs_fit fit_gpu(const struct gd_bs_file *f,
			      const struct gd_bs_gpu *g, char *why, size_t cap)
{
	enum gd_bs_fit best = GD_FIT_NO;
	char w[160];

	why[0] = '\0';
	for (size_t i = 0; i < f->targets.n; i++) {
		enum gd_bs_fit r =
		    gd_bs_target_fits(&f->targets.v[i], g, w, sizeof w);

		if (r == GD_FIT_YES)
			return r;
		if (r == GD_FIT_PTX)
			best = r;
		else if (w[0] && !why[0])
			gd_strlcpy(why, w, cap);
	}
	return best;
}

static void judge_gpu(const struct gd_bs_env *env, struct gd_bs_file *f)
{
	char has[256], why[160];
	size_t used = 0;
	int vendors = 0, any_rel = 0;

	if (!f->targets.n) {
		f->fit = GD_FIT_NONE;
		return;
	}
	if (!env->n_gpus) {
		f->fit = GD_FIT_NOGPU;
		return;
	}
	f->fit = GD_FIT_YES;
	gd_bs_targets_str(f->targets.v, f->targets.n, ", ", has, sizeof has);
	for (size_t i = 0; i < f->targets.n; i++)
		vendors |= f->targets.v[i].kind == GD_BS_AMDGCN ? 1 : 2;
	for (size_t i = 0; i < env->n_gpus; i++)
		any_rel |= (vendors & (env->gpus[i].amd ? 1 : 2)) != 0;
	for (size_t i = 0; i < env->n_gpus; i++) {
		const struct gd_bs_gpu *g = &env->gpus[i];
		enum gd_bs_fit r;
		const char *gn = g->amd ? g->gfx : g->name;

		/* CUDA code is no news for the AMD iGPU beside an NVIDIA card
		 */
		if (any_rel && !(vendors & (g->amd ? 1 : 2)))
			continue;
		r = fit_gpu(f, g, why, sizeof why);

		if (r > f->fit)
			f->fit = r;
		if (r == GD_FIT_YES)
			gd_fmt(f->detail + used, sizeof f->detail - used,
			       "%shas code for %s", used ? "; " : "", gn);
		else if (r == GD_FIT_PTX)
			gd_fmt(f->detail + used, sizeof f->detail - used,
			       "%sruns on %s only through PTX JIT (has: %s)",
			       used ? "; " : "", gn, has);
		else
			gd_fmt(f->detail + used, sizeof f->detail - used,
			       "%sno code for %s (has: %s)%s%s",
			       used ? "; " : "", gn, has, why[0] ? ": " : "",
			       why);
		used = strlen(f->detail);
	}
}

void gd_bs_judge(gd_ctx *ctx, const struct gd_bs_env *env, struct gd_bs_file *f)
{
	if (f->error[0])
		return;
	judge_gpu(env, f);
	for (size_t i = 0; f->has_dyn && i < f->dyn.needed.n; i++) {
		const char *so = f->dyn.needed.v[i];
		struct gd_bs_need *nd = NULL;

		/* Windows DLL names are case-insensitive */
		for (size_t k = 0; k < f->needs.n; k++)
			if (gd_bs_is_pe(f)
				? !strcasecmp(f->needs.v[k].soname, so)
				: !strcmp(f->needs.v[k].soname, so))
				nd = &f->needs.v[k];
		if (nd)
			continue;
		if (!(nd = gd_vec_push(&f->needs)))
			return;
		if (gd_bs_is_pe(f))
			gd_dllresolve(ctx, env, f, so,
				      i >= f->dyn.needed.n - f->dyn.n_delay,
				      nd);
		else
			gd_ldresolve(ctx, env, f, so, nd);
	}
	gd_ldcheck_symbols(ctx, f);
	f->runtime_ok = 1;
	for (size_t i = 0; i < f->needs.n; i++) {
		const struct gd_bs_need *nd = &f->needs.v[i];
		size_t used = strlen(f->detail);

		if (nd->found && !nd->missing_syms)
			continue;
		f->runtime_ok = 0;
		if (!nd->found)
			gd_fmt(f->detail + used, sizeof f->detail - used,
			       "%smissing %s", used ? "; " : "", nd->soname);
		else
			gd_fmt(f->detail + used, sizeof f->detail - used,
			       "%s%s lacks %s", used ? "; " : "", nd->path,
			       nd->missing_first);
	}
}

int gd_bs_file_ok(const struct gd_bs_file *f)
{
	if (f->error[0])
		return 0;
	return f->runtime_ok && f->fit != GD_FIT_NO;
}
