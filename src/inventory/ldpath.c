/* The loader's search order from files (see ldpath.h). Sources:
 * ld.so(8) "Shared object dependencies are searched in: DT_RPATH,
 * LD_LIBRARY_PATH, DT_RUNPATH, /etc/ld.so.cache, the default paths";
 * ldconfig(8) builds the cache from /etc/ld.so.conf, whose "include" lines
 * take glob patterns relative to the including file's directory (glibc's
 * ldconfig; docs/scan.md, "Sources"). */
#include "ldpath.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define LDCONF_MAX_FILES 256
#define LDCONF_MAX_DEPTH 4
#define RESOLVE_MAX_LINKS 40

const char *gd_ld_multiarch(void)
{
#if defined(__x86_64__)
	return "x86_64-linux-gnu";
#elif defined(__aarch64__)
	return "aarch64-linux-gnu";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return "powerpc64le-linux-gnu";
#elif defined(__riscv) && __riscv_xlen == 64
	return "riscv64-linux-gnu";
#elif defined(__i386__)
	return "i386-linux-gnu";
#else
	return "x86_64-linux-gnu";
#endif
}

int gd_path_join(char *out, size_t cap, const char *dir, const char *name)
{
	size_t n = strlen(dir);
	int rc;

	while (*name == '/')
		name++;
	if (n && dir[n - 1] == '/')
		rc = gd_fmt(out, cap, "%s%s", dir, name);
	else
		rc = gd_fmt(out, cap, "%s/%s", dir, name);
	/* a path cut at cap could name another file: it ends in "..." (no
	 * such file, and every message shows the cut) */
	if (rc == -ENAMETOOLONG)
		gd_mark_cut(out, cap);
	return rc;
}

int gd_soname_version(const char *fname, const char *base, char *ver,
		      size_t cap, unsigned *major)
{
	size_t k = strlen(base);
	const char *p;

	if (cap)
		ver[0] = '\0';
	if (major)
		*major = 0;
	if (strncmp(fname, base, k) || strncmp(fname + k, ".so", 3))
		return 0;
	p = fname + k + 3;
	if (!*p)
		return 1;
	if (*p != '.' || !isdigit((unsigned char)p[1]))
		return 0;
	for (const char *q = p + 1; *q; q++)
		if (!isdigit((unsigned char)*q) && *q != '.')
			return 0;
	gd_strlcpy(ver, p + 1, cap);
	if (major) {
		unsigned long v = strtoul(p + 1, NULL, 10);

		*major = v > 0xffffffUL ? 0 : (unsigned)v;
	}
	return 1;
}

/* Move the first component of *rest into comp; returns 0 when none left. */
static int next_comp(char *rest, char *comp, size_t cap)
{
	char *s = rest, *e;

	while (*s == '/')
		s++;
	if (!*s)
		return 0;
	e = strchr(s, '/');
	if (!e)
		e = s + strlen(s);
	if ((size_t)(e - s) >= cap)
		return -1;
	memcpy(comp, s, (size_t)(e - s));
	comp[e - s] = '\0';
	memmove(rest, e, strlen(e) + 1);
	return 1;
}

static void drop_last(char *cur)
{
	char *sl = strrchr(cur, '/');

	if (sl)
		*sl = '\0';
}

/* One symlink step: splice target in front of the unresolved rest. */
static int splice_link(char *cur, char *rest, size_t cap, const char *target)
{
	char tmp[4096];

	if (strlen(target) + strlen(rest) + 2 > sizeof tmp)
		return -ENAMETOOLONG;
	gd_fmt(tmp, sizeof tmp, "%s/%s", target, rest);
	gd_strlcpy(rest, tmp, cap);
	if (target[0] == '/')
		cur[0] = '\0';
	return 0;
}

int gd_fs_resolve(const gd_fs *fs, const char *path, char *out, size_t cap)
{
	char rest[4096], cur[4096] = "", comp[256], cand[4096], target[4096];
	int links = 0, r, rc = 0;

	if (!path || path[0] != '/')
		return -EINVAL;
	gd_strlcpy(rest, path, sizeof rest);
	while ((r = next_comp(rest, comp, sizeof comp)) > 0) {
		struct stat st;

		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			drop_last(cur);
			continue;
		}
		gd_fmt(cand, sizeof cand, "%s/%s", cur, comp);
		rc = gd_fs_lstat(fs, cand, &st);
		if (rc < 0) {
			gd_fmt(cur, sizeof cur, "%s%s", cand, rest);
			break;
		}
		if (!S_ISLNK(st.st_mode)) {
			gd_strlcpy(cur, cand, sizeof cur);
			continue;
		}
		if (++links > RESOLVE_MAX_LINKS) {
			rc = -ELOOP;
			gd_strlcpy(cur, cand, sizeof cur);
			break;
		}
		rc = gd_fs_readlink(fs, cand, target, sizeof target);
		if (rc == 0)
			rc = splice_link(cur, rest, sizeof rest, target);
		if (rc < 0) {
			gd_strlcpy(cur, cand, sizeof cur);
			break;
		}
	}
	if (r < 0)
		rc = -ENAMETOOLONG;
	gd_strlcpy(out, cur[0] ? cur : "/", cap);
	return rc;
}

static void push_str(gd_strvec *v, const char *s, size_t n)
{
	char **slot = gd_vec_push(v);

	if (!slot)
		return;
	*slot = strndup(s, n);
	if (!*slot)
		v->n--;
}

int gd_ldconf_parse(const char *buf, gd_strvec *dirs, gd_strvec *includes)
{
	int understood = 0;

	while (buf && *buf) {
		const char *e = strchr(buf, '\n'), *s = buf, *hash;
		size_t n;

		if (!e)
			e = buf + strlen(buf);
		buf = *e ? e + 1 : e;
		hash = memchr(s, '#', (size_t)(e - s));
		if (hash)
			e = hash;
		while (s < e && isspace((unsigned char)*s))
			s++;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		n = (size_t)(e - s);
		if (!n)
			continue;
		if (n > 8 && !strncmp(s, "include", 7) &&
		    isspace((unsigned char)s[7])) {
			s += 8;
			while (s < e && isspace((unsigned char)*s))
				s++;
			push_str(includes, s, (size_t)(e - s));
		} else if (n > 6 && !strncmp(s, "hwcap", 5) &&
			   isspace((unsigned char)s[5])) {
			/* obsolete hwcap lines name no directory */
		} else if (*s == '/') {
			push_str(dirs, s, n);
		} else {
			continue;
		}
		understood++;
	}
	return understood;
}

static void add_dir(gd_ctx *ctx, struct gd_ld_dirs *dirs, const char *path,
		    const char *from)
{
	char res[512];
	struct gd_ld_dir *d;

	if (path[0] != '/' || strlen(path) >= sizeof d->path)
		return;
	if (gd_fs_resolve(&ctx->fs, path, res, sizeof res) < 0)
		return; /* missing directories cannot hold anything */
	for (size_t i = 0; i < dirs->d.n; i++)
		if (!strcmp(dirs->d.v[i].resolved, res))
			return;
	d = gd_vec_push(&dirs->d);
	if (!d)
		return;
	gd_strlcpy(d->path, path, sizeof d->path);
	gd_strlcpy(d->resolved, res, sizeof d->resolved);
	gd_strlcpy(d->from, from, sizeof d->from);
}

struct conf_walk {
	gd_ctx *ctx;
	struct gd_ld_dirs *dirs;
	int files;
};

static void read_conf(struct conf_walk *w, const char *file, int depth);

static void expand_include(struct conf_walk *w, const char *conf,
			   const char *pattern, int depth)
{
	char full[1024], dir[1024], path[1200];
	const char *base;
	gd_strvec names;

	if (pattern[0] == '/') {
		gd_strlcpy(full, pattern, sizeof full);
	} else {
		gd_strlcpy(dir, conf, sizeof dir);
		drop_last(dir);
		gd_path_join(full, sizeof full, dir[0] ? dir : "/", pattern);
	}
	base = strrchr(full, '/') + 1;
	gd_fmt(dir, sizeof dir, "%.*s", (int)(base - full), full);
	if (strpbrk(dir, "*?["))
		return; /* wildcards in directory parts: not used in practice */
	if (!strpbrk(base, "*?[")) {
		read_conf(w, full, depth + 1);
		return;
	}
	if (gd_fs_list(&w->ctx->fs, dir, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		if (fnmatch(base, names.v[i], FNM_PERIOD))
			continue;
		gd_path_join(path, sizeof path, dir, names.v[i]);
		read_conf(w, path, depth + 1);
	}
	gd_strvec_free(&names);
}

static void read_conf(struct conf_walk *w, const char *file, int depth)
{
	gd_strvec dirs = {0}, incs = {0};
	char *buf = NULL;
	int rc;

	if (depth > LDCONF_MAX_DEPTH || ++w->files > LDCONF_MAX_FILES)
		return;
	rc = gd_fs_read_alloc(&w->ctx->fs, file, 256 * 1024, &buf, NULL);
	if (rc < 0 && rc != -EFBIG) {
		if (rc != -ENOENT)
			gd_diag_add(w->ctx, GD_DIAG_INFO, file,
				    "ld.so.conf: %s", gd_fs_strerror(rc));
		free(buf);
		return;
	}
	gd_ldconf_parse(buf, &dirs, &incs);
	free(buf);
	for (size_t i = 0; i < dirs.n; i++)
		add_dir(w->ctx, w->dirs, dirs.v[i], "ld.so.conf");
	for (size_t i = 0; i < incs.n; i++)
		expand_include(w, file, incs.v[i], depth);
	gd_strvec_free(&dirs);
	gd_strvec_free(&incs);
}

int gd_ld_dirs_collect(gd_ctx *ctx, struct gd_ld_dirs *dirs)
{
	const char *llp = gd_ctx_getenv(ctx, "LD_LIBRARY_PATH");
	const char *ma = gd_ld_multiarch();
	struct conf_walk w = {ctx, dirs, 0};
	char p[512];

	memset(dirs, 0, sizeof *dirs);
	while (llp && *llp) {
		size_t n = strcspn(llp, ":;");

		if (n && n < sizeof p) {
			gd_fmt(p, sizeof p, "%.*s", (int)n, llp);
			add_dir(ctx, dirs, p, "LD_LIBRARY_PATH");
		}
		llp += n;
		if (*llp)
			llp++;
	}
	read_conf(&w, "/etc/ld.so.conf", 0);
	/* glibc's built-in defaults; Debian adds the multiarch pair */
	gd_fmt(p, sizeof p, "/lib/%s", ma);
	add_dir(ctx, dirs, p, "default");
	gd_fmt(p, sizeof p, "/usr/lib/%s", ma);
	add_dir(ctx, dirs, p, "default");
	add_dir(ctx, dirs, "/lib64", "default");
	add_dir(ctx, dirs, "/usr/lib64", "default");
	add_dir(ctx, dirs, "/lib", "default");
	add_dir(ctx, dirs, "/usr/lib", "default");
	return 0;
}

void gd_ld_dirs_free(struct gd_ld_dirs *dirs)
{
	gd_vec_free(&dirs->d);
}

long gd_ld_find(const gd_ctx *ctx, const struct gd_ld_dirs *dirs,
		const char *soname, char *out, size_t cap)
{
	char p[1024];
	struct stat st;

	if (!soname[0] || strchr(soname, '/'))
		return -1;
	for (size_t i = 0; i < dirs->d.n; i++) {
		gd_path_join(p, sizeof p, dirs->d.v[i].path, soname);
		if (gd_fs_stat(&ctx->fs, p, &st) == 0 && S_ISREG(st.st_mode)) {
			gd_strlcpy(out, p, cap);
			return (long)i;
		}
	}
	if (cap)
		out[0] = '\0';
	return -1;
}
