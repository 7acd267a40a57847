/* The machine beneath the GPU, as verdict facts and steps: the driver
 * module's parameters in force against what modprobe.d and the command
 * line ask for, the driver bound (or blacklisted, or refused by Secure
 * Boot), firmware versions and kernel releases against the kb, and how
 * much memory an APU's GPU can use. Facts come from discover/kstate.c;
 * what they mean for a target comes from the kb's "kernel" section. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/vendor.h"
#include "verdict_util.h"

static int is_module_of(const struct gd_gpu *g, const char *mod)
{
	static const char *const amd[] = {"amdgpu", "ttm", "amdttm", NULL};
	static const char *const nv[] = {"nvidia", "nouveau", NULL};
	const char *const *l = g->vendor == GD_VENDOR_AMD      ? amd
			       : g->vendor == GD_VENDOR_NVIDIA ? nv
							       : NULL;

	for (size_t i = 0; l && l[i]; i++)
		if (!strcmp(l[i], mod))
			return 1;
	return 0;
}

static void params_fact(struct gd_verdict *v, const struct gd_kstate *k,
			enum gd_kmod mod)
{
	const struct gd_kmodule *km = &k->mod[mod];
	char list[400] = "";
	size_t used = 0;

	for (size_t i = 0; i < km->n; i++)
		used += (size_t)snprintf(
		    list + used, used < sizeof list ? sizeof list - used : 0,
		    "%s%s=%s", i ? ", " : "", km->p[i].name, km->p[i].value);
	if (km->n)
		gd_v_fact(v, GD_C_KERNEL_PARAMS, "%s parameters in force: %s",
			  gd_kmod_name(mod), list);
}

/* One module.param asked for (the request that wins) against the value
 * in force. */
static void check_asked(struct gd_verdict *v, const struct gd_kstate *k,
			const struct gd_kopt *o, int *rebuild)
{
	const struct gd_kopt *win = gd_kstate_asked(k, o->module, o->param);
	const char *now = gd_kstate_param(k, o->module, o->param);
	int cmd = !strcmp(win->src, "/proc/cmdline");

	if (win != o || !now || gd_kparam_same(now, o->value))
		return;
	gd_v_fact(v, GD_C_KERNEL_PARAM_PENDING,
		  "%s asks %s.%s=%s, but the running %s has %s=%s%s", o->src,
		  o->module, o->param, o->value, o->module, o->param, now,
		  cmd ? " (the module was loaded before the command line "
			"applied, or rejected the value: see dmesg)"
		      : ": it was loaded from an initramfs built before "
			"the setting, or before this file was read");
	if (!cmd)
		*rebuild = 1;
}

static void asked_facts(struct gd_verdict *v, const struct gd_gpu *g,
			const struct gd_kstate *k)
{
	const struct gd_kopts *all[] = {&k->cmd, &k->modprobe};
	int rebuild = 0;

	for (size_t a = 0; a < 2; a++)
		for (size_t i = 0; i < all[a]->n; i++)
			if (is_module_of(g, all[a]->v[i].module))
				check_asked(v, k, &all[a]->v[i], &rebuild);
	/* blacklisted in modprobe.d, yet the module drives this GPU */
	if (gd_known(&g->pci.driver)) {
		const struct gd_kopt *b =
		    gd_kstate_blacklisted(k, g->pci.driver.v);

		if (b && !strcmp(b->src, GD_KBL_RD_SRC)) {
			gd_v_fact(
			    v, GD_C_KERNEL_PARAM_PENDING,
			    "rd.driver.blacklist=%s on the kernel command "
			    "line keeps %s out of the initramfs only: it "
			    "was loaded later and drives this GPU",
			    b->module, b->module);
			gd_v_step(v, GD_C_KERNEL_LOAD_DRIVER,
				  "Add modprobe.blacklist=%s to the kernel "
				  "command line (or 'blacklist %s' in "
				  "/etc/modprobe.d, then rebuild the "
				  "initramfs) and reboot",
				  b->module, b->module);
		} else if (b && strcmp(b->src, "/proc/cmdline")) {
			gd_v_fact(v, GD_C_KERNEL_PARAM_PENDING,
				  "%s blacklists %s, but %s is loaded and "
				  "bound to this GPU",
				  b->src, b->module, b->module);
			rebuild = 1;
		}
	}
	if (rebuild)
		gd_v_step(v, GD_C_KERNEL_REBUILD_INITRAMFS,
			  "Set in modprobe.d but not in force: rebuild the "
			  "initramfs (Debian/Ubuntu: sudo update-initramfs "
			  "-u; Fedora/Arch with dracut: sudo dracut -f) and "
			  "reboot");
}

/* The AMD judge already gave the driver step (a tree that is no capture). */
static int has_step(const struct gd_verdict *v, enum gd_code code)
{
	for (size_t i = 0; i < v->steps.n; i++)
		if (v->steps.v[i].code == code)
			return 1;
	return 0;
}

static void no_driver(struct gd_verdict *v, const struct gd_gpu *g,
		      const struct gd_kstate *k, const char *mod)
{
	const struct gd_kopt *b = gd_kstate_blacklisted(k, mod);

	if (g->pci.driver_unseen) /* not in the tree: said by the judge */
		return;
	gd_v_fact(
	    v, GD_C_KERNEL_NO_DRIVER,
	    "no kernel driver is bound to this GPU; the %s module is "
	    "%s%s%s",
	    mod,
	    k->mod[g->vendor == GD_VENDOR_AMD ? GD_KMOD_AMDGPU : GD_KMOD_NVIDIA]
		    .loaded
		? "loaded"
		: "not loaded",
	    b ? ", blacklisted in " : "", b ? b->src : "");
	if (b)
		gd_v_step(v, GD_C_KERNEL_LOAD_DRIVER,
			  "Remove the blacklist of %s (%s), rebuild the "
			  "initramfs (sudo update-initramfs -u, or sudo "
			  "dracut -f) and reboot",
			  mod, b->src);
	else if (g->vendor == GD_VENDOR_AMD &&
		 !has_step(v, GD_C_AMD_DRIVER_LOAD))
		gd_v_step(v, GD_C_KERNEL_LOAD_DRIVER,
			  "Load the driver (sudo modprobe amdgpu) and read "
			  "why it does not bind: sudo dmesg | grep -i amdgpu");
}

/* The cause comes before the generic driver step the vendor rules gave
 * ("load it with modprobe"): move the last step to the front. */
static void first_step(struct gd_verdict *v)
{
	struct gd_line last;

	if (v->steps.n < 2)
		return;
	last = v->steps.v[v->steps.n - 1];
	memmove(&v->steps.v[1], &v->steps.v[0],
		(v->steps.n - 1) * sizeof *v->steps.v);
	v->steps.v[0] = last;
}

/* NVIDIA: no module while Secure Boot is on and a module is built. */
static void secure_boot(struct gd_verdict *v, const struct gd_kstate *k)
{
	if (k->mod[GD_KMOD_NVIDIA].loaded || k->secure_boot != 1)
		return;
	gd_v_fact(v, GD_C_KERNEL_SECURE_BOOT,
		  "Secure Boot is on and the nvidia module is not loaded%s%s: "
		  "the kernel refuses a module not signed with an enrolled "
		  "key",
		  k->nvidia_ko[0] ? " although it is built for this kernel, "
				    "at "
				  : "",
		  k->nvidia_ko);
	gd_v_step(v, GD_C_KERNEL_SIGN_MODULE,
		  "Secure Boot refuses the unsigned nvidia module: enrol "
		  "the DKMS signing key (sudo mokutil --import "
		  "/var/lib/dkms/mok.pub, then confirm it in the MOK "
		  "manager at the next boot) or sign the module via DKMS, "
		  "or disable Secure Boot in the firmware setup");
	first_step(v);
}

static void driver_facts(struct gd_verdict *v, const struct gd_gpu *g,
			 const struct gd_kstate *k)
{
	const char *drv = gd_known(&g->pci.driver) ? g->pci.driver.v : NULL;

	if (drv && !strcmp(drv, "vfio-pci")) {
		gd_v_fact(v, GD_C_KERNEL_NO_DRIVER,
			  "bound to vfio-pci: the GPU is reserved for a "
			  "virtual machine, not usable by this OS");
		gd_v_step(v, GD_C_KERNEL_LOAD_DRIVER,
			  "To use it here, remove its id from vfio-pci.ids= "
			  "(kernel command line) or the vfio-pci options in "
			  "modprobe.d and reboot");
		return;
	}
	if (drv || !gd_vendor_ops(g->vendor)->kernel_module)
		return;
	if (g->vendor == GD_VENDOR_NVIDIA && k->secure_boot == 1 &&
	    !k->mod[GD_KMOD_NVIDIA].loaded) {
		secure_boot(v, k);
		return;
	}
	/* only what was captured: a tree without /sys/module says nothing */
	if (k->mod[GD_KMOD_AMDGPU].loaded || k->mod[GD_KMOD_NVIDIA].loaded ||
	    k->n_modprobe_files || gd_known(&k->cmdline))
		no_driver(v, g, k, gd_vendor_ops(g->vendor)->kernel_module);
}

void gd_v_kernel(gd_ctx *ctx, const struct gd_machine *m,
		 struct gd_diagnosis *d)
{
	const struct gd_kstate *k = &m->kstate;

	for (size_t i = 0; i < d->n; i++) {
		struct gd_verdict *v = &d->v[i];
		const struct gd_gpu *g;

		if (v->gpu_index < 0)
			continue;
		g = &m->gpus[v->gpu_index];
		if (g->vendor == GD_VENDOR_AMD)
			params_fact(v, k, GD_KMOD_AMDGPU);
		if (g->vendor == GD_VENDOR_NVIDIA)
			params_fact(v, k,
				    gd_known(&g->pci.driver) &&
					    !strcmp(g->pci.driver.v, "nouveau")
					? GD_KMOD_NOUVEAU
					: GD_KMOD_NVIDIA);
		driver_facts(v, g, k);
		asked_facts(v, g, k);
		if (g->vendor == GD_VENDOR_AMD) {
			gd_v_kernel_fw(ctx, v, g);
			gd_v_kernel_mem(ctx, v, m, g);
		}
	}
}
