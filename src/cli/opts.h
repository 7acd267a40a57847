/* One option table per command: getopt_long's arrays, the --help lines,
 * the man page test and shell completion (gpudoctor __complete) all come
 * from it, so they cannot drift apart. */
#ifndef GD_CLI_OPTS_H
#define GD_CLI_OPTS_H

#include <getopt.h>
#include <stdio.h>

enum gd_arg { GD_ARG_NONE, GD_ARG_REQUIRED, GD_ARG_OPTIONAL };

struct gd_opt {
	const char *name; /* long name, without "--" */
	char short_name;  /* 0: long only */
	int id;		  /* what getopt_long returns for it */
	enum gd_arg arg;
	const char *value;	   /* placeholder in help: "FILE", "S"; FILE,
				    * PATH, LOG complete file names, DIR folders */
	const char *help;	   /* NULL: not in --help (an alias) */
	const char *const *values; /* the values it takes (NULL-terminated),
				    * for completion and checks; NULL: any */
	/* values known only at run time (the probe backends): fills out[]
	 * and returns how many; NULL when `values` says it all */
	size_t (*values_fn)(const char **out, size_t cap);
};

#define GD_OPTS_MAX 32

/* getopt_long's long-option array and short-option string for a table. */
struct gd_getopt {
	struct option lo[GD_OPTS_MAX + 1];
	char so[2 * GD_OPTS_MAX + 4];
};

/* stop_at_operand: '+' (POSIX order), for run and try, whose operands are
 * a command line of the user's own. */
void gd_opts_build(struct gd_getopt *g, const struct gd_opt *t,
		   int stop_at_operand);
/* The option lines of --help, aligned in one column. */
void gd_opts_help(FILE *f, const struct gd_opt *t);
/* The row named by "--name", "--name=VALUE" or "-x"; NULL when none. */
const struct gd_opt *gd_opts_find(const struct gd_opt *t, const char *word);
#define GD_OPTS_VALUES_MAX 32
/* o's values (from `values` or `values_fn`); 0 when it takes any. */
size_t gd_opts_values(const struct gd_opt *o, const char **out, size_t cap);
/* Whether v is one of o's values (any value when o has no list). */
int gd_opts_value_ok(const struct gd_opt *o, const char *v);
/* "a, b or c": o's values as a sentence. */
void gd_opts_values_text(const struct gd_opt *o, char *buf, size_t cap);

#endif
