#include "capture.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "devnodes.h"
#include "tar.h"

struct rec {
	char *path;
	int kind;
};

struct gd_capture {
	GD_VEC(struct rec) recs;
	gd_strvec links; /* "name\ttarget" of each link stored */
	struct gd_capture_filter filter;
	size_t dropped; /* paths past the limit, or lost to memory */
	char **set;	/* archive names already written (see seen()) */
	size_t set_n, set_cap;
	gd_capture_stub_fn stub; /* kind 'e' files, or NULL */
};

struct gd_capture *gd_capture_new(void)
{
	return calloc(1, sizeof(struct gd_capture));
}

void gd_capture_free(struct gd_capture *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->recs.n; i++)
		free(c->recs.v[i].path);
	gd_vec_free(&c->recs);
	gd_strvec_free(&c->links);
	for (size_t i = 0; i < c->set_cap; i++)
		free(c->set[i]);
	free(c->set);
	free(c);
}

void gd_capture_set_filter(struct gd_capture *c,
			   const struct gd_capture_filter *f)
{
	c->filter = *f;
}

size_t gd_capture_paths(const struct gd_capture *c, size_t i, const char **path,
			int *kind)
{
	if (i < c->recs.n) {
		*path = c->recs.v[i].path;
		*kind = c->recs.v[i].kind;
	}
	return c->recs.n;
}

void gd_capture_set_stub(struct gd_capture *c, gd_capture_stub_fn stub)
{
	c->stub = stub;
}

void gd_capture_hook(void *arg, const char *path, int kind)
{
	struct gd_capture *c = arg;
	struct rec *r;

	if (c->recs.n >= 200000) {
		c->dropped++;
		return;
	}
	r = gd_vec_push(&c->recs);
	if (r && !(r->path = strdup(path)))
		c->recs.n--;
	else if (r)
		r->kind = kind;
	if (!r || !r->path)
		c->dropped++;
}

/* Lexically normalise an absolute path: no "//", ".", "..". Returns -1
 * when the result would not fit (the path is not stored then). */
static int normalize(char *p)
{
	char out[4096];
	size_t o = 0;
	char *save = NULL, *tok;

	out[0] = '\0';
	for (tok = strtok_r(p, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
			out[o] = '\0';
			continue;
		}
		if (o + strlen(tok) + 2 >= sizeof out)
			return -1;
		out[o++] = '/';
		strcpy(out + o, tok);
		o += strlen(tok);
	}
	if (!o)
		strcpy(out, "/");
	strcpy(p, out);
	return 0;
}

/* Archive names already written: an open-addressing string set, since a
 * listed library directory brings thousands of names. */
static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int seen_grow(struct gd_capture *c)
{
	size_t ncap = c->set_cap ? c->set_cap * 2 : 1024;
	char **nset = calloc(ncap, sizeof *nset);

	if (!nset)
		return -1;
	for (size_t i = 0; i < c->set_cap; i++) {
		size_t j;

		if (!c->set[i])
			continue;
		for (j = hash_name(c->set[i]) & (ncap - 1); nset[j];
		     j = (j + 1) & (ncap - 1))
			;
		nset[j] = c->set[i];
	}
	free(c->set);
	c->set = nset;
	c->set_cap = ncap;
	return 0;
}

static int seen(struct gd_capture *c, const char *name)
{
	size_t j;

	if ((c->set_n + 1) * 2 > c->set_cap && seen_grow(c) < 0) {
		c->dropped++; /* out of memory: store nothing more */
		return 1;
	}
	for (j = hash_name(name) & (c->set_cap - 1); c->set[j];
	     j = (j + 1) & (c->set_cap - 1))
		if (!strcmp(c->set[j], name))
			return 1;
	c->set[j] = strdup(name);
	if (c->set[j])
		c->set_n++;
	return 0;
}

struct writer {
	struct gd_capture *c;
	gd_ctx *ctx;
	gd_tar *tar;
	struct gd_capture_stats *st;
};

/* Something discovery saw that the archive will not hold: counted and
 * listed (the first 100), never counted as stored. */
static void fail(struct writer *w, const char *path, const char *why)
{
	char **slot;
	size_t len;

	w->st->failed++;
	if (w->st->failures.n >= 100)
		return;
	slot = gd_vec_push(&w->st->failures);
	if (!slot)
		return;
	len = strlen(path) + strlen(why) + 3;
	*slot = malloc(len);
	if (*slot)
		snprintf(*slot, len, "%s: %s", path, why);
	else
		w->st->failures.n--;
}

static void put_file(struct writer *w, const char *path, int kind)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = 0;

	if (seen(w->c, path + 1))
		return;
	if (kind == 'f')
		rc = gd_fs_read_alloc(&w->ctx->fs, path, 16u << 20, &buf, &len);
	else if (kind == 'e' && w->c->stub)
		rc = w->c->stub(w->ctx, path, &buf, &len);
	if (rc < 0 && rc != -EFBIG) {
		w->st->skipped++; /* unreadable here too: nothing was lost */
		free(buf);
		return;
	}
	if (w->c->filter.file &&
	    (rc = w->c->filter.file(w->c->filter.arg, w->ctx, path, rc, &buf,
				    &len)) > 0) {
		free(buf); /* not this archive's: the filter writes it */
		return;
	}
	if (gd_tar_add_file(w->tar, path + 1, 0644, buf ? buf : "", len) == 0) {
		w->st->files++;
		w->st->bytes += len;
	}
	if (rc == -EFBIG)
		fail(w, path, "larger than 16 MiB: stored truncated");
	free(buf);
}

/* The next path to follow after a link at cur/<link> -> target. */
static int link_next(char *full, size_t cap, const char *cur,
		     const char *target, const char *remain)
{
	int n;

	if (target[0] == '/')
		n = snprintf(full, cap, "%s/%s", target, remain ? remain : "");
	else
		n = snprintf(full, cap, "%s/%s/%s", cur, target,
			     remain ? remain : "");
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static void put_link(struct writer *w, const char *next, char *save,
		     const char *cur, int kind, int depth);

/* .gpudoctor/links.tsv: the links again, as text, for a replay where
 * the unpacked tree holds none (Windows: tar.exe without the right to
 * make symlinks; Wine, which cannot read a link's target). */
static void note_link(struct writer *w, const char *name, const char *target)
{
	char **slot;
	size_t len = strlen(name) + strlen(target) + 2;

	if (strpbrk(name, "\t\n") || strpbrk(target, "\t\n"))
		return; /* not representable in the list; the tar has it */
	if (!(slot = gd_vec_push(&w->c->links)))
		return;
	if (!(*slot = malloc(len))) {
		w->c->links.n--;
		return;
	}
	snprintf(*slot, len, "%s\t%s", name, target);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void put_links(struct writer *w)
{
	gd_strvec *l = &w->c->links;
	char *buf = NULL;
	size_t len = 0;

	if (!l->n)
		return;
	qsort(l->v, l->n, sizeof *l->v, cmp_str);
	for (size_t i = 0; i < l->n; i++)
		len += strlen(l->v[i]) + 1;
	if (!(buf = malloc(len + 1))) {
		fail(w, ".gpudoctor/links.tsv", "out of memory");
		return;
	}
	len = 0;
	for (size_t i = 0; i < l->n; i++)
		len += (size_t)sprintf(buf + len, "%s\n", l->v[i]);
	gd_tar_add_file(w->tar, ".gpudoctor/links.tsv", 0644, buf, len);
	free(buf);
}

/* Store path and every component leading to it; follows symlinks the way
 * the kernel would, storing each link it meets. */
static void put_path(struct writer *w, const char *path, int kind, int depth)
{
	char cur[4096] = "", rest[4096];
	char *save = NULL, *tok;

	if (depth > 40)
		return; /* a loop: its links are stored, the kernel says ELOOP
			 */
	if (gd_strlcpy(rest, path, sizeof rest) >= sizeof rest ||
	    normalize(rest) < 0) {
		fail(w, path, "path too long");
		return;
	}
	for (tok = strtok_r(rest, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		struct stat st;
		char next[4096];
		int rc;

		gd_fmt(next, sizeof next, "%s/%s", cur, tok);
		rc = gd_fs_lstat(&w->ctx->fs, next, &st);
		if (rc == -ENOENT || rc == -ENOTDIR || rc == -ENAMETOOLONG)
			return; /* absent here (or cannot exist): nothing to
				   store */
		if (rc == -EACCES) {
			w->st->skipped++;
			return;
		}
		if (rc < 0) {
			fail(w, next, strerror(-rc));
			return;
		}
		if (S_ISLNK(st.st_mode)) {
			put_link(w, next, save, cur, kind, depth);
			return;
		}
		if (S_ISDIR(st.st_mode)) {
			if (!seen(w->c, next + 1) &&
			    gd_tar_add_dir(w->tar, next + 1, 0755) == 0)
				w->st->dirs++;
		} else if (S_ISREG(st.st_mode)) {
			put_file(w, next, kind);
			return;
		} else {
			w->st
			    ->skipped++; /* device nodes, fifos: not archived */
			return;
		}
		gd_strlcpy(cur, next, sizeof cur);
	}
}

static void put_link(struct writer *w, const char *next, char *save,
		     const char *cur, int kind, int depth)
{
	char target[4096], full[8192];
	char *remain = strtok_r(NULL, "", &save);
	int rc = gd_fs_readlink(&w->ctx->fs, next, target, sizeof target);

	if (rc < 0) {
		fail(w, next, strerror(-rc));
		return;
	}
	if (!seen(w->c, next + 1) &&
	    gd_tar_add_symlink(w->tar, next + 1, target) == 0) {
		w->st->links++;
		note_link(w, next + 1, target);
	}
	if (link_next(full, sizeof full, cur, target, remain) < 0) {
		fail(w, next, "the path through this link is too long");
		return;
	}
	put_path(w, full, kind, depth + 1);
}

/* A directory that was listed: its entries' names matter (libraries found
 * by listing a lib dir), so each is stored: links as links, directories
 * empty, files empty unless their content was read (stored before this). */
static void put_listing(struct writer *w, const char *path)
{
	gd_strvec names;

	if (gd_fs_list(&w->ctx->fs, path, &names) < 0)
		return;
	for (size_t i = 0; i < names.n && i < 20000; i++) {
		char child[4096];

		gd_fmt(child, sizeof child, "%s/%s",
		       strcmp(path, "/") ? path : "", names.v[i]);
		put_path(w, child, 's', 0);
	}
	gd_strvec_free(&names);
}

static void put_environ(struct writer *w)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	for (size_t i = 0; w->ctx->env_read && i < w->ctx->env_read->n; i++) {
		const char *name = w->ctx->env_read->v[i];
		const char *val = gd_ctx_getenv(w->ctx, name);
		size_t need;
		char *nb;

		if (!val)
			continue;
		if (strchr(val, '\n')) {
			fail(w, name, "a value with a newline is not stored");
			continue;
		}
		need = len + strlen(name) + strlen(val) + 3;
		if (need > cap) {
			cap = need * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				fail(w, name, "out of memory");
				break;
			}
			buf = nb;
		}
		len += (size_t)sprintf(buf + len, "%s=%s\n", name, val);
	}
	if (!seen(w->c, ".gpudoctor"))
		gd_tar_add_dir(w->tar, ".gpudoctor", 0755);
	gd_tar_add_file(w->tar, ".gpudoctor/environ", 0644, buf ? buf : "",
			len);
	free(buf);
}

static void put_all(struct writer *w, int kind)
{
	struct gd_capture *c = w->c;

	for (size_t i = 0; i < c->recs.n; i++) {
		if (c->recs.v[i].kind != kind)
			continue;
		put_path(w, c->recs.v[i].path, kind, 0);
		if (kind == 'd')
			put_listing(w, c->recs.v[i].path);
	}
}

/* A --root tree that is no capture (no .gpudoctor/environ, or marked so
 * by this file) stays marked in its capture: what it lacked was never on
 * a machine to be captured (discover's not_a_capture, docs/virtual.md). */
static void put_partial(struct writer *w)
{
	static const char note[] =
	    "gathered from a --root tree that is no gpudoctor capture\n";

	if (w->ctx->fs.is_slash || seen(w->c, ".gpudoctor/partial"))
		return;
	if (gd_fs_exists(&w->ctx->fs, "/.gpudoctor/environ") &&
	    !gd_fs_exists(&w->ctx->fs, "/.gpudoctor/partial"))
		return;
	gd_tar_add_file(w->tar, ".gpudoctor/partial", 0644, note,
			sizeof note - 1);
}

/* The GPU device nodes (devnodes.h): a tar cannot hold them, so the live
 * machine's are listed in .gpudoctor/devnodes; a tree keeps the list it
 * has (stored above when discovery read it) and gets none when it has
 * none: its /dev was never recorded (docs/devnodes.md). */
static void put_devnodes(struct writer *w)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (!w->ctx->fs.is_slash || seen(w->c, &GD_DEVNODES_FILE[1]))
		return;
	rc = gd_devnodes_collect(&w->ctx->fs, &buf, &len);
	if (rc == -ENOSYS)
		return;
	if (rc < 0) {
		fail(w, &GD_DEVNODES_FILE[1], strerror(-rc));
		return;
	}
	if (!seen(w->c, ".gpudoctor"))
		gd_tar_add_dir(w->tar, ".gpudoctor", 0755);
	if (gd_tar_add_file(w->tar, &GD_DEVNODES_FILE[1], 0644, buf, len) == 0)
		w->st->files++;
	free(buf);
}

int gd_capture_write(struct gd_capture *c, gd_ctx *ctx, const char *tarpath,
		     const struct gd_tar_opts *o, struct gd_capture_stats *st,
		     char *err, size_t errlen)
{
	struct writer w = {c, ctx, NULL, st};
	gd_fs_hook saved = ctx->fs.hook;
	char why[64];

	memset(st, 0, sizeof *st);
	w.tar = gd_tar_open(tarpath, o, err, errlen);
	if (!w.tar)
		return -1;
	ctx->fs.hook = NULL; /* what we read now is not discovery */
	/* Contents first, so a file both read and stat'ed keeps its bytes;
	 * a link read on its own stores its target empty: after contents. */
	put_all(&w, 'f');
	put_all(&w, 'e');
	put_all(&w, 'l');
	put_all(&w, 'd');
	put_all(&w, 's');
	put_environ(&w);
	put_devnodes(&w);
	put_partial(&w);
	put_links(&w);
	if (c->filter.finish)
		c->filter.finish(c->filter.arg, ctx, w.tar, st);
	ctx->fs.hook = saved;
	if (c->dropped) {
		gd_fmt(why, sizeof why,
		       "%zu paths not recorded (limit or memory)", c->dropped);
		fail(&w, "(discovery)", why);
	}
	return gd_tar_close(w.tar, err, errlen);
}

void gd_capture_stats_free(struct gd_capture_stats *st)
{
	gd_strvec_free(&st->failures);
}
