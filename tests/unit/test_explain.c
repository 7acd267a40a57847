/* explain: every kb signature against the real quoted log in
 * tests/fixtures/logs/<id>.txt (sources in that directory's README), no
 * hits on benign real text, line numbers, bounded reads, and the machine
 * checks on captured machines and hand-built facts. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "discover/discover.h"
#include "doctor/explain.h"
#include "doctor/strategy.h"
#include "kb/kb.h"
#include "t.h"
#include "t_machine.h"

static const char *srcdir(void)
{
	const char *s = getenv("GD_SRCDIR");

	return s ? s : "..";
}

static char *slurp(const char *path, size_t *len)
{
	struct gd_explain_log log;
	int fd = open(path, O_RDONLY);

	*len = 0;
	if (fd < 0)
		return NULL;
	if (gd_explain_read_log(fd, GD_EXPLAIN_HEAD_BYTES,
				GD_EXPLAIN_TAIL_BYTES, &log) < 0)
		log.head = NULL;
	close(fd);
	CHECK(log.tail == NULL); /* fixtures are small */
	*len = log.head_len;
	return log.head;
}

/* A check name from kb/kb_checks.c's table. */
static enum gd_kb_check ck(const char *name)
{
	int c = gd_kb_check_from_name(name);

	CHECK(c >= 0);
	return c < 0 ? GD_KB_CHECK_NONE : (enum gd_kb_check)c;
}

/* The one check table: every name round-trips, no two share a name. */
static void test_check_table(void)
{
	for (int i = 0; i < GD_KB_N_CHECKS; i++) {
		CHECK_INT(gd_kb_check_from_name(
			      gd_kb_check_name((enum gd_kb_check)i)),
			  i);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(gd_kb_check_name((enum gd_kb_check)i),
				     gd_kb_check_name((enum gd_kb_check)j)));
	}
	CHECK_INT(gd_kb_check_from_name("no-such-check"), -1);
}

static int matched(const struct gd_explain_result *r, const char *id)
{
	for (size_t i = 0; i < r->m.n; i++)
		if (!strcmp(r->m.v[i].id, id))
			return (int)i + 1;
	return 0;
}

/* Each signature fires on its own real log and is cited. */
static void test_every_signature(gd_ctx *ctx)
{
	size_t nsig = gd_kb_signature_count(ctx->kb);
	struct gd_kb_signature s;

	CHECK(nsig >= 25);
	for (size_t i = 0; i < nsig; i++) {
		const char *id;
		struct gd_explain_result r;
		char path[1024], urls[1024];
		size_t len;
		char *buf;
		int k;

		CHECK_INT(gd_kb_signature_at(ctx->kb, i, &s), 0);
		id = s.id;
		gd_fmt(path, sizeof path, "%s/tests/fixtures/logs/%s.txt",
		       srcdir(), id);
		buf = slurp(path, &len);
		if (!buf) {
			t_fail++;
			fprintf(stderr, "%s: no log fixture %s\n", id, path);
			continue;
		}
		memset(&r, 0, sizeof r);
		CHECK_INT(gd_explain_scan(ctx, buf, len, &r), 0);
		CHECK_INT(r.n_signatures, nsig);
		k = matched(&r, id);
		if (!k) {
			t_fail++;
			fprintf(stderr, "%s: does not match its own log %s\n",
				id, path);
		} else {
			CHECK(r.m.v[k - 1].line >= 1);
			CHECK(r.m.v[k - 1].text[0] != '\0');
		}
		gd_kb_source_urls(ctx->kb, s.sources, urls, sizeof urls);
		if (!gd_startswith(urls, "http")) {
			t_fail++;
			fprintf(stderr, "%s: no source URL\n", id);
		}
		/* the match carries them, resolved: renderers need no kb */
		if (k)
			CHECK_STR(r.m.v[k - 1].urls, urls);
		CHECK(s.meaning && s.fix);
		CHECK(s.check_name == NULL ||
		      gd_kb_check_from_name(s.check_name) >= 0);
		gd_explain_result_free(&r);
		free(buf);
	}
}

static void test_benign(gd_ctx *ctx)
{
	static const char *files[] = {
	    "tests/fixtures/rx5700xt/root/sys/class/kfd/kfd/topology/nodes/1/"
	    "properties",
	    "tests/fixtures/logs/README.md",
	};
	struct gd_explain_result r;

	for (size_t f = 0; f < 2; f++) {
		char path[1024];
		size_t len;
		char *buf;

		gd_fmt(path, sizeof path, "%s/%s", srcdir(), files[f]);
		buf = slurp(path, &len);
		if (!buf)
			continue; /* the README is optional */
		memset(&r, 0, sizeof r);
		CHECK_INT(gd_explain_scan(ctx, buf, len, &r), 0);
		if (f == 0 && r.m.n) {
			t_fail++;
			fprintf(stderr, "benign KFD properties matched %s\n",
				r.m.v[0].id);
		}
		gd_explain_result_free(&r);
		free(buf);
	}
}

/* Line numbers, once per signature, CRLF, binary junk. */
static void test_lines(gd_ctx *ctx)
{
	struct gd_kb_signature sig;
	const char *ex =
	    gd_kb_signature_at(ctx->kb, 0, &sig) == 0 ? sig.example : NULL;
	struct gd_explain_result r;
	char buf[4096];
	size_t n;

	CHECK(ex != NULL);
	if (!ex)
		return;
	gd_fmt(buf, sizeof buf, "ok\r\n\xff\xfe junk\r\n%s\r\n%s\n", ex, ex);
	n = strlen(buf);
	buf[4] = '\0'; /* a NUL inside line 2 */
	memset(&r, 0, sizeof r);
	CHECK_INT(gd_explain_scan(ctx, buf, n, &r), 0);
	CHECK_INT(matched(&r, sig.id), 1);
	if (r.m.n)
		CHECK_INT(r.m.v[0].line, 3);
	CHECK_INT(r.lines, 4);
	gd_explain_result_free(&r);
}

/* A pipe longer than head + tail: its start, then its last bytes through
 * the ring; shorter: all of it in one piece. */
static void test_read_pipe(void)
{
	struct gd_explain_log log;
	int p[2];

	CHECK_INT(pipe(p), 0);
	CHECK_INT(write(p[1], "0123456789abcdefghijklmnopqrstuvwxyz", 36), 36);
	close(p[1]);
	CHECK_INT(gd_explain_read_log(p[0], 10, 8, &log), 0);
	close(p[0]);
	CHECK_INT(log.head_len, 10);
	CHECK_STR(log.head, "0123456789");
	CHECK(log.tail != NULL);
	if (log.tail)
		CHECK_STR(log.tail, "stuvwxyz");
	CHECK_INT(log.skipped, 18);
	CHECK_INT(log.total, 36);
	gd_explain_log_free(&log);

	CHECK_INT(pipe(p), 0);
	CHECK_INT(write(p[1], "0123456789abcdef", 16), 16);
	close(p[1]);
	CHECK_INT(gd_explain_read_log(p[0], 10, 8, &log), 0);
	close(p[0]);
	CHECK_STR(log.head, "0123456789abcdef");
	CHECK(log.tail == NULL);
	CHECK_INT(log.skipped, 0);
	gd_explain_log_free(&log);
}

/* A regular file: the tail by seeking; the crash line at the end is found
 * though the middle was never read. */
static void test_read_file_tail(gd_ctx *ctx)
{
	static const char crash[] =
	    "rocBLAS error: Cannot read /opt/rocm/"
	    "lib/rocblas/library/TensileLibrary.dat: No such file or "
	    "directory for GPU arch : gfx1010\n";
	char path[] = "/tmp/gd-test-explain-XXXXXX";
	struct gd_explain_log log;
	struct gd_explain_result r;
	int fd = mkstemp(path), k;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	for (int i = 0; i < 4000; i++)
		CHECK_INT(write(fd, "llama_model_loader: x\n", 22), 22);
	CHECK_INT(write(fd, crash, sizeof crash - 1), (long)sizeof crash - 1);
	CHECK_INT(lseek(fd, 0, SEEK_SET), 0);
	CHECK_INT(gd_explain_read_log(fd, 4096, 8192, &log), 0);
	close(fd);
	CHECK_INT(log.head_len, 4096);
	CHECK_INT(log.tail_len, 8192);
	CHECK_INT(log.total, 88000 + sizeof crash - 1);
	CHECK_INT(log.skipped, log.total - 4096 - 8192);
	memset(&r, 0, sizeof r);
	CHECK_INT(gd_explain_scan_log(ctx, &log, NULL, &r), 0);
	CHECK(r.truncated);
	CHECK_INT(r.skipped, log.skipped);
	k = matched(&r, "rocblas-no-tensile");
	CHECK(k > 0);
	if (k > 0) {
		CHECK(r.m.v[k - 1].in_tail);
		/* 8192 bytes of tail: the partial first line dropped, then
		 * 22-byte lines up to the crash line */
		CHECK(r.m.v[k - 1].line > 300);
	}
	gd_explain_result_free(&r);
	gd_explain_log_free(&log);
}

static void test_checks_captured(void)
{
	struct gd_machine m;
	char root_dir[1024], text[512];
	char *env[] = {"HSA_OVERRIDE_GFX_VERSION=gfx1030", NULL};
	gd_ctx ctx, *kc = &ctx;

	gd_fmt(root_dir, sizeof root_dir, "%s/tests/fixtures/rx5700xt/root",
	       srcdir());
	CHECK_INT(gd_ctx_init(&ctx, root_dir, env), 0);
	ctx.kb = gd_kb_load_embedded();
	CHECK_INT(gd_discover(&ctx, &m), 0);
	CHECK_INT(gd_explain_check(kc, ck("gfx-supported"), &m, NULL, text,
				   sizeof text),
		  GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "gfx1010") && strstr(text, "unsupported"));
	CHECK_INT(gd_explain_check(kc, ck("override-valid"), &m, NULL, text,
				   sizeof text),
		  GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "gfx1030") != NULL);
	CHECK_INT(gd_explain_check(kc, ck("apu"), &m, NULL, text, sizeof text),
		  GD_CHECK_CONTRADICTED);
	CHECK_INT(gd_explain_check(kc, ck("cuda-driver"), &m, NULL, text,
				   sizeof text),
		  GD_CHECK_NA);
	CHECK_INT(gd_explain_check(kc, ck("none"), &m, NULL, text, sizeof text),
		  GD_CHECK_NA);
	CHECK_INT(gd_explain_check(kc, ck("code-for-gpu"), &m, NULL, text,
				   sizeof text),
		  GD_CHECK_NA);
	CHECK(strstr(text, "gfx1010") != NULL);
	gd_machine_free(&m);
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
}

static void test_checks_facts(gd_ctx *kc)
{
	struct gd_gpu g[2];
	struct gd_machine m;
	struct gd_inventory inv;
	struct gd_rocm_install ri[2];
	char text[512];

	memset(&m, 0, sizeof m);
	memset(g, 0, sizeof g);
	memset(&inv, 0, sizeof inv);
	memset(ri, 0, sizeof ri);
	m.gpus = g;
	m.n_gpus = 2;
	g[0].vendor = g[1].vendor = GD_VENDOR_AMD;
	g[0].integrated = 1;
	gd_strlcpy(g[0].gfx, "gfx90c", sizeof g[0].gfx);
	gd_strlcpy(g[1].gfx, "gfx1100", sizeof g[1].gfx);
	CHECK_INT(gd_explain_check(kc, ck("apu"), &m, NULL, text, sizeof text),
		  GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "beside") != NULL);

	gd_text_set(&g[1].access.kfd, "permission denied", "test");
	gd_strlcpy(g[1].access.fix, "sudo usermod -aG render,video $USER",
		   sizeof g[1].access.fix);
	g[0].access.kfd_ok = 0;
	CHECK_INT(
	    gd_explain_check(kc, ck("kfd-access"), &m, NULL, text, sizeof text),
	    GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "usermod") != NULL);
	g[1].access.kfd_ok = 1;
	gd_text_set(&g[1].access.kfd, "ok", "test");
	CHECK_INT(
	    gd_explain_check(kc, ck("kfd-access"), &m, NULL, text, sizeof text),
	    GD_CHECK_CONTRADICTED);

	inv.rocm = ri;
	inv.n_rocm = 2;
	ri[0].hip_major = 6;
	ri[1].hip_major = 7;
	gd_strlcpy(ri[0].path, "/opt/rocm-6.2.4", sizeof ri[0].path);
	gd_strlcpy(ri[1].path, "/opt/rocm-7.1.0", sizeof ri[1].path);
	CHECK_INT(gd_explain_check(kc, ck("hip-major-mismatch"), &m, &inv, text,
				   sizeof text),
		  GD_CHECK_CONFIRMED);
	CHECK(strstr(text, ".so.6") && strstr(text, ".so.7"));
	ri[1].hip_major = 6;
	CHECK_INT(gd_explain_check(kc, ck("hip-major-mismatch"), &m, &inv, text,
				   sizeof text),
		  GD_CHECK_NA);
	CHECK_INT(gd_explain_check(kc, ck("rocblas-coverage"), &m, &inv, text,
				   sizeof text),
		  GD_CHECK_NA);
	CHECK(strstr(text, "no system rocBLAS") != NULL);
}

/* Discover a captured machine (with a GPU) in its own environment. */
static int machine_at(const char *fixture, char **env, gd_ctx *ctx,
		      struct gd_machine *m)
{
	char dir[1024];

	gd_fmt(dir, sizeof dir, "%s/tests/fixtures/%s/root", srcdir(), fixture);
	memset(m, 0, sizeof *m);
	if (gd_ctx_init(ctx, dir, env) < 0) {
		t_fail++;
		return -1;
	}
	ctx->kb = gd_kb_load_embedded();
	if (gd_discover(ctx, m) < 0 || !ctx->kb) {
		t_machine_free(ctx, m);
		t_fail++;
		fprintf(stderr, "cannot discover %s\n", dir);
		return -1;
	}
	return 0;
}

/* The verdict on the check the kb gives signature id. */
static enum gd_check_verdict sig_verdict(gd_ctx *kc, const char *id,
					 const struct gd_machine *m, char *text,
					 size_t cap)
{
	struct gd_kb_signature s;

	if (gd_kb_signature_get(kc->kb, id, &s) == 0)
		return gd_explain_check(kc, s.check, m, NULL, text, cap);
	t_fail++;
	fprintf(stderr, "no signature %s in the kb\n", id);
	return GD_CHECK_NA;
}

/* RDNA1 run as gfx1030 is the known cause of these faults (ROCm #2527):
 * the override confirms them; none, or one that keeps the GPU's own
 * target, leaves another cause; an invalid one is a different failure. */
static void test_checks_memfault(void)
{
	static const char *const ids[] = {"hsa-aperture-violation",
					  "gpu-memory-access-fault",
					  "hsa-memory-fault"};
	char *spoof[] = {"HSA_OVERRIDE_GFX_VERSION=10.3.0", NULL};
	char *own[] = {"HSA_OVERRIDE_GFX_VERSION=10.1.0", NULL};
	char *bad[] = {"HSA_OVERRIDE_GFX_VERSION=gfx1030", NULL};
	char *none[] = {NULL};
	struct gd_machine m;
	char text[1024];
	gd_ctx ctx;

	for (size_t i = 0; i < 3; i++) {
		if (machine_at("rx5700xt-rocm-6.2.4", spoof, &ctx, &m))
			return;
		CHECK_INT(sig_verdict(&ctx, ids[i], &m, text, sizeof text),
			  GD_CHECK_CONFIRMED);
		CHECK(strstr(text, "gfx1010") && strstr(text, "as gfx1030"));
		CHECK(strstr(text, "#2527") != NULL); /* the kb caveat */
		t_machine_free(&ctx, &m);
	}
	if (machine_at("rx5700xt-rocm-6.2.4", own, &ctx, &m))
		return;
	CHECK_INT(sig_verdict(&ctx, ids[0], &m, text, sizeof text),
		  GD_CHECK_NA);
	CHECK(strstr(text, "another cause") != NULL);
	t_machine_free(&ctx, &m);
	if (machine_at("rx5700xt-rocm-6.2.4", none, &ctx, &m))
		return;
	CHECK_INT(sig_verdict(&ctx, ids[1], &m, text, sizeof text),
		  GD_CHECK_NA);
	CHECK(gd_startswith(text, "no override here: the fault has another "
				  "cause"));
	t_machine_free(&ctx, &m);
	if (machine_at("rx5700xt-rocm-6.2.4", bad, &ctx, &m))
		return;
	CHECK_INT(sig_verdict(&ctx, ids[2], &m, text, sizeof text),
		  GD_CHECK_NA);
	CHECK(gd_startswith(text, "override invalid"));
	/* ...and override-invalid itself still says so */
	CHECK_INT(sig_verdict(&ctx, "override-invalid", &m, text, sizeof text),
		  GD_CHECK_CONFIRMED);
	t_machine_free(&ctx, &m);
}

/* A captured RX 5700: the GPU is there, /dev/kfd is not in the capture;
 * it has a KFD node, so a log about a chip KFD skips is not about it; page
 * faults and MES hangs are not contradicted by its being discrete. */
static void test_checks_kfd_unknown(gd_ctx *kc)
{
	static const char *const kfd_ids[] = {
	    "kfd-permission", "kfd-open-failed", "hsa-out-of-resources"};
	char *none[] = {NULL};
	struct gd_machine m;
	char text[1024];
	gd_ctx ctx;

	if (machine_at("rx5700xt", none, &ctx, &m))
		return;
	for (size_t i = 0; i < 3; i++) {
		CHECK_INT(sig_verdict(kc, kfd_ids[i], &m, text, sizeof text),
			  GD_CHECK_NA);
		CHECK(gd_startswith(text, "an AMD GPU is present; access to "
					  "/dev/kfd is unknown here ("));
		CHECK(strstr(text, "not in the capture") != NULL);
	}
	CHECK_INT(sig_verdict(kc, "kfd-not-supported", &m, text, sizeof text),
		  GD_CHECK_CONTRADICTED);
	CHECK(strstr(text, "has a KFD node") != NULL);
	CHECK_INT(sig_verdict(kc, "mes-failed", &m, text, sizeof text),
		  GD_CHECK_NA);
	CHECK(strstr(text, "discrete") != NULL);
	CHECK_INT(
	    sig_verdict(kc, "amdgpu-gfxhub-page-fault", &m, text, sizeof text),
	    GD_CHECK_NA);
	/* a GPU KFD skipped: no node */
	CHECK(m.n_gpus == 1);
	if (!m.n_gpus) {
		t_machine_free(&ctx, &m);
		return;
	}
	free(m.gpus[0].kfd_nodes);
	m.gpus[0].kfd_nodes = NULL;
	m.gpus[0].n_kfd_nodes = 0;
	CHECK_INT(
	    gd_explain_check(kc, ck("kfd-node"), &m, NULL, text, sizeof text),
	    GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "no KFD node") != NULL);
	t_machine_free(&ctx, &m);

	if (machine_at("no-gpu", none, &ctx, &m))
		return;
	CHECK_INT(
	    gd_explain_check(kc, ck("kfd-node"), &m, NULL, text, sizeof text),
	    GD_CHECK_NA);
	CHECK_INT(
	    gd_explain_check(kc, ck("gpu-fault"), &m, NULL, text, sizeof text),
	    GD_CHECK_NA);
	t_machine_free(&ctx, &m);
}

int main(void)
{
	char *env[] = {NULL};
	gd_ctx ctx;

	gd_ctx_init(&ctx, "/", env);
	ctx.kb = gd_kb_load_embedded();
	CHECK(ctx.kb != NULL);
	test_every_signature(&ctx);
	test_benign(&ctx);
	test_lines(&ctx);
	test_read_pipe();
	test_read_file_tail(&ctx);
	test_checks_memfault();
	test_checks_kfd_unknown(&ctx);
	test_checks_captured();
	test_checks_facts(&ctx);
	test_check_table();
	CHECK_INT(ctx.diags.n, 0); /* every kb regex compiled */
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
	return t_done("test_explain");
}
