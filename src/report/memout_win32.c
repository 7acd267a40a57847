/* gd_memout where the C library has no open_memstream (MSVCRT): a
 * temporary file, read back whole when closed. */
#include <stdlib.h>

#include "view.h"

FILE *gd_memout_open(struct gd_memout *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = tmpfile();
	return m->f;
}

char *gd_memout_close(struct gd_memout *m)
{
	FILE *f = m->f;
	long n;

	m->f = NULL;
	m->buf = NULL;
	if (!f)
		return NULL;
	if (ferror(f) || fflush(f) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(m->buf = malloc((size_t)n + 1)) ||
	    fread(m->buf, 1, (size_t)n, f) != (size_t)n) {
		free(m->buf);
		m->buf = NULL;
	} else {
		m->buf[n] = '\0';
		m->len = (size_t)n;
	}
	fclose(f);
	return m->buf;
}
