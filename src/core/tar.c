#include "tar.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "util.h"

struct gd_tar {
	gzFile gz;
	int failed;
	long mtime;
};

gd_tar *gd_tar_open(const char *path, char *err, size_t errlen)
{
	gd_tar *t = calloc(1, sizeof *t);

	if (!t) {
		gd_fmt(err, errlen, "out of memory");
		return NULL;
	}
	t->gz = gzopen(path, "wb9");
	if (!t->gz) {
		gd_fmt(err, errlen, "cannot create %s: %s", path,
		       errno ? strerror(errno) : "gzopen failed");
		free(t);
		return NULL;
	}
	t->mtime = (long)time(NULL);
	return t;
}

static void put(gd_tar *t, const void *p, size_t n)
{
	if (!t->failed && n && gzwrite(t->gz, p, (unsigned)n) != (int)n)
		t->failed = 1;
}

static void octal(char *field, size_t width, unsigned long long v)
{
	char tmp[32];

	gd_fmt(tmp, sizeof tmp, "%0*llo", (int)width - 1, v);
	memcpy(field, tmp, width - 1);
	field[width - 1] = '\0';
}

static void header(gd_tar *t, const char *name, char type, mode_t mode,
		   size_t size, const char *link)
{
	unsigned char h[512];
	size_t len = strlen(name);
	unsigned sum = 0;

	if (len > 100) {
		/* ustar prefix: split at a '/' so name <= 100, prefix <= 155 */
		const char *cut = NULL;

		for (const char *p = name; *p; p++)
			if (*p == '/' && (size_t)(p - name) <= 155 &&
			    len - (size_t)(p - name) - 1 <= 100)
				cut = p;
		if (!cut) {
			header(t, "././@LongLink", 'L', 0644, len + 1, NULL);
			put(t, name, len + 1);
			if ((len + 1) % 512) {
				static const char zero[512];

				put(t, zero, 512 - (len + 1) % 512);
			}
			len = 100;
		}
		memset(h, 0, sizeof h);
		if (cut) {
			memcpy(h + 345, name, (size_t)(cut - name));
			memcpy(h, cut + 1, strlen(cut + 1));
		} else {
			memcpy(h, name, 100);
		}
	} else {
		memset(h, 0, sizeof h);
		memcpy(h, name, len);
	}
	octal((char *)h + 100, 8, (unsigned long long)(mode & 07777));
	octal((char *)h + 108, 8, 0);
	octal((char *)h + 116, 8, 0);
	octal((char *)h + 124, 12, (unsigned long long)size);
	octal((char *)h + 136, 12, (unsigned long long)t->mtime);
	h[156] = (unsigned char)type;
	if (link)
		memcpy(h + 157, link, strnlen(link, 100));
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < 512; i++)
		sum += h[i];
	gd_fmt((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
	put(t, h, sizeof h);
}

int gd_tar_add_dir(gd_tar *t, const char *name, mode_t mode)
{
	char n[4096];

	gd_fmt(n, sizeof n, "%s/", name);
	header(t, n, '5', mode, 0, NULL);
	return t->failed ? -1 : 0;
}

int gd_tar_add_file(gd_tar *t, const char *name, mode_t mode,
		    const void *data, size_t len)
{
	static const char zero[512];

	header(t, name, '0', mode, len, NULL);
	put(t, data, len);
	if (len % 512)
		put(t, zero, 512 - len % 512);
	return t->failed ? -1 : 0;
}

int gd_tar_add_symlink(gd_tar *t, const char *name, const char *target)
{
	if (strlen(target) > 100)
		return -1; /* ustar cannot hold it; the caller stores a copy */
	header(t, name, '2', 0777, 0, target);
	return t->failed ? -1 : 0;
}

int gd_tar_close(gd_tar *t)
{
	static const char zero[1024];
	int rc;

	put(t, zero, sizeof zero);
	rc = t->failed ? -1 : 0;
	if (gzclose(t->gz) != Z_OK)
		rc = -1;
	free(t);
	return rc;
}
