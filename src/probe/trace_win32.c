/* The trace region's reader on Windows: the interposer (shim/) is an
 * LD_PRELOAD library, so nothing is ever traced here and no thread is
 * ever inside a traced call. run --trace refuses before this is reached
 * (cli/trace_cli_win32.c). */
#include "trace.h"

size_t gd_trace_hang_report(const void *map, uint64_t now_ns,
			    struct gd_trace_stuck *out, size_t cap)
{
	(void)map;
	(void)now_ns;
	(void)out;
	(void)cap;
	return 0;
}

void gd_trace_unrecorded_text(const void *map, char *buf, size_t cap)
{
	(void)map;
	if (cap)
		buf[0] = '\0';
}

int gd_trace_py_ask(const struct gd_trace_stuck *s, size_t n)
{
	(void)s;
	(void)n;
	return 0;
}
