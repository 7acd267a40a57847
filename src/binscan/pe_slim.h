/* binscan/pe_slim.c: a PE file cut down to what gpudoctor reads from it
 * (imports, delay imports, export name, version resource), for Windows
 * captures. */
#ifndef GD_PE_SLIM_H
#define GD_PE_SLIM_H

#include <stddef.h>
#include <stdint.h>

/* A new PE file in *out (malloc'ed, *olen bytes) that gd_pe_imports and
 * gd_pe_version read exactly as they read b; GPU code and everything else
 * is left out. 0, or -1 when b is not a PE file this can cut (the caller
 * then stores the file empty, with its version in versions.tsv). */
int gd_pe_slim(const uint8_t *b, size_t n, uint8_t **out, size_t *olen);

#endif
