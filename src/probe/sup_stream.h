/* probe/sup_stream: what both supervisors (supervisor.c, fork/exec and
 * poll; supervisor_win32.c, a Job Object and PeekNamedPipe) do with the
 * bytes a child writes, free of any platform call: split them into lines,
 * tell phases from output and @-messages, keep the last line and the tail,
 * and flush what is left at the end. Each supervisor reads its own pipes
 * and hands the bytes here. */
#ifndef GD_SUP_STREAM_H
#define GD_SUP_STREAM_H

#include <stddef.h>

#include "supervisor.h"

#define GD_SUP_LINE_CAP 4096

/* One run's line state, shared by its two streams. */
struct gd_sup_lines {
	const struct gd_child_spec *spec;
	struct gd_child_result *res;
	double phase_t0; /* when the last phase began (gd_now()) */
	int tail_n, tail_next;
	char tail[GD_CHILD_TAIL_LINES][200];
};

/* One stream (output or phases): the line being assembled. max is the
 * longest line kept plus one (<= GD_SUP_LINE_CAP); the rest of a longer
 * line is dropped. */
struct gd_sup_stream {
	int is_phase;
	size_t len, max;
	char line[GD_SUP_LINE_CAP];
};

/* Takes n bytes that arrived on s: counts output bytes, calls on_line for
 * each complete line. */
void gd_sup_split(struct gd_sup_lines *L, struct gd_sup_stream *s,
		  const char *b, size_t n);
/* At the end: an output line without '\n' still counts (abort messages
 * often lack one); a phase line without it was cut off mid-message. */
void gd_sup_flush(struct gd_sup_lines *L, struct gd_sup_stream *s);
/* res->tail from the last GD_CHILD_TAIL_LINES output lines. */
void gd_sup_tail(struct gd_sup_lines *L);

#endif
