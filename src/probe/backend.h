/* probe/backend: one vendor API per file, each a const vtable listed in the
 * single table of backend.c (STYLE.md habit 1). Backends run only inside a
 * supervised child and report through the gd_pc_* helpers (child.c). */
#ifndef GD_BACKEND_H
#define GD_BACKEND_H

#include <pthread.h>
#include <stddef.h>

#include "probe.h"

struct gd_pc;

struct gd_backend {
	const char *name;   /* "cuda": --backend and JSON "backend" */
	const char *title;  /* "CUDA" for text output */
	/* Child side: list devices, run the op matrix. Returns 0 (results
	 * were reported), non-zero only when the child itself broke. */
	int (*run)(struct gd_pc *pc);
};

extern const struct gd_backend gd_backend_cuda;
extern const struct gd_backend gd_backend_hip;
extern const struct gd_backend gd_backend_vulkan;
extern const struct gd_backend gd_backend_opencl;
extern const struct gd_backend gd_backend_selftest;

/* The table, in display order (selftest not included). */
const struct gd_backend *const *gd_backends(size_t *n);
/* By name, selftest included; NULL when unknown. */
const struct gd_backend *gd_backend_find(const char *name);

/* Child-side state. */
struct gd_pc {
	gd_ctx *ctx;
	const struct gd_pc_args *args;
	int fd;          /* GPUDOCTOR_PHASE_FD, or 2 when run by hand */
	int step;        /* number of the next step */
	int cur_step;    /* the step now running, -1 none */
	double op_t0;
	pthread_mutex_t mu; /* phases may come from several threads */
};

/* A phase inside the current op: "cuInit", "sgemm 1024". */
void gd_pc_phase(struct gd_pc *pc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void gd_pc_device(struct gd_pc *pc, const struct gd_probe_device *d);
/* Starts the next step. Returns 1 when it is to run (announced), 0 when
 * a restart or --only skips it. gd_pc_begin_always() runs it regardless
 * (init, context setup: later steps need it). */
int gd_pc_begin(struct gd_pc *pc, int dev, const char *op);
void gd_pc_begin_always(struct gd_pc *pc, int dev, const char *op);
/* The result of the step begun last. */
void gd_pc_end(struct gd_pc *pc, enum gd_probe_status st, double max_error,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A step that is not run at all (library missing, no device): one call
 * instead of begin + end. */
void gd_pc_skip(struct gd_pc *pc, int dev, const char *op,
		enum gd_probe_status st, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void gd_pc_figure(struct gd_pc *pc, int dev, const char *name, double value,
		  const char *unit, const char *note);

/* dlopen by table (STYLE.md habit 7). */
struct gd_sym {
	const char *name;
	void **fn;
	int required;
};

/* Tries each soname in order, first in $GPUDOCTOR_LIB_PATH (':'-separated;
 * when set, ONLY there: tests point it at an empty or fake dir), else by
 * the dynamic loader's own search, then in each of dirs (may be NULL).
 * Returns the handle; loaded gets the path actually loaded, searched a
 * short description of where it looked (for "missing" results). */
void *gd_pc_dlopen(struct gd_pc *pc, const char *const *sonames,
		   const char *const *dirs, char *loaded, size_t lcap,
		   char *searched, size_t scap);
/* Resolves the table; returns the number of required symbols missing and
 * names the first in missing. Optional ones left NULL. */
int gd_pc_dlsym(void *h, const struct gd_sym *tab, char *missing,
		size_t mcap);

/* Shared checks for the backends. */
void gd_pc_fill_random(float *v, size_t n, unsigned seed);
/* Largest |a-b| / max(1,|b|) over n. */
double gd_pc_max_rel_error(const float *a, const float *b, size_t n);
/* C = A*B, row-major n x n, float accumulation in double. */
void gd_pc_ref_gemm(const float *a, const float *b, float *c, int n);
double gd_pc_now(void);
double gd_pc_median(double *v, int n);

#endif
