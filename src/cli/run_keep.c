/* What `run` keeps of CMD's output (run_keep.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run_keep.h"

int gd_run_keep_init(struct gd_run_keep *k)
{
	memset(k, 0, sizeof *k);
	k->head = malloc(GD_RUN_HEAD_BYTES);
	k->ring = malloc(GD_RUN_TAIL_BYTES);
	if (k->head && k->ring)
		return 0;
	gd_run_keep_free(k);
	return -ENOMEM;
}

void gd_run_keep_free(struct gd_run_keep *k)
{
	free(k->head);
	free(k->ring);
	k->head = k->ring = NULL;
}

static void keep_add(struct gd_run_keep *k, const char *b, size_t n)
{
	size_t h = 0;

	k->total += n;
	if (k->head_len < GD_RUN_HEAD_BYTES) {
		h = GD_RUN_HEAD_BYTES - k->head_len;
		h = h < n ? h : n;
		memcpy(k->head + k->head_len, b, h);
		k->head_len += h;
	}
	for (b += h, n -= h; n;) {
		size_t c = GD_RUN_TAIL_BYTES - k->ring_pos;

		c = c < n ? c : n;
		memcpy(k->ring + k->ring_pos, b, c);
		k->ring_pos += c;
		b += c;
		n -= c;
		if (k->ring_pos == GD_RUN_TAIL_BYTES) {
			k->ring_pos = 0;
			k->ring_full = 1;
		}
	}
}

void gd_run_keep_lines(struct gd_run_keep *k, struct gd_run_line *l,
		       const char *b, size_t n)
{
	while (n) {
		const char *nl = memchr(b, '\n', n);
		size_t take = nl ? (size_t)(nl - b) + 1 : n;

		if (!l->n && nl) { /* whole lines: no copy into b[] */
			keep_add(k, b, take);
			b += take;
			n -= take;
			continue;
		}
		if (take > sizeof l->b - l->n)
			take = sizeof l->b - l->n;
		memcpy(l->b + l->n, b, take);
		l->n += take;
		b += take;
		n -= take;
		if (l->b[l->n - 1] == '\n' || l->n == sizeof l->b) {
			keep_add(k, l->b, l->n);
			l->n = 0;
		}
	}
}

void gd_run_keep_flush(struct gd_run_keep *k, struct gd_run_line *l)
{
	if (l->n)
		keep_add(k, l->b, l->n);
	l->n = 0;
}

int gd_run_keep_finish(struct gd_run_keep *k, struct gd_run_out *o)
{
	size_t tail = k->ring_full ? GD_RUN_TAIL_BYTES : k->ring_pos;
	char *s = malloc(k->head_len + 1 + tail + 1);

	if (!s)
		return -ENOMEM;
	memcpy(s, k->head, k->head_len);
	o->log_len = k->head_len;
	if (k->ring_full) { /* bytes were lost between: a line break */
		s[o->log_len++] = '\n';
		memcpy(s + o->log_len, k->ring + k->ring_pos,
		       GD_RUN_TAIL_BYTES - k->ring_pos);
		o->log_len += GD_RUN_TAIL_BYTES - k->ring_pos;
	}
	memcpy(s + o->log_len, k->ring, k->ring_pos);
	o->log_len += k->ring_pos;
	s[o->log_len] = '\0';
	o->log = s;
	o->total = k->total;
	return 0;
}
