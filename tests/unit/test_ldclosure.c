/* The DT_NEEDED closure (binscan/ldclosure.c) on real libraries of this
 * Debian machine: Mesa's lavapipe ICD (mesa-vulkan-drivers) and PoCL
 * (libpocl2) resolve fully; Debian's HIP 5.2 (libamdhip64-5) copied into a
 * temporary root with one dependency removed names it and its chain; the
 * real 32-bit libstdc++ of lib32stdc++6 in place of the 64-bit one is
 * "wrong ELF class"; two libraries built here with gcc and GNU version
 * scripts (the mechanism of GLIBCXX_3.4.30) give a symbol-version
 * mismatch. A part whose package is absent prints "SKIP: <why>". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan/binscan.h"
#include "t.h"

#define MA "/usr/lib/x86_64-linux-gnu"

static char *noenv[] = {"PATH=/usr/bin:/bin", NULL};

static int have(const char *p)
{
	return access(p, F_OK) == 0;
}

static void skip(const char *why)
{
	printf("SKIP: %s\n", why);
}

static const char *const *dlopens; /* for closure(): set by one test */

static void closure(const char *root, const char *lib, struct gd_ld_result *r,
		    gd_strvec *files)
{
	gd_ctx ctx;
	struct gd_bs_env env;

	if (gd_ctx_init(&ctx, root, noenv) < 0) {
		CHECK(!"ctx");
		return;
	}
	gd_bs_env_init(&ctx, &env, NULL, 0);
	env.root_dlopens = dlopens;
	gd_ld_closure_files(&ctx, &env, lib, r, files);
	gd_bs_env_free(&env);
	gd_ctx_free(&ctx);
}

static void live_ok(const char *lib, const char *pkg)
{
	struct gd_ld_result r;

	if (!have(lib)) {
		printf("SKIP: %s absent (%s not installed)\n", lib, pkg);
		return;
	}
	closure("/", lib, &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "ok");
	CHECK_STR(r.chain, "");
	CHECK(r.objects > 3);
	CHECK_INT(r.truncated, 0);
}

/* Copy a file (following links) to root + path, making directories. */
static int copy_in(const char *root, const char *path)
{
	char dst[1024], cmd[3000];

	snprintf(dst, sizeof dst, "%s%s", root, path);
	snprintf(cmd, sizeof cmd,
		 "mkdir -p \"$(dirname '%s')\" && cp -L '%s' '%s'", dst, path,
		 dst);
	return system(cmd);
}

/* The live closure of lib copied into a temporary root, less `drop`. */
static int copy_closure(const char *lib, const char *drop, char *root,
			size_t cap)
{
	struct gd_ld_result r;
	gd_strvec files = {0};
	int rc = 0;

	snprintf(root, cap, "/tmp/gd-ldclosure-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	closure("/", lib, &r, &files);
	for (size_t i = 0; i < files.n; i++) {
		const char *b = strrchr(files.v[i], '/') + 1;

		if (strcmp(b, drop))
			rc |= copy_in(root, files.v[i]);
	}
	gd_strvec_free(&files);
	return rc;
}

static void rmtree(const char *root)
{
	char cmd[1200];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd))
		perror("rm");
}

static void hip_missing(void)
{
	const char *hip = MA "/libamdhip64.so.5";
	struct gd_ld_result r;
	char root[64];

	if (!have(hip)) {
		skip("no libamdhip64.so.5 (libamdhip64-5 not installed)");
		return;
	}
	CHECK_INT(copy_closure(hip, "libhsa-runtime64.so.1", root, sizeof root),
		  0);
	closure(root, hip, &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "missing");
	CHECK_STR(r.chain, "libamdhip64.so.5 -> libhsa-runtime64.so.1");
	CHECK_STR(r.soname, "libhsa-runtime64.so.1");
	CHECK_STR(r.needed_by, hip);
	rmtree(root);
	/* one level deeper: libhsa-runtime64 needs libelf (libelf1) */
	CHECK_INT(copy_closure(hip, "libelf.so.1", root, sizeof root), 0);
	closure(root, hip, &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "missing");
	CHECK_STR(r.chain, "libamdhip64.so.5 -> libhsa-runtime64.so.1 -> "
			   "libelf.so.1");
	/* /lib/<triplet> or /usr/lib/<triplet>, as the cache names it */
	CHECK(strstr(r.needed_by, "-linux-gnu/libhsa-runtime64.so.1") != NULL);
	rmtree(root);
	/* the whole closure copied: resolves as on the machine */
	CHECK_INT(copy_closure(hip, "-", root, sizeof root), 0);
	closure(root, hip, &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "ok");
	rmtree(root);
}

static void wrong_class(void)
{
	const char *hip = MA "/libamdhip64.so.5";
	const char *l32 = "/usr/lib32/libstdc++.so.6";
	struct gd_ld_result r;
	char root[64], cmd[512];

	if (!have(hip) || !have(l32)) {
		skip("no libamdhip64.so.5 or /usr/lib32/libstdc++.so.6 "
		     "(libamdhip64-5, lib32stdc++6 not installed)");
		return;
	}
	CHECK_INT(copy_closure(hip, "libstdc++.so.6", root, sizeof root), 0);
	snprintf(cmd, sizeof cmd, "cp -L %s %s" MA "/libstdc++.so.6", l32,
		 root);
	CHECK_INT(system(cmd), 0);
	closure(root, hip, &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "wrong_class");
	CHECK_STR(r.chain, "libamdhip64.so.5 -> libstdc++.so.6");
	CHECK_STR(r.path, MA "/libstdc++.so.6");
	CHECK(strstr(r.detail, "32-bit") != NULL);
	CHECK(strstr(r.detail, "i386") != NULL);
	/* the root itself 32-bit */
	closure(root, MA "/libstdc++.so.6", &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "wrong_class");
	CHECK_STR(r.chain, "libstdc++.so.6");
	rmtree(root);
}

/* libvfoo.so.1 defines VFOO_1.0 (old) or VFOO_1.0 + VFOO_1.1 (new);
 * libuser.so.1 is linked against the new one and calls foo_new@VFOO_1.1;
 * the root holds the old one. -nostdlib keeps libc out of the closure. */
#define BUILD_SH                                                               \
	"set -e; cd '%s'; "                                                    \
	"printf 'int foo_old(void){return 1;}\\n' > old.c; "                   \
	"printf 'int foo_old(void){return 1;}\\nint foo_new(void){return "     \
	"2;}\\n' > new.c; "                                                    \
	"printf 'VFOO_1.0 { global: foo_old; local: *; };\\n' > old.map; "     \
	"printf 'VFOO_1.0 { global: foo_old; local: *; };\\nVFOO_1.1 { "       \
	"global: foo_new; } VFOO_1.0;\\n' > new.map; "                         \
	"printf 'int foo_new(void);\\nint user(void){return foo_new();}\\n' "  \
	"> user.c; "                                                           \
	"mkdir -p new old root" MA "; "                                        \
	"gcc -shared -fPIC -nostdlib -Wl,-soname,libvfoo.so.1 "                \
	"-Wl,--version-script,new.map -o new/libvfoo.so.1 new.c; "             \
	"gcc -shared -fPIC -nostdlib -Wl,-soname,libvfoo.so.1 "                \
	"-Wl,--version-script,old.map -o old/libvfoo.so.1 old.c; "             \
	"ln -s libvfoo.so.1 new/libvfoo.so; "                                  \
	"gcc -shared -fPIC -nostdlib -Wl,-soname,libuser.so.1 -o "             \
	"root" MA "/libuser.so.1 user.c -Lnew -lvfoo; "                        \
	"cp old/libvfoo.so.1 root" MA "/"

static void version_mismatch(void)
{
	struct gd_ld_result r;
	char dir[64] = "/tmp/gd-ldver-XXXXXX", cmd[4096], root[128];

	if (system("command -v gcc >/dev/null 2>&1")) {
		skip("no gcc to build the version-script libraries");
		return;
	}
	CHECK(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof cmd, BUILD_SH, dir);
	CHECK_INT(system(cmd), 0);
	snprintf(root, sizeof root, "%s/root", dir);
	closure(root, MA "/libuser.so.1", &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "version");
	CHECK_STR(r.chain, "libuser.so.1 -> libvfoo.so.1");
	CHECK_STR(r.version, "VFOO_1.1");
	CHECK_STR(r.provides, "VFOO_1.0");
	CHECK_STR(r.needed_by, MA "/libuser.so.1");
	CHECK_STR(r.path, MA "/libvfoo.so.1");
	/* the new one in its place: no mismatch */
	snprintf(cmd, sizeof cmd, "cp %s/new/libvfoo.so.1 %s" MA "/", dir,
		 root);
	CHECK_INT(system(cmd), 0);
	closure(root, MA "/libuser.so.1", &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "ok");
	CHECK_INT(r.objects, 2);
	rmtree(dir);
}

/* A run-time dependency (kb libraries[].dlopens) followed like a
 * DT_NEEDED. NVIDIA's libGLX_nvidia.so.0 dlopens libEGL.so.1, which needs
 * libGLdispatch.so.0 (the H100 case of issue 11); here the same shape with
 * Mesa's real libGLX_mesa.so.0 as the root and the dlopen list given. */
static void dlopen_chain(void)
{
	static const char *const egl[] = {"libEGL.so.1", NULL};
	const char *glx = MA "/libGLX_mesa.so.0";
	struct gd_ld_result r;
	char root[64], cmd[512];

	if (!have(glx) || !have(MA "/libEGL.so.1")) {
		skip(
		    "no libGLX_mesa.so.0 or libEGL.so.1 (libglx-mesa0, libegl1 "
		    "not installed)");
		return;
	}
	CHECK_INT(copy_closure(glx, "-", root, sizeof root), 0);
	dlopens = egl; /* after the copy, which takes the DT_NEEDED only */
	closure(root, glx, &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "missing");
	CHECK_STR(r.chain, "libGLX_mesa.so.0 -> libEGL.so.1");
	CHECK(strstr(r.detail, "dlopen at run time") != NULL);
	CHECK_INT(copy_in(root, MA "/libEGL.so.1"), 0);
	closure(root, glx, &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "missing");
	CHECK_STR(r.chain,
		  "libGLX_mesa.so.0 -> libEGL.so.1 -> libGLdispatch.so.0");
	snprintf(cmd, sizeof cmd, "cp -L %s/libGLdispatch.so.0 %s" MA "/", MA,
		 root);
	CHECK_INT(system(cmd), 0);
	closure(root, glx, &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "ok");
	rmtree(root);
	dlopens = NULL;
}

/* The real libstdc++: its verdefs, and the family maximum. */
static void family_max(void)
{
	static const char *const defs[] = {"GLIBCXX_3.4",    "GLIBCXX_3.4.9",
					   "GLIBCXX_3.4.29", "CXXABI_1.3.13",
					   "GLIBCXX_3.4.10", "GLIBCXX_DEBUG"};

	CHECK_STR(gd_ld_family_max("GLIBCXX_3.4.30", defs, 6),
		  "GLIBCXX_3.4.29");
	CHECK_STR(gd_ld_family_max("CXXABI_1.3.15", defs, 6), "CXXABI_1.3.13");
	CHECK(gd_ld_family_max("ROCR_1", defs, 6) == NULL);
	CHECK(gd_ld_family_max("NOFAMILY", defs, 6) == NULL);
}

/* An empty file (what gather stores for a library it only saw) is not
 * judged, and is no error. */
static void empty_unknown(void)
{
	char root[64] = "/tmp/gd-ldempty-XXXXXX", p[256];
	struct gd_ld_result r;
	FILE *f;

	CHECK(mkdtemp(root) != NULL);
	snprintf(p, sizeof p, "%s/libx.so.1", root);
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	closure(root, "/libx.so.1", &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "unknown");
	CHECK(strstr(r.detail, "empty file") != NULL);
	closure(root, "/nothere.so", &r, NULL);
	CHECK_STR(gd_ld_status_name(r.status), "unknown");
	rmtree(root);
}

int main(void)
{
	live_ok(MA "/libvulkan_lvp.so", "mesa-vulkan-drivers");
	live_ok(MA "/libpocl.so.2", "libpocl2");
	live_ok(MA "/libamdhip64.so.5", "libamdhip64-5");
	hip_missing();
	wrong_class();
	version_mismatch();
	dlopen_chain();
	family_max();
	empty_unknown();
	return t_done("test_ldclosure");
}
