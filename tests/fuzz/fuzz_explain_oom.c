/* libFuzzer: the out-of-memory line analyser (doctor/explain_oom.c) on any
 * bytes, as a NUL-terminated line. */
#include <stdlib.h>
#include <string.h>

#include "doctor/explain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), out[320];
	const char *cause = NULL;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	gd_explain_oom(line, out, sizeof out, &cause);
	if (cause && !*cause) /* a cause is NULL or a kb code, never "" */
		abort();
	cause = gd_explain_oom_ruled_out(line);
	if (cause && !*cause)
		abort();
	free(line);
	return 0;
}
