/* kb/: the knowledge base as JSON. For kb/ itself, `gpudoctor kb` (which
 * dumps entries as they are written) and the tests that compare the lazy
 * index with a full parse. Every other layer uses the typed entries of
 * kb.h. */
#ifndef GD_KB_RAW_H
#define GD_KB_RAW_H

#include <jansson.h>

#include "kb.h"

/* A kb around a document that is NOT validated (tests build small,
 * deliberately odd ones); takes the reference. NULL out of memory. */
gd_kb *gd_kb_wrap(json_t *root);

/* The whole document: parses all of the embedded copy on first use. */
const json_t *gd_kb_root(const gd_kb *kb);

/* Lookups; NULL when not found. The returned objects follow docs/kb.md;
 * the kb owns them (valid until gd_kb_free) and the same lookup returns
 * the same pointer. */
const json_t *gd_kb_target(const gd_kb *kb, const char *gfx);
const json_t *gd_kb_target_for_pci(const gd_kb *kb, unsigned device_id);
const json_t *gd_kb_source(const gd_kb *kb, const char *id);
const json_t *gd_kb_issue(const gd_kb *kb, const char *id);
const json_t *gd_kb_nvidia_for_pci(const gd_kb *kb, unsigned device_id);
/* sm: "sm_90", "sm90", "compute_90", "9.0" */
const json_t *gd_kb_nvidia_cc(const gd_kb *kb, const char *sm);

const json_t *gd_kb_target_for_version(const gd_kb *kb, unsigned version);
const json_t *gd_kb_product_for_pci(const gd_kb *kb, unsigned device_id);
const json_t *gd_kb_strategy(const gd_kb *kb, const char *id);
const json_t *gd_kb_signature(const gd_kb *kb, const char *id);
/* A top-level member: "strategies", "signatures", "nvidia", "workloads"... */
const json_t *gd_kb_get(const gd_kb *kb, const char *key);

/* Convenience: string member of an object, or NULL. */
const char *gd_kb_str(const json_t *obj, const char *key);

/* Entries whose newest source "checked" date is more than max_age days
 * before today (days since 1970-01-01): a new array of {"kind", "id",
 * "checked", "age_days", "sources"} in kb order. An
 * entry's freshness is that of its newest source (docs/kb.md). */
json_t *gd_kb_stale(const gd_kb *kb, long today, long max_age);

#endif
