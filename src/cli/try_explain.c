/* `gpudoctor try`: why each strategy failed, from its own output. The last
 * lines a failed strategy printed go through explain's signatures and error
 * codes (doctor/explain.h); the first known cause is kept with a fix for the
 * program being tried (gd_explain_program_fix: "rebuild gpu_burn for
 * sm_90", not the kb's advice for PyTorch wheels, unless the output is
 * PyTorch's). Printed under the table, one line per distinct cause. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "binscan/binscan.h"
#include "cli_explain.h"
#include "core/json.h"
#include "core/util.h"
#include "discover/vendor.h"
#include "doctor/errcodes.h"
#include "doctor/explain.h"
#include "report/check_data.h"
#include "try_int.h"

json_t *gd_cli_causes_json(const char *const *codes, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, gd_json_str(codes[i]));
	return a;
}

/* The program's name as the user gave it: its last path component. */
const char *gd_cli_program_name(const char *argv0)
{
	const char *s;

	if (!argv0)
		return NULL;
	s = strrchr(argv0, '/');
#ifdef _WIN32
	{ /* C:\dir\prog.exe, or a/b\prog.exe */
		const char *b = strrchr(s ? s : argv0, '\\');

		s = b ? b : s;
	}
#endif
	return s ? s + 1 : argv0;
}

void gd_cli_inv_free(struct gd_cli_inv *ci)
{
	if (ci->state > 0)
		gd_inventory_free(&ci->inv);
	ci->state = 0;
}

/* The match's causes, ranked by this machine (it ran here): the check
 * reads the inventory `explain` reads, collected once. */
static size_t machine_causes(struct gd_cli *cli, const struct gd_machine *m,
			     struct gd_cli_inv *ci,
			     const struct gd_explain_match *mt,
			     const char **codes)
{
	enum gd_check_verdict v = GD_CHECK_NA;
	char fact[512];

	if (mt->sig.check != GD_KB_CHECK_NONE) {
		if (!ci->state)
			ci->state = gd_check_inventory(&cli->ctx, &ci->inv) == 0
					? 1
					: -1;
		if (ci->state > 0)
			v = gd_explain_check(&cli->ctx, mt->sig.check, m,
					     &ci->inv, fact, sizeof fact);
	}
	return gd_explain_causes_here(cli->ctx.kb, mt, v, codes,
				      GD_EXPLAIN_MAX_CAUSES);
}

static void from_match(struct gd_cli *cli, const struct gd_machine *m,
		       struct gd_cli_inv *ci, const char *program,
		       struct gd_cli_cause *c,
		       const struct gd_explain_match *mt, const char *buf,
		       size_t n)
{
	c->n_causes = machine_causes(cli, m, ci, mt, c->causes);
	gd_strlcpy(c->id, mt->id, sizeof c->id);
	gd_fmt(c->cause, sizeof c->cause, "%s (%s; log: %s)",
	       mt->sig.title ? mt->sig.title : mt->id, mt->id, mt->text);
	c->program_fix = gd_explain_program_fix(mt->id, buf, n, program, m,
						c->fix, sizeof c->fix);
	if (!c->program_fix)
		gd_strlcpy(c->fix, mt->sig.fix ? mt->sig.fix : "",
			   sizeof c->fix);
}

/* A code of the "no code for this GPU" family gets the program's own fix
 * too (a log that names CUDA_ERROR_NO_BINARY_FOR_GPU and no signature). */
static void from_code(const struct gd_machine *m, const char *program,
		      struct gd_cli_cause *c, const struct gd_explain_code *e,
		      const char *buf, size_t n)
{
	const struct gd_errcode *x = e->c;

	gd_strlcpy(c->id, x->name, sizeof c->id);
	gd_fmt(c->cause, sizeof c->cause, "%s = %lld (%s): %s%s%s", x->name,
	       x->value, gd_errcode_apis[x->api].type, x->meaning,
	       x->cause[0] ? "; usually: " : "", x->cause);
	c->program_fix = gd_explain_program_fix(x->name, buf, n, program, m,
						c->fix, sizeof c->fix);
}

void gd_cli_explain_output(struct gd_cli *cli, const struct gd_machine *m,
			   struct gd_cli_inv *ci, const char *program,
			   const char *output, size_t n, struct gd_cli_cause *c)
{
	struct gd_explain_result r;
	size_t len = 0;
	/* as explain reads a log: colours dropped, CR made a line end, UTF-16
	 * converted (a terminal's output is full of the first two) */
	char *buf = gd_explain_decode(output, n, GD_ENC_DETECT, &len);

	memset(c, 0, sizeof *c);
	if (!buf)
		return;
	memset(&r, 0, sizeof r);
	if (gd_explain_scan(&cli->ctx, buf, len, &r) == 0) {
		/* this machine is where it ran: its container or WSL2 counts */
		gd_explain_evidence(cli->ctx.kb, buf, len, NULL, 0, m, &r);
		if (r.m.n)
			from_match(cli, m, ci, program, c, &r.m.v[0], output,
				   n);
		else if (r.codes.n)
			from_code(m, program, c, &r.codes.v[0], output, n);
	}
	gd_sanitize(c->cause);
	gd_sanitize(c->fix);
	gd_explain_result_free(&r);
	free(buf);
}

void gd_try_explain_row(struct gd_cli *cli, struct gd_try *t,
			struct gd_try_row *row, const char *output)
{
	struct gd_cli_cause c;

	gd_cli_explain_output(cli, &t->m, &t->inv,
			      gd_cli_program_name(t->argv ? t->argv[0] : NULL),
			      output, strlen(output), &c);
	gd_strlcpy(row->cause, c.cause, sizeof row->cause);
	gd_strlcpy(row->cause_fix, c.fix, sizeof row->cause_fix);
	memcpy(row->causes, c.causes, sizeof row->causes);
	row->n_causes = c.n_causes;
}

/* The program's file: argv[0] as a path, or found on PATH. */
static int program_path(const char *a, char *out, size_t cap)
{
	const char *path = getenv("PATH");
	struct stat st;

	if (!a || !a[0])
		return -1;
	if (strchr(a, '/') || strchr(a, '\\')) { /* a path */
		gd_strlcpy(out, a, cap);
		return stat(out, &st) == 0 && S_ISREG(st.st_mode) ? 0 : -1;
	}
	while (path && *path) {
		const char *c = strchr(path, ':');
		size_t n = c ? (size_t)(c - path) : strlen(path);

		gd_fmt(out, cap, "%.*s/%s", (int)n, path, a);
		if (n && stat(out, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
		path = c ? c + 1 : NULL;
	}
	return -1;
}

/* "PATH: no code for gfx1010 (has: gfx900)": the parts of scan's detail
 * about GPU code, not about libraries (judged under --root, they may be
 * another machine's). */
static void gpu_part(char *out, size_t cap, const char *path,
		     const char *detail)
{
	char d[384], *save = NULL;
	size_t used;

	gd_fmt(out, cap, "%s:", path);
	gd_strlcpy(d, detail, sizeof d);
	for (char *seg = strtok_r(d, ";", &save); seg;
	     seg = strtok_r(NULL, ";", &save)) {
		while (*seg == ' ')
			seg++;
		if (strncmp(seg, "no code for", 11) &&
		    strncmp(seg, "runs on", 7) && strncmp(seg, "has code", 8))
			continue;
		used = strlen(out);
		gd_fmt(out + used, cap - used, "%s %s",
		       out[used - 1] == ':' ? "" : ";", seg);
	}
}

/* What `gpudoctor scan` says of the program against this machine's GPUs:
 * "no code for sm_90 (has: sm_80)", when its file carries GPU code that
 * does not fit one of them. "" otherwise (host-only code, no GPU here). */
void gd_cli_scan_program(struct gd_cli *cli, const struct gd_machine *m,
			 const char *argv0, char *out, size_t cap)
{
	struct gd_bs_opts o = GD_BS_OPTS_DEFAULT;
	struct gd_bs_gpu gpus[8];
	struct gd_bs_env env;
	gd_bs_files files = {0};
	size_t n = 0;
	char path[4096];

	out[0] = '\0';
	for (size_t i = 0; i < m->n_gpus && n < 8; i++) {
		const char *g = gd_gpu_run_target(&m->gpus[i]);

		if (g[0] && !gd_bs_gpu_parse(g, &gpus[n]))
			n++;
	}
	if (!n || program_path(argv0, path, sizeof path) < 0 ||
	    gd_bs_scan_file(path, 1, &o, &files) < 0)
		return;
	gd_bs_env_init(&cli->ctx, &env, gpus, n);
	for (size_t i = 0; i < files.n; i++) {
		gd_bs_judge(&cli->ctx, &env, &files.v[i]);
		if (!out[0] && (files.v[i].fit == GD_FIT_NO ||
				files.v[i].fit == GD_FIT_PTX))
			gpu_part(out, cap, path, files.v[i].detail);
	}
	gd_bs_env_free(&env);
	gd_bs_files_free(&files);
	gd_sanitize(out);
}

void gd_try_scan_program(struct gd_cli *cli, struct gd_try *t)
{
	gd_cli_scan_program(cli, &t->m, t->argv ? t->argv[0] : NULL,
			    t->program_scan, sizeof t->program_scan);
}

void gd_try_print_causes(struct gd_cli *cli, const struct gd_try *t)
{
	int header = 0;

	for (size_t k = 0; k < t->list.v.n; k++) {
		const struct gd_try_row *r = &t->rows[k];
		int seen = 0;

		if (!r->ran || !r->cause[0])
			continue;
		for (size_t j = 0; j < k && !seen; j++)
			seen = t->rows[j].ran &&
			       !strcmp(t->rows[j].cause, r->cause);
		if (seen)
			continue;
		if (!header++)
			printf("\n%sWhy%s (gpudoctor explain on each failed "
			       "strategy's output):\n",
			       gd_c_bold(cli), gd_c_off(cli));
		printf("  %s", t->list.v.v[k].id);
		for (size_t j = k + 1; j < t->list.v.n; j++)
			if (t->rows[j].ran &&
			    !strcmp(t->rows[j].cause, r->cause))
				printf(", %s", t->list.v.v[j].id);
		printf(": %s\n", r->cause);
		if (r->n_causes)
			printf("      likeliest cause: %s (%s)\n",
			       gd_kb_cause_text(cli->ctx.kb, r->causes[0]),
			       r->causes[0]);
		if (r->cause_fix[0])
			printf("      fix: %s\n", r->cause_fix);
	}
	if (t->program_scan[0] && t->first_ok < 0)
		printf("%s  scan: %s\n",
		       header ? "" : "\nWhy (gpudoctor scan on the program):\n",
		       t->program_scan);
}
