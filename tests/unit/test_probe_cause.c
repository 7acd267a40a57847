/* The cause of a failed probe init (doctor/probe_cause.c) and the parsers
 * under it: ld.so's LD_DEBUG=libs lines (probe/diag.c) and the loader's
 * dlerror lines, on text the real tools print (glibc 2.36's ld.so, the
 * Vulkan loader 1.3.239, HIP 5.2 with AMD_LOG_LEVEL=4, all on Debian 12;
 * the NVIDIA lines as the H100 machine printed them, docs/probe.md); the
 * rules on hand-built machine facts; `explain`'s rocm-cause check on the
 * same facts. tests/scripts/test_probe_diag.sh runs the real runtimes. */
#include <stdlib.h>
#include <string.h>

#include "discover/discover.h"
#include "doctor/evidence.h"
#include "doctor/explain.h"
#include "doctor/probe_cause.h"
#include "kb/kb.h"
#include "probe/probe.h"
#include "t.h"

static int only_usr_lib(void *arg, const char *path)
{
	(void)arg;
	return !strcmp(path, "/usr/lib/libfound_in_default.so.1");
}

static void feed(struct gd_lddebug *d, const char *text)
{
	char *copy = strdup(text), *save = NULL;

	for (char *l = strtok_r(copy, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save))
		gd_lddebug_line(d, l);
	free(copy);
	gd_lddebug_end(d);
}

static void test_lddebug(void)
{
	struct gd_lddebug d;
	/* glibc 2.36, LD_DEBUG=libs, a lavapipe copy whose NEEDED names
	 * libLLVM-15.so.7 (not installed); the blank lines are "PID:\t" */
	static const char llvm[] =
	    "     16867:\tfind library=libLLVM-15.so.7 [0]; searching\n"
	    "     16867:\t search cache=/etc/ld.so.cache\n"
	    "     16867:\t search path=/lib/x86_64-linux-gnu:/usr/lib/x86_64-"
	    "linux-gnu:/lib:/usr/lib\t\t(system search path)\n"
	    "     16867:\t  trying file=/lib/x86_64-linux-gnu/libLLVM-15.so.7\n"
	    "     16867:\t  trying file=/usr/lib/libLLVM-15.so.7\n"
	    "     16867:\t\n"
	    "     17042:\tfind library=libjansson.so.4 [0]; searching\n"
	    "     17042:\t search cache=/etc/ld.so.cache\n"
	    "     17042:\t\n"
	    "     17042:\tcalling init: "
	    "/lib/x86_64-linux-gnu/libjansson.so.4\n";
	static const char versions[] =
	    "  9:\tfind library=libamdhip64.so.7 [0]; searching\n"
	    "  9:\t search path=/usr/lib\t\t(system search path)\n"
	    "  9:\t  trying file=/usr/lib/libamdhip64.so.7\n"
	    "  9:\t\n"
	    "  9:\tfind library=libamdhip64.so.5 [0]; searching\n"
	    "  9:\t search cache=/etc/ld.so.cache\n"
	    "  9:\t  trying file=/lib/x86_64-linux-gnu/libamdhip64.so.5\n"
	    "  9:\t\n"
	    "  9:\tcalling init: /lib/x86_64-linux-gnu/libamdhip64.so.5\n"
	    "  9:\tfind library=libfound_in_default.so.1 [0]; searching\n"
	    "  9:\t search path=/usr/lib\t\t(system search path)\n"
	    "  9:\t  trying file=/usr/lib/libfound_in_default.so.1\n"
	    "  9:\tfind library=libEGL.so.1 [0]; searching\n"
	    "  9:\t search path=/usr/lib\t\t(system search path)\n"
	    "  9:\t  trying file=/usr/lib/libEGL.so.1\n";

	memset(&d, 0, sizeof d);
	feed(&d, llvm);
	CHECK_INT(d.n, 1);
	CHECK_STR(d.missing[0], "libLLVM-15.so.7");

	memset(&d, 0, sizeof d);
	d.exists = only_usr_lib;
	feed(&d, versions);
	/* .so.7 dropped once .so.5 initialised; the file found in the
	 * default path counts; the search that ran out counts */
	CHECK_INT(d.n, 1);
	CHECK_STR(d.missing[0], "libEGL.so.1");

	memset(&d, 0, sizeof d);
	CHECK_INT(gd_lddebug_line(&d, "ERROR: libx.so: cannot open"), 0);
	CHECK_INT(gd_lddebug_line(&d, "12:find library=x"), 0);
	CHECK_INT(gd_lddebug_line(&d, "   12:\tfind library=x [0]"), 1);
}

static void test_dlerror(void)
{
	char lib[96];

	CHECK(gd_cause_dlerror_lib("ERROR:            libLLVM-15.so.7: cannot "
				   "open shared object file: No such file or "
				   "directory",
				   lib, sizeof lib));
	CHECK_STR(lib, "libLLVM-15.so.7");
	CHECK(gd_cause_dlerror_lib("ERROR:            /nonexistent/"
				   "libvulkan_gone.so: cannot open shared "
				   "object file: No such file or directory",
				   lib, sizeof lib));
	CHECK_STR(lib, "/nonexistent/libvulkan_gone.so");
	CHECK(!gd_cause_dlerror_lib(": cannot open shared object file", lib,
				    sizeof lib));
	CHECK(!gd_cause_dlerror_lib("hsa_init failed.", lib, sizeof lib));
}

/* A report with one failed init and its diagnostics. */
static void one_failure(struct gd_probe_report *r, const char *backend,
			enum gd_probe_status st, const char *out)
{
	struct gd_probe_result *x;
	struct gd_probe_diag *dg;

	memset(r, 0, sizeof *r);
	x = gd_vec_push(&r->results);
	memset(x, 0, sizeof *x);
	gd_strlcpy(x->backend, backend, sizeof x->backend);
	gd_strlcpy(x->op, "init", sizeof x->op);
	x->dev = -1;
	x->status = st;
	dg = gd_vec_push(&r->diags);
	memset(dg, 0, sizeof *dg);
	gd_strlcpy(dg->backend, backend, sizeof dg->backend);
	dg->ran = 1;
	dg->out = strdup(out);
	dg->out_len = strlen(out);
}

static void test_nvidia_vulkan(gd_ctx *ctx)
{
	struct gd_probe_report r;
	struct gd_probe_verdict v[4];
	const struct gd_probe_diag *dg;

	/* VK_LOADER_DEBUG=error,warn on the H100 machine with only
	 * libvulkan1 installed (docs/probe.md) */
	one_failure(&r, "vulkan", GD_PS_NODEVICE,
		    "ERROR:            loader_scanned_icd_add: Could not get "
		    "'vkCreateInstance' via 'vk_icdGetInstanceProcAddr' for "
		    "ICD libGLX_nvidia.so.0\n"
		    "ERROR:            vkCreateInstance: Found no drivers!\n");
	r.diags.v[0].n_not_found = 1;
	gd_strlcpy(r.diags.v[0].not_found[0], "libEGL.so.1",
		   sizeof r.diags.v[0].not_found[0]);
	gd_probe_judge(ctx, NULL, NULL, &r);
	dg = gd_probe_diag_of(&r, "vulkan");
	CHECK(dg && dg->n_lines >= 1);
	CHECK_STR(dg->line_sig[0], "vk-icd-no-create-instance");
	CHECK(strstr(dg->lines[0], "for ICD libGLX_nvidia.so.0") != NULL);
	CHECK_STR(dg->cause_code, "cause.icd_incomplete");
	CHECK(strstr(dg->cause, "libGLX_nvidia.so.0") &&
	      strstr(dg->cause, "libEGL.so.1"));
	/* the kb's libraries[] names the package of what ld.so missed */
	CHECK(strstr(dg->fix, "libegl1") != NULL);
	CHECK(strstr(dg->fix, "libglvnd-egl (Fedora)") != NULL);
	CHECK_INT(gd_probe_verdicts(&r, v, 4), 1);
	CHECK_STR(v[0].cause_code, "cause.icd_incomplete");
	gd_probe_report_free(&r);
}

static void amd_gpu(struct gd_machine *m, struct gd_gpu *g)
{
	memset(m, 0, sizeof *m);
	memset(g, 0, sizeof *g);
	m->gpus = g;
	m->n_gpus = 1;
	m->kfd_nodes_total = 2;
	g->vendor = GD_VENDOR_AMD;
	g->n_kfd_nodes = 1;
	gd_strlcpy(g->pci.bdf, "0000:03:00.0", sizeof g->pci.bdf);
	gd_strlcpy(g->gfx, "gfx1100", sizeof g->gfx);
	gd_text_set(&g->pci.driver, "amdgpu", "test");
	gd_text_set(&g->name, "AMD Radeon RX 7900 XTX", "test");
	g->access.kfd_ok = g->access.render_ok = 1;
}

/* HIP 5.2's own words with AMD_LOG_LEVEL=4 where hsa_init fails. */
static const char hip_log[] =
    ":3:rocdevice.cpp            :416 : 11550296547 us: 10426: "
    "[tid:0x7fb9dfb86500] Initializing HSA stack.\n"
    ":1:rocdevice.cpp            :424 : 11550296985 us: 10426: "
    "[tid:0x7fb9dfb86500] hsa_init failed.\n"
    ":1:runtime.cpp              :78  : 11550297117 us: 10426: "
    "[tid:0x7fb9dfb86500] Runtime initialization failed\n";

static void hip_cause(gd_ctx *ctx, const struct gd_machine *m, const char *want)
{
	struct gd_probe_report r;
	const struct gd_probe_diag *dg;

	one_failure(&r, "hip", GD_PS_NODEVICE, hip_log);
	gd_probe_judge(ctx, m, NULL, &r);
	dg = gd_probe_diag_of(&r, "hip");
	CHECK(dg != NULL);
	if (dg) {
		CHECK_STR(dg->cause_code, want);
		CHECK_STR(dg->line_sig[0], "hip-hsa-init-failed");
		/* padding squeezed: the quote reads as one line */
		CHECK(strstr(dg->lines[0], ":1:rocdevice.cpp :424 :") != NULL);
	}
	gd_probe_report_free(&r);
}

static void test_hip_causes(gd_ctx *ctx)
{
	struct gd_machine m;
	struct gd_gpu g;
	char text[600];

	memset(&m, 0, sizeof m);
	hip_cause(ctx, &m, "cause.no_gpu");

	amd_gpu(&m, &g);
	g.access.kfd_ok = 0;
	gd_text_unknown(&g.access.kfd, GD_FAILED,
			"/dev/kfd: no read-write access (mode 660, group "
			"render, not yours)");
	gd_strlcpy(g.access.fix,
		   "sudo usermod -aG render $USER, then log out and back in",
		   sizeof g.access.fix);
	hip_cause(ctx, &m, "cause.permission");
	/* explain: "no ROCm-capable device" here is confirmed by the same
	 * permission cause */
	CHECK_INT(gd_explain_check(ctx, GD_KB_CHECK_ROCM_CAUSE, &m, NULL, text,
				   sizeof text),
		  GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "cause.permission") && strstr(text, "usermod"));

	amd_gpu(&m, &g);
	gd_text_unknown(&g.pci.driver, GD_UNKNOWN, "no driver bound");
	hip_cause(ctx, &m, "cause.driver_not_loaded");

	amd_gpu(&m, &g);
	g.n_kfd_nodes = 0;
	m.kfd_nodes_total = 0;
	gd_strlcpy(m.kfd_why, "/sys/class/kfd does not exist",
		   sizeof m.kfd_why);
	hip_cause(ctx, &m, "cause.no_kfd");

	/* nothing wrong that the machine shows: the runtime's line is it,
	 * and explain falls back to the target's support (gfx1100 is
	 * supported: contradicted) */
	amd_gpu(&m, &g);
	hip_cause(ctx, &m, "cause.runtime_says");
	CHECK_INT(gd_explain_check(ctx, GD_KB_CHECK_ROCM_CAUSE, &m, NULL, text,
				   sizeof text),
		  GD_CHECK_CONTRADICTED);
}

/* The kernel state and the dependency closure join the causes. */
static void test_joined_causes(gd_ctx *ctx)
{
	struct gd_machine m;
	struct gd_gpu g;
	struct gd_inventory inv;
	struct gd_dep_check d;
	struct gd_probe_report r;
	const struct gd_probe_diag *dg;

	/* amdgpu blacklisted in modprobe.d: not bound, and why */
	amd_gpu(&m, &g);
	gd_text_unknown(&g.pci.driver, GD_UNKNOWN, "no driver bound");
	m.kstate.modprobe.n_black = 1;
	gd_strlcpy(m.kstate.modprobe.black[0].module, "amdgpu",
		   sizeof m.kstate.modprobe.black[0].module);
	gd_strlcpy(m.kstate.modprobe.black[0].src,
		   "/etc/modprobe.d/blacklist.conf:2",
		   sizeof m.kstate.modprobe.black[0].src);
	one_failure(&r, "hip", GD_PS_NODEVICE, hip_log);
	gd_probe_judge(ctx, &m, NULL, &r);
	dg = gd_probe_diag_of(&r, "hip");
	CHECK(dg && !strcmp(dg->cause_code, "cause.driver_not_loaded"));
	CHECK(dg && strstr(dg->cause, "blacklisted (/etc/modprobe.d/"));
	CHECK(dg && strstr(dg->fix, "initramfs"));
	gd_probe_report_free(&r);

	/* an NVIDIA GPU, no module, Secure Boot on */
	amd_gpu(&m, &g);
	g.vendor = GD_VENDOR_NVIDIA;
	gd_text_unknown(&g.pci.driver, GD_UNKNOWN, "no driver bound");
	m.kstate.secure_boot = 1;
	one_failure(&r, "cuda", GD_PS_NODEVICE, "");
	gd_probe_judge(ctx, &m, NULL, &r);
	dg = gd_probe_diag_of(&r, "cuda");
	CHECK(dg && !strcmp(dg->cause_code, "cause.driver_not_loaded"));
	CHECK(dg && strstr(dg->cause, "Secure Boot is on"));
	CHECK(dg && strstr(dg->fix, "mokutil"));
	gd_probe_report_free(&r);

	/* the closure of the NVIDIA ICD (with the kb's dlopen rule) is
	 * broken, and the loader said nothing decisive */
	memset(&inv, 0, sizeof inv);
	memset(&d, 0, sizeof d);
	gd_strlcpy(d.backend, "vulkan", sizeof d.backend);
	gd_strlcpy(d.what, "Vulkan ICD nvidia", sizeof d.what);
	gd_strlcpy(d.name, "libGLX_nvidia.so.0", sizeof d.name);
	gd_strlcpy(d.soname, "libEGL.so.1", sizeof d.soname);
	gd_strlcpy(d.chain, "libGLX_nvidia.so.0 -> libEGL.so.1",
		   sizeof d.chain);
	d.status = GD_DEP_MISSING;
	inv.deps = &d;
	inv.n_deps = 1;
	one_failure(&r, "vulkan", GD_PS_NODEVICE, "");
	gd_probe_judge(ctx, NULL, &inv, &r);
	dg = gd_probe_diag_of(&r, "vulkan");
	CHECK(dg && !strcmp(dg->cause_code, "cause.missing_library"));
	CHECK(dg && strstr(dg->cause, "libGLX_nvidia.so.0 -> libEGL.so.1"));
	CHECK(dg && strstr(dg->fix, "install libegl1"));
	gd_probe_report_free(&r);

	/* a symbol version the library found does not define */
	d.status = GD_DEP_VERSION;
	gd_strlcpy(d.version, "GLIBCXX_3.4.30", sizeof d.version);
	gd_strlcpy(d.soname, "libstdc++.so.6", sizeof d.soname);
	gd_strlcpy(d.needed_by, "libGLX_nvidia.so.0", sizeof d.needed_by);
	one_failure(&r, "vulkan", GD_PS_NODEVICE, "");
	gd_probe_judge(ctx, NULL, &inv, &r);
	dg = gd_probe_diag_of(&r, "vulkan");
	CHECK(dg && !strcmp(dg->cause_code, "cause.library_unusable"));
	CHECK(dg && strstr(dg->cause, "GLIBCXX_3.4.30"));
	gd_probe_report_free(&r);
}

static void test_unknown(gd_ctx *ctx)
{
	struct gd_probe_report r;

	one_failure(&r, "opencl", GD_PS_NODEVICE, "");
	gd_probe_judge(ctx, NULL, NULL, &r);
	CHECK_STR(r.diags.v[0].cause_code, "cause.unknown");
	gd_probe_report_free(&r);
}

/* An op the whole-run deadline stopped is the deadline's, not a hang of
 * the runtime (what a busy machine does to lavapipe in `check`). */
static void test_total_timeout(void)
{
	struct gd_probe_report r;
	struct gd_probe_device *d;
	struct gd_probe_result *x;
	struct gd_probe_verdict v[2];

	memset(&r, 0, sizeof r);
	d = gd_vec_push(&r.devices);
	memset(d, 0, sizeof *d);
	gd_strlcpy(d->backend, "vulkan", sizeof d->backend);
	gd_strlcpy(d->name, "llvmpipe (LLVM 15.0.6, 256 bits)", sizeof d->name);
	d->software = 1;
	x = gd_vec_push(&r.results);
	memset(x, 0, sizeof *x);
	gd_strlcpy(x->backend, "vulkan", sizeof x->backend);
	gd_strlcpy(x->op, "kernel_vector_add", sizeof x->op);
	x->status = GD_PS_HANG;
	gd_strlcpy(x->detail,
		   "no answer after 0.7 s in phase 'dispatch vector_add' "
		   "(whole-run deadline 8 s)",
		   sizeof x->detail);
	CHECK_INT(gd_probe_verdicts(&r, v, 2), 1);
	CHECK_STR(v[0].cause_code, "cause.total_timeout");
	gd_strlcpy(x->detail, "no answer after 10.0 s (deadline 10 s)",
		   sizeof x->detail);
	CHECK_INT(gd_probe_verdicts(&r, v, 2), 1);
	CHECK_STR(v[0].cause_code, "");
	gd_probe_report_free(&r);
}

int main(void)
{
	char *env[] = {NULL};
	gd_ctx ctx;

	gd_ctx_init(&ctx, "/", env);
	ctx.kb = gd_kb_load_embedded();
	CHECK(ctx.kb != NULL);
	test_lddebug();
	test_dlerror();
	test_nvidia_vulkan(&ctx);
	test_hip_causes(&ctx);
	test_joined_causes(&ctx);
	test_unknown(&ctx);
	test_total_timeout();
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
	return t_done("test_probe_cause");
}
