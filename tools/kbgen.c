/* kbgen: build-time generator of the embedded knowledge base.
 *
 *   kbgen IN.json OUT.c
 *
 * Refuses (exit 1, "FILE:LINE: why" on stderr) a file that the runtime
 * would refuse from --kb: it runs the same gd_kb_parse_root (src/kb/
 * kb_parse.c + kb_validate.c are compiled in). Otherwise writes OUT.c with
 * the document re-serialised compact (it parses faster) and the index of
 * src/kb/kb_internal.h: where each target, NVIDIA GPU, compute capability,
 * source, issue, strategy, signature and top-level member sits in that
 * text, so gpudoctor parses only the entries a command asks for.
 *
 * Each entry's text is its own compact dump, found in the compact
 * document by memmem: the dump of a nested value is the same bytes as in
 * its parent's dump, and any occurrence of those bytes parses to the same
 * value. Every span is parsed back and compared before it is written. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem; the build passes -D_GNU_SOURCE already */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "kb/kb_internal.h"

#define DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY)

struct gen {
	const char *src; /* the JSON's path, for messages */
	char *text;	 /* the compact document */
	size_t len;
	FILE *out;
	unsigned nslots;
};

static void die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("kbgen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		die("%s: %s", path, strerror(errno));
	buf = malloc(GD_KB_MAX_BYTES + 1);
	if (!buf)
		die("out of memory");
	*len = fread(buf, 1, GD_KB_MAX_BYTES + 1, f);
	if (ferror(f))
		die("%s: read error", path);
	fclose(f);
	return buf;
}

/* Where v's compact text sits in the document. */
static void locate(const struct gen *g, const json_t *v, unsigned *off,
		   unsigned *len)
{
	char *s = json_dumps(v, DUMP_FLAGS);
	const char *at;
	json_t *back;
	size_t n;

	if (!s)
		die("out of memory");
	n = strlen(s);
	at = memmem(g->text, g->len, s, n);
	if (!at)
		die("%s: an entry's compact text is not in the compact "
		    "document (jansson changed its output?)",
		    g->src);
	back = json_loadb(at, n, JSON_DECODE_ANY, NULL);
	if (!back || !json_equal(back, v))
		die("%s: an entry does not parse back equal to itself", g->src);
	json_decref(back);
	free(s);
	*off = (unsigned)(at - g->text);
	*len = (unsigned)n;
}

/* A C string literal. Only plain characters pass through; '?' is escaped
 * too, since -std=c11 turns "??)" into a trigraph. */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr(" _.,:;/+-=()[]{}", c))
			fputc(c, f);
		else
			fprintf(f, "\\%03o", c);
	}
	fputc('"', f);
}

static void put_text(struct gen *g)
{
	fprintf(g->out, "static const unsigned char text[] = {");
	for (size_t i = 0; i < g->len; i++)
		fprintf(g->out, "%s0x%02x,", i % 16 ? "" : "\n\t",
			(unsigned char)g->text[i]);
	fprintf(g->out, "\n\t0x00\n};\n\n");
}

/* "0x731f" -> 0x731f, as gd_kb_target_for_pci reads it; -1 if not. */
static long pci_of(const json_t *s)
{
	uint32_t v;

	if (!json_string_value(s) ||
	    gd_parse_u32(json_string_value(s), 16, &v) < 0)
		return -1;
	return (long)v;
}

/* One array of PCI ids per target: every products[].pci_ids in order. */
static unsigned put_target_pci(struct gen *g, const json_t *t, size_t i)
{
	const json_t *p, *id;
	size_t j, k;
	unsigned n = 0;

	json_array_foreach(json_object_get(t, "products"), j, p)
	    json_array_foreach(json_object_get(p, "pci_ids"), k, id)
	{
		if (pci_of(id) < 0)
			continue;
		if (!n++)
			fprintf(g->out,
				"static const unsigned pci_%zu[] "
				"= {",
				i);
		fprintf(g->out, "0x%04lx,", (unsigned long)pci_of(id));
	}
	if (n)
		fprintf(g->out, "};\n");
	return n;
}

static size_t put_targets(struct gen *g, const json_t *targets)
{
	unsigned *npci = calloc(json_array_size(targets) + 1, sizeof *npci);
	const json_t *t, *ver, *apu;
	unsigned off, len;
	size_t i;

	if (!npci)
		die("out of memory");
	json_array_foreach(targets, i, t) npci[i] = put_target_pci(g, t, i);
	if (!json_array_size(targets)) {
		free(npci);
		return 0;
	}
	fprintf(g->out,
		"\nstatic const struct gd_kb_ix_target targets[] = {\n");
	json_array_foreach(targets, i, t)
	{
		ver = json_object_get(t, "gfx_target_version");
		apu = json_object_get(t, "apu");
		locate(g, t, &off, &len);
		fprintf(g->out, "\t{");
		put_str(g->out, json_string_value(json_object_get(t, "gfx")));
		fprintf(g->out, ", %lld, ",
			json_is_integer(ver)
			    ? (long long)json_integer_value(ver)
			    : -1LL);
		if (npci[i])
			fprintf(g->out, "pci_%zu, %u, ", i, npci[i]);
		else
			fprintf(g->out, "NULL, 0, ");
		fprintf(g->out, "%d, %u, %u, %u},\n",
			json_is_boolean(apu) ? json_is_true(apu) : -1, off, len,
			g->nslots++);
	}
	fprintf(g->out, "};\n\n");
	free(npci);
	return json_array_size(targets);
}

static size_t put_gpus(struct gen *g, const json_t *gpus)
{
	const json_t *o;
	unsigned off, len;
	size_t i, n = 0;

	json_array_foreach(gpus, i, o)
	{
		long pci = pci_of(json_object_get(o, "pci_id"));

		if (pci < 0)
			continue; /* never found by a lookup either */
		if (!n++)
			fprintf(g->out, "static const struct gd_kb_ix_gpu "
					"gpus[] = {\n");
		locate(g, o, &off, &len);
		fprintf(g->out, "\t{0x%04lx, %u, %u, %u},\n",
			(unsigned long)pci, off, len, g->nslots++);
	}
	if (n)
		fprintf(g->out, "};\n\n");
	return n;
}

static void put_named(struct gen *g, const char *name, const char *key,
		      const json_t *v, size_t *n)
{
	unsigned off, len;

	if (!key)
		return; /* validation refuses this; lookups would miss it */
	if (!(*n)++)
		fprintf(g->out, "static const struct gd_kb_ix_named %s[] = {\n",
			name);
	locate(g, v, &off, &len);
	fprintf(g->out, "\t{");
	put_str(g->out, key);
	fprintf(g->out, ", %u, %u, %u},\n", off, len, g->nslots++);
}

/* An object's members by key, or an array's entries by member "by". */
static size_t put_list(struct gen *g, const char *name, const json_t *o,
		       const char *by)
{
	const char *k;
	json_t *v;
	size_t i, n = 0;

	if (by) {
		json_array_foreach(o, i, v) put_named(
		    g, name, json_string_value(json_object_get(v, by)), v, &n);
	} else {
		json_object_foreach((json_t *)o, k, v)
		    put_named(g, name, k, v, &n);
	}
	if (n)
		fprintf(g->out, "};\n\n");
	return n;
}

static void put_index(struct gen *g, const json_t *root)
{
	static const char *const names[GD_KB_IX_NLISTS] = {
	    "top", "sources", "issues", "strategies", "signatures", "ccs"};
	const json_t *nv = json_object_get(root, "nvidia");
	size_t nt, ng, n[GD_KB_IX_NLISTS];

	nt = put_targets(g, json_object_get(root, "targets"));
	ng = put_gpus(g, json_object_get(nv, "gpus"));
	n[GD_KB_IX_TOP] = put_list(g, "top", root, NULL);
	n[GD_KB_IX_SOURCES] =
	    put_list(g, "sources", json_object_get(root, "sources"), NULL);
	n[GD_KB_IX_ISSUES] =
	    put_list(g, "issues", json_object_get(root, "issues"), "id");
	n[GD_KB_IX_STRATEGIES] = put_list(
	    g, "strategies", json_object_get(root, "strategies"), "id");
	n[GD_KB_IX_SIGNATURES] = put_list(
	    g, "signatures", json_object_get(root, "signatures"), "id");
	n[GD_KB_IX_CCS] = put_list(
	    g, "ccs", json_object_get(nv, "compute_capabilities"), "sm");
	fprintf(g->out,
		"const struct gd_kb_index gd_kb_embedded_index = {\n"
		"\ttext, %zu,\n\t%s, %zu,\n\t%s, %zu,\n\t{",
		g->len, nt ? "targets" : "NULL", nt, ng ? "gpus" : "NULL", ng);
	for (int i = 0; i < GD_KB_IX_NLISTS; i++)
		fprintf(g->out, "%s%s", i ? ", " : "",
			n[i] ? names[i] : "NULL");
	fprintf(g->out, "},\n\t{");
	for (int i = 0; i < GD_KB_IX_NLISTS; i++)
		fprintf(g->out, "%s%zu", i ? ", " : "", n[i]);
	fprintf(g->out, "},\n\t%u,\n};\n", g->nslots);
}

int main(int argc, char **argv)
{
	struct gen g = {.src = argc > 1 ? argv[1] : NULL};
	char err[512], tmp[4096];
	size_t len;
	char *buf;
	json_t *root, *back;

	if (argc != 3)
		die("usage: kbgen IN.json OUT.c");
	buf = slurp(g.src, &len);
	root = gd_kb_parse_root(buf, len, g.src, err, sizeof err);
	if (!root)
		die("%s\nkbgen: refusing to embed a knowledge base that "
		    "gpudoctor would refuse (schema: docs/kb.md)",
		    err);
	free(buf);
	g.text = json_dumps(root, DUMP_FLAGS);
	if (!g.text)
		die("out of memory");
	g.len = strlen(g.text);
	back = json_loadb(g.text, g.len, JSON_REJECT_DUPLICATES, NULL);
	if (!back || !json_equal(back, root))
		die("%s: the compact form does not parse back equal", g.src);
	json_decref(back);
	gd_fmt(tmp, sizeof tmp, "%s.tmp", argv[2]);
	g.out = fopen(tmp, "w");
	if (!g.out)
		die("%s: %s", tmp, strerror(errno));
	fprintf(g.out,
		"/* Generated by tools/kbgen.c from %s. Do not edit. "
		"*/\n#include <stddef.h>\n\n#include \"kb/kb_internal.h\"\n\n",
		"src/kb/gpudoctor-kb.json");
	put_text(&g);
	put_index(&g, root);
	if (ferror(g.out))
		die("%s: write error", tmp);
	if (fclose(g.out) || rename(tmp, argv[2]) < 0) {
		remove(tmp);
		die("%s: could not write it", argv[2]);
	}
	json_decref(root);
	free(g.text);
	return 0;
}
