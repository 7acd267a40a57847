/* The probe op table (src/probe/ops.c): docs/probe.md's "Ops" section
 * lists exactly its names, --only parsing adds what an op needs, and the
 * status names include no_device. */
#include <stdlib.h>
#include <string.h>

#include "probe/ops.h"
#include "probe/probe.h"
#include "t.h"

/* Backticked names at the start of each table row ("| `a` *, `b` |")
 * in the section "## Ops", up to the next "## ". Returns the set. */
static unsigned long long doc_ops(const char *md, int *unknown)
{
	const char *p = strstr(md, "\n## Ops\n");
	const char *end = p ? strstr(p + 1, "\n## ") : NULL;
	unsigned long long set = 0;

	*unknown = 0;
	for (; p && p < end; p = strchr(p + 1, '\n')) {
		const char *cell, *q;

		if (strncmp(p, "\n| `", 4))
			continue;
		cell = p + 2;
		q = cell + strcspn(cell, "|");
		while ((cell = strchr(cell, '`')) && cell < q) {
			char name[64];
			size_t n = strcspn(cell + 1, "`");
			int id;

			snprintf(name, sizeof name, "%.*s", (int)n, cell + 1);
			id = gd_op_find(name);
			if (id < 0) {
				fprintf(stderr,
					"docs/probe.md: op '%s' not in the "
					"table\n",
					name);
				(*unknown)++;
			} else {
				set |= 1ull << id;
			}
			cell += n + 2;
		}
	}
	return set;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void test_docs(void)
{
	const char *src = getenv("GD_SRCDIR");
	char path[4096];
	char *md;
	int unknown;
	unsigned long long set, all = (1ull << GD_OP_COUNT) - 1;

	snprintf(path, sizeof path, "%s/docs/probe.md", src ? src : "..");
	md = slurp(path);
	CHECK(md != NULL);
	if (!md)
		return;
	set = doc_ops(md, &unknown);
	CHECK_INT(unknown, 0);
	for (int i = 0; i < GD_OP_COUNT; i++)
		if (!(set & (1ull << i)))
			fprintf(stderr, "docs/probe.md: op '%s' not listed\n",
				gd_op_name((enum gd_op)i));
	CHECK(set == all);
	free(md);
}

static void test_table(void)
{
	const struct gd_op_info *t = gd_ops();

	for (int i = 0; i < GD_OP_COUNT; i++) {
		CHECK_INT(t[i].id, i);
		CHECK(t[i].name && t[i].title && t[i].title[0]);
		CHECK_INT(gd_op_find(t[i].name), i);
		CHECK(strlen(t[i].name) < 40); /* gd_probe_result.op */
	}
	CHECK_INT(gd_op_find("nosuch"), -1);
	CHECK(t[GD_OP_INIT].quick && !t[GD_OP_CONV_FWD].quick);
	CHECK(t[GD_OP_BENCH].bench && t[GD_OP_NOT_RUN].parent);
}

static void test_parse(void)
{
	gd_opset s = 0;
	char bad[48] = "";

	CHECK_INT(gd_op_parse_list("copy_d2h", &s, bad, sizeof bad), 0);
	CHECK(s == (GD_OPSET(GD_OP_INIT) | GD_OPSET(GD_OP_ALLOC_DEVICE) |
		    GD_OPSET(GD_OP_COPY_H2D) | GD_OPSET(GD_OP_COPY_D2H)));
	CHECK_INT(gd_op_parse_list("gemm_fp16,conv_fwd", &s, bad, sizeof bad),
		  0);
	CHECK(s == (GD_OPSET(GD_OP_INIT) | GD_OPSET(GD_OP_GEMM_FP16) |
		    GD_OPSET(GD_OP_CONV_FWD)));
	CHECK_INT(gd_op_parse_list("copy_h2d,nosuch", &s, bad, sizeof bad), -1);
	CHECK_STR(bad, "nosuch");
	CHECK_INT(gd_op_parse_list("not_run", &s, bad, sizeof bad), -1);
	CHECK_STR(bad, "not_run");
	CHECK_INT(gd_op_parse_list("init,,copy_h2d", &s, bad, sizeof bad), -1);
	CHECK_STR(bad, "");
}

static void test_status(void)
{
	enum gd_probe_status st;

	CHECK_STR(gd_probe_status_name(GD_PS_NODEVICE), "no_device");
	CHECK_INT(gd_probe_status_parse("no_device", &st), 0);
	CHECK_INT(st, GD_PS_NODEVICE);
}

int main(void)
{
	test_docs();
	test_table();
	test_parse();
	test_status();
	return t_done("test_probe_ops");
}
