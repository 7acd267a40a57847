/* gpudoctor env [--profile NAME] [--shell sh|bash|zsh|fish|powershell|cmd]:
 * the profile `run` would apply, as lines to paste or eval. Evaluated in a
 * shell they give the environment `run` gives its child (tested by
 * tests/scripts/test_run_env.sh with sh and fish). */
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "core/json.h"
#include "doctor/verdict_windows.h"
#include "wa_common.h"

enum shell { SH, FISH, PWSH, CMD };

/* The names shell_parse() takes. */
static const char *const shell_names[] = {"sh",	 "bash", "zsh",	 "dash",
					  "ksh", "fish", "pwsh", "powershell",
					  "cmd", NULL};

const struct gd_opt gd_opts_env[] = {
    {"profile", 'p', 'p', GD_ARG_REQUIRED, "NAME",
     "a named profile or a profile file path", NULL, NULL},
    {"shell", 's', 's', GD_ARG_REQUIRED, "SHELL",
     "sh, bash, zsh, fish, powershell, cmd (default: from $SHELL)", shell_names,
     NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: gpudoctor env [--profile NAME] [--shell SHELL]\n\n"
		"Print the workaround profile that 'gpudoctor run' applies, as "
		"shell lines:\n"
		"  sh/bash/zsh:  eval \"$(gpudoctor env)\"\n"
		"  fish:         gpudoctor env --shell fish | source\n"
		"  PowerShell:   gpudoctor env --shell powershell | "
		"Invoke-Expression\n"
		"  cmd.exe:      paste the lines\n"
		"Windows shells also get the directory a Python program passes "
		"to\nos.add_dll_directory() when the profile puts a library "
		"directory first.\n"
		"Git Bash and MSYS2 (sh, bash): a Windows folder put first on "
		"PATH is written\nin their form, /c/Program Files/..., joined "
		"with ':' (they convert PATH when\nthey start a Windows "
		"program); other variables keep C:\\... as is. Cygwin\n"
		"(/cygdrive/c): use --shell powershell or cmd.\n\n");
	gd_opts_help(f, gd_opts_env);
	fprintf(f, "\n");
	gd_cli_common_help(f);
}

/* sh: '...' with ' as '\'' */
static void q_sh(FILE *f, const char *v)
{
	fputc('\'', f);
	for (; *v; v++) {
		if (*v == '\'')
			fputs("'\\''", f);
		else
			fputc(*v, f);
	}
	fputc('\'', f);
}

/* fish, and Python string literals (the os.add_dll_directory() hint):
 * inside '...' only \ and ' are special. */
static void q_fish(FILE *f, const char *v)
{
	fputc('\'', f);
	for (; *v; v++) {
		if (*v == '\\' || *v == '\'')
			fputc('\\', f);
		fputc(*v, f);
	}
	fputc('\'', f);
}

/* PowerShell: '...' with ' doubled; it also takes the typographic single
 * quotes U+2018..U+201B as quote characters, so those are doubled too. */
static void q_pwsh(FILE *f, const char *v)
{
	fputc('\'', f);
	for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
		if (*c == '\'') {
			fputs("''", f);
		} else if (c[0] == 0xe2 && c[1] == 0x80 && c[2] >= 0x98 &&
			   c[2] <= 0x9b) {
			fwrite(c, 1, 3, f);
			fwrite(c, 1, 3, f);
			c += 2;
		} else {
			fputc(*c, f);
		}
	}
	fputc('\'', f);
}

/* cmd.exe has no quoting that stops %VAR% expansion: refuse what it would
 * change rather than print a line that does something else. Returns the
 * first such byte, 0 when v is safe. A tab stays literal in
 * set "A=a<TAB>b"; another control byte (a line break would start a
 * command) does not. */
static int cmd_unsafe(const char *v)
{
	for (const unsigned char *c = (const unsigned char *)v; *c; c++)
		if ((*c < 0x20 && *c != '\t') || *c == 0x7f || *c == '"' ||
		    *c == '%' || *c == '!' || *c == '^')
			return *c;
	return 0;
}

/* Why NAME's value cannot go to cmd.exe: the character, by name. */
static void cmd_why(const char *name, int c, char *buf, size_t cap)
{
	if (c == '\n' || c == '\r')
		gd_fmt(buf, cap, "%s holds a line break (0x%02x)", name, c);
	else if (c < 0x20 || c == 0x7f)
		gd_fmt(buf, cap, "%s holds the control character 0x%02x", name,
		       c);
	else
		gd_fmt(buf, cap,
		       "%s holds %c, which cmd.exe cannot take "
		       "literally",
		       name, c);
}

/* A Windows folder: "C:\\..." or "C:/..." (a profile for a Windows
 * machine; dir_valid() in doctor/profile.c takes these). */
static int win_dir(const char *v)
{
	return v && isalpha((unsigned char)v[0]) && v[1] == ':' &&
	       (v[2] == '\\' || v[2] == '/');
}

/* sh and fish on Windows are Git Bash or MSYS2: their PATH holds
 * "/c/Program Files/AMD/ROCm/6.2/bin" joined with ':' and is converted to
 * C:\\...;... when they start a Windows program (msys2.org/docs/
 * filesystem-paths); a "C:\\..." entry there would be cut at its ':'.
 * Returns the value to write (value itself, or buf), and *sep the list
 * separator: ':' for PATH and POSIX folders, ';' for another list of
 * Windows folders, which Windows programs read as is. */
static const char *msys_value(const struct gd_prof_item *it, char *buf,
			      size_t cap, char *sep)
{
	const char *v = it->value;
	size_t k = 0;

	*sep = ':';
	if (!win_dir(v))
		return v;
	if (strcasecmp(it->name, "PATH")) {
		*sep = ';';
		return v;
	}
	if (strlen(v) + 2 > cap)
		return v;
	buf[k++] = '/';
	buf[k++] = (char)tolower((unsigned char)v[0]);
	for (v += 2; *v; v++)
		buf[k++] = *v == '\\' ? '/' : *v;
	buf[k] = '\0';
	return buf;
}

static void line_sh(FILE *f, const struct gd_prof_item *it)
{
	char conv[GD_PROFILE_MAX_VALUE + 2], sep;

	switch (it->op) {
	case GD_PROF_SET:
		fprintf(f, "export %s=", it->name);
		q_sh(f, it->value);
		break;
	case GD_PROF_UNSET:
		fprintf(f, "unset %s", it->name);
		break;
	case GD_PROF_PREPEND:
		fprintf(f, "export %s=", it->name);
		q_sh(f, msys_value(it, conv, sizeof conv, &sep));
		fprintf(f, "\"${%s:+%c$%s}\"", it->name, sep, it->name);
		break;
	}
	fputc('\n', f);
}

static void line_fish(FILE *f, const struct gd_prof_item *it)
{
	char conv[GD_PROFILE_MAX_VALUE + 2], sep;
	const char *v = it->value;

	if (it->op == GD_PROF_PREPEND)
		v = msys_value(it, conv, sizeof conv, &sep);
	switch (it->op) {
	case GD_PROF_SET:
		fprintf(f, "set -gx %s ", it->name);
		q_fish(f, it->value);
		break;
	case GD_PROF_UNSET:
		fprintf(f, "set -e %s", it->name);
		break;
	case GD_PROF_PREPEND:
		/* "$X" joins a list (a *PATH variable) with ':' itself.
		 * fish's `set` keeps the previous status, so the else branch
		 * ends in `true` or a false test would leak out as status 1. */
		fprintf(f, "if test -n \"$%s\"; set -gx %s ", it->name,
			it->name);
		q_fish(f, v);
		fprintf(f, "%c\"$%s\"; else; set -gx %s ", sep, it->name,
			it->name);
		q_fish(f, v);
		fputs("; true; end", f);
		break;
	}
	fputc('\n', f);
}

static void line_pwsh(FILE *f, const struct gd_prof_item *it)
{
	switch (it->op) {
	case GD_PROF_SET:
		fprintf(f, "$env:%s = ", it->name);
		q_pwsh(f, it->value);
		break;
	case GD_PROF_UNSET:
		fprintf(f, "Remove-Item Env:%s -ErrorAction SilentlyContinue",
			it->name);
		break;
	case GD_PROF_PREPEND:
		fprintf(f, "$env:%s = if ($env:%s) { ", it->name, it->name);
		q_pwsh(f, it->value);
		fprintf(f, " + [IO.Path]::PathSeparator + $env:%s } else { ",
			it->name);
		q_pwsh(f, it->value);
		fputs(" }", f);
		break;
	}
	fputc('\n', f);
}

static void line_cmd(FILE *f, const struct gd_prof_item *it)
{
	switch (it->op) {
	case GD_PROF_SET:
		fprintf(f, "set \"%s=%s\"\n", it->name, it->value);
		break;
	case GD_PROF_UNSET:
		fprintf(f, "set \"%s=\"\n", it->name);
		break;
	case GD_PROF_PREPEND:
		/* Two lines, no ( ) block: a %PATH% holding "(x86)" would end
		 * the block early. */
		fprintf(f, "if defined %s set \"%s=%s;%%%s%%\"\n", it->name,
			it->name, it->value, it->name);
		fprintf(f, "if not defined %s set \"%s=%s\"\n", it->name,
			it->name, it->value);
		break;
	}
}

/* -1 (nothing printed, why in why) when a value cannot go to cmd.exe. */
static void line_any(FILE *f, enum shell sh, const struct gd_prof_item *it)
{
	if (sh == SH)
		line_sh(f, it);
	else if (sh == FISH)
		line_fish(f, it);
	else if (sh == PWSH)
		line_pwsh(f, it);
	else
		line_cmd(f, it);
}

static int print_lines(FILE *f, enum shell sh, const struct gd_pick *pk,
		       const char *desc, char *why, size_t whycap)
{
	const struct gd_profile *p = &pk->prof;
	const char *rem = sh == CMD ? "REM" : "#";
	char note[600], py[700];
	int c;

	for (size_t i = 0; sh == CMD && i < p->items.n; i++)
		if (p->items.v[i].value &&
		    (c = cmd_unsafe(p->items.v[i].value)) != 0) {
			cmd_why(p->items.v[i].name, c, why, whycap);
			return -1;
		}
	fprintf(f, "%s gpudoctor: %s\n", rem, desc);
	for (size_t i = 0; i < p->notes.n; i++) {
		gd_strlcpy(note, p->notes.v[i], sizeof note);
		gd_sanitize(note);
		fprintf(f, "%s note: %s\n", rem, note);
	}
	for (size_t i = 0; i < p->items.n; i++)
		line_any(f, sh, &p->items.v[i]);
	for (size_t i = 0; (sh == PWSH || sh == CMD) && i < p->items.n; i++) {
		if (p->items.v[i].op != GD_PROF_PREPEND)
			continue;
		gd_win_python_line(p->items.v[i].value, py, sizeof py);
		gd_sanitize(py);
		fprintf(f,
			"%s Python programs: import os; %s before importing "
			"the GPU package\n",
			rem, py);
	}
	return 0;
}

static int shell_parse(const char *s, enum shell *out)
{
	static const struct {
		const char *name;
		enum shell sh;
	} t[] = {{"sh", SH},	 {"bash", SH},	       {"zsh", SH},
		 {"dash", SH},	 {"ksh", SH},	       {"fish", FISH},
		 {"pwsh", PWSH}, {"powershell", PWSH}, {"cmd", CMD}};
	const char *base = strrchr(s, '/');

	base = base ? base + 1 : s;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(base, t[i].name)) {
			*out = t[i].sh;
			return 0;
		}
	return -1;
}

/* The lines a Python program runs first: import os, then one
 * os.add_dll_directory per directory the profile puts first. */
static json_t *python_json(const struct gd_pick *pk)
{
	json_t *a = json_array();
	char line[700];

	for (size_t i = 0; i < pk->prof.items.n; i++) {
		if (pk->prof.items.v[i].op != GD_PROF_PREPEND)
			continue;
		if (!json_array_size(a))
			json_array_append_new(a, gd_json_str("import os"));
		gd_win_python_line(pk->prof.items.v[i].value, line,
				   sizeof line);
		json_array_append_new(a, gd_wa_jstr(line));
	}
	return a;
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

/* No profile: the verdict's workaround is shown, commented out. run
 * applies only a tried (saved) or named profile, so env must not apply an
 * untested one either; the user still sees what the kb would set. */
static void print_untried(FILE *f, enum shell sh, struct gd_cli *cli)
{
	const char *rem = sh == CMD ? "REM" : "#";
	json_t *w = gd_wa_verdict_workaround_json(cli), *e, *dirs;
	struct gd_prof_item it;
	char val[GD_PROFILE_MAX_VALUE], note[600];
	size_t i;

	if (!json_is_object(w) || !json_array_size(json_object_get(w, "env")))
		goto out;
	fprintf(f,
		"%s not applied: this GPU's workaround from the knowledge "
		"base, not yet tried here ('gpudoctor try --save' tries it and "
		"saves it for run and env):\n",
		rem);
	json_array_foreach(json_object_get(w, "env"), i, e)
	{
		memset(&it, 0, sizeof it);
		it.op = GD_PROF_SET;
		gd_strlcpy(it.name, jstr(e, "name"), sizeof it.name);
		gd_strlcpy(val, jstr(e, "value"), sizeof val);
		gd_sanitize(it.name);
		gd_sanitize(val);
		it.value = val;
		fprintf(f, "%s   ", rem);
		line_any(f, sh, &it);
	}
	dirs = json_object_get(w, "path_prepend");
	json_array_foreach(dirs, i, e)
	{
		gd_strlcpy(note,
			   json_string_value(e) ? json_string_value(e) : "",
			   sizeof note);
		gd_sanitize(note);
		fprintf(f, "%s   and %s first on PATH\n", rem, note);
	}
	if (*jstr(w, "note")) {
		gd_strlcpy(note, jstr(w, "note"), sizeof note);
		gd_sanitize(note);
		fprintf(f, "%s   %s\n", rem, note);
	}
out:
	json_decref(w);
}

static json_t *env_json(struct gd_cli *cli, const struct gd_pick *pk,
			enum shell sh)
{
	static const char *names[] = {"sh", "fish", "powershell", "cmd"};
	json_t *doc = gd_cli_json_doc("env"), *dll = json_array();

	json_object_set_new(doc, "shell", gd_json_str(names[sh]));
	json_object_update_new(doc, gd_wa_pick_json(pk));
	for (size_t i = 0; i < pk->prof.items.n; i++)
		if (pk->prof.items.v[i].op == GD_PROF_PREPEND)
			json_array_append_new(
			    dll, gd_wa_jstr(pk->prof.items.v[i].value));
	json_object_set_new(doc, "dll_directories", dll);
	json_object_set_new(doc, "python", python_json(pk));
	/* with no profile, the verdict's workaround (docs/json.md) */
	json_object_set_new(doc, "workaround",
			    pk->origin == GD_PICK_NONE
				? gd_wa_verdict_workaround_json(cli)
				: json_null());
	return doc;
}

int gd_cmd_env(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt g;
	const char *profile = NULL, *shname = NULL;
	enum shell sh = SH;
	struct gd_machine m;
	struct gd_pick pk;
	char desc[1024], why[300];
	int c, rc = GD_EXIT_OK;

	gd_opts_build(&g, gd_opts_env, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		if (c == 'p')
			profile = optarg;
		else if (c == 's')
			shname = optarg;
		else if (c == 'h')
			return usage(stdout), GD_EXIT_OK;
		else
			return gd_cli_usage_error(cli, "env", "unknown option");
	}
	if (optind < argc)
		return gd_cli_usage_error(cli, "env", "unexpected '%s'",
					  argv[optind]);
	if (shname && shell_parse(shname, &sh) < 0)
		return gd_cli_usage_error(cli, "env", "unknown shell '%s'",
					  shname);
	/* a Windows machine without SHELL (not Git Bash, MSYS): PowerShell */
	if (!shname && gd_ctx_is_windows(&cli->ctx))
		sh = PWSH;
	if (!shname && gd_ctx_getenv(&cli->ctx, "SHELL"))
		shell_parse(gd_ctx_getenv(&cli->ctx, "SHELL"), &sh);
	if (gd_wa_pick(cli, "env", profile, &m, &pk) < 0) {
		rc = GD_EXIT_ERROR;
	} else if (cli->json) {
		gd_cli_emit_json(cli, env_json(cli, &pk, sh));
	} else {
		gd_wa_describe(&pk, desc, sizeof desc);
		if (print_lines(stdout, sh, &pk, desc, why, sizeof why) < 0)
			rc = gd_cli_error(
			    cli, "env: %s; use --shell powershell", why);
		else if (pk.origin == GD_PICK_NONE)
			print_untried(stdout, sh, cli);
	}
	gd_machine_free(&m);
	gd_pick_free(&pk);
	return rc;
}
