/* fs_links.h: symlinks of a capture from its .gpudoctor/links.tsv, resolved
 * the way openat2(RESOLVE_IN_ROOT) resolves them on Linux: an absolute
 * target starts again at the root, ".." never climbs above it, 40 links at
 * most (the kernel's ELOOP limit). */
#include "fs_links.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_LINKS 200000
#define MAX_HOPS 40

struct link {
	char *name, *target; /* name: "sys/bus/pci/devices/0000:28:00.0" */
};

struct gd_fs_links {
	struct link *v;
	size_t n;
	char *text;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct link *)a)->name,
		      ((const struct link *)b)->name);
}

int gd_fs_links_parse(const char *buf, size_t len, struct gd_fs_links **out)
{
	struct gd_fs_links *l = calloc(1, sizeof *l);
	size_t cap = 0;
	char *line, *next;

	*out = NULL;
	if (!l || !(l->text = malloc(len + 1))) {
		free(l);
		return -ENOMEM;
	}
	memcpy(l->text, buf, len);
	l->text[len] = '\0';
	for (line = l->text; line && *line; line = next) {
		char *tab;

		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		while (*line == '/')
			line++;
		if (!(tab = strchr(line, '\t')) || tab == line || !tab[1])
			continue; /* not "name<TAB>target" */
		*tab = '\0';
		if (l->n == cap) {
			struct link *nv;

			if (cap >= MAX_LINKS)
				break;
			cap = cap ? cap * 2 : 64;
			if (!(nv = realloc(l->v, cap * sizeof *nv))) {
				gd_fs_links_free(l);
				return -ENOMEM;
			}
			l->v = nv;
		}
		l->v[l->n++] = (struct link){line, tab + 1};
	}
	if (l->n)
		qsort(l->v, l->n, sizeof *l->v, by_name);
	*out = l;
	return 0;
}

void gd_fs_links_free(struct gd_fs_links *l)
{
	if (!l)
		return;
	free(l->v);
	free(l->text);
	free(l);
}

const char *gd_fs_links_get(const struct gd_fs_links *l, const char *path)
{
	struct link key, *hit;

	while (*path == '/')
		path++;
	if (!l || !l->n)
		return NULL;
	key.name = (char *)path;
	hit = bsearch(&key, l->v, l->n, sizeof *l->v, by_name);
	return hit ? hit->target : NULL;
}

void gd_fs_links_each_in(const struct gd_fs_links *l, const char *dir,
			 void (*fn)(void *arg, const char *name), void *arg)
{
	size_t n;

	while (*dir == '/')
		dir++;
	n = strlen(dir);
	while (n && dir[n - 1] == '/')
		n--;
	for (size_t i = 0; l && i < l->n; i++) {
		const char *name = l->v[i].name, *base = name;

		if (n && (strncmp(name, dir, n) || name[n] != '/'))
			continue;
		base = n ? name + n + 1 : name;
		if (*base && !strchr(base, '/'))
			fn(arg, base);
	}
}

/* Appends one component to out (an absolute path, "" for the root). */
static int push(char *out, size_t cap, const char *comp, size_t n)
{
	size_t o = strlen(out);

	if (n == 1 && comp[0] == '.')
		return 0;
	if (n == 2 && comp[0] == '.' && comp[1] == '.') {
		char *s = strrchr(out, '/');

		if (s)
			*s = '\0'; /* at the root it stays at the root */
		return 0;
	}
	if (o + n + 2 > cap)
		return -ENAMETOOLONG;
	out[o] = '/';
	memcpy(out + o + 1, comp, n);
	out[o + 1 + n] = '\0';
	return 0;
}

int gd_fs_links_resolve(const struct gd_fs_links *l, const char *path,
			int follow_last, char *out, size_t cap)
{
	char rest[8192], tmp[8192];
	int hops = 0;

	if (cap < 2 || gd_strlcpy(rest, path, sizeof rest) >= sizeof rest)
		return -ENAMETOOLONG;
	out[0] = '\0';
	for (char *p = rest; *p;) {
		size_t n;
		const char *t;
		int rc;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (!n)
			break;
		if ((rc = push(out, cap, p, n)) < 0)
			return rc;
		p += n;
		if (!(t = gd_fs_links_get(l, out)) ||
		    (!follow_last && !p[strspn(p, "/")]))
			continue;
		if (++hops > MAX_HOPS)
			return -ELOOP;
		/* the link's own name goes; its target takes its place */
		*strrchr(out, '/') = '\0';
		if (t[0] == '/')
			out[0] = '\0';
		if ((size_t)snprintf(tmp, sizeof tmp, "%s/%s", t, p) >=
		    sizeof tmp)
			return -ENAMETOOLONG;
		gd_strlcpy(rest, tmp, sizeof rest);
		p = rest;
	}
	if (!out[0])
		gd_strlcpy(out, "/", cap);
	return 0;
}
