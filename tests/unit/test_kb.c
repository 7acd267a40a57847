/* kb/: the shipped knowledge base loads and validates; lookups work; bad
 * files fail with "NAME:LINE: why" and never crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/re_cost.h"
#include "kb/kb.h"
#include "kb/kb_raw.h"
#include "t.h"

static void test_embedded(void)
{
	gd_kb *kb = gd_kb_load_embedded();
	const json_t *t;

	CHECK(kb != NULL);
	if (!kb)
		return;
	CHECK_STR(gd_kb_origin(kb), "embedded");
	t = gd_kb_target(kb, "gfx1010");
	CHECK(t != NULL);
	CHECK_STR(gd_kb_str(t, "gfx"), "gfx1010");
	CHECK(gd_kb_target(kb, "gfx1010:xnack-") == t);
	CHECK(gd_kb_target(kb, "GFX1010") == t);
	CHECK(gd_kb_target(kb, "gfx10100") == NULL);
	CHECK(gd_kb_target(kb, "gfx101") == NULL);
	CHECK(gd_kb_target_for_pci(kb, 0x731f) == t);
	CHECK(gd_kb_target_for_version(kb, 100100) == t);
	CHECK(gd_kb_target_for_pci(kb, 0xffff) == NULL);
	CHECK(gd_kb_issue(kb, "rocm-2527") != NULL);
	CHECK(gd_kb_source(kb, "rocm-2527") != NULL);
	CHECK(gd_kb_issue(kb, "nope") == NULL);
	CHECK(gd_kb_str(t, "nope") == NULL);
	CHECK(gd_kb_str(NULL, "gfx") == NULL);
	gd_kb_free(kb);
}

/* pci_not_gpu: by device id, or for a whole vendor by PCI base class
 * (Habana: every 1da3 device of class 0x12 is an AI accelerator; its
 * Gaudi 3, 1da3:1060, is not among the listed ids). */
static void test_not_gpu(void)
{
	gd_kb *kb = gd_kb_load_embedded();
	struct gd_kb_not_gpu ng;

	CHECK(kb != NULL);
	if (!kb)
		return;
	CHECK(gd_kb_not_gpu_get(kb, 0x1da3, 0x1060, 0x120000, &ng) == 0);
	CHECK_STR(ng.kind, "accelerator");
	CHECK(gd_kb_not_gpu_get(kb, 0x1da3, 0x1020, 0, &ng) == 0);
	CHECK(gd_kb_not_gpu_get(kb, 0x1da3, 0x1060, 0, &ng) == -1);
	CHECK(gd_kb_not_gpu_get(kb, 0x1da3, 0x1060, 0x030000, &ng) == -1);
	CHECK(gd_kb_not_gpu_get(kb, 0x1e52, 0x401e, 0x120000, &ng) == 0);
	CHECK(gd_kb_not_gpu_get(kb, 0x17cb, 0xa100, 0x120000, &ng) == 0);
	/* Qualcomm by id only: its other devices are modems, Wi-Fi */
	CHECK(gd_kb_not_gpu_get(kb, 0x17cb, 0x1101, 0x120000, &ng) == -1);
	CHECK(gd_kb_not_gpu_get(kb, 0x1022, 0x17f0, 0x118000, &ng) == 0);
	CHECK_STR(ng.kind, "npu");
	CHECK(gd_kb_not_gpu_get(kb, 0x1a03, 0x2000, 0x030000, &ng) == 0);
	CHECK_STR(ng.kind, "bmc");
	gd_kb_free(kb);
}

/* Parse text expected to fail; the message must start with want. */
static void expect_error(const char *text, const char *want, const char *line)
{
	char err[512];
	gd_kb *kb = gd_kb_parse(text, strlen(text), "t.json", err, sizeof err);

	CHECK(kb == NULL);
	gd_kb_free(kb);
	if (strncmp(err, line, strlen(line)) || !strstr(err, want)) {
		fprintf(stderr, "  error was: %s\n  wanted prefix %s and %s\n",
			err, line, want);
		CHECK(0);
	} else {
		CHECK(1);
	}
}

#define HEAD "{\"schema_version\": 1, \"kb_date\": \"2026-11-22\",\n"
#define SRCS                                                                   \
	"\"sources\": {\"s1\": {\"title\": \"t\", \"url\": null, "             \
	"\"checked\": \"2026-11-22\"}},\n"
#define TAIL                                                                   \
	"\"issues\": [], \"strategies\": [], \"signatures\": [],\n"            \
	"\"nvidia\": {\"gpus\": [], \"compute_capabilities\": [], "            \
	"\"cuda_driver_min\": []}, \"workloads\": {}}\n"
#define T(gfx) "{\"gfx\": \"" gfx "\", \"family\": \"x\", \"products\": []}"

static void test_errors(void)
{
	char err[256];
	gd_kb *kb;

	kb = gd_kb_parse(
	    HEAD SRCS "\"targets\": [" T("gfx1010") "],\n" TAIL,
	    strlen(HEAD SRCS "\"targets\": [" T("gfx1010") "],\n" TAIL),
	    "ok.json", err, sizeof err);
	CHECK(kb != NULL);
	gd_kb_free(kb);

	expect_error("", "empty", "t.json:1:");
	expect_error("{\n\"a\": 1,\n\"b\": }\n", "", "t.json:3:");
	expect_error("[1,2]", "must be a JSON object", "t.json:1:");
	expect_error(HEAD SRCS TAIL, "missing top-level key \"targets\"",
		     "t.json:");
	expect_error(HEAD SRCS "\"targets\": [\n" T("gfx1010") ",\n" T(
			 "gfx1010") "],\n" TAIL,
		     "duplicate target \"gfx1010\"", "t.json:5:");
	expect_error(HEAD SRCS "\"targets\": [\n" T("gfx1010") ",\n" T(
			 "GFX12") "],\n" TAIL,
		     "must match", "t.json:5:");
	expect_error(
	    HEAD SRCS
	    "\"targets\": [\n"
	    "{\"gfx\": \"gfx900\", \"family\": \"x\", \"products\": [],\n"
	    " \"sources\": [\"s1\",\n \"s2\"]}],\n" TAIL,
	    "unknown source \"s2\"", "t.json:6:");
	expect_error("{\"schema_version\": 2, \"kb_date\": \"x\",\n" SRCS
		     "\"targets\": [],\n" TAIL,
		     "schema_version 2", "t.json:1:");
	expect_error(
	    HEAD SRCS
	    "\"targets\": [],\n"
	    "\"issues\": [], \"strategies\": [],\n"
	    "\"signatures\": [\n{\"id\": \"bad-re\", \"title\": \"t\","
	    " \"meaning\": \"m\", \"fix\": \"f\", \"check\": \"none\",\n"
	    " \"regex\": \"a(b\"}],\n"
	    "\"nvidia\": {\"gpus\": [], \"compute_capabilities\": [], "
	    "\"cuda_driver_min\": []}, \"workloads\": {}}\n",
	    "signature \"bad-re\": regex does not compile", "t.json:7:");
	expect_error(
	    HEAD SRCS
	    "\"targets\": [],\n"
	    "\"issues\": [], \"strategies\": [],\n"
	    "\"signatures\": [\n{\"id\": \"bad-unless\", \"title\": \"t\","
	    " \"meaning\": \"m\", \"fix\": \"f\", \"check\": \"none\",\n"
	    " \"regex\": \"ab\", \"unless\": \"a(b\"}],\n"
	    "\"nvidia\": {\"gpus\": [], \"compute_capabilities\": [], "
	    "\"cuda_driver_min\": []}, \"workloads\": {}}\n",
	    "signature \"bad-unless\": \"unless\" does not compile",
	    "t.json:7:");
	/* Nested bounded repeats: glibc copies the subtree per repeat, and
	 * this one took fuzz_kb past 2 GB inside regcomp. */
	expect_error(
	    HEAD SRCS
	    "\"targets\": [],\n"
	    "\"issues\": [], \"strategies\": [],\n"
	    "\"signatures\": [\n{\"id\": \"huge-re\", \"title\": \"t\","
	    " \"meaning\": \"m\", \"fix\": \"f\", \"check\": \"none\",\n"
	    " \"regex\": \"((a{200}){200}){200}\"}],\n"
	    "\"nvidia\": {\"gpus\": [], \"compute_capabilities\": [], "
	    "\"cuda_driver_min\": []}, \"workloads\": {}}\n",
	    "signature \"huge-re\": regex too large once compiled",
	    "t.json:7:");
	expect_error(
	    HEAD SRCS
	    "\"targets\": [],\n"
	    "\"issues\": [], \"strategies\": [],\n"
	    "\"signatures\": [\n{\"id\": \"huge-unless\", \"title\": \"t\","
	    " \"meaning\": \"m\", \"fix\": \"f\", \"check\": \"none\",\n"
	    " \"regex\": \"ab\", \"unless\": \"(x+){32767}\"}],\n"
	    "\"nvidia\": {\"gpus\": [], \"compute_capabilities\": [], "
	    "\"cuda_driver_min\": []}, \"workloads\": {}}\n",
	    "signature \"huge-unless\": \"unless\" too large once compiled",
	    "t.json:7:");
	expect_error(
	    HEAD SRCS
	    "\"targets\": [],\n"
	    "\"issues\": [], \"strategies\": [],\n"
	    "\"signatures\": [\n{\"id\": \"bad-minor\", \"title\": \"t\","
	    " \"meaning\": \"m\", \"fix\": \"f\", \"check\": \"none\",\n"
	    " \"regex\": \"ab\", \"minor\": \"yes\"}],\n"
	    "\"nvidia\": {\"gpus\": [], \"compute_capabilities\": [], "
	    "\"cuda_driver_min\": []}, \"workloads\": {}}\n",
	    "\"minor\" must be true or false", "t.json:7:");
	expect_error(
	    HEAD SRCS
	    "\"targets\": [],\n"
	    "\"issues\": [], \"strategies\": [],\n"
	    "\"signatures\": [\n{\"id\": \"bad-decode\", \"title\": \"t\","
	    " \"meaning\": \"m\", \"fix\": \"f\", \"check\": \"none\",\n"
	    " \"regex\": \"ab\", \"decode\": \"ecc\"}],\n"
	    "\"nvidia\": {\"gpus\": [], \"compute_capabilities\": [], "
	    "\"cuda_driver_min\": []}, \"workloads\": {}}\n",
	    "\"decode\" is one of", "t.json:7:");
	expect_error("{\"a\": 1, \"a\": 2}", "duplicate", "t.json:1:");
	/* the hardware lists discovery reads */
	expect_error(
	    HEAD SRCS
	    "\"targets\": [],\n\"pci_not_gpu\": [\n"
	    "{\"vendor_id\": \"0x1a03\", \"device_ids\": [\"0x2000\"], "
	    "\"kind\": \"gpu\", \"name\": \"n\"}],\n" TAIL,
	    "\"kind\" (bmc, emulated, npu, accelerator)", "t.json:");
	/* a vendor-wide entry needs a PCI base class, not a class code */
	expect_error(HEAD SRCS
		     "\"targets\": [],\n\"pci_not_gpu\": [\n"
		     "{\"vendor_id\": \"0x1da3\", \"class\": \"0x1200\", "
		     "\"kind\": \"accelerator\", \"name\": \"n\"}],\n" TAIL,
		     "\"class\" is a PCI base class", "t.json:");
	expect_error(HEAD SRCS
		     "\"targets\": [],\n\"pci_not_gpu\": [\n"
		     "{\"vendor_id\": \"0x1a03\", \"device_ids\": [\"2000\"], "
		     "\"kind\": \"bmc\", \"name\": \"n\"}],\n" TAIL,
		     "4 hex digits", "t.json:");
	expect_error(HEAD SRCS
		     "\"targets\": [],\n\"nvidia_chips\": [\n"
		     "{\"chips\": [\"GV100\"], \"arch\": \"Volta\"}],\n" TAIL,
		     "\"sm\"", "t.json:");
	/* intel.families: a value outside its set, an unknown source */
#define FAM(rt, src)                                                           \
	"\"intel\": {\"families\": [{\"id\": \"xe-hpg\", \"name\": \"n\", "    \
	"\"platforms\": [\"dg2-g10\"], \"match\": [\"Arc A\"], "               \
	"\"compute_runtime\": \"" rt "\", \"pytorch_xpu\": \"validated\", "    \
	"\"llamacpp_sycl\": true, \"vulkan\": \"anv\", \"note\": \"n\", "      \
	"\"sources\": [\"" src "\"]}]},\n"
	kb = gd_kb_parse(
	    HEAD SRCS "\"targets\": [],\n" FAM("current", "s1") TAIL,
	    strlen(HEAD SRCS "\"targets\": [],\n" FAM("current", "s1") TAIL),
	    "ok.json", err, sizeof err);
	CHECK(kb != NULL);
	if (kb) {
		struct gd_kb_intel_family f;

		CHECK_INT((int)gd_kb_intel_family_count(kb), 1);
		CHECK_INT(gd_kb_intel_family_at(kb, 0, &f), 0);
		CHECK_STR(f.id, "xe-hpg");
		CHECK_STR(f.vulkan, "anv");
		CHECK_INT(f.llamacpp_sycl, 1);
		CHECK_INT(gd_kb_intel_family_at(kb, 1, &f), -1);
	}
	gd_kb_free(kb);
	expect_error(HEAD SRCS "\"targets\": [],\n" FAM("newest", "s1") TAIL,
		     "intel.families[0]: needs", "t.json");
	expect_error(HEAD SRCS "\"targets\": [],\n" FAM("current", "nope") TAIL,
		     "intel.families[0]: needs", "t.json");
#undef FAM
	expect_error(HEAD SRCS "\"targets\": [],\n\"amd_no_kfd\": [\n"
			       "{\"gfx\": \"gfx601\", \"family\": \"SI\", "
			       "\"pci_ids\": [\"0x68100\"]}],\n" TAIL,
		     "4 hex digits", "t.json:");
}

/* gd_re_cost counts what regcomp builds: each bounded repeat copies what
 * it repeats, brackets and escapes are one piece whatever they hold. */
static void test_re_cost(void)
{
	gd_kb *kb = gd_kb_load_embedded();
	struct gd_kb_signature sg;
	uint64_t most = 0;

	CHECK(gd_re_cost("abc") == 3);
	CHECK(gd_re_cost("x{1000}") == 1000);
	CHECK(gd_re_cost("(a{200}){200}") == 40200);
	CHECK(gd_re_cost("((a{200}){200}){200}") > GD_RE_MAX_COST);
	CHECK(gd_re_cost("(x+){32767}") > GD_RE_MAX_COST);
	CHECK(gd_re_cost("a{,3}") == 3);
	/* '{' and '(' inside a bracket or after '\\' repeat nothing */
	CHECK(gd_re_cost("[{(]{3}") == 3);
	CHECK(gd_re_cost("[]a]{2}") == 2);
	CHECK(gd_re_cost("[[:digit:]]{4}") == 4);
	CHECK(gd_re_cost("\\{9999}") < 16);
	CHECK(gd_re_cost("a{99999999999999999999}") > GD_RE_MAX_COST);
	/* deeper nesting than regcomp should recurse is refused */
	CHECK(gd_re_cost("((((((((((((((((((((((((((((((((((a)))))))))))))"
			 "))))))))))))))))))))))") == UINT64_MAX);
	CHECK(gd_re_cost("((((((((a))))))))") == 9);
	/* the shipped signatures stay well inside the bound */
	CHECK(kb != NULL);
	for (size_t i = 0; kb && i < gd_kb_signature_count(kb); i++) {
		if (gd_kb_signature_at(kb, i, &sg) < 0)
			continue;
		if (gd_re_cost(sg.regex) > most)
			most = gd_re_cost(sg.regex);
		if (sg.unless && gd_re_cost(sg.unless) > most)
			most = gd_re_cost(sg.unless);
	}
	CHECK(most > 0 && most * 8 < GD_RE_MAX_COST);
	gd_kb_free(kb);
}

int main(void)
{
	test_re_cost();
	test_embedded();
	test_not_gpu();
	test_errors();
	return t_done("test_kb");
}
