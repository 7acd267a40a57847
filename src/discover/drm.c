/* DRM facts of an amdgpu device: mem_info_vram_total / _used and
 * mem_info_gtt_total (bytes, decimal; amdgpu's, docs/discover.md), the
 * render node from the device's drm/ directory, and the decision
 * integrated (APU / iGPU) vs discrete with the rule that fired. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "disc_int.h"

static void mem_attr(gd_ctx *ctx, const char *bdf, const char *name, gd_num *f)
{
	char path[192], buf[64];
	uint64_t v;
	int rc;

	gd_fmt(path, sizeof path, GD_PCI_DEVICES "/%s/%s", bdf, name);
	rc = gd_fs_read_line(&ctx->fs, path, buf, sizeof buf);
	if (rc < 0)
		gd_num_unknown(f, rc == -ENOENT ? GD_UNKNOWN : GD_FAILED,
			       "no %s (%s)", name, gd_fs_strerror(rc));
	else if (gd_parse_u64(buf, 10, &v) < 0)
		gd_num_unknown(f, GD_FAILED, "%s is not a number", name);
	else
		gd_num_set(f, v, name);
}

static void render_from_drm_dir(gd_ctx *ctx, struct gd_gpu *g)
{
	char path[192];
	gd_strvec names;
	uint32_t minor;

	gd_fmt(path, sizeof path, GD_PCI_DEVICES "/%s/drm", g->pci.bdf);
	if (gd_fs_list(&ctx->fs, path, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++)
		if (gd_startswith(names.v[i], "renderD") &&
		    gd_parse_u32(names.v[i] + 7, 10, &minor) == 0) {
			gd_num_set(&g->render_minor, minor, "drm/renderD*");
			break;
		}
	gd_strvec_free(&names);
}

void gd_drm_fill(gd_ctx *ctx, struct gd_gpu *g)
{
	uint64_t vram = 0, banks = 0;
	int have_local = 0, have_banks = 0;

	mem_attr(ctx, g->pci.bdf, "mem_info_vram_total", &g->vram_total);
	mem_attr(ctx, g->pci.bdf, "mem_info_vram_used", &g->vram_used);
	mem_attr(ctx, g->pci.bdf, "mem_info_gtt_total", &g->gtt_total);
	if (gd_known(&g->vram_total)) {
		gd_strlcpy(g->vram_src, "drm mem_info_vram_total",
			   sizeof g->vram_src);
	} else {
		/* KFD: local_mem_size when the kernel fills it, else the
		 * frame-buffer mem_banks; summed over a partitioned GPU's
		 * nodes (each partition reports its own share). */
		for (size_t i = 0; i < g->n_kfd_nodes; i++) {
			const struct gd_kfd_node *n = &g->kfd_nodes[i];

			if (gd_known(&n->local_mem_size) &&
			    n->local_mem_size.v) {
				vram += n->local_mem_size.v;
				have_local = 1;
			}
			if (gd_known(&n->mem_banks_bytes)) {
				banks += n->mem_banks_bytes.v;
				have_banks = 1;
			}
		}
		if (have_local) {
			gd_num_set(&g->vram_total, vram, "kfd local_mem_size");
			gd_strlcpy(g->vram_src, "kfd local_mem_size",
				   sizeof g->vram_src);
		} else if (have_banks) {
			gd_num_set(&g->vram_total, banks, "kfd mem_banks");
			gd_strlcpy(g->vram_src,
				   "kfd mem_banks (frame buffer heaps)",
				   sizeof g->vram_src);
		} else if (g->n_kfd_nodes) {
			gd_num_unknown(&g->vram_total, GD_UNKNOWN,
				       "no mem_info_vram_total, KFD "
				       "local_mem_size 0 and no mem_banks");
		}
	}
	if (!gd_known(&g->render_minor))
		render_from_drm_dir(ctx, g);
}

static void set_why(struct gd_gpu *g, int integrated, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_why(struct gd_gpu *g, int integrated, const char *fmt, ...)
{
	va_list ap;

	g->integrated = integrated;
	va_start(ap, fmt);
	gd_vfmt(g->integrated_why, sizeof g->integrated_why, fmt, ap);
	va_end(ap);
}

/* Rules, strongest evidence first; the first that fires decides. */
void gd_decide_integrated(gd_ctx *ctx, struct gd_gpu *g)
{
	int kb_apu;

	for (size_t i = 0; i < g->n_kfd_nodes; i++)
		if (g->kfd_nodes[i].cpu_and_gpu) {
			set_why(g, 1,
				"KFD node %u has both CPU cores and SIMDs "
				"(combined APU node)",
				g->kfd_nodes[i].id);
			return;
		}
	kb_apu = g->vendor == GD_VENDOR_AMD
		     ? gd_kbref_apu_for_pci(ctx, g->pci.device_id)
		     : -1;
	if (kb_apu >= 0) {
		set_why(g, kb_apu, "knowledge base: PCI id 0x%04x is %s",
			g->pci.device_id, kb_apu ? "an APU" : "a discrete GPU");
		return;
	}
	/* Only "apu": true of a whole gfx target is trusted: a target can
	 * have APU and discrete products (gfx942: MI300A and MI300X). */
	if (g->vendor == GD_VENDOR_AMD &&
	    gd_kbref_apu_for_gfx(ctx, g->gfx) == 1) {
		set_why(g, 1, "knowledge base: every %s product is an APU",
			g->gfx);
		return;
	}
	if (gd_known(&g->vram_total) && gd_known(&g->gtt_total) &&
	    g->vram_total.v < (1ULL << 30) &&
	    g->gtt_total.v > g->vram_total.v) {
		set_why(g, 1,
			"VRAM is a %llu MiB carve-out with %llu MiB GTT "
			"(DRM mem_info)",
			(unsigned long long)(g->vram_total.v >> 20),
			(unsigned long long)(g->gtt_total.v >> 20));
		return;
	}
	if (g->vendor == GD_VENDOR_INTEL && g->pci.bus == 0) {
		set_why(g, 1, "Intel GPU on the root bus (%s)", g->pci.bdf);
		return;
	}
	set_why(g, 0, "no APU evidence (no combined KFD node, %s, %s)",
		kb_apu < 0 && g->vendor == GD_VENDOR_AMD
		    ? "knowledge base has no APU flag for this PCI id"
		    : "not an AMD APU id",
		gd_known(&g->vram_total) ? "VRAM is not a small carve-out"
					 : "VRAM size unknown");
}

/* On an APU the KFD memory bank is not VRAM: it is the system memory the
 * GPU may use (the kernel sizes it as GTT), so it is reported as shared
 * memory and the carve-out (mem_info_vram_total) stays apart. */
void gd_drm_apu_memory(struct gd_gpu *g)
{
	int eq_gtt;

	if (!g->integrated) {
		gd_num_unknown(&g->shared_mem, GD_UNKNOWN, "not an APU");
		return;
	}
	if (gd_startswith(g->vram_src, "kfd") && gd_known(&g->vram_total)) {
		eq_gtt = gd_known(&g->gtt_total) &&
			 g->gtt_total.v == g->vram_total.v;
		gd_num_set(&g->shared_mem, g->vram_total.v, g->vram_src);
		gd_fmt(g->shared_src, sizeof g->shared_src, "%.40s%s",
		       g->vram_src, eq_gtt ? " = mem_info_gtt_total" : "");
		gd_num_unknown(&g->vram_total, GD_UNKNOWN,
			       "no mem_info_vram_total; the KFD memory bank of "
			       "an APU is shared system memory, not VRAM");
		g->vram_src[0] = '\0';
	} else if (gd_known(&g->gtt_total)) {
		gd_num_set(&g->shared_mem, g->gtt_total.v,
			   "mem_info_gtt_total");
		gd_strlcpy(g->shared_src, "mem_info_gtt_total",
			   sizeof g->shared_src);
	} else {
		gd_num_unknown(&g->shared_mem, GD_UNKNOWN,
			       "no KFD memory bank and no mem_info_gtt_total");
	}
}
