/* One root for the OS (docs/style.md habit 2). Code names absolute paths such
 * as
 * "/sys/class/kfd/kfd/topology"; this layer resolves them under the root
 * (--root DIR / GPUDOCTOR_ROOT, default "/"), so a captured machine is just a
 * directory. Absolute symlinks inside a captured tree stay inside it
 * (openat2 RESOLVE_IN_ROOT). Reads are bounded and refuse non-regular files,
 * so a FIFO, a device node or an endless file can never hang or flood us. */
#ifndef GD_FS_H
#define GD_FS_H

#include <stddef.h>
#include <sys/stat.h>

#include "util.h"

/* Called for each path the program reads, so `gather` can capture exactly the
 * files discovery used. kind: 'f' file read, 'd' directory listed, 'l' link
 * read, 's' stat, 'e' an ELF library's dependency facts read (capture.h). */
typedef void (*gd_fs_hook)(void *arg, const char *path, int kind);

typedef struct gd_fs {
	int rootfd;   /* O_PATH fd of the root directory */
	int is_slash; /* root is "/": plain resolution */
	char root[4096];
	gd_fs_hook hook;
	void *hook_arg;
	/* Windows: a capture's .gpudoctor/links.tsv (fs_links.h), as the
	 * unpacked tree there holds no readable links; NULL elsewhere. */
	struct gd_fs_links *links;
} gd_fs;

typedef GD_VEC(char *) gd_strvec;

/* Default cap for one small file (sysfs attributes, /proc entries). */
#define GD_FS_SMALL (64 * 1024)

int gd_fs_init(gd_fs *fs, const char *root);
void gd_fs_close(gd_fs *fs);

/* open(2) of an absolute path under the root; returns fd or -errno. */
int gd_fs_open(const gd_fs *fs, const char *path, int flags);

/* Read a regular file whole into buf (NUL-terminated). Returns 0, or -errno;
 * -EFBIG when the file holds more than cap-1 bytes (buf then holds the first
 * cap-1), -ENODEV when it is not a regular file. *len may be NULL. */
int gd_fs_read(const gd_fs *fs, const char *path, char *buf, size_t cap,
	       size_t *len);
/* Same, into a malloc'ed buffer of at most max bytes. */
int gd_fs_read_alloc(const gd_fs *fs, const char *path, size_t max, char **out,
		     size_t *len);
/* First line of a small file, trimmed. -EOVERFLOW (gd_fs_strerror: "its
 * line is longer than gpudoctor reads", buf "") when that line does not
 * fit buf or the first 4 KiB: never a value cut short. */
int gd_fs_read_line(const gd_fs *fs, const char *path, char *buf, size_t cap);

/* Entry names of a directory (no "." / ".."), in natural order
 * ("2" before "10"). Caller frees with gd_strvec_free. */
int gd_fs_list(const gd_fs *fs, const char *path, gd_strvec *out);
void gd_strvec_free(gd_strvec *v);

/* Target of a symlink, as stored. */
int gd_fs_readlink(const gd_fs *fs, const char *path, char *buf, size_t cap);
/* stat(2) (follows links) / lstat(2) under the root. */
int gd_fs_stat(const gd_fs *fs, const char *path, struct stat *st);
int gd_fs_lstat(const gd_fs *fs, const char *path, struct stat *st);
int gd_fs_exists(const gd_fs *fs, const char *path);

/* A path under the root as the host sees it, for messages and for handing
 * to programs (e.g. "/tmp/cap/sys/..."); the path itself when root is "/". */
void gd_fs_host_path(const gd_fs *fs, const char *path, char *buf, size_t cap);

/* Human text for an error returned above. */
const char *gd_fs_strerror(int rc);

#endif
