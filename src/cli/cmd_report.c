/* gpudoctor report: the check's findings as Markdown to paste into a bug
 * report (or --json, the same document as `check --json`). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/fs.h"
#include "core/plat.h"
#include "gd_version.h"
#include "report/check_data.h"
#include "report/render_gpu.h"
#include "report/render_inventory.h"
#include "report/render_verdict.h"
#include "report_fit.h"

const struct gd_opt gd_opts_report[] = {
    {"no-probe", 0, 'n', GD_ARG_NONE, NULL, "do not run the probes", NULL,
     NULL},
    {"output", 'o', 'o', GD_ARG_REQUIRED, "FILE",
     "write to FILE instead of standard output", NULL, NULL},
    {"redact", 0, 'r', GD_ARG_NONE, NULL,
     "replace user names in home directories, the host\nname and the kernel "
     "command line",
     NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(void)
{
	printf("Usage: gpudoctor report [OPTIONS]\n\n"
	       "Everything `gpudoctor check` finds, as Markdown to paste into "
	       "a bug\n"
	       "report or a forum post: verdicts, facts per GPU, the compute "
	       "stack,\n"
	       "and the full JSON in a collapsed block when the whole fits in "
	       "a\nGitHub issue (65,536 characters; identical GPUs are shown "
	       "once).\n"
	       "What it reveals (paths with user names, the kernel command "
	       "line,\nthe host name) is named at its top; --redact replaces "
	       "it.\n\n"
	       "Options:\n");
	gd_opts_help(stdout, gd_opts_report);
	printf("\n");
	gd_cli_common_help(stdout);
}

/* Plain text blocks (facts, stack) go into fenced code blocks, without
 * colour, so they paste unchanged. */
static void fenced_begin(FILE *f, const char *lang)
{
	fprintf(f, "```%s\n", lang);
}

/* What a stream wrote, as a string (NULL when out of memory). */
static char *mem_done(gd_memstream *ms)
{
	char *buf = NULL;
	size_t len = 0;

	return gd_plat_memstream_close(ms, &buf, &len) == 0 ? buf : NULL;
}

/* One GPU's section: its verdict, then its facts. */
static char *gpu_section(struct gd_cli *cli, const struct gd_check_data *d,
			 size_t i)
{
	gd_memstream ms;
	FILE *f = gd_plat_memstream_open(&ms);

	if (!f)
		return NULL;
	gd_render_verdict_md(f, &d->diag.v[i]);
	fenced_begin(f, "text");
	gd_render_gpu_text(cli, f, &d->m.gpus[i], 1);
	fprintf(f, "```\n\n");
	return mem_done(&ms);
}

/* A group of identical GPUs: the first one's section, its heading saying
 * how many, then what tells them apart. */
static void group_out(FILE *f, const struct gd_check_data *d, const char *sec,
		      const size_t *member, size_t n)
{
	const char *h = strncmp(sec, "### ", 4) ? NULL : sec + 4;

	if (h)
		fprintf(f, "### %zu\xc3\x97 %s", n, h);
	else
		fputs(sec, f);
	fprintf(f,
		"These %zu GPUs have the same verdict and facts but for "
		"their addresses:\n\n| GPU | PCI | UUID |\n|---|---|---|\n",
		n);
	for (size_t k = 0; k < n; k++) {
		const struct gd_gpu *g = &d->m.gpus[member[k]];

		fprintf(f, "| %zu | %s | %s |\n", member[k], g->pci.bdf,
			gd_known(&g->nv.uuid) ? g->nv.uuid.v : "");
	}
	fprintf(f, "\n");
}

/* The verdicts, identical GPUs (same verdict and facts but for addresses)
 * as one section: a 16-GPU machine's report stays readable and fits. */
static void verdicts_md(struct gd_cli *cli, FILE *f,
			const struct gd_check_data *d)
{
	size_t n = d->m.n_gpus ? d->diag.n : 0;
	char **sec = calloc(n + 1, sizeof *sec),
	     **key = calloc(n + 1, sizeof *key);
	size_t *member = calloc(n + 1, sizeof *member);

	for (size_t i = 0; i < d->diag.n && !n; i++)
		gd_render_verdict_md(f, &d->diag.v[i]);
	for (size_t i = 0; sec && key && member && i < n; i++) {
		sec[i] = gpu_section(cli, d, i);
		key[i] = sec[i] ? gd_report_group_key(sec[i]) : NULL;
	}
	for (size_t i = 0; sec && key && member && i < n; i++) {
		size_t m = 0;

		if (!sec[i] || !key[i])
			continue; /* out of memory, or shown in a group */
		for (size_t k = i; k < n; k++)
			if (key[k] && !strcmp(key[i], key[k]))
				member[m++] = k;
		if (m == 1)
			fputs(sec[i], f);
		else
			group_out(f, d, sec[i], member, m);
		for (size_t k = 1; k < m; k++) {
			free(key[member[k]]);
			key[member[k]] = NULL;
		}
	}
	for (size_t i = 0; sec && key && i < n; i++)
		free(sec[i]), free(key[i]);
	free(sec), free(key), free(member);
}

static void head_md(struct gd_cli *cli, FILE *f, const struct gd_check_data *d,
		    int redact)
{
	const struct gd_kernel_info *k = &d->m.kernel;
	char date[32] = "";
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(f, "# gpudoctor report\n\n");
	if (!redact)
		fprintf(f,
			"> Before you post it: this report shows the kernel "
			"version and command line, paths read on this machine "
			"(home directories with the user name, e.g. Python "
			"environments) and, where files hold it, the host "
			"name. `gpudoctor report --redact` replaces them.\n\n");
	else
		fprintf(f, "> Redacted: user names in home directories, the "
			   "host name and the kernel command line.\n\n");
	fprintf(f, "- gpudoctor %s, %s\n", GD_VERSION_FULL, date);
	fprintf(f, "- platform: %s\n", cli->ctx.platform);
	if (gd_known(&k->release))
		fprintf(f, "- kernel: %s\n", k->release.v);
	if (!cli->ctx.fs.is_slash)
		fprintf(f, "- captured machine replayed from `%s`\n",
			cli->ctx.fs.root);
}

static char *body_md(struct gd_cli *cli, const struct gd_check_data *d,
		     int redact)
{
	gd_memstream ms;
	FILE *f = gd_plat_memstream_open(&ms);
	char *s;

	if (!f)
		return NULL;
	head_md(cli, f, d, redact);
	fprintf(f, "\n## Verdicts\n\n");
	verdicts_md(cli, f, d);
	fprintf(f, "## Compute stack\n\n");
	fenced_begin(f, "text");
	gd_check_stack_text(cli, f, d);
	fprintf(f, "```\n\n");
	s = mem_done(&ms);
	if (s)
		gd_report_drop_internal_sources(s);
	return s;
}

/* Whether a source can be opened by the reader: an address, or a
 * document of the repository (docs/...). */
static int source_resolves(json_t *src)
{
	const char *title = json_string_value(json_object_get(src, "title"));

	return json_is_string(json_object_get(src, "url")) ||
	       (title && strstr(title, "docs/"));
}

/* Every "sources" array in doc without the entries a reader cannot open
 * (internal notes), as in the Markdown lists. */
static void drop_internal_sources_json(json_t *doc)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_array(doc)) {
		json_array_foreach(doc, i, v) drop_internal_sources_json(v);
		return;
	}
	json_object_foreach(doc, k, v)
	{
		if (!strcmp(k, "sources") && json_is_array(v)) {
			for (i = json_array_size(v); i-- > 0;)
				if (!source_resolves(json_array_get(v, i)))
					json_array_remove(v, i);
		} else {
			drop_internal_sources_json(v);
		}
	}
}

static char *json_md(struct gd_cli *cli, const struct gd_check_data *d)
{
	json_t *doc = gd_check_json(cli, d);
	char *j, *s = NULL;
	size_t n;

	drop_internal_sources_json(doc);
	j = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				JSON_ENSURE_ASCII);
	n = j ? strlen(j) + 128 : 0;
	if (j && (s = malloc(n)))
		snprintf(s, n,
			 "<details><summary>gpudoctor check --json</summary>"
			 "\n\n```json\n%s\n```\n\n</details>\n\n",
			 j);
	free(j);
	json_decref(doc);
	return s;
}

static char *diags_md(struct gd_cli *cli)
{
	gd_memstream ms;
	FILE *f = gd_plat_memstream_open(&ms);

	if (!f)
		return NULL;
	if (cli->ctx.diags.n) {
		fprintf(f, "## Diagnostics\n\n");
		for (size_t i = 0; i < cli->ctx.diags.n; i++)
			fprintf(f, "- %s: %s\n", cli->ctx.diags.v[i].source,
				cli->ctx.diags.v[i].msg);
		fprintf(f, "\n");
	}
	return mem_done(&ms);
}

/* The report; the JSON only when the whole fits in an issue (else a line
 * says how to attach it). */
static char *report_md(struct gd_cli *cli, const struct gd_check_data *d,
		       int redact)
{
	int saved = cli->color;
	char *body, *json, *diags, *out = NULL;
	size_t nb, nj, nd;
	static const char no_json[] =
	    "The full JSON (`gpudoctor report --json > gpudoctor.json`) would "
	    "take this report over a GitHub issue's 65,536 characters: attach "
	    "that file instead.\n\n";

	cli->color = 0;
	body = body_md(cli, d, redact);
	json = json_md(cli, d);
	diags = diags_md(cli);
	cli->color = saved;
	if (!body || !json || !diags)
		goto done;
	nb = strlen(body), nj = strlen(json), nd = strlen(diags);
	/* 2,000 characters of room for what --redact may lengthen */
	if (nb + nj + nd + 2000 > GD_REPORT_MAX) {
		free(json);
		json = strdup(no_json);
		nj = json ? strlen(json) : 0;
	}
	if (json && (out = malloc(nb + nj + nd + 1)))
		snprintf(out, nb + nj + nd + 1, "%s%s%s", body, json, diags);
done:
	free(body), free(json), free(diags);
	return out;
}

/* The machine's host name, for --redact ("" when no file tells it). */
static void host_name(struct gd_cli *cli, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (gd_fs_read_line(&cli->ctx.fs, "/proc/sys/kernel/hostname", buf,
			    cap) < 0 ||
	    !buf[0])
		if (gd_fs_read_line(&cli->ctx.fs, "/etc/hostname", buf, cap) <
		    0)
			buf[0] = '\0';
}

int gd_cmd_report(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt g;
	struct gd_check_opts o = {1, 10.0, NULL};
	struct gd_check_data d;
	const char *out = NULL;
	char host[256], *text;
	FILE *f = stdout;
	int c, rc, redact = 0;

	gd_opts_build(&g, gd_opts_report, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		if (c == 'h') {
			help();
			return GD_EXIT_OK;
		} else if (c == 'n') {
			o.probes = 0;
		} else if (c == 'o') {
			out = optarg;
		} else if (c == 'r') {
			redact = 1;
		} else {
			return gd_cli_usage_error(cli, "report",
						  "unknown option");
		}
	}
	if (optind < argc)
		return gd_cli_usage_error(
		    cli, "report", "unexpected argument '%s'", argv[optind]);
	if (cli->json && redact)
		return gd_cli_usage_error(cli, "report",
					  "--redact is for the Markdown report "
					  "(not --json)");
	if (cli->json) {
		/* the report bundle is the check document */
		char *av[] = {"check", o.probes ? NULL : "--no-probe", NULL};

		return gd_cmd_check(cli, o.probes ? 1 : 2, av);
	}
	if (out && !(f = fopen(out, "w")))
		return gd_cli_error(cli, "cannot write %s", out);
	if (gd_cli_check_collect(cli, &o, &d) < 0) {
		gd_check_free(&d);
		if (out)
			fclose(f);
		return gd_cli_error(cli, "out of memory");
	}
	text = report_md(cli, &d, redact);
	if (text && redact) {
		host_name(cli, host, sizeof host);
		text = gd_report_redact(text, host);
	}
	if (text)
		fputs(text, f);
	free(text);
	rc = text ? gd_check_exit_code(&d) : gd_cli_error(cli, "out of memory");
	gd_check_free(&d);
	if (out && fclose(f) != 0)
		return gd_cli_error(cli, "writing %s failed", out);
	return rc;
}
