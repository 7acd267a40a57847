/* What every renderer shares: the JSON envelope, diagnostics, terminal-safe
 * text and colour. Moved from cli/cli_util.c so the C API renders the same
 * bytes as the command line. */
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/util.h"
#include "view.h"

/* The envelope. "$schema" names the JSON Schema (2020-12) of this command's
 * document, docs/schema/<command>.json, by its "$id"; v1 follows
 * schema_version. */
json_t *gd_cli_json_doc(const char *command)
{
	json_t *o = json_object();
	char id[128];

	gd_fmt(id, sizeof id, "%s%s.json", GD_JSON_SCHEMA_BASE, command);
	json_object_set_new(o, "$schema", gd_json_str(id));
	json_object_set_new(o, "schema_version",
			    json_integer(GD_JSON_SCHEMA_VERSION));
	json_object_set_new(o, "command", gd_json_str(command));
	json_object_set_new(o, "gpudoctor_version", gd_json_str(GD_VERSION));
	return o;
}

void gd_cli_json_finish(const struct gd_cli *cli, json_t *root)
{
	/* The system judged, on every envelope: the same schema serves
	 * Linux and Windows (a Windows capture replayed on Linux says
	 * "windows"). */
	if (cli->ctx.platform && json_object_get(root, "schema_version") &&
	    !json_object_get(root, "platform"))
		json_object_set_new(root, "platform",
				    gd_json_str(cli->ctx.platform));
}

char *gd_cli_json_text(const struct gd_cli *cli, json_t *root)
{
	char *s, *out = NULL;
	size_t n;

	gd_cli_json_finish(cli, root);
	s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				 JSON_ENSURE_ASCII);
	json_decref(root);
	if (!s)
		return NULL;
	n = strlen(s);
	out = realloc(s, n + 2);
	if (!out) {
		free(s);
		return NULL;
	}
	memcpy(out + n, "\n", 2);
	return out;
}

/* Bytes from files and file names, made safe for a terminal: valid UTF-8
 * (bad bytes as U+FFFD), C0 controls, DEL and C1 controls (U+0080-U+009F,
 * which some terminals obey as CSI) as '?'. Text that does not fit cap
 * ends in "..." (never cut silently). */
const char *gd_cli_term(char *buf, size_t cap, const char *s)
{
	unsigned char *p;
	size_t o;

	s = s ? s : "";
	o = gd_utf8_mend(buf, cap, s);
	if (gd_utf8_mend_len(s) > o)
		gd_mark_cut(buf, cap);
	for (p = (unsigned char *)buf; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			*p = '?';
		} else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			memmove(p + 1, p + 2, strlen((char *)p + 2) + 1);
			*p = '?';
		}
	}
	return buf;
}

/* One name per level, in text and in JSON (enum gd_diag_level). */
static const char *const diag_level[] = {"info", "warning", "error"};

void gd_cli_print_diags(const struct gd_cli *cli, FILE *f)
{
	const char *const *lv = diag_level;

	for (size_t i = 0; i < cli->ctx.diags.n; i++) {
		const gd_diag *d = &cli->ctx.diags.v[i];

		fprintf(f, "gpudoctor: %s: %s%s%s\n", lv[d->level], d->source,
			d->source[0] ? ": " : "", d->msg);
	}
}

json_t *gd_cli_diags_json(const struct gd_cli *cli)
{
	const char *const *lv = diag_level;
	json_t *a = json_array();

	for (size_t i = 0; i < cli->ctx.diags.n; i++) {
		const gd_diag *g = &cli->ctx.diags.v[i];

		json_array_append_new(
		    a, json_pack("{s:s, s:o, s:o}", "level", lv[g->level],
				 "source", gd_json_str(g->source), "message",
				 gd_json_str(g->msg)));
	}
	return a;
}

#define COLOR(fn, code)                                                        \
	const char *fn(const struct gd_cli *cli)                               \
	{                                                                      \
		return cli->color ? code : "";                                 \
	}
COLOR(gd_c_bold, "\033[1m")
COLOR(gd_c_red, "\033[31m")
COLOR(gd_c_green, "\033[32m")
COLOR(gd_c_yellow, "\033[33m")
COLOR(gd_c_dim, "\033[2m")
COLOR(gd_c_off, "\033[0m")
