/* `gather` of a Windows machine (live, or a Windows capture replayed with
 * --root): the capture format of tests/fixtures/windows/FORMAT.md. The
 * file tree comes from core/capture.c (the paths discovery and inventory
 * used, under fs/<drive>/); this filter cuts DLLs down to what gpudoctor
 * reads from them (binscan/pe_slim.c) or stores them empty with a line in
 * .gpudoctor/versions.tsv, and adds the registry exports (core's
 * gd_reg_export of the keys in gd_win_regroots). */
#include "gather_win.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "binscan/pe_slim.h"
#include "binscan/pe_version.h"
#include "core/wincap.h"

#define PE_READ_MAX (512u << 20) /* a DLL bigger than this is stored empty */

struct gw {
	gd_strvec versions; /* versions.tsv lines */
};

static int is_pe_name(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && (!strcasecmp(path + n - 4, ".dll") ||
			 !strcasecmp(path + n - 4, ".pyd") ||
			 !strcasecmp(path + n - 4, ".exe") ||
			 !strcasecmp(path + n - 4, ".sys"));
}

/* "/fs/C/Windows/x.dll" -> "C:\Windows\x.dll" */
static void win_name(const char *path, char *buf, size_t cap)
{
	gd_fmt(buf, cap, "%c:%s", path[4], path + 5);
	for (char *q = buf; *q; q++)
		if (*q == '/')
			*q = '\\';
}

static void version_line(struct gw *g, gd_ctx *ctx, const char *path,
			 const uint8_t *b, size_t n)
{
	struct gd_win_filever fv = {{0}, {0}, 0};
	char wp[1024], line[1200], sz[24] = "";
	struct stat st;
	char **slot;
	int have;

	win_name(path, wp, sizeof wp);
	/* a capture's own line first: its file is empty here too */
	have = gd_wincap_version(ctx, wp, &fv) == 0;
	if (!have && n)
		gd_pe_version(b, n, fv.file_version, fv.product_version,
			      sizeof fv.file_version);
	/* the size of a file here; a capture's empty file has none */
	if (!fv.size && ctx->fs.is_slash &&
	    gd_fs_stat(&ctx->fs, path, &st) == 0)
		fv.size = (uint64_t)st.st_size;
	if (fv.size)
		gd_fmt(sz, sizeof sz, "%llu", (unsigned long long)fv.size);
	if (!have && !fv.file_version[0] && !fv.product_version[0] && !sz[0])
		return; /* nothing known: no line */
	gd_fmt(line, sizeof line, "%s\t%s\t%s\t%s", wp, fv.file_version,
	       fv.product_version, sz);
	if ((slot = gd_vec_push(&g->versions)) && !(*slot = strdup(line)))
		g->versions.n--;
}

/* Only fs/ is stored from what discovery read: the registry, environ and
 * versions.tsv of a replayed capture are written anew by finish(). */
static int on_file(void *arg, gd_ctx *ctx, const char *path, int rc, char **buf,
		   size_t *len)
{
	struct gw *g = arg;
	uint8_t *slim = NULL;
	size_t sn = 0;

	if (strncmp(path, "/fs/", 4) || !path[4] || path[5] != '/')
		return 1;
	if (!*buf) { /* listed only: a replayed capture's line is kept */
		if (!ctx->fs.is_slash)
			version_line(g, ctx, path, NULL, 0);
		return rc;
	}
	if (!is_pe_name(path))
		return rc;  /* as read */
	if (rc == -EFBIG) { /* past capture.c's 16 MiB: read it all */
		free(*buf);
		*buf = NULL;
		*len = 0;
		rc = gd_fs_read_alloc(&ctx->fs, path, PE_READ_MAX, buf, len);
	}
	if (rc == 0 && gd_pe_slim((uint8_t *)*buf, *len, &slim, &sn) == 0) {
		free(*buf);
		*buf = (char *)slim;
		*len = sn;
		return 0;
	}
	version_line(g, ctx, path, (uint8_t *)*buf, *buf ? *len : 0);
	free(*buf);
	*buf = NULL;
	*len = 0;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void put_versions(struct gw *g, gd_tar *t)
{
	size_t len = 0, o = 0;
	char *buf;

	if (!g->versions.n)
		return;
	qsort(g->versions.v, g->versions.n, sizeof *g->versions.v, cmp_str);
	for (size_t i = 0; i < g->versions.n; i++)
		len += strlen(g->versions.v[i]) + 1;
	if (!(buf = malloc(len + 1)))
		return;
	for (size_t i = 0; i < g->versions.n; i++)
		o += (size_t)sprintf(buf + o, "%s\n", g->versions.v[i]);
	gd_tar_add_file(t, ".gpudoctor/versions.tsv", 0644, buf, o);
	free(buf);
}

static void note(struct gd_capture_stats *st, const char *what)
{
	char **slot = gd_vec_push(&st->failures);

	st->failed++;
	if (slot && !(*slot = strdup(what)))
		st->failures.n--;
}

/* registry/<file>.reg for each file of gd_win_regroots that has a key */
static void put_registry(gd_ctx *ctx, gd_tar *t, struct gd_capture_stats *st)
{
	int dir = 0;

	for (size_t i = 0; ctx->reg && i < gd_win_n_regroots;) {
		const char *file = gd_win_regroots[i].file, *paths[8];
		char name[96], full[8][512];
		size_t n = 0, nkeys = 0, len = 0;
		void *out = NULL;
		int rc;

		for (; i < gd_win_n_regroots && n < 8 &&
		       !strcmp(gd_win_regroots[i].file, file);
		     i++, n++) {
			gd_fmt(full[n], sizeof full[n], "%s\\%s",
			       gd_win_regroots[i].hive,
			       gd_win_regroots[i].path);
			paths[n] = full[n];
		}
		rc = gd_reg_export(ctx->reg, paths, n, GD_WIN_REG_MAX_KEYS,
				   &out, &len, &nkeys);
		gd_fmt(name, sizeof name, "registry/%s.reg", file);
		if (rc < 0)
			note(st, "registry: out of memory");
		else if (rc > 0)
			note(st, "registry: a key with over 20000 subkeys "
				 "was cut short");
		if (nkeys && !dir++)
			gd_tar_add_dir(t, "registry", 0755);
		if (nkeys && gd_tar_add_file(t, name, 0644, out, len) == 0)
			st->files++, st->bytes += len;
		free(out);
	}
}

static void on_finish(void *arg, gd_ctx *ctx, gd_tar *t,
		      struct gd_capture_stats *st)
{
	put_versions(arg, t);
	put_registry(ctx, t, st);
}

struct gw *gd_gather_win_new(struct gd_capture *cap)
{
	struct gw *g = calloc(1, sizeof *g);
	struct gd_capture_filter f = {on_file, on_finish, g};

	if (g)
		gd_capture_set_filter(cap, &f);
	return g;
}

void gd_gather_win_free(struct gw *g)
{
	if (g)
		gd_strvec_free(&g->versions);
	free(g);
}

static int cmp_nocase(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* The whole environment, as `set` lists it (FORMAT.md: .gpudoctor/environ
 * is the environment gpudoctor ran in). */
void gd_gather_win_env(gd_ctx *ctx, gd_strvec *names)
{
	char *const *env = ctx->judged ? ctx->judged : ctx->env;

	for (size_t i = 0; env && env[i]; i++) {
		const char *eq = strchr(env[i], '=');
		char **slot;

		if (!eq || eq == env[i]) /* "=C:=C:\x": cmd's drive cwd */
			continue;
		if ((slot = gd_vec_push(names)) &&
		    !(*slot = strndup(env[i], (size_t)(eq - env[i]))))
			names->n--;
	}
	if (names->n)
		qsort(names->v, names->n, sizeof *names->v, cmp_nocase);
}
