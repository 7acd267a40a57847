/* probe/sup_stream: the supervisors' line handling (sup_stream.h). */
#include "sup_stream.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* dst (cap bytes) from a line: whole, or its head with "..." where it is
 * cut, so the summary never passes a cut line off as whole. */
static void keep_line(char *dst, size_t cap, const char *line)
{
	size_t n = strnlen(line, cap); /* a flood's long lines: no strlen */

	if (n < cap) {
		memcpy(dst, line, n + 1);
	} else {
		memcpy(dst, line, cap - 1);
		dst[cap - 1] = '\0';
		gd_mark_cut(dst, cap);
	}
}

static void tail_add(struct gd_sup_lines *L, const char *line)
{
	keep_line(L->tail[L->tail_next], sizeof L->tail[0], line);
	L->tail_next = (L->tail_next + 1) % GD_CHILD_TAIL_LINES;
	if (L->tail_n < GD_CHILD_TAIL_LINES)
		L->tail_n++;
}

static void handle_line(struct gd_sup_lines *L, struct gd_sup_stream *s)
{
	struct gd_child_result *res = L->res;
	int is_phase = s->is_phase;
	char *line = s->line;
	size_t len = s->len;

	line[len] = '\0';
	if (s->cut)
		res->lines_cut++;
	s->cut = 0;
	s->len = 0;
	if (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (is_phase && line[0] != '@') {
		keep_line(res->phase, sizeof res->phase, line);
		L->phase_t0 = gd_now();
	} else if (!is_phase) {
		if (line[0])
			keep_line(res->last_line, sizeof res->last_line, line);
		tail_add(L, line);
	}
	if (L->spec->on_line)
		L->spec->on_line(L->spec->arg,
				 is_phase ? (line[0] == '@' ? 2 : 1) : 0, line);
}

/* Room for n more bytes and the NUL; what does not fit (max, or memory)
 * is cut. Returns how many of the n to take. */
static size_t make_room(struct gd_sup_stream *s, size_t n)
{
	size_t max = s->max ? s->max : GD_SUP_LINE_MAX + 1;
	size_t room = max - 1 - s->len, want;
	char *p;

	if (n > room) {
		n = room;
		s->cut = 1;
	}
	want = s->len + n + 1;
	if (want <= s->cap)
		return n;
	if (want < 2 * s->cap)
		want = 2 * s->cap < max ? 2 * s->cap : max;
	if (want < 256)
		want = 256;
	p = realloc(s->line, want);
	if (!p) { /* keep what fits: the line is cut, and counted */
		s->cut = 1;
		return s->cap > s->len + 1 ? s->cap - s->len - 1 : 0;
	}
	s->line = p;
	s->cap = want;
	return n;
}

void gd_sup_split(struct gd_sup_lines *L, struct gd_sup_stream *s,
		  const char *b, size_t n)
{
	if (!s->is_phase)
		L->res->output_bytes += n;
	for (const char *p = b, *end = b + n; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t whole = (size_t)((nl ? nl : end) - p);
		size_t take = make_room(s, whole);

		if (take) {
			char *d = s->line + s->len, *z = d;

			memcpy(d, p, take);
			s->len += take;
			/* NULs would cut the line */
			while ((z = memchr(z, '\0', take - (size_t)(z - d))))
				*z++ = ' ';
		}
		if (!nl)
			break;
		if (!s->line && (make_room(s, 0), !s->line))
			return; /* no memory for even an empty line */
		handle_line(L, s);
		p = nl + 1;
	}
}

void gd_sup_flush(struct gd_sup_lines *L, struct gd_sup_stream *s)
{
	if (!s->len)
		return;
	s->line[s->len] = '\0';
	if (s->is_phase) {
		L->res->partial_message = 1;
		keep_line(L->res->partial, sizeof L->res->partial, s->line);
		s->len = 0;
		s->cut = 0;
	} else {
		handle_line(L, s);
	}
}

void gd_sup_free(struct gd_sup_stream *s)
{
	free(s->line);
	s->line = NULL;
	s->len = s->cap = 0;
}

void gd_sup_tail(struct gd_sup_lines *L)
{
	struct gd_child_result *res = L->res;
	int first = (L->tail_next - L->tail_n + GD_CHILD_TAIL_LINES) %
		    GD_CHILD_TAIL_LINES;
	size_t off = 0;

	res->tail[0] = '\0';
	for (int i = 0; i < L->tail_n; i++) {
		const char *l = L->tail[(first + i) % GD_CHILD_TAIL_LINES];
		size_t len = strlen(l);

		/* 20 lines of at most 199 bytes always fit: never cut */
		if (off + len + 2 > sizeof res->tail)
			break;
		if (i)
			res->tail[off++] = '\n';
		memcpy(res->tail + off, l, len);
		off += len;
		res->tail[off] = '\0';
	}
}
