#include "facts.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "util.h"

void gd_num_set(gd_num *f, uint64_t v, const char *src)
{
	f->st = GD_KNOWN;
	f->v = v;
	f->why[0] = '\0';
	gd_strlcpy(f->src, src ? src : "", sizeof f->src);
}

void gd_num_unknown(gd_num *f, enum gd_fact_state st, const char *fmt, ...)
{
	va_list ap;

	f->st = st == GD_KNOWN ? GD_UNKNOWN : st;
	f->v = 0;
	va_start(ap, fmt);
	if (gd_vfmt(f->why, sizeof f->why, fmt, ap) == -ENAMETOOLONG)
		gd_mark_cut(f->why, sizeof f->why);
	va_end(ap);
}

void gd_text_set(gd_text *f, const char *v, const char *src)
{
	f->st = GD_KNOWN;
	/* outside text (versions, names, paths): a cut is marked "..." */
	if (gd_strlcpy(f->v, v ? v : "", sizeof f->v) >= sizeof f->v)
		gd_mark_cut(f->v, sizeof f->v);
	gd_sanitize(f->v);
	f->why[0] = '\0';
	if (gd_strlcpy(f->src, src ? src : "", sizeof f->src) >= sizeof f->src)
		gd_mark_cut(f->src, sizeof f->src);
}

void gd_text_unknown(gd_text *f, enum gd_fact_state st, const char *fmt, ...)
{
	va_list ap;

	f->st = st == GD_KNOWN ? GD_UNKNOWN : st;
	f->v[0] = '\0';
	va_start(ap, fmt);
	if (gd_vfmt(f->why, sizeof f->why, fmt, ap) == -ENAMETOOLONG)
		gd_mark_cut(f->why, sizeof f->why);
	va_end(ap);
}
