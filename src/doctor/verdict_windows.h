/* Verdicts for an AMD GPU on Windows (HIP SDK + the driver's HIP runtime),
 * from discover/win_adapters.c and inventory/win_inventory.c facts. The
 * rules [windows-fleet.md §A; field report rdna1-ctranslate2-windows]:
 * an SDK works with the driver only when its HIP major equals the
 * driver's (amdhip64_N.dll); HIP_PATH is last-writer-wins and may name a
 * mismatched SDK; comgr must be present; rocBLAS needs Tensile kernels for
 * the GPU's target; Python >= 3.8 finds dependent DLLs only through
 * os.add_dll_directory, the app dir and System32, never PATH. */
#ifndef GD_VERDICT_WINDOWS_H
#define GD_VERDICT_WINDOWS_H

#include "discover/discover.h"
#include "inventory/win_inventory.h"

enum gd_win_level { GD_WIN_OK, GD_WIN_WARN, GD_WIN_BAD };

struct gd_win_line {
	enum gd_win_level level;
	char code[40]; /* stable: "win-sdk-mismatch", ... */
	char text[480];
};

#define GD_WIN_MAX_LINES 12

struct gd_win_verdict {
	int usable; /* 1: works as is with the recommended setup */
	char summary[320];
	int sdk; /* recommended SDK (index into inventory), -1 */
	struct gd_win_line facts[GD_WIN_MAX_LINES];
	int n_facts;
	struct gd_win_line steps[GD_WIN_MAX_LINES];
	int n_steps;
	char python[320]; /* the exact os.add_dll_directory line, "" */
};

/* The verdict status of the common JSON contract ("works", "needs-setup",
 * "workaround", "unknown") that a Windows verdict amounts to. */
const char *gd_win_verdict_status(const struct gd_win_verdict *v);

void gd_win_verdict_amd(const struct gd_gpu *g,
			const struct gd_win_inventory *wi,
			struct gd_win_verdict *v);

#endif
