/* JSON strings from untrusted bytes. jansson's json_string() returns NULL
 * for bytes that are not valid UTF-8, and json_object_set_new() then drops
 * the key without a word; every string gpudoctor writes into JSON goes
 * through here instead, so a file name or a runtime's message with byte 0xff
 * stays in the document, mended. */
#ifndef GD_JSON_H
#define GD_JSON_H

#include <jansson.h>
#include <stddef.h>

/* A JSON string for s: valid UTF-8 is kept as is, each invalid byte becomes
 * U+FFFD. NULL gives "". Returns NULL only when out of memory. */
json_t *gd_json_str(const char *s);
/* As gd_json_str for a non-empty s; JSON null for NULL or "". */
json_t *gd_json_str_or_null(const char *s);
/* Copy s into dst (cap bytes) as valid UTF-8, bad bytes as U+FFFD,
 * truncated at a character boundary. Returns the length written. */
size_t gd_utf8_mend(char *dst, size_t cap, const char *s);
/* The length gd_utf8_mend gives s with room enough. */
size_t gd_utf8_mend_len(const char *s);
/* Length of the valid UTF-8 sequence at s (1-4), or 0 when invalid. */
int gd_utf8_seq(const unsigned char *s, size_t avail);

#endif
