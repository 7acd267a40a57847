/* DT_NEEDED resolved as the dynamic loader does (ld.so(8), "Dynamic
 * linker search order"): a name with '/' is used as is; else DT_RPATH
 * (only when there is no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH,
 * /etc/ld.so.cache, then the default directories. A candidate counts only
 * when it is an ELF of the same machine, as ld.so skips the others.
 * Cache format (glibc's; docs/scan.md, "Sources"):
 * "glibc-ld.so.cache1.1": 48-byte header (u32 nlibs at 20), then nlibs
 * 24-byte entries {i32 flags, u32 key, u32 value, u32 osversion, u64
 * hwcap}; key/value are offsets from the header start. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan.h"

#define CACHE_MAGIC "glibc-ld.so.cache1.1"

void gd_bs_env_set_ldcache(struct gd_bs_env *env, char *buf, size_t len)
{
	const char *m;
	uint32_t cnt;

	free(env->ldcache);
	env->ldcache = buf;
	env->ldcache_len = len;
	m = buf ? memmem(buf, len, CACHE_MAGIC, strlen(CACHE_MAGIC)) : NULL;
	if (!m ||
	    gd_bs_rd32((const uint8_t *)m, len - (size_t)(m - buf), 20, &cnt)) {
		free(env->ldcache);
		env->ldcache = NULL;
		env->ldcache_len = 0;
		return;
	}
	env->ldcache_hdr = (size_t)(m - buf);
	env->ldcache_n = cnt;
}

void gd_bs_env_init(gd_ctx *ctx, struct gd_bs_env *env,
		    const struct gd_bs_gpu *gpus, size_t n)
{
	char *buf;
	size_t len;

	memset(env, 0, sizeof *env);
	env->gpus = gpus;
	env->n_gpus = n;
	if (gd_fs_read_alloc(&ctx->fs, "/etc/ld.so.cache", 64u << 20, &buf,
			     &len))
		return;
	gd_bs_env_set_ldcache(env, buf, len);
}

void gd_bs_env_free(struct gd_bs_env *env)
{
	free(env->ldcache);
	env->ldcache = NULL;
}

/* Cache entry i: key (soname) and value (path); -1 when out of range. */
static int cache_entry(const struct gd_bs_env *env, unsigned i,
		       const char **key, const char **val, uint32_t *flags)
{
	const uint8_t *h = (const uint8_t *)env->ldcache + env->ldcache_hdr;
	size_t n = env->ldcache_len - env->ldcache_hdr;
	uint64_t o = 48 + (uint64_t)i * 24;
	uint32_t k, v;

	if (gd_bs_rd32(h, n, o, flags) || gd_bs_rd32(h, n, o + 4, &k) ||
	    gd_bs_rd32(h, n, o + 8, &v) || gd_bs_str(h, n, k, key) ||
	    gd_bs_str(h, n, v, val))
		return -1;
	return 0;
}

/* An ELF of the needer's machine? fs: through ctx->fs (machine path) or
 * directly (user's tree, $ORIGIN). */
static int usable(gd_ctx *ctx, const char *path, int via_fs, uint16_t machine)
{
	uint8_t h[20];
	uint16_t m;
	int fd = via_fs ? gd_fs_open(&ctx->fs, path,
				     O_RDONLY | O_CLOEXEC | O_NONBLOCK)
			: open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t r;
	struct stat st;

	if (fd < 0)
		return 0;
	r = (fstat(fd, &st) || !S_ISREG(st.st_mode))
		? -1
		: pread(fd, h, sizeof h, 0);
	close(fd);
	if (r != (ssize_t)sizeof h || memcmp(h, "\177ELF", 4))
		return 0;
	gd_bs_rd16(h, sizeof h, 18, &m);
	return !machine || m == machine;
}

/* Replace the first $NAME / ${NAME} in tok by val into out; 1 when done. */
static int subst(const char *tok, const char *name, const char *val, char *out,
		 size_t cap)
{
	char a[32], b[32];
	const char *p;
	size_t skip;

	gd_fmt(a, sizeof a, "$%s", name);
	gd_fmt(b, sizeof b, "${%s}", name);
	if ((p = strstr(tok, b)))
		skip = strlen(b);
	else if ((p = strstr(tok, a)))
		skip = strlen(a);
	else
		return 0;
	gd_fmt(out, cap, "%.*s%s%s", (int)(p - tok), tok, val, p + skip);
	return 1;
}

/* One candidate dir of a search list with its dynamic string tokens
 * expanded (ld.so(8) "Dynamic string tokens"). $LIB is "lib64" on
 * Fedora's glibc and "lib/<triplet>" on Debian's: both are tried, as the
 * machine's own glibc is not known here. Returns how many expansions. */
static int expand_dir(const char *tok, const char *origin, char out[][1024])
{
	static const char *const libs[] = {"lib/x86_64-linux-gnu", "lib64",
					   "lib"};
	char tmp[1024];
	int n = 0;

	if (subst(tok, "ORIGIN", origin, tmp, sizeof tmp))
		tok = strcpy(out[3], tmp);
	if (subst(tok, "PLATFORM", "x86_64", tmp, sizeof tmp))
		tok = strcpy(out[3], tmp);
	for (int i = 0; i < 3; i++)
		if (subst(tok, "LIB", libs[i], out[n], sizeof out[n]))
			n++;
	if (!n)
		gd_strlcpy(out[n++], tok, sizeof out[0]);
	return n;
}

static int try_dirs(gd_ctx *ctx, const struct gd_bs_env *env,
		    const struct gd_bs_file *f, const char *list,
		    const char *soname, const char *how,
		    struct gd_bs_need *need)
{
	char buf[2048], origin[1024], *save, *tok, dirs[4][1024];
	const char *sl = strrchr(f->path, '/');
	int in_archive = strchr(f->path, '!') != NULL;

	if (!list || !*list)
		return 0;
	if (sl)
		gd_fmt(origin, sizeof origin, "%.*s", (int)(sl - f->path),
		       f->path);
	else
		gd_strlcpy(origin, ".", sizeof origin);
	gd_strlcpy(buf, list, sizeof buf);
	for (tok = strtok_r(buf, ":;", &save); tok;
	     tok = strtok_r(NULL, ":;", &save)) {
		/* $ORIGIN of a file the user named is a host path; of a
		 * machine's library (env->in_root), a path under the root */
		int has_origin = strstr(tok, "ORIGIN") != NULL;
		int via_fs = !has_origin || env->in_root;
		int nd;

		if (has_origin && in_archive)
			continue;
		nd = expand_dir(tok, origin, dirs);
		for (int i = 0; i < nd; i++) {
			char cand[4096];

			gd_fmt(cand, sizeof cand, "%s/%s", dirs[i], soname);
			if (!usable(ctx, cand, via_fs && cand[0] == '/',
				    f->machine))
				continue;
			need->found = 1;
			gd_strlcpy(need->path, cand, sizeof need->path);
			gd_strlcpy(need->how, how, sizeof need->how);
			return 1;
		}
	}
	return 0;
}

static int try_cache(gd_ctx *ctx, const struct gd_bs_env *env,
		     const struct gd_bs_file *f, const char *soname,
		     struct gd_bs_need *need)
{
	for (unsigned i = 0; env->ldcache && i < env->ldcache_n; i++) {
		const char *k, *v;
		uint32_t fl;

		if (cache_entry(env, i, &k, &v, &fl))
			break;
		/* 0x0303 = FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 (docs/scan.md) */
		if (f->machine == 62 && (fl & 0xff00) != 0x0300)
			continue;
		if (!strcmp(k, soname) && usable(ctx, v, 1, f->machine)) {
			need->found = 1;
			gd_strlcpy(need->path, v, sizeof need->path);
			gd_strlcpy(need->how, "ld.so.cache", sizeof need->how);
			return 1;
		}
	}
	return 0;
}

/* "libamdhip64.so.6" missing, the cache knows "libamdhip64.so.5": say so. */
static void other_majors(const struct gd_bs_env *env, const char *soname,
			 char *note, size_t cap)
{
	const char *so = strstr(soname, ".so.");
	size_t stem, used = 0;

	note[0] = '\0';
	if (!so || !env->ldcache)
		return;
	stem = (size_t)(so - soname) + 4;
	for (unsigned i = 0; i < env->ldcache_n && used + 1 < cap; i++) {
		const char *k, *v;
		uint32_t fl;

		if (cache_entry(env, i, &k, &v, &fl))
			break;
		if (strncmp(k, soname, stem) || !strcmp(k, soname))
			continue;
		gd_fmt(note + used, cap - used, "%s%s (%s)",
		       used ? ", " : "installed instead: ", k, v);
		used = strlen(note);
	}
}

void gd_ldresolve(gd_ctx *ctx, const struct gd_bs_env *env,
		  const struct gd_bs_file *f, const char *soname,
		  struct gd_bs_need *need)
{
	static const char *const defaults =
	    "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/"
	    "lib64:/lib:/usr/lib";

	memset(need, 0, sizeof *need);
	gd_strlcpy(need->soname, soname, sizeof need->soname);
	if (strchr(soname, '/')) {
		if (usable(ctx, soname, soname[0] == '/', f->machine)) {
			need->found = 1;
			gd_strlcpy(need->path, soname, sizeof need->path);
			gd_strlcpy(need->how, "path", sizeof need->how);
		}
		return;
	}
	if ((!f->dyn.runpath[0] &&
	     try_dirs(ctx, env, f, f->dyn.rpath, soname, "RPATH", need)) ||
	    (!f->dyn.runpath[0] && env->rpath_extra &&
	     try_dirs(ctx, env, f, env->rpath_extra, soname, "RPATH", need)) ||
	    try_dirs(ctx, env, f, gd_ctx_getenv(ctx, "LD_LIBRARY_PATH"), soname,
		     "LD_LIBRARY_PATH", need) ||
	    try_dirs(ctx, env, f, f->dyn.runpath, soname, "RUNPATH", need) ||
	    try_cache(ctx, env, f, soname, need) ||
	    try_dirs(ctx, env, f, defaults, soname, "default", need))
		return;
	other_majors(env, soname, need->note, sizeof need->note);
}

static int cmp_need(const void *a, const void *b)
{
	const struct gd_bs_symver *x = *(const struct gd_bs_symver *const *)a;
	const struct gd_bs_symver *y = *(const struct gd_bs_symver *const *)b;
	int c = strcmp(x->sym, y->sym);

	return c ? c : strcmp(x->ver, y->ver);
}

static void *map_lib(gd_ctx *ctx, const struct gd_bs_need *need, size_t *len)
{
	int via_fs = need->path[0] == '/' && strcmp(need->how, "RUNPATH") &&
		     strcmp(need->how, "RPATH") && strcmp(need->how, "path");
	int fd = via_fs ? gd_fs_open(&ctx->fs, need->path, O_RDONLY | O_CLOEXEC)
			: open(need->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *map;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return NULL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	madvise(map, (size_t)st.st_size, MADV_RANDOM);
	*len = (size_t)st.st_size;
	return map;
}

/* One found library: symbol needs may be met by any library the file
 * needs (ld.so searches them all), bare version needs only by the file the
 * verneed entry names. A library without version definitions meets its
 * version needs (ld.so only warns "no version information available"). */
static void mark_lib(gd_ctx *ctx, const struct gd_bs_need *need,
		     const struct gd_bs_symver **v, size_t n,
		     unsigned char *found)
{
	const struct gd_bs_symver **mine = calloc(n + 1, sizeof *mine);
	unsigned char *mf = calloc(n + 1, 1);
	size_t *idx = calloc(n + 1, sizeof *idx), k = 0, ns = 0, len = 0;
	struct gd_elf e;
	void *map = NULL;
	int rc = -1;

	if (!mine || !mf || !idx)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (v[i]->sym[0])
			ns += !found[i];
		else if (!strcmp(v[i]->lib, need->soname)) {
			idx[k] = i;
			mine[k++] = v[i];
		}
	}
	if (!ns && !k)
		goto out; /* nothing left to learn from this library */
	map = map_lib(ctx, need, &len);
	if (map && !gd_elf_open(&e, map, len, NULL, 0)) {
		rc = gd_elf_mark_defined(&e, v, n, found);
		gd_elf_mark_defined(&e, mine, k, mf);
	}
	for (size_t i = 0; i < k; i++)
		if (mf[i] || rc < 0)
			found[idx[i]] = 1;
out:
	if (map)
		munmap(map, len);
	free(mine);
	free(mf);
	free(idx);
}

void gd_ldcheck_symbols(gd_ctx *ctx, struct gd_bs_file *f)
{
	size_t n = f->dyn.symvers.n;
	const struct gd_bs_symver **v;
	unsigned char *found;

	if (!n)
		return;
	v = calloc(n, sizeof *v);
	found = calloc(n, 1);
	if (!v || !found)
		goto out;
	for (size_t i = 0; i < n; i++)
		v[i] = &f->dyn.symvers.v[i];
	qsort(v, n, sizeof *v, cmp_need);
	for (size_t i = 0; i < f->needs.n; i++)
		if (f->needs.v[i].found && strcmp(f->needs.v[i].how, "archive"))
			mark_lib(ctx, &f->needs.v[i], v, n, found);
	for (size_t i = 0; i < n; i++) {
		struct gd_bs_need *nd = NULL;

		if (found[i])
			continue;
		for (size_t k = 0; k < f->needs.n; k++)
			if (!strcmp(f->needs.v[k].soname, v[i]->lib))
				nd = &f->needs.v[k];
		/* a missing library is reported as such; an archive member
		 * cannot be checked */
		if (!nd || !nd->found || !strcmp(nd->how, "archive"))
			continue;
		if (!nd->missing_syms++)
			gd_fmt(nd->missing_first, sizeof nd->missing_first,
			       "%s%s%s", v[i]->sym,
			       v[i]->sym[0] ? "@" : "version ", v[i]->ver);
	}
out:
	free(v);
	free(found);
}
