/* PCI devices from sysfs: /sys/bus/pci/devices/<bdf>/ (a symlink into
 * /sys/devices/pci.../ on a real machine, a directory in some captures).
 * Attributes (docs/discover.md, "PCI"): class, vendor,
 * device, subsystem_vendor, subsystem_device (hex "0x...\n"), revision,
 * current_link_speed ("16.0 GT/s PCIe"), current_link_width, max_link_*,
 * numa_node (decimal, -1 when none), boot_vga (0/1, VGA class only),
 * driver (symlink to the bound driver). Keeps classes 0x03 (display) and
 * 0x12 (processing accelerator: MI300-class Instinct), less the display
 * devices the knowledge base knows are no GPU (a BMC's VGA, an emulated
 * adapter). Devices come out in PCI order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "disc_int.h"

int gd_pci_bdf_parse(const char *s, uint32_t *dom, uint32_t *bus, uint32_t *dev,
		     uint32_t *fn)
{
	unsigned d, b, v, f;
	int used = 0;

	/* Linux prints the domain with "%04x": 4 digits, 5 for the domains
	 * Intel VMD creates from 0x10000 up (docs/discover.md, "PCI") */
	if (!s || sscanf(s, "%5x:%2x:%2x.%1x%n", &d, &b, &v, &f, &used) != 4 ||
	    s[used] != '\0' || (used != 12 && used != 13) || v > 0x1f ||
	    f > 7 || (used == 13 && d < 0x10000))
		return -1;
	*dom = d;
	*bus = b;
	*dev = v;
	*fn = f;
	return 0;
}

static int read_attr(gd_ctx *ctx, const char *dir, const char *name, char *buf,
		     size_t cap)
{
	char path[256];

	gd_fmt(path, sizeof path, "%s/%s", dir, name);
	return gd_fs_read_line(&ctx->fs, path, buf, cap);
}

static int read_hex(gd_ctx *ctx, const char *dir, const char *name, uint32_t *v)
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
		gd_num_unknown(f, GD_FAILED, "%s: not a number: %.40s", name,
			       buf);
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

/* uevent, then config: the ids when the attribute files are missing. */
static int fallback_ids(gd_ctx *ctx, const char *dir, struct gd_pci_uevent *u,
			char *src, size_t scap)
{
	char path[256], buf[1024];
	size_t len = 0;
	int rc;

	gd_fmt(path, sizeof path, "%s/uevent", dir);
	rc = gd_fs_read(&ctx->fs, path, buf, sizeof buf, &len);
	if ((rc == 0 || rc == -EFBIG) &&
	    gd_pci_uevent_parse(buf, len, u) == 0 && u->has_id &&
	    u->has_class) {
		gd_strlcpy(src, "uevent", scap);
		return 0;
	}
	gd_fmt(path, sizeof path, "%s/config", dir);
	rc = gd_fs_read(&ctx->fs, path, buf, 64, &len);
	if ((rc == 0 || rc == -EFBIG) &&
	    gd_pci_config_parse((const unsigned char *)buf, len, u) == 0 &&
	    u->has_class) {
		gd_strlcpy(src, "config", scap);
		return 0;
	}
	return -1;
}

/* The ids and class; 0 when known. A missing `device` (or vendor, class)
 * file falls back to uevent / config with a warning. */
static int read_ids(gd_ctx *ctx, const char *dir, struct gd_pci *p)
{
	char path[256], src[16];
	struct gd_pci_uevent u;
	int have;

	gd_fmt(path, sizeof path, "%s/device", dir);
	have = read_hex(ctx, dir, "class", &p->class_code) == 0;
	if (have && gd_fs_exists(&ctx->fs, path)) {
		read_hex(ctx, dir, "vendor", &p->vendor_id);
		read_hex(ctx, dir, "device", &p->device_id);
		read_hex(ctx, dir, "subsystem_vendor", &p->subsys_vendor_id);
		read_hex(ctx, dir, "subsystem_device", &p->subsys_device_id);
		return 0;
	}
	/* captures keep only `class` of the devices that are no GPU */
	if (have && (p->class_code >> 16) != 0x03 &&
	    (p->class_code >> 16) != 0x12)
		return 0;
	if (fallback_ids(ctx, dir, &u, src, sizeof src) < 0) {
		if (have)
			gd_diag_add(ctx, GD_DIAG_WARN, path,
				    "missing, and "
				    "neither uevent nor config gives the ids");
		return have ? 0 : -1;
	}
	if (!have)
		p->class_code = u.class_code;
	if ((p->class_code >> 16) != 0x03 && (p->class_code >> 16) != 0x12)
		return 0; /* not a display device: nothing worth a warning */
	p->vendor_id = u.vendor;
	p->device_id = u.device;
	if (u.has_subsys) {
		p->subsys_vendor_id = u.sub_vendor;
		p->subsys_device_id = u.sub_device;
	}
	gd_diag_add(ctx, GD_DIAG_WARN, path,
		    "missing: ids %04x:%04x read from "
		    "%s/%s instead",
		    u.vendor, u.device, dir, src);
	return 0;
}

/* The bound driver from uevent DRIVER= when the driver link is missing. */
static void driver_from_uevent(gd_ctx *ctx, const char *dir, gd_text *f,
			       int *unseen)
{
	char path[256], buf[1024];
	struct gd_pci_uevent u;
	size_t len = 0;
	int rc;

	gd_fmt(path, sizeof path, "%s/uevent", dir);
	rc = gd_fs_read(&ctx->fs, path, buf, sizeof buf, &len);
	if (rc == -ENOENT && f->st == GD_UNKNOWN) {
		/* sysfs always has uevent: a tree without it (and without
		 * the link) does not say whether a driver is bound */
		*unseen = 1;
		gd_text_unknown(f, GD_UNKNOWN,
				"not in this tree (no driver link, no uevent)");
		return;
	}
	if ((rc == 0 || rc == -EFBIG) &&
	    gd_pci_uevent_parse(buf, len, &u) == 0 && u.driver[0]) {
		gd_text_set(f, u.driver, "uevent DRIVER=");
		gd_diag_add(ctx, GD_DIAG_WARN, dir,
			    "no driver link: the bound "
			    "driver (%s) read from uevent",
			    u.driver);
	}
}

/* SR-IOV (docs/discover.md, "PCI"): a virtual function
 * has a physfn link to its physical function ("../0000:00:02.0"); a PF
 * has sriov_numvfs (VFs enabled, decimal). */
static void sriov_attrs(gd_ctx *ctx, const char *dir, struct gd_pci *p)
{
	char path[256], target[256];
	const char *base;
	uint32_t d, b, v, f;

	num_attr(ctx, dir, "sriov_numvfs", 10, &p->sriov_numvfs);
	gd_fmt(path, sizeof path, "%s/physfn", dir);
	if (gd_fs_readlink(&ctx->fs, path, target, sizeof target) < 0)
		return;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (gd_pci_bdf_parse(base, &d, &b, &v, &f) == 0)
		gd_strlcpy(p->physfn, base, sizeof p->physfn);
	else
		gd_diag_add(ctx, GD_DIAG_WARN, path,
			    "not a link to a PCI function: %.60s", target);
}

/* Fill one device: 1 a GPU, 2 a display device that is no GPU (ng
 * filled), 0 anything else. */
static int read_device(gd_ctx *ctx, const char *name, struct gd_pci *p,
		       struct gd_not_gpu *ng)
{
	char dir[192];
	struct stat st;

	memset(p, 0, sizeof *p);
	if (gd_pci_bdf_parse(name, &p->domain, &p->bus, &p->dev, &p->fn) < 0)
		return 0;
	gd_fmt(dir, sizeof dir, GD_PCI_DEVICES "/%s", name);
	if (read_ids(ctx, dir, p) < 0)
		return 0;
	if ((p->class_code >> 16) != 0x03 && (p->class_code >> 16) != 0x12)
		return 0;
	gd_strlcpy(p->bdf, name, sizeof p->bdf);
	if (gd_kbref_not_gpu(ctx, p->vendor_id, p->device_id, p->class_code,
			     ng->kind, sizeof ng->kind, ng->name,
			     sizeof ng->name)) {
		gd_strlcpy(ng->bdf, name, sizeof ng->bdf);
		ng->vendor_id = p->vendor_id;
		ng->device_id = p->device_id;
		ng->class_code = p->class_code;
		return 2;
	}
	if (gd_fs_lstat(&ctx->fs, dir, &st) == 0)
		p->is_link = S_ISLNK(st.st_mode);
	num_attr(ctx, dir, "revision", 16, &p->revision);
	read_driver(ctx, dir, &p->driver);
	if (!gd_known(&p->driver))
		driver_from_uevent(ctx, dir, &p->driver, &p->driver_unseen);
	text_attr(ctx, dir, "current_link_speed", &p->cur_link_speed);
	text_attr(ctx, dir, "max_link_speed", &p->max_link_speed);
	num_attr(ctx, dir, "current_link_width", 10, &p->cur_link_width);
	num_attr(ctx, dir, "max_link_width", 10, &p->max_link_width);
	num_attr(ctx, dir, "numa_node", 10, &p->numa_node);
	num_attr(ctx, dir, "boot_vga", 10, &p->boot_vga);
	sriov_attrs(ctx, dir, p);
	return 1;
}

/* PCI order (domain, bus, device, function), as nvidia-smi and lspci
 * list devices: numeric, not the natural order of the names, which puts
 * "0000:2a" before "0000:18". */
int gd_pci_cmp(const struct gd_pci *a, const struct gd_pci *b)
{
	const uint32_t x[] = {a->domain, a->bus, a->dev, a->fn};
	const uint32_t y[] = {b->domain, b->bus, b->dev, b->fn};

	for (size_t i = 0; i < 4; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static int pci_qcmp(const void *a, const void *b)
{
	return gd_pci_cmp(a, b);
}

int gd_pci_scan(gd_ctx *ctx, struct gd_pci **devs, size_t *n,
		struct gd_not_gpu **ngs, size_t *n_ng, char *why, size_t whycap)
{
	GD_VEC(struct gd_pci) out = {0};
	GD_VEC(struct gd_not_gpu) skip = {0};
	gd_strvec names;
	int rc;

	*devs = NULL;
	*n = 0;
	*ngs = NULL;
	*n_ng = 0;
	why[0] = '\0';
	rc = gd_fs_list(&ctx->fs, GD_PCI_DEVICES, &names);
	if (rc < 0) {
		gd_fmt(why, whycap, "%s: %s", GD_PCI_DEVICES,
		       gd_fs_strerror(rc));
		return rc == -ENOMEM ? rc : 0;
	}
	for (size_t i = 0; i < names.n; i++) {
		struct gd_pci tmp, *slot = NULL;
		struct gd_not_gpu ng = {0}, *nslot = NULL;
		int kind = read_device(ctx, names.v[i], &tmp, &ng);

		if (kind == 1 && (slot = gd_vec_push(&out)))
			*slot = tmp;
		else if (kind == 2 && (nslot = gd_vec_push(&skip)))
			*nslot = ng;
		if ((kind == 1 && !slot) || (kind == 2 && !nslot)) {
			gd_strvec_free(&names);
			free(out.v);
			free(skip.v);
			return -ENOMEM;
		}
	}
	gd_strvec_free(&names);
	if (out.n > 1)
		qsort(out.v, out.n, sizeof *out.v, pci_qcmp);
	*devs = out.v;
	*n = out.n;
	*ngs = skip.v;
	*n_ng = skip.n;
	return 0;
}
