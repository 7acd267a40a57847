/* gd_win_verdict_amd (verdict_windows.h). */
#include "verdict_windows.h"

#include "discover/vendor.h"

#include <stdarg.h>
#include <string.h>

static void vadd(struct gd_win_line *l, int *n, enum gd_win_level lvl,
		 enum gd_code code, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

static void vadd(struct gd_win_line *l, int *n, enum gd_win_level lvl,
		 enum gd_code code, const char *fmt, va_list ap)
{
	if (*n >= GD_WIN_MAX_LINES)
		return;
	l += (*n)++;
	l->level = lvl;
	l->code = code;
	gd_vfmt(l->text, sizeof l->text, fmt, ap);
}

void gd_win_fact(struct gd_win_verdict *v, enum gd_win_level lvl,
		 enum gd_code code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(v->facts, &v->n_facts, lvl, code, fmt, ap);
	va_end(ap);
}

void gd_win_step(struct gd_win_verdict *v, enum gd_code code, const char *fmt,
		 ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(v->steps, &v->n_steps, GD_WIN_WARN, code, fmt, ap);
	va_end(ap);
}

#define FACT(v, lvl, code, ...) gd_win_fact(v, lvl, code, __VA_ARGS__)
#define STEP(v, code, ...) gd_win_step(v, code, __VA_ARGS__)

static int sdk_major(const struct gd_win_sdk *s)
{
	return s->runtime_major ? s->runtime_major : s->major;
}

/* The driver ships a runtime of the SDK's HIP major (recent drivers put
 * amdhip64_6.dll and amdhip64_7.dll side by side, docs/windows.md A.2). */
static int matches(const struct gd_win_inventory *wi,
		   const struct gd_win_sdk *s)
{
	for (int i = 0; i < wi->n_sys_runtimes; i++)
		if (gd_win_hip_major(wi->sys_runtimes[i]) == sdk_major(s))
			return 1;
	return 0;
}

/* The SDK to use: of the driver's HIP majors (without a System32 runtime:
 * one whose bin holds its own), not known broken for this GPU (kb), the
 * newest; -1 when none. */
static int pick_sdk(const struct gd_win_inventory *wi,
		    const struct gd_win_verdict *v)
{
	int best = -1;

	for (int i = 0; i < wi->n_sdks; i++) {
		const struct gd_win_sdk *s = &wi->sdks[i], *b;

		if (v->sdk_broken[i] ||
		    !(wi->driver_hip_major ? matches(wi, s)
					   : s->runtime[0] != 0))
			continue;
		b = best < 0 ? NULL : &wi->sdks[best];
		if (!b || sdk_major(s) > sdk_major(b) ||
		    (sdk_major(s) == sdk_major(b) && s->minor > b->minor))
			best = i;
	}
	return best;
}

/* Not the SDK to use: another major than the driver's, or known broken. */
static int avoid(const struct gd_win_inventory *wi,
		 const struct gd_win_verdict *v, int i)
{
	return v->sdk_broken[i] ||
	       (wi->driver_hip_major && !matches(wi, &wi->sdks[i]));
}

static void runtime_facts(const struct gd_win_inventory *wi,
			  struct gd_win_verdict *v)
{
	if (!wi->driver_hip_major && v->sdk >= 0) {
		FACT(v, GD_WIN_WARN, GD_C_WIN_NO_DRIVER_HIP,
		     "no HIP runtime (amdhip64*.dll) in System32 (not "
		     "captured, or the driver ships none): HIP SDK %s's "
		     "programs load %s from its bin",
		     wi->sdks[v->sdk].version, wi->sdks[v->sdk].runtime);
		return;
	}
	if (!wi->driver_hip_major && !wi->sys32_listed) {
		/* a registry-only capture: no file was captured, so neither
		 * the driver's runtime nor an SDK can be judged absent */
		FACT(v, GD_WIN_WARN, GD_C_WIN_HIP_UNCHECKED,
		     "the HIP runtime (amdhip64*.dll in System32, from AMD "
		     "Software) and the HIP SDK could not be checked: this "
		     "capture holds no file listing (no fs/ part)");
		return;
	}
	if (!wi->driver_hip_major) {
		FACT(v, GD_WIN_BAD, GD_C_WIN_NO_DRIVER_HIP,
		     "no HIP runtime (amdhip64*.dll) in System32: the AMD "
		     "driver provides it; install or update AMD Software");
		return;
	}
	FACT(v, GD_WIN_OK, GD_C_WIN_DRIVER_HIP,
	     "the AMD driver provides HIP %d (%s in System32)",
	     wi->driver_hip_major, wi->sys_runtimes[wi->n_sys_runtimes - 1]);
	for (int i = 0; i < wi->n_sdks; i++) {
		const struct gd_win_sdk *s = &wi->sdks[i];

		if (matches(wi, s))
			FACT(v, GD_WIN_OK, GD_C_WIN_SDK_MATCH,
			     "HIP SDK %s (%s) matches the driver's HIP %d",
			     s->version, s->runtime[0] ? s->runtime : "HIP",
			     sdk_major(s));
		else
			FACT(v, GD_WIN_BAD, GD_C_WIN_SDK_MISMATCH,
			     "HIP SDK %s is HIP %d (%s); the driver provides "
			     "HIP %d: programs built with it see 0 devices%s",
			     s->version, sdk_major(s),
			     s->runtime[0] ? s->runtime : "no runtime DLL",
			     wi->driver_hip_major,
			     s->comgr[0] ? ""
					 : "; its bin also lacks amd_comgr, "
					   "without which HIP reports no "
					   "ROCm-capable device");
	}
}

static void hip_path_fact(const struct gd_gpu *g,
			  const struct gd_win_inventory *wi,
			  struct gd_win_verdict *v)
{
	const struct gd_win_sdk *hp;

	if (!wi->hip_path[0] || wi->hip_path_sdk < 0 ||
	    !avoid(wi, v, wi->hip_path_sdk))
		return;
	hp = &wi->sdks[wi->hip_path_sdk];
	FACT(v, GD_WIN_BAD, GD_C_WIN_HIP_PATH_DISTRUST,
	     "HIP_PATH points to HIP SDK %s (the last SDK installed wins "
	     "it), which %s%s: do not trust HIP_PATH%s%s",
	     hp->version,
	     v->sdk_broken[wi->hip_path_sdk] ? "does not see "
					     : "does not "
					       "match the "
					       "driver",
	     v->sdk_broken[wi->hip_path_sdk] ? g->gfx : "",
	     v->sdk >= 0 && wi->sdks[v->sdk].env_var[0] ? "; use " : "",
	     v->sdk >= 0 ? wi->sdks[v->sdk].env_var : "");
}

static void sdk_facts(const struct gd_gpu *g, const struct gd_win_inventory *wi,
		      struct gd_win_verdict *v)
{
	const struct gd_win_sdk *s = &wi->sdks[v->sdk];
	char list[GD_WIN_MAX_TARGETS * 9] = "";
	int has = 0;

	if (!s->comgr[0] && !wi->n_sys_comgr)
		FACT(
		    v, GD_WIN_BAD, GD_C_WIN_NO_COMGR,
		    "amd_comgr is missing (neither in %s\\bin nor System32): "
		    "every GPU reports \"no ROCm-capable device\"; install the "
		    "full SDK including the HIP Runtime Compiler",
		    s->root);
	if (!s->has_rocblas || !g->gfx[0])
		return;
	for (int i = 0; i < s->n_tensile; i++) {
		has |= !strcmp(s->tensile[i], g->gfx);
		gd_fmt(list + strlen(list), sizeof list - strlen(list), "%s%s",
		       i ? ", " : "", s->tensile[i]);
	}
	if (has)
		FACT(v, GD_WIN_OK, GD_C_WIN_ROCBLAS_COVERAGE,
		     "rocBLAS in SDK %s has %s kernels", s->version, g->gfx);
	else if (s->library_listed)
		FACT(v, GD_WIN_BAD, GD_C_WIN_ROCBLAS_NO_TARGET,
		     "rocBLAS in SDK %s has no %s kernels "
		     "(bin\\rocblas\\library "
		     "has %s)",
		     s->version, g->gfx, list[0] ? list : "none");
}

/* The rebuild step when no framework's own step says it: HIP code built
 * for an SDK the driver does not match, or for one known broken here. */
static void build_step(const struct gd_gpu *g,
		       const struct gd_win_inventory *wi,
		       struct gd_win_verdict *v)
{
	const struct gd_win_sdk *s = &wi->sdks[v->sdk];
	int other = 0, broken = -1;

	for (int i = 0; i < wi->n_sdks; i++) {
		if (v->sdk_broken[i] && broken < 0)
			broken = i;
		if (wi->driver_hip_major && !matches(wi, &wi->sdks[i]) &&
		    sdk_major(&wi->sdks[i]) > other)
			other = sdk_major(&wi->sdks[i]);
	}
	if (broken >= 0)
		STEP(v, GD_C_WIN_BUILD_FOR_TARGET,
		     "build and run HIP programs with HIP SDK %s targeting %s "
		     "(they load amdhip64_%d.dll; e.g. CTranslate2 from source "
		     "with CMAKE_HIP_ARCHITECTURES=%s): programs built with "
		     "HIP SDK %s (%s) see no %s device until a release with "
		     "the fix for %s ships",
		     s->version, g->gfx, sdk_major(s), g->gfx,
		     wi->sdks[broken].version,
		     wi->sdks[broken].runtime[0] ? wi->sdks[broken].runtime
						 : "its runtime",
		     g->gfx, v->sdk_broken_ref[broken]);
	else if (other)
		STEP(
		    v, GD_C_WIN_BUILD_FOR_TARGET,
		    "build the GPU code against HIP SDK %s targeting %s (e.g. "
		    "CTranslate2 from source with CMAKE_HIP_ARCHITECTURES=%s): "
		    "wheels built for HIP %d import amdhip64_%d.dll, which the "
		    "driver does not provide",
		    s->version, g->gfx, g->gfx, other, other);
	else
		STEP(v, GD_C_WIN_BUILD_FOR_TARGET,
		     "build the GPU code against HIP SDK %s targeting %s (e.g. "
		     "CTranslate2 from source with CMAKE_HIP_ARCHITECTURES=%s)",
		     s->version, g->gfx, g->gfx);
}

/* s inside a PowerShell single-quoted string: ' doubled. */
static void ps_quote(const char *s, char *buf, size_t cap)
{
	size_t o = 0;

	for (; *s && o + 3 < cap; s++) {
		if (*s == '\'')
			buf[o++] = '\'';
		buf[o++] = *s;
	}
	buf[o] = '\0';
}

static void steps(const struct gd_gpu *g, const struct gd_win_inventory *wi,
		  const struct gd_win_python *py, struct gd_win_verdict *v)
{
	const struct gd_win_sdk *s = &wi->sdks[v->sdk];
	char not [64] = "", why[160], bin[200];

	for (int i = 0; i < wi->n_sdks; i++)
		if (avoid(wi, v, i))
			gd_fmt(not +strlen(not ), sizeof not -strlen(not ),
			       "%s%s", not [0] ? ", " : ", not ",
			       wi->sdks[i].version);
	if (wi->driver_hip_major)
		gd_fmt(why, sizeof why, "its HIP %d is the driver's",
		       sdk_major(s));
	else
		gd_fmt(why, sizeof why,
		       "its bin holds the %s its programs load", s->runtime);
	STEP(v, GD_C_WIN_USE_SDK, "use HIP SDK %s (%s)%s: %s", s->version,
	     s->root, not, why);
	if (wi->hip_path_sdk >= 0 && wi->hip_path_sdk != v->sdk) {
		char ps[400];

		ps_quote(s->root, ps, sizeof ps);
		STEP(v, GD_C_WIN_HIP_PATH,
		     "do not trust HIP_PATH (it names %s); "
		     "point builds and apps at %s%s%s%s (cmd: set "
		     "\"HIP_PATH=%s\\\" and set \"PATH=%s\\bin;%%PATH%%\"; "
		     "PowerShell: $env:HIP_PATH = '%s\\'; $env:PATH = "
		     "'%s\\bin;' + $env:PATH; or let `gpudoctor env --shell "
		     "powershell` or `--shell cmd` print them)",
		     wi->sdks[wi->hip_path_sdk].version, s->root,
		     s->env_var[0] ? ", as %" : "",
		     s->env_var[0] ? s->env_var : "", s->env_var[0] ? "%" : "",
		     s->root, s->root, ps, ps);
	}
	for (int i = 0; i < v->n_facts; i++)
		if (v->facts[i].code == GD_C_WIN_ROCBLAS_NO_TARGET)
			STEP(
			    v, GD_C_WIN_ROCBLAS_COMMUNITY,
			    "rocBLAS has no %s kernels: install a community "
			    "rocBLAS built for %s and SDK %s (replace %s\\bin\\"
			    "rocblas.dll and bin\\rocblas\\library), or run "
			    "BLAS "
			    "on the CPU",
			    g->gfx, g->gfx, s->version, s->root);
	if (!gd_win_python_amd_steps(g, wi, py, v))
		build_step(g, wi, v);
	gd_fmt(bin, sizeof bin, "%s\\bin", s->root);
	gd_win_python_line(bin, v->python, sizeof v->python);
	STEP(v, GD_C_WIN_PYTHON_DLL_DIR,
	     "in the app, before importing the framework: import os; %s "
	     "(Python >= 3.8 ignores PATH for DLLs)",
	     v->python);
}

static int usable(const struct gd_win_verdict *v)
{
	for (int i = 0; i < v->n_facts; i++)
		if (v->facts[i].level == GD_WIN_BAD)
			return 0;
	return 1;
}

/* The driver provides HIP N and no SDK of that major is installed. Apps
 * and wheels run on the driver's runtime (docs/windows.md A.1 fact 1:
 * end users get HIP from the driver); an SDK is for building HIP code and
 * for its hipInfo.exe, so it is no step of its own here. */
static void no_sdk(const struct gd_gpu *g, const struct gd_win_inventory *wi,
		   const struct gd_win_python *py, struct gd_win_verdict *v)
{
	const char *gfx = g->gfx[0] ? g->gfx : "this GPU";
	int m = wi->driver_hip_major;

	gd_win_python_amd_facts(wi, py, v);
	FACT(v, GD_WIN_OK, GD_C_WIN_NO_SDK,
	     "no usable HIP SDK %d.x under %%ProgramFiles%%\\AMD\\ROCm: apps "
	     "and "
	     "Python wheels run on the driver's HIP %d runtime and need none; "
	     "install HIP SDK %d.x only to build HIP programs or to run its "
	     "hipInfo.exe",
	     m, m, m);
	gd_win_app_steps(wi, v);
	gd_win_python_amd_steps(g, wi, py, v);
	v->usable = usable(v);
	if (gd_win_app_summary(g, wi, v))
		return;
	gd_fmt(v->summary, sizeof v->summary,
	       "%s on Windows: the driver provides HIP %d%s", gfx, m,
	       v->usable ? " (apps need no HIP SDK)"
			 : "; see the problems below");
}

void gd_win_verdict_amd(gd_ctx *ctx, const struct gd_gpu *g,
			const struct gd_win_inventory *wi,
			const struct gd_win_python *py,
			struct gd_win_verdict *v)
{
	int broken = 0;

	memset(v, 0, sizeof *v);
	if (gd_win_target_support(ctx, g, wi, v))
		return;
	gd_win_sdk_breaks(ctx, g, wi, v);
	v->sdk = pick_sdk(wi, v);
	if (!wi->driver_hip_major && gd_win_python_bundled(g, wi, py, v))
		return;
	runtime_facts(wi, v);
	gd_win_sdk_broken_facts(g, wi, v);
	gd_win_app_facts(g, wi, v);
	hip_path_fact(g, wi, v);
	if (wi->driver_hip_major && v->sdk < 0) {
		no_sdk(g, wi, py, v);
		return;
	}
	if (v->sdk < 0) {
		gd_strlcpy(v->summary,
			   wi->sys32_listed
			       ? "no HIP runtime from the driver"
			       : "HIP runtime not captured (no file listing): "
				 "not judged",
			   sizeof v->summary);
		return;
	}
	sdk_facts(g, wi, v);
	gd_win_python_amd_facts(wi, py, v);
	gd_win_app_steps(wi, v);
	steps(g, wi, py, v);
	v->usable = usable(v);
	for (int i = 0; i < wi->n_sdks; i++)
		if (v->sdk_broken[i] && !broken++)
			gd_fmt(v->summary, sizeof v->summary,
			       "%s on Windows: use HIP SDK %s; HIP SDK %s does "
			       "not see this GPU (%s)",
			       g->gfx, wi->sdks[v->sdk].version,
			       wi->sdks[i].version, v->sdk_broken_ref[i]);
	if (!broken)
		gd_fmt(v->summary, sizeof v->summary,
		       "%s on Windows: use HIP SDK %s%s",
		       g->gfx[0] ? g->gfx : "this GPU",
		       wi->sdks[v->sdk].version,
		       v->usable ? "" : " with the steps below");
}

/* The steps the verdict's workaround carries out as data (the SDK's bin
 * as a DLL directory and first on PATH, HIP_PATH set to the SDK:
 * gd_win_workaround): an app or `gpudoctor env` applies them. Any other
 * step (an install, a rebuild, a driver) needs the user. */
static int workaround_step(const struct gd_win_verdict *v, enum gd_code c)
{
	int broken = 0;

	for (int i = 0; i < GD_WIN_MAX_SDKS; i++)
		broken |= v->sdk_broken[i];
	/* with a known-broken SDK installed, the build step only says to
	 * build with the chosen SDK, not the broken one (build_step) */
	return c == GD_C_WIN_USE_SDK || c == GD_C_WIN_HIP_PATH ||
	       c == GD_C_WIN_PYTHON_DLL_DIR ||
	       (c == GD_C_WIN_BUILD_FOR_TARGET && broken);
}

const char *gd_win_verdict_status(const struct gd_win_verdict *v)
{
	int only_wa = v->sdk >= 0;

	if (v->unsupported)
		return "unsupported";
	if (!v->n_steps)
		return v->usable ? "works" : "unknown";
	for (int i = 0; i < v->n_steps; i++)
		only_wa &= workaround_step(v, v->steps[i].code);
	return only_wa ? "workaround" : "needs-setup";
}

typedef void (*win_judge_fn)(gd_ctx *, const struct gd_gpu *,
			     const struct gd_win_inventory *,
			     const struct gd_win_python *,
			     struct gd_win_verdict *);
/* AMD: ROCm through an SDK or the driver's HIP runtime, else the CPU. */
static const char *amd_backend(const struct gd_win_inventory *wi,
			       const struct gd_win_verdict *v)
{
	return v->sdk >= 0 || v->usable || wi->driver_hip_major ? "ROCm"
								: "CPU";
}

static const char *nvidia_backend(const struct gd_win_inventory *wi,
				  const struct gd_win_verdict *v)
{
	(void)wi;
	return v->unsupported ? "CPU" : "CUDA";
}

/* NVIDIA: an architecture no current CUDA supports is the whole verdict
 * (verdict_windows_target.c), else the driver and frameworks. */
static void nvidia_judge(gd_ctx *ctx, const struct gd_gpu *g,
			 const struct gd_win_inventory *wi,
			 const struct gd_win_python *py,
			 struct gd_win_verdict *v)
{
	if (!gd_win_nvidia_arch_support(ctx, g, v))
		gd_win_verdict_nvidia(ctx, g, wi, py, v);
}

/* Intel: PyTorch's XPU where the family is validated, else the CPU. */
static const char *intel_backend(const struct gd_win_inventory *wi,
				 const struct gd_win_verdict *v)
{
	(void)wi;
	return v->usable ? "XPU" : "CPU";
}

static const struct {
	enum gd_vendor vendor;
	win_judge_fn judge;
	const char *(*backend)(const struct gd_win_inventory *,
			       const struct gd_win_verdict *);
} win_judges[] = {
    {GD_VENDOR_AMD, gd_win_verdict_amd, amd_backend},
    {GD_VENDOR_NVIDIA, nvidia_judge, nvidia_backend},
    {GD_VENDOR_INTEL, gd_win_verdict_intel, intel_backend},
};

void gd_win_judge(gd_ctx *ctx, const struct gd_gpu *g,
		  const struct gd_win_inventory *wi,
		  const struct gd_win_python *py, struct gd_win_verdict *v)
{
	for (size_t i = 0; i < sizeof win_judges / sizeof win_judges[0]; i++)
		if (win_judges[i].vendor == g->vendor) {
			win_judges[i].judge(ctx, g, wi, py, v);
			v->judged = 1;
			v->backend = win_judges[i].backend(wi, v);
			return;
		}
	/* a vendor without Windows rules here (Intel): a GPU all the same,
	 * never "no GPU", its status "unknown" */
	memset(v, 0, sizeof *v);
	v->sdk = -1;
	v->backend = "CPU";
	gd_fmt(v->summary, sizeof v->summary,
	       "%s GPU on Windows: listed only, no compute rules for it here "
	       "yet (apps using Vulkan or DirectML can use it)",
	       gd_vendor_ops(g->vendor)->title);
}
