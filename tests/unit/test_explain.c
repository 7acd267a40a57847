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

static const char *srcdir(void)
{
	const char *s = getenv("GD_SRCDIR");

	return s ? s : "..";
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	int trunc = 0, fd = open(path, O_RDONLY);

	*len = 0;
	if (fd < 0)
		return NULL;
	if (gd_explain_read(fd, GD_EXPLAIN_MAX_BYTES, &buf, len, &trunc) < 0)
		buf = NULL;
	close(fd);
	return buf;
}

static int matched(const struct gd_explain_result *r, const char *id)
{
	for (size_t i = 0; i < r->m.n; i++)
		if (!strcmp(r->m.v[i].id, id))
			return (int)i + 1;
	return 0;
}

/* Each signature fires on its own real log and is cited. */
static void test_every_signature(gd_ctx *ctx, const json_t *root)
{
	const json_t *sigs = json_object_get(root, "signatures"), *s;
	size_t i;

	CHECK(json_array_size(sigs) >= 25);
	json_array_foreach(sigs, i, s) {
		const char *id = gd_kb_str(s, "id");
		struct gd_explain_result r;
		char path[1024], urls[1024];
		size_t len;
		char *buf;
		int k;

		gd_fmt(path, sizeof path, "%s/tests/fixtures/logs/%s.txt",
		       srcdir(), id);
		buf = slurp(path, &len);
		if (!buf) {
			t_fail++;
			fprintf(stderr, "%s: no log fixture %s\n", id, path);
			continue;
		}
		memset(&r, 0, sizeof r);
		CHECK_INT(gd_explain_scan(ctx, root, buf, len, &r), 0);
		CHECK_INT(r.n_signatures, json_array_size(sigs));
		k = matched(&r, id);
		if (!k) {
			t_fail++;
			fprintf(stderr, "%s: does not match its own log %s\n",
				id, path);
		} else {
			CHECK(r.m.v[k - 1].line >= 1);
			CHECK(r.m.v[k - 1].text[0] != '\0');
		}
		gd_kb_source_urls(root, json_object_get(s, "sources"), urls,
				  sizeof urls);
		if (!gd_startswith(urls, "http")) {
			t_fail++;
			fprintf(stderr, "%s: no source URL\n", id);
		}
		CHECK(gd_kb_str(s, "meaning") && gd_kb_str(s, "fix"));
		gd_explain_result_free(&r);
		free(buf);
	}
}

static void test_benign(gd_ctx *ctx, const json_t *root)
{
	static const char *files[] = {
		"tests/fixtures/rx5700xt/root/sys/class/kfd/kfd/topology/nodes/1/properties",
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
		CHECK_INT(gd_explain_scan(ctx, root, buf, len, &r), 0);
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
static void test_lines(gd_ctx *ctx, const json_t *root)
{
	const json_t *sig = json_array_get(json_object_get(root, "signatures"),
					   0);
	const char *ex = gd_kb_str(sig, "example");
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
	CHECK_INT(gd_explain_scan(ctx, root, buf, n, &r), 0);
	CHECK_INT(matched(&r, gd_kb_str(sig, "id")), 1);
	if (r.m.n)
		CHECK_INT(r.m.v[0].line, 3);
	CHECK_INT(r.lines, 4);
	gd_explain_result_free(&r);
}

static void test_truncated_read(void)
{
	int p[2];
	char *buf = NULL;
	size_t len = 0;
	int trunc = 0;

	CHECK_INT(pipe(p), 0);
	CHECK_INT(write(p[1], "0123456789abcdef", 16), 16);
	close(p[1]);
	CHECK_INT(gd_explain_read(p[0], 10, &buf, &len, &trunc), 0);
	CHECK_INT(len, 10);
	CHECK(trunc);
	CHECK_STR(buf, "0123456789");
	free(buf);
	close(p[0]);
}

static void test_checks_captured(const json_t *root)
{
	struct gd_machine m;
	char root_dir[1024], text[512];
	char *env[] = {"HSA_OVERRIDE_GFX_VERSION=gfx1030", NULL};
	gd_ctx ctx;

	gd_fmt(root_dir, sizeof root_dir, "%s/tests/fixtures/rx5700xt/root",
	       srcdir());
	CHECK_INT(gd_ctx_init(&ctx, root_dir, env), 0);
	ctx.kb = gd_kb_load_embedded();
	CHECK_INT(gd_discover(&ctx, &m), 0);
	CHECK_INT(gd_explain_check(root, "gfx-supported", &m, NULL, text,
				   sizeof text), GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "gfx1010") && strstr(text, "unsupported"));
	CHECK_INT(gd_explain_check(root, "override-valid", &m, NULL, text,
				   sizeof text), GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "gfx1030") != NULL);
	CHECK_INT(gd_explain_check(root, "apu", &m, NULL, text, sizeof text),
		  GD_CHECK_CONTRADICTED);
	CHECK_INT(gd_explain_check(root, "cuda-driver", &m, NULL, text,
				   sizeof text), GD_CHECK_NA);
	CHECK_INT(gd_explain_check(root, "none", &m, NULL, text, sizeof text),
		  GD_CHECK_NA);
	CHECK_INT(gd_explain_check(root, "code-for-gpu", &m, NULL, text,
				   sizeof text), GD_CHECK_NA);
	CHECK(strstr(text, "gfx1010") != NULL);
	gd_machine_free(&m);
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
}

static void test_checks_facts(const json_t *root)
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
	CHECK_INT(gd_explain_check(root, "apu", &m, NULL, text, sizeof text),
		  GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "beside") != NULL);

	gd_text_set(&g[1].access.kfd, "permission denied", "test");
	gd_strlcpy(g[1].access.fix, "sudo usermod -aG render,video $USER",
		   sizeof g[1].access.fix);
	g[0].access.kfd_ok = 0;
	CHECK_INT(gd_explain_check(root, "kfd-access", &m, NULL, text,
				   sizeof text), GD_CHECK_CONFIRMED);
	CHECK(strstr(text, "usermod") != NULL);
	g[1].access.kfd_ok = 1;
	gd_text_set(&g[1].access.kfd, "ok", "test");
	CHECK_INT(gd_explain_check(root, "kfd-access", &m, NULL, text,
				   sizeof text), GD_CHECK_CONTRADICTED);

	inv.rocm = ri;
	inv.n_rocm = 2;
	ri[0].hip_major = 6;
	ri[1].hip_major = 7;
	gd_strlcpy(ri[0].path, "/opt/rocm-6.2.4", sizeof ri[0].path);
	gd_strlcpy(ri[1].path, "/opt/rocm-7.1.0", sizeof ri[1].path);
	CHECK_INT(gd_explain_check(root, "hip-major-mismatch", &m, &inv, text,
				   sizeof text), GD_CHECK_CONFIRMED);
	CHECK(strstr(text, ".so.6") && strstr(text, ".so.7"));
	ri[1].hip_major = 6;
	CHECK_INT(gd_explain_check(root, "hip-major-mismatch", &m, &inv, text,
				   sizeof text), GD_CHECK_NA);
	CHECK_INT(gd_explain_check(root, "rocblas-coverage", &m, &inv, text,
				   sizeof text), GD_CHECK_NA);
	CHECK(strstr(text, "no system rocBLAS") != NULL);
}

int main(void)
{
	char *env[] = {NULL};
	const json_t *root;
	gd_ctx ctx;

	gd_ctx_init(&ctx, "/", env);
	ctx.kb = gd_kb_load_embedded();
	root = gd_kb_root(ctx.kb);
	CHECK(root != NULL);
	test_every_signature(&ctx, root);
	test_benign(&ctx, root);
	test_lines(&ctx, root);
	test_truncated_read();
	test_checks_captured(root);
	test_checks_facts(root);
	CHECK_INT(ctx.diags.n, 0); /* every kb regex compiled */
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
	return t_done("test_explain");
}
