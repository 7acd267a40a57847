/* Placeholder: the kb/ work replaces this file. */
#include <stdlib.h>

#include "kb.h"

gd_kb *gd_kb_parse(const char *buf, size_t len, const char *name, char *err,
		   size_t errlen)
{
	(void)buf;
	(void)len;
	(void)name;
	if (errlen)
		err[0] = '\0';
	return NULL;
}
gd_kb *gd_kb_load_file(const char *path, char *err, size_t errlen)
{
	return gd_kb_parse(NULL, 0, path, err, errlen);
}
gd_kb *gd_kb_load_embedded(void) { return NULL; }
void gd_kb_free(gd_kb *kb) { (void)kb; }
