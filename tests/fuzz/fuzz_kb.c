/* libFuzzer target for the knowledge-base loader: any bytes must give a
 * kb or an error message, never a crash, leak or hang; a kb that loads
 * must answer every lookup. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kb/kb_raw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	gd_kb *kb = gd_kb_parse((const char *)data, size, "fuzz", err,
				sizeof err);

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
	gd_kb_free(kb);
	return 0;
}
