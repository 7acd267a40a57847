/* The knowledge base as discover/ uses it: PCI device id -> target (gfx,
 * product name, APU or not) and NVIDIA PCI id -> name / sm. Knowledge is
 * data (DESIGN.md): there is no built-in table here; when the kb has no
 * answer the fact stays unknown with that reason.
 * The object shapes follow docs/kb.md; members are read defensively (a
 * missing one is no answer). */
#include <stdlib.h>
#include <string.h>

#include "disc_int.h"
#include "kb/kb.h"


static const json_t *target_for(gd_ctx *ctx, unsigned device_id)
{
	return ctx->kb ? gd_kb_target_for_pci(ctx->kb, device_id) : NULL;
}

static const char *str_member(const json_t *o, const char *key)
{
	const json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;

	return json_is_string(v) ? json_string_value(v) : NULL;
}

const char *gd_kbref_gfx_for_pci(gd_ctx *ctx, unsigned device_id)
{
	const json_t *t = target_for(ctx, device_id);
	static const char *const keys[] = {"gfx", "target", "name", "id"};

	for (size_t i = 0; t && i < sizeof keys / sizeof *keys; i++) {
		const char *s = str_member(t, keys[i]);

		if (s && !strncmp(s, "gfx", 3))
			return s;
	}
	return NULL;
}

const char *gd_kbref_name_for_pci(gd_ctx *ctx, unsigned device_id)
{
	const json_t *t = target_for(ctx, device_id);
	const json_t *prods, *p;
	size_t i;

	if (!t)
		return NULL;
	prods = json_object_get(t, "products");
	/* the product whose PCI id matches, else the first one */
	json_array_foreach(prods, i, p) {
		const json_t *ids = json_object_get(p, "pci_ids");
		const json_t *id;
		size_t j;

		json_array_foreach(ids, j, id) {
			const char *s = json_string_value(id);
			unsigned long v = s ? strtoul(s, NULL, 16) : 0;

			if ((json_is_integer(id) &&
			     (unsigned)json_integer_value(id) == device_id) ||
			    (s && v == device_id))
				return str_member(p, "name");
		}
	}
	p = json_array_get(prods, 0);
	return p ? str_member(p, "name") : str_member(t, "product");
}

int gd_kbref_apu_for_pci(gd_ctx *ctx, unsigned device_id)
{
	const json_t *t = target_for(ctx, device_id);
	const json_t *v = t ? json_object_get(t, "apu") : NULL;

	if (!json_is_boolean(v))
		return -1;
	return json_is_true(v);
}

const char *gd_kbref_nvidia(gd_ctx *ctx, unsigned device_id, const char *key)
{
	if (!ctx->kb)
		return NULL;
	return str_member(gd_kb_nvidia_for_pci(ctx->kb, device_id), key);
}

int gd_kbref_apu_for_gfx(gd_ctx *ctx, const char *gfx)
{
	const json_t *t, *v;

	if (!ctx->kb || !gfx || !gfx[0])
		return -1;
	t = gd_kb_target(ctx->kb, gfx);
	v = t ? json_object_get(t, "apu") : NULL;
	if (!json_is_boolean(v))
		return -1;
	return json_is_true(v);
}

static unsigned long hex_member(const json_t *v)
{
	const char *s = json_string_value(v);

	return s ? strtoul(s, NULL, 16) : (unsigned long)-1;
}

int gd_kbref_not_gpu(gd_ctx *ctx, unsigned vendor, unsigned device, char *kind,
		     size_t kcap, char *name, size_t ncap)
{
	const json_t *list = ctx->kb ? gd_kb_get(ctx->kb, "pci_not_gpu") : NULL;
	const json_t *e, *id;
	size_t i, j;

	json_array_foreach(list, i, e) {
		if (hex_member(json_object_get(e, "vendor_id")) != vendor)
			continue;
		json_array_foreach(json_object_get(e, "device_ids"), j, id) {
			if (hex_member(id) != device)
				continue;
			gd_strlcpy(kind, str_member(e, "kind") ? str_member(e, "kind")
							       : "", kcap);
			gd_strlcpy(name, str_member(e, "name") ? str_member(e, "name")
							       : "", ncap);
			return 1;
		}
	}
	return 0;
}

static void copy_member(const json_t *e, const char *key, char *out, size_t cap)
{
	gd_strlcpy(out, str_member(e, key) ? str_member(e, key) : "", cap);
}

int gd_kbref_nvidia_chip(gd_ctx *ctx, const char *chip, struct gd_nv_chip *out)
{
	const json_t *list = ctx->kb ? gd_kb_get(ctx->kb, "nvidia_chips") : NULL;
	const json_t *e, *best = NULL, *pre;
	size_t i, j, best_len = 0;

	memset(out, 0, sizeof *out);
	json_array_foreach(list, i, e) {
		json_array_foreach(json_object_get(e, "chips"), j, pre) {
			const char *s = json_string_value(pre);
			size_t n = s ? strlen(s) : 0;

			if (n > best_len && !strncmp(chip, s, n)) {
				best = e;
				best_len = n;
				gd_strlcpy(out->prefix, s, sizeof out->prefix);
			}
		}
	}
	if (!best)
		return 0;
	copy_member(best, "sm", out->sm, sizeof out->sm);
	copy_member(best, "arch", out->arch, sizeof out->arch);
	copy_member(best, "last_driver_branch", out->last_driver,
		    sizeof out->last_driver);
	copy_member(best, "last_cuda", out->last_cuda, sizeof out->last_cuda);
	return 1;
}

const char *gd_kbref_nvidia_cc(gd_ctx *ctx, const char *sm, const char *key)
{
	if (!ctx->kb || !sm || !sm[0])
		return NULL;
	return str_member(gd_kb_nvidia_cc(ctx->kb, sm), key);
}

/* A chip prefix that pci_name starts with, followed by a space, '/' or
 * the end ("Cape Verde PRO", not "Cape Verdes"). */
static int chip_match(const json_t *chips, const char *pci_name)
{
	const json_t *c;
	size_t i;

	json_array_foreach(chips, i, c) {
		const char *s = json_string_value(c);
		size_t n = s ? strlen(s) : 0;

		if (n && !strncmp(pci_name, s, n) &&
		    (pci_name[n] == ' ' || pci_name[n] == '/' || !pci_name[n]))
			return 1;
	}
	return 0;
}

int gd_kbref_amd_no_kfd(gd_ctx *ctx, unsigned device_id, const char *pci_name,
			char *family, size_t fcap, char *gfx, size_t gcap)
{
	const json_t *list = ctx->kb ? gd_kb_get(ctx->kb, "amd_no_kfd") : NULL;
	const json_t *e, *id, *hit = NULL;
	size_t i, j;
	int how = 1;

	json_array_foreach(list, i, e) {
		json_array_foreach(json_object_get(e, "pci_ids"), j, id)
			if (hex_member(id) == device_id)
				hit = e;
	}
	/* the PCI id wins; the chip name covers ids the list lacks */
	json_array_foreach(list, i, e) {
		if (!hit && pci_name && pci_name[0] &&
		    chip_match(json_object_get(e, "chips"), pci_name)) {
			hit = e;
			how = 2;
		}
	}
	if (!hit)
		return 0;
	copy_member(hit, "family", family, fcap);
	copy_member(hit, "gfx", gfx, gcap);
	return how;
}
