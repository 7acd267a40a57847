/* DLL resolution of PE imports (src/binscan/dllresolve.c): the system
 * list, the search order (own directory, --dll-path dirs, system) against
 * hand-built PE files written to a temp dir, case-insensitive names, the
 * machine check, the "found another version" notes (the RDNA1 field
 * report's amdhip64_7 / amdhip64_6 mismatch), wheel members, and fit.c's
 * routing of a PE file through it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan/binscan.h"
#include "pe_img.h"
#include "t.h"

static void test_system(void)
{
	CHECK(gd_dll_is_system("KERNEL32.dll"));
	CHECK(gd_dll_is_system("kernel32.DLL"));
	CHECK(gd_dll_is_system("api-ms-win-crt-runtime-l1-1-0.dll"));
	CHECK(gd_dll_is_system("VCRUNTIME140_1.dll"));
	CHECK(gd_dll_is_system("MSVCP140.dll"));
	CHECK(gd_dll_is_system("ucrtbase.dll"));
	CHECK(gd_dll_is_system("ADVAPI32.dll"));
	CHECK(!gd_dll_is_system("amdhip64_6.dll"));
	CHECK(!gd_dll_is_system("kernel32.dll.bak"));
	CHECK(!gd_dll_is_system("cudart64_12.dll"));
}

static char written[16][700];
static int n_written;

static void write_file(const char *dir, const char *name, const void *b,
		       size_t n)
{
	char *p = written[n_written < 16 ? n_written++ : 15];
	FILE *f;

	snprintf(p, sizeof written[0], "%s/%s", dir, name);
	if ((f = fopen(p, "wb"))) {
		fwrite(b, 1, n, f);
		fclose(f);
	}
}

static void resolve(gd_ctx *ctx, const struct gd_bs_file *f,
		    const char *const *dirs, size_t nd, const char *dll,
		    int delay, struct gd_bs_need *need)
{
	struct gd_bs_env env;

	memset(&env, 0, sizeof env);
	env.dll_dirs = dirs;
	env.n_dll_dirs = nd;
	gd_dllresolve(ctx, &env, f, dll, delay, need);
}

/* root/{app,sdk62,x86,sdk71,cuda}: what a Windows machine would have. */
static char root[] = "/tmp/gd-pe-XXXXXX", d[5][600];

static int make_tree(void)
{
	static uint8_t pe64[IMG_N], pe32[IMG_N];
	static const char *names[] = {"app", "sdk62", "x86", "sdk71", "cuda"};

	if (!mkdtemp(root))
		return -1;
	for (int i = 0; i < 5; i++) {
		snprintf(d[i], sizeof d[i], "%s/%s", root, names[i]);
		mkdir(d[i], 0755);
	}
	mk_pe(pe64, sizeof pe64, 1, std_secs, 3);
	mk_pe(pe32, sizeof pe32, 0, std_secs, 3);
	write_file(d[1], "amdhip64_6.dll", pe64, sizeof pe64);
	write_file(d[1], "AMDHIP64_5.DLL", pe64, sizeof pe64);
	write_file(d[1], "hiprtc0602.dll", pe64, sizeof pe64);
	write_file(d[1], "hipblas.dll", pe64, sizeof pe64);
	write_file(d[2], "amdhip64_7.dll", pe32, sizeof pe32);
	write_file(d[3], "Amdhip64_7.Dll", pe64, sizeof pe64);
	write_file(d[4], "cudart64_110.dll", pe64, sizeof pe64);
	write_file(d[4], "cudnn64_9.dll", "text", 4);
	write_file(d[0], "helper.DLL", pe64, sizeof pe64);
	return 0;
}

static void remove_tree(void)
{
	for (int i = 0; i < n_written; i++)
		CHECK(unlink(written[i]) == 0);
	for (int i = 0; i < 5; i++)
		CHECK(rmdir(d[i]) == 0);
	CHECK(rmdir(root) == 0);
}

/* Missing DLLs: which other version is named, and how. */
static void test_resolve_notes(gd_ctx *ctx, struct gd_bs_file *f)
{
	const char *dirs[1] = {d[1]};
	struct gd_bs_need nd;
	char want[1024];

	resolve(ctx, f, dirs, 1, "amdhip64_7.dll", 0, &nd);
	snprintf(want, sizeof want,
		 "needs amdhip64_7.dll; found amdhip64_6.dll in %s "
		 "(HIP SDK 6.x): the build is for ROCm 7",
		 d[1]);
	CHECK(!nd.found);
	CHECK_STR(nd.note, want);
	resolve(ctx, f, dirs, 1, "hiprtc0701.dll", 1, &nd);
	snprintf(want, sizeof want,
		 "needs hiprtc0701.dll; found hiprtc0602.dll in %s "
		 "(HIP SDK 6.2): the build is for ROCm 7.1; delay-loaded: "
		 "fails only "
		 "when first used",
		 d[1]);
	CHECK_STR(nd.note, want);
	resolve(ctx, f, dirs, 1, "libhipblas.dll", 0, &nd);
	snprintf(want, sizeof want,
		 "needs libhipblas.dll; found hipblas.dll in %s "
		 "(another version or naming)",
		 d[1]);
	CHECK_STR(nd.note, want);
	resolve(ctx, f, dirs, 1, "unknown.dll", 0, &nd);
	CHECK(!nd.found && !nd.note[0]);
	dirs[0] = d[4];
	resolve(ctx, f, dirs, 1, "cudart64_12.dll", 0, &nd);
	snprintf(want, sizeof want,
		 "needs cudart64_12.dll; found cudart64_110.dll in %s "
		 "(another version or naming)",
		 d[4]);
	CHECK_STR(nd.note, want);
	resolve(ctx, f, dirs, 1, "cudnn64_9.dll", 0, &nd);
	CHECK(!nd.found && strstr(nd.note, "not a PE file"));
}

/* Found DLLs: own dir, --dll-path order, machine check, system, python. */
static void test_resolve_found(gd_ctx *ctx, struct gd_bs_file *f)
{
	const char *dirs[2] = {d[1], NULL};
	struct gd_bs_need nd;

	resolve(ctx, f, dirs, 1, "helper.dll", 0, &nd); /* own dir, any case */
	CHECK(nd.found && !strcmp(nd.how, "dll-dir") &&
	      strstr(nd.path, "helper.DLL"));
	resolve(ctx, f, dirs, 1, "KERNEL32.dll", 0, &nd);
	CHECK(nd.found && !strcmp(nd.how, "system"));
	resolve(ctx, f, dirs, 1, "python313.dll", 0, &nd);
	CHECK(nd.found && !strcmp(nd.how, "python"));
	dirs[0] = d[2]; /* an i386 amdhip64_7.dll first, then an x64 one */
	dirs[1] = d[3];
	resolve(ctx, f, dirs, 2, "amdhip64_7.dll", 0, &nd);
	CHECK(nd.found && !strcmp(nd.how, "dll-path") &&
	      strstr(nd.path, "/sdk71/Amdhip64_7.Dll"));
	resolve(ctx, f, dirs, 1, "amdhip64_7.dll", 0, &nd);
	CHECK(!nd.found && strstr(nd.note, "is for i386"));
	/* inside a wheel the own directory is not on disk */
	snprintf(f->path, sizeof f->path, "%s/x.whl!ct2/ct2.dll", d[0]);
	resolve(ctx, f, dirs, 0, "helper.dll", 0, &nd);
	CHECK(!nd.found);
}

static void test_resolve(gd_ctx *ctx)
{
	struct gd_bs_file f = {0};

	if (make_tree())
		return;
	snprintf(f.path, sizeof f.path, "%s/ct2.dll", d[0]);
	f.pe_machine = 0x8664;
	test_resolve_notes(ctx, &f);
	test_resolve_found(ctx, &f);
	remove_tree();
}

static void test_archive_needs(void)
{
	struct gd_zip_names ix;
	struct gd_bs_file f = {0};
	const char *names[] = {"pkg/_ext.pyd", "pkg/CT2.dll",
			       "pkg.libs/libiomp5md.dll", "other/x.dll",
			       "deep/a.libs/y.dll"};
	const char *dlls[] = {"ct2.dll", "LIBIOMP5MD.DLL", "x.dll", "y.dll"};

	for (int i = 0; i < 4; i++) {
		char **slot = gd_vec_push(&f.dyn.needed);

		if (slot)
			*slot = strdup(dlls[i]);
	}
	f.pe_machine = 0x8664;
	CHECK_INT(gd_zip_names_init(&ix, names, 5), 0);
	gd_dll_archive_needs(&f, "pkg/_ext.pyd", &ix);
	gd_zip_names_free(&ix);
	CHECK_INT(f.needs.n, 2);
	if (f.needs.n == 2) {
		CHECK_STR(f.needs.v[0].path, "pkg/CT2.dll");
		CHECK_STR(f.needs.v[1].path, "pkg.libs/libiomp5md.dll");
		CHECK_STR(f.needs.v[1].how, "archive");
	}
	gd_bs_file_free(&f);
}

/* fit.c routes a PE through gd_dllresolve. */
static void test_judge(gd_ctx *ctx)
{
	static uint8_t b[IMG_N];
	struct gd_bs_file f = {0};
	struct gd_bs_env env;

	mk_pe(b, sizeof b, 1, std_secs, 3);
	set_dir(b, 1, GD_PE_DIR_IMPORT, 0x2000, 60);
	put_import(b, 0x600, 0x2100);
	put_import(b, 0x614, 0x2120);
	strcpy((char *)b + 0x700, "amdhip64_7.dll");
	strcpy((char *)b + 0x720, "KERNEL32.dll");
	gd_strlcpy(f.path, "/nonexistent-dir/ct2.dll", sizeof f.path);
	CHECK_INT(gd_bs_scan_bytes(b, sizeof b, &f), 0);
	memset(&env, 0, sizeof env);
	gd_bs_judge(ctx, &env, &f);
	CHECK_INT(f.needs.n, 2);
	CHECK(!f.runtime_ok && f.fit == GD_FIT_NONE);
	CHECK_STR(f.detail, "missing amdhip64_7.dll");
	CHECK(!gd_bs_file_ok(&f));
	gd_bs_file_free(&f);
}

int main(void)
{
	gd_ctx ctx;

	gd_ctx_init(&ctx, "/", NULL);
	test_system();
	test_resolve(&ctx);
	test_archive_needs();
	test_judge(&ctx);
	gd_ctx_free(&ctx);
	return t_done("test_binscan_dll");
}
