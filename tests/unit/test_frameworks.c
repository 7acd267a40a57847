/* inventory/frameworks on a captured-style root built in a temp dir: a
 * python3 prefix with torch (ROCm build, version.py as PyTorch writes it,
 * a real HIP fat library from tests/fixtures/binscan, bundled HIP 6 and a
 * rocBLAS library dir), ctranslate2 (a real CUDA library), llama_cpp
 * (libggml-hip / -vulkan) and onnxruntime (CUDA EP); the system has HIP 5. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inventory/frameworks.h"
#include "inventory/inventory.h"
#include "t.h"

static char root[256];

static void mkdirs(const char *rel)
{
	char p[1024];

	snprintf(p, sizeof p, "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *text, const char *copy_of)
{
	char p[1024], src[1024], buf[65536];
	FILE *out, *in;
	size_t n;

	snprintf(p, sizeof p, "%s/%s", root, rel);
	out = fopen(p, "wb");
	if (!out)
		return;
	if (text)
		fputs(text, out);
	if (copy_of) {
		const char *sd = getenv("GD_SRCDIR");

		snprintf(src, sizeof src, "%s/tests/fixtures/binscan/%s",
			 sd ? sd : "..", copy_of);
		in = fopen(src, "rb");
		while (in && (n = fread(buf, 1, sizeof buf, in)) > 0)
			fwrite(buf, 1, n, out);
		if (in)
			fclose(in);
	}
	fclose(out);
}

static const struct gd_framework *find(const struct gd_frameworks *f,
				       const char *name)
{
	for (size_t i = 0; i < f->fw.n; i++)
		if (!strcmp(f->fw.v[i].name, name))
			return &f->fw.v[i];
	return NULL;
}

static void build_tree(void)
{
	const char *site = "usr/lib/python3.11/site-packages";
	char p[512];

	mkdirs("usr/bin");
	put("usr/bin/python3", "", NULL);
	mkdirs("usr/lib/x86_64-linux-gnu");
	put("usr/lib/x86_64-linux-gnu/libamdhip64.so.5", "", NULL);
#define S(x) (snprintf(p, sizeof p, "%s/%s", site, x), p)
	mkdirs(S("torch/lib/rocblas/library"));
	mkdirs(S("torch-2.5.1+rocm6.2.dist-info"));
	put(S("torch/version.py"),
	    "from typing import Optional\n\n__all__ = ['__version__', 'debug', "
	    "'cuda', 'git_version', 'hip']\n"
	    "__version__ = '2.5.1+rocm6.2'\ndebug = False\ncuda: Optional[str] "
	    "= None\n"
	    "git_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'\nhip: "
	    "Optional[str] = '6.2.41133-dd7f95766'\n",
	    NULL);
	put(S("torch/lib/libtorch_hip.so"), NULL,
	    "libhip_gfx900_gfx1010_gfx90a.so");
	put(S("torch/lib/libamdhip64.so.6"), "", NULL);
	put(S("torch/lib/rocblas/library/TensileLibrary_lazy_gfx1030.dat"), "",
	    NULL);
	put(S("torch/lib/rocblas/library/Kernels.so-000-gfx90a-xnack-.hsaco"),
	    "", NULL);
	mkdirs(S("ctranslate2"));
	mkdirs(S("ctranslate2-4.5.0.dist-info"));
	put(S("ctranslate2/libctranslate2.so.4"), NULL,
	    "libcuda_sm80_sm90_ptx90.so");
	mkdirs(S("llama_cpp/lib"));
	put(S("llama_cpp/lib/libggml-hip.so"), NULL,
	    "libhip_gfx900_gfx1010_gfx90a.so");
	put(S("llama_cpp/lib/libggml-vulkan.so"), "", NULL);
	mkdirs(S("onnxruntime/capi"));
	mkdirs(S("onnxruntime_gpu-1.19.2.dist-info"));
	put(S("onnxruntime/capi/libonnxruntime_providers_cuda.so"), NULL,
	    "libcuda_sm80_sm90_ptx90.so");
	put(S("onnxruntime/capi/libonnxruntime_providers_shared.so"), "", NULL);
#undef S
}

/* torch without its own libamdhip64 (a distribution package): HIP 6
 * against the loader's HIP 5 is a mismatch unless a ROCm with HIP 6 is
 * installed; then only the loader order is worth a note. A library stored
 * empty (gather) gives no build to infer. */
static void check_system_torch(gd_ctx *ctx)
{
	const char *site = "usr/lib/python3.11/site-packages";
	struct gd_rocm_install rocm[2];
	struct gd_frameworks fws;
	const struct gd_framework *t, *c;
	char p[512];

	snprintf(p, sizeof p, "%s/%s/torch/lib/libamdhip64.so.6", root, site);
	CHECK(unlink(p) == 0);
	snprintf(p, sizeof p, "%s/ctranslate2/libctranslate2.so.4", site);
	put(p, "", NULL);
	memset(rocm, 0, sizeof rocm);
	strcpy(rocm[0].path, "/usr/lib/x86_64-linux-gnu");
	strcpy(rocm[0].lib_dir, "/usr/lib/x86_64-linux-gnu");
	rocm[0].hip_major = 5;
	rocm[0].loader_pick = 1;
	strcpy(rocm[1].path, "/opt/rocm-6.2.4");
	strcpy(rocm[1].lib_dir, "/opt/rocm-6.2.4/lib");
	rocm[1].hip_major = 6;
	CHECK_INT(gd_frameworks_collect(ctx, &fws), 0);
	CHECK_STR(fws.system_hip_dir, "/usr/lib/x86_64-linux-gnu");
	t = find(&fws, "torch");
	c = find(&fws, "ctranslate2");
	CHECK(t && c);
	if (t && c) {
		CHECK_INT(t->bundled_hip_major, 0);
		CHECK_STR(c->build, "unknown (libraries not captured)");
		gd_frameworks_check(&fws, NULL, 0);
		CHECK(strstr(t->rocm_mismatch, "libamdhip64.so.5") != NULL);
		CHECK(strstr(t->rocm_mismatch, "versions must match") != NULL);
		gd_frameworks_check_rocm(&fws, NULL, 0, rocm, 2);
		CHECK_STR(t->rocm_mismatch, "");
		CHECK(strstr(t->rocm_note,
			     "matches /opt/rocm-6.2.4 (HIP 6), but the "
			     "loader finds HIP 5 first in "
			     "/usr/lib/x86_64-linux-gnu: ") != NULL);
		gd_frameworks_check_rocm(&fws, NULL, 0, rocm, 1);
		CHECK(strstr(t->rocm_mismatch, "versions must match") != NULL);
		CHECK_STR(t->rocm_note, "");
	}
	gd_frameworks_free(&fws);
}

/* A framework library that is an absolute symlink in a captured tree:
 * read under the root (a 2-byte stand-in), never the replaying machine's
 * file of that name (a real HIP library). D5 of the reliability findings. */
static void check_symlink_contained(void)
{
	char *envp[] = {"PATH=/usr/bin", "HOME=/nonexistent", NULL};
	char host[64] = "/tmp/gd-test-fw-host-XXXXXX", rel[512], lnk[1024];
	char secret[128], cmd[300], saved[256];
	const struct gd_framework *l;
	struct gd_frameworks fws;
	gd_ctx ctx;

	if (!mkdtemp(host))
		return;
	snprintf(secret, sizeof secret, "%s/secret.so", host);
	/* on the host: the real library; under the root: a stand-in */
	memcpy(saved, root, sizeof saved);
	snprintf(root, sizeof root, "%s", host);
	put("secret.so", NULL, "libhip_gfx900_gfx1010_gfx90a.so");
	memcpy(root, saved, sizeof root);
	mkdirs(host + 1);
	put(secret + 1, "x\n", NULL);
	snprintf(rel, sizeof rel,
		 "usr/lib/python3.11/site-packages/llama_cpp/"
		 "lib/libggml-hip.so");
	snprintf(lnk, sizeof lnk, "%s/%s", root, rel);
	CHECK(unlink(lnk) == 0 && symlink(secret, lnk) == 0);
	CHECK_INT(gd_ctx_init(&ctx, root, envp), 0);
	CHECK_INT(gd_frameworks_collect(&ctx, &fws), 0);
	l = find(&fws, "llama_cpp");
	CHECK(l != NULL);
	if (l) {
		CHECK_INT(l->targets.n, 0);
		CHECK(l->libs.n >= 1 &&
		      strstr(l->libs.v[0].error, "not an ELF"));
	}
	gd_frameworks_free(&fws);
	gd_ctx_free(&ctx);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", host);
	if (system(cmd) != 0)
		fprintf(stderr, "cleanup of %s failed\n", host);
}

int main(void)
{
	char *envp[] = {"PATH=/usr/bin", "HOME=/nonexistent", NULL};
	struct gd_frameworks fws;
	struct gd_bs_gpu gpus[1];
	const struct gd_framework *t, *c, *l, *o;
	gd_ctx ctx;
	char cmd[300];

	snprintf(root, sizeof root, "/tmp/gd-test-fw-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	build_tree();
	CHECK_INT(gd_ctx_init(&ctx, root, envp), 0);
	CHECK_INT(gd_frameworks_collect(&ctx, &fws), 0);
	CHECK(fws.envs.n >= 1);
	CHECK_INT(fws.fw.n, 4);
	CHECK_INT(fws.system_hip_major, 5);
	t = find(&fws, "torch");
	c = find(&fws, "ctranslate2");
	l = find(&fws, "llama_cpp");
	o = find(&fws, "onnxruntime");
	CHECK(t && c && l && o);
	if (t && c && l && o) {
		CHECK_STR(t->version, "2.5.1+rocm6.2");
		CHECK_STR(t->hip_version, "6.2.41133-dd7f95766");
		CHECK_STR(t->cuda_version, "");
		CHECK_STR(t->build, "rocm");
		CHECK_INT(t->bundled_hip_major, 6);
		CHECK_STR(t->rocblas_gfx, "gfx90a gfx1030");
		CHECK_INT(t->targets.n, 3);
		CHECK_STR(c->version, "4.5.0");
		CHECK_STR(c->build, "cuda");
		CHECK(c->targets.n == 3);
		CHECK(strstr(l->backends, "hip") &&
		      strstr(l->backends, "vulkan"));
		CHECK_STR(l->build, "rocm");
		CHECK_STR(o->version, "1.19.2");
		CHECK_STR(o->backends, "CPU cuda");
		gd_bs_gpu_parse("gfx1030", &gpus[0]);
		gd_frameworks_check(&fws, gpus, 1);
		/* the wheel's own libamdhip64.so.6 matches itself */
		CHECK_STR(t->rocm_mismatch, "");
		CHECK_STR(t->rocm_note, "");
		CHECK(strstr(t->no_code, "no code for gfx1030") != NULL);
		CHECK_INT(t->fits, 0);
		CHECK_INT(c->fits,
			  -1); /* CUDA-only: nothing to say about an AMD GPU */
		gd_frameworks_free(&fws);
		gd_frameworks_collect(&ctx, &fws);
		gd_bs_gpu_parse("gfx1010", &gpus[0]);
		gd_frameworks_check(&fws, gpus, 1);
		t = find(&fws, "torch");
		CHECK(t && t->fits == 1 && !t->no_code[0]);
		gd_frameworks_free(&fws);
		check_system_torch(&ctx);
	}
	gd_frameworks_free(&fws);
	gd_ctx_free(&ctx);

	/* A venv on PATH whose python3 links to the base interpreter (as on
	 * the GPU machine: /opt/torch/.venv/bin/python3 ->
	 * /usr/bin/python3.12): its own site-packages must be found through
	 * pyvenv.cfg. */
	{
		char *venv_env[] = {"PATH=/opt/venv/bin:/usr/bin",
				    "HOME=/nonexistent", NULL};
		char lnk[512];

		mkdirs("opt/venv/bin");
		mkdirs("opt/venv/lib/python3.12/site-packages/torch");
		put("opt/venv/pyvenv.cfg", "home = /usr/bin\n", NULL);
		put("opt/venv/lib/python3.12/site-packages/torch/version.py",
		    "__version__ = '2.11.0+cu130'\ncuda = '13.0'\nhip = None\n",
		    NULL);
		snprintf(lnk, sizeof lnk, "%s/opt/venv/bin/python3", root);
		CHECK(symlink("/usr/bin/python3", lnk) == 0);
		CHECK_INT(gd_ctx_init(&ctx, root, venv_env), 0);
		CHECK_INT(gd_frameworks_collect(&ctx, &fws), 0);
		t = find(&fws, "torch");
		CHECK(t != NULL);
		CHECK(t && !strcmp(t->version, "2.11.0+cu130"));
		CHECK(t && !strcmp(t->cuda_version, "13.0"));
		CHECK(t && strstr(t->site,
				  "/opt/venv/lib/python3.12/site-packages"));
		gd_frameworks_free(&fws);
		gd_ctx_free(&ctx);
	}
	check_symlink_contained();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "cleanup of %s failed\n", root);
	return t_done("test_frameworks");
}
