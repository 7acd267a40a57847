/* probe/: the op matrix per backend, each backend in a supervised child.
 *
 * Parent side (this header's first half): gd_probe_run() starts one child
 * per backend in parallel (re-exec of ctx->self_exe with the hidden
 * "__probe-child" command), reads its messages, enforces the per-op and
 * whole-run deadlines, and classifies each op. After a hang or a crash the
 * backend is restarted past the op that failed (at most a few times), so
 * one hanging GEMM does not hide whether convolution works.
 *
 * Child side (second half): the backend code runs in the child and reports
 * through gd_pc_* calls, which write one line each on GPUDOCTOR_PHASE_FD:
 * plain lines are phases ("cuInit", "sgemm 1024"), '@'-lines carry JSON
 * messages (device, begin, result, figure). Docs: docs/probe.md. */
#ifndef GD_PROBE_H
#define GD_PROBE_H

#include <stddef.h>

#include "core/ctx.h"
#include "probe/ops.h"

enum gd_probe_status {
	GD_PS_OK,	/* worked, result checked */
	GD_PS_WRONG,	/* ran, result wrong (max_error says how wrong) */
	GD_PS_ERROR,	/* API error: code, name, message in detail */
	GD_PS_MISSING,	/* library or symbol absent: which, where searched */
	GD_PS_CRASH,	/* signal, abort, exit in the middle of the op */
	GD_PS_HANG,	/* deadline passed: phase and seconds */
	GD_PS_SKIPPED,	/* not run: why in detail */
	GD_PS_NODEVICE, /* init: the runtime's own "no device" answer
			 * (hipErrorNoDevice, CUDA_ERROR_NO_DEVICE, no
			 * Vulkan driver or device, no OpenCL platform or
			 * CL_DEVICE_NOT_FOUND); detail has the code */
};

const char *gd_probe_status_name(enum gd_probe_status s); /* "ok", ... */
int gd_probe_status_parse(const char *name, enum gd_probe_status *out);

struct gd_probe_result {
	char backend[16]; /* "cuda", "hip", "vulkan", "opencl", "selftest" */
	int dev;	  /* device index within the backend, -1 = none */
	char device[128]; /* device name, "" when none */
	char op[40];	  /* stable op name: init, gemm_fp32, ... */
	enum gd_probe_status status;
	char phase[128];   /* last phase reported inside the op */
	double seconds;	   /* op wall time (to the kill, for a hang) */
	char detail[512];  /* error code/name/message, why skipped, ... */
	double max_error;  /* for GD_PS_WRONG (and checked ops), else 0 */
	char log[1024];	   /* child's last stderr lines / kernel-log lines */
	char expected[16]; /* selftest only: status the case must get */
};

struct gd_probe_device {
	char backend[16];
	int index;
	char name[128];
	char isa[32]; /* gfx1010, sm_90, "" */
	unsigned long long mem_bytes;
	char driver[64];    /* driver version as the API reports it */
	char runtime[192];  /* runtime/API version (PoCL's is long) */
	char library[256];  /* path of the library actually loaded */
	int software;	    /* CPU implementation (llvmpipe, PoCL cpu) */
	char platform[128]; /* OpenCL platform name, "" for the others */
};

struct gd_probe_figure {
	char backend[16];
	int dev;
	char name[48]; /* "d2d_bandwidth", "h2d_pinned", "launch_latency" */
	double value;
	char unit[16];	/* "GB/s", "us", "TFLOP/s" */
	char note[160]; /* how it was measured (bytes once, sizes, timer) */
};

/* The runtime's own account of a failed init (docs/probe.md,
 * "Diagnostics"): init run once more in a supervised child with the
 * runtime's diagnostics on (AMD_LOG_LEVEL, VK_LOADER_DEBUG, OCL_ICD_DEBUG)
 * and ld.so's (LD_DEBUG=libs). probe/ fills the first part; doctor/
 * (gd_probe_judge) picks the decisive lines and names the cause. One per
 * backend whose init failed. */
#define GD_PROBE_DIAG_KEEP 32768 /* bytes of the runtime's lines kept */
#define GD_PROBE_DIAG_NOTFOUND 8
#define GD_PROBE_DIAG_LINES 6
struct gd_probe_diag {
	char backend[16];
	int ran;	     /* 0: not re-run; outcome says why */
	char env[160];	     /* "VK_LOADER_DEBUG=error,warn LD_DEBUG=libs" */
	char outcome[200];   /* how the re-run ended */
	unsigned lines_seen; /* the runtime's output lines (not ld.so's) */
	char *out;	     /* the first GD_PROBE_DIAG_KEEP bytes of them */
	size_t out_len;	     /* '\n'-joined, raw (malloc'd, report owns) */
	int truncated;	     /* lines after out was full were counted only */
	int n_not_found;     /* libraries ld.so searched for, never found */
	char not_found[GD_PROBE_DIAG_NOTFOUND][96];
	/* doctor/ (gd_probe_judge): the decisive lines, each with the kb
	 * signature that picked it ("" for a loader's dlerror line), and
	 * the cause: a doctor/codes.h name, its text and the fix */
	int n_lines;
	char lines[GD_PROBE_DIAG_LINES][320];
	char line_sig[GD_PROBE_DIAG_LINES][64];
	char cause_code[48];
	char cause[400];
	char fix[320];
	char lib[64]; /* the runtime re-run where one backend has several
		       * (Windows: amdhip64_6.dll), "" otherwise */
};

struct gd_probe_report {
	GD_VEC(struct gd_probe_result) results;
	GD_VEC(struct gd_probe_device) devices;
	GD_VEC(struct gd_probe_figure) figures;
	GD_VEC(struct gd_probe_diag) diags;
	double wall_seconds;
	int selftest;
};

/* Progress of one backend child, for live display (main thread only). */
struct gd_probe_progress {
	const char *backend;
	const char *op;	   /* current op or "" */
	const char *phase; /* current phase or "" */
	double elapsed;	   /* in the current op */
	double deadline;   /* per-op timeout */
	int done;
};

struct gd_probe_opts {
	const char *backends;	      /* "cuda,vulkan"; NULL or "" = all */
	double timeout_s;	      /* per op; <= 0: 10 s (quick: 5 s) */
	double total_timeout_s;	      /* whole run; <= 0: 120 s (quick: 8 s) */
	int quick;		      /* the small set `check` runs */
	int bench;		      /* add the figures */
	gd_opset only;		      /* --only: these ops (ops.h), 0 = all */
	int selftest;		      /* run the supervisor's fault probes */
	const char *miopen_find_mode; /* MIOPEN_FIND_MODE for conv_fwd */
	const volatile int *cancel;   /* Ctrl-C: stop everything now */
	/* called about every 100 ms from the calling thread while children
	 * run; n entries, one per backend */
	void (*on_progress)(void *arg, const struct gd_probe_progress *p,
			    size_t n);
	void *arg;
};

/* Runs the probes; fills out (free with gd_probe_report_free). Returns 0,
 * or -errno when no child could be started at all (diagnostics in ctx). */
int gd_probe_run(gd_ctx *ctx, const struct gd_probe_opts *opts,
		 struct gd_probe_report *out);
void gd_probe_report_free(struct gd_probe_report *r);
/* The diagnostics of a backend's failed init, or NULL. */
const struct gd_probe_diag *gd_probe_diag_of(const struct gd_probe_report *r,
					     const char *backend);
/* The re-run of result x's init: its backend's, and where the backend ran
 * one child per runtime, that runtime's (x->detail starts "<lib>: "). */
const struct gd_probe_diag *gd_probe_diag_for(const struct gd_probe_report *r,
					      const struct gd_probe_result *x);
/* The variables a backend's diagnostic re-run sets, space-separated ("" for
 * none but ld.so's: CUDA's driver has no environment-driven diagnostics). */
const char *gd_probe_diag_env(const char *backend);
/* ld.so's LD_DEBUG=libs lines, one at a time (parser, fuzzed): which
 * libraries it searched for and never found. exists(path) says whether a
 * file ld.so tried is there (NULL: none is). */
struct gd_lddebug {
	char cur[96];  /* the library being searched for */
	int in_system; /* its search reached the system default path */
	int found;
	int n;
	char missing[GD_PROBE_DIAG_NOTFOUND][96];
	int (*exists)(void *arg, const char *path);
	void *arg;
};
/* 1 when line is an ld.so debug line (consumed), else 0. */
int gd_lddebug_line(struct gd_lddebug *d, const char *line);
void gd_lddebug_end(struct gd_lddebug *d);

/* Child-side entry (`gpudoctor __probe-child ...`): runs one backend's ops
 * (or one selftest case) and reports on GPUDOCTOR_PHASE_FD. Returns the
 * exit code for the child. */
struct gd_pc_args {
	const char *backend;
	int start; /* first step to run (restart after a hang/crash) */
	int only;  /* run just this step (-1 = all from start) */
	int quick;
	int bench;
	gd_opset ops; /* --ops: the selection (0 = all, or the quick set) */
	const char *miopen_find_mode;
	const char *lib; /* --lib: load only this runtime (one of the
			  * variants, libnames.h), else try each name */
};
int gd_probe_child_main(gd_ctx *ctx, const struct gd_pc_args *args);

#endif
