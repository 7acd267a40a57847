/* Verdict rules for NVIDIA GPUs: the kernel driver, the compute capability
 * (kb), and whether the driver is new enough for the CUDA libraries found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "verdict_util.h"

/* Curie and the chips before it (the embedded ids' NV1x-NV4x, G7x and
 * nForce IGP rows, target ""): older than CUDA. */
static int pre_cuda(const struct gd_gpu *g)
{
	return !g->nv.sm[0] && g->idrow && !g->idrow->target[0] &&
	       strstr(g->idrow->arch, "Curie");
}

static void nv_facts(gd_ctx *ctx, const struct gd_inventory *inv,
		     const struct gd_gpu *g, struct gd_verdict *v)
{
	struct gd_kb_cc ccs;
	const struct gd_kb_cc *cc =
	    g->nv.sm[0] && gd_kb_cc_get(ctx->kb, g->nv.sm, &ccs) == 0 ? &ccs
								      : NULL;

	gd_v_fact(v, GD_C_GPU_PCI, "PCI %s [%04x:%04x], driver %s", g->pci.bdf,
		  g->pci.vendor_id, g->pci.device_id,
		  gd_known(&g->pci.driver) ? g->pci.driver.v
		  : g->pci.driver_unseen   ? "not in this tree"
					   : "none bound");
	if (gd_known(&g->nv.uuid))
		gd_v_fact(v, GD_C_NVIDIA_UUID, "UUID %s", g->nv.uuid.v);
	if (cc)
		gd_v_fact(v, GD_C_NVIDIA_COMPUTE_CAPABILITY,
			  "compute capability %s (%s, %s)",
			  cc->cc ? cc->cc : "?", g->nv.sm,
			  cc->arch ? cc->arch : "?");
	else if (g->nv.sm[0])
		gd_v_fact(v, GD_C_NVIDIA_COMPUTE_CAPABILITY,
			  "compute capability %s (%s)", g->nv.sm,
			  g->nv.arch[0] ? g->nv.arch : "architecture unknown");
	else if (!pre_cuda(g))
		gd_v_fact(v, GD_C_NVIDIA_COMPUTE_CAPABILITY_UNKNOWN,
			  "compute capability unknown: the knowledge base has "
			  "neither PCI id 0x%04x nor its pci.ids chip name",
			  g->pci.device_id);
	if (g->nv.sm[0] && gd_startswith(g->nv.sm_src, "from pci.ids"))
		gd_v_fact(v, GD_C_NVIDIA_SM_FROM_CHIP,
			  "%s %s: the knowledge base has no entry for PCI id "
			  "0x%04x",
			  g->nv.sm, g->nv.sm_src, g->pci.device_id);
	if (g->nv.last_driver[0])
		gd_v_fact(v, GD_C_NVIDIA_LAST_DRIVER,
			  "NVIDIA's %s driver series is the last that "
			  "supports %s GPUs",
			  g->nv.last_driver, g->nv.arch);
	if (cc && cc->last_cuda)
		gd_v_fact(v, GD_C_NVIDIA_LAST_CUDA,
			  "CUDA %s is the last release that supports %s",
			  cc->last_cuda, g->nv.sm);
	if (cc)
		gd_v_sources(v, cc->sources);
	if (inv && gd_known(&inv->cuda_driver))
		gd_v_fact(v, GD_C_NVIDIA_DRIVER, "NVIDIA driver %s%s%s%s",
			  inv->cuda_driver.v,
			  gd_known(&inv->cuda_driver_api) ? " (CUDA " : "",
			  gd_known(&inv->cuda_driver_api)
			      ? inv->cuda_driver_api.v
			      : "",
			  gd_known(&inv->cuda_driver_api) ? ")" : "");
	for (size_t i = 0; inv && i < inv->n_cuda; i++)
		gd_v_fact(v, GD_C_CUDA_TOOLKIT, "CUDA toolkit %s at %s",
			  gd_known(&inv->cuda[i].version)
			      ? inv->cuda[i].version.v
			      : "?",
			  inv->cuda[i].path);
}

/* The CUDA major the driver supports ("13" from "13.x"), or 0. */
static unsigned driver_cuda_major(const struct gd_inventory *inv)
{
	return inv && gd_known(&inv->cuda_driver_api)
		   ? (unsigned)strtoul(inv->cuda_driver_api.v, NULL, 10)
		   : 0;
}

/* PyTorch's install line for the newest CUDA major the driver (and, for
 * an architecture newer CUDA dropped, the GPU) can use: kb data. A compute
 * capability whose code left PyTorch's wheels before CUDA dropped it
 * (Maxwell, Pascal: not in cu128) names its own line. */
static void concrete_installs(gd_ctx *ctx, struct gd_verdict *v, unsigned major,
			      const struct gd_kb_cc *cc)
{
	const char *line = cc && cc->pytorch_install
			       ? cc->pytorch_install
			       : gd_kb_workload_install_for(
				     ctx->kb, GD_KB_WL_PYTORCH, "cuda", major);

	for (size_t i = 0; line && i < v->workloads.n; i++)
		if (!strcmp(v->workloads.v[i].workload, "pytorch"))
			gd_strlcpy(v->workloads.v[i].install, line,
				   sizeof v->workloads.v[i].install);
}

/* Bound driver: "nvidia"; else why not and what to do. */
static int nv_driver_steps(const struct gd_inventory *inv,
			   const struct gd_gpu *g, struct gd_verdict *v)
{
	int bound =
	    gd_known(&g->pci.driver) && !strcmp(g->pci.driver.v, "nvidia");
	int nouveau =
	    gd_known(&g->pci.driver) && !strcmp(g->pci.driver.v, "nouveau");
	int installed = inv && gd_known(&inv->cuda_driver);

	if (bound)
		return 1;
	if (g->pci.driver_unseen) {
		gd_v_fact(v, GD_C_TREE_NOT_CAPTURED,
			  "Not judged: this tree holds neither the driver link "
			  "nor the uevent of %s, so whether a driver is bound "
			  "cannot be told; run gpudoctor on the machine, or "
			  "read a `gpudoctor gather` capture of it",
			  g->pci.bdf);
		return 0;
	}
	if (gd_known(&g->pci.driver) && !strcmp(g->pci.driver.v, "vfio-pci")) {
		gd_v_step(
		    v, GD_C_GPU_VFIO_PASSTHROUGH,
		    "This GPU is bound to vfio-pci: it is set aside for "
		    "a virtual machine (PCI passthrough) and no driver on "
		    "this host can use it; run CUDA inside that VM, with "
		    "NVIDIA's driver installed there");
		return 0;
	}
	if (installed && g->nv.last_driver[0] &&
	    strtoul(inv->cuda_driver.v, NULL, 10) >
		strtoul(g->nv.last_driver, NULL, 10))
		gd_v_step(v, GD_C_NVIDIA_DRIVER_TOO_NEW,
			  "The NVIDIA driver %s is newer than the %s series, "
			  "the last that supports %s GPUs: it does not drive "
			  "this GPU; install the %s series",
			  inv->cuda_driver.v, g->nv.last_driver, g->nv.arch,
			  g->nv.last_driver);
	else if (installed)
		gd_v_step(
		    v, GD_C_NVIDIA_DRIVER_NOT_BOUND,
		    "The NVIDIA driver %s is installed but its kernel "
		    "module does not drive this GPU%s: %sload it (sudo "
		    "modprobe nvidia) and reboot if it does not bind",
		    inv->cuda_driver.v, nouveau ? " (nouveau does)" : "",
		    nouveau
			? "blacklist nouveau (echo 'blacklist nouveau' | "
			  "sudo tee /etc/modprobe.d/blacklist-nouveau.conf; "
			  "sudo update-initramfs -u), then "
			: "");
	else if (g->nv.last_driver[0])
		gd_v_step(v, GD_C_NVIDIA_DRIVER_INSTALL_LEGACY,
			  "Install NVIDIA's %s driver series, the last that "
			  "supports %s GPUs (newer drivers do not drive this "
			  "one), and reboot%s",
			  g->nv.last_driver, g->nv.arch,
			  nouveau ? "; it replaces nouveau, which has no CUDA"
				  : "");
	else
		gd_v_step(v, GD_C_NVIDIA_DRIVER_INSTALL,
			  "Install NVIDIA's driver (Debian: nvidia-driver from "
			  "non-free; Ubuntu: sudo ubuntu-drivers install) and "
			  "reboot%s",
			  nouveau ? "; it replaces nouveau, which "
				    "has no CUDA"
				  : "");
	return 0;
}

/* An architecture current CUDA (last) or drivers dropped: the steps, and
 * the CUDA major the install lines may use. 1 when CUDA dropped it. */
static int legacy_steps(const struct gd_gpu *g, const char *last,
			struct gd_verdict *v, unsigned *major)
{
	if (last) {
		unsigned last_major = (unsigned)strtoul(last, NULL, 10);

		gd_v_step(v, GD_C_NVIDIA_ARCH_DROPPED,
			  "CUDA releases after %s no longer support %s: use "
			  "framework builds for CUDA %s or older (PyTorch: the "
			  "newest wheel built for it), not the current ones",
			  last, g->nv.sm, last);
		if (!*major || last_major < *major)
			*major = last_major;
	}
	if (g->nv.last_driver[0])
		gd_v_step(v, GD_C_NVIDIA_DRIVER_STAY_LEGACY,
			  "Stay on NVIDIA's %s driver series (the legacy "
			  "branch for %s): a newer driver does not drive this "
			  "GPU",
			  g->nv.last_driver, g->nv.arch);
	return last != NULL;
}

/* No driver bound, and the architecture is one that neither CUDA 12 nor
 * a current driver supports (Fermi, Kepler: last CUDA 8.0 / 11.8, last
 * driver 390 / 470, kb nvidia_chips): setting the driver up would not
 * give a usable CUDA, so say so rather than "needs setup". Every current
 * framework release is built for CUDA 12 or newer (kb workloads). */
void gd_v_nv_legacy_text(const struct gd_gpu *g, const char *last, char *buf,
			 size_t cap)
{
	gd_fmt(buf, cap,
	       "%s (%s): CUDA %s and the %s driver series were the last to "
	       "support it; no current framework build runs on it",
	       g->nv.arch[0] ? g->nv.arch : "this architecture", g->nv.sm, last,
	       g->nv.last_driver);
}

static int legacy_only(gd_ctx *ctx, const struct gd_gpu *g, const char *last,
		       struct gd_verdict *v, const char *title)
{
	char text[400];

	if (!last || !g->nv.last_driver[0] || strtoul(last, NULL, 10) >= 12)
		return 0;
	v->status = GD_V_UNSUPPORTED;
	gd_v_headline(v, title,
		      "current CUDA and NVIDIA drivers no longer support %s "
		      "GPUs (last CUDA %s, last driver series %s)",
		      g->nv.arch[0] ? g->nv.arch : g->nv.sm, last,
		      g->nv.last_driver);
	gd_v_nv_legacy_text(g, last, text, sizeof text);
	gd_v_fact(v, GD_C_NVIDIA_ARCH_UNSUPPORTED, "%s", text);
	gd_v_step(v, GD_C_CPU_RUN_ON_CPU,
		  "For GPU compute with current software, use a newer GPU; "
		  "the CPU builds of the frameworks run here as they are");
	gd_v_workloads_for_stack(ctx, v, "cpu", "cpu");
	return 1;
}

/* A chip older than CUDA (the embedded ids give its architecture, Curie
 * or before, and no sm: docs/ids.md): no driver or toolkit gives it CUDA,
 * whatever is bound, so it is unsupported, not "needs setup". */
static int judge_pre_cuda(gd_ctx *ctx, const struct gd_gpu *g,
			  struct gd_verdict *v, const char *title)
{
	if (!pre_cuda(g))
		return 0;
	v->status = GD_V_UNSUPPORTED;
	gd_fmt(v->headline, sizeof v->headline,
	       "%s: a %s GPU, older than CUDA: no CUDA driver or framework "
	       "build runs on it",
	       title, g->idrow->arch);
	gd_v_fact(v, GD_C_NVIDIA_PRE_CUDA,
		  "%s (chip %s, from %s): CUDA starts with the GeForce 8 "
		  "series (G80, Tesla, sm_10); this chip has no compute "
		  "capability",
		  g->idrow->arch, g->idrow->chip, g->idrow->src);
	gd_v_step(v, GD_C_CPU_RUN_ON_CPU,
		  "For GPU compute use a newer GPU; the CPU builds of the "
		  "frameworks run here as they are");
	gd_v_workloads_for_stack(ctx, v, "cpu", "cpu");
	return 1;
}

void gd_v_judge_nvidia(gd_ctx *ctx, const struct gd_inventory *inv,
		       const struct gd_gpu *g, struct gd_verdict *v)
{
	struct gd_kb_cc ccs;
	const struct gd_kb_cc *cc =
	    g->nv.sm[0] && gd_kb_cc_get(ctx->kb, g->nv.sm, &ccs) == 0 ? &ccs
								      : NULL;
	const char *last = cc ? cc->last_cuda : NULL;
	unsigned major = driver_cuda_major(inv);
	char title[300];
	int too_old = 0, dropped = 0;

	if (!last && g->nv.last_cuda[0])
		last = g->nv.last_cuda;

	gd_v_gpu_title(g, NULL, title, sizeof title);
	nv_facts(ctx, inv, g, v);
	if (judge_pre_cuda(ctx, g, v, title))
		return;
	if (!nv_driver_steps(inv, g, v)) {
		if (legacy_only(ctx, g, last, v, title))
			return;
		if (g->pci.driver_unseen) {
			v->status = GD_V_UNKNOWN;
			gd_v_headline(v, title,
				      "whether a driver drives it is not in "
				      "this tree");
			return;
		}
		v->status = GD_V_SETUP;
		gd_v_headline(
		    v, title,
		    "the NVIDIA kernel driver is not bound to this GPU%s",
		    !gd_known(&g->pci.driver) ? ""
		    : !strcmp(g->pci.driver.v, "nouveau")
			? " (nouveau is: it has no CUDA)"
		    : !strcmp(g->pci.driver.v, "vfio-pci")
			? " (vfio-pci is: the GPU is set aside for a virtual "
			  "machine)"
			: "");
		gd_v_workloads_for_stack(ctx, v, "cuda", "needs-setup");
		return;
	}
	if (gd_v_nvidia_container(ctx, g, title, v) ||
	    gd_v_nvidia_nodes(ctx, g, title, v))
		return;
	for (size_t i = 0; inv && i < inv->n_cuda_checks; i++) {
		const struct gd_cuda_check *c = &inv->cuda_checks[i];

		if (c->driver_ok != 0)
			continue;
		too_old = 1;
		gd_v_fact(v, GD_C_CUDA_DRIVER_TOO_OLD,
			  "%s %s needs driver >= %s", c->lib, c->version,
			  c->min_driver);
		gd_v_step(v, GD_C_CUDA_DRIVER_UPGRADE,
			  "Upgrade the NVIDIA driver to %s or newer, or use "
			  "builds for an older CUDA (%s)",
			  c->min_driver, c->why);
	}
	dropped = legacy_steps(g, last, v, &major);
	if (g->hidden)
		gd_v_step(v, GD_C_VISIBILITY_UNHIDE_CUDA,
			  "CUDA_VISIBLE_DEVICES hides this GPU (%s): unset it, "
			  "or include this GPU%s%s",
			  g->visible_note,
			  gd_known(&g->nv.uuid) ? ": CUDA_VISIBLE_DEVICES="
						: "'s index",
			  gd_known(&g->nv.uuid) ? g->nv.uuid.v : "");
	v->status = too_old || g->hidden ? GD_V_SETUP
		    : dropped		 ? GD_V_WORKAROUND
					 : GD_V_WORKS;
	gd_v_headline(
	    v, title, "%s",
	    too_old ? "the driver is too old for the CUDA libraries installed"
	    : g->hidden ? "hidden by CUDA_VISIBLE_DEVICES"
	    : dropped	? "current CUDA builds no longer support this GPU"
			: "CUDA should work with the installed driver");
	gd_v_workloads_for_stack(ctx, v, "cuda",
				 v->status == GD_V_WORKS   ? "works"
				 : v->status == GD_V_SETUP ? "needs-setup"
							   : "workaround");
	if (major)
		concrete_installs(ctx, v, major, cc);
}
