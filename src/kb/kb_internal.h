/* kb/ internals shared by kb.c, kb_validate.c and the generated
 * kb_embedded.c. Not for other layers: they use kb.h. */
#ifndef GD_KB_INTERNAL_H
#define GD_KB_INTERNAL_H

#include <jansson.h>
#include <stddef.h>

/* The shipped file, embedded at build time (src/kb/module.cmake). The
 * array carries one extra NUL after gd_kb_embedded_size bytes. */
extern const unsigned char gd_kb_embedded_data[];
extern const size_t gd_kb_embedded_size;

/* A knowledge base larger than this is refused, not parsed: the shipped
 * one is ~0.2 MiB, so 8 MiB leaves room and bounds memory on bad input. */
#define GD_KB_MAX_BYTES (8u << 20)
#define GD_KB_SCHEMA 1

/* Check a parsed document against docs/kb.md. buf/len is the text it was
 * parsed from, used only to find line numbers for messages. Returns 0, or
 * -1 with "NAME:LINE: message" in err. */
int gd_kb_validate(const json_t *root, const char *buf, size_t len,
		   const char *name, char *err, size_t errlen);

#endif
