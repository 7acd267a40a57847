/* Windows display adapters without a PCI id (issue #22 item 4): kept and
 * judged by name and driver when they name a GPU, set aside when they are
 * Microsoft's software display, a remote or a virtual display; a machine
 * with only those is "no GPU" in Windows' words. The AMD target comes from
 * the marketing name through the kb's product lists; RDNA 1 and gfx803,
 * not in AMD's HIP SDK for Windows support list, are told so first.
 * Captures are written here as regedit text (UTF-8, which the parser takes
 * as it takes reg export's UTF-16). Linux only (temporary trees). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"
#include "discover/disc_int.h"
#include "doctor/verdict_windows.h"
#include "inventory/win_inventory.h"
#include "kb/kb.h"
#include "t.h"
#include "t_machine.h"

#ifndef _WIN32
#define CLASS                                                                  \
	"[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{"    \
	"4d36e968-e325-11ce-bfc1-08002be10318}\\"

static char tmp[256];

static void capture(const char *keys)
{
	char p[600], cmd[700];
	FILE *f;

	gd_fmt(tmp, sizeof tmp, "%s/gd-win-ad.%d",
	       getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	gd_fmt(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/registry'", tmp,
	       tmp);
	CHECK_INT(system(cmd), 0);
	gd_fmt(p, sizeof p, "%s/registry/10-display-class.reg", tmp);
	if ((f = fopen(p, "w"))) {
		fprintf(f, "Windows Registry Editor Version 5.00\n\n%s", keys);
		fclose(f);
	}
}

static void discover(struct gd_machine *m, gd_ctx *ctx)
{
	char *envp[] = {NULL};

	CHECK_INT(gd_ctx_init(ctx, tmp, envp), 0);
	ctx->kb = gd_kb_load_embedded();
	CHECK_INT(gd_discover(ctx, m), 0);
}

static void done(struct gd_machine *m, gd_ctx *ctx)
{
	t_machine_free(ctx, m);
	t_rm_tree(tmp);
}

/* Only displays that are no GPU: Microsoft's (its name localized), a
 * remote desktop's, Parsec's and a sample indirect display driver's. */
static void test_only_software(void)
{
	struct gd_machine m;
	gd_ctx ctx;

	capture(CLASS
		"0000]\n\"DriverDesc\"=\"Pilote de rendu de base "
		"Microsoft\"\n\"MatchingDeviceId\"=\"ROOT\\\\BasicRender\"\n"
		"\"ProviderName\"=\"Microsoft\"\n\n" CLASS
		"0001]\n\"DriverDesc\"=\"Microsoft Remote Display "
		"Adapter\"\n\"MatchingDeviceId\"=\"SWD\\\\RemoteDisplayEnum"
		"\"\n\n" CLASS
		"0002]\n\"DriverDesc\"=\"Parsec Virtual Display Adapter\"\n"
		"\"MatchingDeviceId\"=\"Root\\\\Parsec\\\\VDA\"\n"
		"\"ProviderName\"=\"Parsec Cloud, Inc.\"\n\n" CLASS
		"0003]\n\"DriverDesc\"=\"IddSampleDriver Device\"\n\n");
	discover(&m, &ctx);
	CHECK_INT(m.n_gpus, 0);
	CHECK_INT(m.n_not_gpus, 4);
	CHECK(strstr(m.pci_why, "no display adapter in the registry is a GPU"));
	CHECK(strstr(m.pci_why, "Parsec Virtual Display Adapter: a virtual"));
	CHECK(!strstr(m.pci_why, "PCI device"));
	if (m.n_not_gpus == 4) {
		CHECK_STR(m.not_gpus[0].kind, "software");
		CHECK_STR(m.not_gpus[1].kind, "remote");
		CHECK_STR(m.not_gpus[2].kind, "virtual");
	}
	done(&m, &ctx);
}

/* A hybrid laptop: Intel's iGPU with its PCI id, the NVIDIA GPU known by
 * its driver's files only (a localized, vendor-less name), and an
 * adapter whose provider alone says AMD. */
static void test_by_name_and_driver(void)
{
	struct gd_machine m;
	gd_ctx ctx;

	capture(CLASS
		"0000]\n\"DriverDesc\"=\"Intel(R) UHD Graphics\"\n"
		"\"MatchingDeviceId\"=\"PCI\\\\VEN_8086&DEV_9A60\"\n\n" CLASS
		"0001]\n\"DriverDesc\"=\"Adaptateur graphique\"\n"
		"\"UserModeDriverName\"=\"C:\\\\Windows\\\\System32\\\\"
		"DriverStore\\\\FileRepository\\\\nvlti.inf_amd64\\\\"
		"nvldumdx.dll\"\n\n" CLASS
		"0002]\n\"DriverDesc\"=\"Carte graphique\"\n"
		"\"ProviderName\"=\"Advanced Micro Devices, Inc.\"\n\n");
	discover(&m, &ctx);
	CHECK_INT(m.n_gpus, 3);
	if (m.n_gpus == 3) {
		CHECK_INT(m.gpus[0].vendor, GD_VENDOR_INTEL);
		CHECK_INT(m.gpus[0].pci.device_id, 0x9a60);
		CHECK_STR(m.gpus[0].win.vendor_from, "");
		CHECK_INT(m.gpus[1].vendor, GD_VENDOR_NVIDIA);
		CHECK_INT(m.gpus[1].pci.device_id, 0);
		CHECK_STR(m.gpus[1].win.vendor_from,
			  "its driver's files (nvldumdx.dll)");
		CHECK_INT(m.gpus[2].vendor, GD_VENDOR_AMD);
		CHECK(strstr(m.gpus[2].win.vendor_from, "ProviderName"));
		CHECK_STR(m.gpus[2].gfx, "");
		CHECK(strstr(m.gpus[2].gfx_why, "no PCI id in the registry"));
	}
	done(&m, &ctx);
}

/* RDNA 1 by name: gfx1012 is not in AMD's HIP SDK for Windows list, and
 * with no HIP runtime in System32 the verdict says that first, not
 * "install or update AMD Software". */
static void test_rdna1_by_name(void)
{
	static struct gd_win_verdict v;
	struct gd_win_inventory wi;
	struct gd_machine m;
	gd_ctx ctx;

	capture(CLASS "0000]\n\"DriverDesc\"=\"AMD Radeon RX 5500 XT\"\n\n");
	discover(&m, &ctx);
	CHECK_INT(m.n_gpus, 1);
	if (m.n_gpus == 1) {
		CHECK_STR(m.gpus[0].gfx, "gfx1012");
		gd_win_inventory_collect(&ctx, &wi);
		gd_win_verdict_amd(&ctx, &m.gpus[0], &wi, NULL, &v);
		CHECK_STR(gd_win_verdict_status(&v), "unsupported");
		CHECK(v.n_facts >= 2 &&
		      v.facts[0].code == GD_C_WIN_TARGET_UNSUPPORTED);
		for (int i = 0; i < v.n_facts; i++)
			CHECK(!strstr(v.facts[i].text,
				      "install or update AMD Software"));
		CHECK(v.n_steps > 0 &&
		      v.steps[0].code == GD_C_WIN_OTHER_BACKEND);
	}
	done(&m, &ctx);
}
#endif

static void test_names(void)
{
	static const char *const cases[][2] = {
	    {"AMD Radeon RX 5700 XT", "gfx1010"},
	    {"Radeon RX 5700XT", "gfx1010"},
	    {"AMD Radeon RX 5700", "gfx1010"},
	    {"AMD Radeon Pro W5700", "gfx1010"},
	    {"AMD Radeon RX 5500 XT", "gfx1012"},
	    {"Radeon RX 580 Series", "gfx803"},
	    {"Radeon (TM) RX 480 Graphics", "gfx803"},
	    {"AMD Radeon RX 6800", "gfx1030"},
	    {"AMD Radeon RX 6700 XT", "gfx1031"},
	    {"AMD Radeon RX 7900 XTX", "gfx1100"},
	    {"AMD Radeon RX 7900 XT", "gfx1100"},
	    {"AMD Radeon 780M Graphics", "gfx1103"},
	    {"AMD Radeon(TM) Graphics", NULL},
	    {"AMD Radeon RX 9999", NULL},
	};
	gd_kb *kb = gd_kb_load_embedded();

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *g = gd_kb_gfx_for_name(kb, cases[i][0]);

		if (cases[i][1])
			CHECK_STR(g, cases[i][1]);
		else
			CHECK(g == NULL);
	}
	gd_kb_free(kb);
}

int main(void)
{
	test_names();
#ifndef _WIN32
	test_only_software();
	test_by_name_and_driver();
	test_rdna1_by_name();
#endif
	return t_done("test_win_adapters");
}
