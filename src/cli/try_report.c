/* `gpudoctor try`: the table (or JSON) of what each strategy did, the
 * steps only the user can take, and --save. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_explain.h"
#include "core/json.h"
#include "core/plat.h"
#include "try_int.h"
#include "wa_common.h"

static const char *outcome_name(enum gd_try_outcome o)
{
	static const char *n[] = {"ok", "failed", "crash", "hang",
				  "interrupted"};

	return n[o];
}

static void cmd_line(const struct gd_try *t, char *buf, size_t cap)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; t->argv[i] && used + 1 < cap; i++) {
		gd_fmt(buf + used, cap - used, "%s%s", i ? " " : "",
		       t->argv[i]);
		used += strlen(buf + used);
	}
	gd_sanitize(buf);
}

/* What was saved, and the `run` options that apply it. */
struct try_saved {
	char path[4096]; /* "" when nothing was saved */
	char name[128];
	char opt[160]; /* "--profile NAME", "" when `run` finds it alone */
};

/* `run` without --profile applies this GPU's saved profile, unless another
 * GPU's saved profile comes first: say --profile NAME then. */
static void apply_opt(struct gd_cli *cli, struct gd_try *t,
		      struct try_saved *sv)
{
	struct gd_pick pk;
	char err[1024];
	int found = 0;

	if (!t->save_as && gd_profile_pick(&cli->ctx, NULL, &t->m, &pk, err,
					   sizeof err) == 0) {
		found = pk.origin == GD_PICK_SAVED &&
			!strcmp(pk.prof.path, sv->path);
		gd_pick_free(&pk);
	}
	if (found)
		sv->opt[0] = '\0';
	else
		gd_fmt(sv->opt, sizeof sv->opt, "--profile %s", sv->name);
}

/* Save the first strategy that worked, always as NAME.profile in the
 * profile directory (--save-as takes names, not paths). Returns 0 or -1;
 * sv->path stays "" when there was nothing to save. */
static int save_first(struct gd_cli *cli, struct gd_try *t,
		      struct try_saved *sv)
{
	const struct gd_strategy *st = &t->list.v.v[t->first_ok];
	struct gd_profile p;
	char *name = sv->name, *path = sv->path, err[1024], cmd[300];
	char note[400];
	size_t cap = sizeof sv->path;
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	if (st->kind == GD_STRAT_BASELINE)
		return 0;
	if (t->save_as) {
		gd_strlcpy(name, t->save_as, sizeof sv->name);
	} else if (st->gpu >= 0 && (size_t)st->gpu < t->m.n_gpus) {
		gd_profile_gpu_name(&t->m.gpus[st->gpu], name, sizeof sv->name);
	} else {
		gd_cli_error(cli, "try: no GPU found to key the profile to; "
				  "use --save-as NAME");
		return -1;
	}
	if (!gd_profile_name_valid(name) ||
	    gd_profile_path(&cli->ctx, name, path, cap, err, sizeof err) < 0) {
		gd_cli_error(cli, "try: %s", err);
		path[0] = '\0';
		return -1;
	}
	if (gd_profile_copy(&p, &st->prof) < 0)
		return -1;
	gd_strlcpy(p.name, name, sizeof p.name);
	gd_strlcpy(p.strategy, st->id, sizeof p.strategy);
	localtime_r(&now, &tm);
	strftime(p.saved, sizeof p.saved, "%Y-%m-%d", &tm);
	cmd_line(t, cmd, sizeof cmd);
	gd_fmt(note, sizeof note, "found by gpudoctor try: %s", cmd);
	gd_profile_add_note(&p, note);
	rc = gd_profile_save(path, &p, err, sizeof err);
	gd_profile_free(&p);
	if (rc < 0) {
		gd_cli_error(cli, "try: %s", err);
		path[0] = '\0';
		return -1;
	}
	apply_opt(cli, t, sv);
	return 0;
}

/* --trace: the threads found inside a GPU call at the deadline. */
static json_t *trace_json(const struct gd_try_row *r)
{
	json_t *o = json_object(), *a = json_array();

	for (int i = 0; i < r->nstuck; i++) {
		const struct gd_trace_stuck *s = &r->stuck[i];
		json_t *e = json_object();
		char st[2] = {s->state, '\0'};

		json_object_set_new(e, "pid", json_integer(s->pid));
		json_object_set_new(e, "tid", json_integer(s->tid));
		json_object_set_new(e, "seconds", json_real(s->seconds));
		json_object_set_new(e, "call", gd_wa_jstr(s->call));
		json_object_set_new(e, "caller", gd_wa_jstr_or_null(s->caller));
		json_object_set_new(e, "caller_function",
				    gd_wa_jstr_or_null(s->function));
		json_object_set_new(e, "blocked_in",
				    gd_wa_jstr_or_null(s->blocked));
		json_object_set_new(e, "state", gd_wa_jstr(st));
		json_object_set_new(e, "text", gd_wa_jstr(s->line));
		json_object_set_new(e, "why", gd_wa_jstr_or_null(s->why));
		json_object_set_new(e, "python", gd_wa_jstr_or_null(s->python));
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "stuck", a);
	json_object_set_new(o, "unrecorded", gd_wa_jstr_or_null(r->unrecorded));
	json_object_set_new(o, "log", gd_wa_jstr_or_null(r->trace_log));
	return o;
}

static json_t *row_json(const struct gd_try *t, size_t k)
{
	const struct gd_strategy *st = &t->list.v.v[k];
	const struct gd_try_row *r = &t->rows[k];
	json_t *o = json_object(), *pj = gd_wa_profile_json(&st->prof);
	char signame[64];

	json_object_set_new(o, "name", gd_json_str(st->id));
	json_object_set_new(o, "for", gd_wa_jstr_or_null(st->for_what));
	json_object_set_new(o, "env", json_incref(json_object_get(pj, "set")));
	json_object_set_new(o, "unset",
			    json_incref(json_object_get(pj, "unset")));
	json_object_set_new(o, "outcome",
			    gd_json_str(outcome_name(r->outcome)));
	json_object_set_new(o, "phase", gd_wa_jstr(r->phase));
	json_object_set_new(o, "seconds", json_real(r->seconds));
	json_object_set_new(o, "exit_code",
			    r->exit_code >= 0 ? json_integer(r->exit_code)
					      : json_null());
	gd_plat_crash_name((unsigned)r->signo, signame, sizeof signame);
	json_object_set_new(o, "signal",
			    r->signo ? gd_json_str(signame) : json_null());
	json_object_set_new(o, "last_line", gd_wa_jstr(r->last_line));
	json_object_set_new(o, "cause", gd_wa_jstr_or_null(r->cause));
	json_object_set_new(o, "cause_fix", gd_wa_jstr_or_null(r->cause_fix));
	json_object_set_new(o, "causes",
			    gd_cli_causes_json(r->causes, r->n_causes));
	if (t->trace_mode)
		json_object_set_new(o, "trace", trace_json(r));
	json_object_set_new(o, "reason", gd_wa_jstr_or_null(st->reason));
	json_object_set_new(o, "caveat", gd_wa_jstr_or_null(st->caveat));
	json_object_set_new(o, "sources", gd_wa_words_json(st->sources));
	json_decref(pj);
	return o;
}

static void emit_json(struct gd_cli *cli, const struct gd_try *t,
		      const struct try_saved *sv)
{
	json_t *doc = gd_cli_json_doc("try"), *rows = json_array();
	json_t *steps = json_array(), *notrun = json_array();
	json_t *argv = json_array();

	for (size_t i = 0; t->argv[i]; i++)
		json_array_append_new(argv, gd_wa_jstr(t->argv[i]));
	json_object_set_new(doc, "argv", argv);
	json_object_set_new(doc, "timeout_s", json_real(t->timeout));
	json_object_set_new(doc, "expect",
			    t->expect ? gd_wa_jstr(t->expect) : json_null());
	for (size_t k = 0; k < t->list.v.n; k++) {
		const struct gd_strategy *st = &t->list.v.v[k];

		if (st->kind == GD_STRAT_USER_STEP) {
			json_t *s = json_object();

			json_object_set_new(s, "name", gd_json_str(st->id));
			json_object_set_new(s, "for",
					    gd_wa_jstr_or_null(st->for_what));
			json_object_set_new(s, "steps", gd_wa_jstr(st->steps));
			json_object_set_new(s, "reason",
					    gd_wa_jstr_or_null(st->reason));
			json_object_set_new(s, "sources",
					    gd_wa_words_json(st->sources));
			json_array_append_new(steps, s);
		} else if (t->rows[k].ran) {
			json_array_append_new(rows, row_json(t, k));
		} else {
			json_array_append_new(notrun, gd_json_str(st->id));
		}
	}
	json_object_set_new(doc, "strategies", rows);
	json_object_set_new(doc, "not_run", notrun);
	json_object_set_new(doc, "user_steps", steps);
	json_object_set_new(doc, "program_scan",
			    gd_wa_jstr_or_null(t->program_scan));
	json_object_set_new(doc, "first_ok",
			    t->first_ok >= 0
				? gd_json_str(t->list.v.v[t->first_ok].id)
				: json_null());
	json_object_set_new(doc, "saved", gd_wa_jstr_or_null(sv->path));
	json_object_set_new(doc, "saved_name",
			    sv->path[0] ? gd_wa_jstr(sv->name) : json_null());
	json_object_set_new(doc, "interrupted", json_boolean(t->interrupted));
	json_object_set_new(doc, "total_seconds", json_real(t->total));
	gd_cli_emit_json(cli, doc);
}

static void print_table(struct gd_cli *cli, const struct gd_try *t)
{
	int w = 8;

	for (size_t k = 0; k < t->list.v.n; k++)
		if (t->rows[k].ran && (int)strlen(t->list.v.v[k].id) > w)
			w = (int)strlen(t->list.v.v[k].id);
	printf("%s%-*s  %-11s  %7s  %s%s\n", gd_c_bold(cli), w, "STRATEGY",
	       "OUTCOME", "TIME", "PHASE", gd_c_off(cli));
	for (size_t k = 0; k < t->list.v.n; k++) {
		const struct gd_try_row *r = &t->rows[k];
		const char *col;

		if (!r->ran)
			continue;
		col = r->outcome == GD_TRY_OK		 ? gd_c_green(cli)
		      : r->outcome == GD_TRY_INTERRUPTED ? gd_c_yellow(cli)
							 : gd_c_red(cli);
		printf("%-*s  %s%-11s%s  %6.1fs  %s\n", w, t->list.v.v[k].id,
		       col, outcome_name(r->outcome), gd_c_off(cli), r->seconds,
		       r->phase);
		if (r->nstuck && r->stuck[0].python[0])
			printf("%*s  python: %s\n", w, "", r->stuck[0].python);
		if (r->nstuck && r->stuck[0].why[0])
			printf("%*s  why: %s\n", w, "", r->stuck[0].why);
		for (int i = 1; i < r->nstuck; i++)
			printf("%*s  also: %s\n", w, "", r->stuck[i].line);
		if (r->nstuck && r->unrecorded[0])
			printf("%*s  also: %s\n", w, "", r->unrecorded);
		if (r->trace_log[0])
			printf("%*s  call log: %s\n", w, "", r->trace_log);
	}
}

/* "Interrupted during X; not tried: a, b." */
static void print_interrupted(const struct gd_try *t)
{
	int n = 0;

	printf("Interrupted");
	for (size_t k = 0; k < t->list.v.n; k++)
		if (t->rows[k].ran && t->rows[k].outcome == GD_TRY_INTERRUPTED)
			printf(" during %s", t->list.v.v[k].id);
	for (size_t k = 0; k < t->list.v.n; k++)
		if (!t->rows[k].ran &&
		    t->list.v.v[k].kind != GD_STRAT_USER_STEP)
			printf("%s%s",
			       n++ ? ", " : "; not tried: ", t->list.v.v[k].id);
	printf(" (%.1f s in all); nothing saved.\n", t->total);
}

static void print_rest(struct gd_cli *cli, const struct gd_try *t,
		       const struct try_saved *sv)
{
	int header = 0;
	char sum[768];

	for (size_t k = 0; k < t->list.v.n; k++) {
		const struct gd_strategy *st = &t->list.v.v[k];

		if (st->kind != GD_STRAT_USER_STEP)
			continue;
		if (!header++)
			printf("\nNot tried: changes only you can make (%s):\n",
			       "kernel parameters, firmware");
		printf("  %s%s%s (%s): %s\n", gd_c_bold(cli), st->id,
		       gd_c_off(cli), st->for_what, st->steps);
		if (st->reason[0])
			printf("      why: %s\n", st->reason);
		if (st->sources[0])
			printf("      source: %s\n", st->sources);
	}
	printf("\n");
	if (!t->m.n_gpus)
		printf("No GPU found here, so no strategy but the baseline "
		       "applies.\n");
	if (t->interrupted)
		print_interrupted(t);
	if (t->first_ok < 0) {
		if (!t->interrupted)
			printf("No strategy worked (%.1f s in all).\n",
			       t->total);
		return;
	}
	gd_profile_summary(&t->list.v.v[t->first_ok].prof, sum, sizeof sum);
	printf("First that works: %s (%s); %.1f s in all.\n",
	       t->list.v.v[t->first_ok].id, sum, t->total);
	if (sv->path[0])
		printf("Saved as %s; 'gpudoctor run %s%s-- CMD' applies it, "
		       "'gpudoctor env%s%s' prints it.\n",
		       sv->path, sv->opt, sv->opt[0] ? " " : "",
		       sv->opt[0] ? " " : "", sv->opt);
	else if (t->interrupted)
		return;
	else if (t->list.v.v[t->first_ok].kind == GD_STRAT_BASELINE)
		printf("The machine works as it is for this command: no "
		       "profile needed.\n");
	else if (!t->save)
		printf("Keep it with 'gpudoctor try --save ...'.\n");
}

int gd_try_finish(struct gd_cli *cli, struct gd_try *t)
{
	struct try_saved sv;
	int rc = t->first_ok >= 0 ? GD_EXIT_OK : GD_EXIT_UNUSABLE;

	memset(&sv, 0, sizeof sv);
	/* An interrupted run is not what the user asked to keep. */
	if (t->save && t->first_ok >= 0 && !t->interrupted &&
	    save_first(cli, t, &sv) < 0)
		rc = GD_EXIT_ERROR;
	if (cli->json) {
		emit_json(cli, t, &sv);
		return rc;
	}
	print_table(cli, t);
	gd_try_print_causes(cli, t);
	print_rest(cli, t, &sv);
	return rc;
}
