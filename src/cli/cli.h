/* cli/: argument parsing, one file per command, rendering. The only layer
 * that writes to the terminal and picks exit codes. */
#ifndef GD_CLI_H
#define GD_CLI_H

#include <jansson.h>
#include <stdio.h>

#include "core/ctx.h"
#include "opts.h"

/* Exit codes (documented in the man page and docs/exit-codes.md). */
enum {
	GD_EXIT_OK = 0, /* every GPU found works for ML as the machine is */
	GD_EXIT_UNUSABLE =
	    1, /* a GPU is present but needs changes or cannot work */
	GD_EXIT_NO_GPU = 2, /* no GPU: CPU only */
	GD_EXIT_ERROR = 3,  /* gpudoctor's own error: bad usage, bad input */
};

#define GD_JSON_SCHEMA_VERSION 1
/* + "<command>.json": the \"$schema\" of each document (docs/schema/) */
#define GD_JSON_SCHEMA_BASE "https://gpudoctor.dev/schema/v1/"

struct gd_cli {
	gd_ctx ctx;
	int json;	     /* --json */
	int color;	     /* colour on stdout */
	int tty;	     /* stdout is a terminal */
	const char *kb_path; /* --kb FILE, NULL for the embedded copy */
	const char *prog;    /* argv[0] */
	int argc;	     /* the command's own argv, for error messages */
	char **argv;
};

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
/* s made safe for a terminal (no control bytes, valid UTF-8), in buf. */
const char *gd_cli_term(char *buf, size_t cap, const char *s);
json_t *
gd_cli_json_doc(const char *command); /* {"schema_version":1,"command":...} */
void gd_cli_print_diags(struct gd_cli *cli, FILE *f);
/* [{level, source, message}] of the diagnostics collected so far. */
json_t *gd_cli_diags_json(const struct gd_cli *cli);
int gd_cli_usage_error(struct gd_cli *cli, const char *cmd, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));
int gd_cli_error(struct gd_cli *cli, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Colour helpers: return the escape or "" when colour is off. */
const char *gd_c_bold(const struct gd_cli *cli);
const char *gd_c_red(const struct gd_cli *cli);
const char *gd_c_green(const struct gd_cli *cli);
const char *gd_c_yellow(const struct gd_cli *cli);
const char *gd_c_dim(const struct gd_cli *cli);
const char *gd_c_off(const struct gd_cli *cli);

/* `check` of a Windows machine (check_windows.c). */
int gd_check_windows(struct gd_cli *cli, int verbose, int brief);

/* Command entry points, one file each (cmd_<name>.c). */
int gd_cmd_check(struct gd_cli *cli, int argc, char **argv);
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
int gd_cmd_guide(struct gd_cli *cli, int argc, char **argv);

#endif
