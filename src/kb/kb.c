/* kb/: load the knowledge base (embedded copy or a user's file) and look
 * things up in it. A user's file is parsed and validated at load; the
 * embedded copy is parsed piece by piece through the build-time index
 * (kb_internal.h), so `gpudoctor list` parses three small objects instead
 * of 160 KB. Lookups are linear scans over a few dozen entries. Both paths
 * give the same answers (tests/unit/test_kb_lazy.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "kb_internal.h"
#include "kb_raw.h"

struct gd_kb {
	json_t *root; /* a file's: parsed at load; embedded: on first use */
	const struct gd_kb_index *ix; /* embedded only: see kb_internal.h */
	json_t **slot;		      /* ix->nslots entries, parsed on use */
	char origin[512];
};

gd_kb *gd_kb_parse(const char *buf, size_t len, const char *name, char *err,
		   size_t errlen)
{
	json_t *root = gd_kb_parse_root(buf, len, name, err, errlen);
	gd_kb *kb;

	if (!root)
		return NULL;
	kb = calloc(1, sizeof *kb);
	if (!kb) {
		json_decref(root);
		if (err)
			gd_fmt(err, errlen, "%s: out of memory",
			       name ? name : "(kb)");
		return NULL;
	}
	kb->root = root;
	gd_strlcpy(kb->origin, name ? name : "(kb)", sizeof kb->origin);
	return kb;
}

FILE *gd_kb_fopen(const char *path)
{
	struct stat st;
	FILE *f;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = ENODEV;
		return NULL;
	}
	fcntl(fd, F_SETFL, 0);
	f = fdopen(fd, "rb");
	if (!f)
		close(fd);
	return f;
}

/* A user's file (--kb FILE): their file, not a machine path, so plain
 * stdio rather than ctx->fs. Reads at most the cap + 1 to detect "huge". */
gd_kb *gd_kb_load_file(const char *path, char *err, size_t errlen)
{
	FILE *f;
	char *buf;
	size_t n;
	gd_kb *kb;

	if (!err)
		errlen = 0;
	if (!path) {
		gd_fmt(err, errlen, "(kb): no file name");
		return NULL;
	}
	f = gd_kb_fopen(path);
	if (!f) {
		gd_fmt(err, errlen, "%s: %s", path,
		       errno == ENODEV ? "not a regular file"
				       : strerror(errno));
		return NULL;
	}
	buf = malloc(GD_KB_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		gd_fmt(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	n = fread(buf, 1, GD_KB_MAX_BYTES + 1, f);
	if (ferror(f)) {
		gd_fmt(err, errlen, "%s: %s", path,
		       strerror(errno ? errno : EIO));
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	kb = gd_kb_parse(buf, n, path, err, errlen);
	free(buf);
	return kb;
}

gd_kb *gd_kb_wrap(json_t *root)
{
	gd_kb *kb = calloc(1, sizeof *kb);

	if (!kb) {
		json_decref(root);
		return NULL;
	}
	kb->root = root;
	gd_strlcpy(kb->origin, "(unvalidated)", sizeof kb->origin);
	return kb;
}

/* Nothing is parsed here: tools/kbgen.c validated the shipped file at
 * build time, and lookups parse only what they return. Fails only when
 * memory runs out. */
gd_kb *gd_kb_load_embedded(void)
{
	const struct gd_kb_index *ix = &gd_kb_embedded_index;
	gd_kb *kb = calloc(1, sizeof *kb);

	if (!kb)
		return NULL;
	kb->ix = ix;
	kb->slot = calloc(ix->nslots ? ix->nslots : 1, sizeof *kb->slot);
	if (!kb->slot) {
		free(kb);
		return NULL;
	}
	gd_strlcpy(kb->origin, "embedded", sizeof kb->origin);
	return kb;
}

void gd_kb_free(gd_kb *kb)
{
	if (!kb)
		return;
	for (unsigned i = 0; kb->ix && i < kb->ix->nslots; i++)
		json_decref(kb->slot[i]);
	free(kb->slot);
	json_decref(kb->root);
	free(kb);
}

/* Readers hold a const kb; the embedded one still fills its caches on
 * first use. The object itself is never const (it comes from calloc). */
static gd_kb *filling(const gd_kb *kb)
{
	return (gd_kb *)kb;
}

/* Entry text at off/len of the compact document, parsed once. The
 * index is generated, but a bad one must not read past the text. */
static const json_t *ix_value(const gd_kb *kb, unsigned slot, unsigned off,
			      unsigned len)
{
	json_t **v;

	if (slot >= kb->ix->nslots || off > kb->ix->len ||
	    len > kb->ix->len - off)
		return NULL;
	v = &filling(kb)->slot[slot];
	if (!*v)
		*v = json_loadb((const char *)kb->ix->text + off, len,
				JSON_DECODE_ANY, NULL);
	return *v;
}

static const json_t *ix_named(const gd_kb *kb, enum gd_kb_ix_list l,
			      const char *key)
{
	const struct gd_kb_ix_named *e = kb->ix->list[l];

	for (size_t i = 0; i < kb->ix->nlist[l]; i++)
		if (!strcmp(e[i].key, key))
			return ix_value(kb, e[i].slot, e[i].off, e[i].len);
	return NULL;
}

static const json_t *ix_target(const gd_kb *kb, size_t i)
{
	const struct gd_kb_ix_target *t = &kb->ix->targets[i];

	return ix_value(kb, t->slot, t->off, t->len);
}

const char *gd_kb_origin(const gd_kb *kb)
{
	return kb ? kb->origin : NULL;
}

/* The embedded document is parsed whole only for a reader that walks it
 * (kb listing, check, explain); it passed validation at build time. */
const json_t *gd_kb_root(const gd_kb *kb)
{
	if (!kb)
		return NULL;
	if (!kb->root && kb->ix)
		filling(kb)->root = json_loadb((const char *)kb->ix->text,
					       kb->ix->len, 0, NULL);
	return kb->root;
}

const json_t *gd_kb_get(const gd_kb *kb, const char *key)
{
	if (!kb || !key)
		return NULL;
	if (kb->ix)
		return ix_named(kb, GD_KB_IX_TOP, key);
	return json_object_get(kb->root, key);
}

const char *gd_kb_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* "gfx90a:xnack-" and "GFX1010" name the same target as "gfx90a" and
 * "gfx1010": compare up to the first ':' (target features), no case. */
static int same_gfx(const char *kbname, const char *asked)
{
	size_t n = strcspn(asked, ":");

	return kbname && strlen(kbname) == n && !strncasecmp(kbname, asked, n);
}

const json_t *gd_kb_target(const gd_kb *kb, const char *gfx)
{
	size_t i;
	json_t *t;

	if (!kb || !gfx)
		return NULL;
	for (i = 0; kb->ix && i < kb->ix->ntargets; i++)
		if (same_gfx(kb->ix->targets[i].gfx, gfx))
			return ix_target(kb, i);
	json_array_foreach(json_object_get(kb->root, "targets"), i,
			   t) if (same_gfx(gd_kb_str(t, "gfx"), gfx)) return t;
	return NULL;
}

const json_t *gd_kb_target_for_version(const gd_kb *kb, unsigned version)
{
	size_t i;
	json_t *t;

	if (!kb || !version)
		return NULL;
	for (i = 0; kb->ix && i < kb->ix->ntargets; i++)
		if (kb->ix->targets[i].version == (long long)version)
			return ix_target(kb, i);
	json_array_foreach(json_object_get(kb->root, "targets"), i, t)
	{
		json_t *v = json_object_get(t, "gfx_target_version");

		if (json_is_integer(v) &&
		    json_integer_value(v) == (json_int_t)version)
			return t;
	}
	return NULL;
}

/* "0x731f" (as the file writes them) -> 0x731f; -1 when malformed. */
static long pci_of(const json_t *s)
{
	const char *p = json_string_value(s);
	uint32_t v;

	if (!p || gd_parse_u32(p, 16, &v) < 0)
		return -1;
	return (long)v;
}

static int lists_pci(const json_t *ids, unsigned device_id)
{
	size_t i;
	json_t *s;

	json_array_foreach(ids, i,
			   s) if (pci_of(s) == (long)device_id) return 1;
	return 0;
}

static const json_t *ix_target_for_pci(const gd_kb *kb, unsigned device_id)
{
	for (size_t i = 0; i < kb->ix->ntargets; i++)
		for (unsigned j = 0; j < kb->ix->targets[i].npci; j++)
			if (kb->ix->targets[i].pci[j] == device_id)
				return ix_target(kb, i);
	return NULL;
}

const json_t *gd_kb_target_for_pci(const gd_kb *kb, unsigned device_id)
{
	size_t i, j;
	json_t *t, *p;

	if (!kb)
		return NULL;
	if (kb->ix)
		return ix_target_for_pci(kb, device_id);
	json_array_foreach(json_object_get(kb->root, "targets"), i, t)
	    json_array_foreach(json_object_get(t, "products"), j,
			       p) if (lists_pci(json_object_get(p, "pci_ids"),
						device_id)) return t;
	return NULL;
}

/* The product entry of a target that lists this PCI id, for its name. */
const json_t *gd_kb_product_for_pci(const gd_kb *kb, unsigned device_id)
{
	size_t j;
	json_t *p;

	json_array_foreach(
	    json_object_get(gd_kb_target_for_pci(kb, device_id), "products"), j,
	    p) if (lists_pci(json_object_get(p, "pci_ids"),
			     device_id)) return p;
	return NULL;
}

const json_t *gd_kb_source(const gd_kb *kb, const char *id)
{
	if (!kb || !id)
		return NULL;
	if (kb->ix)
		return ix_named(kb, GD_KB_IX_SOURCES, id);
	return json_object_get(json_object_get(kb->root, "sources"), id);
}

static const json_t *by_id(const gd_kb *kb, const char *list,
			   enum gd_kb_ix_list l, const char *id)
{
	size_t i;
	json_t *o;

	if (!kb || !id)
		return NULL;
	if (kb->ix)
		return ix_named(kb, l, id);
	json_array_foreach(json_object_get(kb->root, list), i,
			   o) if (gd_streq(gd_kb_str(o, "id"), id)) return o;
	return NULL;
}

/* The i-th entry of a list kept in file order (strategies, signatures),
 * parsed alone when the index has it. */
size_t gd_kb_list_count(const gd_kb *kb, enum gd_kb_ix_list l, const char *key)
{
	if (!kb)
		return 0;
	if (kb->ix)
		return kb->ix->nlist[l];
	return json_array_size(json_object_get(kb->root, key));
}

const json_t *gd_kb_list_entry(const gd_kb *kb, enum gd_kb_ix_list l,
			       const char *key, size_t i)
{
	if (!kb)
		return NULL;
	if (kb->ix) {
		const struct gd_kb_ix_named *e = kb->ix->list[l];

		if (i >= kb->ix->nlist[l])
			return NULL;
		return ix_value(kb, e[i].slot, e[i].off, e[i].len);
	}
	return json_array_get(json_object_get(kb->root, key), i);
}

const json_t *gd_kb_issue(const gd_kb *kb, const char *id)
{
	return by_id(kb, "issues", GD_KB_IX_ISSUES, id);
}

const json_t *gd_kb_strategy(const gd_kb *kb, const char *id)
{
	return by_id(kb, "strategies", GD_KB_IX_STRATEGIES, id);
}

const json_t *gd_kb_signature(const gd_kb *kb, const char *id)
{
	return by_id(kb, "signatures", GD_KB_IX_SIGNATURES, id);
}

const json_t *gd_kb_nvidia_for_pci(const gd_kb *kb, unsigned device_id)
{
	size_t i;
	json_t *g;

	if (!kb)
		return NULL;
	for (i = 0; kb->ix && i < kb->ix->ngpus; i++) {
		const struct gd_kb_ix_gpu *e = &kb->ix->gpus[i];

		if (e->pci == device_id)
			return ix_value(kb, e->slot, e->off, e->len);
	}
	json_array_foreach(
	    json_object_get(json_object_get(kb->root, "nvidia"), "gpus"), i, g)
	{
		json_t *id = json_object_get(g, "pci_id");

		if (pci_of(id) == (long)device_id)
			return g;
	}
	return NULL;
}

/* Accepts "sm_90", "sm90", "compute_90", "90", "9.0" and "sm_90a". */
static int sm_digits(const char *in, char *out, size_t cap)
{
	size_t n = 0;

	if (!strncasecmp(in, "sm_", 3) || !strncasecmp(in, "sm", 2))
		in += in[2] == '_' ? 3 : 2;
	else if (!strncasecmp(in, "compute_", 8))
		in += 8;
	for (; *in && n + 1 < cap; in++) {
		if (*in == '.')
			continue;
		if (!((*in >= '0' && *in <= '9') ||
		      ((*in >= 'a' && *in <= 'z') && n >= 2)))
			return -1;
		out[n++] = *in;
	}
	out[n] = '\0';
	return n >= 2 && !*in ? 0 : -1;
}

static int same_sm(const char *kbsm, const char *want)
{
	char have[16];

	return kbsm && sm_digits(kbsm, have, sizeof have) == 0 &&
	       !strcmp(have, want);
}

const json_t *gd_kb_nvidia_cc(const gd_kb *kb, const char *sm)
{
	char want[16];
	size_t i;
	json_t *c;

	if (!kb || !sm || sm_digits(sm, want, sizeof want) < 0)
		return NULL;
	for (i = 0; kb->ix && i < kb->ix->nlist[GD_KB_IX_CCS]; i++) {
		const struct gd_kb_ix_named *e = &kb->ix->list[GD_KB_IX_CCS][i];

		if (same_sm(e->key, want))
			return ix_value(kb, e->slot, e->off, e->len);
	}
	json_array_foreach(json_object_get(json_object_get(kb->root, "nvidia"),
					   "compute_capabilities"),
			   i,
			   c) if (same_sm(gd_kb_str(c, "sm"), want)) return c;
	return NULL;
}
