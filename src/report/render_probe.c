/* report/render_probe: one walk over the probe report for each output form. */
#include "render_probe.h"
#include "core/json.h"

#include <math.h>
#include <string.h>

int gd_render_utf8(const struct gd_cli *cli)
{
	static const char *const vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};

	for (size_t i = 0; i < 3; i++) {
		const char *v = gd_ctx_getenv(&cli->ctx, vars[i]);

		if (v && *v)
			return strstr(v, "UTF-8") || strstr(v, "utf8") ||
			       strstr(v, "UTF8") || strstr(v, "utf-8");
	}
	return 0;
}

int gd_probe_selftest_pass(const struct gd_probe_result *res)
{
	if (strcmp(gd_probe_status_name(res->status), res->expected))
		return 0;
	if (!strcmp(res->op, "hang_in_phase"))
		return !strcmp(res->phase, "fake_driver_init");
	/* Windows: an access violation's NTSTATUS; abort() exits 3 there */
	if (!strcmp(res->op, "sigsegv"))
		return strstr(res->detail, "SIGSEGV") ||
		       strstr(res->detail, "0xC0000005");
	if (!strcmp(res->op, "abort"))
		return (strstr(res->detail, "SIGABRT") ||
			strstr(res->detail, "exited 3")) &&
		       strstr(res->detail, "assertion");
	if (!strcmp(res->op, "wrong_result"))
		return res->max_error > 0.1;
	return 1;
}

static const char *sym(int utf8, enum gd_probe_status s)
{
	static const char *const u[] = {"✔", "⚠", "✘", "✘", "✘", "⏱", "–", "–"};
	static const char *const a[] = {"ok",	 "WRONG", "FAIL", "MISSING",
					"CRASH", "HANG",  "skip", "NODEV"};
	_Static_assert(sizeof u / sizeof u[0] == GD_PS_NODEVICE + 1 &&
			   sizeof a / sizeof a[0] == GD_PS_NODEVICE + 1,
		       "one symbol per status");

	return utf8 ? u[s] : a[s];
}

static const char *colour(const struct gd_cli *cli, enum gd_probe_status s)
{
	switch (s) {
	case GD_PS_OK:
		return gd_c_green(cli);
	case GD_PS_SKIPPED:
	case GD_PS_MISSING:
	case GD_PS_NODEVICE:
		return gd_c_dim(cli);
	case GD_PS_WRONG:
		return gd_c_yellow(cli);
	default:
		return gd_c_red(cli);
	}
}

/* Display width of a UTF-8 string (every code point one column). */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Columns: one per (backend, device); results without a device go to the
 * backend's first column. */
struct col {
	const char *backend;
	int dev;
	char head[48];
};

#define COL_W 24

#define MAX_COLS 12
#define MAX_ROWS 48

static int find_col(const struct col *c, int n, const char *b, int dev)
{
	int first = -1;

	for (int i = 0; i < n; i++)
		if (!strcmp(c[i].backend, b)) {
			if (first < 0)
				first = i;
			if (c[i].dev == dev)
				return i;
		}
	return dev < 0 ? first : -1;
}

static int add_col(struct col *c, int n, const struct gd_probe_result *x)
{
	if (n >= MAX_COLS || find_col(c, n, x->backend, x->dev) >= 0)
		return n;
	c[n].backend = x->backend;
	c[n].dev = x->dev;
	/* "vulkan:0 llvmpipe": the device name up to its parenthesised
	 * details ("(LLVM 15.0.6, 256 bits)"), cut to the column width */
	if (x->dev >= 0)
		gd_fmt(c[n].head, sizeof c[n].head, "%s:%d %.*s", x->backend,
		       x->dev, (int)strcspn(x->device, "("), x->device);
	else
		gd_fmt(c[n].head, sizeof c[n].head, "%s", x->backend);
	gd_trim(c[n].head);
	if (width(c[n].head) > COL_W)
		strcpy(c[n].head + COL_W - 1, "~");
	return n + 1;
}

/* Device columns first, so a backend's device-less rows (init) land in
 * its first device column; a backend without devices gets one column. */
static int make_cols(const struct gd_probe_report *r, struct col *c)
{
	int n = 0;

	for (size_t i = 0; i < r->results.n; i++)
		if (r->results.v[i].dev >= 0)
			n = add_col(c, n, &r->results.v[i]);
	for (size_t i = 0; i < r->results.n; i++)
		if (r->results.v[i].dev < 0)
			n = add_col(c, n, &r->results.v[i]);
	return n;
}

static int has_op(const struct gd_probe_report *r, const char *op)
{
	for (size_t i = 0; i < r->results.n; i++)
		if (!strcmp(r->results.v[i].op, op))
			return 1;
	return 0;
}

/* Rows: the table's ops in table order (ops.h), then any other name
 * (self-test cases) in report order. */
static int make_rows(const struct gd_probe_report *r, const char **rows)
{
	const struct gd_op_info *t = gd_ops();
	int n = 0;

	for (int i = 0; i < GD_OP_COUNT && n < MAX_ROWS; i++)
		if (has_op(r, t[i].name))
			rows[n++] = t[i].name;
	for (size_t i = 0; i < r->results.n && n < MAX_ROWS; i++) {
		int seen = gd_op_find(r->results.v[i].op) >= 0;

		for (int k = 0; k < n && !seen; k++)
			seen = !strcmp(rows[k], r->results.v[i].op);
		if (!seen)
			rows[n++] = r->results.v[i].op;
	}
	return n;
}

static void cell_text(int utf8, const struct gd_probe_result *x, char *buf,
		      size_t cap)
{
	if (x->status == GD_PS_OK || x->status == GD_PS_HANG) {
		if (x->seconds >= 1)
			gd_fmt(buf, cap, "%s %.1f s", sym(utf8, x->status),
			       x->seconds);
		else
			gd_fmt(buf, cap, "%s %.0f ms", sym(utf8, x->status),
			       x->seconds * 1000);
	} else {
		gd_fmt(buf, cap, "%s %s", sym(utf8, x->status),
		       utf8 ? gd_probe_status_name(x->status) : "");
	}
}

static void print_matrix(struct gd_cli *cli, FILE *f,
			 const struct gd_probe_report *r, int utf8)
{
	struct col c[MAX_COLS];
	const char *rows[MAX_ROWS];
	int nc = make_cols(r, c), nr = make_rows(r, rows);

	fprintf(f, "%s%-18s", gd_c_bold(cli), "op");
	for (int k = 0; k < nc; k++)
		fprintf(f, " %-*s", COL_W, c[k].head);
	fprintf(f, "%s\n", gd_c_off(cli));
	for (int i = 0; i < nr; i++) {
		fprintf(f, "%-18s", rows[i]);
		for (int k = 0; k < nc; k++) {
			const struct gd_probe_result *x = NULL;
			char cell[48] = "";

			for (size_t j = 0; j < r->results.n; j++) {
				const struct gd_probe_result *y =
				    &r->results.v[j];

				if (!strcmp(y->op, rows[i]) &&
				    find_col(c, nc, y->backend, y->dev) == k)
					x = y;
			}
			if (x)
				cell_text(utf8, x, cell, sizeof cell);
			fprintf(
			    f, " %s%s%s%*s", x ? colour(cli, x->status) : "",
			    cell, gd_c_off(cli),
			    COL_W - width(cell) > 0 ? COL_W - width(cell) : 0,
			    "");
		}
		fprintf(f, "\n");
	}
}

/* The detail without a head that repeats the status ("skipped: no NVIDIA
 * GPU" under "skipped"). */
static const char *detail_text(const struct gd_probe_result *x)
{
	const char *st = gd_probe_status_name(x->status);
	size_t n = strlen(st);

	if (!strncmp(x->detail, st, n) && x->detail[n] == ':' &&
	    x->detail[n + 1] == ' ' && x->detail[n + 2])
		return x->detail + n + 2;
	return x->detail;
}

/* What the runtime said when its init ran again with its diagnostics on:
 * the decisive lines, and the libraries ld.so looked for in vain. */
static void print_diag(struct gd_cli *cli, FILE *f,
		       const struct gd_probe_diag *dg)
{
	if (!dg->ran) {
		if (dg->outcome[0])
			fprintf(f, "      %sdiagnostics: %s%s\n", gd_c_dim(cli),
				dg->outcome, gd_c_off(cli));
		return;
	}
	fprintf(f, "      %sdiagnostics (%s): %s, %u line%s%s\n", gd_c_dim(cli),
		dg->env, dg->outcome, dg->lines_seen,
		dg->lines_seen == 1 ? "" : "s", gd_c_off(cli));
	for (int i = 0; i < dg->n_lines; i++)
		fprintf(f, "      > %s\n", dg->lines[i]);
	for (int i = 0; i < dg->n_not_found; i++)
		fprintf(f, "      > ld.so: %s not found\n", dg->not_found[i]);
}

void gd_render_probe_verdict(struct gd_cli *cli, FILE *f,
			     const struct gd_probe_verdict *v)
{
	fprintf(f, "  %s\n", v->text);
	if (!v->cause_code[0])
		return;
	fprintf(f, "    cause: %s %s[%s]%s\n", v->cause, gd_c_dim(cli),
		v->cause_code, gd_c_off(cli));
	if (v->fix[0])
		fprintf(f, "    fix: %s\n", v->fix);
}

static void print_details(struct gd_cli *cli, FILE *f,
			  const struct gd_probe_report *r)
{
	int head = 0;

	for (size_t i = 0; i < r->results.n; i++) {
		const struct gd_probe_result *x = &r->results.v[i];
		int show = x->status != GD_PS_OK || r->selftest;

		if (!show || !x->detail[0])
			continue;
		if (!head++)
			fprintf(f, "\n%sDetails%s\n", gd_c_bold(cli),
				gd_c_off(cli));
		fprintf(f, "  %s%s", colour(cli, x->status),
			gd_probe_status_name(x->status));
		if (r->selftest)
			fprintf(f, " (expected %s: %s)", x->expected,
				gd_probe_selftest_pass(x) ? "pass" : "FAIL");
		fprintf(f, "%s %s", gd_c_off(cli), x->backend);
		if (x->dev >= 0)
			fprintf(f, ":%d", x->dev);
		fprintf(f, " %s: %s\n", x->op, detail_text(x));
		if (x->log[0]) {
			char log[sizeof x->log];

			gd_strlcpy(log, x->log, sizeof log);
			for (char *l = strtok(log, "\n"); l;
			     l = strtok(NULL, "\n"))
				fprintf(f, "      %s| %s%s\n", gd_c_dim(cli), l,
					gd_c_off(cli));
		}
		if (gd_probe_diag_for(r, x))
			print_diag(cli, f, gd_probe_diag_for(r, x));
	}
}

static void print_devices(struct gd_cli *cli, FILE *f,
			  const struct gd_probe_report *r)
{
	if (!r->devices.n)
		return;
	fprintf(f, "\n%sDevices%s\n", gd_c_bold(cli), gd_c_off(cli));
	for (size_t i = 0; i < r->devices.n; i++) {
		const struct gd_probe_device *d = &r->devices.v[i];

		fprintf(f, "  %s:%d  %s", d->backend, d->index, d->name);
		if (d->isa[0])
			fprintf(f, "  %s", d->isa);
		if (d->mem_bytes)
			fprintf(f, "  %.1f GiB", d->mem_bytes / 1073741824.0);
		if (d->software)
			fprintf(f, "  %s(software: CPU only)%s",
				gd_c_yellow(cli), gd_c_off(cli));
		fprintf(f, "\n    %sdriver %s, runtime %s, %s", gd_c_dim(cli),
			d->driver[0] ? d->driver : "?",
			d->runtime[0] ? d->runtime : "?", d->library);
		if (d->platform[0])
			fprintf(f, " (platform %s)", d->platform);
		fprintf(f, "%s\n", gd_c_off(cli));
	}
}

static void print_figures(struct gd_cli *cli, FILE *f,
			  const struct gd_probe_report *r)
{
	if (!r->figures.n)
		return;
	fprintf(f, "\n%sBench%s\n", gd_c_bold(cli), gd_c_off(cli));
	for (size_t i = 0; i < r->figures.n; i++) {
		const struct gd_probe_figure *g = &r->figures.v[i];

		fprintf(f, "  %s:%d %-20s %10.2f %-8s %s%s%s\n", g->backend,
			g->dev, g->name, g->value, g->unit, gd_c_dim(cli),
			g->note, gd_c_off(cli));
	}
}

void gd_render_probe_text(struct gd_cli *cli, FILE *f,
			  const struct gd_probe_report *r)
{
	int utf8 = gd_render_utf8(cli);

	if (!r->results.n) {
		fprintf(f, "No probe results.\n");
		return;
	}
	print_matrix(cli, f, r, utf8);
	print_details(cli, f, r);
	print_devices(cli, f, r);
	print_figures(cli, f, r);
	if (!r->selftest) {
		struct gd_probe_verdict v[16];
		size_t n = gd_probe_verdicts(r, v, 16);

		if (n)
			fprintf(f, "\n%sVerdict%s\n", gd_c_bold(cli),
				gd_c_off(cli));
		for (size_t i = 0; i < n; i++)
			gd_render_probe_verdict(cli, f, &v[i]);
	}
	fprintf(f, "\n%s%.2f s%s\n", gd_c_dim(cli), r->wall_seconds,
		gd_c_off(cli));
}

/* "diagnostics" of a failed init (docs/json.md). */
static json_t *diag_json(const struct gd_probe_diag *dg)
{
	json_t *o = json_object(), *env = json_array(), *lines = json_array(),
	       *nf = json_array();
	char buf[sizeof dg->env], *save = NULL;

	gd_strlcpy(buf, dg->env, sizeof buf);
	for (char *t = strtok_r(buf, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		json_array_append_new(env, gd_json_str(t));
	for (int i = 0; i < dg->n_lines; i++)
		json_array_append_new(
		    lines,
		    json_pack("{s:o, s:o}", "text", gd_json_str(dg->lines[i]),
			      "signature",
			      dg->line_sig[i][0] ? gd_json_str(dg->line_sig[i])
						 : json_null()));
	for (int i = 0; i < dg->n_not_found; i++)
		json_array_append_new(nf, gd_json_str(dg->not_found[i]));
	json_object_set_new(o, "ran", json_boolean(dg->ran));
	json_object_set_new(o, "env", env);
	json_object_set_new(o, "outcome", gd_json_str(dg->outcome));
	json_object_set_new(o, "lines_seen", json_integer(dg->lines_seen));
	json_object_set_new(o, "lines", lines);
	json_object_set_new(o, "not_found", nf);
	return o;
}

static json_t *result_json(const struct gd_probe_report *r,
			   const struct gd_probe_result *x, int selftest)
{
	json_t *o = json_object();
	const struct gd_probe_diag *dg = gd_probe_diag_for(r, x);

	json_object_set_new(o, "backend", gd_json_str(x->backend));
	json_object_set_new(o, "device", gd_json_str(x->device));
	json_object_set_new(o, "device_index", json_integer(x->dev));
	json_object_set_new(o, "op", gd_json_str(x->op));
	json_object_set_new(o, "status",
			    gd_json_str(gd_probe_status_name(x->status)));
	json_object_set_new(o, "phase", gd_json_str(x->phase));
	json_object_set_new(o, "seconds",
			    json_real(round(x->seconds * 1e6) / 1e6));
	json_object_set_new(o, "detail", gd_json_str(x->detail));
	if (x->max_error != 0 && isfinite(x->max_error))
		json_object_set_new(o, "max_error", json_real(x->max_error));
	if (x->log[0])
		json_object_set_new(o, "log", gd_json_str(x->log));
	if (dg)
		json_object_set_new(o, "diagnostics", diag_json(dg));
	if (dg && dg->cause_code[0])
		json_object_set_new(o, "cause",
				    json_pack("{s:o, s:o, s:o}", "code",
					      gd_json_str(dg->cause_code),
					      "text", gd_json_str(dg->cause),
					      "fix", gd_json_str(dg->fix)));
	if (selftest) {
		json_object_set_new(o, "expected", gd_json_str(x->expected));
		json_object_set_new(o, "pass",
				    json_boolean(gd_probe_selftest_pass(x)));
	}
	return o;
}

/* The matrix rows: the table's ops that have results, in table order. */
static json_t *ops_json(const struct gd_probe_report *r)
{
	const struct gd_op_info *t = gd_ops();
	json_t *a = json_array();

	for (int i = 0; i < GD_OP_COUNT; i++)
		if (has_op(r, t[i].name))
			json_array_append_new(
			    a, json_pack("{s:s, s:s, s:b}", "op", t[i].name,
					 "title", t[i].title, "quick",
					 t[i].quick));
	return a;
}

void gd_render_probe_json(json_t *doc, const struct gd_probe_report *r)
{
	json_t *res = json_array(), *devs = json_array(), *figs = json_array();
	int all = 1;

	for (size_t i = 0; i < r->results.n; i++) {
		json_array_append_new(
		    res, result_json(r, &r->results.v[i], r->selftest));
		all &= gd_probe_selftest_pass(&r->results.v[i]);
	}
	for (size_t i = 0; i < r->devices.n; i++) {
		const struct gd_probe_device *d = &r->devices.v[i];

		json_array_append_new(
		    devs,
		    json_pack("{s:o, s:i, s:o, s:o, s:I, s:o, s:o, s:o, s:b}",
			      "backend", gd_json_str(d->backend), "index",
			      d->index, "name", gd_json_str(d->name), "isa",
			      gd_json_str(d->isa), "memory_bytes",
			      (json_int_t)d->mem_bytes, "driver",
			      gd_json_str(d->driver), "runtime",
			      gd_json_str(d->runtime), "library",
			      gd_json_str(d->library), "software",
			      d->software));
		if (d->platform[0])
			json_object_set_new(json_array_get(devs, i), "platform",
					    gd_json_str(d->platform));
	}
	for (size_t i = 0; i < r->figures.n; i++) {
		const struct gd_probe_figure *g = &r->figures.v[i];

		json_array_append_new(
		    figs,
		    json_pack("{s:o, s:i, s:o, s:f, s:o, s:o}", "backend",
			      gd_json_str(g->backend), "device_index", g->dev,
			      "name", gd_json_str(g->name), "value", g->value,
			      "unit", gd_json_str(g->unit), "note",
			      gd_json_str(g->note)));
	}
	json_object_set_new(doc, "ops", ops_json(r));
	json_object_set_new(doc, "results", res);
	json_object_set_new(doc, "devices", devs);
	json_object_set_new(doc, "figures", figs);
	json_object_set_new(doc, "wall_seconds",
			    json_real(round(r->wall_seconds * 1000) / 1000));
	if (r->selftest)
		json_object_set_new(doc, "selftest_passed",
				    json_boolean(all && r->results.n));
}
