/* probe/backend: one vendor API per file, each a const vtable listed in the
 * single table of backend.c (docs/style.md habit 1). Backends run only inside a
 * supervised child and report through the gd_pc_* helpers (child.c). */
#ifndef GD_BACKEND_H
#define GD_BACKEND_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "libnames.h"
#include "ops.h"
#include "probe.h"

struct gd_pc;

struct gd_backend {
	const char *name;  /* "cuda": --backend and JSON "backend" */
	const char *title; /* "CUDA" for text output */
	/* Child side: list devices, run the op matrix. Returns 0 (results
	 * were reported), non-zero only when the child itself broke. */
	int (*run)(struct gd_pc *pc);
};

extern const struct gd_backend gd_backend_cuda;
extern const struct gd_backend gd_backend_hip;
extern const struct gd_backend gd_backend_vulkan;
extern const struct gd_backend gd_backend_opencl;
extern const struct gd_backend gd_backend_levelzero;
extern const struct gd_backend gd_backend_selftest;

/* The table, in display order (selftest not included). */
const struct gd_backend *const *gd_backends(size_t *n);
/* By name, selftest included; NULL when unknown. */
const struct gd_backend *gd_backend_find(const char *name);

/* Child-side state. */
struct gd_pc {
	gd_ctx *ctx;
	const struct gd_pc_args *args;
	int fd;	      /* GPUDOCTOR_PHASE_FD, or 2 when run by hand */
	int step;     /* number of the next step */
	int cur_step; /* the step now running, -1 none */
	double op_t0;
	pthread_mutex_t mu; /* phases may come from several threads */
	int figures;	    /* figures reported so far */
	int bench_fig0;	    /* ...when the bench step began */
};

/* A phase inside the current op: "cuInit", "sgemm 1024". */
void gd_pc_phase(struct gd_pc *pc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void gd_pc_device(struct gd_pc *pc, const struct gd_probe_device *d);
/* Starts the next step, op from the table (ops.h). Returns 1 when it is
 * to run (announced), 0 when --quick, --only, the lack of --bench, a
 * restart or the child's --only step leaves it out. gd_pc_begin_always()
 * runs it regardless (init: later steps need it). */
int gd_pc_begin(struct gd_pc *pc, int dev, enum gd_op op);
void gd_pc_begin_always(struct gd_pc *pc, int dev, enum gd_op op);
/* Would gd_pc_begin() run op by selection (--quick, --only, --bench)?
 * For set-up that only a selected op needs. */
int gd_pc_wants(const struct gd_pc *pc, enum gd_op op);
/* A self-test case: a step named outside the op table. */
int gd_pc_begin_case(struct gd_pc *pc, int dev, const char *name);
/* The result of the step begun last. */
void gd_pc_end(struct gd_pc *pc, enum gd_probe_status st, double max_error,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A step that is not run at all (library missing, no device): one call
 * instead of begin + end. */
void gd_pc_skip(struct gd_pc *pc, int dev, enum gd_op op,
		enum gd_probe_status st, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A device whose context/queue cannot be made: an error on its
 * alloc_device row, whatever the selection (else it would go unseen). */
void gd_pc_setup_failed(struct gd_pc *pc, int dev, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void gd_pc_figure(struct gd_pc *pc, int dev, const char *name, double value,
		  const char *unit, const char *note);
/* `--bench` as one step, GD_OP_BENCH (so a hang or crash while
 * measuring is reported, and restarted past, like any op): begin returns
 * 1 when it is to run; end reports how many figures came out. */
int gd_pc_bench_begin(struct gd_pc *pc, int dev);
void gd_pc_bench_end(struct gd_pc *pc);
/* Declares that the op begun last reports one phase per bounded step
 * (e.g. one API call of a loop): the parent then applies the per-op
 * deadline to each step, with an overall cap (docs/probe.md). */
void gd_pc_progress(struct gd_pc *pc);

/* The "model switch" op of every backend: nthreads threads each run
 * cycle() again and again until budget_s has passed (at least once each).
 * cycle() names each API call with gd_pc_cycle_step() before making it;
 * the calling thread reports the oldest call still in flight as the phase
 * ("thread 2 cycle 3 vkCreateDevice") whenever that changes, so a call
 * that never returns stops the phase from changing: a hang. */
#define GD_PC_CYCLE_MAX 8
struct gd_pc_cycler;
struct gd_pc_cycle_thread {
	struct gd_pc_cycler *c;
	int index;	  /* thread number */
	int cycle;	  /* cycle number within the thread */
	const char *what; /* call in flight */
	double since;	  /* when it started */
	int running, started;
	long err; /* first error of this thread */
	const char *err_what;
	pthread_t th;
};
struct gd_pc_cycler {
	struct gd_pc *pc;
	long (*cycle)(struct gd_pc_cycle_thread *t, void *arg); /* 0 = ok */
	void *arg;
	double budget_s;
	int nthreads; /* <= GD_PC_CYCLE_MAX */
	/* results */
	int cycles; /* completed, all threads */
	double seconds;
	int err_thread; /* -1: none */
	long err;
	const char *err_what;
	int err_cycle;
	/* internal */
	pthread_mutex_t mu;
	int stop;
	double t_end;
	struct gd_pc_cycle_thread t[GD_PC_CYCLE_MAX];
};
void gd_pc_cycle_step(struct gd_pc_cycle_thread *t, const char *what);
/* Runs the threads; returns 0 when every cycle succeeded, else -1 with
 * err_thread/err_cycle/err_what/err set (first failure). */
int gd_pc_cycle_run(struct gd_pc_cycler *c);

/* dlopen by table (docs/style.md habit 7). */
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
int gd_pc_dlsym(void *h, const struct gd_sym *tab, char *missing, size_t mcap);

/* Shared checks for the backends. */
void gd_pc_fill_random(float *v, size_t n, unsigned seed);
/* Largest |a-b| / max(1,|b|) over n. */
double gd_pc_max_rel_error(const float *a, const float *b, size_t n);
/* C = A*B, column-major n x n (as BLAS), accumulated in double. */
void gd_pc_ref_gemm(const float *a, const float *b, float *c, int n);
/* IEEE half and bfloat16 from float (round to nearest even) and back. */
uint16_t gd_pc_f2h(float f);
float gd_pc_h2f(uint16_t h);
uint16_t gd_pc_f2bf(float f);
float gd_pc_bf2f(uint16_t b);
/* Element types of the GEMM checks, whatever the vendor calls them. */
enum gd_pc_elem { GD_PC_F32, GD_PC_F16, GD_PC_BF16 };
/* Host matrix in the element type: for F32 v itself; else a new buffer
 * (free it), with v rounded in place to what the type can hold, so the CPU
 * reference sees the same inputs. NULL when out of memory. */
void *gd_pc_to_elem(float *v, size_t n, enum gd_pc_elem t);
/* Back to float, n elements. */
void gd_pc_from_elem(const void *src, float *out, size_t n, enum gd_pc_elem t);

/* The host side of a checked GEMM, shared by the BLAS backends: random A
 * and B, the identity, their element-type copies (ta, tid, tb: es bytes an
 * element), the result buffer tc and its float copy c, the CPU reference. */
struct gd_pc_gemm_host {
	int n;
	size_t nn, es;
	enum gd_pc_elem t;
	float *a, *id, *b, *c, *ref;
	void *ta, *tid, *tb, *tc;
};
/* 0, or -1 when out of memory (free it anyway). */
int gd_pc_gemm_host_make(struct gd_pc_gemm_host *g, int n, enum gd_pc_elem t);
void gd_pc_gemm_host_free(struct gd_pc_gemm_host *g);
/* Ends the op from the two results: A*I = A exactly (e_id) and A*B
 * against the CPU (computed here); tail names the library. */
void gd_pc_gemm_verdict(struct gd_pc *pc, struct gd_pc_gemm_host *g,
			double e_id, const char *fn, const char *tail);
/* The convolution every backend checks: NCHW 1x4x16x16, 8 filters 3x3,
 * pad 1, stride 1, cross-correlation (cuDNN CROSS_CORRELATION, MIOpen
 * miopenConvolution); y is 1x8x16x16. */
enum {
	GD_CONV_N = 1,
	GD_CONV_C = 4,
	GD_CONV_HW = 16,
	GD_CONV_K = 8,
	GD_CONV_R = 3
};
void gd_pc_ref_conv(const float *x, const float *w, float *y);
double gd_pc_now(void);
double gd_pc_median(double *v, int n);

#endif
