/* binscan core: checked reads and the result containers. */
#include <stdlib.h>
#include <string.h>

#include "binscan.h"

int gd_bs_rd16(const uint8_t *b, size_t n, uint64_t off, uint16_t *v)
{
	if (!gd_bs_in(n, off, 2))
		return -1;
	*v = (uint16_t)(b[off] | (unsigned)b[off + 1] << 8);
	return 0;
}

int gd_bs_rd32(const uint8_t *b, size_t n, uint64_t off, uint32_t *v)
{
	if (!gd_bs_in(n, off, 4))
		return -1;
	*v = (uint32_t)b[off] | (uint32_t)b[off + 1] << 8 |
	     (uint32_t)b[off + 2] << 16 | (uint32_t)b[off + 3] << 24;
	return 0;
}

int gd_bs_rd64(const uint8_t *b, size_t n, uint64_t off, uint64_t *v)
{
	uint32_t lo, hi;

	if (gd_bs_rd32(b, n, off, &lo) || gd_bs_rd32(b, n, off + 4, &hi))
		return -1;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

int gd_bs_str(const uint8_t *b, size_t n, uint64_t off, const char **s)
{
	if (off >= n || !memchr(b + off, '\0', n - off))
		return -1;
	*s = (const char *)b + off;
	return 0;
}

const char *gd_bs_kind_name(enum gd_bs_kind k)
{
	return k == GD_BS_AMDGCN ? "amdgcn" : k == GD_BS_SASS ? "sass" : "ptx";
}

struct gd_bs_target *gd_bs_add_target(struct gd_bs_file *f,
				      enum gd_bs_kind kind, const char *target,
				      const char *features,
				      const char *container)
{
	struct gd_bs_target *t;

	for (size_t i = 0; i < f->targets.n; i++) {
		t = &f->targets.v[i];
		if (t->kind == kind && !strcmp(t->target, target) &&
		    !strcmp(t->features, features ? features : "")) {
			t->count++;
			return t;
		}
	}
	t = gd_vec_push(&f->targets);
	if (!t)
		return NULL;
	t->kind = kind;
	gd_strlcpy(t->target, target, sizeof t->target);
	gd_strlcpy(t->features, features ? features : "", sizeof t->features);
	gd_strlcpy(t->container, container, sizeof t->container);
	t->count = 1;
	return t;
}

void gd_bs_dyn_free(struct gd_bs_dyn *d)
{
	for (size_t i = 0; i < d->needed.n; i++)
		free(d->needed.v[i]);
	gd_vec_free(&d->needed);
	for (size_t i = 0; i < d->symvers.n; i++)
		free(d->symvers.v[i].sym);
	gd_vec_free(&d->symvers);
}

void gd_bs_file_free(struct gd_bs_file *f)
{
	gd_vec_free(&f->targets);
	gd_vec_free(&f->needs);
	gd_bs_dyn_free(&f->dyn);
}

void gd_bs_files_free(gd_bs_files *v)
{
	for (size_t i = 0; i < v->n; i++)
		gd_bs_file_free(&v->v[i]);
	gd_vec_free(v);
}
