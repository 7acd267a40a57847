/* discover/ PCI reading: the uevent and config fallbacks, 5-digit (Intel
 * VMD) domains, PCI order, and the knowledge-base lists that classify
 * devices (display devices that are no GPU, NVIDIA chip names, AMD
 * families KFD never supported). Trees are built in a temporary
 * directory; the contents are real captures, cited per case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discover/disc_int.h"
#include "kb/kb.h"
#include "t.h"
#include "t_machine.h"

static void test_bdf(void)
{
	uint32_t d, b, s, f;

	/* Intel VMD puts its devices in domains from 0x10000 up, printed
	 * with 5 digits (lspci on a VMD laptop: "10000:e1:00.0") */
	CHECK_INT(gd_pci_bdf_parse("10000:e1:00.0", &d, &b, &s, &f), 0);
	CHECK(d == 0x10000 && b == 0xe1 && s == 0 && f == 0);
	CHECK_INT(gd_pci_bdf_parse("10001:00:17.0", &d, &b, &s, &f), 0);
	CHECK(d == 0x10001 && s == 0x17);
	CHECK_INT(gd_pci_bdf_parse("0000:34:00.0", &d, &b, &s, &f), 0);
	/* 5 digits below 0x10000 is not how Linux prints a domain */
	CHECK_INT(gd_pci_bdf_parse("00000:34:00.0", &d, &b, &s, &f), -1);
	CHECK_INT(gd_pci_bdf_parse("100000:00:00.0", &d, &b, &s, &f), -1);
	CHECK_INT(gd_pci_bdf_parse("000:34:00.0", &d, &b, &s, &f), -1);
}

static void test_uevent(void)
{
	/* a real PCI uevent, quoted in the Linux drm/xe patch "Add uevent
	 * for wedged" (udevadm monitor output on a DG2, 2024) */
	static const char xe[] =
	    "ACTION=change\nSUBSYSTEM=pci\nDRIVER=xe\nPCI_CLASS=30000\n"
	    "PCI_ID=8086:56B1\nPCI_SUBSYS_ID=8086:1210\n"
	    "PCI_SLOT_NAME=0000:03:00.0\nMODALIAS=pci:v00008086d000056B1sv"
	    "00008086sd00001210bc03sc00i00\nSEQNUM=6104\n";
	struct gd_pci_uevent u;
	/* config space: what 1002:163f (Steam Deck, below) has at 0-11,
	 * revision and prog-if 0, class 0x030000 */
	static const unsigned char cfg[12] = {0x02, 0x10, 0x3f, 0x16, 0, 0,
					      0,    0,	  0,	0,    0, 3};
	static const unsigned char none[4] = {0xff, 0xff, 0xff, 0xff};

	CHECK_INT(gd_pci_uevent_parse(xe, strlen(xe), &u), 0);
	CHECK(u.has_id && u.vendor == 0x8086 && u.device == 0x56b1);
	CHECK(u.has_subsys && u.sub_vendor == 0x8086 && u.sub_device == 0x1210);
	CHECK(u.has_class && u.class_code == 0x030000);
	CHECK_STR(u.driver, "xe");
	CHECK_INT(gd_pci_uevent_parse("PCI_ID=1002\n", 12, &u), -1);
	CHECK_INT(gd_pci_uevent_parse("PCI_ID=10020:1\nDRIVER=a/b\n", 26, &u),
		  -1);
	CHECK_INT(gd_pci_config_parse(cfg, sizeof cfg, &u), 0);
	CHECK(u.vendor == 0x1002 && u.device == 0x163f &&
	      u.class_code == 0x030000 && u.has_revision && u.revision == 0);
	CHECK_INT(gd_pci_config_parse(none, sizeof none, &u), -1);
	CHECK_INT(gd_pci_config_parse(cfg, 3, &u), -1);
}

static char tmpl[64];

static void mk(const char *rel, const char *content)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", tmpl, rel);
	for (p = strchr(path + strlen(tmpl) + 1, '/'); p;
	     p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if (content && (f = fopen(path, "w"))) {
		fputs(content, f);
		fclose(f);
	}
}

static void gpu(const char *bdf, const char *dev)
{
	char p[128];

	snprintf(p, sizeof p, "sys/bus/pci/devices/%s/class", bdf);
	mk(p, "0x030200\n");
	snprintf(p, sizeof p, "sys/bus/pci/devices/%s/vendor", bdf);
	mk(p, "0x10de\n");
	snprintf(p, sizeof p, "sys/bus/pci/devices/%s/device", bdf);
	mk(p, dev);
}

static int diag_has(const gd_ctx *ctx, const char *s)
{
	for (size_t i = 0; i < ctx->diags.n; i++)
		if (strstr(ctx->diags.v[i].msg, s))
			return 1;
	return 0;
}

/* A fresh capture tree under /tmp for one test (its path in tmpl). */
static int tree_new(const char *name)
{
	snprintf(tmpl, sizeof tmpl, "/tmp/%s-XXXXXX", name);
	if (!mkdtemp(tmpl)) {
		CHECK(!"mkdtemp");
		return -1;
	}
	return 0;
}

/* Discovery over the tree, with the embedded kb, as gpudoctor runs it. */
static int tree_discover(gd_ctx *ctx, struct gd_machine *m)
{
	static char *env[] = {NULL};

	if (gd_ctx_init(ctx, tmpl, env) < 0) {
		CHECK(!"ctx");
		return -1;
	}
	ctx->kb = gd_kb_load_embedded();
	CHECK_INT(gd_discover(ctx, m), 0);
	return 0;
}

static void tree_done(gd_ctx *ctx, struct gd_machine *m)
{
	t_machine_free(ctx, m);
	t_rm_tree(tmpl);
}

static void test_tree(void)
{
	struct gd_machine m;
	gd_ctx ctx;

	if (tree_new("gd-pci") < 0)
		return;
	/* buses of the DGX-2 (hwloc nvidiaDGX2.xml), natural name order
	 * "3b" < "34" and "e7" after "10000:": numeric order must win */
	gpu("0000:3b:00.0", "0x1db8\n");
	gpu("0000:34:00.0", "0x1db8\n");
	gpu("10000:e1:00.0", "0x1db8\n");
	gpu("0000:e7:00.0", "0x1db8\n");
	/* the Steam Deck's GPU with only its uevent (as `cat
	 * /sys/class/drm/card0/device/uevent` printed it in a public post:
	 * DRIVER=amdgpu, PCI_CLASS=30000, PCI_ID=1002:163F) */
	mk("sys/bus/pci/devices/0000:04:00.0/uevent",
	   "DRIVER=amdgpu\nPCI_CLASS=30000\nPCI_ID=1002:163F\n");
	/* QEMU's standard VGA: no GPU */
	mk("sys/bus/pci/devices/0000:00:02.0/class", "0x030000\n");
	mk("sys/bus/pci/devices/0000:00:02.0/vendor", "0x1234\n");
	mk("sys/bus/pci/devices/0000:00:02.0/device", "0x1111\n");
	if (tree_discover(&ctx, &m) < 0)
		return;
	CHECK_INT(m.n_gpus, 5);
	if (m.n_gpus == 5) {
		CHECK_STR(m.gpus[0].pci.bdf, "0000:04:00.0");
		CHECK_STR(m.gpus[1].pci.bdf, "0000:34:00.0");
		CHECK_STR(m.gpus[2].pci.bdf, "0000:3b:00.0");
		CHECK_STR(m.gpus[3].pci.bdf, "0000:e7:00.0");
		CHECK_STR(m.gpus[4].pci.bdf, "10000:e1:00.0");
		CHECK(m.gpus[0].vendor == GD_VENDOR_AMD &&
		      m.gpus[0].pci.device_id == 0x163f);
		CHECK_STR(gd_known(&m.gpus[0].pci.driver)
			      ? m.gpus[0].pci.driver.v
			      : "",
			  "amdgpu");
	}
	CHECK_INT(m.n_not_gpus, 1);
	if (m.n_not_gpus == 1) {
		CHECK_STR(m.not_gpus[0].kind, "emulated");
		CHECK_STR(m.not_gpus[0].bdf, "0000:00:02.0");
	}
	CHECK(diag_has(&ctx, "read from"));
	CHECK(diag_has(&ctx, "no driver link"));
	CHECK(diag_has(&ctx, "not a GPU"));
	tree_done(&ctx, &m);
}

/* NVIDIA SR-IOV host (vGPU): `sriov-manage -e 0001:04:00.0` on an RTX PRO
 * 6000 Blackwell Server Edition (10de:2bb5) gave virtfn0 -> 0001:04:00.2,
 * virtfn1 -> 00.3, virtfn2 -> 00.4 ... (bigstack-oss/cubecos issue 312);
 * each VF links back with physfn. The VFs are counted under the PF, not
 * listed as GPUs; a VF whose PF is not in the tree stays a GPU. */
static void test_sriov(void)
{
	static const char *const vfs[] = {"0001:04:00.2", "0001:04:00.3",
					  "0001:04:00.4"};
	char cmd[160];
	struct gd_machine m;
	gd_ctx ctx;

	if (tree_new("gd-pci") < 0)
		return;
	gpu("0001:04:00.0", "0x2bb5\n");
	mk("sys/bus/pci/devices/0001:04:00.0/sriov_numvfs", "3\n");
	for (size_t i = 0; i < 3; i++) {
		gpu(vfs[i], "0x2bb5\n");
		snprintf(cmd, sizeof cmd,
			 "ln -s ../0001:04:00.0 '%s/sys/bus/pci/devices/%s/"
			 "physfn'",
			 tmpl, vfs[i]);
		CHECK(system(cmd) == 0);
	}
	gpu("0002:04:00.4", "0x2bb5\n");
	snprintf(cmd, sizeof cmd,
		 "ln -s ../0002:04:00.0 '%s/sys/bus/pci/devices/0002:04:00.4/"
		 "physfn'",
		 tmpl);
	CHECK(system(cmd) == 0);
	if (tree_discover(&ctx, &m) < 0)
		return;
	CHECK_INT(m.n_gpus, 2);
	if (m.n_gpus == 2) {
		const struct gd_pci *pf = &m.gpus[0].pci;

		CHECK_STR(pf->bdf, "0001:04:00.0");
		CHECK_INT(pf->n_vfs, 3);
		CHECK_STR(pf->vf_first, "0001:04:00.2");
		CHECK_STR(pf->vf_last, "0001:04:00.4");
		CHECK(gd_known(&pf->sriov_numvfs) && pf->sriov_numvfs.v == 3);
		CHECK_STR(m.gpus[1].pci.bdf, "0002:04:00.4");
		CHECK_INT(m.gpus[1].pci.n_vfs, 0);
	}
	CHECK(diag_has(&ctx, "3 SR-IOV virtual functions (0001:04:00.2 to"));
	tree_done(&ctx, &m);
}

/* An APU whose only memory figure is its KFD bank: shared system memory,
 * not VRAM. Strix Halo (1002:1586, an APU in the kb); the bank and GTT
 * both 120 GiB as a Strix Halo owner noted after ttm.pages_limit=31457280
 * (31457280 pages of 4 KiB). */
static void test_apu_memory(void)
{
	struct gd_machine m;
	gd_ctx ctx;

	if (tree_new("gd-apu") < 0)
		return;
	mk("sys/bus/pci/devices/0000:c5:00.0/class", "0x038000\n");
	mk("sys/bus/pci/devices/0000:c5:00.0/vendor", "0x1002\n");
	mk("sys/bus/pci/devices/0000:c5:00.0/device", "0x1586\n");
	mk("sys/bus/pci/devices/0000:c5:00.0/mem_info_gtt_total",
	   "128849018880\n");
	mk("sys/class/kfd/kfd/topology/nodes/1/properties",
	   "simd_count 80\nsimd_per_cu 2\ngfx_target_version 110501\n"
	   "location_id 50432\ndomain 0\n");
	mk("sys/class/kfd/kfd/topology/nodes/1/mem_banks/0/properties",
	   "heap_type 1\nsize_in_bytes 128849018880\n");
	if (tree_discover(&ctx, &m) < 0)
		return;
	CHECK_INT(m.n_gpus, 1);
	if (m.n_gpus == 1) {
		CHECK(m.gpus[0].integrated);
		CHECK(!gd_known(&m.gpus[0].vram_total));
		CHECK(gd_known(&m.gpus[0].shared_mem) &&
		      m.gpus[0].shared_mem.v == 128849018880ULL);
		CHECK_STR(
		    m.gpus[0].shared_src,
		    "kfd mem_banks (frame buffer heaps) = mem_info_gtt_total");
	}
	tree_done(&ctx, &m);
}

/* NVIDIA without /proc/driver/nvidia and without a kb entry for the PCI
 * id: the architecture from the pci.ids chip name. 10de:1287 is the
 * GeForce GT 730 of Debian's nvidia-driver message "GK208B [GeForce GT
 * 730] [10de:1287] (rev a1) ... requires ... nvidia-tesla-470-driver";
 * the pci.ids lines are verbatim from pci.ids 2023.04.10. */
static void test_nvidia_chip(void)
{
	struct gd_machine m;
	gd_ctx ctx;

	if (tree_new("gd-nv") < 0)
		return;
	mk("sys/bus/pci/devices/0000:01:00.0/class", "0x030000\n");
	mk("sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
	mk("sys/bus/pci/devices/0000:01:00.0/device", "0x1287\n");
	mk("sys/bus/pci/devices/0000:01:00.0/revision", "0xa1\n");
	mk("usr/share/misc/pci.ids", "10de  NVIDIA Corporation\n"
				     "\t1287  GK208B [GeForce GT 730]\n");
	if (tree_discover(&ctx, &m) < 0)
		return;
	CHECK_INT(m.n_gpus, 1);
	if (m.n_gpus == 1) {
		CHECK_STR(m.gpus[0].nv.sm, "sm_35");
		CHECK_STR(m.gpus[0].nv.sm_src, "from pci.ids chip name GK208B");
		CHECK_STR(m.gpus[0].nv.arch, "Kepler");
		CHECK_STR(m.gpus[0].nv.last_driver, "470");
		CHECK_STR(m.gpus[0].nv.last_cuda, "11.8");
	}
	tree_done(&ctx, &m);
}

/* AMD families KFD never supported, by PCI id and by pci.ids chip name
 * (names verbatim from pci.ids 2023.04.10). */
static void test_no_kfd(void)
{
	char *env[] = {NULL}, fam[48], gfx[16];
	gd_ctx ctx;

	if (gd_ctx_init(&ctx, "/", env) < 0) {
		CHECK(!"ctx");
		return;
	}
	ctx.kb = gd_kb_load_embedded();
	CHECK_INT(gd_kbref_amd_no_kfd(&ctx, 0x6613, "", fam, sizeof fam, gfx,
				      sizeof gfx),
		  1);
	CHECK_STR(gfx, "gfx602");
	CHECK_STR(fam, "Southern Islands (GCN 1)");
	/* an id the list lacks, named by its chip */
	CHECK_INT(gd_kbref_amd_no_kfd(&ctx, 0xffff,
				      "Cape Verde PRO [Radeon "
				      "HD 7750/8740 / R7 250E]",
				      fam, sizeof fam, gfx, sizeof gfx),
		  2);
	CHECK_STR(gfx, "gfx601");
	CHECK_INT(gd_kbref_amd_no_kfd(&ctx, 0xffff, "Olandia", fam, sizeof fam,
				      gfx, sizeof gfx),
		  0);
	/* Navi 10 is no such family */
	CHECK_INT(gd_kbref_amd_no_kfd(&ctx, 0x731f,
				      "Navi 10 [Radeon RX 5600 "
				      "OEM/5600 XT / 5700/5700 XT]",
				      fam, sizeof fam, gfx, sizeof gfx),
		  0);
	gd_kb_free(ctx.kb);
	ctx.kb = NULL;
	gd_ctx_free(&ctx);
}

int main(void)
{
	test_no_kfd();
	test_nvidia_chip();
	test_apu_memory();
	test_bdf();
	test_uevent();
	test_tree();
	test_sriov();
	return t_done("test_discover_pci");
}
