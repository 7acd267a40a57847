/* Internal to doctor/: helpers shared by the per-vendor verdict rules. */
#ifndef GD_VERDICT_UTIL_H
#define GD_VERDICT_UTIL_H

#include "kb/kb.h"
#include "verdict.h"

void gd_v_fact(struct gd_verdict *v, enum gd_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void gd_v_step(struct gd_verdict *v, enum gd_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The headline "label: reason", with label and reason kept as fields. */
void gd_v_headline(struct gd_verdict *v, const char *label, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));
void gd_v_source(struct gd_verdict *v, const char *id);
/* The fact of an NVIDIA architecture no current CUDA supports (last: its
 * last CUDA), the same on Linux and Windows. */
void gd_v_nv_legacy_text(const struct gd_gpu *g, const char *last, char *buf,
			 size_t cap);
void gd_v_sources(struct gd_verdict *v, struct gd_kb_list ids);
/* Titles and URLs of the cited sources, from the kb (once, at the end). */
void gd_v_resolve_sources(gd_ctx *ctx, struct gd_verdict *v);
void gd_v_gpu_title(const struct gd_gpu *g, const struct gd_kb_target *t,
		    char *buf, size_t cap);
void gd_v_access_steps(struct gd_verdict *v, const struct gd_gpu *g);
int gd_v_access_blocked(const struct gd_gpu *g);
const struct gd_rocm_install *gd_v_rocm_pick(const struct gd_inventory *inv);
void gd_v_rocblas_facts(struct gd_verdict *v, const struct gd_inventory *inv,
			const char *gfx, int *covered);
void gd_v_known_issues(gd_ctx *ctx, struct gd_verdict *v,
		       const struct gd_kb_target *t);
void gd_v_workload_advice(struct gd_verdict *v, const struct gd_kb_target *t);
/* Some workload's advice has this verdict (and this backend, unless NULL). */
int gd_v_advice_any(const struct gd_verdict *v, const char *verdict,
		    const char *backend);
/* Per-workload advice for a whole stack ("cpu", "cuda") from kb workloads,
 * each with the given verdict ("works", "needs-setup", "cpu", ...). */
void gd_v_workloads_for_stack(gd_ctx *ctx, struct gd_verdict *v,
			      const char *stack, const char *verdict);

void gd_v_judge_amd(gd_ctx *ctx, const struct gd_machine *m,
		    const struct gd_inventory *inv, const struct gd_gpu *g,
		    struct gd_verdict *v);
/* The kernel state beneath each GPU (verdict_kernel.c): module parameters,
 * driver bound, Secure Boot, firmware, kernel ranges, APU memory. */
void gd_v_kernel(gd_ctx *ctx, const struct gd_machine *m,
		 struct gd_diagnosis *d);
void gd_v_kernel_fw(gd_ctx *ctx, struct gd_verdict *v, const struct gd_gpu *g);
void gd_v_kernel_mem(gd_ctx *ctx, struct gd_verdict *v,
		     const struct gd_machine *m, const struct gd_gpu *g);
/* "amdgpu.cwsr_enable=0" in force on this machine? */
int gd_v_kparam_in_force(const struct gd_kstate *k, const char *mpv);
/* Steps from the kb's workaround strategies (verdict_strategy.c). */
void gd_v_strategies(gd_ctx *ctx, const struct gd_machine *m,
		     struct gd_diagnosis *d);
/* Facts and steps for runtime libraries that would not load
 * (verdict_deps.c), on the verdicts of the vendor each belongs to. */
/* "libegl1 (Debian/Ubuntu) or libglvnd-egl (Fedora)": the packages the
 * kb's libraries[] names for soname ("" when it names none); 1 when the kb
 * has an entry (its sources in *sources when not NULL), else 0. */
int gd_doctor_packages(const gd_kb *kb, const char *soname, char *out,
		       size_t cap, struct gd_kb_list *sources);
void gd_v_deps(gd_ctx *ctx, const struct gd_machine *m,
	       const struct gd_inventory *inv, struct gd_diagnosis *d);
/* WSL2's (and Hyper-V's) GPU paravirtualization adapter, 1414:008e:
 * judged as the Windows host's GPU (verdict_wsl.c); 0 when g is not it. */
int gd_v_judge_wsl(gd_ctx *ctx, const struct gd_machine *m,
		   const struct gd_gpu *g, struct gd_verdict *v);
/* The kb intel.families entry of the GPU's family (discover/intel.c), or
 * -1 (f zeroed) when none matched. */
int gd_v_intel_family_of(gd_ctx *ctx, const struct gd_gpu *g,
			 struct gd_kb_intel_family *f);
void gd_v_judge_intel(gd_ctx *ctx, const struct gd_machine *m,
		      const struct gd_inventory *inv, const struct gd_gpu *g,
		      struct gd_verdict *v);
/* An NVIDIA GPU in a container started without it, or without the
 * driver's libcuda.so.1 (verdict_container.c): 1 when judged so. */
/* The GPU's own nodes (verdict_nvnodes.c): 1 when v was filled. */
int gd_v_nvidia_nodes(gd_ctx *ctx, const struct gd_gpu *g, const char *title,
		      struct gd_verdict *v);
int gd_v_nvidia_container(gd_ctx *ctx, const struct gd_gpu *g,
			  const char *title, struct gd_verdict *v);
void gd_v_judge_nvidia(gd_ctx *ctx, const struct gd_inventory *inv,
		       const struct gd_gpu *g, struct gd_verdict *v);

/* verdict_legacy.c: an AMD GPU older than GCN (embedded ids: an
 * architecture, no gfx target) judged unsupported; 1 when judged. */
int gd_v_amd_pre_gcn(gd_ctx *ctx, const struct gd_gpu *g, const char *title,
		     struct gd_verdict *v);

#endif
