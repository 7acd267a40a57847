/* Application folders with their own HIP runtime, and the kb's known HIP
 * SDK breaks, on Windows captures:
 *  - windows-strixhalo-stale-hip-runtime (sources: its README):
 *    Lemonade's llamacpp\rocm-stable keeps amdhip64_7.dll 10.0.3581 beside
 *    llama-server.exe and ggml-hip.dll (a real PE importing it), System32
 *    has 10.0.3679: the app's older copy wins the DLL search; the step is
 *    to rename it, not to install an SDK;
 *  - windows-rx6800xt-hip64-hip71 (its README): HIP SDK 7.1 does not
 *    see gfx1030 (kb windows.hip_sdk), so 6.4 is the SDK to use, and
 *    HIP_PATH (7.1) is not to be trusted; without the kb entry 7.1 would
 *    be chosen;
 *  - windows-r9700-llamacpp-missing-hipblas (its README):
 *    ggml-hip.dll (a real PE) imports hipblas.dll, which is in neither the
 *    app folder, System32 nor PATH: a bad fact and a step; its other
 *    imports (ggml-base.dll there, amdhip64_7.dll in System32) resolve;
 *  - (native only) the same DLL with hipblas.dll on PATH is not missing,
 *    nor is the app's own ggml-base.dll (only ROCm libraries are blamed);
 *    with it only in an installed SDK's bin the step names that folder;
 *  - (native only) captures made here: a copy not older than System32's is
 *    reported, not blamed; a copy nothing in its folder loads is not an
 *    app; the Program Files SDK tree is not taken for an app.
 * Runs natively and, in the Windows build, under Wine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "discover/disc_int.h"
#include "doctor/verdict_windows.h"
#include "inventory/win_inventory.h"
#include "kb/kb.h"
#include "t.h"

#ifndef _WIN32
#include <sys/stat.h>
#include <unistd.h>
#endif

#define STRIX "fixtures/windows-strixhalo-stale-hip-runtime/root"
#define RX6800 "fixtures/windows-rx6800xt-hip64-hip71/root"
#define R9700 "fixtures/windows-r9700-llamacpp-missing-hipblas/root"
#define R9700_APP                                                              \
	"C:\\Users\\user\\AppData\\Local\\Programs\\llama-b10400-bin-win-"     \
	"rocm-7.14-x64"

static int has_code(const struct gd_win_line *l, int n, enum gd_code c,
		    const char *text)
{
	for (int i = 0; i < n; i++)
		if (l[i].code == c && strstr(l[i].text, text))
			return 1;
	return 0;
}

static void test_stale_app_runtime(void)
{
	static struct gd_win_verdict v;
	struct gd_win_inventory wi;
	struct gd_machine m;
	char *envp[] = {NULL};
	gd_ctx ctx;

	CHECK_INT(gd_ctx_init(&ctx, STRIX, envp), 0);
	ctx.kb = gd_kb_load_embedded();
	CHECK(gd_discover(&ctx, &m) == 0 && m.n_gpus == 1);
	gd_win_inventory_collect(&ctx, &wi);
	CHECK_INT(wi.n_apps, 1);
	CHECK_INT(wi.app_scan_cut, 0);
	if (wi.n_apps != 1 || m.n_gpus != 1)
		goto out;
	CHECK_STR(wi.apps[0].dir, "C:\\Users\\user\\.cache\\lemonade\\bin\\"
				  "llamacpp\\rocm-stable");
	CHECK_STR(wi.apps[0].dll, "amdhip64_7.dll");
	CHECK_STR(wi.apps[0].ver, "10.0.3581");
	CHECK_INT(wi.apps[0].in_sys32, 1);
	CHECK_STR(wi.apps[0].sys_ver, "10.0.3679");
	CHECK_STR(wi.apps[0].exe, "llama-server.exe");
	CHECK_STR(wi.apps[0].importer, "ggml-hip.dll");
	gd_win_verdict_amd(&ctx, &m.gpus[0], &wi, NULL, &v);
	CHECK(!v.usable);
	CHECK(has_code(v.facts, v.n_facts, GD_C_WIN_APP_RUNTIME_STALE,
		       "older than the driver's amdhip64_7.dll in System32 "
		       "(version 10.0.3679)"));
	CHECK(has_code(v.steps, v.n_steps, GD_C_WIN_APP_RUNTIME_REMOVE,
		       "rocm-stable\\amdhip64_7.dll (e.g. to "
		       "amdhip64_7.dll.bak)"));
	/* an SDK is for building, not the app's fix */
	CHECK(!has_code(v.steps, v.n_steps, GD_C_WIN_INSTALL_SDK, ""));
	CHECK(v.n_steps == 1);
	CHECK(strstr(v.summary, "llama-server.exe loads its own older "
				"amdhip64_7.dll (10.0.3581)") != NULL);
out:
	gd_machine_free(&m);
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
}

static void test_missing_import(void)
{
	static struct gd_win_verdict v;
	struct gd_win_inventory wi;
	struct gd_machine m;
	char *envp[] = {NULL};
	gd_ctx ctx;

	CHECK_INT(gd_ctx_init(&ctx, R9700, envp), 0);
	ctx.kb = gd_kb_load_embedded();
	CHECK(gd_discover(&ctx, &m) == 0 && m.n_gpus == 1);
	gd_win_inventory_collect(&ctx, &wi);
	CHECK_INT(wi.n_apps, 0); /* no runtime of its own */
	CHECK_INT(wi.n_app_missing, 1);
	if (wi.n_app_missing != 1 || m.n_gpus != 1)
		goto out;
	CHECK_STR(wi.app_missing[0].dir, R9700_APP);
	CHECK_STR(wi.app_missing[0].importer, "ggml-hip.dll");
	CHECK_STR(wi.app_missing[0].dll, "hipblas.dll");
	CHECK_STR(wi.app_missing[0].exe, "llama-server.exe");
	CHECK_STR(wi.app_missing[0].sdk, "");
	gd_win_verdict_amd(&ctx, &m.gpus[0], &wi, NULL, &v);
	CHECK(!v.usable);
	CHECK(has_code(v.facts, v.n_facts, GD_C_WIN_APP_IMPORT_MISSING,
		       "ggml-hip.dll (in " R9700_APP ") imports hipblas.dll, "
		       "which is in neither the app folder, System32 nor "
		       "PATH"));
	CHECK(has_code(v.steps, v.n_steps, GD_C_WIN_APP_IMPORT_GET,
		       "ships hipblas.dll in " R9700_APP));
	CHECK(!has_code(v.steps, v.n_steps, GD_C_WIN_INSTALL_SDK, ""));
	CHECK(strstr(v.summary, "ggml-hip.dll cannot load (hipblas.dll is "
				"missing)") != NULL);
out:
	gd_machine_free(&m);
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
}

static void rx6800(int with_kb)
{
	static struct gd_win_verdict v;
	struct gd_win_inventory wi;
	struct gd_machine m;
	char *envp[] = {NULL};
	gd_ctx ctx;
	gd_kb *kb;

	CHECK_INT(gd_ctx_init(&ctx, RX6800, envp), 0);
	kb = ctx.kb = gd_kb_load_embedded();
	CHECK(gd_discover(&ctx, &m) == 0 && m.n_gpus == 1);
	if (!with_kb)
		ctx.kb = NULL;
	gd_win_inventory_collect(&ctx, &wi);
	CHECK_INT(wi.n_sdks, 2);
	if (m.n_gpus != 1 || wi.n_sdks != 2)
		goto out;
	CHECK_STR(m.gpus[0].gfx, "gfx1030");
	gd_win_verdict_amd(&ctx, &m.gpus[0], &wi, NULL, &v);
	if (!with_kb) { /* nothing says 7.1 is broken: the newest is used */
		CHECK(v.sdk >= 0 && !strcmp(wi.sdks[v.sdk].version, "7.1"));
		goto out;
	}
	CHECK(v.sdk >= 0 && !strcmp(wi.sdks[v.sdk].version, "6.4"));
	CHECK(has_code(v.facts, v.n_facts, GD_C_WIN_SDK_KNOWN_BROKEN,
		       "HIP SDK 7.1 (C:\\Program Files\\AMD\\ROCm\\7.1) does "
		       "not see gfx1030"));
	CHECK(has_code(v.facts, v.n_facts, GD_C_WIN_SDK_KNOWN_BROKEN,
		       "https://github.com/ROCm/hip/issues/3899"));
	CHECK(has_code(v.facts, v.n_facts, GD_C_WIN_HIP_PATH_DISTRUST,
		       "which does not see gfx1030: do not trust HIP_PATH; "
		       "use HIP_PATH_64"));
	CHECK(has_code(v.steps, v.n_steps, GD_C_WIN_HIP_PATH,
		       "set \"HIP_PATH=C:\\Program Files\\AMD\\ROCm\\6.4\\\""));
	CHECK_STR(v.python,
		  "os.add_dll_directory(r\"C:\\Program Files\\AMD\\ROCm\\6.4"
		  "\\bin\")");
	CHECK(strstr(v.summary, "(ROCm/hip#3899)") != NULL);
	CHECK_STR(gd_win_verdict_status(&v), "workaround");
out:
	gd_machine_free(&m);
	gd_kb_free(kb);
	gd_ctx_free(&ctx);
}

#ifndef _WIN32
static char tmp[256];

static void put(const char *rel, const char *text)
{
	char p[600], *s;
	FILE *f;

	gd_fmt(p, sizeof p, "%s/%s", tmp, rel);
	for (s = p + strlen(tmp) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	if ((f = fopen(p, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

static void copy_pe(const char *rel)
{
	char p[600], buf[8192];
	FILE *in, *out;
	size_t n;

	put(rel, "");
	gd_fmt(p, sizeof p, "%s/%s", tmp, rel);
	in = fopen(R9700 "/fs/C/Users/user/AppData/Local/Programs/"
			 "llama-b10400-bin-win-rocm-7.14-x64/ggml-hip.dll",
		   "rb");
	out = fopen(p, "wb");
	while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

/* ggml-hip.dll importing hipblas.dll: found on PATH (a HIP SDK's bin), so
 * nothing is missing; then without PATH, where the step names the SDK's
 * bin that has it. */
static void test_import_on_path(int on_path)
{
	struct gd_win_inventory wi;
	static struct gd_win_verdict v;
	struct gd_gpu g;
	char *envp[] = {NULL}, cmd[300], env[400];
	gd_ctx ctx;

	gd_fmt(tmp, sizeof tmp, "%s/gd-win-imp.%d",
	       getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	CHECK_INT(mkdir(tmp, 0755), 0);
	gd_fmt(env, sizeof env,
	       "LOCALAPPDATA=C:\\Users\\u\\AppData\\Local\nProgramFiles=C:\\"
	       "Program Files\nSystemRoot=C:\\Windows\nPath=C:\\Windows\\"
	       "system32;C:\\Windows%s\n",
	       on_path ? ";C:\\Program Files\\AMD\\ROCm\\6.4\\bin" : "");
	put(".gpudoctor/environ", env);
	put("fs/C/Windows/System32/amdhip64_7.dll", "");
	copy_pe("fs/C/Users/u/AppData/Local/Programs/L/ggml-hip.dll");
	if (!on_path) /* else the app's own DLL missing: not blamed (its
		       * loader may add the folder that has it) */
		put("fs/C/Users/u/AppData/Local/Programs/L/ggml-base.dll", "");
	put("fs/C/Users/u/AppData/Local/Programs/L/llama-server.exe", "");
	put("fs/C/Program Files/AMD/ROCm/6.4/bin/amdhip64_6.dll", "");
	put("fs/C/Program Files/AMD/ROCm/6.4/bin/hipblas.dll", "");
	CHECK_INT(gd_ctx_init(&ctx, tmp, envp), 0);
	gd_win_inventory_collect(&ctx, &wi);
	CHECK_INT(wi.n_app_missing, on_path ? 0 : 1);
	if (!on_path && wi.n_app_missing == 1) {
		CHECK_STR(wi.app_missing[0].sdk,
			  "C:\\Program Files\\AMD\\ROCm\\6.4\\bin");
		memset(&g, 0, sizeof g);
		gd_strlcpy(g.gfx, "gfx1201", sizeof g.gfx);
		gd_win_verdict_amd(&ctx, &g, &wi, NULL, &v);
		CHECK(has_code(v.steps, v.n_steps, GD_C_WIN_APP_IMPORT_GET,
			       "from C:\\Program Files\\AMD\\ROCm\\6.4\\bin)"));
	}
	gd_ctx_free(&ctx);
	gd_fmt(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	CHECK_INT(system(cmd), 0);
}

/* Three folders: an app with a newer copy, a folder of DLLs nothing
 * there loads, and the SDK tree, which is not an app. */
static void test_made_capture(void)
{
	static struct gd_win_verdict v;
	struct gd_win_inventory wi;
	struct gd_gpu g;
	char *envp[] = {NULL}, cmd[300];
	gd_ctx ctx;

	gd_fmt(tmp, sizeof tmp, "%s/gd-win-apps.%d",
	       getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	CHECK_INT(mkdir(tmp, 0755), 0);
	put(".gpudoctor/environ",
	    "LOCALAPPDATA=C:\\Users\\u\\AppData\\Local\nProgramFiles=C:\\"
	    "Program "
	    "Files\nSystemRoot=C:\\Windows\nUSERPROFILE=C:\\Users\\u\n");
	put(".gpudoctor/versions.tsv",
	    "C:\\Windows\\System32\\amdhip64_6.dll\t10.0.3617\t\t\n"
	    "C:\\Users\\u\\AppData\\Local\\Programs\\App\\lib\\amdhip64_6.dll"
	    "\t10.0.3640\t\t\n");
	put("fs/C/Windows/System32/amdhip64_6.dll", "");
	put("fs/C/Users/u/AppData/Local/Programs/App/lib/amdhip64_6.dll", "");
	put("fs/C/Users/u/AppData/Local/Programs/App/lib/app.exe", "");
	put("fs/C/Users/u/AppData/Local/Programs/Store/amdhip64_6.dll", "");
	put("fs/C/Users/u/AppData/Local/Programs/Store/readme.txt", "");
	put("fs/C/Program Files/AMD/ROCm/6.4/bin/amdhip64_6.dll", "");
	put("fs/C/Program Files/AMD/ROCm/6.4/bin/hipInfo.exe", "");
	put("fs/C/Program Files/AMD/ROCm/6.4/bin/amd_comgr0604.dll", "");
	CHECK_INT(gd_ctx_init(&ctx, tmp, envp), 0);
	gd_win_inventory_collect(&ctx, &wi);
	CHECK_INT(wi.n_apps, 1);
	if (wi.n_apps == 1) {
		CHECK_STR(wi.apps[0].dir, "C:\\Users\\u\\AppData\\Local\\"
					  "Programs\\App\\lib");
		CHECK_STR(wi.apps[0].exe, "app.exe");
		CHECK_STR(wi.apps[0].importer, "");
	}
	memset(&g, 0, sizeof g);
	gd_strlcpy(g.gfx, "gfx1100", sizeof g.gfx);
	gd_win_verdict_amd(&ctx, &g, &wi, NULL, &v);
	CHECK(has_code(v.facts, v.n_facts, GD_C_WIN_APP_RUNTIME,
		       "(version 10.0.3640, not older than the driver's "
		       "10.0.3617)"));
	CHECK(!has_code(v.facts, v.n_facts, GD_C_WIN_APP_RUNTIME_STALE, ""));
	CHECK(v.usable);
	for (int i = 0; !v.usable && i < v.n_facts; i++)
		fprintf(stderr, "  fact: %s\n", v.facts[i].text);
	gd_ctx_free(&ctx);
	gd_fmt(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	CHECK_INT(system(cmd), 0);
}
#endif

int main(void)
{
	test_stale_app_runtime();
	test_missing_import();
	rx6800(1);
	rx6800(0);
#ifndef _WIN32
	test_made_capture();
	test_import_on_path(1);
	test_import_on_path(0);
#endif
	return t_done("test_win_apps");
}
