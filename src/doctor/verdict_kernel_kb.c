/* The kernel facts of an AMD GPU judged against the kb's "kernel"
 * section (firmware known bad, kernel ranges, parameter notes), and the
 * memory an APU's GPU can use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verdict_util.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static int has_ci(struct gd_kb_list l, const char *s)
{
	for (size_t i = 0; s && i < gd_kb_list_n(l); i++)
		if (gd_kb_list_at(l, i) && !strcasecmp(gd_kb_list_at(l, i), s))
			return 1;
	return 0;
}

static void fw_list_fact(struct gd_verdict *v, const struct gd_fw *fw)
{
	char list[480] = "";
	size_t used = 0;

	for (size_t i = 0; i < fw->n && used < sizeof list; i++) {
		const char *n = fw->v[i].name;
		size_t nl = strlen(n);

		/* "mes_fw_version" -> "mes" */
		if (nl > 11 && !strcmp(n + nl - 11, "_fw_version"))
			nl -= 11;
		used += (size_t)snprintf(list + used, sizeof list - used,
					 "%s%.*s %s", i ? ", " : "", (int)nl, n,
					 fw->v[i].value);
	}
	gd_v_fact(v, GD_C_KERNEL_FIRMWARE, "firmware (device/fw_version): %s",
		  list);
}

static void fw_entries(gd_ctx *ctx, struct gd_verdict *v,
		       const struct gd_gpu *g)
{
	struct gd_kb_firmware f;

	for (size_t i = 0; i < gd_kb_firmware_count(ctx->kb); i++) {
		const char *val;

		if (gd_kb_firmware_at(ctx->kb, i, &f) < 0 ||
		    !gd_kb_list_has(f.targets, g->gfx))
			continue;
		val = gd_fw_get(&g->fw, f.file);
		if (!val) {
			gd_v_fact(v, GD_C_KERNEL_FIRMWARE,
				  "%s not readable (%s): the kb knows bad "
				  "versions of it for %s",
				  f.file, g->fw.why[0] ? g->fw.why : "absent",
				  g->gfx);
			continue;
		}
		gd_v_sources(v, f.sources);
		if (has_ci(f.bad, val)) {
			gd_v_fact(v, GD_C_KERNEL_FIRMWARE_BAD, "%s is %s: %s",
				  f.file, val, f.text);
			gd_v_step(v, GD_C_KERNEL_FIRMWARE_UPDATE, "%s", f.step);
		} else {
			gd_v_fact(v, GD_C_KERNEL_FIRMWARE,
				  "%s is %s, not the version known bad on %s "
				  "(%s)",
				  f.file, val, g->gfx,
				  gd_kb_list_at(f.bad, 0)
				      ? gd_kb_list_at(f.bad, 0)
				      : "?");
		}
	}
}

/* "6.14.0-37-generic" < "6.18"? -1 when the release does not parse. */
static int release_below(const char *rel, const char *below)
{
	unsigned a, b, x, y;

	if (sscanf(rel, "%u.%u", &a, &b) != 2 ||
	    sscanf(below, "%u.%u", &x, &y) != 2)
		return -1;
	return a < x || (a == x && b < y);
}

/* "amdgpu.cwsr_enable=0" in force? */
int gd_v_kparam_in_force(const struct gd_kstate *k, const char *mpv)
{
	char mod[32], par[48];
	const char *dot = strchr(mpv, '.'), *eq = strchr(mpv, '='), *now;

	if (!dot || !eq || eq < dot)
		return 0;
	gd_fmt(mod, sizeof mod, "%.*s", (int)(dot - mpv), mpv);
	gd_fmt(par, sizeof par, "%.*s", (int)(eq - dot - 1), dot + 1);
	now = gd_kstate_param(k, mod, par);
	return now && gd_kparam_same(now, eq + 1);
}

static void release_entries(gd_ctx *ctx, struct gd_verdict *v,
			    const struct gd_machine *m, const struct gd_gpu *g)
{
	const gd_text *rel = &m->kernel.release;
	struct gd_kb_kernel_release r;

	for (size_t i = 0; i < gd_kb_kernel_release_count(ctx->kb); i++) {
		if (gd_kb_kernel_release_at(ctx->kb, i, &r) < 0 ||
		    !gd_kb_list_has(r.targets, g->gfx) || !gd_known(rel) ||
		    release_below(rel->v, r.below) != 1)
			continue;
		gd_v_sources(v, r.sources);
		if (r.param && gd_v_kparam_in_force(&m->kstate, r.param)) {
			gd_v_fact(v, GD_C_KERNEL_RELEASE,
				  "kernel %s is before %s, and %s is in force "
				  "as the kb asks for it: %s",
				  rel->v, r.below, r.param, r.text);
			continue;
		}
		gd_v_fact(v, GD_C_KERNEL_RELEASE, "kernel %s is before %s: %s",
			  rel->v, r.below, r.text);
		if (r.step)
			gd_v_step(v, GD_C_KERNEL_RELEASE_STEP, "%s", r.step);
	}
}

static void param_notes(gd_ctx *ctx, struct gd_verdict *v,
			const struct gd_machine *m, const struct gd_gpu *g)
{
	struct gd_kb_kparam p;
	char mpv[128];

	for (size_t i = 0; i < gd_kb_kparam_count(ctx->kb); i++) {
		if (gd_kb_kparam_at(ctx->kb, i, &p) < 0 ||
		    !gd_kb_list_has(p.targets, g->gfx))
			continue;
		gd_fmt(mpv, sizeof mpv, "%s=%s", p.param, p.value);
		if (!gd_v_kparam_in_force(&m->kstate, mpv))
			continue;
		gd_v_fact(v, GD_C_KERNEL_PARAM_NOTE, "%s", p.text);
		gd_v_sources(v, p.sources);
	}
}

void gd_v_kernel_fw(gd_ctx *ctx, struct gd_verdict *v, const struct gd_gpu *g)
{
	if (g->fw.n)
		fw_list_fact(v, &g->fw);
	if (g->gfx[0])
		fw_entries(ctx, v, g);
}

/* An APU's GPU memory: what a model can use, and how to raise it. The
 * GTT pool is capped by TTM's pages_limit (pages of 4 KiB, default half
 * of RAM); amdgpu.gttsize is deprecated (docs.kernel.org). */
void gd_v_kernel_mem(gd_ctx *ctx, struct gd_verdict *v,
		     const struct gd_machine *m, const struct gd_gpu *g)
{
	const struct gd_kstate *k = &m->kstate;
	double gtt = 0, lim = 0, ram = 0, use;
	const char *mod = gd_kmod_name((enum gd_kmod)k->ttm_module);

	if (g->gfx[0]) {
		release_entries(ctx, v, m, g);
		param_notes(ctx, v, m, g);
	}
	if (!g->integrated || !gd_known(&g->gtt_total))
		return;
	gtt = (double)g->gtt_total.v;
	if (gd_known(&k->ttm_pages_limit))
		lim = (double)k->ttm_pages_limit.v * 4096.0;
	if (gd_known(&k->mem_total))
		ram = (double)k->mem_total.v;
	use = lim && lim < gtt ? lim : gtt;
	{
		char ttm[96] = "", sys[48] = "";

		if (lim)
			gd_fmt(ttm, sizeof ttm,
			       ", TTM limit %.1f GiB (%s.pages_limit %llu)",
			       lim / GIB, mod,
			       (unsigned long long)k->ttm_pages_limit.v);
		if (ram)
			gd_fmt(sys, sizeof sys, ", RAM %.1f GiB", ram / GIB);
		gd_v_fact(v, GD_C_KERNEL_GPU_MEMORY,
			  "GPU memory of this APU: %.1f GiB carve-out (VRAM), "
			  "GTT %.1f GiB%s%s: a model of up to about %.1f GiB "
			  "(%.0f GB) fits in GTT",
			  gd_known(&g->vram_total)
			      ? (double)g->vram_total.v / GIB
			      : 0,
			  gtt / GIB, ttm, sys, use / GIB, use / 1e9);
	}
	/* nothing worth raising: most of RAM already, or too little RAM */
	if (!ram || use >= ram * 0.75 || ram - 8.0 * GIB < use + GIB)
		return;
	gd_v_source(v, "rocm-strixhalo-memory");
	gd_v_source(v, "amdgpu-module-params");
	gd_v_step(
	    v, GD_C_KERNEL_RAISE_GTT,
	    "To fit larger models, raise the GTT limit (%.1f GiB now, "
	    "of %.1f GiB RAM): add %s.pages_limit=N to the kernel "
	    "command line, N in pages of 4 KiB (e.g. %llu for %.0f GiB, "
	    "leaving 8 GiB to the OS%s), update-grub and reboot; "
	    "amdgpu.gttsize is deprecated",
	    use / GIB, ram / GIB, mod,
	    (unsigned long long)((ram - 8.0 * GIB) / 4096.0),
	    (ram - 8.0 * GIB) / GIB,
	    k->ttm_module == GD_KMOD_AMDTTM
		? ""
		: "; amdttm.pages_limit=N instead with AMD's DKMS amdgpu");
}
