/* doctor/errcodes: every error code of the GPU runtimes (cudaError_t,
 * CUresult, hipError_t, VkResult, cl_int, ze_result_t, ...), one table
 * generated from the runtimes' own headers at pinned versions
 * (errcodes_gen.c, by tools/gen_errcodes.py; pins in
 * tools/errcodes/sources.txt, hand-written meanings and causes in
 * tools/errcodes/notes.tsv), and the lookups explain uses. */
#ifndef GD_ERRCODES_H
#define GD_ERRCODES_H

#include <stddef.h>

struct gd_errcode_api {
	const char *id; /* "cudart", "hip", "vk": sources.txt's first column */
	const char *type; /* "cudaError_t" */
	const char *pin;  /* the headers' version and origin */
};

struct gd_errcode {
	const char *name; /* as the header spells it */
	long long value;
	unsigned api;	     /* index into gd_errcode_apis */
	const char *meaning; /* short, never empty */
	const char *cause;   /* what usually causes it, or "" */
};

extern const struct gd_errcode_api gd_errcode_apis[];
extern const unsigned gd_errcode_n_apis;
extern const struct gd_errcode gd_errcodes[]; /* grouped by api */
extern const unsigned gd_errcode_n;

/* A text a runtime's own string function returns for one of its codes
 * (cudaGetErrorString ...): tools/gen_errtexts.py, errtexts_gen.c. */
struct gd_errtext {
	const char *api; /* an id of gd_errcode_apis */
	long long value;
	const char *text;
};
extern const struct gd_errtext gd_errtexts[];
extern const unsigned gd_errtext_n;

/* The API whose id is id ("cudart"), or -1. */
int gd_errcode_api_find(const char *id);
/* The code of api with this value (the first name the header gives it),
 * or NULL. */
const struct gd_errcode *gd_errcode_by_value(unsigned api, long long v);
/* A name index for fast lookups in a log (explain_codes.c): built once
 * per scan, freed with free(). */
struct gd_errcode_index;
struct gd_errcode_index *gd_errcode_index_new(void);
const struct gd_errcode *gd_errcode_lookup(const struct gd_errcode_index *x,
					   const char *name, size_t n);
/* Whether some code's name starts with w's first two bytes (w has two). */
int gd_errcode_maybe(const struct gd_errcode_index *x, const char *w);
/* The code is a success or a non-error status (not worth explaining). */
int gd_errcode_is_success(const struct gd_errcode *c);

#endif
