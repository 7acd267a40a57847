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
