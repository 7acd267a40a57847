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

/* The longest line kept whole: far past any real one (ld.so's LD_DEBUG
 * search-path line is 2.4 KiB on an AVX-512 CPU and grows with
 * LD_LIBRARY_PATH, itself under 128 KiB); only a child that never writes
 * a line break reaches it. The rest of such a line is dropped and counted
 * (res->lines_cut), never silently. */
#define GD_SUP_LINE_MAX (16u << 20)

/* One run's line state, shared by its two streams. */
struct gd_sup_lines {
	const struct gd_child_spec *spec;
	struct gd_child_result *res;
	double phase_t0; /* when the last phase began (gd_now()) */
	int tail_n, tail_next;
	char tail[GD_CHILD_TAIL_LINES][200];
};

/* One stream (output or phases): the line being assembled, on the heap,
 * grown as it comes. max is the longest line kept plus one (0:
 * GD_SUP_LINE_MAX + 1); the rest of a longer line is dropped, and the
 * line counted in res->lines_cut. Zeroed to start; gd_sup_free at the
 * end. */
struct gd_sup_stream {
	int is_phase;
	int cut; /* the line being assembled passed max (or memory ran out) */
	size_t len, cap, max;
	char *line;
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
/* The line buffer's memory. */
void gd_sup_free(struct gd_sup_stream *s);

#endif
