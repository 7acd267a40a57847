/* gd_inventory_collect() on captured/constructed root trees under
 * tests/fixtures/inventory/ (sources in its README.md), and on hostile
 * trees made at run time in a temporary directory: a 50 MB manifest, a
 * FIFO, a symlink loop, a dangling link, 100,000 files in one directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inventory/inventory.h"
#include "t.h"

static int collect(const char *fixture, char *const *envp, gd_ctx *ctx,
		   struct gd_inventory *inv)
{
	const char *src = getenv("GD_SRCDIR");
	char root[1024];
	char *empty[] = {NULL};

	if (fixture[0] == '/')
		gd_strlcpy(root, fixture, sizeof root);
	else
		gd_fmt(root, sizeof root, "%s/tests/fixtures/inventory/%s/root",
		       src ? src : "..", fixture);
	if (gd_ctx_init(ctx, root, envp ? envp : empty) < 0) {
		CHECK(!"cannot open fixture root");
		return -1;
	}
	return gd_inventory_collect(ctx, inv);
}

static void done(gd_ctx *ctx, struct gd_inventory *inv)
{
	gd_inventory_free(inv);
	gd_ctx_free(ctx);
}

static const struct gd_icd *icd_named(const struct gd_icd *a, size_t n,
				      const char *suffix)
{
	for (size_t i = 0; i < n; i++)
		if (gd_endswith(a[i].manifest, suffix))
			return &a[i];
	return NULL;
}

static void test_debian_trixie(void)
{
	gd_ctx ctx;
	struct gd_inventory inv;

	if (collect("debian-trixie-rocblas", NULL, &ctx, &inv) < 0)
		return;
	CHECK_INT(inv.n_rocm, 0); /* librocblas0 alone: no HIP runtime */
	CHECK_INT(inv.n_rocblas, 1);
	if (inv.n_rocblas) {
		CHECK_STR(inv.rocblas[0].path,
			  "/usr/lib/x86_64-linux-gnu/rocblas/2.47.0/library");
		CHECK_STR(inv.rocblas[0].version, "2.47.0");
		CHECK_INT(inv.rocblas[0].n_targets, 11);
	}
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx1010"),
		  GD_ROCBLAS_FALLBACK_ONLY);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx1030"),
		  GD_ROCBLAS_TENSILE_SINGLE);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx90a:xnack+"),
		  GD_ROCBLAS_TENSILE_SINGLE);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx1031"), -1);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx1103"), -1);
	done(&ctx, &inv);
}

static const struct gd_rocm_install *rocm_at(const struct gd_inventory *inv,
					     const char *resolved)
{
	for (size_t i = 0; i < inv->n_rocm; i++)
		if (!strcmp(inv->rocm[i].resolved, resolved))
			return &inv->rocm[i];
	return NULL;
}

static void test_amd_rocm(void)
{
	char *env1[] = {"ROCM_PATH=/opt/rocm", "HIP_PATH=/opt/rocm", NULL};
	char *env2[] = {"HIP_PATH=/opt/rocm", "LD_LIBRARY_PATH=/opt/rocm/lib",
			NULL};
	const struct gd_rocm_install *amd, *deb;
	gd_ctx ctx;
	struct gd_inventory inv;

	if (collect("amd-rocm-6.2.4", env1, &ctx, &inv) < 0)
		return;
	/* /opt/rocm -> /etc/alternatives/rocm -> /opt/rocm-6.2.4, found by
	 * ROCM_PATH, HIP_PATH, /opt/rocm and /opt/rocm-*: listed once */
	CHECK_INT(inv.n_rocm, 2);
	amd = rocm_at(&inv, "/opt/rocm-6.2.4");
	deb = rocm_at(&inv, "/usr/lib/x86_64-linux-gnu");
	CHECK(amd && deb);
	if (amd && deb) {
		CHECK_STR(amd->found_by,
			  "ROCM_PATH, HIP_PATH, /opt/rocm, /opt/rocm-*");
		CHECK_STR(amd->version.v, "6.2.4");
		CHECK_STR(amd->hip_version.v, "6.2.60204");
		CHECK_INT(amd->hip_major, 6);
		CHECK_STR(deb->found_by, "multiarch");
		CHECK_STR(deb->path, "/usr/lib/x86_64-linux-gnu");
		CHECK_STR(deb->version.v, "5.2.21153");
		/* the loader reads ld.so.conf: Debian's HIP 5 comes first */
		CHECK_INT(deb->loader_pick, 1);
		CHECK_INT(amd->loader_pick, 0);
		CHECK_INT(amd->hip_path_mismatch, 1);
	}
	CHECK_INT(inv.hip_path_mismatch, 1);
	CHECK(ctx.diags.n >= 1);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx1010"),
		  GD_ROCBLAS_TENSILE_LAZY);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx90a:xnack-"),
		  GD_ROCBLAS_TENSILE_LAZY);
	CHECK_INT(gd_rocblas_coverage(&inv, "gfx1151"), -1);
	done(&ctx, &inv);

	/* LD_LIBRARY_PATH puts ROCm 6 first: HIP_PATH agrees with it */
	if (collect("amd-rocm-6.2.4", env2, &ctx, &inv) < 0)
		return;
	amd = rocm_at(&inv, "/opt/rocm-6.2.4");
	CHECK(amd && amd->loader_pick && !amd->hip_path_mismatch);
	CHECK(amd && strstr(amd->found_by, "LD_LIBRARY_PATH") == amd->found_by);
	CHECK_INT(inv.hip_path_mismatch, 0);
	done(&ctx, &inv);
}

static void test_icds(void)
{
	char *env_vk[] = {
	    "VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
	    "OCL_ICD_VENDORS=pocl.icd", NULL};
	const struct gd_icd *c;
	gd_ctx ctx;
	struct gd_inventory inv;

	if (collect("icds", NULL, &ctx, &inv) < 0)
		return;
	CHECK_INT(inv.n_vulkan, 7);
	CHECK_STR(inv.vulkan_search, "standard");
	c = icd_named(inv.vulkan, inv.n_vulkan, "/lvp_icd.x86_64.json");
	CHECK(c && c->software && c->library_found &&
	      !strcmp(c->driver, "lvp"));
	c = icd_named(inv.vulkan, inv.n_vulkan, "/radeon_icd.x86_64.json");
	CHECK(c && !c->software && c->library_found &&
	      !strcmp(c->driver, "radv"));
	c = icd_named(inv.vulkan, inv.n_vulkan, "/nvidia_icd.json");
	CHECK(c && !c->library_found && !strcmp(c->api_version.v, "1.4.329"));
	c = icd_named(inv.vulkan, inv.n_vulkan, "/truncated_icd.json");
	CHECK(c && strstr(c->error, "not valid JSON"));
	c = icd_named(inv.vulkan, inv.n_vulkan, "/dangling_icd.json");
	CHECK(c && c->error[0] && !c->library_found);
	c = icd_named(inv.vulkan, inv.n_vulkan, "/layer_not_icd.json");
	CHECK(c && strstr(c->error, "ICD"));
	c = icd_named(inv.vulkan, inv.n_vulkan, "/relative_icd.json");
	CHECK(c && c->library_found);
	if (c)
		CHECK_STR(c->library_resolved,
			  "/usr/local/lib/vk/libvulkan_rel.so");

	CHECK_INT(inv.n_opencl, 3);
	c = icd_named(inv.opencl, inv.n_opencl, "/pocl.icd");
	CHECK(c && c->software && c->library_found &&
	      !strcmp(c->driver, "pocl"));
	c = icd_named(inv.opencl, inv.n_opencl, "/amdocl64_60402_120.icd");
	CHECK(c && !c->software && !c->library_found &&
	      !strcmp(c->driver, "amdocl"));
	c = icd_named(inv.opencl, inv.n_opencl, "/nvidia.icd");
	CHECK(c && !c->software && c->library_found);
	done(&ctx, &inv);

	if (collect("icds", env_vk, &ctx, &inv) < 0)
		return;
	CHECK_INT(inv.n_vulkan, 1);
	CHECK_STR(inv.vulkan_search, "VK_DRIVER_FILES");
	CHECK_INT(inv.n_opencl, 1);
	CHECK_STR(inv.opencl_search, "OCL_ICD_VENDORS");
	done(&ctx, &inv);
}

static void test_cuda(void)
{
	gd_ctx ctx;
	struct gd_inventory inv;

	if (collect("cuda-11.5", NULL, &ctx, &inv) < 0)
		return;
	CHECK_STR(inv.cuda_driver.v, "515.76");
	CHECK_STR(inv.cuda_driver_from, "/proc/driver/nvidia/version");
	CHECK_INT(inv.n_cuda, 1);
	if (inv.n_cuda) {
		CHECK_STR(inv.cuda[0].path, "/usr/local/cuda-11.5");
		CHECK_STR(inv.cuda[0].found_by,
			  "/usr/local/cuda, /usr/local/cuda-*");
		CHECK_STR(inv.cuda[0].version.v, "11.5.2");
		CHECK_INT(inv.cuda[0].n_libs, 1);
		if (inv.cuda[0].n_libs)
			CHECK_STR(inv.cuda[0].libs[0].version, "11.5.117");
	}
	/* no knowledge base in this context: the check says so */
	CHECK(inv.n_cuda_checks >= 1);
	if (inv.n_cuda_checks)
		CHECK_INT(inv.cuda_checks[0].driver_ok, -1);
	done(&ctx, &inv);
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

static void test_hostile(void)
{
	char tmpl[] = "/tmp/gd-inv-XXXXXX", p[512];
	char *root = mkdtemp(tmpl);
	const struct gd_icd *c;
	gd_ctx ctx;
	struct gd_inventory inv;
	double t0;
	int fd;

	CHECK(root != NULL);
	if (!root)
		return;
	gd_fmt(
	    p, sizeof p,
	    "mkdir -p %s/usr/share/vulkan/icd.d "
	    "%s/usr/lib/x86_64-linux-gnu/rocblas/library %s/etc/OpenCL/vendors",
	    root, root, root);
	CHECK_INT(system(p), 0);
	gd_fmt(p, sizeof p, "%s/usr/share/vulkan/icd.d/huge.json", root);
	fd = open(p, O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0 && ftruncate(fd, 50 * 1024 * 1024) == 0);
	if (fd >= 0)
		close(fd);
	gd_fmt(p, sizeof p, "%s/usr/share/vulkan/icd.d/fifo.json", root);
	CHECK_INT(mkfifo(p, 0644), 0);
	gd_fmt(p, sizeof p, "%s/usr/share/vulkan/icd.d/loop_a.json", root);
	CHECK_INT(symlink("loop_b.json", p), 0);
	gd_fmt(p, sizeof p, "%s/usr/share/vulkan/icd.d/loop_b.json", root);
	CHECK_INT(symlink("loop_a.json", p), 0);
	gd_fmt(p, sizeof p, "%s/etc/OpenCL/vendors/dangling.icd", root);
	CHECK_INT(symlink("/nowhere/x.icd", p), 0);
	gd_fmt(p, sizeof p, "%s/etc/OpenCL/vendors/ok.icd", root);
	write_file(p, "libpocl.so.2\n");
	for (int i = 0; i < 100000; i++) {
		gd_fmt(p, sizeof p,
		       "%s/usr/lib/x86_64-linux-gnu/rocblas/library/"
		       "Kernels.so-000-gfx%x.hsaco",
		       root, 0x1000 + i);
		fd = open(p, O_CREAT | O_WRONLY, 0644);
		if (fd >= 0)
			close(fd);
	}
	t0 = gd_now();
	if (collect(root, NULL, &ctx, &inv) == 0) {
		CHECK(gd_now() - t0 < 10.0);
		CHECK_INT(inv.n_vulkan, 4);
		c = icd_named(inv.vulkan, inv.n_vulkan, "/huge.json");
		CHECK(c && strstr(c->error, "larger than"));
		c = icd_named(inv.vulkan, inv.n_vulkan, "/fifo.json");
		CHECK(c && strstr(c->error, "not a regular file"));
		c = icd_named(inv.vulkan, inv.n_vulkan, "/loop_a.json");
		CHECK(c && c->error[0]);
		CHECK_INT(inv.n_opencl, 2);
		c = icd_named(inv.opencl, inv.n_opencl, "/ok.icd");
		CHECK(c && !c->library_found && !strcmp(c->driver, "pocl"));
		c = icd_named(inv.opencl, inv.n_opencl, "/dangling.icd");
		CHECK(c && c->error[0]);
		CHECK_INT(inv.n_rocblas, 1);
		/* the per-directory target table is bounded too */
		if (inv.n_rocblas)
			CHECK(inv.rocblas[0].n_targets <= 128);
		done(&ctx, &inv);
	}
	gd_fmt(p, sizeof p, "rm -rf %s", root);
	CHECK_INT(system(p), 0);
}

int main(void)
{
	test_debian_trixie();
	test_amd_rocm();
	test_icds();
	test_cuda();
	test_hostile();
	return t_done("test_inventory_fixtures");
}
