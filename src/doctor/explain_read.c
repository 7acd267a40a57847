/* explain: read a log, its start and its end when long (a ring over the
 * rest), then decode it (explain_decode.c). Matching is explain.c's. */
#include "core/util.h"
#include "explain.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif
#include <sys/stat.h>
#include <unistd.h>

static void reverse(char *b, size_t n)
{
	for (size_t i = 0; i + 1 < n - i; i++) {
		char c = b[i];

		b[i] = b[n - 1 - i];
		b[n - 1 - i] = c;
	}
}

/* Everything after the head into a ring of cap bytes; returns the bytes
 * seen (more than cap when the ring wrapped) and leaves the oldest kept
 * byte first. */
static long long read_ring(int fd, char *ring, size_t cap, int *cut)
{
	unsigned long long seen = 0;
	size_t pos = 0;

	for (;;) {
		if (seen >= GD_EXPLAIN_STREAM_MAX) { /* `yes | explain` ends */
			*cut = 1;
			break;
		}
		size_t want = cap - pos < 65536 ? cap - pos : 65536;
		long k = gd_read_full(fd, ring + pos, want);

		if (k < 0)
			return k;
		seen += (size_t)k;
		pos = (pos + (size_t)k) % cap;
		if ((size_t)k < want) /* end of input */
			break;
	}
	if (seen > cap && pos) { /* rotate: ring[pos..] is the oldest */
		reverse(ring, pos);
		reverse(ring + pos, cap - pos);
		reverse(ring, cap);
	}
	return (long long)seen;
}

/* A regular file much longer than what is left to read: seek to its last
 * cap bytes. Returns the bytes skipped (0 when not seekable or short). */
static unsigned long long seek_tail(int fd, size_t cap)
{
	struct stat st;
	off_t cur;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	cur = lseek(fd, 0, SEEK_CUR);
	if (cur < 0 || st.st_size - cur <= (off_t)cap)
		return 0;
	if (lseek(fd, st.st_size - (off_t)cap, SEEK_SET) < 0)
		return 0;
	return (unsigned long long)(st.st_size - (off_t)cap - cur);
}

/* The log buffer is 16 MiB: on large pages where the kernel offers them,
 * filling it costs a few page faults instead of four thousand. */
static char *log_buffer(size_t n)
{
#ifdef _WIN32
	return malloc(n);
#else
	void *p = NULL;

	if (posix_memalign(&p, 2u << 20, n))
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, n, MADV_HUGEPAGE);
#endif
	return p;
#endif
}

/* The raw bytes: head and tail (decoded by gd_explain_read_log). */
static int read_raw(int fd, size_t head_cap, size_t tail_cap,
		    struct gd_explain_log *log)
{
	/* head, a NUL, the tail ring, a NUL */
	char *b = log_buffer(head_cap + tail_cap + 2), *ring;
	unsigned long long skip;
	struct stat st;
	off_t cur;
	ssize_t h;
	long long rest;

	memset(log, 0, sizeof *log);
	if (!b || !tail_cap) {
		free(b);
		return b ? -EINVAL : -ENOMEM;
	}
	h = gd_read_full(fd, b, head_cap);
	if (h < 0) {
		free(b);
		return (int)h;
	}
	log->head = b;
	log->head_len = (size_t)h;
	log->total = (unsigned long long)h;
	b[h] = '\0';
	if ((size_t)h < head_cap)
		return 0;
	/* A file whose rest fits: straight after the head, no ring. */
	cur = lseek(fd, 0, SEEK_CUR);
	if (cur >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size - cur <= (off_t)tail_cap) {
		rest = gd_read_full(fd, b + head_cap, tail_cap);
		if (rest < 0) {
			gd_explain_log_free(log);
			return (int)rest;
		}
		log->head_len += (size_t)rest;
		log->total += (unsigned long long)rest;
		b[log->head_len] = '\0';
		return 0; /* bytes appended while it was read are not seen */
	}
	ring = b + head_cap + 1;
	skip = seek_tail(fd, tail_cap);
	rest = read_ring(fd, ring, tail_cap, &log->stream_cut);
	if (rest < 0) {
		gd_explain_log_free(log);
		return (int)rest;
	}
	log->total += skip + (unsigned long long)rest;
	if (!skip && (unsigned long long)rest <= tail_cap) {
		/* all of it: one piece */
		memmove(b + head_cap, ring, (size_t)rest);
		log->head_len += (size_t)rest;
		b[log->head_len] = '\0';
		return 0;
	}
	log->skipped = skip + ((unsigned long long)rest > tail_cap
				   ? (unsigned long long)rest - tail_cap
				   : 0);
	log->tail = ring;
	log->tail_len = (size_t)rest < tail_cap ? (size_t)rest : tail_cap;
	ring[log->tail_len] = '\0';
	return 0;
}

/* Both parts decoded into one new allocation (head, NUL, tail, NUL). The
 * tail is decoded as the head is; for UTF-16 it must start on a code unit,
 * i.e. at an even offset of the file. */
static int decode_parts(struct gd_explain_log *log)
{
	size_t bom, hl, tl = 0, odd;
	int enc = gd_explain_detect(log->head, log->head_len, &bom);
	char *h, *t = NULL, *b;

	/* one part of UTF-8, the usual log: decoded where it was read (the
	 * reader leaves room for the NUL) */
	if (!log->tail && enc == GD_ENC_UTF8) {
		log->head_len =
		    gd_explain_decode_inplace(log->head, log->head_len);
		return 0;
	}
	h = gd_explain_decode(log->head, log->head_len, GD_ENC_DETECT, &hl);
	if (h && log->tail) {
		odd = enc != GD_ENC_UTF8 &&
		      (log->head_len + log->skipped) % 2 && log->tail_len;
		t = gd_explain_decode(log->tail + odd, log->tail_len - odd, enc,
				      &tl);
	}
	b = h && (t || !log->tail) ? malloc(hl + tl + 2) : NULL;
	if (b) {
		memcpy(b, h, hl + 1);
		if (t)
			memcpy(b + hl + 1, t, tl + 1);
		else
			b[hl + 1] = '\0';
	}
	free(h);
	free(t);
	if (!b)
		return -ENOMEM;
	free(log->head);
	log->head = b;
	log->head_len = hl;
	log->tail = log->tail ? b + hl + 1 : NULL;
	log->tail_len = tl;
	return 0;
}

int gd_explain_read_log(int fd, size_t head_cap, size_t tail_cap,
			struct gd_explain_log *log)
{
	int rc = read_raw(fd, head_cap, tail_cap, log);

	if (rc == 0 && (rc = decode_parts(log)) < 0)
		gd_explain_log_free(log);
	return rc;
}

int gd_explain_mem_log(const char *buf, size_t n, size_t head_cap,
		       size_t tail_cap, struct gd_explain_log *log)
{
	int whole = n <= head_cap + tail_cap;
	char *b = whole ? malloc(n + 2) : log_buffer(head_cap + tail_cap + 2);
	int rc;

	memset(log, 0, sizeof *log);
	if (!b || !tail_cap) {
		free(b);
		return b ? -EINVAL : -ENOMEM;
	}
	log->head = b;
	log->total = n;
	if (whole) { /* all of it: one piece */
		memcpy(b, buf, n);
		log->head_len = n;
		b[n] = '\0';
	} else { /* as gd_explain_read_log lays out a long file */
		memcpy(b, buf, head_cap);
		b[head_cap] = '\0';
		log->head_len = head_cap;
		log->tail = b + head_cap + 1;
		memcpy(log->tail, buf + n - tail_cap, tail_cap);
		log->tail[tail_cap] = '\0';
		log->tail_len = tail_cap;
		log->skipped = n - head_cap - tail_cap;
	}
	if ((rc = decode_parts(log)) < 0)
		gd_explain_log_free(log);
	return rc;
}

void gd_explain_log_free(struct gd_explain_log *log)
{
	free(log->head);
	memset(log, 0, sizeof *log);
}
