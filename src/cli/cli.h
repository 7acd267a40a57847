/* cli/: argument parsing, one file per command, rendering. The only layer
 * that writes to the terminal and picks exit codes. */
#ifndef GD_CLI_H
#define GD_CLI_H

#include <jansson.h>
#include <stdio.h>

#include "core/ctx.h"
#include "opts.h"
#include "report/view.h"

typedef int (*gd_cmd_fn)(struct gd_cli *cli, int argc, char **argv);

struct gd_cmd {
	const char *name;
	gd_cmd_fn fn;
	const char *summary;	   /* one line for --help */
	int hidden;		   /* internal (re-exec'd children) */
	const struct gd_opt *opts; /* its option table (NULL: parses by hand) */
	const char *operands;	   /* what follows the options, for completion:
				    * FILE/PATH/LOG file names, CMD a command */
	int own_argv;		   /* operands are the user's own command line:
				    * no option of ours after the first one */
};

/* The command table and the options every command takes (main.c). */
extern const struct gd_cmd gd_commands[];
extern const struct gd_opt gd_opts_global[];
extern const struct gd_opt gd_opts_top[]; /* gpudoctor --help, --version */
const struct gd_cmd *gd_cli_find(const char *name);
/* gpudoctor __complete WORD... CUR (complete.c): shell completion. */
int gd_cli_complete(int argc, char **argv);
int gd_cmd_complete(struct gd_cli *cli, int argc, char **argv);

/* Each command's option table, in its cmd_<name>.c. */
extern const struct gd_opt gd_opts_check[], gd_opts_list[], gd_opts_probe[],
    gd_opts_scan[], gd_opts_run[], gd_opts_try[], gd_opts_env[],
    gd_opts_explain[], gd_opts_report[], gd_opts_gather[], gd_opts_kb[],
    gd_opts_guide[], gd_opts_nfd[], gd_opts_metrics[];

/* Shared helpers (cli_util.c). */
void gd_cli_common_help(FILE *f);
int gd_cli_emit_json(struct gd_cli *cli, json_t *root); /* steals root */
int gd_cli_usage_error(struct gd_cli *cli, const char *cmd, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));
int gd_cli_error(struct gd_cli *cli, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A gd_probe_opts.on_progress that keeps one status line on stderr,
 * rewritten in place; only for a terminal (the caller checks). */
struct gd_probe_progress;
void gd_render_probe_progress(void *arg, const struct gd_probe_progress *p,
			      size_t n);
/* gd_check_collect with that line while probes run on a terminal. */
struct gd_check_opts;
struct gd_check_data;
int gd_cli_check_collect(struct gd_cli *cli, struct gd_check_opts *o,
			 struct gd_check_data *d);
/* Around a check that may probe: SIGTERM, SIGINT, SIGHUP, SIGQUIT stop
 * the probes (their process groups, what a runtime forked included), and
 * _end then raises the signal again (probe_progress.c). */
void gd_cli_cancel_begin(struct gd_cli *cli);
void gd_cli_cancel_end(struct gd_cli *cli);

/* Command entry points, one file each (cmd_<name>.c). */
int gd_cmd_check(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_api_check(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_list(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_report(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_kb(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_gather(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_probe(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_probe_child(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_scan(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_run(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_try(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_env(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_explain(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_metrics(struct gd_cli *cli, int argc, char **argv);
int gd_cmd_nfd(struct gd_cli *cli, int argc, char **argv);
struct gd_check_data;
/* nfd's feature file from check data already collected (metrics --nfd-dir
 * writes both from one probe run): DIR/gpudoctor, or stdout for NULL. */
int gd_nfd_emit(struct gd_cli *cli, const struct gd_check_data *d,
		const char *dir, long expiry);
int gd_cmd_guide(struct gd_cli *cli, int argc, char **argv);

#endif
