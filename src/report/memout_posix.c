/* gd_memout with POSIX open_memstream. */
#include <stdlib.h>

#include "view.h"

FILE *gd_memout_open(struct gd_memout *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f;
}

char *gd_memout_close(struct gd_memout *m)
{
	int bad = !m->f || ferror(m->f);

	if (m->f && fclose(m->f))
		bad = 1;
	m->f = NULL;
	if (bad) {
		free(m->buf);
		m->buf = NULL;
	}
	return m->buf;
}
