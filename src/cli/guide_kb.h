/* What `gpudoctor guide` reads from the knowledge base, as plain structs:
 * all kb access of the guide is in guide_kb.c, so a typed kb API replaces
 * one small file. Strings belong to the kb; NULL when the kb has none. */
#ifndef GD_GUIDE_KB_H
#define GD_GUIDE_KB_H

#include <stddef.h>

#include "kb/kb.h"

struct gd_guide_target {
	const char *gfx, *family, *product;
	const char *linux_status, *linux_since, *linux_note;
	const char *win_status, *win_since, *win_note;
	const char *override, *override_caveat;
	int apu;
};

struct gd_guide_advice {
	const char *verdict, *backend, *text, *install;
};

struct gd_guide_howto {
	const char *install, *caveats;
};

struct gd_guide_cc {
	const char *sm, *cc, *arch, *min_cuda, *last_cuda, *note;
};

struct gd_guide_driver {
	const char *cuda, *linux_min, *windows_min, *note;
};

const char *gd_guide_kb_date(const gd_kb *kb);
size_t gd_guide_targets(const gd_kb *kb, struct gd_guide_target *out,
			size_t max);
/* A target's own advice for a workload ("ctranslate2", "pytorch",
 * "llama.cpp"); 0, or -1 when there is none. */
int gd_guide_target_advice(const gd_kb *kb, const char *gfx,
			   const char *workload, struct gd_guide_advice *out);
/* How a workload is installed for a backend ("cuda", "rocm", "vulkan",
 * "cpu"); 0, or -1 when the kb has nothing. */
int gd_guide_workload(const gd_kb *kb, const char *workload,
		      const char *backend, struct gd_guide_howto *out);
size_t gd_guide_nvidia_ccs(const gd_kb *kb, struct gd_guide_cc *out,
			   size_t max);
size_t gd_guide_cuda_drivers(const gd_kb *kb, struct gd_guide_driver *out,
			     size_t max);

#endif
