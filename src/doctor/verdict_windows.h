/* Verdicts for an AMD GPU on Windows (HIP SDK + the driver's HIP runtime),
 * from discover/win_adapters.c and inventory/win_inventory.c facts. The
 * rules [docs/windows.md §A; docs/windows.md §F]:
 * an SDK works with the driver only when its HIP major equals the
 * driver's (amdhip64_N.dll); HIP_PATH is last-writer-wins and may name a
 * mismatched SDK; comgr must be present; rocBLAS needs Tensile kernels for
 * the GPU's target; Python >= 3.8 finds dependent DLLs only through
 * os.add_dll_directory, the app dir and System32, never PATH. */
#ifndef GD_VERDICT_WINDOWS_H
#define GD_VERDICT_WINDOWS_H

#include "codes.h"
#include "cuda_driver.h"
#include "discover/discover.h"
#include "inventory/win_inventory.h"
#include "inventory/win_python.h"
#include "profile.h"

enum gd_win_level { GD_WIN_OK, GD_WIN_WARN, GD_WIN_BAD };

struct gd_win_line {
	enum gd_win_level level;
	enum gd_code code; /* stable: GD_C_WIN_SDK_MISMATCH, ... (codes.h) */
	char text[600];
};

#define GD_WIN_MAX_LINES 16

struct gd_win_verdict {
	int judged; /* 0: no Windows judge for the GPU's vendor */
	/* what an app runs on: "ROCm", "CUDA", "CPU" (the judge's row) */
	const char *backend;
	int usable; /* 1: works as is with the recommended setup */
	char summary[320];
	int sdk; /* recommended SDK (index into inventory), -1 */
	struct gd_win_line facts[GD_WIN_MAX_LINES];
	int n_facts;
	struct gd_win_line steps[GD_WIN_MAX_LINES];
	int n_steps;
	char python[320]; /* the exact os.add_dll_directory line, "" */
	/* installed SDKs a kb windows.hip_sdk entry says do not see this
	 * GPU (verdict_windows_kb.c), with its text and issue URL */
	int sdk_broken[GD_WIN_MAX_SDKS];
	char sdk_broken_why[GD_WIN_MAX_SDKS][400];
	char sdk_broken_ref[GD_WIN_MAX_SDKS][64]; /* "ROCm/hip#3899" */
	char cuda_level[16]; /* NVIDIA: the CUDA the driver runs, "12.x" */
	/* the target is not in AMD's HIP SDK for Windows support list and
	 * no Windows route is known (verdict_windows_target.c) */
	int unsupported;
};

/* The verdict status of the common JSON contract ("works", "needs-setup",
 * "workaround", "unknown") that a Windows verdict amounts to. */
const char *gd_win_verdict_status(const struct gd_win_verdict *v);

/* The judge of g's vendor (the table in verdict_windows.c); a GPU of a
 * vendor without one gets an unjudged verdict ("not judged on Windows
 * yet", v->judged 0). */
void gd_win_judge(gd_ctx *ctx, const struct gd_gpu *g,
		  const struct gd_win_inventory *wi,
		  const struct gd_win_python *py, struct gd_win_verdict *v);

/* x as the one verdict model (verdict_windows_common.c): status, headline,
 * facts, steps; the kb's advice for the GPU code the steps rebuild, the
 * CPU fallback, and their sources. 0, or -1 out of memory. */
struct gd_verdict;
int gd_win_common(gd_ctx *ctx, const struct gd_gpu *g,
		  const struct gd_win_verdict *x, struct gd_verdict *v);

/* py: the Python frameworks (NULL: not looked at), judged against the
 * driver's HIP major: a DLL importing another amdhip64_N.dll, an import
 * Python would not find. ctx: for the kb's known SDK breaks (may be
 * NULL). */
void gd_win_verdict_amd(gd_ctx *ctx, const struct gd_gpu *g,
			const struct gd_win_inventory *wi,
			const struct gd_win_python *py,
			struct gd_win_verdict *v);

/* The kb's nvidia.cuda_driver_min with the Windows minimums (windows
 * column; a bare branch number like "580" from the linux column, which
 * NVIDIA's table gives for both systems). */
void gd_win_cuda_min_table(gd_ctx *ctx, struct gd_cuda_min_table *t);

/* NVIDIA on Windows: nvcuda.dll, the driver's CUDA level, each Python
 * framework's CUDA against the driver (verdict_windows_nv.c). */
/* Intel (verdict_windows_intel.c): the family's PyTorch XPU and Vulkan. */
void gd_win_verdict_intel(gd_ctx *ctx, const struct gd_gpu *g,
			  const struct gd_win_inventory *wi,
			  const struct gd_win_python *py,
			  struct gd_win_verdict *v);
void gd_win_verdict_nvidia(gd_ctx *ctx, const struct gd_gpu *g,
			   const struct gd_win_inventory *wi,
			   const struct gd_win_python *py,
			   struct gd_win_verdict *v);

/* Lines shared by the two judges (verdict_windows.c). */
void gd_win_fact(struct gd_win_verdict *v, enum gd_win_level lvl,
		 enum gd_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void gd_win_step(struct gd_win_verdict *v, enum gd_code code, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));
/* verdict_windows_py.c: the AMD framework facts (a DLL importing another
 * HIP major than the driver's, an import Python would not find), and the
 * rebuild step for such a framework (returns 1 when it gave one). */
void gd_win_python_amd_facts(const struct gd_win_inventory *wi,
			     const struct gd_win_python *py,
			     struct gd_win_verdict *v);
int gd_win_python_amd_steps(const struct gd_gpu *g,
			    const struct gd_win_inventory *wi,
			    const struct gd_win_python *py,
			    struct gd_win_verdict *v);
/* verdict_windows_env.c: the profile `env` / `run` apply for an AMD
 * verdict with a matching SDK (HIP_PATH set to it, its bin first on PATH,
 * the Python line as a note); 0, or -1 without one. p initialised. */
int gd_win_profile(const struct gd_win_inventory *wi,
		   const struct gd_win_verdict *v, struct gd_profile *p);
/* The same choice as data (app_fields.h): HIP_PATH, PATH and the DLL
 * directory of the verdict's SDK; w->any 0 without one. */
struct gd_workaround;
void gd_win_workaround(const struct gd_win_inventory *wi,
		       const struct gd_win_verdict *v, struct gd_workaround *w);
/* A Python string literal of s: r"..." when exact, else escaped '...'. */
void gd_win_py_literal(const char *s, char *buf, size_t cap);
/* os.add_dll_directory(<literal of dir>) */
void gd_win_python_line(const char *dir, char *buf, size_t cap);

/* verdict_windows_kb.c: marks the installed SDKs a kb windows.hip_sdk
 * entry says do not see g (v->sdk_broken; ctx NULL or no kb: none), and
 * a bad fact for each. */
void gd_win_sdk_breaks(gd_ctx *ctx, const struct gd_gpu *g,
		       const struct gd_win_inventory *wi,
		       struct gd_win_verdict *v);
void gd_win_sdk_broken_facts(const struct gd_gpu *g,
			     const struct gd_win_inventory *wi,
			     struct gd_win_verdict *v);

/* verdict_windows_target.c: the target's place in AMD's HIP SDK for
 * Windows support list (kb rocm_windows), said first. Returns 1 when that
 * is the whole verdict (unsupported, no Windows route), else 0 (a
 * community route: a fact, and the judgement goes on). */
int gd_win_target_support(gd_ctx *ctx, const struct gd_gpu *g,
			  const struct gd_win_inventory *wi,
			  struct gd_win_verdict *v);

/* verdict_windows_app.c: application folders with their own HIP runtime
 * DLL (inventory wi->apps): a fact each (bad when older than System32's
 * copy of the same name; returns how many are), the rename step for
 * those, and the summary naming the first (1 when it wrote one). */
int gd_win_app_facts(const struct gd_gpu *g, const struct gd_win_inventory *wi,
		     struct gd_win_verdict *v);
void gd_win_app_steps(const struct gd_win_inventory *wi,
		      struct gd_win_verdict *v);
int gd_win_app_summary(const struct gd_gpu *g,
		       const struct gd_win_inventory *wi,
		       struct gd_win_verdict *v);

/* No HIP runtime in System32, but a framework whose wheels bring one
 * (TheRock): judged on that runtime; 1 when it applied. */
int gd_win_python_bundled(const struct gd_gpu *g,
			  const struct gd_win_inventory *wi,
			  const struct gd_win_python *py,
			  struct gd_win_verdict *v);
/* A framework built for the other vendor (vendor: "NVIDIA" flags CUDA
 * builds, "AMD" ROCm builds): a warning, it runs on the CPU. */
void gd_win_other_gpu(const struct gd_win_python *py,
		      const struct gd_winpy_fw *fw, const char *vendor,
		      struct gd_win_verdict *v);
/* A fact per import of fw's DLLs that the loader finds nowhere (HIP
 * runtimes left to the HIP judgement when wi is given). */
void gd_win_python_missing(const struct gd_win_inventory *wi,
			   const struct gd_win_python *py,
			   const struct gd_winpy_fw *fw,
			   struct gd_win_verdict *v);
/* "torch 2.9.0+cu130 in C:\...\envs\x (conda)" */
void gd_win_fw_label(const struct gd_win_python *py,
		     const struct gd_winpy_fw *fw, char *buf, size_t cap);

#endif
