/* doctor/evidence: what the probes and the installed frameworks say about
 * the GPUs, judged here from their structured results (struct
 * gd_probe_report, struct gd_frameworks, the inventory's CUDA facts) into
 * evidence lines with a level, which gd_doctor_judge folds into the
 * verdicts. cli/ collects the inputs and prints; it decides nothing. */
#ifndef GD_EVIDENCE_H
#define GD_EVIDENCE_H

#include <stddef.h>

#include "inventory/frameworks.h"
#include "probe/probe.h"
#include "verdict.h"

enum gd_probe_level {
	GD_PV_WORKS,	/* every op ran right on a hardware device */
	GD_PV_SOFTWARE, /* works, but on the CPU (llvmpipe, PoCL) */
	GD_PV_PARTIAL,	/* some ops fail, wrong, hang */
	GD_PV_BROKEN,	/* init fails, hangs or crashes */
	GD_PV_ABSENT,	/* library missing / no device: nothing to judge */
};

struct gd_probe_verdict {
	char backend[16];
	enum gd_probe_level level;
	char text[320]; /* "Vulkan works on llvmpipe (software): CPU only" */
	/* a failed init's cause (gd_probe_judge, probe_cause.h), "" when
	 * the report was not judged or init did not fail */
	char cause_code[48];
	char cause[400];
	char fix[320];
};

/* One verdict per backend that has results, in report order; returns how
 * many were written (at most max). */
size_t gd_probe_verdicts(const struct gd_probe_report *r,
			 struct gd_probe_verdict *out, size_t max);

/* Whether a backend's failed init means "this machine has no device for
 * it" (nothing to judge) rather than a broken runtime. */
int gd_probe_init_says_no_device(const struct gd_probe_result *init);

#define GD_EVIDENCE_MAX 64

/* Evidence lines with their texts (owned). */
struct gd_evidence_set {
	struct gd_evidence_line ev[GD_EVIDENCE_MAX];
	char *texts[GD_EVIDENCE_MAX];
	size_t n;
};

/* Frameworks: code missing for a GPU, HIP majors that do not match, a
 * library not found, and a CUDA build newer than the driver runs. */
void gd_evidence_frameworks(gd_ctx *ctx, const struct gd_inventory *inv,
			    const struct gd_frameworks *fws,
			    struct gd_evidence_set *s);
/* Probes: only a vendor's own runtime proves or disproves its GPU. */
void gd_evidence_probes(const struct gd_probe_report *r,
			struct gd_evidence_set *s);
void gd_evidence_view(const struct gd_evidence_set *s, struct gd_evidence *ev);
void gd_evidence_free(struct gd_evidence_set *s);

#endif
