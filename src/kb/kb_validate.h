/* kb/: what the parts of the schema check share (kb_validate.c and the
 * files it was split into: kb_validate_ctx.c, kb_validate_hw.c,
 * kb_validate_libs.c, kb_validate_causes.c). Internal to kb/ and tools/kbgen.c.
 */
#ifndef GD_KB_VALIDATE_H
#define GD_KB_VALIDATE_H

#include <jansson.h>
#include <stddef.h>

/* One validation run: the document's text (for line numbers), the
 * top-level maps that entries refer to and where the message goes. */
struct gd_kb_vctx {
	const json_t *sources, *issues;
	const char *buf, *name;
	size_t len;
	const char *ekey, *eval; /* the entry being checked: "gfx": "gfx1010" */
	char *err;
	size_t errlen;
};

/* kb_validate_ctx.c: messages with the line they point at. */
const char *gd_kbv_str(const json_t *o, const char *key);
/* "NAME:LINE: message" into v->err; returns -1. what: a key (is_key) or a
 * string value to point at inside the current entry. */
int gd_kbv_fail(struct gd_kb_vctx *v, const char *what, int is_key,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A duplicate: points at the second entry with the same name. */
int gd_kbv_fail_dup(struct gd_kb_vctx *v, const char *what, const char *name);
/* The entry messages point into: member key with value val. */
void gd_kbv_enter(struct gd_kb_vctx *v, const char *key, const char *val);
int gd_kbv_str_or_null(const json_t *o, const char *key);
int gd_kbv_one_of(const char *s, const char *const *set);
int gd_kbv_is_gfx(const char *s);
int gd_kbv_is_pci(const char *s);

/* kb_validate_hw.c: "nvidia" and the optional hardware lists. */
int gd_kbv_check_nvidia(struct gd_kb_vctx *v, const json_t *nv);
int gd_kbv_check_hw(struct gd_kb_vctx *v, const json_t *root);

/* kb_validate_libs.c: the optional libraries[]. */
int gd_kbv_check_libraries(struct gd_kb_vctx *v, const json_t *root);

/* kb_validate_causes.c: causes{}, alternatives{} and signatures' causes. */
int gd_kbv_check_causes(struct gd_kb_vctx *v, const json_t *root);

#endif
