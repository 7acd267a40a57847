/* Verdict rules for AMD GPUs: ROCm support of the target (from the kb),
 * the override, the installed HIP runtime and rocBLAS kernels, device
 * access, and Vulkan as the fallback path. */
#include <stdio.h>
#include <string.h>

#include "kb/kb.h"
#include "strategy.h"
#include "verdict_util.h"

static void amd_facts(const struct gd_gpu *g, struct gd_verdict *v)
{
	char mem[112] = "VRAM unknown", rev[16] = "";

	if (gd_known(&g->pci.revision))
		gd_fmt(rev, sizeof rev, " rev %02llx",
		       (unsigned long long)g->pci.revision.v);
	gd_v_fact(v, GD_C_GPU_PCI, "PCI %s [%04x:%04x]%s, driver %s",
		  g->pci.bdf, g->pci.vendor_id, g->pci.device_id, rev,
		  gd_known(&g->pci.driver) ? g->pci.driver.v
		  : g->pci.driver_unseen   ? "not in this tree"
					   : "none bound");
	if (g->gfx[0])
		gd_v_fact(v, GD_C_AMD_GFX_TARGET, "GPU target %s, from %s",
			  g->gfx, g->gfx_source[0] ? g->gfx_source : "?");
	if (gd_known(&g->vram_total))
		gd_fmt(mem, sizeof mem, "%.1f GiB %s",
		       (double)g->vram_total.v / (1024.0 * 1024 * 1024),
		       g->integrated ? "carve-out" : "VRAM");
	else if (g->integrated)
		gd_strlcpy(mem,
			   gd_known(&g->shared_mem) ? "carve-out unknown"
						    : "memory sizes unknown",
			   sizeof mem);
	if (g->integrated && gd_known(&g->shared_mem))
		gd_fmt(mem + strlen(mem), sizeof mem - strlen(mem),
		       ", %.1f GiB shared system memory",
		       (double)g->shared_mem.v / (1024.0 * 1024 * 1024));
	if (gd_known(&g->cu_count))
		gd_v_fact(v, GD_C_AMD_COMPUTE_UNITS, "%llu compute units, %s",
			  (unsigned long long)g->cu_count.v, mem);
	gd_v_fact(v, GD_C_GPU_INTEGRATED, "%s: %s",
		  g->integrated ? "integrated (APU)" : "discrete GPU",
		  g->integrated_why[0] ? g->integrated_why
				       : "no evidence either way");
	if (g->n_kfd_nodes > 1)
		gd_v_fact(v, GD_C_AMD_KFD_PARTITIONS,
			  "one GPU exposed as %zu KFD nodes (partitions)",
			  g->n_kfd_nodes);
}

/* Override facts and steps; returns the target ROCm will use. */
static const char *amd_override(const struct gd_gpu *g, struct gd_verdict *v)
{
	if (!g->ovr.var[0])
		return g->gfx;
	if (!g->ovr.valid) {
		gd_v_fact(v, GD_C_AMD_OVERRIDE_INVALID, "%s=%s is invalid: %s",
			  g->ovr.var, g->ovr.value, g->ovr.why);
		gd_v_step(v, GD_C_AMD_OVERRIDE_FIX_INVALID,
			  "Fix or unset %s: it must be three decimal numbers "
			  "like 10.3.0 (unset %s)",
			  g->ovr.var, g->ovr.var);
		return g->gfx;
	}
	gd_v_fact(v, GD_C_AMD_OVERRIDE_ACTIVE,
		  "%s=%s: ROCm will treat this GPU as %s", g->ovr.var,
		  g->ovr.value, g->ovr.gfx);
	return g->ovr.gfx[0] ? g->ovr.gfx : g->gfx;
}

/* An override in effect: what the kb knows against it, and the builds it
 * breaks (one made for the real target carries no code for the spoof). */
static void override_active(const struct gd_kb_target *t,
			    const struct gd_gpu *g, struct gd_verdict *v)
{
	const char *caveat = t ? t->override.caveat : NULL;

	if (!g->ovr.valid || !g->ovr.gfx[0] || !strcmp(g->ovr.gfx, g->gfx))
		return;
	if (caveat)
		gd_v_fact(v, GD_C_AMD_OVERRIDE_CAVEAT,
			  "about this override: %s", caveat);
	if (t)
		gd_v_sources(v, t->override.sources);
	gd_v_step(v, GD_C_AMD_OVERRIDE_UNSET_FOR_NATIVE_BUILDS,
		  "Run builds made for %s itself (e.g. a source build with "
		  "%s code) without the override: unset %s for them; they "
		  "carry no %s code",
		  g->gfx, g->gfx, g->ovr.var, g->ovr.gfx);
}

/* Every HIP runtime installed; several majors side by side are the
 * "version matching is CRITICAL" trap of the PyTorch report. */
static void hip_installs(const struct gd_inventory *inv,
			 const struct gd_rocm_install *ri, struct gd_verdict *v)
{
	unsigned majors = 0, seen = 0;

	if (!ri) {
		gd_v_fact(v, GD_C_ROCM_NOT_INSTALLED,
			  "no ROCm / HIP runtime installed");
		return;
	}
	for (size_t i = 0; inv && i < inv->n_rocm; i++) {
		const struct gd_rocm_install *r = &inv->rocm[i];

		if (!r->hip_major)
			continue;
		gd_v_fact(
		    v, GD_C_ROCM_HIP_RUNTIME,
		    "HIP runtime %s (libamdhip64.so.%u) at %s, found by %s%s",
		    gd_known(&r->version) ? r->version.v : "version unknown",
		    r->hip_major, r->path, r->found_by,
		    r->loader_pick ? " (the loader finds it first)" : "");
		if (!(seen & (1u << (r->hip_major & 31))))
			majors++;
		seen |= 1u << (r->hip_major & 31);
		if (r->hip_path_mismatch)
			gd_v_step(
			    v, GD_C_ROCM_HIP_PATH_MISMATCH,
			    "HIP_PATH points at %s (HIP %u), which is not the "
			    "runtime the loader uses: do not trust HIP_PATH; "
			    "unset it or point it at the install you build "
			    "against",
			    r->path, r->hip_major);
	}
	if (majors > 1)
		gd_v_fact(
		    v, GD_C_ROCM_HIP_MAJORS_MIXED,
		    "%u different HIP runtime majors are installed: each "
		    "program loads the libamdhip64.so.N it was built for, "
		    "so a framework must match the install it will use",
		    majors);
}

static const char *rocm_status(const struct gd_kb_target *t, const char **since)
{
	*since = t ? t->rocm_linux.since : NULL;
	return t && t->rocm_linux.status ? t->rocm_linux.status : "unknown";
}

static void vulkan_fallback(const struct gd_inventory *inv,
			    struct gd_verdict *v, int *have_vk)
{
	*have_vk = 0;
	for (size_t i = 0; inv && i < inv->n_vulkan; i++) {
		const struct gd_icd *icd = &inv->vulkan[i];

		if (!icd->software && icd->library_found &&
		    (!strcmp(icd->driver, "radv") ||
		     !strcmp(icd->driver, "amdvlk"))) {
			gd_v_fact(v, GD_C_AMD_VULKAN_DRIVER,
				  "Vulkan driver %s is installed: llama.cpp's "
				  "Vulkan backend can use this GPU",
				  icd->driver);
			*have_vk = 1;
			return;
		}
	}
}

/* The install step for ROCm on this target, from the kb advice. */
static void rocm_setup_steps(const struct gd_rocm_install *ri,
			     const char *since, struct gd_verdict *v)
{
	if (!ri && since) {
		gd_v_step(v, GD_C_ROCM_INSTALL_SINCE,
			  "Install ROCm %s or newer (AMD's packages, or your "
			  "distribution's rocm / hip-runtime-amd packages) in "
			  "the version your framework build needs: see each "
			  "workload's install line above",
			  since);
		return;
	}
	if (!ri) {
		gd_v_step(v, GD_C_ROCM_INSTALL,
			  "Install the ROCm/HIP runtime in the version your "
			  "framework build was made for (the workloads above "
			  "name it where it is known)");
		return;
	}
	if (since && gd_known(&ri->version) &&
	    gd_version_cmp(ri->version.v, since) < 0)
		gd_v_step(v, GD_C_ROCM_UPGRADE,
			  "ROCm %s at %s is older than %s, the first release "
			  "that supports this GPU: upgrade",
			  ri->version.v, ri->path, since);
}

static void amd_headline(struct gd_verdict *v, const char *title,
			 const char *status, const char *since, const char *eff,
			 const struct gd_gpu *g)
{
	const char *what;
	int see = 0; /* " (see steps)": the headline's, not the reason's */

	switch (v->status) {
	case GD_V_WORKS:
		what = "ROCm should work as installed";
		break;
	case GD_V_SETUP:
		what = "the ROCm stack is missing or incomplete";
		see = 1;
		break;
	case GD_V_WORKAROUND:
		see = !strcmp(eff, g->gfx);
		what = see ? "works with a workaround"
			   : "works through an override";
		break;
	case GD_V_UNSUPPORTED:
		what = "ROCm will not work; use Vulkan (llama.cpp) or the CPU";
		break;
	default:
		what = "not enough facts to judge";
	}
	if (!strcmp(status, "supported") || !strcmp(status, "preview") ||
	    !strcmp(status, "deprecated"))
		gd_v_headline(v, title, "%s by ROCm%s%s on Linux; %s",
			      !strcmp(status, "preview") ? "supported (preview)"
			      : !strcmp(status, "deprecated") ? "deprecated"
							      : "supported",
			      since ? " since " : "", since ? since : "", what);
	else if (!strcmp(status, "unsupported"))
		gd_v_headline(v, title,
			      "ROCm does not support this GPU officially; %s",
			      what);
	else
		gd_v_headline(v, title, "ROCm support unknown; %s", what);
	if (see)
		gd_strlcpy(v->headline + strlen(v->headline), " (see steps)",
			   sizeof v->headline - strlen(v->headline));
}

static int is_supported(const char *status)
{
	return !strcmp(status, "supported") || !strcmp(status, "preview") ||
	       !strcmp(status, "deprecated");
}

/* The status alone; the steps come after, in the order a user takes them. */
static enum gd_verdict_status
amd_decide(const struct gd_kb_target *t, const char *status, const char *eff,
	   const struct gd_gpu *g, const struct gd_rocm_install *ri,
	   int rocblas, const struct gd_verdict *v)
{
	int supported = is_supported(status);
	/* Vulkan or CPU advice does not make ROCm work. */
	int rocm_advice = gd_v_advice_any(v, "works", "ROCm") ||
			  gd_v_advice_any(v, "workaround", "ROCm");

	if (!t)
		return GD_V_UNKNOWN;
	if (!supported && !strcmp(eff, g->gfx))
		return rocm_advice ? GD_V_WORKAROUND : GD_V_UNSUPPORTED;
	if (!ri || gd_v_access_blocked(g) || g->hidden || rocblas < 0 ||
	    rocblas == GD_ROCBLAS_FALLBACK_ONLY)
		return supported ? GD_V_SETUP : GD_V_WORKAROUND;
	return supported ? GD_V_WORKS : GD_V_WORKAROUND;
}

/* Steps for a GPU ROCm does not support but some frameworks run on: the
 * override, for the builds that carry no code for the real target. */
static void override_step(const struct gd_kb_target *t, const char *eff,
			  const struct gd_gpu *g, struct gd_verdict *v)
{
	const char *ov = t ? t->override.value : NULL;
	const char *caveat = t ? t->override.caveat : NULL;

	if (!ov || strcmp(eff, g->gfx))
		return;
	gd_v_step(v, GD_C_AMD_OVERRIDE_USE_FOR_BUILDS,
		  "For framework builds without %s code (see the workloads "
		  "above), run them with HSA_OVERRIDE_GFX_VERSION=%s; a build "
		  "made for %s itself needs no override%s%s",
		  g->gfx, ov, g->gfx, caveat ? " — caveat: " : "",
		  caveat ? caveat : "");
	gd_v_sources(v, t->override.sources);
}

static void rocblas_step(const char *eff, int rocblas, struct gd_verdict *v)
{
	if (rocblas >= 0 && rocblas != GD_ROCBLAS_FALLBACK_ONLY)
		return;
	gd_v_step(v, GD_C_ROCBLAS_INSTALL_KERNELS,
		  "Install rocBLAS kernels for %s (AMD's rocBLAS package for "
		  "a ROCm release that ships them, or a community build), or "
		  "point ROCBLAS_TENSILE_LIBPATH at a library directory that "
		  "has them",
		  eff);
}

static void hidden_step(const struct gd_machine *m, const struct gd_gpu *g,
			struct gd_verdict *v)
{
	char ids[256];

	if (!g->hidden)
		return;
	gd_strategy_dgpu_ids(m, 1, ids, sizeof ids);
	gd_v_step(v, GD_C_VISIBILITY_UNHIDE_ROCM,
		  "ROCR_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES hide this GPU "
		  "from ROCm: unset them%s%s",
		  !g->integrated && ids[0]
		      ? ", or list it: export ROCR_VISIBLE_DEVICES="
		      : "",
		  !g->integrated && ids[0] ? ids : "");
}

/* What llama.cpp's Vulkan path needs when the advice points there. */
static void vulkan_step(const struct gd_verdict *v, int have_vk,
			struct gd_verdict *out)
{
	if (have_vk || !(gd_v_advice_any(v, "works", "Vulkan") ||
			 v->status == GD_V_UNSUPPORTED))
		return;
	gd_v_step(out, GD_C_AMD_VULKAN_INSTALL_RADV,
		  "For llama.cpp's Vulkan backend, install Mesa's RADV "
		  "driver (Debian/Ubuntu: sudo apt install "
		  "mesa-vulkan-drivers) and build llama.cpp with "
		  "-DGGML_VULKAN=ON");
}

/* ROCm enumerates every AMD GPU; an unsupported APU beside a discrete GPU
 * is a known source of crashes and wrong-device picks. */
static int rocm_unsupported(gd_ctx *ctx, const struct gd_gpu *g)
{
	struct gd_kb_target t;
	const char *since;

	return g->gfx[0] && gd_kb_target_get(ctx->kb, g->gfx, &t) == 0 &&
	       !strcmp(rocm_status(&t, &since), "unsupported");
}

static void apu_beside_dgpu(gd_ctx *ctx, const struct gd_machine *m,
			    const struct gd_gpu *g, struct gd_verdict *v)
{
	const struct gd_gpu *other = NULL;
	char ids[256];

	gd_strategy_dgpu_ids(m, 1, ids, sizeof ids);
	for (size_t i = 0; i < m->n_gpus; i++)
		if (&m->gpus[i] != g && m->gpus[i].vendor == GD_VENDOR_AMD &&
		    m->gpus[i].integrated != g->integrated)
			other = &m->gpus[i];
	if (!other || g->hidden)
		return;
	/* hiding the APU helps only a discrete GPU that ROCm runs on */
	if (rocm_unsupported(ctx, g->integrated ? other : g))
		ids[0] = '\0';
	if (g->integrated) {
		gd_v_fact(v, GD_C_AMD_APU_BESIDE_DGPU,
			  "this APU sits beside a discrete AMD GPU (%s)",
			  other->gfx[0] ? other->gfx : other->pci.bdf);
		if (!other->hidden && ids[0])
			gd_v_step(
			    v, GD_C_AMD_APU_HIDE,
			    "Use the discrete GPU for ML work and hide this "
			    "APU from ROCm: export ROCR_VISIBLE_DEVICES=%s",
			    ids);
	} else if (!other->hidden) {
		gd_v_fact(
		    v, GD_C_AMD_IGPU_BESIDE,
		    "ROCm also sees the integrated GPU (%s) beside this one",
		    other->gfx[0] ? other->gfx : other->pci.bdf);
		if (ids[0])
			gd_v_step(v, GD_C_AMD_APU_HIDE,
				  "Hide the APU so frameworks use this GPU: "
				  "export ROCR_VISIBLE_DEVICES=%s",
				  ids);
	}
}

static int amdgpu_bound(const struct gd_gpu *g)
{
	return gd_known(&g->pci.driver) && !strcmp(g->pci.driver.v, "amdgpu");
}

/* The tree says no driver is bound: a uevent without DRIVER= and no
 * driver link (not a tree that lacks both, driver_unseen). */
static int driver_none(const struct gd_gpu *g)
{
	return !gd_known(&g->pci.driver) && !g->pci.driver_unseen;
}

/* A family KFD never supported (kb amd_no_kfd): no ROCm, whatever is
 * loaded; Vulkan is the GPU path left. */
static void no_kfd_family(gd_ctx *ctx, const struct gd_inventory *inv,
			  const struct gd_gpu *g, const char *title,
			  struct gd_verdict *v)
{
	struct gd_kb_no_kfd nk;
	int have_vk;

	v->status = GD_V_UNSUPPORTED;
	gd_v_headline(v, title,
		      "ROCm cannot use this "
		      "GPU (%s: KFD never supported it)",
		      g->amd_no_kfd);
	gd_v_fact(v, GD_C_AMD_NO_KFD_FAMILY, "%s", g->gfx_why);
	if (gd_kb_amd_no_kfd_get(ctx->kb, g->pci.device_id,
				 gd_known(&g->pci_name) ? g->pci_name.v : "",
				 &nk) == 0)
		gd_v_sources(v, nk.sources);
	gd_v_workloads_for_stack(ctx, v, "cpu", "cpu");
	vulkan_fallback(inv, v, &have_vk);
	if (!amdgpu_bound(g))
		gd_v_step(v, GD_C_AMD_VULKAN_BIND_AMDGPU,
			  "Vulkan (RADV) needs amdgpu, not radeon, bound to "
			  "this GPU: boot with radeon.si_support=0 "
			  "amdgpu.si_support=1");
	vulkan_step(v, have_vk, v);
}

static int driver_is(const struct gd_gpu *g, const char *drv)
{
	return gd_known(&g->pci.driver) && !strcmp(g->pci.driver.v, drv);
}

/* Virtualisation first: a GPU passed to a VM (vfio-pci) or an SR-IOV
 * physical function held by AMD's host driver gim is not for ROCm on this
 * host, whatever else is missing; a virtual function is a slice of a
 * physical GPU, judged as its target. 1 when the verdict is complete. */
static int amd_virtual(const struct gd_machine *m, const struct gd_gpu *g,
		       const char *title, struct gd_verdict *v)
{
	if (g->idrow && (g->idrow->flags & GD_IDF_VF))
		gd_v_fact(v, GD_C_GPU_VIRTUAL_FUNCTION,
			  "SR-IOV virtual function (%s): a share of a physical "
			  "GPU that a hypervisor gives to a virtual machine; "
			  "amdgpu drives it in the guest as the %s it is",
			  g->idrow->name, g->gfx[0] ? g->gfx : "GPU");
	if (driver_is(g, "vfio-pci")) {
		v->status = GD_V_SETUP;
		gd_v_headline(v, title,
			      "bound to vfio-pci, set aside for a virtual "
			      "machine (PCI passthrough)");
		gd_v_step(
		    v, GD_C_GPU_VFIO_PASSTHROUGH,
		    "This GPU is bound to vfio-pci: it is set aside for "
		    "a virtual machine (PCI passthrough) and no driver on "
		    "this host can use it; run ROCm inside that VM, with "
		    "amdgpu there");
		return 1;
	}
	if (g->idrow && (g->idrow->flags & GD_IDF_VF) && m->kernel.gim_loaded &&
	    !driver_is(g, "amdgpu")) {
		v->status = GD_V_UNSUPPORTED;
		gd_v_headline(
		    v, title,
		    "a virtual function on an SR-IOV host (gim is "
		    "loaded): it is made for a virtual machine, not for "
		    "ROCm on this host");
		gd_v_step(v, GD_C_AMD_SRIOV_HOST_GIM,
			  "Give this virtual function to a guest VM (PCI "
			  "passthrough via vfio-pci) and run ROCm there, with "
			  "amdgpu in the guest");
		return 1;
	}
	if (driver_is(g, "gim")) {
		v->status = GD_V_UNSUPPORTED;
		gd_v_headline(
		    v, title,
		    "SR-IOV host: AMD's gim driver holds this physical "
		    "function and hands it to virtual machines as virtual "
		    "functions; ROCm runs in those VMs, not on this host");
		gd_v_fact(
		    v, GD_C_AMD_SRIOV_HOST_GIM,
		    "driver gim (AMD's MxGPU SR-IOV host driver) is bound "
		    "to this physical function: amdgpu cannot take it "
		    "while gim does");
		gd_v_step(v, GD_C_AMD_SRIOV_HOST_GIM,
			  "Run ROCm inside a guest VM given one of this GPU's "
			  "virtual functions (amdgpu binds the VF there); "
			  "only unload gim (sudo modprobe -r gim) to use the "
			  "whole GPU on this host instead");
		return 1;
	}
	return 0;
}

void gd_v_judge_amd(gd_ctx *ctx, const struct gd_machine *m,
		    const struct gd_inventory *inv, const struct gd_gpu *g,
		    struct gd_verdict *v)
{
	struct gd_kb_target tk;
	const struct gd_kb_target *t =
	    g->gfx[0] && gd_kb_target_get(ctx->kb, g->gfx, &tk) == 0 ? &tk
								     : NULL;
	const struct gd_rocm_install *ri = gd_v_rocm_pick(inv);
	char title[300];
	const char *since = NULL, *status, *eff;
	int rocblas = -1, have_vk;

	gd_v_gpu_title(g, t, title, sizeof title);
	amd_facts(g, v);
	if (amd_virtual(m, g, title, v))
		return;
	if (g->amd_no_kfd[0] && !g->n_kfd_nodes) {
		no_kfd_family(ctx, inv, g, title, v);
		return;
	}
	if (gd_v_amd_pre_gcn(ctx, g, title, v))
		return;
	if (!g->gfx[0]) {
		v->status = GD_V_UNKNOWN;
		gd_v_headline(
		    v, title, "GPU target unknown (%s)",
		    g->gfx_source[0]
			? g->gfx_source
			: "no KFD node and no kb entry for this PCI id");
		if (!m->kernel.kfd_present && !amdgpu_bound(g) &&
		    !m->not_a_capture)
			gd_v_step(v, GD_C_AMD_DRIVER_LOAD,
				  "Load the amdgpu kernel driver (sudo "
				  "modprobe amdgpu); "
				  "without /sys/class/kfd ROCm sees no GPU");
		return;
	}
	status = rocm_status(t, &since);
	if (t)
		gd_v_sources(v, t->rocm_linux.sources);
	eff = amd_override(g, v);
	if (g->visible_note[0])
		gd_v_fact(v, GD_C_VISIBILITY_NOTE, "%s", g->visible_note);
	if (!m->kernel.kfd_present && m->not_a_capture && driver_none(g))
		/* its uevent names no driver: KFD cannot exist for it, and
		 * the driver comes before any ROCm step */
		gd_v_step(v, GD_C_AMD_DRIVER_LOAD,
			  "No kernel driver is bound to this GPU (its uevent "
			  "names none), so ROCm cannot see it: load amdgpu "
			  "(sudo modprobe amdgpu) and read why it does not "
			  "bind (sudo dmesg | grep -i amdgpu); a GPU newer "
			  "than the kernel needs a newer kernel");
	else if (!m->kernel.kfd_present && m->not_a_capture)
		gd_v_fact(v, GD_C_TREE_NOT_CAPTURED,
			  "Not judged: this tree holds no /sys/class/kfd, and "
			  "it is no gpudoctor gather capture (no .gpudoctor/), "
			  "so whether the machine has the KFD interface cannot "
			  "be told; run gpudoctor on the machine, or read a "
			  "`gpudoctor gather` capture of it");
	else if (!m->kernel.kfd_present && amdgpu_bound(g))
		gd_v_step(
		    v, GD_C_AMD_KFD_NOT_IN_KERNEL,
		    "amdgpu drives this GPU but the KFD interface "
		    "(/sys/class/kfd) is missing: use a kernel built with "
		    "CONFIG_HSA_AMD");
	else if (!m->kernel.kfd_present)
		gd_v_step(
		    v, GD_C_AMD_KFD_MISSING,
		    "The KFD interface (/sys/class/kfd) is missing: load "
		    "amdgpu (sudo modprobe amdgpu) with a kernel built with "
		    "CONFIG_HSA_AMD");
	gd_v_access_steps(v, g);
	apu_beside_dgpu(ctx, m, g, v);
	hip_installs(inv, ri, v);
	gd_v_rocblas_facts(v, inv, eff, &rocblas);
	gd_v_known_issues(ctx, v, t);
	gd_v_workload_advice(v, t);
	vulkan_fallback(inv, v, &have_vk);
	v->status = amd_decide(t, status, eff, g, ri, rocblas, v);
	hidden_step(m, g, v);
	if (v->status == GD_V_SETUP || v->status == GD_V_WORKAROUND) {
		rocm_setup_steps(ri, since, v);
		if (ri) /* else installing ROCm brings rocBLAS */
			rocblas_step(eff, rocblas, v);
	}
	if (v->status == GD_V_WORKAROUND)
		override_step(t, eff, g, v);
	override_active(t, g, v);
	vulkan_step(v, have_vk, v);
	if (t)
		gd_v_sources(v, t->sources);
	amd_headline(v, title, status, since, eff, g);
}
