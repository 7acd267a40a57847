/* probe/sup_stream: the supervisors' line handling (sup_stream.h). */
#include "sup_stream.h"

#include <string.h>

#include "core/util.h"

static void tail_add(struct gd_sup_lines *L, const char *line)
{
	gd_strlcpy(L->tail[L->tail_next], line, sizeof L->tail[0]);
	L->tail_next = (L->tail_next + 1) % GD_CHILD_TAIL_LINES;
	if (L->tail_n < GD_CHILD_TAIL_LINES)
		L->tail_n++;
}

static void handle_line(struct gd_sup_lines *L, int is_phase, char *line)
{
	struct gd_child_result *res = L->res;
	size_t len = strlen(line);

	if (len && line[len - 1] == '\r')
		line[len - 1] = '\0';
	if (is_phase && line[0] != '@') {
		gd_strlcpy(res->phase, line, sizeof res->phase);
		L->phase_t0 = gd_now();
	} else if (!is_phase) {
		if (line[0])
			gd_strlcpy(res->last_line, line, sizeof res->last_line);
		tail_add(L, line);
	}
	if (L->spec->on_line)
		L->spec->on_line(L->spec->arg,
				 is_phase ? (line[0] == '@' ? 2 : 1) : 0, line);
}

void gd_sup_split(struct gd_sup_lines *L, struct gd_sup_stream *s,
		  const char *b, size_t n)
{
	size_t max =
	    s->max && s->max <= sizeof s->line ? s->max : sizeof s->line;

	if (!s->is_phase)
		L->res->output_bytes += n;
	for (const char *p = b, *end = b + n; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t take = (size_t)((nl ? nl : end) - p);
		size_t room = max - 1 - s->len;

		if (take > room)
			take = room;
		for (size_t i = 0; i < take; i++) /* NULs would cut the line */
			s->line[s->len++] = p[i] ? p[i] : ' ';
		if (!nl)
			break;
		s->line[s->len] = '\0';
		handle_line(L, s->is_phase, s->line);
		s->len = 0;
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
		gd_strlcpy(L->res->partial, s->line, sizeof L->res->partial);
	} else {
		handle_line(L, 0, s->line);
	}
	s->len = 0;
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
