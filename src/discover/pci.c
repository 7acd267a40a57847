/* PCI devices from sysfs: /sys/bus/pci/devices/<bdf>/ (a symlink into
 * /sys/devices/pci.../ on a real machine, a directory in some captures).
 * Attributes (Documentation/ABI/testing/sysfs-bus-pci): class, vendor,
 * device, subsystem_vendor, subsystem_device (hex "0x...\n"), revision,
 * current_link_speed ("16.0 GT/s PCIe"), current_link_width, max_link_*,
 * numa_node (decimal, -1 when none), boot_vga (0/1, VGA class only),
 * driver (symlink to the bound driver). Keeps classes 0x03 (display) and
 * 0x12 (processing accelerator: MI300-class Instinct). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "disc_int.h"

int gd_pci_bdf_parse(const char *s, uint32_t *dom, uint32_t *bus,
		     uint32_t *dev, uint32_t *fn)
{
	unsigned d, b, v, f;
	int used = 0;

	if (!s || sscanf(s, "%4x:%2x:%2x.%1x%n", &d, &b, &v, &f, &used) != 4 ||
	    s[used] != '\0' || used != 12 || v > 0x1f || f > 7)
		return -1;
	*dom = d;
	*bus = b;
	*dev = v;
	*fn = f;
	return 0;
}

static int read_attr(gd_ctx *ctx, const char *dir, const char *name,
		     char *buf, size_t cap)
{
	char path[256];

	gd_fmt(path, sizeof path, "%s/%s", dir, name);
	return gd_fs_read_line(&ctx->fs, path, buf, cap);
}

static int read_hex(gd_ctx *ctx, const char *dir, const char *name,
		    uint32_t *v)
{
	char buf[32], path[256];
	int rc = read_attr(ctx, dir, name, buf, sizeof buf);

	if (rc >= 0 && gd_parse_u32(buf, 16, v) == 0)
		return 0;
	/* a present but unreadable id is worth saying: the GPU is then
	 * named and judged by an id of 0 */
	if (rc != -ENOENT) {
		gd_fmt(path, sizeof path, "%s/%s", dir, name);
		gd_diag_add(ctx, GD_DIAG_WARN, path, "%s",
			    rc < 0 ? gd_fs_strerror(rc) : "not a hex number");
	}
	return -1;
}

static void num_attr(gd_ctx *ctx, const char *dir, const char *name, int base,
		     gd_num *f)
{
	char buf[64];
	uint64_t v;
	int rc = read_attr(ctx, dir, name, buf, sizeof buf);

	if (rc < 0)
		gd_num_unknown(f, rc == -ENOENT ? GD_UNKNOWN : GD_FAILED,
			       "%s: %s", name, gd_fs_strerror(rc));
	else if (!strcmp(buf, "-1"))
		gd_num_unknown(f, GD_UNKNOWN, "%s is -1 (none)", name);
	else if (gd_parse_u64(buf, base, &v) < 0)
		gd_num_unknown(f, GD_FAILED, "%s: not a number: %.40s", name, buf);
	else
		gd_num_set(f, v, name);
}

static void text_attr(gd_ctx *ctx, const char *dir, const char *name,
		      gd_text *f)
{
	char buf[128];
	int rc = read_attr(ctx, dir, name, buf, sizeof buf);

	if (rc < 0)
		gd_text_unknown(f, rc == -ENOENT ? GD_UNKNOWN : GD_FAILED,
				"%s: %s", name, gd_fs_strerror(rc));
	else
		gd_text_set(f, buf, name);
}

static void read_driver(gd_ctx *ctx, const char *dir, gd_text *f)
{
	char path[256], target[512];
	const char *base;
	int rc;

	gd_fmt(path, sizeof path, "%s/driver", dir);
	rc = gd_fs_readlink(&ctx->fs, path, target, sizeof target);
	if (rc < 0) {
		if (rc == -ENOENT || rc == -EINVAL)
			gd_text_unknown(f, GD_UNKNOWN, "no driver bound");
		else
			gd_text_unknown(f, GD_FAILED, "driver link: %s",
					gd_fs_strerror(rc));
		return;
	}
	base = strrchr(target, '/');
	gd_text_set(f, base ? base + 1 : target, "driver link");
}

/* Fill one device; returns 0 when it is a GPU-class device. */
static int read_device(gd_ctx *ctx, const char *name, struct gd_pci *p)
{
	char dir[192];
	struct stat st;
	uint32_t cls;

	memset(p, 0, sizeof *p);
	if (gd_pci_bdf_parse(name, &p->domain, &p->bus, &p->dev, &p->fn) < 0)
		return -1;
	gd_fmt(dir, sizeof dir, GD_PCI_DEVICES "/%s", name);
	if (read_hex(ctx, dir, "class", &cls) < 0)
		return -1;
	if ((cls >> 16) != 0x03 && (cls >> 16) != 0x12)
		return -1;
	gd_strlcpy(p->bdf, name, sizeof p->bdf);
	p->class_code = cls;
	if (gd_fs_lstat(&ctx->fs, dir, &st) == 0)
		p->is_link = S_ISLNK(st.st_mode);
	read_hex(ctx, dir, "vendor", &p->vendor_id);
	read_hex(ctx, dir, "device", &p->device_id);
	read_hex(ctx, dir, "subsystem_vendor", &p->subsys_vendor_id);
	read_hex(ctx, dir, "subsystem_device", &p->subsys_device_id);
	num_attr(ctx, dir, "revision", 16, &p->revision);
	read_driver(ctx, dir, &p->driver);
	text_attr(ctx, dir, "current_link_speed", &p->cur_link_speed);
	text_attr(ctx, dir, "max_link_speed", &p->max_link_speed);
	num_attr(ctx, dir, "current_link_width", 10, &p->cur_link_width);
	num_attr(ctx, dir, "max_link_width", 10, &p->max_link_width);
	num_attr(ctx, dir, "numa_node", 10, &p->numa_node);
	num_attr(ctx, dir, "boot_vga", 10, &p->boot_vga);
	return 0;
}

int gd_pci_scan(gd_ctx *ctx, struct gd_pci **devs, size_t *n, char *why,
		size_t whycap)
{
	GD_VEC(struct gd_pci) out = {0};
	gd_strvec names;
	int rc;

	*devs = NULL;
	*n = 0;
	why[0] = '\0';
	rc = gd_fs_list(&ctx->fs, GD_PCI_DEVICES, &names);
	if (rc < 0) {
		gd_fmt(why, whycap, "%s: %s", GD_PCI_DEVICES, gd_fs_strerror(rc));
		return rc == -ENOMEM ? rc : 0;
	}
	for (size_t i = 0; i < names.n; i++) {
		struct gd_pci tmp, *slot;

		if (read_device(ctx, names.v[i], &tmp) < 0)
			continue;
		slot = gd_vec_push(&out);
		if (!slot) {
			gd_strvec_free(&names);
			free(out.v);
			return -ENOMEM;
		}
		*slot = tmp;
	}
	gd_strvec_free(&names);
	*devs = out.v;
	*n = out.n;
	return 0;
}
