#include "render_verdict.h"
#include "core/json.h"

#include <string.h>

/* [{"code": "rocblas.no_kernels", "text": "..."}]: codes are stable
 * (doctor/codes.h, docs/codes.md), texts may change. */
static json_t *lines_json(const gd_lines *l)
{
	json_t *a = json_array();

	for (size_t i = 0; i < l->n; i++)
		json_array_append_new(
		    a, json_pack("{s:o, s:o}", "code",
				 gd_json_str(gd_code_name(l->v[i].code)),
				 "text", gd_json_str(l->v[i].text)));
	return a;
}

static json_t *sources_json(const struct gd_verdict *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->sources.n; i++) {
		const struct gd_verdict_source *s = &v->sources.v[i];

		json_array_append_new(
		    a, json_pack("{s:o, s:o, s:o}", "id", gd_json_str(s->id),
				 "title", gd_json_str_or_null(s->title), "url",
				 gd_json_str_or_null(s->url)));
	}
	return a;
}

/* "title — url", the id when the kb gives no title. */
static void source_line(FILE *f, const struct gd_verdict_source *s)
{
	fprintf(f, "%s%s%s\n", s->title[0] ? s->title : s->id,
		s->url[0] ? " — " : "", s->url);
}

json_t *gd_render_verdict_json(const struct gd_verdict *v)
{
	json_t *o = json_object();
	json_t *wl = json_array();

	json_object_set_new(o, "status",
			    gd_json_str(gd_verdict_status_name(v->status)));
	json_object_set_new(o, "headline", gd_json_str(v->headline));
	json_object_set_new(o, "facts", lines_json(&v->facts));
	json_object_set_new(o, "steps", lines_json(&v->steps));
	for (size_t i = 0; i < v->workloads.n; i++) {
		const struct gd_workload_advice *w = &v->workloads.v[i];

		json_array_append_new(
		    wl, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "code",
				  gd_json_str(gd_code_name(w->code)),
				  "workload", gd_json_str(w->workload),
				  "verdict", gd_json_str(w->verdict), "backend",
				  gd_json_str(w->backend), "text",
				  gd_json_str(w->text), "install",
				  gd_json_str(w->install)));
	}
	json_object_set_new(o, "workloads", wl);
	json_object_set_new(o, "sources", sources_json(v));
	return o;
}

static const char *status_color(struct gd_cli *cli, enum gd_verdict_status s)
{
	switch (s) {
	case GD_V_WORKS:
		return gd_c_green(cli);
	case GD_V_SETUP:
	case GD_V_WORKAROUND:
		return gd_c_yellow(cli);
	case GD_V_UNSUPPORTED:
		return gd_c_red(cli);
	default:
		return "";
	}
}

static const char *wl_name(const char *w)
{
	if (!strcmp(w, "ctranslate2"))
		return "CTranslate2 / faster-whisper";
	if (!strcmp(w, "pytorch"))
		return "PyTorch";
	return w;
}

void gd_render_workloads_text(struct gd_cli *cli, FILE *f,
			      const struct gd_verdict *v)
{
	if (v->workloads.n)
		fprintf(f, "  %sworkloads%s\n", gd_c_bold(cli), gd_c_off(cli));
	for (size_t i = 0; i < v->workloads.n; i++) {
		const struct gd_workload_advice *w = &v->workloads.v[i];

		fprintf(f, "    %s (%s%s%s): %s\n", wl_name(w->workload),
			w->verdict, w->backend[0] ? ", " : "", w->backend,
			w->text);
		if (w->install[0])
			fprintf(f, "      install: %s\n", w->install);
	}
}

void gd_render_verdict_text(struct gd_cli *cli, FILE *f,
			    const struct gd_verdict *v)
{
	fprintf(f, "%s%s%s%s\n", gd_c_bold(cli), status_color(cli, v->status),
		v->headline, gd_c_off(cli));
	fprintf(f, "  verdict: %s%s%s\n", status_color(cli, v->status),
		gd_verdict_status_name(v->status), gd_c_off(cli));
	if (v->facts.n)
		fprintf(f, "  %sfacts%s\n", gd_c_bold(cli), gd_c_off(cli));
	for (size_t i = 0; i < v->facts.n; i++)
		fprintf(f, "    - %s\n", v->facts.v[i].text);
	gd_render_workloads_text(cli, f, v);
	if (v->steps.n)
		fprintf(f, "  %snext steps%s\n", gd_c_bold(cli), gd_c_off(cli));
	for (size_t i = 0; i < v->steps.n; i++)
		fprintf(f, "    %zu. %s\n", i + 1, v->steps.v[i].text);
}

void gd_render_sources_text(struct gd_cli *cli, FILE *f,
			    const struct gd_verdict *v)
{
	if (!v->sources.n)
		return;
	fprintf(f, "  %ssources%s\n", gd_c_dim(cli), gd_c_off(cli));
	for (size_t i = 0; i < v->sources.n; i++) {
		fprintf(f, "    [%zu] ", i + 1);
		source_line(f, &v->sources.v[i]);
	}
}

void gd_render_verdict_md(FILE *f, const struct gd_verdict *v)
{
	fprintf(f, "### %s\n\n**Verdict:** `%s`\n\n", v->headline,
		gd_verdict_status_name(v->status));
	for (size_t i = 0; i < v->facts.n; i++)
		fprintf(f, "- %s\n", v->facts.v[i].text);
	if (v->workloads.n)
		fprintf(
		    f, "\n| workload | verdict | backend | advice | install |\n"
		       "|---|---|---|---|---|\n");
	for (size_t i = 0; i < v->workloads.n; i++) {
		const struct gd_workload_advice *w = &v->workloads.v[i];

		fprintf(f, "| %s | %s | %s | %s | %s%s%s |\n",
			wl_name(w->workload), w->verdict, w->backend, w->text,
			w->install[0] ? "`" : "", w->install,
			w->install[0] ? "`" : "");
	}
	if (v->steps.n)
		fprintf(f, "\n**Next steps**\n\n");
	for (size_t i = 0; i < v->steps.n; i++)
		fprintf(f, "%zu. %s\n", i + 1, v->steps.v[i].text);
	if (v->sources.n)
		fprintf(f, "\nSources:\n");
	for (size_t i = 0; i < v->sources.n; i++) {
		fprintf(f, "%zu. ", i + 1);
		source_line(f, &v->sources.v[i]);
	}
	fprintf(f, "\n");
}
