/* explain's error-code scan: the words that name a runtime or ask for one,
 * and the API functions that name theirs (explain_codes.c). */
#ifndef GD_EXPLAIN_WORDS_H
#define GD_EXPLAIN_WORDS_H

#include <stddef.h>

#define GD_N_WORDS 64 /* room for gd_code_words[] in the scan's index */

/* A product names its runtime ("CUDA", "OpenCL"), a type names it for the
 * number after it ("VkResult"), a generic word asks the line which runtime
 * it is; the last three refine a generic word. */
enum {
	W_PRODUCT,
	W_TYPE,
	W_GENERIC,
	W_QUALIFIER, /* "cuda runtime error" */
	W_LEVEL,     /* "Level Zero" */
	W_ZERO
};

struct word {
	const char *w; /* lower case */
	int kind;
	const char *id; /* the runtime's errcodes id, or NULL */
};

extern const struct word gd_code_words[];
extern const size_t gd_n_code_words;

/* The runtime id an API function names ("clBuildProgram": "cl"), or NULL.
 * Only words with a capital or '_' inside are looked at. */
const char *gd_code_function_api(const char *w, size_t n);

#endif
