/* libgpudoctor-trace.so: where a hooked function's real definition is.
 * The hooks are found by interposition: the preload is first in the
 * global scope, so any object's reference to hipMalloc binds to the
 * hook, even that of a library loaded with RTLD_LOCAL (every Python
 * extension module is). dlsym(RTLD_NEXT) searches only the global
 * scope after the preload: a runtime that is the dependency of such a
 * library is not in it. Then the definition is looked up where the
 * caller itself would have found it without us: in the calling
 * object's own scope (dladdr on the return address, dlopen(RTLD_NOLOAD)
 * of that object, dlsym on its handle: the object and its dependencies,
 * never the preload), else in every loaded object in load order. Once
 * per hook and process (shim.h caches the answer); never on the hot
 * path. */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

#define MAX_OBJS 1024

/* Our own object: a definition found there is the hook itself. */
static int is_self(void *p)
{
	static void *self_base;
	Dl_info a, b;

	if (!self_base && dladdr((void *)(uintptr_t)is_self, &a))
		self_base = a.dli_fbase;
	return p && dladdr(p, &b) && b.dli_fbase == self_base;
}

/* name in the scope of the loaded object path (not loaded: NULL). */
static void *in_object(const char *path, const char *name)
{
	void *h, *p = NULL;

	if (!path || !path[0])
		return NULL;
	h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return NULL;
	p = dlsym(h, name);
	dlclose(h);
	return is_self(p) ? NULL : p;
}

struct obj_list {
	char *path[MAX_OBJS];
	size_t n;
};

/* Names only: dlopen is not called under dl_iterate_phdr's lock. */
static int collect(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct obj_list *l = arg;

	(void)size;
	if (l->n < MAX_OBJS && info->dlpi_name && info->dlpi_name[0])
		l->path[l->n] = strdup(info->dlpi_name), l->n++;
	return 0;
}

static void *in_any_object(const char *name)
{
	struct obj_list *l = calloc(1, sizeof *l);
	void *p = NULL;

	if (!l)
		return NULL;
	dl_iterate_phdr(collect, l);
	for (size_t i = 0; i < l->n; i++) {
		if (!p)
			p = in_object(l->path[i], name);
		free(l->path[i]);
	}
	free(l);
	return p;
}

void *shim_find(const char *name, void *caller_pc)
{
	void *p = dlsym(RTLD_NEXT, name);
	Dl_info di;

	if (p && !is_self(p))
		return p;
	p = NULL;
	if (caller_pc && dladdr(caller_pc, &di))
		p = in_object(di.dli_fname, name);
	if (!p)
		p = in_any_object(name);
	return p;
}
