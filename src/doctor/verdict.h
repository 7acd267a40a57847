/* doctor/: judgement. Joins the facts (discover, inventory, frameworks,
 * probes) with the knowledge base into one verdict per GPU with the facts
 * that led to it and numbered next steps for this machine. Prints nothing. */
#ifndef GD_VERDICT_H
#define GD_VERDICT_H

#include "codes.h"
#include "core/ctx.h"
#include "discover/discover.h"
#include "inventory/inventory.h"

enum gd_verdict_status {
	GD_V_WORKS, /* ML work runs on this GPU as the machine is */
	GD_V_SETUP, /* supported; the compute stack is missing or incomplete */
	GD_V_WORKAROUND, /* runs with a workaround (override, profile, build) */
	GD_V_UNSUPPORTED, /* ROCm/CUDA will not work: use Vulkan or the CPU */
	GD_V_UNKNOWN,	  /* not enough facts */
	GD_V_CPU,	  /* no GPU at all */
};
const char *gd_verdict_status_name(enum gd_verdict_status s); /* "works", ... */

/* A fact or step: its stable code (codes.h) and its sentence. */
struct gd_line {
	enum gd_code code;
	char text[600];
};
typedef GD_VEC(struct gd_line) gd_lines;

struct gd_workload_advice {
	enum gd_code code; /* advice.target or advice.stack */
	char workload[32]; /* "ctranslate2", "pytorch", "llama.cpp" */
	char verdict[32];  /* "works", "workaround", "no", "cpu", "unknown" */
	char backend[32];  /* "ROCm", "CUDA", "Vulkan", "CPU" */
	char text[600];
	char install[400];
};

/* A kb source as the verdict cites it, resolved here so that no renderer
 * goes back to the kb. title "" when the kb has none (renderers show the
 * id), url "" for sources without a public page (field reports). */
struct gd_verdict_source {
	char id[128];
	char title[512];
	char url[512];
};

struct gd_verdict {
	int gpu_index; /* -1 for the machine-wide CPU verdict */
	enum gd_verdict_status status;
	char headline[600]; /* "label: reason", as the reports print it */
	char label[300];    /* the GPU as named: "X (RDNA 1, gfx1010)" */
	char reason[600];   /* why, without the label */
	gd_lines facts;
	gd_lines steps;
	GD_VEC(struct gd_workload_advice) workloads;
	GD_VEC(struct gd_verdict_source) sources; /* in order of first use */
};

/* Extra evidence folded into verdicts: one line each from the probe and
 * framework layers, for GPUs of one vendor (or all when vendor is
 * GD_VENDOR_OTHER). A probe line with a level can change a verdict: a
 * backend that really worked makes the GPU "works", one that hung or
 * crashed turns "works" into "workaround". */
enum gd_evidence_level {
	GD_EV_INFO,   /* a fact, nothing more */
	GD_EV_WORKS,  /* the backend ran every op right on this vendor's GPU */
	GD_EV_BROKEN, /* init or an op failed, hung or crashed */
	GD_EV_STEP,   /* something to fix: the text becomes a step, "works"
			 becomes "needs-setup" */
};

struct gd_evidence_line {
	enum gd_vendor vendor;
	enum gd_evidence_level level;
	enum gd_code code; /* carried by the fact or step it becomes */
	const char *text;
};

struct gd_evidence {
	const struct gd_evidence_line *lines;
	size_t n;
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

/* The kb's run-time (dlopen) dependencies of each runtime library
 * (libraries[].dlopens: libGLX_nvidia.so.0 -> libEGL.so.1) checked into
 * inv's dependency checks. Run by cli right after gd_inventory_collect,
 * like gd_doctor_cuda (gather too, so a capture holds what it reads). */
void gd_doctor_deps(gd_ctx *ctx, struct gd_inventory *inv);

#endif
