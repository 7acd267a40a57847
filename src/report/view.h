/* report/: the report of a check built in memory (check_data.h) and its
 * renderers, text, JSON and Markdown, into a FILE* the caller gives: a
 * terminal for the command line, a memory stream for the C API
 * (api/gpudoctor.c). Nothing here decides where bytes go or exits.
 *
 * struct gd_cli is what a renderer needs of a run: the context, the output
 * form, colour. It keeps the name of the command line that first owned it
 * (every cmd_*.c takes one); the C API's handle holds one too. */
#ifndef GD_REPORT_VIEW_H
#define GD_REPORT_VIEW_H

#include <jansson.h>
#include <stdio.h>

#include "core/ctx.h"

/* Exit codes (documented in man/gpudoctor.1.in and docs/json.md); the
 * C API returns the same numbers (include/gpudoctor.h). */
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
	/* the command line's stop flag (a signal number), which the probes
	 * of a check poll; NULL for a library handle */
	const volatile int *cancel;
};

/* {"$schema", "schema_version", "command", "gpudoctor_version"} */
json_t *gd_cli_json_doc(const char *command);
/* The last key of every envelope: "platform", the system judged. */
void gd_cli_json_finish(const struct gd_cli *cli, json_t *root);
/* The document as the command line prints it (2-space indent, ASCII, a
 * final newline); malloc'd, NULL when out of memory. Steals root. */
char *gd_cli_json_text(const struct gd_cli *cli, json_t *root);
/* [{level, source, message}] of the diagnostics collected so far. */
json_t *gd_cli_diags_json(const struct gd_cli *cli);
/* "gpudoctor: LEVEL: source: message" lines of those diagnostics. */
void gd_cli_print_diags(const struct gd_cli *cli, FILE *f);
/* s made safe for a terminal (no control bytes, valid UTF-8), in buf. */
const char *gd_cli_term(char *buf, size_t cap, const char *s);
/* Colour helpers: return the escape or "" when colour is off. */
const char *gd_c_bold(const struct gd_cli *cli);
const char *gd_c_red(const struct gd_cli *cli);
const char *gd_c_green(const struct gd_cli *cli);
const char *gd_c_yellow(const struct gd_cli *cli);
const char *gd_c_dim(const struct gd_cli *cli);
const char *gd_c_off(const struct gd_cli *cli);

/* A FILE* that writes into memory (open_memstream; a temporary file where
 * the C library has none), for renderers whose bytes are returned rather
 * than printed. gd_memout_close gives the bytes, NUL-terminated and
 * malloc'd, or NULL (out of memory, write error). */
struct gd_memout {
	FILE *f;
	char *buf;
	size_t len;
};
FILE *gd_memout_open(struct gd_memout *m);
char *gd_memout_close(struct gd_memout *m);

#endif
