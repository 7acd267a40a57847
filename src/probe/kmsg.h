/* probe/kmsg: GPU-related kernel-log lines that appear during a probe. */
#ifndef GD_KMSG_H
#define GD_KMSG_H

#include <stddef.h>

#include "core/ctx.h"

struct gd_kmsg {
	int fd;
};

/* Opens /dev/kmsg at its end. -ENOTSUP under --root, -EPERM/-EACCES when
 * the log is not readable (dmesg_restrict): then nothing is collected. */
int gd_kmsg_open(gd_ctx *ctx, struct gd_kmsg *k);
/* Appends the new GPU-related lines to out ('\n'-joined, NUL-terminated,
 * sanitized); returns how many were added. */
size_t gd_kmsg_collect(struct gd_kmsg *k, char *out, size_t cap);
void gd_kmsg_close(struct gd_kmsg *k);

/* Pure helpers (unit-tested, fuzzed). */
int gd_kmsg_is_gpu_line(const char *msg);
const char *gd_kmsg_parse(char *rec, size_t len, unsigned long long *usec);

#endif
