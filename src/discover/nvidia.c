/* NVIDIA from the kernel module's procfs, no library:
 *  /proc/driver/nvidia/version, first line e.g.
 *    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar ..."
 *    (open modules: "NVIDIA UNIX Open Kernel Module for x86_64  570.86.15 ...")
 *  /proc/driver/nvidia/gpus/<bdf>/information, "Key:\t value" lines:
 *    Model, IRQ, GPU UUID, Video BIOS, Bus Type, DMA Size, ..., Bus Location,
 *    Device Minor (the N of /dev/nvidiaN)
 * (the nvidia kernel module's procfs; docs/discover.md, "NVIDIA"). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/nvrm.h"
#include "disc_int.h"

int gd_nv_version_parse(const char *buf, char *ver, size_t cap)
{
	return gd_nvrm_version_parse(buf, ver, cap);
}

int gd_nv_info_get(const char *buf, const char *key, char *out, size_t cap)
{
	size_t k = strlen(key);
	const char *s = buf;

	if (cap)
		out[0] = '\0';
	while (s && *s) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len > k && !strncmp(s, key, k) && s[k] == ':') {
			const char *v = s + k + 1;
			size_t n;

			while (v < s + len && (*v == ' ' || *v == '\t'))
				v++;
			n = (size_t)(s + len - v);
			while (n && (v[n - 1] == ' ' || v[n - 1] == '\r'))
				n--;
			if (n >= cap)
				n = cap ? cap - 1 : 0;
			memcpy(out, v, n);
			out[n] = '\0';
			gd_sanitize(out);
			return 0;
		}
		s = e ? e + 1 : NULL;
	}
	return -1;
}

void gd_nvidia_kernel(gd_ctx *ctx, struct gd_kernel_info *k)
{
	char buf[1024], ver[64], *nl;
	int rc = gd_fs_read(&ctx->fs, "/proc/driver/nvidia/version", buf,
			    sizeof buf, NULL);

	if (rc < 0 && rc != -EFBIG) {
		gd_text_unknown(&k->nvidia_driver, GD_UNKNOWN,
				"no /proc/driver/nvidia/version (%s)",
				gd_fs_strerror(rc));
		gd_text_unknown(&k->nvidia_version_line, GD_UNKNOWN,
				"no NVIDIA kernel module");
		k->nvidia_loaded = gd_fs_exists(&ctx->fs, "/sys/module/nvidia");
		return;
	}
	k->nvidia_loaded = 1;
	if (gd_nv_version_parse(buf, ver, sizeof ver) == 0)
		gd_text_set(&k->nvidia_driver, ver,
			    "/proc/driver/nvidia/version");
	else
		gd_text_unknown(&k->nvidia_driver, GD_FAILED,
				"/proc/driver/nvidia/version: no version "
				"after \"Kernel Module\"");
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	gd_text_set(&k->nvidia_version_line, gd_trim(buf),
		    "/proc/driver/nvidia/version");
}

void gd_nvidia_fill(gd_ctx *ctx, struct gd_gpu *g)
{
	char path[192], buf[4096], v[160];
	const char *sm;
	uint32_t minor;
	int rc;

	/* the directory is named by the lower-case bus id, as sysfs is */
	gd_fmt(path, sizeof path, "/proc/driver/nvidia/gpus/%s/information",
	       g->pci.bdf);
	rc = gd_fs_read(&ctx->fs, path, buf, sizeof buf, NULL);
	g->access.nv_minor = -1;
	if (rc < 0 && rc != -EFBIG) {
		gd_text_unknown(&g->nv.model, GD_UNKNOWN, "no %s (%s)", path,
				gd_fs_strerror(rc));
		gd_text_unknown(&g->nv.uuid, GD_UNKNOWN, "no %s", path);
		gd_text_unknown(&g->nv.vbios, GD_UNKNOWN, "no %s", path);
	} else {
		if (gd_nv_info_get(buf, "Model", v, sizeof v) == 0 && v[0])
			gd_text_set(&g->nv.model, v, "nvidia information");
		else
			gd_text_unknown(&g->nv.model, GD_UNKNOWN,
					"no Model line");
		if (gd_nv_info_get(buf, "GPU UUID", v, sizeof v) == 0 && v[0])
			gd_text_set(&g->nv.uuid, v, "nvidia information");
		else
			gd_text_unknown(&g->nv.uuid, GD_UNKNOWN,
					"no GPU UUID line");
		/* "Device Minor: \t 0": the N of /dev/nvidiaN */
		if (gd_nv_info_get(buf, "Device Minor", v, sizeof v) == 0 &&
		    gd_parse_u32(v, 10, &minor) == 0 && minor < 256)
			g->access.nv_minor = (int)minor;
		if (gd_nv_info_get(buf, "Video BIOS", v, sizeof v) == 0 && v[0])
			gd_text_set(&g->nv.vbios, v, "nvidia information");
		else
			gd_text_unknown(&g->nv.vbios, GD_UNKNOWN,
					"no Video BIOS line");
	}
	/* a tree without the driver link and uevent still tells that nvidia
	 * is not bound when its module is not loaded, if it holds the module
	 * list at all (a tree made from an lspci paste has no /sys/module) */
	if (g->pci.driver_unseen && gd_fs_exists(&ctx->fs, "/sys/module") &&
	    !gd_fs_exists(&ctx->fs, "/sys/module/nvidia"))
		g->pci.driver_unseen = 0;
	if (gd_known(&g->nv.model) && !gd_known(&g->name))
		gd_text_set(&g->name, g->nv.model.v, "/proc/driver/nvidia");
	sm = gd_kbref_nvidia(ctx, g->pci.device_id, "sm");
	if (sm) {
		gd_strlcpy(g->nv.sm, sm, sizeof g->nv.sm);
		gd_fmt(g->nv.sm_src, sizeof g->nv.sm_src,
		       "knowledge base, PCI id 0x%04x", g->pci.device_id);
	}
	if (!gd_known(&g->name)) {
		const char *n = gd_kbref_nvidia(ctx, g->pci.device_id, "name");

		if (n)
			gd_text_set(&g->name, n, "knowledge base");
	}
	gd_access_nvidia(ctx, g);
}

/* The chip is the first word of the pci.ids name: "GV100GL [Tesla V100
 * PCIe 16GB]" -> "GV100GL". */
static void chip_of(const char *name, char *out, size_t cap)
{
	size_t n = strcspn(name, " [");

	if (n >= cap)
		n = cap - 1;
	memcpy(out, name, n);
	out[n] = '\0';
}

/* The chip, the sm and the architecture: the kb's chip row for the pci.ids
 * chip name (the machine's pci.ids, else the embedded one), the embedded
 * table's own sm and architecture for a chip the kb has no row for. */
void gd_nvidia_arch(gd_ctx *ctx, struct gd_gpu *g)
{
	struct gd_nv_chip c;
	char chip[32];
	const struct gd_id_row *r = g->idrow;
	int have;

	chip[0] = '\0';
	if (gd_known(&g->pci_name))
		chip_of(g->pci_name.v, chip, sizeof chip);
	have = chip[0] && gd_kbref_nvidia_chip(ctx, chip, &c);
	if (!have && r && r->chip[0]) {
		gd_strlcpy(chip, r->chip, sizeof chip);
		have = gd_kbref_nvidia_chip(ctx, chip, &c);
	}
	if (!have) {
		/* no kb chip row: the kb's sm, else the embedded table's */
		const char *arch = gd_kbref_nvidia_arch(ctx, g->nv.sm);

		if (!g->nv.sm[0] && r && r->target[0]) {
			gd_strlcpy(g->nv.sm, r->target, sizeof g->nv.sm);
			gd_fmt(g->nv.sm_src, sizeof g->nv.sm_src,
			       "from the embedded ids, chip %s", r->chip);
		}
		if (arch)
			gd_strlcpy(g->nv.arch, arch, sizeof g->nv.arch);
		else if (r && r->arch[0])
			gd_strlcpy(g->nv.arch, r->arch, sizeof g->nv.arch);
		return;
	}
	gd_strlcpy(g->nv.arch, c.arch, sizeof g->nv.arch);
	gd_strlcpy(g->nv.last_driver, c.last_driver, sizeof g->nv.last_driver);
	gd_strlcpy(g->nv.last_cuda, c.last_cuda, sizeof g->nv.last_cuda);
	if (g->nv.sm[0] || !c.sm[0])
		return;
	gd_strlcpy(g->nv.sm, c.sm, sizeof g->nv.sm);
	gd_fmt(g->nv.sm_src, sizeof g->nv.sm_src, "from pci.ids chip name %s%s",
	       chip, gd_known(&g->pci_name) ? "" : " (embedded ids)");
}
