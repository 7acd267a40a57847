/* Files that other programs read while gpudoctor rewrites them (node
 * exporter's textfile collector, NFD's features.d): written whole under a
 * temporary dot name, then renamed, so a reader sees the old file or the
 * new one, never half of one. */
#ifndef GD_OUT_FILE_H
#define GD_OUT_FILE_H

#include <stddef.h>

/* Writes data to DIR/NAME atomically, mode 0644 (readers run as other
 * users). Returns 0, or -errno with a message in err. */
int gd_out_write_atomic(const char *dir, const char *name, const char *data,
			size_t len, char *err, size_t errlen);

#endif
