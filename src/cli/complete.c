/* gpudoctor __complete WORD... CUR: what the shell may put in place of CUR,
 * the last word (possibly empty), after the words typed before it. The thin
 * wrappers in completion/ (bash, zsh, fish) only ask this, so commands,
 * options and their values come from the tables the parser uses (git's
 * --git-completion-helper idea).
 *
 * Output: one candidate a line, "WORD" or "WORD<TAB>description", already
 * filtered by CUR's prefix; then, where the shell should also complete
 * names itself, one line ":file", ":dir" or ":command". */
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct comp {
	const struct gd_cmd *cmd;  /* NULL: none named (yet, or unknown) */
	int named;		   /* a command word was seen */
	int help;		   /* "gpudoctor help ..." */
	int operands;		   /* words after the options (or after --) */
	int after_dd;		   /* after "--" */
	const struct gd_opt *want; /* the previous word is this option,
				    * without its value */
};

static void cand(const char *cur, const char *pre, const char *word,
		 const char *desc)
{
	char full[256];

	snprintf(full, sizeof full, "%s%s", pre, word);
	if (strncmp(full, cur, strlen(cur)))
		return;
	printf("%s", full);
	if (desc && *desc)
		printf("\t%.*s", (int)strcspn(desc, "\n"), desc);
	printf("\n");
}

/* The options in effect: the command's, else check's (the default). */
static const struct gd_opt *cmd_opts(const struct comp *c)
{
	if (c->cmd)
		return c->cmd->opts;
	return c->named ? NULL : gd_opts_check;
}

static const struct gd_opt *lookup(const struct comp *c, const char *w)
{
	const struct gd_opt *o = NULL;

	if (w[0] == '-' && w[1] == '-')
		o = gd_opts_find(gd_opts_global, w);
	if (!o && cmd_opts(c))
		o = gd_opts_find(cmd_opts(c), w);
	return o;
}

static void walk(struct comp *c, int n, char **w)
{
	for (int i = 0; i < n; i++) {
		const char *a = w[i];
		const struct gd_opt *o;

		c->want = NULL;
		if (c->after_dd ||
		    (c->operands && c->cmd && c->cmd->own_argv)) {
			c->operands++;
			continue;
		}
		if (!strcmp(a, "--")) {
			c->after_dd = 1;
			continue;
		}
		if (a[0] == '-' && a[1]) {
			o = lookup(c, a);
			if (o && o->arg == GD_ARG_REQUIRED &&
			    (a[1] == '-' ? !strchr(a, '=') : !a[2])) {
				if (i + 1 < n)
					i++;
				else
					c->want = o;
			}
			continue;
		}
		if (!c->named) {
			c->named = 1;
			c->help = !strcmp(a, "help");
			c->cmd = gd_cli_find(a);
			if (c->cmd && c->cmd->hidden)
				c->cmd = NULL;
		} else {
			c->operands++;
		}
	}
}

/* Values of option o: its list, else what its placeholder names. A LIST
 * is comma-separated: "cuda,h" completes its last item. */
static void values(const struct gd_opt *o, const char *cur, const char *pre)
{
	const char *v[GD_OPTS_VALUES_MAX], *comma = strrchr(cur, ',');
	size_t n = gd_opts_values(o, v, GD_OPTS_VALUES_MAX);
	char list_pre[256];

	if (comma && o->value && !strcmp(o->value, "LIST") &&
	    (size_t)(comma - cur) >= strlen(pre)) {
		snprintf(list_pre, sizeof list_pre, "%.*s",
			 (int)(comma - cur + 1), cur);
		pre = list_pre;
	}
	for (size_t i = 0; i < n; i++)
		cand(cur, pre, v[i], NULL);
	if (n || !o->value)
		return;
	if (strstr(o->value, "DIR"))
		printf(":dir\n");
	else if (strstr(o->value, "FILE") || strstr(o->value, "PATH"))
		printf(":file\n");
}

static void options(const struct comp *c, const char *cur)
{
	const struct gd_opt *eq_o;
	const char *eq = strchr(cur, '=');
	const struct gd_opt *tables[3] = {cmd_opts(c), gd_opts_global,
					  c->named ? NULL : gd_opts_top};

	if (cur[1] == '-' && eq) { /* --color=al */
		eq_o = lookup(c, cur);
		if (eq_o && eq_o->arg != GD_ARG_NONE) {
			char pre[64];

			snprintf(pre, sizeof pre, "%.*s", (int)(eq - cur + 1),
				 cur);
			values(eq_o, cur, pre);
		}
		return;
	}
	for (int t = 0; t < 3; t++)
		for (const struct gd_opt *o = tables[t]; o && o->name; o++)
			if (o->help)
				cand(cur, "--", o->name, o->help);
}

static void operand(const struct comp *c, const char *cur)
{
	const char *what = c->cmd ? c->cmd->operands : NULL;

	if (c->help || (!c->named && !c->after_dd)) {
		for (const struct gd_cmd *k = gd_commands; k->name; k++)
			if (!k->hidden)
				cand(cur, "", k->name, k->summary);
		if (!c->named)
			cand(cur, "", "help", "a command's help");
		return;
	}
	if (!what)
		return;
	if (strstr(what, "CMD"))
		printf(c->operands ? ":file\n" : ":command\n");
	else if (strstr(what, "FILE") || strstr(what, "PATH") ||
		 strstr(what, "LOG"))
		printf(":file\n");
}

/* Reached only when global options came before "__complete" (main() runs
 * gd_cli_complete itself otherwise, before they are taken out). */
int gd_cmd_complete(struct gd_cli *cli, int argc, char **argv)
{
	(void)cli;
	return gd_cli_complete(argc - 1, argv + 1);
}

int gd_cli_complete(int argc, char **argv)
{
	struct comp c;
	const char *cur = argc > 0 ? argv[argc - 1] : "";

	memset(&c, 0, sizeof c);
	walk(&c, argc > 0 ? argc - 1 : 0, argv);
	if (c.want)
		values(c.want, cur, "");
	else if (cur[0] == '-' && !c.after_dd &&
		 !(c.operands && c.cmd && c.cmd->own_argv))
		options(&c, cur);
	else
		operand(&c, cur);
	fflush(stdout);
	return GD_EXIT_OK;
}
