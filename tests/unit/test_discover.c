/* discover/ parsers on strings, and discovery on hostile trees built in a
 * temporary directory (symlink loops, FIFOs, huge binary files). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discover/discover.h"
#include "t.h"

static void test_props(void)
{
	/* verbatim lines of the MI210 capture (k8s-device-plugin) */
	static const char mi210[] =
	    "cpu_cores_count 0\nsimd_count 416\nsimd_per_cu 4\n"
	    "gfx_target_version 90010\nvendor_id 4098\ndevice_id 29711\n"
	    "location_id 25344\ndomain 0\ndrm_render_minor 128\n"
	    "hive_id 12609507387757274807\nunique_id 1801979520617338022\n";
	struct gd_kfd_props p;
	struct gd_kfd_node n;
	uint64_t v;

	gd_kfd_props_parse(mi210, strlen(mi210), &p);
	CHECK_INT(p.n, 11);
	CHECK_INT(p.bad_lines, 0);
	CHECK(gd_kfd_props_get(&p, "hive_id", &v) &&
	      v == 12609507387757274807ULL);
	CHECK(!gd_kfd_props_get(&p, "num_xcc", &v));
	gd_kfd_node_from_props(&n, 2, &p);
	CHECK_STR(n.gfx, "gfx90a");
	CHECK_STR(n.bdf, "0000:63:00.0");
	CHECK_INT(n.cu_count.v, 104);
	CHECK(!gd_known(&n.num_xcc));
	CHECK_STR(n.num_xcc.why, "no num_xcc in node 2");

	/* Bristol Ridge: one node with CPU cores AND SIMDs, no gfx version */
	gd_kfd_props_parse("cpu_cores_count 4\nsimd_count 32\nsimd_per_cu 4\n"
			   "location_id 8\n",
			   60, &p);
	gd_kfd_node_from_props(&n, 0, &p);
	CHECK(n.cpu_and_gpu);
	CHECK(!n.has_gfx_target_version);
	CHECK_STR(n.gfx, "");
	CHECK_STR(n.bdf, "0000:00:01.0");

	/* bad lines are counted, never fatal; the last duplicate wins */
	gd_kfd_props_parse(
	    "a 1\nb x\n\x01\x02\nc 99999999999999999999999\n"
	    "a 2\nno_value\n d 7 \r\n",
	    strlen("a 1\nb x\n\x01\x02\nc 99999999999999999999999\n"
		   "a 2\nno_value\n d 7 \r\n"),
	    &p);
	CHECK(gd_kfd_props_get(&p, "a", &v) && v == 2);
	CHECK(gd_kfd_props_get(&p, "d", &v) && v == 7);
	CHECK_INT(p.bad_lines, 4);
	/* no newline at the end, NUL inside */
	gd_kfd_props_parse("simd_count 8", 12, &p);
	CHECK(gd_kfd_props_get(&p, "simd_count", &v) && v == 8);
	gd_kfd_props_parse("simd_count 8\0junk 1\n", 20, &p);
	CHECK_INT(p.n, 0);
	CHECK_INT(p.bad_lines, 1);
	gd_kfd_node_from_props(&n, 5, &p);
	CHECK_STR(n.cu_count.why, "no simd_count in node 5");
}

static void test_gfx(void)
{
	static const struct {
		uint32_t v;
		const char *gfx;
	} t[] = {
	    {90010, "gfx90a"},	 {90012, "gfx90c"},   {100100, "gfx1010"},
	    {110003, "gfx1103"}, {110501, "gfx1151"}, {90402, "gfx942"},
	    {80001, "gfx801"},	 {100300, "gfx1030"}, {120001, "gfx1201"},
	};
	char buf[16];

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		CHECK_INT(gd_gfx_from_version(t[i].v, buf, sizeof buf), 0);
		CHECK_STR(buf, t[i].gfx);
	}
	CHECK_INT(gd_gfx_from_version(0, buf, sizeof buf), -1);
	CHECK_INT(gd_gfx_from_version(91600, buf, sizeof buf), -1);
	CHECK_STR(buf, "");
}

static void test_override(void)
{
	static const struct {
		const char *in;
		int valid;
		const char *gfx;
	} t[] = {
	    {"10.3.0", 1, "gfx1030"},
	    {"11.0.0", 1, "gfx1100"},
	    {"9.0.10", 1, "gfx90a"},
	    {"9.0.12", 1, "gfx90c"},
	    {"11.5.1", 1, "gfx1151"},
	    {" 10.3.0", 1, "gfx1030"},
	    {"gfx1030", 0, ""},
	    {"10.3", 0, ""},
	    {"10.3.0 ", 0, ""},
	    {"10.3.0.1", 0, ""},
	    {"64.0.0", 0, ""},
	    {"10.256.0", 0, ""},
	    {"", 0, ""},
	    {"9.0.16", 1, ""},
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		struct gd_override o;

		memset(&o, 0, sizeof o);
		CHECK_INT(gd_hsa_override_parse(t[i].in, &o),
			  t[i].valid ? 0 : -1);
		CHECK_INT(o.valid, t[i].valid);
		CHECK_STR(o.gfx, t[i].gfx);
		if (!t[i].valid)
			CHECK(strstr(o.why, "ROCm will refuse to start") !=
			      NULL);
	}
}

static void test_ids(void)
{
	/* verbatim lines: libdrm amdgpu.ids, Debian pci.ids 2023.04.11 */
	static const char amd[] = "# List of AMDGPU IDs\n#\n1.0.0\n"
				  "731F,\tC1,\tAMD Radeon RX 5700 XT\n"
				  "731F,\tC4,\tAMD Radeon RX 5700\n"
				  "1586,\tC1,\tRadeon 8060S Graphics\n";
	static const char pci[] =
	    "# comment\n1002  Advanced Micro Devices, Inc. [AMD/ATI]\n"
	    "\t731f  Navi 10 [Radeon RX 5600 OEM/5600 XT / 5700/5700 XT]\n"
	    "\t\t1002 0b36  subsystem line\n"
	    "10de  NVIDIA Corporation\n\t2330  GH100[H100 SXM5 80GB]\n"
	    "C 03  Display controller\n\t00  VGA compatible controller\n";
	char name[128], vn[128];

	CHECK_INT(gd_amdgpu_ids_lookup(amd, strlen(amd), 0x731f, 0xc4, name,
				       sizeof name),
		  1);
	CHECK_STR(name, "AMD Radeon RX 5700");
	CHECK_INT(gd_amdgpu_ids_lookup(amd, strlen(amd), 0x731f, 0xc1, name,
				       sizeof name),
		  1);
	CHECK_STR(name, "AMD Radeon RX 5700 XT");
	/* device alone is not enough: revision must match (libdrm) */
	CHECK_INT(gd_amdgpu_ids_lookup(amd, strlen(amd), 0x731f, 0xc9, name,
				       sizeof name),
		  0);
	CHECK_INT(
	    gd_amdgpu_ids_lookup(amd, 40, 0x1586, 0xc1, name, sizeof name), 0);
	CHECK_INT(gd_pci_ids_lookup(pci, strlen(pci), 0x1002, 0x731f, vn,
				    sizeof vn, name, sizeof name),
		  1);
	CHECK_STR(vn, "Advanced Micro Devices, Inc. [AMD/ATI]");
	CHECK_STR(name, "Navi 10 [Radeon RX 5600 OEM/5600 XT / 5700/5700 XT]");
	CHECK_INT(gd_pci_ids_lookup(pci, strlen(pci), 0x10de, 0x2330, NULL, 0,
				    name, sizeof name),
		  1);
	CHECK_STR(name, "GH100[H100 SXM5 80GB]");
	/* the class section's "\t00" is not a device of the last vendor */
	CHECK_INT(gd_pci_ids_lookup(pci, strlen(pci), 0x10de, 0x0000, NULL, 0,
				    name, sizeof name),
		  0);
	CHECK_INT(gd_pci_ids_lookup(pci, strlen(pci), 0x1002, 0x1002, NULL, 0,
				    name, sizeof name),
		  0);
}

static void test_small_parsers(void)
{
	char v[64];
	uint32_t d, b, s, f;
	int keep[8], bad;
	const char *uu[] = {"GPU-aaa", "GPU-bbb", "GPU-ccc"};

	CHECK_INT(gd_nv_version_parse("NVRM version: NVIDIA UNIX x86_64 Kernel "
				      "Module  550.54.15  Tue Mar  5 22:23:56 "
				      "UTC 2024\nGCC version: gcc\n",
				      v, sizeof v),
		  0);
	CHECK_STR(v, "550.54.15");
	CHECK_INT(gd_nv_version_parse("NVRM version: NVIDIA UNIX Open Kernel "
				      "Module for x86_64  570.86.15  Release "
				      "Build\n",
				      v, sizeof v),
		  0);
	CHECK_STR(v, "570.86.15");
	CHECK_INT(gd_nv_version_parse("garbage\n", v, sizeof v), -1);
	CHECK_INT(gd_nv_info_get("Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:  "
				 "\t\t 123\nGPU UUID: \t GPU-1234\n",
				 "GPU UUID", v, sizeof v),
		  0);
	CHECK_STR(v, "GPU-1234");
	CHECK_INT(gd_pci_bdf_parse("0001:0b:00.0", &d, &b, &s, &f), 0);
	CHECK(d == 1 && b == 0x0b && s == 0 && f == 0);
	CHECK_INT(gd_pci_bdf_parse("0000:03:00.0x", &d, &b, &s, &f), -1);
	CHECK_INT(gd_pci_bdf_parse("0000:03:20.0", &d, &b, &s, &f), -1);
	CHECK_INT(gd_pci_bdf_parse("pci0000:00", &d, &b, &s, &f), -1);

	CHECK_INT(gd_visible_parse("2,0", 3, NULL, 1, keep, 8, &bad), 2);
	CHECK(keep[0] == 2 && keep[1] == 0 && bad == 0);
	CHECK_INT(gd_visible_parse("0,7,1", 3, NULL, 1, keep, 8, &bad), 1);
	CHECK_INT(bad, 2);
	CHECK_INT(gd_visible_parse("GPU-bbb", 3, uu, 1, keep, 8, &bad), 1);
	CHECK_INT(keep[0], 1);
	CHECK_INT(gd_visible_parse("", 3, NULL, 1, keep, 8, &bad), 0);
	CHECK_INT(gd_visible_parse("1,1", 3, NULL, 1, keep, 8, &bad), 1);
}

/* ---- hostile trees ---- */

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

static int discover_tmp(struct gd_machine *m, gd_ctx *ctx)
{
	char *env[] = {NULL};

	if (gd_ctx_init(ctx, tmpl, env) < 0)
		return -1;
	return gd_discover(ctx, m);
}

static void test_hostile_tree(void)
{
	char path[512];
	struct gd_machine m;
	gd_ctx ctx;
	double t0;
	FILE *f;

	strcpy(tmpl, "/tmp/gd-disc-XXXXXX");
	if (!mkdtemp(tmpl)) {
		CHECK(!"mkdtemp");
		return;
	}
	/* a GPU with a FIFO as node 1's properties, a 10 MB binary node 2,
	 * a symlink loop in the PCI directory, an ids file that is a loop */
	mk("sys/bus/pci/devices/0000:03:00.0/class", "0x030000\n");
	mk("sys/bus/pci/devices/0000:03:00.0/vendor", "0x1002\n");
	mk("sys/bus/pci/devices/0000:03:00.0/device", "0x731f\n");
	mk("sys/bus/pci/devices/0000:03:00.0/revision", "0xc1\n");
	snprintf(path, sizeof path, "%s/sys/bus/pci/devices/0000:04:00.0",
		 tmpl);
	CHECK(symlink("0000:04:00.0", path) == 0);
	snprintf(path, sizeof path,
		 "%s/sys/bus/pci/devices/0000:03:00.0/driver", tmpl);
	CHECK(symlink("driver", path) == 0);
	mk("sys/class/kfd/kfd/topology/nodes/0/properties",
	   "cpu_cores_count 8\nsimd_count 0\n");
	mk("sys/class/kfd/kfd/topology/nodes/1/x", NULL);
	snprintf(path, sizeof path,
		 "%s/sys/class/kfd/kfd/topology/nodes/1/properties", tmpl);
	CHECK(mkfifo(path, 0644) == 0);
	mk("sys/class/kfd/kfd/topology/nodes/2/properties",
	   "simd_count 80\nsimd_per_cu 2\ngfx_target_version 100100\n"
	   "location_id 768\ndomain 0\nvendor_id 4098\ndevice_id 29471\n");
	snprintf(path, sizeof path,
		 "%s/sys/class/kfd/kfd/topology/nodes/2/properties", tmpl);
	if ((f = fopen(path, "a"))) {
		for (int i = 0; i < 10 * 1024; i++) {
			char blk[1024];

			for (size_t j = 0; j < sizeof blk; j++)
				blk[j] = (char)(i * 31 + (int)j * 7);
			fwrite(blk, 1, sizeof blk, f);
		}
		fclose(f);
	}
	mk("usr/share/libdrm/x", NULL);
	snprintf(path, sizeof path, "%s/usr/share/libdrm/amdgpu.ids", tmpl);
	CHECK(symlink("amdgpu.ids", path) == 0);

	t0 = gd_now();
	CHECK_INT(discover_tmp(&m, &ctx), 0);
	CHECK(gd_now() - t0 < 2.0); /* no hang on the FIFO */
	CHECK_INT(m.n_gpus, 1);
	if (m.n_gpus == 1) {
		struct gd_gpu *g = &m.gpus[0];

		CHECK_STR(g->pci.bdf, "0000:03:00.0");
		CHECK_INT(g->n_kfd_nodes, 1);
		CHECK_STR(g->gfx, "gfx1010");
		CHECK_INT(g->cu_count.v, 40);
		CHECK(g->kfd_nodes[0].truncated);
		/* a self-link: readlink gives its text, no loop followed */
		CHECK_STR(g->pci.driver.v, "driver");
		/* amdgpu.ids is a loop and there is no pci.ids: the name
		 * comes from the embedded amdgpu.ids (docs/ids.md) */
		CHECK(gd_known(&g->name) && strstr(g->name.src, "embedded"));
	}
	CHECK_INT(m.kfd_nodes_total, 3);
	gd_machine_free(&m);
	gd_ctx_free(&ctx);
	snprintf(path, sizeof path, "rm -rf '%s'", tmpl);
	CHECK(system(path) == 0);
}

static void test_missing_root_dirs(void)
{
	struct gd_machine m;
	gd_ctx ctx;

	strcpy(tmpl, "/tmp/gd-disc-XXXXXX");
	if (!mkdtemp(tmpl)) {
		CHECK(!"mkdtemp");
		return;
	}
	CHECK_INT(discover_tmp(&m, &ctx), 0);
	CHECK_INT(m.n_gpus, 0);
	CHECK(strstr(m.pci_why, "/sys/bus/pci/devices") != NULL);
	CHECK(strstr(m.kfd_why, "no KFD topology") != NULL);
	CHECK(!gd_known(&m.kernel.release));
	gd_machine_free(&m);
	gd_ctx_free(&ctx);
	rmdir(tmpl);
}

static void test_unreadable(void)
{
	if (geteuid() == 0) {
		printf(
		    "test_discover: skipped the unreadable-file case: running "
		    "as root, which reads mode-000 files anyway\n");
		return;
	}
	strcpy(tmpl, "/tmp/gd-disc-XXXXXX");
	if (!mkdtemp(tmpl))
		return;
	mk("sys/class/kfd/kfd/topology/nodes/1/properties", "simd_count 8\n");
	{
		char path[512];
		struct gd_machine m;
		gd_ctx ctx;

		snprintf(path, sizeof path,
			 "%s/sys/class/kfd/kfd/topology/nodes/1/properties",
			 tmpl);
		chmod(path, 0);
		CHECK_INT(discover_tmp(&m, &ctx), 0);
		CHECK_INT(m.kfd_nodes_total, 1);
		CHECK(ctx.diags.n >= 1);
		gd_machine_free(&m);
		gd_ctx_free(&ctx);
		snprintf(path, sizeof path, "rm -rf '%s'", tmpl);
		CHECK(system(path) == 0);
	}
}

int main(void)
{
	test_props();
	test_gfx();
	test_override();
	test_ids();
	test_small_parsers();
	test_hostile_tree();
	test_missing_root_dirs();
	test_unreadable();
	return t_done("test_discover");
}
