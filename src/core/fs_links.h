/* The symlinks of a capture as text (.gpudoctor/links.tsv, written by
 * `gather`: "name<TAB>target" per line, names relative to the root), for
 * a file system layer that cannot read them from the unpacked tree: on
 * Windows, tar.exe may not create them and Wine does not report their
 * targets. A pure parser and resolver; fs_win32.c uses it. */
#ifndef GD_FS_LINKS_H
#define GD_FS_LINKS_H

#include <stddef.h>

struct gd_fs_links;

/* 0, or -ENOMEM. Malformed lines are skipped. */
int gd_fs_links_parse(const char *buf, size_t len, struct gd_fs_links **out);
void gd_fs_links_free(struct gd_fs_links *l);
/* The target of the link at path ("/sys/x" or "sys/x"), as stored; NULL
 * when path is not a link. */
const char *gd_fs_links_get(const struct gd_fs_links *l, const char *path);
/* fn(arg, name) for each link directly in dir ("/usr/lib", its links
 * already resolved): names a listing of the unpacked tree may lack (Wine
 * does not list a link whose target is outside it). */
void gd_fs_links_each_in(const struct gd_fs_links *l, const char *dir,
			 void (*fn)(void *arg, const char *name), void *arg);
/* path with every link on the way replaced by its target, as Linux's
 * RESOLVE_IN_ROOT would: absolute targets restart at the root, ".." stops
 * there; the last component is followed only when follow_last. out is an
 * absolute path under the root. 0, -ELOOP, -ENAMETOOLONG. */
int gd_fs_links_resolve(const struct gd_fs_links *l, const char *path,
			int follow_last, char *out, size_t cap);

#endif
