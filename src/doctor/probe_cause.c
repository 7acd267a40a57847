/* doctor/probe_cause: the rules that name why a backend's init failed
 * (probe_cause.h). One table, tried in order, first match wins: the
 * runtime's own words first when they name a file (a missing library, an
 * ICD without vkCreateInstance), then the machine's facts (no GPU, no
 * driver bound, no KFD, a container, permissions), then the runtime's
 * decisive line alone, then "unknown". Kernel-state rules (module
 * parameters, firmware: cause.kernel_parameter, cause.firmware) and the
 * DT_NEEDED closure (package names for cause.missing_library) plug in as
 * rows here. Picking the lines: probe_diag_pick.c. */
#include "probe_cause.h"

#include <string.h>

#include "discover/vendor.h"
#include "kb/kb.h"
#include "verdict_util.h"

typedef int (*cause_fn)(const struct gd_cause_in *in, struct gd_cause *out);

static const char *gpu_label(const struct gd_gpu *g)
{
	return gd_known(&g->name) ? g->name.v : g->pci.bdf;
}

static void set(struct gd_cause *out, enum gd_code code, const char *fix)
{
	out->code = code;
	gd_strlcpy(out->fix, fix ? fix : "", sizeof out->fix);
}

/* The step for a library that is not found: the packages the kb names
 * for it (libraries[]), else how to look them up. */
static void fix_install(const struct gd_cause_in *in, const char *lib,
			struct gd_cause *out)
{
	char pkg[200];

	if (gd_doctor_packages(in->ctx ? in->ctx->kb : NULL, lib, pkg,
			       sizeof pkg, NULL) &&
	    pkg[0])
		gd_fmt(out->fix, sizeof out->fix, "install %s: it provides %s",
		       pkg, lib);
	else
		gd_fmt(out->fix, sizeof out->fix,
		       "install the package that provides %s (Debian/Ubuntu: "
		       "apt-file search %s; Fedora: dnf provides '*/%s')",
		       lib, lib, lib);
}

/* The line of the diagnostics (or of init's detail) that names a library
 * the loader could not open. */
static int find_dlerror(const struct gd_cause_in *in, char *lib, size_t cap,
			char *line, size_t lcap)
{
	const struct gd_probe_diag *dg = in->diag;

	for (int i = 0; dg && i < dg->n_lines; i++)
		if (gd_cause_dlerror_lib(dg->lines[i], lib, cap)) {
			gd_strlcpy(line, dg->lines[i], lcap);
			return 1;
		}
	if (in->init && gd_cause_dlerror_lib(in->init->detail, lib, cap)) {
		gd_strlcpy(line, in->init->detail, lcap);
		return 1;
	}
	return 0;
}

/* "... associated with ICD JSON /x/libvulkan_lvp.so. Ignoring" (the
 * Vulkan loader names the library there, not the manifest), anywhere in
 * what the loader printed. */
static void icd_of(const struct gd_probe_diag *dg, char *out, size_t cap)
{
	static const char key[] = "associated with ICD JSON ";
	const char *p = dg && dg->out ? strstr(dg->out, key) : NULL;
	size_t n;

	out[0] = '\0';
	if (!p)
		return;
	p += sizeof key - 1;
	n = strcspn(p, " \n");
	if (n && p[n - 1] == '.')
		n--;
	gd_fmt(out, cap, "%.*s", (int)n, p);
	gd_sanitize(out);
}

/* The ICD manifest that names lib as its library, "" when none does. */
static const char *manifest_of(const struct gd_cause_in *in, const char *lib)
{
	int vk = !strcmp(in->backend, "vulkan");
	const struct gd_icd *t = !in->inv ? NULL
				 : vk	  ? in->inv->vulkan
					  : in->inv->opencl;
	size_t n = !in->inv ? 0 : vk ? in->inv->n_vulkan : in->inv->n_opencl;

	for (size_t i = 0; i < n; i++)
		if (gd_known(&t[i].library) && !strcmp(t[i].library.v, lib))
			return t[i].manifest;
	return "";
}

static int cause_missing_library(const struct gd_cause_in *in,
				 struct gd_cause *out)
{
	char lib[96], line[320], icd[200];
	const char *man;

	if (!find_dlerror(in, lib, sizeof lib, line, sizeof line))
		return 0;
	icd_of(in->diag, icd, sizeof icd);
	man = manifest_of(in, lib);
	set(out, GD_C_CAUSE_MISSING_LIBRARY, NULL);
	if (lib[0] == '/') { /* a path: the manifest names a file not there */
		gd_fmt(out->text, sizeof out->text,
		       "the driver library %s does not exist%s%s%s", lib,
		       man[0] ? " (named by " : "", man, man[0] ? ")" : "");
		gd_strlcpy(out->fix,
			   "reinstall the driver package that owns the ICD "
			   "manifest, or remove the manifest it left behind",
			   sizeof out->fix);
		return 1;
	}
	if (icd[0] && !strstr(icd, lib))
		gd_fmt(out->text, sizeof out->text,
		       "%s is not found: the driver %s needs it", lib, icd);
	else
		gd_fmt(out->text, sizeof out->text,
		       "%s is not found: the loader could not open it", lib);
	fix_install(in, lib, out);
	return 1;
}

/* NVIDIA's ICD without libglvnd's libEGL.so.1 (docs/probe.md): the loader
 * says "Could not get 'vkCreateInstance' via 'vk_icdGetInstanceProcAddr'
 * for ICD X"; ld.so's list says what X looked for at run time. */
static int cause_icd_incomplete(const struct gd_cause_in *in,
				struct gd_cause *out)
{
	static const char key[] = "for ICD ";
	const struct gd_probe_diag *dg = in->diag;
	char nf[300] = "";
	const char *fix = NULL;
	struct gd_kb_signature sg;

	for (int i = 0; dg && i < dg->n_lines; i++) {
		const char *p = strstr(dg->lines[i], key);

		if (strcmp(dg->line_sig[i], "vk-icd-no-create-instance") || !p)
			continue;
		for (int k = 0; k < dg->n_not_found; k++)
			gd_fmt(nf + strlen(nf), sizeof nf - strlen(nf), "%s%s",
			       k ? ", " : "", dg->not_found[k]);
		gd_fmt(out->text, sizeof out->text,
		       "the Vulkan driver %.120s loads but gives the loader "
		       "no vkCreateInstance%s%s%s",
		       p + sizeof key - 1,
		       nf[0] ? "; at run time it looked for " : "", nf,
		       nf[0] ? ", which is not found" : "");
		if (in->ctx && in->ctx->kb &&
		    gd_kb_signature_get(in->ctx->kb, dg->line_sig[i], &sg) == 0)
			fix = sg.fix;
		set(out, GD_C_CAUSE_ICD_INCOMPLETE, fix);
		/* what ld.so did not find, with its package, when the kb
		 * knows it: more exact than the signature's general fix */
		if (dg->n_not_found &&
		    gd_doctor_packages(in->ctx ? in->ctx->kb : NULL,
				       dg->not_found[0], nf, sizeof nf, NULL) &&
		    nf[0])
			fix_install(in, dg->not_found[0], out);
		return 1;
	}
	return 0;
}

/* The DT_NEEDED closure (inventory's dependency checks, with the kb's
 * dlopen dependencies) says a library of this backend would not load. */
static int cause_dep_broken(const struct gd_cause_in *in, struct gd_cause *out)
{
	const struct gd_dep_check *d =
	    in->inv ? gd_inventory_dep_broken(in->inv, in->backend) : NULL;

	if (!d)
		return 0;
	if (d->status == GD_DEP_MISSING) {
		gd_fmt(out->text, sizeof out->text,
		       "%s (%s) would not load: %s: not found", d->what,
		       d->name, d->chain);
		set(out, GD_C_CAUSE_MISSING_LIBRARY, NULL);
		fix_install(in, d->soname, out);
		return 1;
	}
	gd_fmt(out->text, sizeof out->text,
	       "%s (%s) would not load: %s: %s%s%s", d->what, d->name, d->chain,
	       gd_dep_status_name(d->status), d->version[0] ? " " : "",
	       d->version);
	set(out, GD_C_CAUSE_LIBRARY_UNUSABLE, NULL);
	if (d->status == GD_DEP_VERSION)
		gd_fmt(out->fix, sizeof out->fix,
		       "%s%s%s is too old for %s: upgrade it, or use a build "
		       "made for this distribution",
		       d->path[0] ? d->path : d->soname,
		       d->how[0] ? ", found through " : "", d->how,
		       d->needed_by);
	else
		gd_fmt(out->fix, sizeof out->fix,
		       "%s is not a library for this machine (%s): install the "
		       "64-bit x86-64 package of %s",
		       d->path[0] ? d->path : d->soname,
		       gd_dep_status_name(d->status), d->soname);
	return 1;
}

static size_t count_vendor(const struct gd_machine *m, enum gd_vendor v)
{
	size_t n = 0;

	for (size_t i = 0; m && i < m->n_gpus; i++)
		n += m->gpus[i].vendor == v;
	return n;
}

static int cause_no_gpu(const struct gd_cause_in *in, struct gd_cause *out)
{
	enum gd_vendor v = gd_vendor_of_backend(in->backend);

	if (!in->m || v == GD_VENDOR_OTHER || count_vendor(in->m, v))
		return 0;
	gd_fmt(out->text, sizeof out->text,
	       "no %s GPU on this machine (PCI lists %zu GPU%s)",
	       gd_vendor_ops(v) ? gd_vendor_ops(v)->title : "", in->m->n_gpus,
	       in->m->n_gpus == 1 ? "" : "s");
	set(out, GD_C_CAUSE_NO_GPU,
	    "nothing to repair here: use a backend that works on this "
	    "machine, or a machine with such a GPU");
	return 1;
}

/* The kernel driver the runtime needs, per vendor (its table row). */
static const char *wanted_driver(enum gd_vendor v)
{
	return gd_vendor_ops(v)->kernel_module;
}

/* The driver bound is the vendor's module, or its second one (Intel: xe
 * beside i915, docs/intel.md). */
static int driver_ok(enum gd_vendor v, const char *drv)
{
	const struct gd_vendor_ops *o = gd_vendor_ops(v);

	return (o->kernel_module && !strcmp(drv, o->kernel_module)) ||
	       (o->kernel_module_alt && !strcmp(drv, o->kernel_module_alt));
}

/* What the kernel state (discover/kstate.c) says about a driver module
 * that is not loaded: a blacklist entry, Secure Boot refusing nvidia. */
static void kernel_why(const struct gd_kstate *k, const char *mod,
		       struct gd_cause *out)
{
	const struct gd_kopt *bl = gd_kstate_blacklisted(k, mod);
	size_t n = strlen(out->text);

	if (k->mod[!strcmp(mod, "nvidia") ? GD_KMOD_NVIDIA : GD_KMOD_AMDGPU]
		.loaded)
		return;
	if (bl) {
		gd_fmt(out->text + n, sizeof out->text - n,
		       "; %s is blacklisted (%s)", mod, bl->src);
		gd_fmt(out->fix, sizeof out->fix,
		       "remove the blacklist of %s (%s), rebuild the initramfs "
		       "(update-initramfs -u / dracut -f) and reboot",
		       mod, bl->src);
	} else if (!strcmp(mod, "nvidia") && k->secure_boot == 1) {
		gd_fmt(out->text + n, sizeof out->text - n,
		       "; Secure Boot is on: the kernel refuses a module not "
		       "signed with an enrolled key");
		gd_strlcpy(
		    out->fix,
		    "enrol the DKMS signing key (sudo mokutil --import "
		    "/var/lib/dkms/mok.pub, confirm it in the MOK manager "
		    "at the next boot), or disable Secure Boot",
		    sizeof out->fix);
	}
}

static int cause_driver_not_loaded(const struct gd_cause_in *in,
				   struct gd_cause *out)
{
	enum gd_vendor v = gd_vendor_of_backend(in->backend);
	char fix[320];

	for (size_t i = 0; in->m && v != GD_VENDOR_OTHER && i < in->m->n_gpus;
	     i++) {
		const struct gd_gpu *g = &in->m->gpus[i];
		const char *want = wanted_driver(v);

		if (!want || g->vendor != v || g->pci_missing ||
		    (gd_known(&g->pci.driver) && driver_ok(v, g->pci.driver.v)))
			continue;
		if (gd_known(&g->pci.driver))
			gd_fmt(out->text, sizeof out->text,
			       "%s (%s) is driven by %s, not %s", gpu_label(g),
			       g->pci.bdf, g->pci.driver.v, want);
		else
			gd_fmt(out->text, sizeof out->text,
			       "%s (%s) has no kernel driver bound: the %s "
			       "module is not loaded (or refused the GPU)",
			       gpu_label(g), g->pci.bdf, want);
		gd_fmt(fix, sizeof fix,
		       "load %s (sudo modprobe %s; dmesg says why it "
		       "refuses: Secure Boot, a blacklist, an unsupported "
		       "GPU); 'gpudoctor check' lists the kernel's state",
		       want, want);
		set(out, GD_C_CAUSE_DRIVER_NOT_LOADED, fix);
		kernel_why(&in->m->kstate, want, out);
		return 1;
	}
	return 0;
}

static int cause_no_kfd(const struct gd_cause_in *in, struct gd_cause *out)
{
	for (size_t i = 0;
	     in->m && !strcmp(in->backend, "hip") && i < in->m->n_gpus; i++) {
		const struct gd_gpu *g = &in->m->gpus[i];

		if (g->vendor != GD_VENDOR_AMD || g->n_kfd_nodes)
			continue;
		if (g->amd_no_kfd[0]) {
			gd_fmt(out->text, sizeof out->text,
			       "%s is %s, a family KFD (ROCm's kernel side) "
			       "never supported",
			       gpu_label(g), g->amd_no_kfd);
			set(out, GD_C_CAUSE_NO_KFD,
			    "ROCm cannot use this GPU: use Vulkan (RADV)");
			return 1;
		}
		if (in->m->kfd_nodes_total)
			continue; /* KFD is there, this GPU is not in it */
		gd_fmt(out->text, sizeof out->text,
		       "amdgpu drives %s but the kernel has no KFD%s%s%s",
		       gpu_label(g), in->m->kfd_why[0] ? " (" : "",
		       in->m->kfd_why, in->m->kfd_why[0] ? ")" : "");
		set(out, GD_C_CAUSE_NO_KFD,
		    "boot a kernel built with CONFIG_HSA_AMD=y (the "
		    "distribution's standard kernel has it)");
		return 1;
	}
	return 0;
}

static int cause_access(const struct gd_cause_in *in, struct gd_cause *out)
{
	for (size_t i = 0;
	     in->m && !strcmp(in->backend, "hip") && i < in->m->n_gpus; i++) {
		const struct gd_gpu *g = &in->m->gpus[i];
		const struct gd_access *a = &g->access;

		if (g->vendor != GD_VENDOR_AMD || (a->kfd_ok && a->render_ok))
			continue;
		if (a->in_container && a->kfd.st == GD_UNKNOWN) {
			gd_fmt(out->text, sizeof out->text,
			       "this runs in a container without the GPU's "
			       "device nodes (%s)",
			       a->kfd.why);
			set(out, GD_C_CAUSE_CONTAINER, a->fix);
			return 1;
		}
		if (a->kfd.st == GD_FAILED || a->render.st == GD_FAILED) {
			gd_fmt(out->text, sizeof out->text, "%s",
			       a->kfd.st == GD_FAILED ? a->kfd.why
						      : a->render.why);
			set(out, GD_C_CAUSE_PERMISSION, a->fix);
			return 1;
		}
	}
	return 0;
}

static int cause_no_icd(const struct gd_cause_in *in, struct gd_cause *out)
{
	int vk = !strcmp(in->backend, "vulkan");

	if (!in->inv || (!vk && strcmp(in->backend, "opencl")) ||
	    (vk ? in->inv->n_vulkan : in->inv->n_opencl))
		return 0;
	gd_fmt(out->text, sizeof out->text,
	       "no %s driver (ICD) is installed where the loader looks (%s)",
	       vk ? "Vulkan" : "OpenCL",
	       vk ? in->inv->vulkan_search : in->inv->opencl_search);
	set(out, GD_C_CAUSE_NO_ICD,
	    vk ? "install the GPU's Vulkan driver (Mesa: mesa-vulkan-drivers "
		 "on Debian/Ubuntu and Fedora; NVIDIA: its driver package)"
	       : "install the GPU's OpenCL driver (an ICD in "
		 "/etc/OpenCL/vendors), or PoCL for the CPU");
	return 1;
}

/* The Level Zero loader found no driver: Intel's GPU driver for it
 * (libze_intel_gpu.so.1, compute-runtime) is not installed. */
static int cause_ze_no_driver(const struct gd_cause_in *in,
			      struct gd_cause *out)
{
	if (!in->init || in->init->status != GD_PS_NODEVICE ||
	    !strstr(in->init->detail, "ZE_RESULT_ERROR_UNINITIALIZED"))
		return 0;
	gd_fmt(out->text, sizeof out->text,
	       "the Level Zero loader found no GPU driver: Intel's "
	       "libze_intel_gpu.so.1 (compute-runtime) is not installed%s",
	       in->diag && in->diag->n_not_found
		   ? " (ld.so did not find it either)"
		   : "");
	set(out, GD_C_CAUSE_NOT_INSTALLED,
	    "install Intel's compute runtime: Debian 13 / Ubuntu 24.04 and "
	    "later: sudo apt install libze-intel-gpu1 intel-opencl-icd; "
	    "older releases: the intel-level-zero-gpu and intel-opencl-icd "
	    "packages of Intel's compute-runtime releases (docs/intel.md)");
	return 1;
}

/* The runtime's library is not there (and nothing above explains why a
 * GPU it would drive is of no use anyway). */
static int cause_not_installed(const struct gd_cause_in *in,
			       struct gd_cause *out)
{
	if (!in->init || in->init->status != GD_PS_MISSING)
		return 0;
	gd_fmt(out->text, sizeof out->text,
	       "the runtime is not installed where the loader looks: %.300s",
	       in->init->detail);
	set(out, GD_C_CAUSE_NOT_INSTALLED,
	    !strcmp(in->backend, "vulkan")
		? "install the Vulkan loader (Debian/Ubuntu: libvulkan1; "
		  "Fedora: vulkan-loader)"
	    : !strcmp(in->backend, "opencl")
		? "install an OpenCL ICD loader (Debian/Ubuntu: "
		  "ocl-icd-libopencl1; Fedora: ocl-icd)"
		: "install the runtime ('gpudoctor check' names the release "
		  "for the GPUs here), or add its directory to "
		  "LD_LIBRARY_PATH");
	return 1;
}

/* Every ICD manifest the loader reads names a library that is not there
 * (ocl-icd says nothing about it; inventory/ looked). */
static int cause_icd_library_absent(const struct gd_cause_in *in,
				    struct gd_cause *out)
{
	int vk = !strcmp(in->backend, "vulkan");
	const struct gd_icd *t = !in->inv ? NULL
				 : vk	  ? in->inv->vulkan
					  : in->inv->opencl;
	size_t n = !in->inv ? 0 : vk ? in->inv->n_vulkan : in->inv->n_opencl;

	for (size_t i = 0; i < n; i++)
		if (t[i].library_found)
			return 0;
	if (!n)
		return 0;
	gd_fmt(out->text, sizeof out->text,
	       "the %s driver library %s does not exist (named by %s%s)",
	       vk ? "Vulkan" : "OpenCL",
	       gd_known(&t[0].library) ? t[0].library.v : "(unreadable)",
	       t[0].manifest,
	       n > 1 ? ", and no other ICD's library exists" : "");
	set(out, GD_C_CAUSE_MISSING_LIBRARY,
	    "reinstall the driver package that owns the ICD file, or remove "
	    "the file it left behind");
	return 1;
}

/* An ICD loader dlopens each driver and ignores a failure; ld.so's
 * LD_DEBUG=libs still shows the dependency it could not find. */
static int cause_ld_not_found(const struct gd_cause_in *in,
			      struct gd_cause *out)
{
	const struct gd_probe_diag *dg = in->diag;
	char fix[320];

	if (!dg || !dg->n_not_found)
		return 0;
	gd_fmt(out->text, sizeof out->text,
	       "ld.so looked for %s%s and did not find it: a library the "
	       "driver needs",
	       dg->not_found[0], dg->n_not_found > 1 ? " (and others)" : "");
	gd_fmt(fix, sizeof fix,
	       "install the package that provides %s (Debian/Ubuntu: "
	       "apt-file search %s; Fedora: dnf provides '*/%s')",
	       dg->not_found[0], dg->not_found[0], dg->not_found[0]);
	set(out, GD_C_CAUSE_MISSING_LIBRARY, fix);
	return 1;
}

/* No fact of the machine explains it: the runtime's first decisive line
 * that a kb signature knows. */
static int cause_runtime_says(const struct gd_cause_in *in,
			      struct gd_cause *out)
{
	const struct gd_probe_diag *dg = in->diag;
	struct gd_kb_signature sg;

	for (int i = 0; dg && i < dg->n_lines; i++) {
		if (!dg->line_sig[i][0] || !in->ctx || !in->ctx->kb ||
		    gd_kb_signature_get(in->ctx->kb, dg->line_sig[i], &sg) < 0)
			continue;
		gd_fmt(out->text, sizeof out->text, "the runtime says: %s (%s)",
		       dg->lines[i], sg.title);
		set(out, GD_C_CAUSE_RUNTIME_SAYS, sg.fix);
		return 1;
	}
	return 0;
}

static int cause_unknown(const struct gd_cause_in *in, struct gd_cause *out)
{
	const struct gd_probe_diag *dg = in->diag;

	if (dg && dg->ran)
		gd_fmt(out->text, sizeof out->text,
		       "no cause found: re-run with %s, the runtime printed "
		       "%u line%s, none known to the kb%s",
		       dg->env, dg->lines_seen, dg->lines_seen == 1 ? "" : "s",
		       dg->n_lines ? " (quoted: its last lines)" : "");
	else
		gd_fmt(out->text, sizeof out->text, "no cause found%s%s",
		       dg && dg->outcome[0] ? ": diagnostics " : "",
		       dg ? dg->outcome : "");
	set(out, GD_C_CAUSE_UNKNOWN,
	    "run the program with the runtime's own diagnostics (docs/probe.md "
	    "lists them per backend) and 'gpudoctor explain' its log");
	return 1;
}

/* The table. Kernel-state rows go where marked; the DT_NEEDED closure
 * fills cause_missing_library's package names (and may add a row before
 * it for a symbol-version or architecture mismatch). */
static const struct {
	const char *backends; /* space-separated; "*" all */
	cause_fn fn;
} rules[] = {
    {"*", cause_missing_library},
    {"vulkan", cause_icd_incomplete},
    {"*", cause_dep_broken},
    {"hip cuda levelzero", cause_no_gpu},
    {"hip cuda levelzero", cause_driver_not_loaded},
    {"levelzero", cause_ze_no_driver},
    {"hip", cause_no_kfd},
    {"hip", cause_access},
    /* kernel state: a module parameter in force (cause.kernel_parameter),
     * firmware known to fail (cause.firmware) */
    {"vulkan opencl", cause_no_icd},
    {"vulkan opencl", cause_icd_library_absent},
    {"vulkan opencl", cause_ld_not_found},
    {"*", cause_not_installed},
    {"*", cause_runtime_says},
    {"*", cause_unknown},
};

static int applies(const char *list, const char *backend)
{
	size_t n = strlen(backend);

	if (!strcmp(list, "*"))
		return 1;
	for (const char *p = list; (p = strstr(p, backend)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

void gd_cause_find(const struct gd_cause_in *in, struct gd_cause *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (applies(rules[i].backends, in->backend) &&
		    rules[i].fn(in, out))
			return;
}

/* The machine rows alone, for explain. */
int gd_cause_of_machine(gd_ctx *ctx, const char *backend,
			const struct gd_machine *m,
			const struct gd_inventory *inv, struct gd_cause *out)
{
	static const cause_fn machine[] = {
	    cause_no_gpu, cause_driver_not_loaded, cause_no_kfd, cause_access,
	    cause_no_icd, cause_icd_library_absent};
	struct gd_cause_in in = {ctx, backend, NULL, NULL, m, inv};

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < sizeof machine / sizeof machine[0]; i++)
		if (machine[i](&in, out))
			return 1;
	return 0;
}
