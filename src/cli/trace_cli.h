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
char **gd_trace_env(const struct gd_trace_run *tr, char **env);
void gd_trace_stop(struct gd_trace_run *tr);
/* With GD_TRACE_M_REWRITE: a note on stderr unless the knowledge base
 * lists the rewrite (strategy *-host-alloc-noncoherent) for a GPU of m.
 * The rewrite is still applied: the user asked for it. */
void gd_trace_rewrite_note(struct gd_cli *cli, const struct gd_machine *m,
			   int mode);

#endif
