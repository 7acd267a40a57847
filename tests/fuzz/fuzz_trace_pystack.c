/* Fuzz the faulthandler dump parser (probe/trace_py.c): the dump is the
 * traced program's output, so it may be anything. The first 8 bytes are
 * the thread id to look for, the rest the text; the result must be a
 * NUL-terminated string within its buffer, also for tiny buffers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[400], tiny[8];
	uint64_t thread = 0;

	if (size >= 8)
		memcpy(&thread, data, 8);
	data += size >= 8 ? 8 : size;
	size -= size >= 8 ? 8 : size;
	gd_trace_py_stack((const char *)data, size, thread, out, sizeof out);
	if (!memchr(out, '\0', sizeof out))
		abort();
	gd_trace_py_stack((const char *)data, size, thread, tiny, sizeof tiny);
	if (!memchr(tiny, '\0', sizeof tiny))
		abort();
	/* the thread named in the text, whatever it is */
	gd_trace_py_stack((const char *)data, size, 0x7f0011223344u, out,
			  sizeof out);
	return 0;
}
