/* What `run` keeps of CMD's output for explain (run_tee.h): the first
 * GD_RUN_HEAD_BYTES, then a ring of the last GD_RUN_TAIL_BYTES, filled by
 * whole lines so that stdout and stderr interleave by line. Shared by
 * run_tee_posix.c and run_tee_win32.c. */
#ifndef GD_RUN_KEEP_H
#define GD_RUN_KEEP_H

#include <stddef.h>

#include "run_tee.h"

#define GD_RUN_LINE_MAX 4096

struct gd_run_keep {
	char *head, *ring;
	size_t head_len, ring_pos;
	int ring_full;
	unsigned long long total;
};

/* One stream's line not yet ended. */
struct gd_run_line {
	char b[GD_RUN_LINE_MAX];
	size_t n;
};

/* 0 or -ENOMEM. */
int gd_run_keep_init(struct gd_run_keep *k);
void gd_run_keep_free(struct gd_run_keep *k);
/* n bytes of one stream, kept line by line. */
void gd_run_keep_lines(struct gd_run_keep *k, struct gd_run_line *l,
		       const char *b, size_t n);
/* The stream ended: its unended line is kept as it is. */
void gd_run_keep_flush(struct gd_run_keep *k, struct gd_run_line *l);
/* The kept log, head then tail, as one string in o; 0 or -ENOMEM. */
int gd_run_keep_finish(struct gd_run_keep *k, struct gd_run_out *o);

#endif
