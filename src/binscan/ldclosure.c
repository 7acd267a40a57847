/* The whole DT_NEEDED closure of one of the machine's libraries, as ld.so
 * loads it (glibc's code, cited in docs/scan.md, "Sources"): breadth
 * first, a name already loaded by its DT_SONAME is reused; the search
 * order of gd_ldresolve, with the DT_RPATHs of the loader chain when the
 * object has no DT_RUNPATH; a candidate of the wrong class or machine is
 * skipped, and when nothing else is found ld.so says "wrong ELF class";
 * then the version check: each DT_VERNEED version must be among the
 * DT_VERDEF versions of the library it names, a library without
 * DT_VERDEF only warns. Bounded by GD_LD_MAX_DEPTH / GD_LD_MAX_OBJECTS;
 * every read goes through the checked ELF reader. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan.h"

#define MAX_VERS 512

struct obj {
	char path[512];
	char name[128]; /* as needed (DT_NEEDED), or the root's file name */
	char soname[128];
	char how[24]; /* how it was found ("RUNPATH", "ld.so.cache", ...) */
	int parent, depth;
	int read; /* 1: parsed; 0: unknown (empty or unreadable) */
	struct gd_bs_dyn dyn;
	gd_strvec vn_file, vn_ver; /* DT_VERNEED pairs */
	gd_strvec defs;		   /* DT_VERDEF names */
	int *child;		   /* per dyn.needed: index in objs, -1 */
};

struct walk {
	gd_ctx *ctx;
	struct gd_bs_env env;
	uint16_t machine;
	GD_VEC(struct obj) objs;
	struct gd_ld_result *out;
};

const char *gd_ld_status_name(enum gd_ld_status s)
{
	static const char *const n[] = {
	    "ok",      "unknown", "missing", "wrong_class", "wrong_machine",
	    "version", "bad_elf"};

	return (unsigned)s < sizeof n / sizeof *n ? n[s] : "unknown";
}

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void push(gd_strvec *v, const char *s)
{
	char **slot = gd_vec_push(v);

	if (slot && !(*slot = strdup(s)))
		v->n--;
}

/* "GLIBCXX_3.4.30" -> length of "GLIBCXX_" (up to the last '_' that is
 * followed by a digit), 0 when the name has no such family. */
static size_t family_len(const char *v)
{
	size_t k = 0;

	for (size_t i = 0; v[i]; i++)
		if (v[i] == '_' && v[i + 1] >= '0' && v[i + 1] <= '9')
			k = i + 1;
	return k;
}

const char *gd_ld_family_max(const char *need, const char *const *defs,
			     size_t n)
{
	size_t k = family_len(need);
	const char *best = NULL;

	if (!k)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!strncmp(defs[i], need, k) && family_len(defs[i]) == k &&
		    (!best || gd_version_cmp(defs[i] + k, best + k) > 0))
			best = defs[i];
	return best;
}

/* gather stores a library read here as its ELF stub (core/capture.h). */
static void note_elf(gd_ctx *ctx, const char *path)
{
	if (ctx->fs.hook)
		ctx->fs.hook(ctx->fs.hook_arg, path, 'e');
}

static void *map_file(gd_ctx *ctx, const char *path, size_t *len, char *why,
		      size_t cap)
{
	int fd = gd_fs_open(&ctx->fs, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	void *m;

	if (fd < 0) {
		gd_fmt(why, cap, "%s: %s", path, gd_fs_strerror(fd));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 64) {
		/* gather stores a library it only looked at as an empty
		 * file: nothing to judge, and nothing wrong either */
		gd_fmt(why, cap, "%s: %s", path,
		       st.st_size == 0 ? "empty file (not captured)"
				       : "not a regular file of an ELF's size");
		close(fd);
		return NULL;
	}
	note_elf(ctx, path);
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		gd_fmt(why, cap, "%s: cannot be mapped", path);
		return NULL;
	}
	*len = (size_t)st.st_size;
	return m;
}

/* "32-bit (ELFCLASS32), machine 3 (i386)" from the first bytes of a file;
 * 0 when it is a 64-bit ELF of the wanted machine. */
static enum gd_ld_status describe(const uint8_t *h, size_t n, uint16_t want,
				  char *out, size_t cap)
{
	uint16_t m = 0;

	if (n < 20 || memcmp(h, "\177ELF", 4)) {
		gd_fmt(out, cap, "not an ELF file");
		return GD_LD_BAD_ELF;
	}
	gd_bs_rd16(h, n, 18, &m);
	if (h[4] != 2) {
		gd_fmt(out, cap, "%s (ELFCLASS%s), machine %u (%s)",
		       h[4] == 1 ? "32-bit" : "unknown class",
		       h[4] == 1 ? "32" : "NONE", m,
		       m == 3	 ? "i386"
		       : m == 40 ? "ARM"
		       : m == 62 ? "x86-64"
				 : "other");
		return GD_LD_WRONG_CLASS;
	}
	if (want && m != want) {
		gd_fmt(out, cap, "64-bit, machine %u (%s), not %u", m,
		       m == 183	  ? "AArch64"
		       : m == 243 ? "RISC-V"
				  : "other",
		       want);
		return GD_LD_WRONG_MACHINE;
	}
	return GD_LD_OK;
}

/* The chain from the root to object i, then name (when not NULL). */
static void chain_of(const struct walk *w, int i, const char *name, char *out,
		     size_t cap)
{
	int path[GD_LD_MAX_DEPTH + 2], n = 0;
	size_t used = 0;

	for (int k = i; k >= 0 && n < GD_LD_MAX_DEPTH + 1;
	     k = w->objs.v[k].parent)
		path[n++] = k;
	out[0] = '\0';
	while (n-- > 0 && used + 1 < cap) {
		gd_fmt(out + used, cap - used, "%s%s", used ? " -> " : "",
		       w->objs.v[path[n]].name);
		used = strlen(out);
	}
	if (name && used + 1 < cap)
		gd_fmt(out + used, cap - used, " -> %s", name);
}

/* Keep the first problem (ld.so stops there). */
static int problem(struct walk *w, enum gd_ld_status st, int by,
		   const char *name, const char *path, const char *detail)
{
	struct gd_ld_result *r = w->out;

	if (r->status != GD_LD_OK && r->status != GD_LD_UNKNOWN)
		return 0;
	memset(r->version, 0, sizeof r->version);
	r->status = st;
	chain_of(w, by, name, r->chain, sizeof r->chain);
	gd_strlcpy(r->soname, name ? name : w->objs.v[by].name,
		   sizeof r->soname);
	gd_strlcpy(r->needed_by, by >= 0 && name ? w->objs.v[by].path : "",
		   sizeof r->needed_by);
	gd_strlcpy(r->path, path ? path : "", sizeof r->path);
	gd_strlcpy(r->detail, detail ? detail : "", sizeof r->detail);
	return 1;
}

/* Read object i: its class and machine, dynamic section and versions. */
static void parse_obj(struct walk *w, int i)
{
	struct obj *o = &w->objs.v[i];
	char why[600];
	size_t len = 0;
	uint8_t *b = map_file(w->ctx, o->path, &len, why, sizeof why);
	struct gd_elf e;
	struct gd_elf_vn vn[MAX_VERS];
	const char *defs[MAX_VERS];
	enum gd_ld_status st;
	size_t n;

	if (!b) {
		if (w->out->status == GD_LD_OK) {
			w->out->status = GD_LD_UNKNOWN;
			gd_strlcpy(w->out->detail, why, sizeof w->out->detail);
		}
		return;
	}
	st = describe(b, len, w->machine, why, sizeof why);
	if (st != GD_LD_OK || gd_elf_open(&e, b, len, why, sizeof why) ||
	    gd_elf_dynamic(&e, &o->dyn, 0, why, sizeof why) < 0) {
		problem(w, st ? st : GD_LD_BAD_ELF, i, NULL, o->path, why);
		munmap(b, len);
		return;
	}
	o->read = 1;
	gd_strlcpy(o->soname, o->dyn.soname, sizeof o->soname);
	n = gd_elf_verneed(&e, vn, MAX_VERS);
	for (size_t k = 0; k < n; k++) {
		push(&o->vn_file, vn[k].file);
		push(&o->vn_ver, vn[k].ver);
	}
	n = gd_elf_verdef(&e, defs, MAX_VERS);
	for (size_t k = 0; k < n; k++)
		push(&o->defs, defs[k]);
	o->child = malloc((o->dyn.needed.n + 1) * sizeof *o->child);
	for (size_t k = 0; o->child && k < o->dyn.needed.n; k++)
		o->child[k] = -1;
	munmap(b, len);
}

static int add_obj(struct walk *w, int parent, const char *name,
		   const char *path)
{
	struct obj *o;

	if (w->objs.n >= GD_LD_MAX_OBJECTS) {
		w->out->truncated = 1;
		return -1;
	}
	o = gd_vec_push(&w->objs);
	if (!o)
		return -1;
	memset(o, 0, sizeof *o);
	gd_strlcpy(o->path, path, sizeof o->path);
	gd_strlcpy(o->name, name, sizeof o->name);
	o->parent = parent;
	o->depth = parent < 0 ? 0 : w->objs.v[parent].depth + 1;
	return (int)(w->objs.n - 1);
}

/* An object already loaded under this name or at this path. */
static int loaded(const struct walk *w, const char *name, const char *path)
{
	for (size_t i = 0; i < w->objs.n; i++) {
		const struct obj *o = &w->objs.v[i];

		if ((name &&
		     (!strcmp(o->soname, name) || !strcmp(o->name, name))) ||
		    (path && !strcmp(o->path, path)))
			return (int)i;
	}
	return -1;
}

/* DT_RPATHs of the loaders of object i, joined (ld.so walks l_loader). */
static void loader_rpaths(const struct walk *w, int i, char *out, size_t cap)
{
	size_t used = 0;

	out[0] = '\0';
	for (int k = w->objs.v[i].parent; k >= 0; k = w->objs.v[k].parent) {
		const struct obj *o = &w->objs.v[k];

		/* a loader's $ORIGIN is its own directory, which try_dirs
		 * would take as this object's: left out */
		if (!o->dyn.rpath[0] || o->dyn.runpath[0] ||
		    strstr(o->dyn.rpath, "ORIGIN") || used + 1 >= cap)
			continue;
		gd_fmt(out + used, cap - used, "%s%s", used ? ":" : "",
		       o->dyn.rpath);
		used = strlen(out);
	}
}

static int is_dlopen(const struct walk *w, const char *name)
{
	for (size_t k = 0;
	     w->env.root_dlopens && w->env.root_dlopens[k] && k < 64; k++)
		if (!strcmp(w->env.root_dlopens[k], name))
			return 1;
	return 0;
}

/* Where ld.so finds name for object i; a file of the wrong class or
 * machine is named when nothing right is (ld.so: "wrong ELF class"). */
static int resolve_with(struct walk *w, int i, const char *name,
			struct gd_bs_file *f)
{
	struct gd_bs_need need;
	char extra[2048], why[256];
	const struct obj *o = &w->objs.v[i];
	int j = loaded(w, name, NULL);
	uint8_t h[20];
	int fd;

	if (j >= 0)
		return j;
	gd_strlcpy(f->path, o->path, sizeof f->path);
	f->machine = w->machine;
	gd_strlcpy(f->dyn.rpath, o->dyn.rpath, sizeof f->dyn.rpath);
	gd_strlcpy(f->dyn.runpath, o->dyn.runpath, sizeof f->dyn.runpath);
	loader_rpaths(w, i, extra, sizeof extra);
	w->env.rpath_extra = extra[0] ? extra : NULL;
	gd_ldresolve(w->ctx, &w->env, f, name, &need);
	if (need.found) {
		j = loaded(w, NULL, need.path);
		if (j < 0 && (j = add_obj(w, i, name, need.path)) >= 0)
			gd_strlcpy(w->objs.v[j].how, need.how,
				   sizeof w->objs.v[j].how);
		return j;
	}
	if (i == 0 && is_dlopen(w, name))
		gd_fmt(why, sizeof why, "loaded with dlopen at run time%s%s",
		       need.note[0] ? "; " : "", need.note);
	else
		gd_strlcpy(why, need.note, sizeof why);
	f->machine = 0; /* any ELF: is there one of the wrong kind? */
	gd_ldresolve(w->ctx, &w->env, f, name, &need);
	fd = need.found ? gd_fs_open(&w->ctx->fs, need.path,
				     O_RDONLY | O_CLOEXEC | O_NONBLOCK)
			: -1;
	if (fd >= 0)
		note_elf(w->ctx, need.path);
	if (fd >= 0 && pread(fd, h, sizeof h, 0) == (ssize_t)sizeof h) {
		enum gd_ld_status st =
		    describe(h, sizeof h, w->machine, why, sizeof why);

		problem(w, st ? st : GD_LD_BAD_ELF, i, name, need.path, why);
		gd_strlcpy(w->out->how, need.how, sizeof w->out->how);
	} else {
		problem(w, GD_LD_MISSING, i, name, NULL, why);
	}
	if (fd >= 0)
		close(fd);
	return -1;
}

static int resolve(struct walk *w, int i, const char *name)
{
	/* a gd_bs_file is 4 KB of paths: one on the heap per object */
	struct gd_bs_file *f = calloc(1, sizeof *f);
	int r;

	if (!f)
		return -1;
	r = resolve_with(w, i, name, f);
	free(f);
	return r;
}

/* Breadth first over every object, as _dl_map_object_deps. */
static void load_all(struct walk *w)
{
	for (size_t i = 0; i < w->objs.n; i++) {
		struct obj *o;

		parse_obj(w, (int)i);
		o = &w->objs.v[i];
		if (!o->read || !o->child)
			continue;
		if (o->depth >= GD_LD_MAX_DEPTH) {
			w->out->truncated = o->dyn.needed.n > 0;
			continue;
		}
		/* add_obj may move the array: o is not used past here */
		for (size_t k = 0; k < w->objs.v[i].dyn.needed.n; k++) {
			int c =
			    resolve(w, (int)i, w->objs.v[i].dyn.needed.v[k]);

			w->objs.v[i].child[k] = c;
		}
		/* dlopen from the root's code: its RUNPATH/RPATH apply, as
		 * for its DT_NEEDED (docs/scan.md, "Sources") */
		for (size_t k = 0; i == 0 && w->env.root_dlopens &&
				   w->env.root_dlopens[k] && k < 64;
		     k++)
			resolve(w, 0, w->env.root_dlopens[k]);
	}
}

/* Each object's version needs against the library each names. */
static void check_versions(struct walk *w)
{
	for (size_t i = 0; i < w->objs.n; i++) {
		const struct obj *o = &w->objs.v[i];

		for (size_t k = 0; o->read && k < o->vn_file.n; k++) {
			const struct obj *l = NULL;
			const char *v = o->vn_ver.v[k], *max;
			int found = 0;

			for (size_t c = 0; o->child && c < o->dyn.needed.n; c++)
				if (o->child[c] >= 0 &&
				    !strcmp(o->dyn.needed.v[c],
					    o->vn_file.v[k]))
					l = &w->objs.v[o->child[c]];
			if (!l || !l->read || !l->defs.n)
				continue;
			for (size_t d = 0; d < l->defs.n && !found; d++)
				found = !strcmp(l->defs.v[d], v);
			if (found)
				continue;
			max = gd_ld_family_max(
			    v, (const char *const *)l->defs.v, l->defs.n);
			if (!problem(w, GD_LD_VERSION, (int)i, l->name, l->path,
				     NULL))
				return;
			gd_strlcpy(w->out->version, v, sizeof w->out->version);
			gd_strlcpy(w->out->provides, max ? max : "",
				   sizeof w->out->provides);
			gd_strlcpy(w->out->how, l->how, sizeof w->out->how);
			return;
		}
	}
}

void gd_ld_closure(gd_ctx *ctx, const struct gd_bs_env *env, const char *path,
		   struct gd_ld_result *out)
{
	gd_ld_closure_files(ctx, env, path, out, NULL);
}

void gd_ld_closure_files(gd_ctx *ctx, const struct gd_bs_env *env,
			 const char *path, struct gd_ld_result *out,
			 gd_strvec *files)
{
	struct walk w = {.ctx = ctx, .out = out, .machine = 62};

	memset(out, 0, sizeof *out);
	w.env = *env;
	w.env.in_root = 1;
#if defined(__aarch64__)
	w.machine = 183;
#endif
	if (add_obj(&w, -1, base_of(path), path) == 0) {
		load_all(&w);
		if (out->status == GD_LD_OK || out->status == GD_LD_UNKNOWN)
			check_versions(&w);
	}
	for (size_t i = 0; i < w.objs.n; i++) {
		struct obj *o = &w.objs.v[i];

		out->objects += o->read;
		if (files && o->read)
			push(files, o->path);
		gd_bs_dyn_free(&o->dyn);
		gd_strvec_free(&o->vn_file);
		gd_strvec_free(&o->vn_ver);
		gd_strvec_free(&o->defs);
		free(o->child);
	}
	gd_vec_free(&w.objs);
}
