/* gather's capture writer: what it stores for each kind of access, links
 * followed the way the kernel follows them, contents never lost to an
 * earlier empty placeholder, and a listing's entries kept. The archive is
 * unpacked with the system's tar, as a user would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/capture.h"
#include "t.h"

static char root[256], out[256];

static void put(const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", root, rel);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static long size_of(const char *rel)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof p, "%s/x/%s", out, rel);
	return lstat(p, &st) == 0 ? (long)st.st_size : -1;
}

static int is_link(const char *rel)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof p, "%s/x/%s", out, rel);
	return lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
}

int main(void)
{
	char *envp[] = {"NOTHING=1", NULL};
	char cmd[2048], tarpath[512], lnk[512];
	struct gd_capture *c = gd_capture_new();
	struct gd_capture_stats st;
	gd_ctx ctx;
	struct gd_tar_opts topts = {0, 0};
	char err[256];

	snprintf(root, sizeof root, "/tmp/gd-test-cap-XXXXXX");
	snprintf(out, sizeof out, "/tmp/gd-test-cap-out-XXXXXX");
	if (!mkdtemp(root) || !mkdtemp(out) || !c)
		return 1;
	snprintf(cmd, sizeof cmd, "mkdir -p %s/real/icd.d %s/etc/icd.d %s/lib",
		 root, root, root);
	CHECK(system(cmd) == 0);
	put("real/icd.d/nvidia_icd.json", "{\"ICD\": {}}\n");
	put("lib/libfoo.so.1.2", "ELF-not-really");
	/* an absolute link, as /usr/share/vulkan/icd.d/nvidia_icd.json ->
	 * /usr/local/nvidia/... on the GPU machine */
	snprintf(lnk, sizeof lnk, "%s/etc/icd.d/nvidia_icd.json", root);
	CHECK(symlink("/real/icd.d/nvidia_icd.json", lnk) == 0);
	snprintf(lnk, sizeof lnk, "%s/lib/libfoo.so.1", root);
	CHECK(symlink("libfoo.so.1.2", lnk) == 0);

	CHECK_INT(gd_ctx_init(&ctx, root, envp), 0);
	/* the order that lost the manifest's content once: link read first */
	gd_capture_hook(c, "/etc/icd.d/nvidia_icd.json", 'l');
	gd_capture_hook(c, "/etc/icd.d", 'd');
	gd_capture_hook(c, "/etc/icd.d/nvidia_icd.json", 'f');
	gd_capture_hook(c, "/lib", 'd');
	snprintf(tarpath, sizeof tarpath, "%s/cap.tar.gz", out);
	CHECK_INT(
	    gd_capture_write(c, &ctx, tarpath, &topts, &st, err, sizeof err),
	    0);
	snprintf(cmd, sizeof cmd, "mkdir %s/x && tar xzf %s -C %s/x", out,
		 tarpath, out);
	CHECK(system(cmd) == 0);

	CHECK(is_link("etc/icd.d/nvidia_icd.json"));
	CHECK_INT(size_of("real/icd.d/nvidia_icd.json"), 12); /* content kept */
	CHECK(is_link("lib/libfoo.so.1"));	    /* listing entries */
	CHECK_INT(size_of("lib/libfoo.so.1.2"), 0); /* only stat'ed: empty */
	CHECK(size_of(".gpudoctor/environ") >= 0);
	CHECK(st.links >= 2 && st.files >= 2);

	gd_capture_free(c);
	gd_ctx_free(&ctx);
	snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", root, out);
	if (system(cmd) != 0)
		fprintf(stderr, "cleanup failed\n");
	return t_done("test_capture");
}
