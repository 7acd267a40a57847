/* kb/ internals shared by kb.c, kb_entries.c, kb_parse.c, kb_validate.c,
 * the build-time generator tools/kbgen.c and the kb_embedded.c it writes.
 * Not for other layers: they use kb.h. */
#ifndef GD_KB_INTERNAL_H
#define GD_KB_INTERNAL_H

#include <jansson.h>
#include <stddef.h>

#include "kb_raw.h"

/* A knowledge base larger than this is refused, not parsed: the shipped
 * one is ~0.2 MiB, so 8 MiB leaves room and bounds memory on bad input. */
#define GD_KB_MAX_BYTES (8u << 20)
#define GD_KB_SCHEMA 1

/* Check a parsed document against docs/kb.md. buf/len is the text it was
 * parsed from, used only to find line numbers for messages. Returns 0, or
 * -1 with "NAME:LINE: message" in err. */
int gd_kb_validate(const json_t *root, const char *buf, size_t len,
		   const char *name, char *err, size_t errlen);

/* The "kernel" section and strategies' kernel_param (kb_kernel.c): 0, or
 * -1 with a message in err. */
int gd_kb_validate_kernel(const json_t *root, char *err, size_t errlen);
/* The "windows" section (kb_windows_check.c): 0, or -1 with a message. */
int gd_kb_validate_windows(const json_t *root, char *err, size_t errlen);
/* The "intel" section (kb_intel.c): 0, or -1 with a message. */
int gd_kb_validate_intel(const json_t *root, char *err, size_t errlen);

/* Parse and validate text: the one acceptance test, shared by --kb FILE
 * (gd_kb_parse) and the build-time generator. Returns the root, or NULL
 * with "NAME:LINE[:COL]: message" in err. */
json_t *gd_kb_parse_root(const char *buf, size_t len, const char *name,
			 char *err, size_t errlen);

/* The embedded knowledge base is not parsed at start-up: a full parse
 * costs ~3 ms, ten times the rest of `gpudoctor list`. tools/kbgen.c
 * validates the shipped file at build time and writes it compact, plus
 * this index of where each entry's text sits in it, so a lookup parses
 * only the entry it returns. Each entry has its own cache slot. */
struct gd_kb_ix_target {
	const char *gfx;
	long long version;   /* gfx_target_version; -1 when null or absent */
	const unsigned *pci; /* every products[].pci_ids, in file order */
	unsigned npci;
	int apu;	   /* 1, 0, -1 when not a boolean */
	unsigned off, len; /* the target object's text */
	unsigned slot;
};

struct gd_kb_ix_gpu { /* nvidia.gpus[] */
	unsigned pci;
	unsigned off, len, slot;
};

/* An entry named by a string: a top-level member, a source id, ... */
struct gd_kb_ix_named {
	const char *key;
	unsigned off, len, slot;
};

enum gd_kb_ix_list {
	GD_KB_IX_TOP,	     /* root members, by key */
	GD_KB_IX_SOURCES,    /* sources{}, by key */
	GD_KB_IX_ISSUES,     /* issues[], by id */
	GD_KB_IX_STRATEGIES, /* strategies[], by id */
	GD_KB_IX_SIGNATURES, /* signatures[], by id */
	GD_KB_IX_CCS,	     /* nvidia.compute_capabilities[], by sm */
	GD_KB_IX_NLISTS
};

struct gd_kb_index {
	const unsigned char *text; /* the whole document, compact, NUL after */
	size_t len;
	const struct gd_kb_ix_target *targets;
	size_t ntargets;
	const struct gd_kb_ix_gpu *gpus;
	size_t ngpus;
	const struct gd_kb_ix_named *list[GD_KB_IX_NLISTS];
	size_t nlist[GD_KB_IX_NLISTS];
	unsigned nslots;
};

/* Entries of strategies[] / signatures[] in file order: through the index
 * (one entry parsed) or the parsed document's array named key. */
size_t gd_kb_list_count(const gd_kb *kb, enum gd_kb_ix_list l, const char *key);
const json_t *gd_kb_list_entry(const gd_kb *kb, enum gd_kb_ix_list l,
			       const char *key, size_t i);

/* Written by tools/kbgen.c into ${build}/generated/kb_embedded.c. */
extern const struct gd_kb_index gd_kb_embedded_index;

/* Days since 1970-01-01 of a real "YYYY-MM-DD" date; -1 when not one. */
long gd_kb_day(const char *ymd);

#endif
