/* doctor/strategy: the workaround strategies worth trying on this machine,
 * read from the knowledge base (`strategies[]`, docs/kb.md) and matched to
 * the discovered GPUs: by gfx target ("targets"), by vendor ("vendor"), or
 * by a machine condition ("condition": "apu-beside-dgpu"). The list always
 * starts with "baseline" (no change). Strategies of kind "user-step"
 * (kernel parameters, firmware) are listed for the user, never applied.
 *
 * An env value may be the placeholder "{dgpus}", and the value of
 * ROCR_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES in an "apu-beside-dgpu"
 * strategy always is one (docs/kb.md): it becomes the ROCm ids of the
 * discrete AMD GPUs, comma-separated ("GPU-<unique_id>" for ROCR when the
 * unique id is known, else the KFD order index), so the APU is hidden
 * whatever its position. */
#ifndef GD_STRATEGY_H
#define GD_STRATEGY_H

#include "../discover/discover.h"
#include "profile.h"

enum gd_strategy_kind {
	GD_STRAT_BASELINE,  /* no change */
	GD_STRAT_ENV,	    /* environment changes, applied by run/try */
	GD_STRAT_USER_STEP, /* printed as steps, never applied */
};

struct gd_strategy {
	char id[128];
	enum gd_strategy_kind kind;
	int order;
	int gpu;		/* index in machine->gpus it is for, -1 none */
	char for_what[96];	/* "gfx1010", "nvidia", "APU beside dGPU" */
	struct gd_profile prof; /* the changes (kind ENV), named after id */
	char reason[512];
	char caveat[512];
	char steps[512];   /* user-step: the exact command or parameter */
	char sources[512]; /* source URLs, space-separated */
	int recommended;   /* kb "recommended": true: `run` applies it
			      when no profile was saved */
	/* user-step: "amdgpu.cwsr_enable=0" it sets, the kb kernel.firmware
	 * entry it is about; "" when none (verdict_strategy.c checks them
	 * against the machine) */
	char kernel_param[96];
	char firmware[64];
};

struct gd_strategy_list {
	GD_VEC(struct gd_strategy) v;
};

/* Fill out from ctx->kb (may be NULL) and the machine. A kb without
 * strategies, or none matching, leaves only "baseline". Bad kb entries are
 * skipped with a diagnostic in ctx. Returns 0 or -ENOMEM. */
int gd_strategy_candidates(gd_ctx *ctx, const struct gd_machine *m,
			   struct gd_strategy_list *out);
void gd_strategy_list_free(struct gd_strategy_list *l);

/* The ROCm ids of the discrete AMD GPUs, comma-separated: "GPU-<unique
 * id>" when uuid and the id is known, else the index in KFD order. */
void gd_strategy_dgpu_ids(const struct gd_machine *m, int uuid, char *buf,
			  size_t cap);
/* The first GPU a machine-level strategy should be saved for: the first
 * discrete AMD or NVIDIA GPU, else the first GPU; -1 when none. */
int gd_strategy_primary_gpu(const struct gd_machine *m);

/* Which profile `run` and `env` apply. */
enum gd_pick_origin {
	GD_PICK_NONE,	     /* nothing applies */
	GD_PICK_NAMED,	     /* --profile NAME */
	GD_PICK_SAVED,	     /* this GPU's saved profile */
	GD_PICK_RECOMMENDED, /* the kb's recommended strategy for this GPU */
};

struct gd_pick {
	enum gd_pick_origin origin;
	struct gd_profile prof;
	int gpu;	   /* index in the machine, -1 none */
	char gpu_name[96]; /* "gpu-1002-731f-gfx1010", "" without a GPU */
	char looked[4096]; /* the saved profile path looked for */
};

/* name: --profile NAME or NULL. m may be NULL when name is given; the
 * kb's recommended strategies come from ctx->kb. Saved profiles are looked up
 * for each GPU, the primary one first. Returns 0, or -errno with err (a missing
 * named profile, or a saved one that is refused or does not parse: never
 * silently skipped). */
int gd_profile_pick(gd_ctx *ctx, const char *name, const struct gd_machine *m,
		    struct gd_pick *pk, char *err, size_t errlen);
void gd_pick_free(struct gd_pick *pk);

#endif
