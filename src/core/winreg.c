/* The gd_reg tree (winreg.h): keys by case-insensitive name, values,
 * deletions. The export-file parser is winreg_parse.c. */
#include "winreg.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_NODES 1000000
#define MAX_DEPTH 512

/* ---- the tree ---- */

void gd_reg_init(gd_reg *r)
{
	memset(r, 0, sizeof *r);
}

static void free_key(gd_reg_key *k)
{
	for (size_t i = 0; i < k->nsub; i++) {
		free_key(k->sub[i]);
		free(k->sub[i]);
	}
	for (size_t i = 0; i < k->nval; i++) {
		free(k->val[i].name);
		free(k->val[i].data);
	}
	free(k->sub);
	free(k->val);
	free(k->name);
	free(k->isub.slot);
	free(k->ival.slot);
	memset(k, 0, sizeof *k);
}

void gd_reg_free(gd_reg *r)
{
	free_key(&r->root);
	r->nodes = 0;
}

static int ieq(const char *a, const char *b, size_t bn)
{
	size_t i;

	for (i = 0; i < bn; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];

		if (!x)
			return 0;
		if (x >= 'A' && x <= 'Z')
			x = (unsigned char)(x + 32);
		if (y >= 'A' && y <= 'Z')
			y = (unsigned char)(y + 32);
		if (x != y)
			return 0;
	}
	return a[i] == '\0';
}

/* ---- the name index (gd_reg_index) ---- */

#define INDEX_FROM 16 /* elements before a key gets an index */
#define DELETED ((size_t)-1)

typedef const char *(*name_at)(const gd_reg_key *k, size_t i);

static const char *sub_name(const gd_reg_key *k, size_t i)
{
	return k->sub[i]->name;
}

static const char *val_name(const gd_reg_key *k, size_t i)
{
	return k->val[i].name;
}

/* FNV-1a of the name folded as ieq folds it (ASCII letters only). */
static size_t hash_ci(const char *s, size_t n)
{
	size_t h = (size_t)14695981039346656037ull;

	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + 32);
		h = (h ^ c) * (size_t)1099511628211ull;
	}
	return h;
}

static void index_put(gd_reg_index *x, const char *name, size_t i)
{
	size_t s = hash_ci(name, strlen(name)) & (x->cap - 1);

	while (x->slot[s] && x->slot[s] != DELETED)
		s = (s + 1) & (x->cap - 1);
	if (!x->slot[s])
		x->used++;
	x->slot[s] = i + 1;
}

/* Builds the index of k's n elements afresh; on no memory there is none,
 * and lookups are linear (slow, still right). */
static void index_build(gd_reg_index *x, const gd_reg_key *k, size_t n,
			name_at fn)
{
	size_t cap = 64;

	while (cap < n * 2 + 16)
		cap *= 2;
	free(x->slot);
	memset(x, 0, sizeof *x);
	if (!(x->slot = calloc(cap, sizeof *x->slot)))
		return;
	x->cap = cap;
	for (size_t i = 0; i < n; i++)
		index_put(x, fn(k, i), i);
}

/* Element i (of n, the last just added) joins the index. */
static void index_add(gd_reg_index *x, const gd_reg_key *k, size_t n,
		      name_at fn)
{
	if (!x->slot && n < INDEX_FROM)
		return; /* (an index once built is kept up to date) */
	if (!x->slot || (x->used + 1) * 4 > x->cap * 3)
		index_build(x, k, n, fn);
	else
		index_put(x, fn(k, n - 1), n - 1);
}

/* The index of the element named name[0..n), or DELETED when none. */
static size_t find_n(const gd_reg_index *x, const gd_reg_key *k, size_t count,
		     name_at fn, const char *name, size_t n)
{
	if (!x->slot) {
		for (size_t i = 0; i < count; i++)
			if (ieq(fn(k, i), name, n))
				return i;
		return DELETED;
	}
	for (size_t s = hash_ci(name, n) & (x->cap - 1); x->slot[s];
	     s = (s + 1) & (x->cap - 1))
		if (x->slot[s] != DELETED &&
		    ieq(fn(k, x->slot[s] - 1), name, n))
			return x->slot[s] - 1;
	return DELETED;
}

/* The slot holding element i. */
static size_t *slot_of(gd_reg_index *x, const gd_reg_key *k, name_at fn,
		       size_t i)
{
	const char *name = fn(k, i);

	for (size_t s = hash_ci(name, strlen(name)) & (x->cap - 1); x->slot[s];
	     s = (s + 1) & (x->cap - 1))
		if (x->slot[s] == i + 1)
			return &x->slot[s];
	return NULL;
}

/* Element i leaves and the last (of n) moves into its place, as the
 * deletions below do with the arrays. Call before either changes. */
static void index_del(gd_reg_index *x, const gd_reg_key *k, size_t n,
		      name_at fn, size_t i)
{
	size_t *s;

	if (!x->slot)
		return;
	if ((s = slot_of(x, k, fn, i)))
		*s = DELETED;
	if (i != n - 1 && (s = slot_of(x, k, fn, n - 1)))
		*s = i + 1;
}

static gd_reg_key *sub_n(const gd_reg_key *k, const char *name, size_t n,
			 size_t *idx)
{
	size_t i = find_n(&k->isub, k, k->nsub, sub_name, name, n);

	if (i == DELETED)
		return NULL;
	if (idx)
		*idx = i;
	return k->sub[i];
}

gd_reg_key *gd_reg_sub(const gd_reg_key *k, const char *name)
{
	return k ? sub_n(k, name, strlen(name), NULL) : NULL;
}

static const char *expand_hive(const char *path, size_t *n)
{
	static const char *const ab[][2] = {
	    {"HKLM", "HKEY_LOCAL_MACHINE"},  {"HKCU", "HKEY_CURRENT_USER"},
	    {"HKCR", "HKEY_CLASSES_ROOT"},   {"HKU", "HKEY_USERS"},
	    {"HKCC", "HKEY_CURRENT_CONFIG"},
	};

	for (size_t i = 0; i < sizeof ab / sizeof *ab; i++)
		if (ieq(ab[i][0], path, *n)) {
			*n = strlen(ab[i][1]);
			return ab[i][1];
		}
	return path;
}

/* Walks path; creates missing keys when r is given. */
static gd_reg_key *walk(gd_reg *r, gd_reg_key *k, const char *path)
{
	int depth = 0;

	while (k && *path) {
		const char *e = strchr(path, '\\'), *name = path;
		size_t n = e ? (size_t)(e - path) : strlen(path), raw = n;
		gd_reg_key *s;

		if (n && depth == 0)
			name = expand_hive(path, &n);
		if (n && !(s = sub_n(k, name, n, NULL))) {
			gd_reg_key **slot;

			if (!r || r->nodes >= MAX_NODES || depth >= MAX_DEPTH)
				return NULL;
			s = calloc(1, sizeof *s);
			if (!s || !(s->name = strndup(name, n)) ||
			    !(slot =
				  gd_vec_push_((void **)&k->sub, &k->nsub,
					       &k->capsub, sizeof *k->sub))) {
				if (s)
					free(s->name);
				free(s);
				return NULL;
			}
			*slot = s;
			index_add(&k->isub, k, k->nsub, sub_name);
			r->nodes++;
		}
		if (n) {
			k = s;
			depth++;
		}
		/* n may be the expanded hive's length: step by the text's */
		path = e ? e + 1 : path + raw;
	}
	return k;
}

gd_reg_key *gd_reg_find(const gd_reg *r, const char *path)
{
	return walk(NULL, (gd_reg_key *)&r->root, path);
}

gd_reg_key *gd_reg_mkkey(gd_reg *r, const char *path)
{
	return walk(r, &r->root, path);
}

void gd_reg_delete_key(gd_reg *r, const char *path)
{
	const char *last = strrchr(path, '\\');
	gd_reg_key *parent = &r->root;
	size_t idx;
	gd_reg_key *k;
	char *pp;

	if (last) {
		if (!(pp = strndup(path, (size_t)(last - path))))
			return;
		parent = gd_reg_find(r, pp);
		free(pp);
		path = last + 1;
	}
	if (!parent || !(k = sub_n(parent, path, strlen(path), &idx)))
		return;
	index_del(&parent->isub, parent, parent->nsub, sub_name, idx);
	free_key(k);
	free(k);
	parent->sub[idx] = parent->sub[--parent->nsub];
	/* order among siblings is not kept: lookups go by name */
}

const gd_reg_value *gd_reg_get(const gd_reg_key *k, const char *name)
{
	size_t i;

	if (!k)
		return NULL;
	i = find_n(&k->ival, k, k->nval, val_name, name, strlen(name));
	return i == DELETED ? NULL : &k->val[i];
}

int gd_reg_set(gd_reg *r, gd_reg_key *k, const char *name, unsigned type,
	       const void *data, size_t len)
{
	gd_reg_value *v = (gd_reg_value *)gd_reg_get(k, name);
	uint8_t *d = malloc(len + 1);

	if (!d)
		return -1;
	if (len)
		memcpy(d, data, len);
	d[len] = '\0';
	if (!v) {
		if (r->nodes >= MAX_NODES ||
		    !(v = gd_vec_push_((void **)&k->val, &k->nval, &k->capval,
				       sizeof *k->val))) {
			free(d);
			return -1;
		}
		if (!(v->name = strdup(name))) {
			k->nval--;
			free(d);
			return -1;
		}
		index_add(&k->ival, k, k->nval, val_name);
		r->nodes++;
	}
	free(v->data);
	v->data = d;
	v->len = len;
	v->type = type;
	return 0;
}

void gd_reg_delete_value(gd_reg_key *k, const char *name)
{
	size_t i = find_n(&k->ival, k, k->nval, val_name, name, strlen(name));

	if (i == DELETED)
		return;
	index_del(&k->ival, k, k->nval, val_name, i);
	free(k->val[i].name);
	free(k->val[i].data);
	k->val[i] = k->val[--k->nval];
}

int gd_reg_str(const gd_reg_key *k, const char *name, char *buf, size_t cap)
{
	const gd_reg_value *v = gd_reg_get(k, name);

	if (cap)
		buf[0] = '\0';
	if (!v || (v->type != GD_REG_SZ && v->type != GD_REG_EXPAND_SZ &&
		   v->type != GD_REG_MULTI_SZ))
		return -1;
	/* a value longer than buf (a path, a name) is kept cut and marked,
	 * so it never names another file or passes for whole */
	if (gd_strlcpy(buf, (const char *)v->data, cap) >= cap)
		gd_mark_cut(buf, cap);
	return 0;
}

int gd_reg_u64(const gd_reg_key *k, const char *name, uint64_t *out)
{
	const gd_reg_value *v = gd_reg_get(k, name);
	uint64_t x = 0;

	if (!v || v->len < 1 || v->len > 8 ||
	    (v->type != GD_REG_DWORD && v->type != GD_REG_QWORD &&
	     v->type != GD_REG_BINARY))
		return -1;
	for (size_t i = v->len; i-- > 0;)
		x = x << 8 | v->data[i];
	*out = x;
	return 0;
}
