/* gd_inventory_collect() on this machine ("/"), against the real Debian
 * packages the test setup installs: Mesa's lavapipe (mesa-vulkan-drivers),
 * PoCL (pocl-opencl-icd), Debian's HIP runtime (libamdhip64-5) and a CUDA
 * toolkit in /usr/local/cuda. Each part prints "SKIP: <why>" and checks
 * nothing when its package is absent, so the test runs anywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inventory/inventory.h"
#include "inventory/ldpath.h"
#include "t.h"

extern char **environ;

static int have(const char *path)
{
	return access(path, F_OK) == 0;
}

static void skip(const char *why)
{
	printf("SKIP: %s\n", why);
}

static void live_vulkan(const struct gd_inventory *inv)
{
	const char *m = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
	int found = 0;

	if (!have(m)) {
		skip(
		    "no lavapipe manifest (mesa-vulkan-drivers not installed)");
		return;
	}
	for (size_t i = 0; i < inv->n_vulkan; i++) {
		const struct gd_icd *c = &inv->vulkan[i];

		if (strcmp(c->manifest, m))
			continue;
		found = 1;
		CHECK_STR(c->driver, "lvp");
		CHECK_INT(c->software, 1);
		CHECK_INT(c->library_found, 1);
		CHECK_STR(c->error, "");
		CHECK(gd_known(&c->api_version));
		CHECK(gd_startswith(c->api_version.v, "1."));
	}
	CHECK(found);
}

static void live_opencl(const struct gd_inventory *inv)
{
	int found = 0;

	if (!have("/etc/OpenCL/vendors/pocl.icd")) {
		skip("no /etc/OpenCL/vendors/pocl.icd (pocl-opencl-icd not "
		     "installed)");
		return;
	}
	for (size_t i = 0; i < inv->n_opencl; i++) {
		if (strcmp(inv->opencl[i].manifest,
			   "/etc/OpenCL/vendors/pocl.icd"))
			continue;
		found = 1;
		CHECK_STR(inv->opencl[i].driver, "pocl");
		CHECK_INT(inv->opencl[i].software, 1);
		CHECK_INT(inv->opencl[i].library_found, 1);
	}
	CHECK(found);
}

static void live_hip(const struct gd_inventory *inv)
{
	char dir[128], lib[160];
	const struct gd_rocm_install *r = NULL;

	gd_fmt(dir, sizeof dir, "/usr/lib/%s", gd_ld_multiarch());
	gd_fmt(lib, sizeof lib, "%s/libamdhip64.so.5", dir);
	if (!have(lib)) {
		skip("no libamdhip64.so.5 in the multiarch dir (libamdhip64-5 "
		     "not installed)");
		return;
	}
	for (size_t i = 0; i < inv->n_rocm; i++)
		if (!strcmp(inv->rocm[i].resolved, dir))
			r = &inv->rocm[i];
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK(strstr(r->found_by, "multiarch") != NULL);
	CHECK_STR(r->path, dir);
	CHECK_INT(r->hip_major, 5);
	CHECK(gd_known(&r->hip_version));
	CHECK(gd_startswith(r->hip_version.v, "5."));
	printf("HIP in %s: %s\n", dir, r->hip_version.v);
}

static void live_cuda(const struct gd_inventory *inv)
{
	const struct gd_cuda_toolkit *t = NULL;
	char res[512];
	gd_fs fs;

	if (!have("/usr/local/cuda")) {
		skip("no /usr/local/cuda toolkit");
		return;
	}
	if (gd_fs_init(&fs, "/") < 0 ||
	    gd_fs_resolve(&fs, "/usr/local/cuda", res, sizeof res) < 0) {
		CHECK(!"cannot resolve /usr/local/cuda");
		return;
	}
	gd_fs_close(&fs);
	for (size_t i = 0; i < inv->n_cuda; i++)
		if (!strcmp(inv->cuda[i].path, res))
			t = &inv->cuda[i];
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(strstr(t->found_by, "/usr/local/cuda") != NULL);
	CHECK(gd_known(&t->version));
	printf("CUDA toolkit %s: %s (from %s)\n", t->path, t->version.v,
	       t->version.src);
	if (have("/proc/driver/nvidia/version"))
		CHECK(gd_known(&inv->cuda_driver));
	else
		skip("no NVIDIA kernel module: driver version not checked");
}

int main(void)
{
	gd_ctx ctx;
	struct gd_inventory inv;

	if (gd_ctx_init(&ctx, "/", environ) < 0) {
		CHECK(!"gd_ctx_init");
		return t_done("test_inventory_live");
	}
	CHECK_INT(gd_inventory_collect(&ctx, &inv), 0);
	live_vulkan(&inv);
	live_opencl(&inv);
	live_hip(&inv);
	live_cuda(&inv);
	gd_inventory_free(&inv);
	gd_ctx_free(&ctx);
	return t_done("test_inventory_live");
}
