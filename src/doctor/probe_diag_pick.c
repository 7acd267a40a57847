/* doctor/probe_diag_pick: the decisive lines of a runtime's diagnostics
 * (probe/diag.c captured them) and the cause of each failed init
 * (probe_cause.c), written into the probe report for the renderers. The
 * lines are those the kb's error signatures match (the same signatures
 * `explain` uses: "hsa_init failed", "Could not get 'vkCreateInstance'"),
 * and the loader's own "X: cannot open shared object file" lines, in the
 * order the runtime printed them. */
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "probe_cause.h"

int gd_cause_dlerror_lib(const char *line, char *lib, size_t cap)
{
	static const char key[] = ": cannot open shared object file";
	const char *e = strstr(line, key), *s;

	if (!e || e == line || !cap)
		return 0;
	/* the name runs back from the colon to a blank, quote or colon */
	for (s = e; s > line && !strchr(" \t'\":", s[-1]); s--)
		;
	if (s == e || (size_t)(e - s) >= cap)
		return 0;
	gd_fmt(lib, cap, "%.*s", (int)(e - s), s);
	return 1;
}

/* A quoted line, sanitised, with runs of blanks made one (ROCclr pads
 * its file names to a column, the Vulkan loader its levels). */
static void squeeze(char *out, size_t cap, const char *in)
{
	size_t n = 0;

	for (; *in && n + 1 < cap; in++)
		if (!((*in == ' ' || *in == '\t') &&
		      (n == 0 || out[n - 1] == ' ')))
			out[n++] = *in == '\t' ? ' ' : *in;
	out[n] = '\0';
	gd_sanitize(out);
	gd_trim(out);
}

struct pick {
	unsigned long line;
	const char *sig;
	char text[320];
};

static void add_pick(struct pick *p, int *n, unsigned long line,
		     const char *sig, const char *text)
{
	int at = *n;

	if (*n >= GD_PROBE_DIAG_LINES)
		return;
	for (int i = 0; i < *n; i++)
		if (p[i].line == line)
			return; /* one line, quoted once */
	while (at > 0 && p[at - 1].line > line) {
		p[at] = p[at - 1];
		at--;
	}
	p[at].line = line;
	p[at].sig = sig;
	squeeze(p[at].text, sizeof p[at].text, text);
	(*n)++;
}

/* The dlerror lines, numbered from 1 like explain's matches. */
static void pick_dlerror(const char *txt, struct pick *p, int *n)
{
	unsigned long ln = 1;
	char lib[96], line[400];

	for (const char *s = txt; *s; ln++) {
		size_t len = strcspn(s, "\n");

		gd_fmt(line, sizeof line, "%.*s", (int)len, s);
		if (gd_cause_dlerror_lib(line, lib, sizeof lib))
			add_pick(p, n, ln, "", line);
		s += len + (s[len] ? 1 : 0);
	}
}

static void pick_lines(gd_ctx *ctx, struct gd_probe_diag *dg)
{
	struct gd_explain_result er;
	struct pick p[GD_PROBE_DIAG_LINES];
	size_t len = 0;
	int n = 0;
	char *txt;

	if (!dg->out || !dg->out_len)
		return;
	txt = gd_explain_decode(dg->out, dg->out_len, GD_ENC_UTF8, &len);
	if (!txt)
		return;
	pick_dlerror(txt, p, &n);
	memset(&er, 0, sizeof er);
	if (ctx->kb && gd_explain_scan(ctx, txt, len, &er) == 0)
		for (size_t i = 0; i < er.m.n; i++)
			add_pick(p, &n, er.m.v[i].line, er.m.v[i].id,
				 er.m.v[i].text);
	dg->n_lines = n;
	for (int i = 0; i < n; i++) {
		gd_strlcpy(dg->lines[i], p[i].text, sizeof dg->lines[i]);
		gd_strlcpy(dg->line_sig[i], p[i].sig, sizeof dg->line_sig[i]);
	}
	gd_explain_result_free(&er);
	free(txt);
}

/* Nothing known matched: the runtime's last lines are still its words. */
static void last_lines(struct gd_probe_diag *dg)
{
	const char *b = dg->out, *end, *s;
	int nl = 0;

	if (dg->n_lines || !b || !dg->out_len)
		return;
	end = s = b + dg->out_len;
	while (s > b && !(s[-1] == '\n' && s != end && ++nl == 2))
		s--;
	while (s < end && dg->n_lines < GD_PROBE_DIAG_LINES) {
		size_t l = strcspn(s, "\n");
		char *t = dg->lines[dg->n_lines];

		char raw[400];

		gd_fmt(raw, sizeof raw, "%.*s", (int)l, s);
		squeeze(t, sizeof dg->lines[0], raw);
		if (t[0])
			dg->line_sig[dg->n_lines++][0] = '\0';
		s += l + (s + l < end ? 1 : 0);
	}
}

/* x's re-run (one per runtime where a backend has several), or a new
 * entry with no re-run. */
static struct gd_probe_diag *diag_for(struct gd_probe_report *r,
				      const struct gd_probe_result *x)
{
	const struct gd_probe_diag *had = gd_probe_diag_for(r, x);
	struct gd_probe_diag *dg;

	if (had)
		return &r->diags.v[had - r->diags.v];
	dg = gd_vec_push(&r->diags);
	if (dg) {
		memset(dg, 0, sizeof *dg);
		gd_strlcpy(dg->backend, x->backend, sizeof dg->backend);
	}
	return dg;
}

void gd_probe_judge(gd_ctx *ctx, const struct gd_machine *m,
		    const struct gd_inventory *inv, struct gd_probe_report *r)
{
	for (size_t i = 0; i < r->results.n; i++) {
		const struct gd_probe_result *x = &r->results.v[i];
		struct gd_probe_diag *dg;
		struct gd_cause c;
		struct gd_cause_in in;

		if (strcmp(x->op, "init") || !strcmp(x->backend, "selftest") ||
		    x->status == GD_PS_OK || x->status == GD_PS_WRONG)
			continue;
		dg = diag_for(r, x);
		if (!dg)
			return;
		x = &r->results.v[i]; /* diag_for does not move results */
		pick_lines(ctx, dg);
		last_lines(dg);
		memset(&in, 0, sizeof in);
		in.ctx = ctx;
		in.backend = x->backend;
		in.init = x;
		in.diag = dg;
		in.m = m;
		in.inv = inv;
		gd_cause_find(&in, &c);
		gd_strlcpy(dg->cause_code, gd_code_name(c.code),
			   sizeof dg->cause_code);
		gd_strlcpy(dg->cause, c.text, sizeof dg->cause);
		gd_strlcpy(dg->fix, c.fix, sizeof dg->fix);
		gd_sanitize(dg->cause);
		gd_sanitize(dg->fix);
	}
}
