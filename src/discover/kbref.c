/* The knowledge base as discover/ uses it: PCI device id -> target (gfx,
 * product name, APU or not), NVIDIA PCI id -> name / sm, chip name ->
 * architecture, and the hardware lists (no GPU, no KFD). Knowledge is
 * data (DESIGN.md): there is no built-in table here; when the kb has no
 * answer the fact stays unknown with that reason. */
#include <string.h>

#include "disc_int.h"
#include "kb/kb.h"

const char *gd_kbref_gfx_for_pci(gd_ctx *ctx, unsigned device_id)
{
	struct gd_kb_target t;

	if (!ctx->kb || gd_kb_target_for_pci_get(ctx->kb, device_id, &t) < 0)
		return NULL;
	return t.gfx;
}

const char *gd_kbref_gfx_for_name(gd_ctx *ctx, const char *name)
{
	return ctx->kb ? gd_kb_gfx_for_name(ctx->kb, name) : NULL;
}

const char *gd_kbref_name_for_pci(gd_ctx *ctx, unsigned device_id)
{
	return ctx->kb ? gd_kb_product_name(ctx->kb, device_id) : NULL;
}

int gd_kbref_apu_for_pci(gd_ctx *ctx, unsigned device_id)
{
	struct gd_kb_target t;

	if (!ctx->kb)
		return -1;
	gd_kb_target_for_pci_get(ctx->kb, device_id, &t);
	return t.apu;
}

/* key: "sm" or "name" (nvidia.gpus[], docs/kb.md). */
const char *gd_kbref_nvidia(gd_ctx *ctx, unsigned device_id, const char *key)
{
	struct gd_kb_nvidia_gpu g;

	if (!ctx->kb || gd_kb_nvidia_gpu_get(ctx->kb, device_id, &g) < 0)
		return NULL;
	return !strcmp(key, "sm") ? g.sm : !strcmp(key, "name") ? g.name : NULL;
}

int gd_kbref_apu_for_gfx(gd_ctx *ctx, const char *gfx)
{
	struct gd_kb_target t;

	if (!ctx->kb || !gfx || !gfx[0])
		return -1;
	gd_kb_target_get(ctx->kb, gfx, &t);
	return t.apu;
}

int gd_kbref_not_gpu(gd_ctx *ctx, unsigned vendor, unsigned device,
		     unsigned class_code, char *kind, size_t kcap, char *name,
		     size_t ncap)
{
	struct gd_kb_not_gpu ng;

	if (!ctx->kb ||
	    gd_kb_not_gpu_get(ctx->kb, vendor, device, class_code, &ng) < 0)
		return 0;
	gd_strlcpy(kind, ng.kind ? ng.kind : "", kcap);
	gd_strlcpy(name, ng.name ? ng.name : "", ncap);
	return 1;
}

static void copy_or_empty(char *out, const char *s, size_t cap)
{
	gd_strlcpy(out, s ? s : "", cap);
}

int gd_kbref_nvidia_chip(gd_ctx *ctx, const char *chip, struct gd_nv_chip *out)
{
	struct gd_kb_nvidia_chip c;

	memset(out, 0, sizeof *out);
	if (!ctx->kb || gd_kb_nvidia_chip_get(ctx->kb, chip, &c) < 0)
		return 0;
	copy_or_empty(out->prefix, c.prefix, sizeof out->prefix);
	copy_or_empty(out->sm, c.sm, sizeof out->sm);
	copy_or_empty(out->arch, c.arch, sizeof out->arch);
	copy_or_empty(out->last_driver, c.last_driver, sizeof out->last_driver);
	copy_or_empty(out->last_cuda, c.last_cuda, sizeof out->last_cuda);
	return 1;
}

const char *gd_kbref_nvidia_arch(gd_ctx *ctx, const char *sm)
{
	struct gd_kb_cc cc;

	if (!ctx->kb || !sm || !sm[0] || gd_kb_cc_get(ctx->kb, sm, &cc) < 0)
		return NULL;
	return cc.arch;
}

int gd_kbref_amd_no_kfd(gd_ctx *ctx, unsigned device_id, const char *pci_name,
			char *family, size_t fcap, char *gfx, size_t gcap)
{
	struct gd_kb_no_kfd nk;

	if (!ctx->kb ||
	    gd_kb_amd_no_kfd_get(ctx->kb, device_id, pci_name, &nk) < 0)
		return 0;
	copy_or_empty(family, nk.family, fcap);
	copy_or_empty(gfx, nk.gfx, gcap);
	return nk.by_chip ? 2 : 1;
}
