/* A minimal ustar writer over zlib's gzip stream, for `gpudoctor gather`.
 * A name or link target that ustar cannot hold (over 100 bytes, no prefix
 * split) gets a pax extended header ('x': path=, linkpath=; POSIX.1-2001
 * pax(1) "pax Extended Header"), which GNU tar, bsdtar and Python's tarfile
 * read back exactly.
 *
 * Reproducible: every entry has the same mtime (given by the caller: 0 or
 * SOURCE_DATE_EPOCH), uid/gid 0 and no user names; zlib's gzip header has
 * no timestamp. Safe: the archive is written to a temporary file in the
 * destination's directory, fsync'ed and renamed over the destination only
 * when everything was written; anything but a regular file (or nothing) at
 * the destination is refused before it is opened, so a FIFO cannot block
 * and a symlink is never written through. */
#ifndef GD_TAR_H
#define GD_TAR_H

#include <stddef.h>
#include <sys/types.h>

typedef struct gd_tar gd_tar;

struct gd_tar_opts {
	long long mtime; /* seconds since the epoch, for every entry */
	int force;	 /* replace an existing regular file */
};

/* NULL with err set ("... exists (use --force to replace it)", "... is a
 * FIFO, not a regular file", strerror) when the destination is refused. */
gd_tar *gd_tar_open(const char *path, const struct gd_tar_opts *o, char *err,
		    size_t errlen);
/* Each returns 0, or -1 once the archive cannot be written (the error is
 * kept for gd_tar_close). */
int gd_tar_add_dir(gd_tar *t, const char *name, mode_t mode);
int gd_tar_add_file(gd_tar *t, const char *name, mode_t mode, const void *data,
		    size_t len);
int gd_tar_add_symlink(gd_tar *t, const char *name, const char *target);
/* Writes the end-of-archive blocks, fsyncs and renames the archive into
 * place; on any failure removes the temporary file, leaves the destination
 * as it was and says why in err. Frees t either way. */
int gd_tar_close(gd_tar *t, char *err, size_t errlen);
/* Drops the archive: removes the temporary file, frees t. */
void gd_tar_abort(gd_tar *t);

#endif
