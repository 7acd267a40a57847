/* gpudoctor guide: the per-vendor setup guide, generated from the knowledge
 * base (targets, NVIDIA compute capabilities and driver minimums, install
 * lines per workload and backend). docs/gpu-setup.md is its --markdown
 * output; tests/scripts/test_guide.sh keeps the two equal. The sections'
 * ids ("amd#rdna1") are what check --brief points to. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "guide_kb.h"
#include "kb/kb.h"
#include "opts.h"

#define MAX_T 128

struct guide {
	struct gd_cli *cli;
	FILE *f;
	int md;
	struct gd_guide_target t[MAX_T];
	size_t n_t;
};

static const char *const workloads[] = {"ctranslate2", "pytorch", "llama.cpp"};
static const char *const wl_title[] = {"CTranslate2 / faster-whisper",
				       "PyTorch", "llama.cpp"};

static const char *or_dash(const char *s)
{
	return s && *s ? s : "—";
}

static void heading(struct guide *g, const char *id, const char *title)
{
	char anchor[32];
	size_t i;

	for (i = 0; id[i] && i + 1 < sizeof anchor; i++)
		anchor[i] = id[i] == '#' ? '-' : id[i];
	anchor[i] = '\0';
	if (g->md)
		fprintf(g->f, "<a id=\"%s\"></a>\n\n## %s\n\n", anchor, title);
	else
		fprintf(g->f, "%s%s%s  [%s]\n\n", gd_c_bold(g->cli), title,
			gd_c_off(g->cli), id);
}

static void para(struct guide *g, const char *text)
{
	fprintf(g->f, "%s\n\n", text);
}

static void sub(struct guide *g, const char *title)
{
	fprintf(g->f, g->md ? "### %s\n\n" : "%s:\n", title);
}

static void code(struct guide *g, const char *label, const char *cmd)
{
	if (g->md)
		fprintf(g->f, "- %s: `%s`\n", label, cmd);
	else
		fprintf(g->f, "  - %s: %s\n", label, cmd);
}

static void end_list(struct guide *g)
{
	fputc('\n', g->f);
}

/* Each workload's install line and caveats for one backend. */
static void installs(struct guide *g, const char *backend)
{
	struct gd_guide_howto h;

	for (size_t i = 0; i < 3; i++) {
		if (gd_guide_workload(g->cli->ctx.kb, workloads[i], backend,
				      &h) < 0 ||
		    !h.install)
			continue;
		code(g, wl_title[i], h.install);
		if (h.caveats)
			fprintf(g->f, g->md ? "  %s\n" : "      %s\n",
				h.caveats);
	}
	end_list(g);
}

static void nvidia(struct guide *g)
{
	struct gd_guide_cc cc[64];
	struct gd_guide_driver dr[16];
	size_t n = gd_guide_nvidia_ccs(g->cli->ctx.kb, cc, 64), k;

	heading(g, "nvidia", "NVIDIA (CUDA)");
	para(g, "Install the NVIDIA driver; the CUDA libraries come with the "
		"framework "
		"wheels. The driver decides the newest CUDA a framework build "
		"may use. "
		"Verify with `nvidia-smi` (driver and CUDA version in its "
		"header) and "
		"`gpudoctor check`.");
	sub(g, "Minimum driver per CUDA major");
	k = gd_guide_cuda_drivers(g->cli->ctx.kb, dr, 16);
	for (size_t i = 0; i < k; i++)
		fprintf(g->f, "%sCUDA %s: Linux %s, Windows %s\n",
			g->md ? "- " : "  - ", dr[i].cuda,
			or_dash(dr[i].linux_min), or_dash(dr[i].windows_min));
	end_list(g);
	sub(g, "Supported GPU generations (compute capability: last CUDA with "
	       "it)");
	for (size_t i = 0; i < n; i++)
		fprintf(g->f, "%s%s (%s, %s): CUDA %s%s%s\n",
			g->md ? "- " : "  - ", cc[i].arch, cc[i].cc, cc[i].sm,
			cc[i].min_cuda ? cc[i].min_cuda : "any",
			cc[i].last_cuda ? " to " : " and newer",
			cc[i].last_cuda ? cc[i].last_cuda : "");
	end_list(g);
	sub(g, "Install per framework");
	installs(g, "cuda");
}

static void target_line(struct guide *g, const struct gd_guide_target *t)
{
	fprintf(g->f,
		"%s%s (%s): %s — Linux ROCm: %s%s%s; Windows HIP SDK: %s%s%s\n",
		g->md ? "- " : "  - ", t->gfx, or_dash(t->family),
		or_dash(t->product), or_dash(t->linux_status),
		t->linux_since ? " since " : "",
		t->linux_since ? t->linux_since : "", or_dash(t->win_status),
		t->win_since ? " since " : "",
		t->win_since ? t->win_since : "");
}

static int official(const struct gd_guide_target *t)
{
	return t->linux_status && (!strcmp(t->linux_status, "supported") ||
				   !strcmp(t->linux_status, "preview"));
}

/* The APU section: APUs ROCm supports, and the RDNA 3.5 ones it is
 * getting to; older APUs stay with the other unsupported targets. */
static int apu_section(const struct gd_guide_target *t)
{
	return t->apu &&
	       (official(t) || (t->family && !strcmp(t->family, "RDNA 3.5")));
}

static void amd_rocm(struct guide *g)
{
	heading(g, "amd#rocm", "AMD with ROCm (RDNA 2 and newer, Instinct)");
	para(
	    g,
	    "On Linux install ROCm (the amdgpu driver and the ROCm runtime) in "
	    "the "
	    "version your framework build was made for; on Windows install the "
	    "HIP SDK whose HIP major matches the driver's own HIP runtime "
	    "(amdhip64_6.dll or amdhip64_7.dll in System32). Verify with "
	    "`rocminfo` / `hipinfo` and `gpudoctor check`.");
	sub(g, "Targets AMD supports");
	for (size_t i = 0; i < g->n_t; i++)
		if (official(&g->t[i]) && !g->t[i].apu)
			target_line(g, &g->t[i]);
	end_list(g);
	sub(g, "Install per framework");
	installs(g, "rocm");
}

static void advice_list(struct guide *g, const char *gfx)
{
	struct gd_guide_advice a;

	for (size_t i = 0; i < 3; i++)
		if (!gd_guide_target_advice(g->cli->ctx.kb, gfx, workloads[i],
					    &a))
			fprintf(g->f, "%s%s: %s%s%s — %s%s%s\n",
				g->md ? "  - " : "      - ", wl_title[i],
				a.verdict && !strcmp(a.verdict, "cpu")
				    ? "CPU only"
				    : or_dash(a.verdict),
				a.verdict && !strcmp(a.verdict, "cpu")
				    ? ""
				    : " via ",
				a.verdict && !strcmp(a.verdict, "cpu")
				    ? ""
				    : or_dash(a.backend),
				or_dash(a.text), a.install ? " Install: " : "",
				a.install ? a.install : "");
}

static void unsupported(struct guide *g, const char *id, const char *title,
			const char *intro, int rdna1)
{
	heading(g, id, title);
	para(g, intro);
	for (size_t i = 0; i < g->n_t; i++) {
		const struct gd_guide_target *t = &g->t[i];
		int is_rdna1 = t->family && !strcmp(t->family, "RDNA 1");

		if (official(t) || is_rdna1 != rdna1 || apu_section(t))
			continue;
		target_line(g, t);
		if (t->override)
			fprintf(g->f,
				"%sLinux override: "
				"HSA_OVERRIDE_GFX_VERSION=%s. %s\n",
				g->md ? "  - " : "      - ", t->override,
				or_dash(t->override_caveat));
		if (rdna1 || t->override)
			advice_list(g, t->gfx);
	}
	end_list(g);
}

static void amd_apu(struct guide *g)
{
	heading(g, "amd#apu",
		"AMD APUs (Ryzen AI Max / Strix Halo and other iGPUs)");
	para(g, "An APU has no VRAM of its own: the firmware's carve-out and "
		"the GTT "
		"share of system memory bound what a model can use (`gpudoctor "
		"check -v` "
		"shows both). Vulkan (llama.cpp with RADV) needs no ROCm and "
		"is the "
		"first thing to try; ROCm support for APUs is new or absent.");
	for (size_t i = 0; i < g->n_t; i++)
		if (apu_section(&g->t[i])) {
			target_line(g, &g->t[i]);
			advice_list(g, g->t[i].gfx);
		}
	end_list(g);
}

/* One line per kb intel.families entry: what Intel's compute runtime,
 * PyTorch XPU and llama.cpp do on it (docs/intel.md). */
static void intel_families(struct guide *g)
{
	const gd_kb *kb = g->cli->ctx.kb;
	struct gd_kb_intel_family f;

	for (size_t i = 0; i < gd_kb_intel_family_count(kb); i++) {
		if (gd_kb_intel_family_at(kb, i, &f) < 0 || !f.id)
			continue;
		fprintf(g->f,
			"%s%s (%s): compute runtime %s; PyTorch XPU %s; "
			"llama.cpp %s\n",
			g->md ? "- " : "  - ", f.id, or_dash(f.name),
			or_dash(f.compute_runtime), or_dash(f.pytorch_xpu),
			f.llamacpp_sycl ? "SYCL or Vulkan"
			: !f.vulkan || !strcmp(f.vulkan, "none") ? "CPU only"
			: !strcmp(f.vulkan, "hasvk")
			    ? "Vulkan (hasvk: incomplete)"
			    : "Vulkan");
	}
	end_list(g);
}

static void intel(struct guide *g)
{
	heading(g, "intel", "Intel GPUs");
	para(g,
	     "Arc A and B series, Core Ultra and Iris Xe graphics and Data "
	     "Center GPU Max run PyTorch (XPU) and llama.cpp's SYCL backend "
	     "on Intel's compute runtime (Level Zero): install it "
	     "(Debian 13 / Ubuntu 24.04 and later: sudo apt install "
	     "libze-intel-gpu1 intel-opencl-icd; else Intel's compute-runtime "
	     "releases) and add your user to the render group. Gen9 to Gen11 "
	     "need the frozen legacy1 packages; older GPUs have no compute "
	     "runtime. CTranslate2 has no Intel GPU backend (use the CPU).");
	sub(g, "Architectures");
	intel_families(g);
	sub(g, "Vulkan builds");
	installs(g, "vulkan");
}

static void cpu(struct guide *g)
{
	heading(g, "cpu", "CPU fallback");
	para(g,
	     "Always works and needs no extra setup; slower than a working GPU "
	     "(int8 models help CTranslate2 on the CPU).");
	installs(g, "cpu");
}

struct section {
	const char *id;
	void (*fn)(struct guide *g);
};

static void amd_rdna1(struct guide *g)
{
	unsupported(
	    g, "amd#rdna1", "AMD RDNA 1 (RX 5000 series, gfx101x)",
	    "AMD never supported RDNA 1 in ROCm. What works: overrides on "
	    "Linux for some frameworks, Vulkan for llama.cpp, and on Windows a "
	    "CTranslate2 built for the target against HIP SDK 6.2 with "
	    "community rocBLAS kernels.",
	    1);
}

static void amd_other(struct guide *g)
{
	unsupported(
	    g, "amd#unsupported", "Other AMD targets ROCm does not support",
	    "For these, ROCm does not work or needs an override to pretend a "
	    "supported target (a debugging aid, per AMD); llama.cpp's Vulkan "
	    "backend and the CPU work. Building a framework for the target "
	    "itself (e.g. CMAKE_HIP_ARCHITECTURES=gfxNNNN) is the other route "
	    "where rocBLAS has kernels for it.",
	    0);
}

static const struct section sections[] = {
    {"nvidia", nvidia},
    {"amd#rocm", amd_rocm},
    {"amd#rdna1", amd_rdna1},
    {"amd#unsupported", amd_other},
    {"amd#apu", amd_apu},
    {"intel", intel},
    {"cpu", cpu},
};

/* "amd" selects every amd# section, "amd#rdna1" just that one. */
static int selected(const char *id, const char *want)
{
	size_t n = strcspn(id, "#");

	return !want || !strcmp(id, want) ||
	       (strlen(want) == n && !strncmp(id, want, n));
}

static const char *const guide_vendors[] = {
    "nvidia",  "amd",	"amd#rocm", "amd#rdna1", "amd#unsupported",
    "amd#apu", "intel", "cpu",	    NULL};

const struct gd_opt gd_opts_guide[] = {
    {"vendor", 0, 'v', GD_ARG_REQUIRED, "V",
     "nvidia, amd, intel or cpu; or one section:\namd#rocm, amd#rdna1, "
     "amd#unsupported, amd#apu",
     guide_vendors, NULL},
    {"markdown", 0, 'm', GD_ARG_NONE, NULL,
     "Markdown (docs/gpu-setup.md is this output)", NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(void)
{
	printf(
	    "Usage: gpudoctor guide [--vendor V] [--markdown]\n\n"
	    "The GPU setup guide per vendor, from the knowledge base.\n\n"
	    "Options:\n"
	    "  --vendor V   nvidia, amd, intel or cpu; or one section:\n"
	    "               amd#rocm, amd#rdna1, amd#unsupported, amd#apu\n"
	    "  --markdown   Markdown (docs/gpu-setup.md is this output)\n\n");
	gd_cli_common_help(stdout);
}

int gd_cmd_guide(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt go;
	static struct guide g; /* large; one per process, reset below */
	const char *want = NULL;
	size_t hits = 0;
	int c;

	memset(&g, 0, sizeof g);
	gd_opts_build(&go, gd_opts_guide, 0);
	while ((c = getopt_long(argc, argv, go.so, go.lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return GD_EXIT_OK;
		case 'v':
			want = optarg;
			break;
		case 'm':
			g.md = 1;
			break;
		default:
			return gd_cli_usage_error(cli, "guide",
						  "unknown option");
		}
	}
	if (optind < argc)
		return gd_cli_usage_error(
		    cli, "guide", "unexpected argument '%s'", argv[optind]);
	if (cli->json)
		return gd_cli_usage_error(
		    cli, "guide",
		    "--json: the guide is text or Markdown (--markdown) only");
	for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
		hits += selected(sections[i].id, want) ? 1 : 0;
	if (!hits)
		return gd_cli_usage_error(cli, "guide",
					  "no section '%s' (nvidia, amd, "
					  "amd#rdna1, intel, cpu, ...)",
					  want);
	g.cli = cli;
	g.f = stdout;
	g.n_t = gd_guide_targets(cli->ctx.kb, g.t, MAX_T);
	if (g.md && !want)
		fprintf(
		    g.f,
		    "# GPU setup for ML work\n\n<!-- generated by `gpudoctor "
		    "guide --markdown` from the knowledge base (kb_date %s); "
		    "do not edit -->\n\n",
		    or_dash(gd_guide_kb_date(cli->ctx.kb)));
	for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
		if (selected(sections[i].id, want))
			sections[i].fn(&g);
	return GD_EXIT_OK;
}
