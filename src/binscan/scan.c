/* The scan driver: user paths (files, directories, archives) -> one
 * gd_bs_file per binary (ELF here, PE in pe.c). Files are mapped read-only
 * and only the headers and sections that name GPU targets are touched.
 * User-named paths are the user's files, so they are opened directly, not
 * through ctx->fs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan.h"

#define MAX_SYMVERS 2048

static void set_err(struct gd_bs_file *f, const char *msg)
{
	if (!f->error[0])
		gd_strlcpy(f->error, msg, sizeof f->error);
}

static void scan_sections(const struct gd_elf *e, int fd, struct gd_bs_file *f)
{
	struct gd_elf_shdr s;
	const uint8_t *p;
	size_t len;
	char err[200];

	for (unsigned i = 1; i < e->shnum; i++) {
		const char *nm;

		if (gd_elf_shdr(e, i, &s))
			continue;
		nm = gd_elf_shname(e, &s);
		if (strcmp(nm, ".hip_fatbin") && strcmp(nm, ".nv_fatbin") &&
		    strcmp(nm, "__nv_relfatbin") &&
		    strcmp(nm, "__CLANG_OFFLOAD_BUNDLE__"))
			continue;
		if (gd_elf_bytes(e, &s, &p, &len)) {
			gd_fmt(
			    err, sizeof err,
			    "section %s points outside the file (truncated?)",
			    nm);
			set_err(f, err);
			continue;
		}
		if (nm[1] == 'h' || (nm[0] == '_' && nm[2] == 'C')) {
			if (gd_offload_bundles_scan(p, len, f, err, sizeof err))
				set_err(f, err);
		} else if (len &&
			   (fd >= 0 ? gd_nvfatbin_scan_fd(fd, s.offset, len, f,
							  err, sizeof err)
				    : gd_nvfatbin_scan(p, len, f, err,
						       sizeof err))) {
			set_err(f, err);
		}
	}
}

static int scan_elf(const uint8_t *b, size_t n, int fd, struct gd_bs_file *f)
{
	struct gd_elf e;
	char err[200];
	struct gd_bs_target *t;
	int rc;

	if (gd_elf_open(&e, b, n, err, sizeof err)) {
		set_err(f, err);
		return -1;
	}
	f->machine = e.machine;
	if (e.machine == GD_EM_AMDGPU) {
		char gfx[40], feat[40];
		unsigned cov;

		gd_strlcpy(f->format, "amdgpu-code-object", sizeof f->format);
		gd_amdgpu_co_target(b, n, gfx, sizeof gfx, feat, sizeof feat,
				    &cov);
		t = gd_bs_add_target(f, GD_BS_AMDGCN, gfx, feat, "code-object");
		if (t)
			t->co_version = cov;
		return 0;
	}
	if (e.machine == GD_EM_CUDA) { /* a cubin: EF_CUDA_SM in the low byte */
		char sm[16];

		gd_strlcpy(f->format, "cubin", sizeof f->format);
		gd_fmt(sm, sizeof sm, "sm_%u", e.flags & 0xff);
		gd_bs_add_target(f, GD_BS_SASS, sm, "", "cubin");
		return 0;
	}
	gd_strlcpy(f->format, "elf", sizeof f->format);
	rc = gd_elf_dynamic(&e, &f->dyn, MAX_SYMVERS, err, sizeof err);
	if (rc < 0)
		set_err(f, err);
	f->has_dyn = rc == 0;
	scan_sections(&e, fd, f);
	return 0;
}

int gd_bs_scan_bytes(const uint8_t *b, size_t n, struct gd_bs_file *f)
{
	return gd_bs_scan_bytes_fd(b, n, -1, f);
}

int gd_bs_scan_bytes_fd(const uint8_t *b, size_t n, int fd,
			struct gd_bs_file *f)
{
	char err[200];
	uint64_t used;

	f->size = n;
	if (n >= 4 && !memcmp(b, "\177ELF", 4))
		return scan_elf(b, n, fd, f);
	if (n >= 2 && b[0] == 'M' && b[1] == 'Z')
		return gd_pe_scan(b, n, fd, f);
	if ((n >= 24 && !memcmp(b, "__CLANG_OFFLOAD_BUNDLE__", 24)) ||
	    (n >= 4 && !memcmp(b, "CCOB", 4))) {
		gd_strlcpy(f->format, b[0] == 'C' ? "ccob" : "offload-bundle",
			   sizeof f->format);
		if (gd_offload_bundle_scan(b, n, f, &used, err, sizeof err)) {
			set_err(f, err);
			return -1;
		}
		return 0;
	}
	if (n >= 4 && b[0] == 0x50 && b[1] == 0xed && b[2] == 0x55 &&
	    b[3] == 0xba) {
		gd_strlcpy(f->format, "fatbin", sizeof f->format);
		if (gd_nvfatbin_scan(b, n, f, err, sizeof err)) {
			set_err(f, err);
			return -1;
		}
		return 0;
	}
	set_err(f, n ? "not an ELF, PE, wheel/zip, offload bundle or fatbin"
		     : "empty file");
	return -1;
}

static int is_zip(const uint8_t *b, size_t n)
{
	return n >= 4 && b[0] == 'P' && b[1] == 'K' &&
	       ((b[2] == 3 && b[3] == 4) || (b[2] == 5 && b[3] == 6));
}

static int want_member(const char *name)
{
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	/* Windows wheels: DLLs and extension modules (any case) */
	if (strlen(base) > 4 && (!strcasecmp(base + strlen(base) - 4, ".dll") ||
				 !strcasecmp(base + strlen(base) - 4, ".pyd")))
		return 1;
	return gd_endswith(base, ".so") || strstr(base, ".so.") ||
	       gd_endswith(base, ".hsaco") || gd_endswith(base, ".co") ||
	       gd_endswith(base, ".cubin") || gd_endswith(base, ".fatbin") ||
	       gd_endswith(base, ".hipfb");
}

struct zip_ctx {
	const char *zpath;
	gd_bs_files *out;
};

/* dir/../x -> x, ./ dropped; in place. */
static void normalize(char *p)
{
	char out[1024] = "";
	char *save, *tok;
	size_t len = 0;

	for (tok = strtok_r(p, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			char *sl = strrchr(out, '/');

			len = sl ? (size_t)(sl - out) : 0;
			out[len] = '\0';
			continue;
		}
		gd_fmt(out + len, sizeof out - len, "%s%s", len ? "/" : "",
		       tok);
		len = strlen(out);
	}
	strcpy(p, out);
}

/* DT_NEEDED resolved among the archive's own members through $ORIGIN
 * entries of RUNPATH/RPATH (a wheel's libraries find each other so). */
static void archive_needs(struct gd_bs_file *f, const char *member,
			  const struct gd_zip_names *names)
{
	char dir[512], paths[2100];
	const char *sl = strrchr(member, '/');

	gd_fmt(dir, sizeof dir, "%.*s", sl ? (int)(sl - member) : 0, member);
	gd_fmt(paths, sizeof paths, "%s:%s:$ORIGIN", f->dyn.runpath,
	       f->dyn.rpath);
	for (size_t i = 0; i < f->dyn.needed.n; i++) {
		const char *so = f->dyn.needed.v[i];
		char tmp[2100], *save, *tok;

		gd_strlcpy(tmp, paths, sizeof tmp);
		for (tok = strtok_r(tmp, ":", &save); tok;
		     tok = strtok_r(NULL, ":", &save)) {
			char cand[1024];
			struct gd_bs_need *nd;

			if (strncmp(tok, "$ORIGIN", 7) &&
			    strncmp(tok, "${ORIGIN}", 9))
				continue;
			gd_fmt(cand, sizeof cand, "%s/%s/%s", dir,
			       tok + (tok[1] == '{' ? 9 : 7), so);
			normalize(cand);
			if (!gd_zip_names_has(names, cand))
				continue;
			if ((nd = gd_vec_push(&f->needs))) {
				gd_strlcpy(nd->soname, so, sizeof nd->soname);
				nd->found = 1;
				gd_strlcpy(nd->how, "archive", sizeof nd->how);
				gd_fmt(nd->path, sizeof nd->path, "%s", cand);
			}
			break;
		}
	}
}

static int zip_member(void *arg, const struct gd_zip_member *m,
		      const struct gd_zip_names *names, const char *why)
{
	struct zip_ctx *z = arg;
	struct gd_bs_file *f = gd_vec_push(z->out);

	if (!f)
		return -1;
	gd_fmt(f->path, sizeof f->path, "%s!%s", z->zpath, m->name);
	if (why) {
		gd_fmt(f->error, sizeof f->error, "%s", why);
		return 0;
	}
	if (gd_bs_scan_bytes(m->data, m->len, f) == 0 && f->has_dyn) {
		if (gd_bs_is_pe(f))
			gd_dll_archive_needs(f, m->name, names);
		else
			archive_needs(f, m->name, names);
	}
	return 0;
}

int gd_bs_scan_mapped(const char *path, const uint8_t *b, size_t n, int fd,
		      const struct gd_bs_opts *o, gd_bs_files *out)
{
	struct gd_bs_file *f;
	struct zip_ctx z = {path, out};
	char err[200];

	if (is_zip(b, n)) {
		size_t before = out->n;
		int rc = gd_zip_walk(b, n, o->max_member, want_member,
				     zip_member, &z, err, sizeof err);

		if (rc == 0 && out->n > before)
			return 0;
		if (!(f = gd_vec_push(out)))
			return -1;
		gd_strlcpy(f->path, path, sizeof f->path);
		gd_strlcpy(f->format, "zip", sizeof f->format);
		gd_strlcpy(f->error,
			   rc ? err
			      : "archive holds no libraries or code objects",
			   sizeof f->error);
		return 0;
	}
	if (!(f = gd_vec_push(out)))
		return -1;
	gd_strlcpy(f->path, path, sizeof f->path);
	gd_bs_scan_bytes_fd(b, n, fd, f);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* *cut counts the directories left out at the depth limit. */
static int scan_dir(const char *path, unsigned depth,
		    const struct gd_bs_opts *o, gd_bs_files *out, size_t *seen,
		    size_t *cut)
{
	DIR *d = opendir(path);
	struct dirent *de;
	gd_strvec names = {0};
	int rc = 0;

	if (!d) { /* an entry, so that scan exits 1 and says why */
		struct gd_bs_file *f = gd_vec_push(out);

		if (!f)
			return -1;
		gd_strlcpy(f->path, path, sizeof f->path);
		gd_fmt(f->error, sizeof f->error, "cannot read directory: %s",
		       strerror(errno));
		return 0;
	}
	while ((de = readdir(d))) {
		char **slot;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((slot = gd_vec_push(&names)))
			*slot = strdup(de->d_name);
	}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof *names.v, cmp_str);
	for (size_t i = 0; i < names.n && rc == 0; i++) {
		char p[4096];
		struct stat st;

		if (!names.v[i] || ++*seen > o->max_files)
			break;
		/* "dir/" as given: one slash, not "dir//name" */
		gd_fmt(p, sizeof p, "%s%s%s", path,
		       gd_endswith(path, "/") ? "" : "/", names.v[i]);
		if (lstat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < o->max_depth)
			rc = scan_dir(p, depth + 1, o, out, seen, cut);
		else if (S_ISDIR(st.st_mode))
			++*cut;
		else if (S_ISREG(st.st_mode) ||
			 (S_ISLNK(st.st_mode) && !stat(p, &st) &&
			  S_ISREG(st.st_mode)))
			rc = gd_bs_scan_file(p, 0, o, out);
	}
	gd_strvec_free(&names);
	return rc;
}

int gd_bs_scan_path(gd_ctx *ctx, const char *path, const struct gd_bs_opts *o,
		    gd_bs_files *out)
{
	struct stat st;
	size_t seen = 0, cut = 0;

	(void)ctx;
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		size_t before = out->n;
		int rc = scan_dir(path, 0, o, out, &seen, &cut);

		if (seen > o->max_files)
			gd_diag_add(ctx, GD_DIAG_WARN, path,
				    "stopped after %zu files (cap)",
				    o->max_files);
		if (rc == 0 && cut)
			gd_diag_add(
			    ctx, GD_DIAG_INFO, path,
			    "depth limit (%u) reached: %zu directories below "
			    "it not scanned",
			    o->max_depth, cut);
		else if (rc == 0 && out->n == before)
			gd_diag_add(ctx, GD_DIAG_INFO, path,
				    "no binaries found in this directory");
		return rc;
	}
	return gd_bs_scan_file(path, 1, o, out);
}
