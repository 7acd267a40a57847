/* probe/trace_py: the Python stack of a stuck thread, from the traceback
 * that Python's faulthandler writes (see trace.h). faulthandler
 * (CPython's format: docs/trace.md, "Sources") prints, for
 * each thread, a header "Thread 0x00007f0c2c1ff6c0 (most recent call
 * first):" ("Current thread 0x..." for the one that took the signal;
 * newer versions may add a name before the parenthesis), then one line a
 * frame, innermost first: '  File "train.py", line 42 in step'. The
 * number is the thread's identifier, pthread_self() on Linux, which the
 * shim records in the slot. The text is the traced program's output:
 * nothing in it is trusted (bounded copies, sanitised names). */
#include <stdint.h>
#include <string.h>

#include "core/util.h"
#include "probe/trace.h"

#define MAX_FRAMES 3

/* Library code, not the user's: the standard library, installed
 * packages, frozen modules. */
static int is_library(const char *file, size_t n)
{
	static const char *const marks[] = {"/lib/python",   "site-packages",
					    "dist-packages", "<frozen",
					    "/lib64/python", "<string>"};

	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
		size_t m = strlen(marks[i]);

		for (size_t k = 0; k + m <= n; k++)
			if (!memcmp(file + k, marks[i], m))
				return 1;
	}
	return 0;
}

/* The thread id of a header line, or 0 when the line is not one. */
static uint64_t header_thread(const char *p, const char *eol)
{
	static const char *const heads[] = {"Thread 0x", "Current thread 0x"};
	uint64_t v = 0;
	int digits = 0;

	for (size_t i = 0; i < 2; i++) {
		size_t m = strlen(heads[i]);

		if ((size_t)(eol - p) > m && !memcmp(p, heads[i], m)) {
			for (p += m; p < eol && digits < 17; p++, digits++) {
				char c = *p;

				if (c >= '0' && c <= '9')
					v = v << 4 | (uint64_t)(c - '0');
				else if (c >= 'a' && c <= 'f')
					v = v << 4 | (uint64_t)(c - 'a' + 10);
				else
					break;
			}
			return digits && digits <= 16 ? v : 0;
		}
	}
	return 0;
}

/* '  File "F", line N in NAME' -> "base(F):N in NAME"; 0 or -1. */
static int frame_text(const char *p, const char *eol, char *out, size_t cap,
		      int *library)
{
	static const char pre[] = "  File \"";
	const char *f, *q, *base, *name;
	long line;
	const char *end;

	if ((size_t)(eol - p) <= sizeof pre - 1 ||
	    memcmp(p, pre, sizeof pre - 1))
		return -1;
	f = p + sizeof pre - 1;
	q = memchr(f, '"', (size_t)(eol - f));
	if (!q || eol - q < 8 || memcmp(q, "\", line ", 8))
		return -1;
	/* digits by hand: the text need not end in NUL */
	for (end = q + 8, line = 0;
	     end < eol && *end >= '0' && *end <= '9' && line < 100000000; end++)
		line = line * 10 + (*end - '0');
	if (end == q + 8 || line >= 100000000)
		return -1;
	name = end;
	if (eol - name > 4 && !memcmp(name, " in ", 4))
		name += 4;
	else
		name = eol;
	for (base = q; base > f && base[-1] != '/'; base--)
		;
	*library = is_library(f, (size_t)(q - f));
	gd_fmt(out, cap, "%.*s:%ld%s%.*s", (int)(q - base), base, line,
	       name < eol ? " in " : "", (int)(eol - name), name);
	gd_sanitize(out);
	return 0;
}

/* Append frame text t to out (", called from " between frames). */
static void add_frame(char *out, size_t cap, int *n, const char *t)
{
	size_t l = strlen(out);

	gd_fmt(out + l, cap - l, "%s%s", *n ? ", called from " : "", t);
	(*n)++;
}

int gd_trace_py_stack(const char *text, size_t n, uint64_t thread, char *out,
		      size_t cap)
{
	const char *p = text, *end = text + n;
	char first[200] = "", fr[200];
	int in_thread = 0, frames = 0;

	if (!cap)
		return -1;
	out[0] = '\0';
	while (p < end && frames < MAX_FRAMES) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		uint64_t t;
		int lib = 0;

		if (!eol)
			eol = end;
		t = header_thread(p, eol);
		if (t) {
			if (in_thread)
				break; /* the next thread's stack */
			in_thread = thread && t == thread;
		} else if (in_thread &&
			   frame_text(p, eol, fr, sizeof fr, &lib) == 0) {
			if (!first[0])
				gd_strlcpy(first, fr, sizeof first);
			if (!lib)
				add_frame(out, cap, &frames, fr);
		}
		p = eol + 1;
	}
	if (!out[0] && first[0])
		gd_strlcpy(out, first, cap); /* no user frame: the innermost */
	return out[0] ? 0 : -1;
}

void gd_trace_py_attach(struct gd_trace_stuck *s, size_t n, const char *text,
			size_t len)
{
	for (size_t i = 0; i < n; i++) {
		s[i].python[0] = '\0';
		if (text && len && s[i].thread)
			gd_trace_py_stack(text, len, s[i].thread, s[i].python,
					  sizeof s[i].python);
	}
}
