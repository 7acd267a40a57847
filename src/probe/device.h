/* probe/device: the device primitives of a backend (allocate, copy, fill,
 * synchronise, time, launch vector_add) as a small const table, so that
 * the memory and copy ops, vector_add and the copy/launch figures of
 * `--bench` are written once (device.c) for CUDA, HIP and OpenCL.
 * Vulkan keeps its own code: it has no copy from or to pageable host
 * memory (everything goes through mapped staging buffers) and records
 * command buffers, which these calls do not model. Child side only. */
#ifndef GD_PROBE_DEVICE_H
#define GD_PROBE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/* A device buffer: CUdeviceptr, a HIP device pointer, a cl_mem. */
typedef uintptr_t gd_dptr;

/* Every primitive returns 0 or the API's own error code (CUresult,
 * hipError_t, cl_int), which err() names. be is the backend's state. */
struct gd_devops {
	/* API names, for phases, details and the figures' notes */
	const char *alloc_name;	 /* "cuMemAlloc" */
	const char *memset_name; /* "cuMemsetD8" */
	const char *host_name;	 /* "cuMemAllocHost" */
	const char *host_what;	 /* "page-locked" */
	const char *h2d_name;	 /* "cuMemcpyHtoD" (synchronous) */
	const char *d2h_name;	 /* "cuMemcpyDtoH" */
	const char *h2d_async_name, *d2h_async_name, *d2d_name;
	const char *sync_name;	 /* "cuStreamSynchronize" */
	const char *launch_name; /* "cuLaunchKernel of 1 block" */
	const char *timer_name;	 /* "CUDA events" */
	size_t d2d_bytes;	 /* d2d figure size (256 MiB if it fails) */
	int warm, reps;		 /* copy figures: warm-ups, repeats (<= 16) */

	long (*alloc)(void *be, size_t sz, gd_dptr *out);
	void (*free)(void *be, gd_dptr p);
	/* page-locked or mapped host memory; handle is the backend's own */
	long (*host_alloc)(void *be, size_t sz, void **p, void **handle);
	void (*host_free)(void *be, void *p, void *handle);
	long (*memset)(void *be, gd_dptr p, int v, size_t sz);
	/* async: on the backend's stream/queue, finished by sync() */
	long (*h2d)(void *be, gd_dptr dst, const void *src, size_t sz,
		    int async);
	long (*d2h)(void *be, void *dst, gd_dptr src, size_t sz, int async);
	long (*d2d)(void *be, gd_dptr dst, gd_dptr src, size_t sz);
	long (*sync)(void *be);
	/* device timer around the one command issued between the two;
	 * stop waits for it */
	long (*timer_start)(void *be);
	long (*timer_stop)(void *be, double *secs);
	/* vector_add(a, b, c, n), built for the device; how says how it was
	 * built (or, with GD_DEV_EWHY, what failed) */
	long (*vadd_load)(struct gd_pc *pc, void *be, void **k, char *how,
			  size_t cap);
	void (*vadd_unload)(void *be, void *k);
	long (*vadd_launch)(void *be, void *k, gd_dptr a, gd_dptr b, gd_dptr c,
			    unsigned n);
	void (*err)(void *be, long e, char *buf, size_t cap);
	/* between alloc_pinned and the copies (HIP's own allocations) */
	void (*extra_allocs)(struct gd_pc *pc, void *be, int dev);
};

/* vadd_load's "the text in how says it all" (no API code to name). */
#define GD_DEV_EWHY (-100000L)

/* alloc_device, alloc_pinned, (extra_allocs), copy_h2d, copy_d2h,
 * copy_h2d_async on 64 MiB, each checked by reading back. */
void gd_dev_memory_ops(struct gd_pc *pc, const struct gd_devops *d, void *be,
		       int dev);
/* kernel_vector_add: the step must have been begun; ends it. */
void gd_dev_vector_add(struct gd_pc *pc, const struct gd_devops *d, void *be);
/* Median seconds of reps calls of fn(arg) (0 = success) on the device
 * timer, after warm calls; -1 when a call or the timer fails. reps <= 16.
 * For the GEMM rates, whose calls are the vendor library's. */
double gd_dev_time(const struct gd_devops *d, void *be, int (*fn)(void *),
		   void *arg, int warm, int reps);
/* The copy figures and launch latency of `--bench`. */
void gd_dev_bench(struct gd_pc *pc, const struct gd_devops *d, void *be,
		  int dev);

#endif
