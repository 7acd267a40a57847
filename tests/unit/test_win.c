/* Windows facts from a Windows capture (tests/fixtures/winreg/capture-
 * rx5700xt, the field report's machine): the capture is recognised, the
 * adapter comes from the display class key (a removed adapter's key is
 * dropped), gfx from the PCI id via the kb, the HIP SDKs and the driver's
 * runtime, and the verdict the report reached. Runs natively and, in the
 * Windows build, under Wine. */
#include <stdlib.h>
#include <string.h>

#include "binscan/pe_version.h"
#include "core/ctx.h"
#include "core/wincap.h"
#include "discover/disc_int.h"
#include "doctor/verdict_windows.h"
#include "inventory/win_inventory.h"
#include "inventory/win_python.h"
#include "kb/kb.h"
#include "t.h"

#define CAP "fixtures/winreg/capture-rx5700xt"
#define RX5700 "fixtures/windows-rx5700xt-hip62-hip71/root"
#define RX7900 "fixtures/windows-rx7900xtx-torch-rocm711/root"
#define RTX4060 "fixtures/windows-rtx4060-driver536-torch-cu130/root"

static int has_step(const struct gd_win_verdict *v, const char *code,
		    const char *text)
{
	for (int i = 0; i < v->n_steps; i++)
		if (!strcmp(gd_code_name(v->steps[i].code), code) &&
		    strstr(v->steps[i].text, text))
			return 1;
	return 0;
}

static int has_fact(const struct gd_win_verdict *v, enum gd_code code,
		    const char *text)
{
	for (int i = 0; i < v->n_facts; i++)
		if (v->facts[i].code == code && strstr(v->facts[i].text, text))
			return 1;
	return 0;
}

/* The issue #14 machine's CTranslate2 wheel: ctranslate2.dll (a real PE
 * built with MinGW, FORMAT.md) imports amdhip64_7.dll, found only in SDK
 * 7.1 through ctranslate2's HIP_PATH fallback, and hipblas.dll, found
 * nowhere (7.1 names it libhipblas.dll). */
static void test_python_amd(void)
{
	gd_ctx ctx;
	struct gd_machine m;
	struct gd_win_inventory wi;
	static struct gd_win_python py;
	static struct gd_win_verdict v;
	const struct gd_winpy_dll *d;
	char *envp[] = {NULL};

	CHECK_INT(gd_ctx_init(&ctx, RX5700, envp), 0);
	ctx.kb = gd_kb_load_embedded();
	CHECK(gd_discover(&ctx, &m) == 0 && m.n_gpus == 1);
	gd_win_inventory_collect(&ctx, &wi);
	gd_win_python_collect(&ctx, &py);
	CHECK_INT(py.n_envs, 1);
	CHECK_INT(py.n_fw, 1);
	if (py.n_fw != 1 || m.n_gpus != 1)
		goto out;
	CHECK_STR(py.envs[0].kind, "PythonCore");
	CHECK_STR(py.envs[0].version, "3.13");
	CHECK_STR(py.fw[0].name, "ctranslate2");
	CHECK_STR(py.fw[0].version, "4.7.1");
	CHECK_STR(py.fw[0].build, "rocm");
	CHECK_INT(py.fw[0].hip_major, 7);
	CHECK_INT(py.fw[0].n_dlls, 1);
	d = &py.fw[0].dlls[0];
	CHECK(d->read && d->n_imp == 2);
	CHECK_STR(d->imp[0].dll, "amdhip64_7.dll");
	CHECK_STR(d->imp[0].dir, "C:\\Program Files\\AMD\\ROCm\\7.1\\bin");
	CHECK_STR(d->imp[1].dll, "hipblas.dll");
	CHECK_STR(d->imp[1].dir, "");
	gd_win_verdict_amd(&ctx, &m.gpus[0], &wi, &py, &v);
	CHECK(has_fact(&v, GD_C_WIN_FRAMEWORK_HIP_MISMATCH,
		       "imports amdhip64_7.dll; the driver provides "
		       "amdhip64_6.dll"));
	CHECK(has_fact(&v, GD_C_WIN_FRAMEWORK_DLL_MISSING,
		       "HIP SDK 7.1 names it libhipblas.dll"));
	CHECK(has_step(&v, "win.framework.replace",
		       "HIP SDK 6.2 targeting "
		       "gfx1010"));
	CHECK(!has_step(&v, "win.build_for_target", ""));
out:
	gd_machine_free(&m);
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
}

/* AMD's TheRock torch wheels bring their own HIP runtime (no System32
 * DLLs, no SDK): it works; onnxruntime-gpu's CUDA provider DLL (a MinGW
 * stand-in) is loaded by ONNX Runtime with LOAD_WITH_ALTERED_SEARCH_PATH,
 * so PATH counts for its imports. */
static void test_python_bundled(void)
{
	gd_ctx ctx;
	struct gd_machine m;
	struct gd_win_inventory wi;
	static struct gd_win_python py;
	static struct gd_win_verdict v;
	char *envp[] = {NULL};

	CHECK_INT(gd_ctx_init(&ctx, RX7900, envp), 0);
	ctx.kb = gd_kb_load_embedded();
	CHECK(gd_discover(&ctx, &m) == 0 && m.n_gpus == 1);
	gd_win_inventory_collect(&ctx, &wi);
	gd_win_python_collect(&ctx, &py);
	CHECK_INT(py.n_fw, 2);
	if (py.n_fw == 2 && m.n_gpus == 1) {
		CHECK_STR(py.envs[0].kind, "venv");
		CHECK_STR(py.fw[0].name, "torch");
		CHECK_INT(py.fw[0].bundled_hip_major, 7);
		CHECK_STR(py.fw[1].dist, "onnxruntime-gpu");
		CHECK_STR(py.fw[1].also, "onnxruntime 1.23.2");
		CHECK_STR(py.fw[1].build, "cuda");
		CHECK(py.fw[1].n_dlls == 1 && py.fw[1].dlls[0].path_search &&
		      py.fw[1].dlls[0].n_imp == 3);
		gd_win_verdict_amd(&ctx, &m.gpus[0], &wi, &py, &v);
		CHECK(v.usable);
		CHECK_STR(gd_win_verdict_status(&v), "works");
		CHECK(has_fact(&v, GD_C_WIN_FRAMEWORK_OTHER_GPU,
			       "is a CUDA build: it needs an NVIDIA GPU"));
	}
	gd_machine_free(&m);
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
}

/* driver 536.40 (CUDA 12.x) and torch 2.9.0+cu130 in a conda env. */
static void test_nvidia(void)
{
	gd_ctx ctx;
	struct gd_machine m;
	struct gd_win_inventory wi;
	static struct gd_win_python py;
	static struct gd_win_verdict v;
	char *envp[] = {NULL};

	CHECK_INT(gd_ctx_init(&ctx, RTX4060, envp), 0);
	ctx.kb = gd_kb_load_embedded();
	CHECK(gd_discover(&ctx, &m) == 0 && m.n_gpus == 1);
	gd_win_inventory_collect(&ctx, &wi);
	gd_win_python_collect(&ctx, &py);
	CHECK_INT(py.n_fw, 1);
	if (m.n_gpus == 1) {
		CHECK_STR(py.envs[0].kind, "conda");
		gd_win_verdict_nvidia(&ctx, &m.gpus[0], &wi, &py, &v);
		CHECK_STR(v.cuda_level, "12.x");
		CHECK(!v.usable);
		CHECK(has_fact(&v, GD_C_WIN_FRAMEWORK_CUDA_TOO_NEW,
			       "driver 536.40 is older than 580"));
		CHECK(has_step(&v, "win.nvidia.driver_upgrade", "580"));
		CHECK(has_fact(&v, GD_C_WIN_CUDA_TOOLKIT, "11.8"));
	}
	gd_machine_free(&m);
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
}

/* The Python literal of a folder: raw when exact, else escaped; and
 * pyvenv.cfg's home / version (uv's version_info, CRLF). */
static void test_py_literal(void)
{
	char b[128], home[64], ver[16];
	const char cfg[] =
	    "home = C:\\uv\\cpython-3.12.10\r\n"
	    "implementation = CPython\r\nversion_info = 3.12.10\r\n";

	gd_win_py_literal("C:\\Program Files\\AMD\\ROCm\\6.2\\bin", b,
			  sizeof b);
	CHECK_STR(b, "r\"C:\\Program Files\\AMD\\ROCm\\6.2\\bin\"");
	gd_win_py_literal("C:\\a\"b\\", b, sizeof b);
	CHECK_STR(b, "'C:\\\\a\"b\\\\'");
	gd_win_py_literal("x'\ny", b, sizeof b);
	CHECK_STR(b, "'x\\'\\x0ay'");
	gd_winpy_cfg_parse(cfg, sizeof cfg - 1, home, sizeof home, ver,
			   sizeof ver);
	CHECK_STR(home, "C:\\uv\\cpython-3.12.10");
	CHECK_STR(ver, "3.12");
}

static void test_helpers(void)
{
	char b[64];

	CHECK(gd_win_nvidia_version("32.0.15.8129", b, sizeof b) == 0);
	CHECK_STR(b, "581.29");
	CHECK(gd_win_nvidia_version("32.0.15.6094", b, sizeof b) == 0);
	CHECK_STR(b, "560.94");
	CHECK(gd_win_nvidia_version("1.2", b, sizeof b) == -1);
	CHECK_INT(gd_win_hip_major("amdhip64.dll"), 5);
	CHECK_INT(gd_win_hip_major("AMDHIP64_6.DLL"), 6);
	CHECK_INT(gd_win_hip_major("amdhip64_7.dll"), 7);
	CHECK_INT(gd_win_hip_major("amd_comgr_2.dll"), 0);
	CHECK(gd_win_fs_path("c:\\Windows\\System32\\x.dll", b, sizeof b) == 0);
	CHECK_STR(b, "/fs/C/Windows/System32/x.dll");
	CHECK(gd_win_fs_path("\\\\server\\share", b, sizeof b) == -1);
}

static void test_capture(void)
{
	gd_ctx ctx;
	struct gd_machine m;
	struct gd_win_inventory wi;
	struct gd_win_verdict v;
	char *envp[] = {NULL};

	CHECK_INT(gd_ctx_init(&ctx, CAP, envp), 0);
	ctx.kb = gd_kb_load_embedded();
	CHECK(gd_ctx_is_windows(&ctx));
	CHECK(gd_discover(&ctx, &m) == 0);
	CHECK_INT(m.n_gpus, 1); /* 0001 deleted, 0002 not in Enum\PCI */
	if (m.n_gpus != 1)
		return;
	CHECK_STR(m.gpus[0].name.v, "AMD Radeon RX 5700 XT");
	CHECK_INT(m.gpus[0].pci.device_id, 0x731f);
	CHECK_STR(m.gpus[0].gfx, "gfx1010");
	CHECK_STR(m.gpus[0].win.driver_user.v, "25.5.1");
	CHECK_INT(m.gpus[0].vram_total.v, 8589934592ULL);

	gd_win_inventory_collect(&ctx, &wi);
	CHECK_INT(wi.driver_hip_major, 6);
	CHECK_INT(wi.n_sdks, 2);
	CHECK(wi.hip_path_sdk >= 0 &&
	      !strcmp(wi.sdks[wi.hip_path_sdk].version, "7.1"));

	gd_win_verdict_amd(&ctx, &m.gpus[0], &wi, NULL, &v);
	CHECK(!v.usable);
	CHECK(v.sdk >= 0 && !strcmp(wi.sdks[v.sdk].version, "6.2"));
	CHECK(has_step(&v, "win.use_sdk", "not 7.1"));
	CHECK(has_step(&v, "win.hip_path", "do not trust HIP_PATH"));
	CHECK(has_step(&v, "win.rocblas_community", "no gfx1010 kernels"));
	CHECK(has_step(&v, "win.build_for_target",
		       "CMAKE_HIP_ARCHITECTURES=gfx1010"));
	CHECK_STR(v.python, "os.add_dll_directory(r\"C:\\Program "
			    "Files\\AMD\\ROCm\\6.2\\bin\")");
	gd_machine_free(&m);
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
}

/* A VS_FIXEDFILEINFO found in the bytes; and in a real DLL of MinGW-w64
 * (winpthreads' version.rc: 1,0,0,0) when the test deps are installed. */
static void test_pe_version(void)
{
	static uint8_t b[256];
	static const uint8_t fixed[] = {
	    0xBD, 0x04, 0xEF, 0xFE, 0x00, 0x00, 0x01, 0x00, /* sig, 1.0 */
	    0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x2C, 0x0E, /* 10.0.3628.0 */
	    0x02, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, /* 6.2.0.0 */
	};
	char fv[48], pv[48];
	FILE *f;

	b[0] = 'M';
	b[1] = 'Z';
	memcpy(b + 128, fixed, sizeof fixed);
	CHECK(gd_pe_version(b, sizeof b, fv, pv, sizeof fv) == 0);
	CHECK_STR(fv, "10.0.3628.0");
	CHECK_STR(pv, "6.2.0.0");
	CHECK(gd_pe_version(b + 1, sizeof b - 1, fv, pv, sizeof fv) == -1);
	f = fopen("/usr/x86_64-w64-mingw32/lib/libwinpthread-1.dll", "rb");
	if (f) {
		static uint8_t d[1 << 20];
		size_t n = fread(d, 1, sizeof d, f);

		fclose(f);
		CHECK(gd_pe_version(d, n, fv, pv, sizeof fv) == 0);
		CHECK_STR(fv, "1.0.0.0");
	}
}

int main(void)
{
	test_pe_version();
	test_helpers();
	test_py_literal();
	test_capture();
	test_python_amd();
	test_python_bundled();
	test_nvidia();
	return t_done("test_win");
}
