/* `run --trace` / `try --trace`: start a program with libgpudoctor-trace.so
 * preloaded and a shared in-flight region (probe/trace.h). */
#ifndef GD_TRACE_CLI_H
#define GD_TRACE_CLI_H

#include <limits.h>

#include "cli.h"
#include "discover/discover.h"
#include "probe/trace.h"

#define GD_TRACE_MAX_STUCK 8

struct gd_trace_run {
	int mode; /* GD_TRACE_M_* bits, 0 = off */
	int fd;	  /* the region's memfd, -1 none */
	void *map;
	char lib[PATH_MAX];
	char log[PATH_MAX]; /* "" unless log mode */
	int pyfault;	    /* the child has PYTHONFAULTHANDLER on */
	/* Output after a Python program was asked for its stacks at the
	 * deadline (gd_trace_deadline), not shown: parsed for them. */
	int capturing;
	char *dump;
	size_t dump_len;
};

/* "hang" (or NULL), "log", "rewrite" -> mode bits; -1 unknown. */
int gd_trace_mode_parse(const char *s);
/* 1 where the tracer exists (Linux), 0 where it does not (Windows). */
int gd_trace_available(void);
/* Find the library, create the region (and the log path, numbered by
 * `seq`). Returns 0, or -1 after a message on stderr. */
int gd_trace_start(struct gd_trace_run *tr, const char *self_exe, int mode);
/* A fresh log path and empty slots, between strategies. */
void gd_trace_reset(struct gd_trace_run *tr, int seq);
/* env plus LD_PRELOAD and GPUDOCTOR_TRACE_*; frees env. NULL: no memory. */
char **gd_trace_env(struct gd_trace_run *tr, char **env);
/* The deadline passed: the stuck threads (at most cap) into out, why
 * each can block, *unrecorded when slots ran out; Python programs among
 * them are asked for their stacks. Returns ms to wait for those (the
 * supervisor's on_deadline answer); *n the threads stored. */
int gd_trace_deadline(struct gd_trace_run *tr, struct gd_trace_stuck *out,
		      int cap, int *n, char *unrecorded, size_t ucap);
/* A line of output: kept when capturing (returns 1), else 0. */
int gd_trace_capture(struct gd_trace_run *tr, const char *line);
/* After the child is gone: the Python stacks into the stuck threads. */
void gd_trace_finish(struct gd_trace_run *tr, struct gd_trace_stuck *s, int n);
void gd_trace_stop(struct gd_trace_run *tr);
/* With GD_TRACE_M_REWRITE: a note on stderr unless the knowledge base
 * lists the rewrite (strategy *-host-alloc-noncoherent) for a GPU of m.
 * The rewrite is still applied: the user asked for it. */
void gd_trace_rewrite_note(struct gd_cli *cli, const struct gd_machine *m,
			   int mode);

#endif
