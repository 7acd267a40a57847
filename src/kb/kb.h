/* kb/: the knowledge base. A JSON data file (kb/gpudoctor-kb.json), embedded
 * in the binary and installed beside it; --kb FILE loads a newer one. The
 * schema is documented in docs/kb.md. Knowledge is data: doctor/ reads
 * these objects instead of growing if-chains. */
#ifndef GD_KB_H
#define GD_KB_H

#include <jansson.h>
#include <stdio.h>
#include <stddef.h>

typedef struct gd_kb gd_kb;

/* Parse and validate a knowledge base from bytes. On error returns NULL and
 * writes "NAME:LINE:COL: what is wrong" into err. */
gd_kb *gd_kb_parse(const char *buf, size_t len, const char *name, char *err,
		   size_t errlen);
gd_kb *gd_kb_load_file(const char *path, char *err, size_t errlen);
/* fopen(path, "rb") of a regular file only, without blocking on a FIFO or
 * device (errno ENODEV for those): every command glances at kb files. */
FILE *gd_kb_fopen(const char *path);
/* The copy built into the binary, validated at build time (tools/kbgen.c).
 * Parsed lazily: each lookup parses only the entry it returns, the first
 * gd_kb_root() the whole document. So an entry found by a lookup is equal
 * to, but not the same pointer as, its copy under gd_kb_root(), and a kb
 * fills caches on reads: one kb per thread. NULL only out of memory. */
gd_kb *gd_kb_load_embedded(void);
void gd_kb_free(gd_kb *kb);

const char *gd_kb_origin(const gd_kb *kb); /* "embedded" or the file path */
const json_t *gd_kb_root(const gd_kb *kb);

/* Lookups; NULL when not found. The returned objects follow docs/kb.md;
 * the kb owns them (valid until gd_kb_free) and the same lookup returns
 * the same pointer. */
const json_t *gd_kb_target(const gd_kb *kb, const char *gfx);
const json_t *gd_kb_target_for_pci(const gd_kb *kb, unsigned device_id);
const json_t *gd_kb_source(const gd_kb *kb, const char *id);
const json_t *gd_kb_issue(const gd_kb *kb, const char *id);
const json_t *gd_kb_nvidia_for_pci(const gd_kb *kb, unsigned device_id);
const json_t *gd_kb_nvidia_cc(const gd_kb *kb, const char *sm); /* "sm_90" */

/* Added lookups. A gfx name may carry target features ("gfx90a:xnack-")
 * and any case; an sm may be written "sm_90", "sm90", "compute_90", "9.0". */
const json_t *gd_kb_target_for_version(const gd_kb *kb, unsigned version);
const json_t *gd_kb_product_for_pci(const gd_kb *kb, unsigned device_id);
const json_t *gd_kb_strategy(const gd_kb *kb, const char *id);
const json_t *gd_kb_signature(const gd_kb *kb, const char *id);
/* A top-level member: "strategies", "signatures", "nvidia", "workloads"... */
const json_t *gd_kb_get(const gd_kb *kb, const char *key);

/* Convenience: string member of an object, or NULL. */
const char *gd_kb_str(const json_t *obj, const char *key);

#endif
