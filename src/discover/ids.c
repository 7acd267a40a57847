/* Device names from the system's own id files under the root:
 *  - amdgpu.ids (libdrm's; sources: docs/ids.md, "The machine's own id
 *    files"): "DEVICE,\tREVISION,\tNAME", uppercase hex,
 *    '#' comments, a version line ("1.0.0") first; matched on device AND
 *    revision, exactly as libdrm does.
 *  - pci.ids (pciutils / hwdata, docs/ids.md): "vvvv  Vendor" at
 *    column 0, "\tdddd  Device" under it, "\t\t..." subsystems, and a class
 *    section starting with "C " at the end.
 * The knowledge base is the fallback when neither knows the device. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "disc_int.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Hex number at *s up to a non-hex byte; advances *s. -1 when none. */
static long take_hex(const char **s, const char *e, int maxdigits)
{
	long v = 0;
	int n = 0;

	while (*s < e && hexval(**s) >= 0) {
		if (++n > maxdigits)
			return -1;
		v = v * 16 + hexval(**s);
		(*s)++;
	}
	return n ? v : -1;
}

static void skip_ws(const char **s, const char *e)
{
	while (*s < e && (**s == ' ' || **s == '\t'))
		(*s)++;
}

static void copy_name(const char *s, const char *e, char *out, size_t cap)
{
	size_t n;

	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	n = (size_t)(e - s);
	if (!cap)
		return;
	if (n >= cap) { /* a name too long to keep: kept cut, and marked */
		memcpy(out, s, cap - 1);
		out[cap - 1] = '\0';
		gd_mark_cut(out, cap);
	} else {
		memcpy(out, s, n);
		out[n] = '\0';
	}
	gd_sanitize(out);
}

int gd_amdgpu_ids_lookup(const char *buf, size_t len, unsigned device,
			 unsigned revision, char *name, size_t cap)
{
	const char *s = buf, *end = buf + len;

	if (cap)
		name[0] = '\0';
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		const char *p = s;
		long dev, rev;

		if (!e)
			e = end;
		skip_ws(&p, e);
		if (p < e && *p != '#') {
			dev = take_hex(&p, e, 4);
			if (dev >= 0 && p < e && *p == ',') {
				p++;
				skip_ws(&p, e);
				rev = take_hex(&p, e, 2);
				if (rev >= 0 && p < e && *p == ',' &&
				    (unsigned)dev == device &&
				    (unsigned)rev == revision) {
					p++;
					skip_ws(&p, e);
					if (memchr(p, '\0', (size_t)(e - p)))
						return 0;
					copy_name(p, e, name, cap);
					return name[0] != '\0';
				}
			}
		}
		s = e + 1;
	}
	return 0;
}

int gd_pci_ids_lookup(const char *buf, size_t len, unsigned vendor,
		      unsigned device, char *vname, size_t vcap, char *dname,
		      size_t dcap)
{
	const char *s = buf, *end = buf + len;
	int in_vendor = 0;

	if (vname && vcap)
		vname[0] = '\0';
	if (dname && dcap)
		dname[0] = '\0';
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		const char *p = s;
		long id;

		if (!e)
			e = end;
		if (p < e && *p == '#') {
			/* comment */
		} else if (p < e && *p != '\t') {
			if (e - p >= 2 && p[0] == 'C' && p[1] == ' ')
				break; /* class section: no more vendors */
			id = take_hex(&p, e, 4);
			in_vendor = id >= 0 && (unsigned)id == vendor;
			if (in_vendor && vname) {
				skip_ws(&p, e);
				copy_name(p, e, vname, vcap);
			}
		} else if (in_vendor && e - p >= 2 && p[0] == '\t' &&
			   p[1] != '\t') {
			p++;
			id = take_hex(&p, e, 4);
			if (id >= 0 && (unsigned)id == device) {
				skip_ws(&p, e);
				if (dname)
					copy_name(p, e, dname, dcap);
				return 1;
			}
		}
		s = e + 1;
	}
	return 0;
}

static const char *const amdgpu_ids_paths[] = {
    "/usr/share/libdrm/amdgpu.ids",
    "/opt/amdgpu/share/libdrm/amdgpu.ids",
};
static const char *const pci_ids_paths[] = {
    "/usr/share/misc/pci.ids",
    "/usr/share/hwdata/pci.ids",
    "/usr/share/pci.ids",
};

static void load_one(gd_ctx *ctx, const char *const *paths, size_t n,
		     size_t max, char **buf, size_t *len, char *used,
		     size_t ucap)
{
	for (size_t i = 0; i < n; i++) {
		int rc = gd_fs_read_alloc(&ctx->fs, paths[i], max, buf, len);

		if (rc == 0 || rc == -EFBIG) {
			gd_strlcpy(used, paths[i], ucap);
			if (rc == -EFBIG)
				gd_diag_add(ctx, GD_DIAG_WARN, paths[i],
					    "larger than %zu bytes; names past "
					    "that point are not looked up",
					    max);
			return;
		}
	}
}

void gd_ids_load(gd_ctx *ctx, struct gd_ids *ids)
{
	if (ids->loaded)
		return;
	ids->loaded = 1;
	load_one(ctx, amdgpu_ids_paths, 2, 1 << 20, &ids->amdgpu,
		 &ids->amdgpu_len, ids->amdgpu_path, sizeof ids->amdgpu_path);
	load_one(ctx, pci_ids_paths, 3, 8 << 20, &ids->pci, &ids->pci_len,
		 ids->pci_path, sizeof ids->pci_path);
}

void gd_ids_free(struct gd_ids *ids)
{
	free(ids->amdgpu);
	free(ids->pci);
	memset(ids, 0, sizeof *ids);
}

/* Best name: amdgpu.ids (product, by revision) for AMD, the NVIDIA
 * driver's model line (set before), pci.ids (the chip, e.g. "Navi 10
 * [Radeon RX 5600 OEM/5600 XT / 5700/5700 XT]"), then the knowledge base
 * as the fallback. */
void gd_ids_name(gd_ctx *ctx, struct gd_ids *ids, struct gd_gpu *g)
{
	char name[160], vname[96];
	const char *kbname;

	gd_ids_load(ctx, ids);
	if (ids->pci &&
	    gd_pci_ids_lookup(ids->pci, ids->pci_len, g->pci.vendor_id,
			      g->pci.device_id, vname, sizeof vname, name,
			      sizeof name))
		gd_text_set(&g->pci_name, name, "pci.ids");
	else
		gd_text_unknown(&g->pci_name, GD_UNKNOWN, "%s",
				ids->pci ? "not in pci.ids"
					 : "no pci.ids file");
	if (gd_known(&g->name))
		return;
	if (g->vendor == GD_VENDOR_AMD && ids->amdgpu &&
	    gd_known(&g->pci.revision) &&
	    gd_amdgpu_ids_lookup(ids->amdgpu, ids->amdgpu_len, g->pci.device_id,
				 (unsigned)g->pci.revision.v, name,
				 sizeof name)) {
		gd_text_set(&g->name, name, "amdgpu.ids");
		return;
	}
	if (g->vendor == GD_VENDOR_AMD && gd_known(&g->pci.revision) &&
	    (kbname = gd_ids_amd_name(g->pci.device_id,
				      (unsigned)g->pci.revision.v))) {
		gd_text_set(&g->name, kbname, "amdgpu.ids (embedded)");
		return;
	}
	if (gd_known(&g->pci_name)) {
		gd_text_set(&g->name, g->pci_name.v, "pci.ids");
		return;
	}
	if (g->idrow && g->idrow->name[0]) {
		gd_text_set(&g->name, g->idrow->name, "embedded ids");
		return;
	}
	kbname = gd_kbref_name_for_pci(ctx, g->pci.device_id);
	if (kbname) {
		gd_text_set(&g->name, kbname, "knowledge base");
		return;
	}
	gd_text_unknown(&g->name, GD_UNKNOWN,
			"device %04x:%04x rev %s is in no ids file (%s%s%s), "
			"nor the embedded ids, nor the knowledge base",
			g->pci.vendor_id, g->pci.device_id,
			gd_known(&g->pci.revision) ? "known" : "unknown",
			ids->amdgpu_path[0] ? ids->amdgpu_path
					    : "no amdgpu.ids",
			", ", ids->pci_path[0] ? ids->pci_path : "no pci.ids");
}
