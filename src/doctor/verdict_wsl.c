/* WSL2's GPU: Windows shares its GPUs with the WSL2 VM through dxgkrnl
 * (/dev/dxg); the VM's PCI bus shows one Microsoft adapter (1414:008e)
 * in place of the real GPU, and the Windows driver's user-mode libraries
 * are mounted at /usr/lib/wsl/lib. CUDA works through the libcuda.so.1
 * there; ROCm has no /dev/kfd in WSL and goes through AMD's librocdxg.
 * Facts and sources: docs/virtual.md. */
#include <string.h>

#include "verdict.h"
#include "verdict_util.h"

#define MS_VENDOR 0x1414
#define MS_DXG_ADAPTER 0x008e /* "Microsoft Corporation Device 008e" */
#define WSL_LABEL "WSL2 GPU (Windows' GPU through /dev/dxg)"

static void wsl_cuda(gd_ctx *ctx, const struct gd_machine *m,
		     struct gd_verdict *v)
{
	v->status = GD_V_WORKS;
	gd_v_headline(v, WSL_LABEL,
		      "CUDA should work through the Windows NVIDIA driver's %s",
		      m->wsl_libcuda);
	gd_v_fact(v, GD_C_WSL_CUDA,
		  "%s is the NVIDIA Windows driver's CUDA library, mounted by "
		  "WSL: the GPU and its driver are Windows'",
		  m->wsl_libcuda);
	gd_v_step(v, GD_C_WSL_NO_LINUX_DRIVER,
		  "Install no NVIDIA Linux driver in this distribution (it "
		  "would replace WSL's libcuda): update the driver on Windows; "
		  "for building CUDA code install only the toolkit "
		  "(cuda-toolkit-12-x, not cuda or cuda-drivers)");
	gd_v_workloads_for_stack(ctx, v, "cuda", "works");
}

static void wsl_no_cuda(gd_ctx *ctx, struct gd_verdict *v)
{
	v->status = GD_V_SETUP;
	gd_v_headline(v, WSL_LABEL,
		      "no CUDA library from Windows in /usr/lib/wsl/lib");
	gd_v_fact(v, GD_C_WSL_ROCM,
		  "ROCm in WSL has no /dev/kfd: it reaches an AMD GPU only "
		  "through AMD's librocdxg (the /dev/dxg bridge, loaded with "
		  "HSA_ENABLE_DXG_DETECTION=1) with a WSL-capable AMD "
		  "Software driver on Windows, on the Radeon GPUs AMD lists "
		  "for WSL");
	gd_v_step(v, GD_C_WSL_CUDA,
		  "NVIDIA GPU on the Windows host: install or update NVIDIA's "
		  "Windows driver (it provides /usr/lib/wsl/lib/libcuda.so.1 "
		  "to WSL), then restart WSL (wsl --shutdown)");
	gd_v_step(v, GD_C_WSL_ROCM,
		  "AMD GPU on the Windows host: install ROCm for WSL with "
		  "librocdxg as AMD's ROCm-on-WSL guide says, and set "
		  "HSA_ENABLE_DXG_DETECTION=1");
	gd_v_workloads_for_stack(ctx, v, "cpu", "cpu");
}

int gd_v_judge_wsl(gd_ctx *ctx, const struct gd_machine *m,
		   const struct gd_gpu *g, struct gd_verdict *v)
{
	if (g->pci.vendor_id != MS_VENDOR || g->pci.device_id != MS_DXG_ADAPTER)
		return 0;
	gd_v_fact(v, GD_C_GPU_PCI, "PCI %s [%04x:%04x], driver %s", g->pci.bdf,
		  g->pci.vendor_id, g->pci.device_id,
		  gd_known(&g->pci.driver) ? g->pci.driver.v : "none");
	gd_v_fact(v, GD_C_WSL_GPU_PV,
		  "%s: Windows' GPU paravirtualization adapter (dxgkrnl): the "
		  "real GPU stays on the Windows host, which drives it",
		  m->wsl ? "WSL2" : "a Hyper-V guest");
	if (m->wsl_libcuda[0])
		wsl_cuda(ctx, m, v);
	else
		wsl_no_cuda(ctx, v);
	return 1;
}
