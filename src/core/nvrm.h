#ifndef GD_NVRM_H
#define GD_NVRM_H

#include <stddef.h>

/* The driver version ("580.159.04") from the text of
 * /proc/driver/nvidia/version. Returns 0, or -1 when there is none. */
int gd_nvrm_version_parse(const char *buf, char *ver, size_t cap);

#endif
