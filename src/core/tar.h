/* A minimal ustar writer over zlib's gzip stream, for `gpudoctor gather`.
 * Long names use the ustar prefix field, then a GNU 'L' record. */
#ifndef GD_TAR_H
#define GD_TAR_H

#include <stddef.h>
#include <sys/types.h>

typedef struct gd_tar gd_tar;

gd_tar *gd_tar_open(const char *path, char *err, size_t errlen);
int gd_tar_add_dir(gd_tar *t, const char *name, mode_t mode);
int gd_tar_add_file(gd_tar *t, const char *name, mode_t mode,
		    const void *data, size_t len);
int gd_tar_add_symlink(gd_tar *t, const char *name, const char *target);
/* Writes the end-of-archive blocks and closes; returns 0 or -1. */
int gd_tar_close(gd_tar *t);

#endif
