/* doctor/verdict_intel: Intel GPUs. The architecture (discover/intel.c,
 * kb intel.families) says what Intel's compute runtime does for it
 * (current packages, the frozen legacy1 packages, OpenCL only, nothing)
 * and what PyTorch XPU and llama.cpp's SYCL backend do; inventory/intel.c
 * says which pieces of the runtime are installed. Everything
 * family-specific is kb data; docs/intel.md has the sources. */
#include <string.h>

#include "verdict_util.h"

int gd_v_intel_family_of(gd_ctx *ctx, const struct gd_gpu *g,
			 struct gd_kb_intel_family *f)
{
	size_t n = gd_kb_intel_family_count(ctx->kb);

	for (size_t i = 0; g->intel.family[0] && i < n; i++)
		if (!gd_kb_intel_family_at(ctx->kb, i, f) && f->id &&
		    !strcmp(f->id, g->intel.family))
			return 0;
	memset(f, 0, sizeof *f);
	return -1;
}

static void runtime_fact(struct gd_verdict *v, const struct gd_inventory *inv)
{
	static const struct {
		const char *label, *what;
	} parts[] = {
	    {"ze_loader", "Level Zero loader"},
	    {"ze_intel_gpu", "Level Zero GPU driver"},
	    {"igdrcl", "OpenCL driver"},
	    {"igc", "graphics compiler IGC"},
	    {"igdgmm", "gmmlib"},
	};
	char buf[500] = "";

	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		const struct gd_lib *l =
		    gd_inventory_intel_lib(inv, parts[i].label);
		size_t k = strlen(buf);

		if (l)
			gd_fmt(buf + k, sizeof buf - k, "%s%s %s (%s)",
			       k ? "; " : "", parts[i].what,
			       l->version[0] ? l->version : "version unknown",
			       l->path);
	}
	if (buf[0])
		gd_v_fact(v, GD_C_INTEL_RUNTIME, "Intel compute runtime: %s",
			  buf);
}

static void advise(struct gd_verdict *v, const char *workload,
		   const char *verdict, const char *backend, const char *text,
		   const char *install)
{
	struct gd_workload_advice *w = gd_vec_push(&v->workloads);

	if (!w)
		return;
	w->code = GD_C_ADVICE_TARGET;
	gd_strlcpy(w->workload, workload, sizeof w->workload);
	gd_strlcpy(w->verdict, verdict, sizeof w->verdict);
	gd_strlcpy(w->backend, backend, sizeof w->backend);
	gd_strlcpy(w->text, text, sizeof w->text);
	gd_strlcpy(w->install, install, sizeof w->install);
}

/* The three workloads from the family's kb fields. */
static void workloads(struct gd_verdict *v, const struct gd_kb_intel_family *f)
{
	const char *xpu = f->pytorch_xpu ? f->pytorch_xpu : "no";
	const char *vk = f->vulkan;
	int lz =
	    f->compute_runtime && (!strcmp(f->compute_runtime, "current") ||
				   !strcmp(f->compute_runtime, "legacy1"));

	if (!strcmp(xpu, "validated"))
		advise(v, "pytorch", "works", "XPU",
		       "PyTorch's XPU build validates this GPU: "
		       "torch.device(\"xpu\")",
		       "pip install torch --index-url "
		       "https://download.pytorch.org/whl/xpu");
	else if (!strcmp(xpu, "untested"))
		advise(v, "pytorch", "unknown", "XPU",
		       "PyTorch's XPU build runs on Intel's compute runtime "
		       "but does not validate this GPU; small models may run, "
		       "else use the CPU",
		       "pip install torch --index-url "
		       "https://download.pytorch.org/whl/xpu");
	else
		advise(v, "pytorch", "cpu", "CPU",
		       "PyTorch's XPU build does not support this GPU: run "
		       "PyTorch on the CPU",
		       "pip install torch --index-url "
		       "https://download.pytorch.org/whl/cpu");
	if (f->llamacpp_sycl && lz)
		advise(
		    v, "llama.cpp", "works", "SYCL",
		    "llama.cpp's SYCL backend runs on this GPU through "
		    "Level Zero; its Vulkan backend (Mesa ANV) needs no "
		    "oneAPI",
		    "cmake -B build -DGGML_SYCL=ON -DCMAKE_C_COMPILER=icx "
		    "-DCMAKE_CXX_COMPILER=icpx (oneAPI), or -DGGML_VULKAN=ON");
	else if (vk && !strcmp(vk, "anv"))
		advise(v, "llama.cpp", "works", "Vulkan",
		       "Use llama.cpp's Vulkan backend (Mesa's ANV driver); "
		       "its SYCL backend does not support this GPU",
		       "cmake -B build -DGGML_VULKAN=ON");
	else if (vk && !strcmp(vk, "hasvk"))
		advise(v, "llama.cpp", "unknown", "Vulkan",
		       "Mesa's Vulkan driver for this GPU (hasvk) is "
		       "incomplete: llama.cpp's Vulkan backend may not run; "
		       "else use the CPU",
		       "cmake -B build -DGGML_VULKAN=ON");
	else
		advise(v, "llama.cpp", "cpu", "CPU",
		       "No Vulkan or SYCL driver exists for this GPU: run "
		       "llama.cpp on the CPU",
		       "cmake -B build");
	advise(v, "ctranslate2", "cpu", "CPU",
	       "CTranslate2 has no Intel GPU backend: use its CPU build "
	       "(compute_type=\"int8\")",
	       "pip install ctranslate2");
}

static const char *install_text(const char *rt)
{
	return !strcmp(rt, "legacy1")
		   ? "Install the frozen legacy1 packages of Intel's compute "
		     "runtime (intel-level-zero-gpu-legacy1 and "
		     "intel-opencl-icd-legacy1, release 24.35): newer releases "
		     "dropped this GPU"
		   : "Install Intel's compute runtime: Debian 13 / Ubuntu "
		     "24.04 and later: sudo apt install libze-intel-gpu1 "
		     "intel-opencl-icd; older releases: intel-level-zero-gpu "
		     "and intel-opencl-icd from Intel's compute-runtime "
		     "releases. Then add your user to the render group";
}

static int driver_ok(const struct gd_gpu *g)
{
	return gd_known(&g->pci.driver) && (!strcmp(g->pci.driver.v, "i915") ||
					    !strcmp(g->pci.driver.v, "xe"));
}

static void judge_family(struct gd_verdict *v, const struct gd_gpu *g,
			 const struct gd_inventory *inv,
			 const struct gd_kb_intel_family *f)
{
	const char *rt = f->compute_runtime ? f->compute_runtime : "none";
	int have_ze = gd_inventory_intel_lib(inv, "ze_intel_gpu") != NULL;
	int lz = !strcmp(rt, "current") || !strcmp(rt, "legacy1");

	gd_v_fact(v, GD_C_INTEL_FAMILY, "%s (%s)", f->name,
		  g->intel.family_src);
	if (f->note)
		gd_v_fact(v, GD_C_INTEL_FAMILY, "%s", f->note);
	if (!strcmp(rt, "legacy1"))
		gd_v_fact(v, GD_C_INTEL_LEGACY,
			  "only Intel's frozen legacy1 compute-runtime "
			  "packages (24.35) support %s",
			  f->name);
	if (!lz) {
		v->status = GD_V_UNSUPPORTED;
		gd_v_fact(v, GD_C_INTEL_NO_COMPUTE,
			  "no Intel compute runtime with Level Zero supports "
			  "%s: no PyTorch XPU, no SYCL",
			  f->name);
	} else if (!driver_ok(g)) {
		v->status = GD_V_SETUP;
		gd_v_step(v, GD_C_INTEL_DRIVER,
			  "Load Intel's kernel driver for this GPU (sudo "
			  "modprobe i915, or xe on Lunar Lake, Battlemage and "
			  "later): it is driven by %s",
			  gd_known(&g->pci.driver) ? g->pci.driver.v
						   : "nothing");
	} else if (!have_ze) {
		v->status = GD_V_SETUP;
		gd_v_fact(
		    v, GD_C_INTEL_RUNTIME_MISSING,
		    "Intel's Level Zero GPU driver (libze_intel_gpu.so.1) "
		    "is not installed where ld.so looks");
		gd_v_step(v, GD_C_INTEL_INSTALL_RUNTIME, "%s",
			  install_text(rt));
	} else
		v->status = GD_V_WORKS;
	workloads(v, f);
	gd_v_sources(v, f->sources);
}

void gd_v_judge_intel(gd_ctx *ctx, const struct gd_machine *m,
		      const struct gd_inventory *inv, const struct gd_gpu *g,
		      struct gd_verdict *v)
{
	struct gd_kb_intel_family f;
	char title[300];

	(void)m;
	gd_v_gpu_title(g, NULL, title, sizeof title);
	gd_v_fact(v, GD_C_GPU_PCI, "PCI %s [%04x:%04x], driver %s", g->pci.bdf,
		  g->pci.vendor_id, g->pci.device_id,
		  gd_known(&g->pci.driver) ? g->pci.driver.v : "none");
	runtime_fact(v, inv);
	if (gd_v_intel_family_of(ctx, g, &f) < 0) {
		v->status = GD_V_UNKNOWN;
		gd_v_fact(v, GD_C_INTEL_FAMILY_UNKNOWN,
			  "architecture unknown: neither the kernel platform "
			  "nor the name (%s) matches the knowledge base's "
			  "Intel families",
			  gd_known(&g->name) ? g->name.v : "no name");
		gd_v_step(
		    v, GD_C_OTHER_USE_VULKAN,
		    "For llama.cpp, the Vulkan backend (-DGGML_VULKAN=ON) "
		    "is the portable choice where Mesa's ANV driver "
		    "supports this GPU");
	} else
		judge_family(v, g, inv, &f);
	gd_v_access_steps(v, g);
	if (v->status == GD_V_WORKS && gd_v_access_blocked(g))
		v->status = GD_V_SETUP;
	gd_v_headline(v, title, "%s",
		      v->status == GD_V_WORKS	? "Intel's compute runtime is "
						  "ready (Level Zero)"
		      : v->status == GD_V_SETUP ? "supported; set-up needed "
						  "(see steps)"
		      : v->status == GD_V_UNSUPPORTED
			  ? "no Intel compute runtime "
			    "supports it (see workloads)"
			  : "architecture unknown");
}
