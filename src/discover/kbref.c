/* The knowledge base as discover/ uses it: PCI device id -> target (gfx,
 * product name, APU or not) and NVIDIA PCI id -> name / sm. Knowledge is
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
