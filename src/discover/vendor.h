/* discover/vendor: the GPU vendors gpudoctor knows, one row each in one
 * static const table (vendor.c): identity (PCI vendor id, names), the
 * discover hook that reads the vendor's own facts, and the GPU's code
 * target as compilers name it. The layers above keep their own per-vendor
 * tables keyed by the same enum (doctor/verdict.c: judge hooks; cli/
 * render_gpu.c: render hooks), because a lower layer cannot point at
 * their functions. DESIGN.md says what adding a vendor touches. */
#ifndef GD_VENDOR_H
#define GD_VENDOR_H

#include <stdint.h>

#include "discover.h"

struct gd_vendor_ops {
	enum gd_vendor id;
	uint32_t pci_vendor; /* 0x1002; 0 for "other" */
	const char *name;    /* "amd": JSON, kb strategies' "vendor" */
	const char *title;   /* "AMD": display names */
	/* Compute rules in doctor/: 1; 0 = "listed only" (its PCI facts are
	 * reported, no compute stack is judged). */
	int rules;
	/* The vendor's own facts after the PCI/KFD join, in two steps
	 * around the names (discover/ids.c): discover before, for facts
	 * that name the GPU (NVIDIA's Model line); named after, for facts
	 * that need the pci.ids chip name. NULL: none. */
	void (*discover)(gd_ctx *ctx, struct gd_gpu *g);
	void (*named)(gd_ctx *ctx, struct gd_gpu *g);
	/* After the integrated/discrete decision: an APU's shared system
	 * memory. NULL: unknown for this vendor. */
	void (*shared_memory)(struct gd_gpu *g);
	/* The code target compilers name ("gfx1010", "sm_90"); as_run: the
	 * one the runtime will run (after HSA_OVERRIDE_GFX_VERSION). "" when
	 * unknown or the vendor has none. */
	const char *(*code_target)(const struct gd_gpu *g, int as_run);
	/* The vendor's own compute backend as the probes name it ("hip",
	 * "cuda"), and the kernel module its runtime needs ("amdgpu",
	 * "nvidia"); NULL: none known. */
	const char *backend;
	const char *kernel_module;
	/* A second kernel module that drives the vendor's GPUs as well (Intel:
	 * "xe" beside "i915"); NULL: none. */
	const char *kernel_module_alt;
};

/* The row for v; the "other" row for an unknown value. Never NULL. */
const struct gd_vendor_ops *gd_vendor_ops(enum gd_vendor v);
/* The vendor whose own compute backend b is ("hip": AMD, "cuda": NVIDIA);
 * GD_VENDOR_OTHER for the vendor-neutral ones (Vulkan, OpenCL). */
enum gd_vendor gd_vendor_of_backend(const char *b);
/* The GPU's code target ("gfx1010", "sm_90", ""): its own, or the one its
 * runtime runs it as. */
const char *gd_gpu_code_target(const struct gd_gpu *g);
const char *gd_gpu_run_target(const struct gd_gpu *g);

#endif
