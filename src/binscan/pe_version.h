/* binscan/pe_version.c: FileVersion and ProductVersion of a PE file. */
#ifndef GD_PE_VERSION_H
#define GD_PE_VERSION_H

#include <stddef.h>
#include <stdint.h>

/* "10.0.3628.0" into file_ver and prod_ver (cap bytes each) from the
 * VS_FIXEDFILEINFO of the file's bytes. 0, or -1 when there is none. */
int gd_pe_version(const uint8_t *b, size_t n, char *file_ver, char *prod_ver,
		  size_t cap);

#endif
