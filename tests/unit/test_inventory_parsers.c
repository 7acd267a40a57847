/* inventory/ parsers on strings: Vulkan manifests, OpenCL .icd files,
 * rocBLAS directory listings, soname versions, the NVIDIA module version
 * line, CUDA version.json, ld.so.conf, and the CUDA driver rule. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/cuda_driver.h"
#include "inventory/inventory.h"
#include "inventory/ldpath.h"
#include "t.h"

/* Mesa 22.3 (Debian bookworm mesa-vulkan-drivers), verbatim. */
static const char lvp_json[] =
    "{\n    \"ICD\": {\n        \"api_version\": \"1.1.230\",\n"
    "        \"library_path\": \"/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so\"\n"
    "    },\n    \"file_format_version\": \"1.0.0\"\n}";
/* NVIDIA driver manifest as written by nvidia-container-toolkit. */
static const char nvidia_json[] =
    "{\n    \"file_format_version\" : \"1.0.1\",\n    \"ICD\": {\n"
    "        \"library_path\": \"libGLX_nvidia.so.0\",\n"
    "        \"api_version\" : \"1.4.329\"\n    }\n}\n";

static int vk(const char *s, struct gd_icd *icd)
{
	memset(icd, 0, sizeof *icd);
	return gd_vk_manifest_parse(s, strlen(s), icd);
}

static void test_vk_manifest(void)
{
	struct gd_icd icd;

	memset(&icd, 0, sizeof icd);
	CHECK_INT(gd_vk_manifest_parse(lvp_json, strlen(lvp_json), &icd), 0);
	CHECK_STR(icd.library.v, "/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so");
	CHECK_STR(icd.api_version.v, "1.1.230");
	CHECK_STR(icd.file_format_version, "1.0.0");
	CHECK_STR(icd.error, "");
	gd_strlcpy(icd.manifest, "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
		   sizeof icd.manifest);
	gd_icd_classify(&icd, 1);
	CHECK_STR(icd.driver, "lvp");
	CHECK_INT(icd.software, 1);

	memset(&icd, 0, sizeof icd);
	CHECK_INT(gd_vk_manifest_parse(nvidia_json, strlen(nvidia_json), &icd),
		  0);
	CHECK_STR(icd.library.v, "libGLX_nvidia.so.0");
	CHECK_STR(icd.api_version.v, "1.4.329");
	CHECK_STR(icd.file_format_version, "1.0.1");
	gd_icd_classify(&icd, 1);
	CHECK_STR(icd.driver, "nvidia");
	CHECK_INT(icd.software, 0);

	/* truncated: the first 60 bytes of Mesa's radeon manifest */
	memset(&icd, 0, sizeof icd);
	CHECK_INT(gd_vk_manifest_parse(lvp_json, 60, &icd), -1);
	CHECK(strstr(icd.error, "not valid JSON") != NULL);
	CHECK(icd.library.st == GD_FAILED);

	CHECK_INT(vk("[1,2]", &icd), -1);
	CHECK_STR(icd.error, "manifest is not a JSON object");
	CHECK_INT(vk("{\"file_format_version\":\"1.0.0\","
		     "\"layer\":{}}",
		     &icd),
		  -1);
	CHECK(strstr(icd.error, "no \"ICD\"") != NULL);
	CHECK_INT(vk("{\"ICD\":{\"library_path\":\"x.so\"}}", &icd), -1);
	CHECK_STR(icd.error, "no file_format_version");
	CHECK_STR(icd.library.v, "x.so"); /* still reported */
	CHECK_INT(vk("{\"file_format_version\":\"1\",\"ICD\":"
		     "{\"library_path\":7}}",
		     &icd),
		  -1);
	CHECK_STR(icd.error, "no ICD.library_path");
	/* api_version is optional */
	CHECK_INT(vk("{\"file_format_version\":\"1.0.0\",\"ICD\":"
		     "{\"library_path\":\"amdvlk64.so\"}}",
		     &icd),
		  0);
	CHECK(icd.api_version.st == GD_UNKNOWN);
	gd_icd_classify(&icd, 1);
	CHECK_STR(icd.driver, "amdvlk");
	/* duplicate keys are rejected rather than silently picked */
	CHECK_INT(vk("{\"file_format_version\":\"1\",\"ICD\":{"
		     "\"library_path\":\"a\",\"library_path\":\"b\"}}",
		     &icd),
		  -1);
}

static void test_classify_names(void)
{
	static const struct {
		const char *lib;
		int vk;
		const char *drv;
		int sw;
	} c[] = {
	    {"/usr/lib/x86_64-linux-gnu/libvulkan_radeon.so", 1, "radv", 0},
	    {"/usr/lib/x86_64-linux-gnu/libvulkan_intel.so", 1, "intel", 0},
	    {"/usr/lib/x86_64-linux-gnu/libvulkan_intel_hasvk.so", 1,
	     "intel-hasvk", 0},
	    {"libvk_swiftshader.so", 1, "swiftshader", 1},
	    {"/usr/lib/libvulkan_foo.so.1", 1, "foo", 0},
	    {"libpocl.so.2.10.0", 0, "pocl", 1},
	    {"libamdocl64.so", 0, "amdocl", 0},
	    {"/opt/rocm-4.0.1/opencl/lib/libamdocl64.so", 0, "amdocl", 0},
	    {"libnvidia-opencl.so.1", 0, "nvidia", 0},
	    {"libRusticlOpenCL.so.1", 0, "rusticl", 0},
	    {"libMesaOpenCL.so.1", 0, "clover", 0},
	    {"libintelocl.so", 0, "intel-cpu", 1},
	    {"libigdrcl.so", 0, "intel", 0},
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct gd_icd icd;

		memset(&icd, 0, sizeof icd);
		gd_text_set(&icd.library, c[i].lib, "test");
		gd_icd_classify(&icd, c[i].vk);
		CHECK_STR(icd.driver, c[i].drv);
		CHECK_INT(icd.software, c[i].sw);
	}
}

static void test_ocl_icd(void)
{
	struct gd_icd icd;

	memset(&icd, 0, sizeof icd);
	/* Debian bookworm pocl-opencl-icd: no trailing newline */
	CHECK_INT(gd_ocl_icd_parse("libpocl.so.2.10.0", 17, &icd), 0);
	CHECK_STR(icd.library.v, "libpocl.so.2.10.0");
	CHECK_INT(gd_ocl_icd_parse("libamdocl64.so\n", 15, &icd), 0);
	CHECK_STR(icd.library.v, "libamdocl64.so");
	CHECK_INT(gd_ocl_icd_parse("  /opt/x/libfoo.so \r\nsecond\n", 28, &icd),
		  0);
	CHECK_STR(icd.library.v, "/opt/x/libfoo.so");
	CHECK_INT(gd_ocl_icd_parse("\n", 1, &icd), -1);
	CHECK_STR(icd.error, "empty first line");
	CHECK_INT(gd_ocl_icd_parse("", 0, &icd), -1);
	CHECK_INT(gd_ocl_icd_parse("ab\0cd", 5, &icd), -1);
	CHECK_STR(icd.error, "binary content");
	{
		char big[2000];

		memset(big, 'a', sizeof big);
		CHECK_INT(gd_ocl_icd_parse(big, sizeof big, &icd), -1);
	}
}

/* The real Debian trixie listing: basenames of its library/ files. */
static size_t load_listing(char ***out)
{
	const char *src = getenv("GD_SRCDIR");
	char path[1024], line[512];
	char **names = calloc(64, sizeof *names);
	size_t n = 0;
	FILE *f;

	gd_fmt(path, sizeof path,
	       "%s/tests/fixtures/inventory/"
	       "debian-trixie-librocblas0-5.5.1.txt",
	       src ? src : "..");
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (f && names && n < 64 && fgets(line, sizeof line, f)) {
		char *p = strstr(line, "/library/");

		if (!p || !p[9] || p[9] == '\n')
			continue;
		p[strcspn(p, "\n")] = '\0';
		names[n++] = strdup(p + 9);
	}
	if (f)
		fclose(f);
	*out = names;
	return n;
}

static const struct gd_rocblas_target *tgt(const struct gd_rocblas_dir *d,
					   const char *gfx, const char *xn)
{
	for (size_t i = 0; i < d->n_targets; i++)
		if (!strcmp(d->targets[i].gfx, gfx) &&
		    !strcmp(d->targets[i].xnack, xn))
			return &d->targets[i];
	return NULL;
}

static void test_rocblas_debian(void)
{
	struct gd_rocblas_dir d;
	struct gd_inventory inv;
	char **names;
	size_t n = load_listing(&names);
	const struct gd_rocblas_target *t;

	CHECK_INT(n, 21);
	memset(&d, 0, sizeof d);
	CHECK_INT(gd_rocblas_scan_names(names, n, &d), 11);
	t = tgt(&d, "gfx1010", "");
	CHECK(t && t->kind == GD_ROCBLAS_FALLBACK_ONLY);
	CHECK(t && t->fallback_kernels && !t->tensile_code);
	CHECK(t && strstr(t->note, "slow generic"));
	t = tgt(&d, "gfx1030", "");
	CHECK(t && t->kind == GD_ROCBLAS_TENSILE_SINGLE);
	t = tgt(&d, "gfx90a", "+");
	CHECK(t && t->kind == GD_ROCBLAS_TENSILE_SINGLE);
	t = tgt(&d, "gfx90a", "-");
	CHECK(t && t->kind == GD_ROCBLAS_TENSILE_SINGLE);
	CHECK(tgt(&d, "gfx90a", "") == NULL); /* folded into the variants */
	CHECK(tgt(&d, "gfx1031", "") == NULL);

	memset(&inv, 0, sizeof inv);
	inv.rocblas = &d;
	inv.n_rocblas = 1;
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx1010"),
		  GD_ROCBLAS_FALLBACK_ONLY);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx803"),
		  GD_ROCBLAS_TENSILE_SINGLE);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx90a:xnack-"),
		  GD_ROCBLAS_TENSILE_SINGLE);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx1031"), -1);
	CHECK_INT(gd_rocblas_coverage(&inv, "junk"), -1);
	CHECK_STR(gd_rocblas_kind_name(GD_ROCBLAS_FALLBACK_ONLY),
		  "fallback-only");
	free(d.targets);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void test_rocblas_layouts(void)
{
	/* ROCm 6.0 lazy names (ROCm issue #3015) + a code object per type */
	char *lazy[] = {"TensileLibrary_lazy_gfx1030.dat",
			"TensileLibrary_lazy_gfx1100.dat",
			"Kernels.so-000-gfx1030.hsaco",
			"TensileManifest.txt",
			("TensileLibrary_Type_HH_Contraction_l_Ailk_Bjlk_Cijk_"
			 "Dijk_gfx1100.co"),
			"Kernels.so-000-gfx1010.hsaco"};
	char *split[] = {"TensileLibrary_gfx906.dat",
			 "TensileLibrary_gfx906.co",
			 "TensileLibrary_gfx908.co"};
	struct gd_rocblas_dir d;
	const struct gd_rocblas_target *t;

	memset(&d, 0, sizeof d);
	CHECK_INT(gd_rocblas_scan_names(lazy, 6, &d), 3);
	t = tgt(&d, "gfx1030", "");
	CHECK(t && t->kind == GD_ROCBLAS_TENSILE_LAZY && !t->note[0]);
	t = tgt(&d, "gfx1100", "");
	CHECK(t && t->kind == GD_ROCBLAS_TENSILE_LAZY && t->tensile_code);
	/* Kernels without any TensileLibrary catalog: rocBLAS cannot load */
	t = tgt(&d, "gfx1010", "");
	CHECK(t && t->kind == GD_ROCBLAS_INCOMPLETE);
	free(d.targets);

	memset(&d, 0, sizeof d);
	CHECK_INT(gd_rocblas_scan_names(split, 3, &d), 2);
	t = tgt(&d, "gfx906", "");
	CHECK(t && t->kind == GD_ROCBLAS_TENSILE_SINGLE);
	t = tgt(&d, "gfx908", ""); /* code object but no catalog for it */
	CHECK(t && t->kind == GD_ROCBLAS_INCOMPLETE);
	free(d.targets);

	{
		char *lone[] = {"TensileLibrary_lazy_gfx1151.dat", "gfx",
				"x_gfx.co", "Kernels.so-000-gfxZZ.hsaco",
				"TensileLibrary_gfx.co"};

		memset(&d, 0, sizeof d);
		CHECK_INT(gd_rocblas_scan_names(lone, 5, &d), 1);
		CHECK(d.n_targets == 1 &&
		      strstr(d.targets[0].note, "no code objects"));
		free(d.targets);
	}
}

static void test_soname(void)
{
	char v[64];
	unsigned maj;

	CHECK_INT(gd_soname_version("libamdhip64.so.5.2.21153", "libamdhip64",
				    v, sizeof v, &maj),
		  1);
	CHECK_STR(v, "5.2.21153");
	CHECK_INT(maj, 5);
	CHECK_INT(gd_soname_version("libamdhip64.so", "libamdhip64", v,
				    sizeof v, &maj),
		  1);
	CHECK_STR(v, "");
	CHECK_INT(maj, 0);
	CHECK_INT(gd_soname_version("libhipblaslt.so.0", "libhipblas", v,
				    sizeof v, &maj),
		  0);
	CHECK_INT(gd_soname_version("libamdhip64.so.5.bak", "libamdhip64", v,
				    sizeof v, &maj),
		  0);
	CHECK_INT(gd_soname_version("libcuda.so.580.95.05", "libcuda", v,
				    sizeof v, &maj),
		  1);
	CHECK_STR(v, "580.95.05");
	CHECK_INT(gd_soname_version("libcudart.so.13", "libcudart", v, sizeof v,
				    &maj),
		  1);
	CHECK_INT(maj, 13);
}

static void test_nvrm(void)
{
	char v[64];

	CHECK_INT(gd_cuda_parse_nvrm(
		      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  "
		      "515.76  Mon Sep 12 19:21:56 UTC 2022\nGCC version:"
		      "  gcc version 7.5.0\n",
		      v, sizeof v),
		  0);
	CHECK_STR(v, "515.76");
	CHECK_INT(gd_cuda_parse_nvrm(
		      "NVRM version: NVIDIA UNIX Open Kernel Module for "
		      "x86_64  575.57.08  Release Build  (dvs-builder@U16)"
		      "  Tue May 20 2025",
		      v, sizeof v),
		  0);
	CHECK_STR(v, "575.57.08");
	CHECK_INT(gd_cuda_parse_nvrm("NVRM version: garbage\n", v, sizeof v),
		  -1);
	CHECK_INT(gd_cuda_parse_nvrm("Kernel Module\n580.95.05", v, sizeof v),
		  -1);
	CHECK_INT(gd_cuda_parse_nvrm("", v, sizeof v), -1);
}

static void test_version_json(void)
{
	/* first entries of a real CUDA 11.5 version.json */
	static const char j[] =
	    "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n      "
	    "\"version\" : "
	    "\"11.5.2\"\n   },\n   \"cuda_cudart\" : {\n      \"name\" : "
	    "\"CUDA Runtime "
	    "(cudart)\",\n      \"version\" : \"11.5.117\"\n   }\n}\n";
	struct gd_cuda_version_json vj;
	unsigned long d;

	CHECK_INT(gd_cuda_parse_version_json(j, strlen(j), &vj), 0);
	CHECK_STR(vj.cuda, "11.5.2");
	CHECK_STR(vj.cudart, "11.5.117");
	CHECK_STR(vj.cublas, "");
	CHECK_INT(gd_cuda_parse_version_json(j, 40, &vj), -1);
	CHECK_INT(
	    gd_cuda_parse_version_json("{\"cuda\":{\"version\":5}}", 22, &vj),
	    -1);
	CHECK_INT(
	    gd_parse_c_define("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n",
			      "CUDNN_MINOR", &d),
	    0);
	CHECK_INT(d, 19);
	CHECK_INT(
	    gd_parse_c_define("#define CUDNN_MAJORX 9\n", "CUDNN_MAJOR", &d),
	    -1);
	CHECK_INT(gd_parse_c_define("#define CUDA_VERSION 13000\n",
				    "CUDA_VERSION", &d),
		  0);
	CHECK_INT(d, 13000);
}

/* Minimum drivers from NVIDIA's CUDA Toolkit release notes (Table 3, Linux
 * x86_64): 10.2 GA 440.33, 11.0 GA 450.36.06, 11.5 GA 495.29.05, 12.0 GA
 * 525.60.13, 12.4 GA 550.54.14. */
static const struct gd_cuda_min_table test_kb = {
    {{"10.2", "440.33", NULL},
     {"11.0", "450.36.06", NULL},
     {"11.5", "495.29.05", NULL},
     {"12.0", "525.60.13", NULL},
     {"12.4", "550.54.14", NULL}},
    5,
};

static void test_driver_check(void)
{
	const struct gd_cuda_min_table *kb = &test_kb;
	struct gd_cuda_check c;
	char api[32];

	memset(&c, 0, sizeof c);
	gd_cuda_driver_check(kb, "535.104.05", "12.4", &c);
	CHECK_INT(c.driver_ok, 1);
	CHECK_STR(c.min_driver, "525.60.13");
	CHECK_STR(c.full_driver, "550.54.14");
	CHECK(strstr(c.why, "minor-version compatibility") != NULL);
	gd_cuda_driver_check(kb, "515.76", "12.4", &c);
	CHECK_INT(c.driver_ok, 0);
	gd_cuda_driver_check(kb, "515.76", "11.5", &c);
	CHECK_INT(c.driver_ok, 1);
	gd_cuda_driver_check(kb, "470.57.02", "11.8",
			     &c); /* 11.8 not in table */
	CHECK_INT(c.driver_ok, 1);
	CHECK_STR(c.min_driver, "450.36.06");
	CHECK_STR(c.full_driver, "");
	/* before CUDA 11 there is no minor-version compatibility */
	gd_cuda_driver_check(kb, "418.40", "10.2", &c);
	CHECK_INT(c.driver_ok, 0);
	CHECK_STR(c.min_driver, "440.33");
	gd_cuda_driver_check(kb, NULL, "12.4", &c);
	CHECK_INT(c.driver_ok, -1);
	gd_cuda_driver_check(kb, "580.95.05", "13.0", &c);
	CHECK_INT(c.driver_ok, -1); /* no 13.x row */
	gd_cuda_driver_check(NULL, "580.95.05", "12.4", &c);
	CHECK_INT(c.driver_ok, -1);
	gd_cuda_driver_check(kb, "580.95.05", NULL, &c);
	CHECK_INT(c.driver_ok, -1);
	CHECK_INT(gd_cuda_driver_api(kb, "535.104.05", api, sizeof api), 0);
	CHECK_STR(api, "12.0");
	CHECK_INT(gd_cuda_driver_api(kb, "400.1", api, sizeof api), -1);
	CHECK_INT(gd_cuda_driver_api(NULL, "400.1", api, sizeof api), -1);
}

/* The knowledge base's own shape: one "X.x" row per major (NVIDIA CUDA
 * Compatibility guide, minor-version compatibility table). */
static void test_driver_check_major_rows(void)
{
	static const struct gd_cuda_min_table tab = {
	    {{"11.x", "450.80.02", NULL},
	     {"12.x", "525.60.13", NULL},
	     {"12.4", "550.54.14", NULL}},
	    3,
	};
	const struct gd_cuda_min_table *kb = &tab;
	struct gd_cuda_check c;
	char api[32];

	memset(&c, 0, sizeof c);
	gd_cuda_driver_check(kb, "450.80.02", "11.8", &c);
	CHECK_INT(c.driver_ok, 1);
	CHECK_STR(c.min_driver, "450.80.02");
	gd_cuda_driver_check(kb, "450.36.06", "11.0", &c);
	CHECK_INT(c.driver_ok, 0);
	CHECK(strstr(c.why, "any CUDA 11.x") != NULL);
	gd_cuda_driver_check(kb, "535.104.05", "12.0", &c);
	CHECK_INT(c.driver_ok, 1);
	CHECK_STR(c.full_driver, ""); /* "12.x" is not the 12.0 row */
	gd_cuda_driver_check(kb, "535.104.05", "12.4", &c);
	CHECK_STR(c.min_driver, "525.60.13");
	CHECK_STR(c.full_driver, "550.54.14");
	CHECK_INT(gd_cuda_driver_api(kb, "535.104.05", api, sizeof api), 0);
	CHECK_STR(api, "12.x");
}

static void test_ldconf(void)
{
	/* Debian bookworm /etc/ld.so.conf and libc.conf, plus a hwcap line */
	static const char conf[] =
	    "include /etc/ld.so.conf.d/*.conf\n\n# libc default configuration\n"
	    "/usr/local/lib\nhwcap 0 nosegneg\n  /opt/x/lib   # "
	    "trailing\nnot-a-dir\n";
	gd_strvec dirs = {0}, incs = {0};

	CHECK_INT(gd_ldconf_parse(conf, &dirs, &incs), 4);
	CHECK_INT(dirs.n, 2);
	CHECK_INT(incs.n, 1);
	if (dirs.n == 2) {
		CHECK_STR(dirs.v[0], "/usr/local/lib");
		CHECK_STR(dirs.v[1], "/opt/x/lib");
	}
	if (incs.n == 1)
		CHECK_STR(incs.v[0], "/etc/ld.so.conf.d/*.conf");
	gd_strvec_free(&dirs);
	gd_strvec_free(&incs);
}

int main(void)
{
	test_vk_manifest();
	test_classify_names();
	test_ocl_icd();
	test_rocblas_debian();
	test_rocblas_layouts();
	test_soname();
	test_nvrm();
	test_version_json();
	test_driver_check();
	test_driver_check_major_rows();
	test_ldconf();
	return t_done("test_inventory_parsers");
}
