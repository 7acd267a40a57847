/* libFuzzer: the tar writer of `gather` (src/core/tar.c) on the names,
 * link targets and contents a captured tree can hold, read back by the
 * small ustar/GNU reader below: every entry the writer accepted must come
 * back with the same type, name, link target and bytes, with valid header
 * checksums. Input: records of [type byte][name]\0[target or data]\0; type
 * % 3 is dir, file, symlink. Names are kept as gather writes them
 * (relative, no empty component). Seeds: corpus/fuzz_tar/README.md. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/tar.h"
#include "core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ENT 16
#define MAX_TAR (4u << 20)

struct ent {
	char type; /* '5' dir, '0' file, '2' symlink */
	char name[1100];
	const char *link;
	const uint8_t *data;
	size_t len;
};

static const char *tar_path(void)
{
	static char shm[] = "/dev/shm/gd-fuzz-tar-XXXXXX";
	static char tmp[] = "/tmp/gd-fuzz-tar-XXXXXX", path[64];
	const char *dir;

	if (!path[0]) { /* in memory where there is a tmpfs for it */
		dir = mkdtemp(shm) ? shm : mkdtemp(tmp);
		if (!dir)
			abort();
		gd_fmt(path, sizeof path, "%s/t.tar.gz", dir);
	}
	return path;
}

static int name_ok(const char *s, size_t n)
{
	if (!n || n > 1000 || s[0] == '/' || s[n - 1] == '/')
		return 0;
	for (size_t i = 1; i < n; i++)
		if (s[i] == '/' && s[i - 1] == '/')
			return 0;
	return 1;
}

static unsigned long long oct(const unsigned char *p, size_t w)
{
	unsigned long long v = 0;

	for (size_t i = 0; i < w && p[i] >= '0' && p[i] <= '7'; i++)
		v = v * 8 + (unsigned)(p[i] - '0');
	return v;
}

/* The path and linkpath records of a pax extended header (POSIX.1-2001
 * pax format: "<decimal length> <key>=<value>\n", the length counting the
 * whole record). A malformed record is the writer's bug: trap. */
static void pax_records(const char *p, size_t n, char *path, char *link)
{
	size_t off = 0;

	while (off < n) {
		size_t len = 0, i = off;
		const char *kv, *eq;

		while (i < n && p[i] >= '0' && p[i] <= '9')
			len = len * 10 + (size_t)(p[i++] - '0');
		if (i >= n || p[i] != ' ' || !len || len > n - off ||
		    p[off + len - 1] != '\n')
			__builtin_trap();
		kv = p + i + 1;
		eq = memchr(kv, '=', (size_t)(p + off + len - 1 - kv));
		if (!eq)
			__builtin_trap();
		if ((size_t)(eq - kv) == 4 && !memcmp(kv, "path", 4))
			gd_fmt(path, 4096, "%.*s",
			       (int)(p + off + len - 1 - eq - 1), eq + 1);
		else if ((size_t)(eq - kv) == 8 && !memcmp(kv, "linkpath", 8))
			gd_fmt(link, 4096, "%.*s",
			       (int)(p + off + len - 1 - eq - 1), eq + 1);
		off += len;
	}
}

/* Reads the archive back and compares it with what was written. */
static void check(const struct ent *e, size_t ne)
{
	static unsigned char buf[MAX_TAR];
	char longname[4096] = "", longlink[4096] = "", name[4096];
	gzFile gz = gzopen(tar_path(), "rb");
	size_t n, pos = 0, k = 0;
	int r;

	if (!gz)
		__builtin_trap();
	r = gzread(gz, buf, sizeof buf);
	gzclose(gz);
	if (r < 0)
		__builtin_trap();
	n = (size_t)r;
	while (pos + 512 <= n) {
		const unsigned char *h = buf + pos;
		unsigned sum = 0, zero = 1;
		unsigned long long size;

		for (size_t i = 0; i < 512; i++) {
			sum += i >= 148 && i < 156 ? ' ' : h[i];
			zero &= !h[i];
		}
		if (zero)
			break;
		if (sum != oct(h + 148, 8))
			__builtin_trap();
		size = oct(h + 124, 12);
		pos += 512;
		if (size > n - pos)
			__builtin_trap();
		if (h[156] == 'L' || h[156] == 'K') {
			char *dst = h[156] == 'L' ? longname : longlink;

			gd_fmt(dst, 4096, "%.*s", (int)size,
			       (const char *)buf + pos);
			pos += (size + 511) / 512 * 512;
			continue;
		}
		if (h[156] ==
		    'x') { /* pax: "LEN path=...\n" / "LEN linkpath=...\n" */
			pax_records((const char *)buf + pos, (size_t)size,
				    longname, longlink);
			pos += (size + 511) / 512 * 512;
			continue;
		}
		if (longname[0])
			gd_strlcpy(name, longname, sizeof name);
		else if (h[345])
			gd_fmt(name, sizeof name, "%.155s/%.100s",
			       (const char *)h + 345, (const char *)h);
		else
			gd_fmt(name, sizeof name, "%.100s", (const char *)h);
		if (k >= ne || h[156] != e[k].type || strcmp(name, e[k].name))
			__builtin_trap();
		if (e[k].type == '2') {
			char l100[101];

			gd_fmt(l100, sizeof l100, "%.100s",
			       (const char *)h + 157);
			if (strcmp(longlink[0] ? longlink : l100, e[k].link))
				__builtin_trap();
		}
		if (e[k].type == '0' &&
		    (size != e[k].len ||
		     memcmp(buf + pos, e[k].data, e[k].len)))
			__builtin_trap();
		pos += (size + 511) / 512 * 512;
		longname[0] = longlink[0] = '\0';
		k++;
	}
	if (k != ne)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ent e[MAX_ENT];
	char err[256], link[1100];
	const uint8_t *p = data, *end = data + size;
	size_t ne = 0;
	struct gd_tar_opts o = {0, 1}; /* replace the last input's archive */
	gd_tar *t = gd_tar_open(tar_path(), &o, err, sizeof err);

	if (!t)
		return 0;
	while (p < end && ne < MAX_ENT) {
		char type = "502"[*p++ % 3];
		const uint8_t *nz = memchr(p, 0, (size_t)(end - p));
		const uint8_t *a = nz ? nz + 1 : end;
		const uint8_t *az =
		    a < end ? memchr(a, 0, (size_t)(end - a)) : NULL;
		size_t nl = (size_t)((nz ? nz : end) - p);
		size_t al = (size_t)((az ? az : end) - a);
		struct ent *x = &e[ne];
		int rc;

		if (!name_ok((const char *)p, nl) || al > 1000) {
			p = az ? az + 1 : end;
			continue;
		}
		memset(x, 0, sizeof *x);
		x->type = type;
		gd_fmt(x->name, sizeof x->name, "%.*s", (int)nl,
		       (const char *)p);
		gd_fmt(link, sizeof link, "%.*s", (int)al, (const char *)a);
		if (type == '5')
			rc = gd_tar_add_dir(t, x->name, 0755);
		else if (type == '0')
			rc = gd_tar_add_file(t, x->name, 0644, a, al);
		else
			rc = gd_tar_add_symlink(t, x->name, link);
		if (type == '5') /* the writer marks directories so */
			gd_strlcpy(x->name + nl, "/", sizeof x->name - nl);
		x->data = a;
		x->len = al;
		x->link = type == '2' ? strdup(link) : NULL;
		if (rc == 0)
			ne++;
		else if (type == '2')
			free((char *)x->link);
		p = az ? az + 1 : end;
	}
	if (gd_tar_close(t, err, sizeof err) == 0)
		check(e, ne);
	for (size_t i = 0; i < ne; i++)
		if (e[i].type == '2')
			free((char *)e[i].link);
	unlink(tar_path());
	return 0;
}
