/* Intel on Windows (verdict_windows.h): the GPU's family (discover/intel.c,
 * kb intel.families, as on Linux) says what PyTorch's XPU build does for
 * it; Intel's Windows graphics driver carries the GPU's Vulkan driver, so
 * llama.cpp's Vulkan backend is the portable path where the family has
 * Vulkan at all. The family facts and their sources are the kb's
 * (docs/intel.md). A hybrid laptop's iGPU is judged so beside its NVIDIA
 * or AMD dGPU. */
#include <string.h>

#include "verdict_util.h"
#include "verdict_windows.h"

static void pytorch(const struct gd_kb_intel_family *f,
		    struct gd_win_verdict *v)
{
	const char *xpu = f->pytorch_xpu ? f->pytorch_xpu : "no";

	if (!strcmp(xpu, "validated")) {
		gd_win_fact(v, GD_WIN_OK, GD_C_WIN_INTEL_PYTORCH_XPU,
			    "PyTorch's XPU build validates %s: pip install "
			    "torch --index-url "
			    "https://download.pytorch.org/whl/xpu, then "
			    "torch.device(\"xpu\")",
			    f->name);
		v->usable = 1;
	} else if (!strcmp(xpu, "untested"))
		gd_win_fact(v, GD_WIN_WARN, GD_C_WIN_INTEL_PYTORCH_XPU,
			    "PyTorch's XPU build runs on Intel's driver but "
			    "does not validate %s: small models may run, else "
			    "use the CPU",
			    f->name);
	else
		gd_win_fact(v, GD_WIN_WARN, GD_C_WIN_INTEL_PYTORCH_XPU,
			    "PyTorch's XPU build does not support %s: PyTorch "
			    "runs on the CPU here",
			    f->name);
}

void gd_win_verdict_intel(gd_ctx *ctx, const struct gd_gpu *g,
			  const struct gd_win_inventory *wi,
			  const struct gd_win_python *py,
			  struct gd_win_verdict *v)
{
	struct gd_kb_intel_family f;
	int vk;

	(void)wi, (void)py;
	memset(v, 0, sizeof *v);
	v->sdk = -1;
	if (gd_v_intel_family_of(ctx, g, &f) < 0) {
		gd_fmt(v->summary, sizeof v->summary,
		       "Intel GPU on Windows, architecture unknown (neither "
		       "its PCI id nor its name matches the knowledge base's "
		       "Intel families): apps using Vulkan or DirectML can "
		       "use it");
		return;
	}
	gd_win_fact(v, GD_WIN_OK, GD_C_INTEL_FAMILY, "%s (%s)", f.name,
		    g->intel.family_src);
	pytorch(&f, v);
	vk = f.vulkan && !strcmp(f.vulkan, "anv");
	if (vk)
		gd_win_fact(v, GD_WIN_OK, GD_C_WIN_INTEL_VULKAN,
			    "llama.cpp: the Vulkan backend (-DGGML_VULKAN=ON, "
			    "or a release's vulkan build) runs on Intel's "
			    "Windows graphics driver%s",
			    f.llamacpp_sycl ? "; the SYCL backend (oneAPI) "
					      "supports this GPU too"
					    : "");
	/* the GPU's name and family are the verdict's label already */
	gd_fmt(v->summary, sizeof v->summary, "on Windows: %s%s",
	       v->usable ? "PyTorch XPU works" : "no PyTorch XPU (the CPU)",
	       vk ? "; llama.cpp through Vulkan" : "");
}
