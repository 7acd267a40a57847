/* doctor/trace_why: why a traced call can block, and the setting that
 * changes it (`run/try --trace` hang reports). Known runtime behaviours,
 * kept as one table in trace_why.c. */
#ifndef GD_TRACE_WHY_H
#define GD_TRACE_WHY_H

#include <stddef.h>

#include "probe/trace.h"

/* The sentence for the call s is stuck in, or NULL when none is known. */
const char *gd_trace_why(const struct gd_trace_stuck *s);

/* Fill s[i].why for n stuck threads. */
void gd_trace_explain(struct gd_trace_stuck *s, size_t n);

#endif
