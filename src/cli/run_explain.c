/* `gpudoctor run`: when CMD fails, explain on its own output, under it on
 * stderr, as `try` does for each failed strategy (try_explain.c). */
#include <errno.h>
#include <string.h>

#include "cli_explain.h"
#include "core/plat.h"
#include "run_tee.h"
#include "wa_common.h"

enum { RUN_EXIT_OWN = 125, RUN_EXIT_NOEXEC = 126, RUN_EXIT_NOTFOUND = 127 };

static void death_line(const char *prog, const struct gd_run_out *o)
{
	char name[64];

	gd_plat_crash_name((unsigned)o->signo, name, sizeof name);
	if (o->crashed)
		fprintf(stderr, "gpudoctor run: '%s' crashed: %s%s\n", prog,
			name, o->cored ? " (core dumped)" : "");
	else
		fprintf(stderr, "gpudoctor run: '%s' was killed by %s\n", prog,
			name);
}

static void print_text(const gd_kb *kb, const char *prog,
		       const struct gd_run_out *o, const struct gd_cli_cause *c,
		       const char *scan)
{
	if (o->signo)
		death_line(prog, o);
	if (!c->cause[0] && !scan[0])
		return;
	if (!o->signo)
		fprintf(stderr, "gpudoctor run: '%s' exited with status %d\n",
			prog, o->exit_code);
	if (c->cause[0])
		fprintf(stderr,
			"gpudoctor run: why (gpudoctor explain on its "
			"output): %s\n",
			c->cause);
	if (c->n_causes)
		fprintf(stderr, "gpudoctor run: likeliest cause: %s (%s)\n",
			gd_kb_cause_text(kb, c->causes[0]), c->causes[0]);
	if (c->fix[0])
		fprintf(stderr, "gpudoctor run: fix: %s\n", c->fix);
	if (scan[0])
		fprintf(stderr, "gpudoctor run: scan: %s\n", scan);
}

static void print_json(const json_t *doc0, const struct gd_run_out *o,
		       const struct gd_cli_cause *c, const char *scan)
{
	json_t *doc = json_deep_copy(doc0);
	char name[64];

	if (!doc)
		return;
	gd_plat_crash_name((unsigned)o->signo, name, sizeof name);
	json_object_set_new(doc, "exit_code",
			    o->signo ? json_null()
				     : json_integer(o->exit_code));
	json_object_set_new(doc, "signal",
			    o->signo ? json_string(name) : json_null());
	json_object_set_new(doc, "cause_id", gd_wa_jstr_or_null(c->id));
	json_object_set_new(doc, "cause", gd_wa_jstr_or_null(c->cause));
	json_object_set_new(doc, "cause_fix", gd_wa_jstr_or_null(c->fix));
	json_object_set_new(doc, "causes",
			    gd_cli_causes_json(c->causes, c->n_causes));
	json_object_set_new(doc, "program_scan", gd_wa_jstr_or_null(scan));
	json_dumpf(doc, stderr,
		   JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	fputc('\n', stderr);
	json_decref(doc);
}

int gd_run_explained(struct gd_cli *cli, const struct gd_machine *m,
		     const void *doc, char *const *cmd, char *const *env)
{
	const char *prog = gd_cli_program_name(cmd[0]);
	struct gd_run_out o;
	struct gd_cli_cause c;
	char scan[600] = "";
	int rc = gd_run_tee(cmd, env, &o), status;

	if (rc == -ENOSYS)
		return -1;
	if (rc < 0) {
		fprintf(stderr, "gpudoctor run: cannot start '%s': %s\n",
			cmd[0], strerror(-rc));
		return RUN_EXIT_OWN;
	}
	if (o.start_errno) {
		gd_run_out_free(&o);
		fprintf(stderr, "gpudoctor run: cannot run '%s': %s\n", cmd[0],
			strerror(o.start_errno));
		return o.start_errno == ENOENT || o.start_errno == ENOTDIR
			   ? RUN_EXIT_NOTFOUND
			   : RUN_EXIT_NOEXEC;
	}
	/* a shell's 128 + N; Windows: the NTSTATUS itself (0xC0000005), as
	 * cmd.exe reports a crashed program's exit code */
	status = !o.signo		   ? o.exit_code
		 : (unsigned)o.signo < 128 ? 128 + o.signo
					   : o.signo;
	if (status && !o.by_user) {
		struct gd_cli_inv ci = {0};

		gd_cli_explain_output(cli, m, &ci, prog, o.log, o.log_len, &c);
		gd_cli_inv_free(&ci);
		/* what the program's file carries against this machine's
		 * GPUs: said only when its GPU code does not fit them */
		gd_cli_scan_program(cli, m, cmd[0], scan, sizeof scan);
		if (cli->json && doc)
			print_json(doc, &o, &c, scan);
		else
			print_text(cli->ctx.kb, prog, &o, &c, scan);
	}
	gd_run_out_free(&o);
	return status;
}
