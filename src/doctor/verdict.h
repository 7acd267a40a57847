/* doctor/: judgement. Joins the facts (discover, inventory, frameworks,
 * probes) with the knowledge base into one verdict per GPU with the facts
 * that led to it and numbered next steps for this machine. Prints nothing. */
#ifndef GD_VERDICT_H
#define GD_VERDICT_H

#include "core/ctx.h"
#include "discover/discover.h"
#include "inventory/inventory.h"

enum gd_verdict_status {
	GD_V_WORKS,       /* ML work runs on this GPU as the machine is */
	GD_V_SETUP,       /* supported; the compute stack is missing or incomplete */
	GD_V_WORKAROUND,  /* runs with a workaround (override, profile, build) */
	GD_V_UNSUPPORTED, /* ROCm/CUDA will not work: use Vulkan or the CPU */
	GD_V_UNKNOWN,     /* not enough facts */
	GD_V_CPU,         /* no GPU at all */
};
const char *gd_verdict_status_name(enum gd_verdict_status s); /* "works", ... */

struct gd_line {
	char text[600];
};
typedef GD_VEC(struct gd_line) gd_lines;

struct gd_workload_advice {
	char workload[32]; /* "ctranslate2", "pytorch", "llama.cpp" */
	char verdict[32];  /* "works", "workaround", "no", "cpu", "unknown" */
	char backend[32];  /* "ROCm", "CUDA", "Vulkan", "CPU" */
	char text[600];
	char install[400];
};

struct gd_verdict {
	int gpu_index;          /* -1 for the machine-wide CPU verdict */
	enum gd_verdict_status status;
	char headline[600];
	gd_lines facts;
	gd_lines steps;
	GD_VEC(struct gd_workload_advice) workloads;
	gd_lines sources; /* kb source ids, in order of first use */
};

/* Extra evidence folded into verdicts when present (may be NULL). Each is
 * one line of text per GPU index or backend from the probe / framework
 * layers; the doctor attaches them as facts or steps. */
struct gd_evidence {
	const char *const *probe_lines; /* "Vulkan works on ...", NULL-terminated */
	const char *const *framework_lines;
};

struct gd_diagnosis {
	struct gd_verdict *v;
	size_t n;
	int any_gpu, any_works;
};

int gd_doctor_judge(gd_ctx *ctx, const struct gd_machine *m,
		    const struct gd_inventory *inv,
		    const struct gd_evidence *ev, struct gd_diagnosis *out);
void gd_diagnosis_free(struct gd_diagnosis *d);

#endif
