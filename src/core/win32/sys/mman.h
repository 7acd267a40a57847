/* Read-only file mappings for the Windows build (compat_win32.c), enough
 * for binscan's mmap of the file it scans. */
#ifndef GD_W32_SYS_MMAN_H
#define GD_W32_SYS_MMAN_H

#include <stddef.h>
#include <sys/types.h>

#define PROT_READ 1
#define MAP_PRIVATE 2
#define MAP_SHARED 1
#define MAP_FAILED ((void *)-1)
#define MADV_RANDOM 1
#define MADV_SEQUENTIAL 2

void *mmap(void *addr, size_t len, int prot, int flags, int fd, long long off);
int munmap(void *addr, size_t len);
int madvise(void *addr, size_t len, int advice);

#endif
