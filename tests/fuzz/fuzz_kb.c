/* libFuzzer target for the knowledge-base loader: any bytes must give a
 * kb or an error message, never a crash, leak or hang; a kb that loads
 * must answer every lookup. Inputs are cut at 8 KB: each input is a full
 * parse and validation, so its cost grows with its size, and the seeds
 * (one kb section each, corpus/fuzz_kb/README.md) are smaller than that. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kb/kb_raw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The typed entries of kb.h on whatever validated. */
static void typed(const gd_kb *kb)
{
	struct gd_kb_target t;
	struct gd_kb_strategy st;
	struct gd_kb_signature sg;
	struct gd_kb_driver_min rows[8];
	struct gd_kb_advice a;
	struct gd_kb_win_sdk_break wb;
	struct gd_kb_intel_family fam;
	const char *k, *v;
	char urls[256];

	if (gd_kb_target_get(kb, "gfx1010", &t) == 0) {
		gd_kb_source_urls(kb, t.sources, urls, sizeof urls);
		for (size_t i = 0; i < gd_kb_list_n(t.issues); i++)
			(void)gd_kb_list_at(t.issues, i);
	}
	(void)gd_kb_target_for_pci_get(kb, 0x731f, &t);
	for (size_t i = 0; i < gd_kb_strategy_count(kb); i++)
		if (gd_kb_strategy_at(kb, i, &st) == 0)
			for (size_t j = 0; gd_kb_env_at(&st, j, &k, &v) == 0;
			     j++)
				(void)v;
	for (size_t i = 0; i < gd_kb_signature_count(kb); i++)
		(void)gd_kb_signature_at(kb, i, &sg);
	(void)gd_kb_driver_mins(kb, rows, 8);
	(void)gd_kb_workload_get(kb, GD_KB_WL_PYTORCH, "cuda", &a);
	(void)gd_kb_workload_install_for(kb, GD_KB_WL_PYTORCH, "cuda", 12);
	(void)gd_kb_date(kb);
	for (size_t i = 0; i < gd_kb_win_sdk_break_count(kb); i++)
		if (gd_kb_win_sdk_break_at(kb, i, &wb) == 0)
			(void)gd_kb_list_n(wb.sdk);
	for (size_t i = 0; i < gd_kb_intel_family_count(kb); i++)
		if (gd_kb_intel_family_at(kb, i, &fam) == 0)
			(void)gd_kb_list_at(fam.match, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	gd_kb *kb;

	if (size > 8192)
		size = 8192;
	kb = gd_kb_parse((const char *)data, size, "fuzz", err, sizeof err);

	if (!kb) {
		/* The message is always terminated and names the input. */
		if (strncmp(err, "fuzz", 4))
			__builtin_trap();
		return 0;
	}
	(void)gd_kb_target(kb, "gfx1010");
	(void)gd_kb_target(kb, "gfx90a:xnack-");
	(void)gd_kb_target_for_pci(kb, 0x731f);
	(void)gd_kb_product_for_pci(kb, 0x731f);
	(void)gd_kb_target_for_version(kb, 100100);
	(void)gd_kb_source(kb, "rocm-2527");
	(void)gd_kb_issue(kb, "rocm-2527");
	(void)gd_kb_strategy(kb, "x");
	(void)gd_kb_signature(kb, "x");
	(void)gd_kb_nvidia_for_pci(kb, 0x2330);
	(void)gd_kb_nvidia_cc(kb, "sm_90");
	(void)gd_kb_nvidia_cc(kb, "9.0");
	typed(kb);
	gd_kb_free(kb);
	return 0;
}
