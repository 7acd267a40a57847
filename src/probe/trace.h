/* probe/trace: gpudoctor's side of the in-flight record written by
 * libgpudoctor-trace.so (layout: trace_shm.h). Creates the shared region,
 * reads slots without locks (seqlock: torn copies are detected, hostile
 * bytes rejected), and turns the calls in flight plus /proc/PID/task/TID
 * into a per-thread hang report. Never loads a GPU runtime; never prints. */
#ifndef GD_TRACE_H
#define GD_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "probe/trace_shm.h"

enum gd_slot_status {
	GD_SLOT_OK,
	GD_SLOT_EMPTY, /* never written */
	GD_SLOT_TORN,  /* written while we copied: retry */
	GD_SLOT_BAD,   /* a field out of range: hostile or corrupt */
};

struct gd_trace_call {
	int pid, tid;
	int in_call;
	unsigned api, last_api; /* last_api: GD_TRACE_API_COUNT = none yet */
	unsigned kind;
	int last_result;
	uint64_t t_enter_ns, bytes, stream, calls_done, caller_pc;
	uint64_t thread; /* pthread_self() of the thread */
	char caller[GD_TRACE_CALLER_MAX + 1];
};

/* Pure: decode one slot copy (snap, n bytes; n must be the slot size)
 * given the sequence number read again after the copy. */
enum gd_slot_status gd_trace_slot_decode(const void *snap, size_t n,
					 uint64_t seq_after,
					 struct gd_trace_call *out);

/* Pure: the basename of the file mapped at pc in a /proc/PID/maps text
 * (n bytes, need not end in NUL) into out; 0, or -1 (not found, or an
 * anonymous mapping: out ""). The shim stores only the return address;
 * the reader names the library (no dladdr in the traced call). */
int gd_trace_maps_caller(const char *text, size_t n, uint64_t pc, char *out,
			 size_t cap);
/* Pure: the full path of the file mapped at pc (cap bytes with the NUL)
 * and pc's offset in that file; 0 or -1 as above. */
int gd_trace_maps_file(const char *text, size_t n, uint64_t pc, char *path,
		       size_t cap, uint64_t *file_off);

/* The function of an ELF64 little-endian image that holds the code at
 * file offset off ("" none): .symtab, else .dynsym; the image is read
 * through rd (bounded reads; every field checked). 0, or -1. */
typedef int (*gd_trace_rd_fn)(void *ctx, uint64_t off, void *buf, size_t n);
int gd_trace_elf_func(gd_trace_rd_fn rd, void *ctx, uint64_t off, char *out,
		      size_t cap);

/* "hipMemcpyAsync", or "?" when out of range. */
const char *gd_trace_api_name(unsigned api);

/* "hipMemcpyAsync(H2D, 256 MiB, stream 0x5)" for a decoded call. */
void gd_trace_call_text(const struct gd_trace_call *c, char *buf, size_t cap);

/* A fresh region: an inheritable memfd, sized and with its header.
 * Returns the fd (and the mapping in *map), or -errno. */
int gd_trace_region_create(void **map);
void gd_trace_region_free(int fd, void *map);

/* Copy the slots in use: retries torn ones a few times. Returns how many
 * calls were stored in out (at most cap); *bad counts rejected slots. */
size_t gd_trace_snapshot(const void *map, struct gd_trace_call *out, size_t cap,
			 size_t *bad);

/* One thread stuck in a call, with what /proc says it is doing. */
struct gd_trace_stuck {
	int pid, tid;
	double seconds;
	char call[160]; /* gd_trace_call_text */
	char caller[GD_TRACE_CALLER_MAX + 1];
	char function[128]; /* the caller's function in it, "" unknown */
	char blocked[160];  /* "ioctl(/dev/kfd)", "futex", "running", "" */
	char state;	    /* /proc stat state letter, '?' unknown */
	char line[600];	    /* the sentence for humans */
	unsigned api, kind; /* the call (trace_shm.h ids) */
	uint64_t thread;    /* pthread_self() of the thread */
	char why[480];	    /* why the call can block (doctor/trace_why.h) */
	char python[400];   /* "train.py:42 in step, called from ..." or "" */
};

/* The threads of the traced program that are inside a hooked call now
 * (now_ns: CLOCK_MONOTONIC). Reads /proc of the live processes. Returns
 * how many were stored in out. */
size_t gd_trace_hang_report(const void *map, uint64_t now_ns,
			    struct gd_trace_stuck *out, size_t cap);

/* "3 threads were not traced: all 256 trace slots were in use", or ""
 * when every thread that called the runtime had a slot. */
void gd_trace_unrecorded_text(const void *map, char *buf, size_t cap);

/* Pure: the innermost frames of user code (the standard library and
 * installed packages skipped; the innermost frame when all are) of the
 * thread `thread` (pthread_self) in a faulthandler dump (text, n bytes):
 * "train.py:42 in step, called from train.py:60 in main". 0, or -1
 * when that thread is not in the text. */
int gd_trace_py_stack(const char *text, size_t n, uint64_t thread, char *out,
		      size_t cap);

/* Python programs among the stuck threads' processes (/proc/PID/exe
 * named python*) are sent SIGABRT: with PYTHONFAULTHANDLER set (run/try
 * --trace set it) Python writes every thread's stack to stderr, then
 * ends. Returns how many processes were asked. */
int gd_trace_py_ask(const struct gd_trace_stuck *s, size_t n);

/* Fill s[i].python from a faulthandler dump. */
void gd_trace_py_attach(struct gd_trace_stuck *s, size_t n, const char *text,
			size_t len);

/* Pure: "ioctl(/dev/kfd)" from a /proc/T/syscall line and a resolver for
 * fd targets (NULL: none); "running" / "" as they come. */
void gd_trace_syscall_text(const char *syscall_line, const char *fd_target,
			   char *buf, size_t cap);

#endif
