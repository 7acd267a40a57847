/* Profiles on disk: where they live, loading with ownership and permission
 * checks (a profile decides what library path and variables a GPU program
 * starts with, so a file someone else can write is refused, as ssh does
 * with authorized_keys), and atomic saving. */
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discover/vendor.h"

int gd_profile_dir(const gd_ctx *ctx, char *buf, size_t cap)
{
	/* the user's own settings, even when judging a captured machine */
	const char *xdg = gd_ctx_live_getenv(ctx, "XDG_CONFIG_HOME");
	const char *home = gd_ctx_live_getenv(ctx, "HOME");

	/* The XDG spec says a relative XDG_CONFIG_HOME is invalid: ignore it.
	 */
	if (xdg && xdg[0] == '/') {
		gd_fmt(buf, cap, "%s/gpudoctor", xdg);
		return 0;
	}
	if (home && home[0] == '/') {
		gd_fmt(buf, cap, "%s/.config/gpudoctor", home);
		return 0;
	}
	if (cap)
		buf[0] = '\0';
	return -1;
}

void gd_profile_gpu_name(const struct gd_gpu *g, char *buf, size_t cap)
{
	const char *target = gd_gpu_code_target(g);

	if (target[0])
		gd_fmt(buf, cap, "gpu-%04x-%04x-%s", g->pci.vendor_id,
		       g->pci.device_id, target);
	else
		gd_fmt(buf, cap, "gpu-%04x-%04x", g->pci.vendor_id,
		       g->pci.device_id);
}

int gd_profile_name_valid(const char *name)
{
	size_t i;

	if (!name || !name[0] || name[0] == '.')
		return 0;
	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.'))
			return 0;
	}
	return i < 100;
}

int gd_profile_path(const gd_ctx *ctx, const char *name, char *buf, size_t cap,
		    char *err, size_t errlen)
{
	char dir[4096];

	if (strchr(name, '/')) {
		gd_strlcpy(buf, name, cap);
		return 0;
	}
	if (!gd_profile_name_valid(name)) {
		gd_fmt(err, errlen,
		       "'%s' is not a profile name (letters, "
		       "digits, '_', '-', '.'; or a path with a '/')",
		       name);
		return -1;
	}
	if (gd_profile_dir(ctx, dir, sizeof dir) < 0) {
		gd_fmt(err, errlen,
		       "neither XDG_CONFIG_HOME nor HOME is an "
		       "absolute path: no profile directory");
		return -1;
	}
	gd_fmt(buf, cap, "%s/%s.profile", dir, name);
	return 0;
}

/* Owner and mode rules shared by the file and its directory. */
static int perm_ok(const struct stat *st, const char *what, const char *path,
		   int allow_root, char *err, size_t errlen)
{
	uid_t me = geteuid();

	if (st->st_uid != me && !(allow_root && st->st_uid == 0)) {
		gd_fmt(err, errlen,
		       "refusing %s %s: owned by uid %u, not by "
		       "you (uid %u); fix: chown %u %s",
		       what, path, (unsigned)st->st_uid, (unsigned)me,
		       (unsigned)me, path);
		return 0;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		gd_fmt(err, errlen,
		       "refusing %s %s: writable by %s (mode "
		       "%04o), so someone else could change what your GPU "
		       "programs run with; fix: chmod go-w %s",
		       what, path, (st->st_mode & S_IWGRP) ? "group" : "others",
		       (unsigned)(st->st_mode & 07777), path);
		return 0;
	}
	return 1;
}

static void dir_of(const char *path, char *buf, size_t cap)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		gd_strlcpy(buf, ".", cap);
	} else if (slash == path) {
		gd_strlcpy(buf, "/", cap);
	} else {
		size_t k = (size_t)(slash - path);

		gd_fmt(buf, cap, "%.*s", (int)k, path);
	}
}

static int read_fd(int fd, char *buf, size_t cap, size_t *len)
{
	long got = gd_read_full(fd, buf, cap);

	if (got < 0)
		return (int)got;
	*len = (size_t)got;
	return 0;
}

static int load_checked(int fd, const char *path, struct gd_profile *p,
			char *err, size_t errlen)
{
	struct stat st, dst;
	char dir[4096], *buf;
	size_t len = 0;
	int rc;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		gd_fmt(err, errlen, "refusing profile %s: not a regular file",
		       path);
		return -EPERM;
	}
	if (!perm_ok(&st, "profile", path, 0, err, errlen))
		return -EPERM;
	dir_of(path, dir, sizeof dir);
	if (stat(dir, &dst) == 0 &&
	    !perm_ok(&dst, "profile directory", dir, 1, err, errlen))
		return -EPERM;
	buf = malloc(GD_PROFILE_MAX_BYTES + 1);
	if (!buf)
		return -ENOMEM;
	rc = read_fd(fd, buf, GD_PROFILE_MAX_BYTES + 1, &len);
	if (rc == 0 && gd_profile_parse(buf, len, p, err, errlen) < 0)
		rc = -EINVAL;
	free(buf);
	return rc;
}

int gd_profile_load(const char *path, struct gd_profile *p, char *err,
		    size_t errlen)
{
	char sub[512];
	const char *base;
	int fd, rc;

	/* O_NONBLOCK: a FIFO planted as a profile must not hang us; fstat
	 * then refuses it. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		rc = -errno;
		gd_fmt(err, errlen, "cannot open profile %s: %s", path,
		       strerror(-rc));
		return rc;
	}
	sub[0] = '\0';
	rc = load_checked(fd, path, p, sub, sizeof sub);
	close(fd);
	if (rc == -EINVAL) {
		char tmp[600];

		gd_fmt(tmp, sizeof tmp, "profile %s: %s", path, sub);
		gd_strlcpy(err, tmp, errlen);
	} else if (rc == 0 && gd_profile_validate(p, sub, sizeof sub) < 0) {
		gd_fmt(err, errlen, "profile %s: %s", path, sub);
		rc = -EINVAL;
	} else if (rc < 0) {
		if (sub[0])
			gd_strlcpy(err, sub, errlen);
		else
			gd_fmt(err, errlen, "cannot read profile %s: %s", path,
			       strerror(-rc));
	}
	if (rc == 0) {
		gd_strlcpy(p->path, path, sizeof p->path);
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		gd_strlcpy(p->name, base, sizeof p->name);
		if (gd_endswith(p->name, ".profile"))
			p->name[strlen(p->name) - 8] = '\0';
	}
	return rc;
}

/* mkdir -p with mode 0700 for what we create; an existing profile dir
 * must pass the same owner/mode rules as when loading. */
static int make_dirs(const char *dir, char *err, size_t errlen)
{
	char tmp[4096];
	struct stat st;

	gd_strlcpy(tmp, dir, sizeof tmp);
	for (char *s = tmp + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(tmp, 0700) < 0 && errno != EEXIST) {
			gd_fmt(err, errlen, "cannot create %s: %s", tmp,
			       strerror(errno));
			return -errno;
		}
		*s = '/';
	}
	if (mkdir(tmp, 0700) < 0 && errno != EEXIST) {
		gd_fmt(err, errlen, "cannot create %s: %s", tmp,
		       strerror(errno));
		return -errno;
	}
	if (stat(tmp, &st) < 0 || !S_ISDIR(st.st_mode)) {
		gd_fmt(err, errlen, "%s is not a directory", tmp);
		return -ENOTDIR;
	}
	if (!perm_ok(&st, "profile directory", tmp, 1, err, errlen))
		return -EPERM;
	return 0;
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t k = write(fd, s, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

int gd_profile_save(const char *path, const struct gd_profile *p, char *err,
		    size_t errlen)
{
	char dir[4096], tmp[4200];
	char *text;
	int fd, rc;

	if (gd_profile_validate(p, err, errlen) < 0)
		return -EINVAL;
	dir_of(path, dir, sizeof dir);
	rc = make_dirs(dir, err, errlen);
	if (rc < 0)
		return rc;
	text = gd_profile_format(p);
	if (!text)
		return -ENOMEM;
	gd_fmt(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp); /* mode 0600 */
	if (fd < 0) {
		rc = -errno;
		gd_fmt(err, errlen, "cannot write in %s: %s", dir,
		       strerror(-rc));
		free(text);
		return rc;
	}
	rc = write_all(fd, text, strlen(text));
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0) {
		gd_fmt(err, errlen, "cannot write %s: %s", path, strerror(-rc));
		unlink(tmp);
	}
	free(text);
	return rc;
}
