#include "capture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tar.h"

struct rec {
	char *path;
	int kind;
};

struct gd_capture {
	GD_VEC(struct rec) recs;
	gd_strvec done; /* archive names already written */
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
	gd_strvec_free(&c->done);
	free(c);
}

void gd_capture_hook(void *arg, const char *path, int kind)
{
	struct gd_capture *c = arg;
	struct rec *r;

	if (c->recs.n >= 200000)
		return;
	r = gd_vec_push(&c->recs);
	if (r && !(r->path = strdup(path)))
		c->recs.n--;
	else if (r)
		r->kind = kind;
}

/* Lexically normalise an absolute path: no "//", ".", "..". */
static void normalize(char *p)
{
	char out[4096];
	size_t o = 0;
	char *save = NULL, *tok;

	out[0] = '\0';
	for (tok = strtok_r(p, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
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
			break;
		out[o++] = '/';
		strcpy(out + o, tok);
		o += strlen(tok);
	}
	if (!o)
		strcpy(out, "/");
	strcpy(p, out);
}

static int seen(struct gd_capture *c, const char *name)
{
	char **slot;

	for (size_t i = 0; i < c->done.n; i++)
		if (!strcmp(c->done.v[i], name))
			return 1;
	slot = gd_vec_push(&c->done);
	if (slot)
		*slot = strdup(name);
	return 0;
}

struct writer {
	struct gd_capture *c;
	gd_ctx *ctx;
	gd_tar *tar;
	struct gd_capture_stats *st;
};

static void put_file(struct writer *w, const char *path, int content)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = 0;

	if (seen(w->c, path + 1))
		return;
	if (content)
		rc = gd_fs_read_alloc(&w->ctx->fs, path, 16u << 20, &buf, &len);
	if (rc < 0 && rc != -EFBIG) {
		w->st->skipped++;
		free(buf);
		return;
	}
	gd_tar_add_file(w->tar, path + 1, 0644, buf ? buf : "", len);
	w->st->files++;
	w->st->bytes += len;
	free(buf);
}

/* Store path and every component leading to it; follows symlinks the way
 * the kernel would, storing each link it meets. */
static void put_path(struct writer *w, const char *path, int kind, int depth)
{
	char cur[4096] = "", rest[4096], full[4096];
	char *save = NULL, *tok;

	if (depth > 40)
		return;
	gd_strlcpy(rest, path, sizeof rest);
	normalize(rest);
	for (tok = strtok_r(rest, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		struct stat st;
		char next[4096];

		gd_fmt(next, sizeof next, "%s/%s", cur, tok);
		if (gd_fs_lstat(&w->ctx->fs, next, &st) < 0)
			return;
		if (S_ISLNK(st.st_mode)) {
			char target[4096], *remain = strtok_r(NULL, "", &save);

			if (gd_fs_readlink(&w->ctx->fs, next, target, sizeof target) < 0)
				return;
			if (!seen(w->c, next + 1)) {
				gd_tar_add_symlink(w->tar, next + 1, target);
				w->st->links++;
			}
			if (target[0] == '/')
				gd_fmt(full, sizeof full, "%s/%s", target, remain ? remain : "");
			else
				gd_fmt(full, sizeof full, "%s/%s/%s", cur, target, remain ? remain : "");
			put_path(w, full, kind, depth + 1);
			return;
		}
		if (S_ISDIR(st.st_mode)) {
			if (!seen(w->c, next + 1)) {
				gd_tar_add_dir(w->tar, next + 1, 0755);
				w->st->dirs++;
			}
		} else if (S_ISREG(st.st_mode)) {
			put_file(w, next, kind == 'f');
			return;
		} else {
			w->st->skipped++; /* device nodes, fifos: not archived */
			return;
		}
		gd_strlcpy(cur, next, sizeof cur);
	}
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

		if (!val || strchr(val, '\n'))
			continue;
		need = len + strlen(name) + strlen(val) + 3;
		if (need > cap) {
			cap = need * 2;
			nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		len += (size_t)sprintf(buf + len, "%s=%s\n", name, val);
	}
	gd_tar_add_dir(w->tar, ".gpudoctor", 0755);
	gd_tar_add_file(w->tar, ".gpudoctor/environ", 0644, buf ? buf : "", len);
	free(buf);
}

int gd_capture_write(struct gd_capture *c, gd_ctx *ctx, const char *tarpath,
		     struct gd_capture_stats *st, char *err, size_t errlen)
{
	struct writer w = {c, ctx, NULL, st};
	gd_fs_hook saved = ctx->fs.hook;

	memset(st, 0, sizeof *st);
	w.tar = gd_tar_open(tarpath, err, errlen);
	if (!w.tar)
		return -1;
	ctx->fs.hook = NULL; /* what we read now is not discovery */
	for (size_t i = 0; i < c->recs.n; i++)
		put_path(&w, c->recs.v[i].path, c->recs.v[i].kind, 0);
	put_environ(&w);
	ctx->fs.hook = saved;
	if (gd_tar_close(w.tar) < 0) {
		gd_fmt(err, errlen, "writing %s failed", tarpath);
		return -1;
	}
	return 0;
}
