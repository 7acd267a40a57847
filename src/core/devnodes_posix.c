/* gd_devnodes_collect (devnodes.h): the live machine's GPU device nodes,
 * lstat'ed (a node is never opened: opening /dev/kfd creates a KFD
 * process), with the user's ids, as the text docs/devnodes.md defines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devnodes.h"
#include "util.h"

struct out {
	char *buf;
	size_t len, cap;
	char *groups; /* /etc/group, NULL when unreadable */
	int oom;
};

static void put(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->oom)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = (o->len + n + 1) * 2;
		char *nb = realloc(o->buf, cap);

		if (!nb) {
			o->oom = 1;
			return;
		}
		o->buf = nb;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n + 1);
	o->len += n;
}

/* The name of gid in /etc/group ("render"), "-" when not there. */
static void group_name(const struct out *o, unsigned gid, char *name,
		       size_t cap)
{
	const char *l = o->groups;

	gd_strlcpy(name, "-", cap);
	while (l && *l) {
		const char *e = strchr(l, '\n'), *c1 = strchr(l, ':'), *c2;
		unsigned g;

		if (!e)
			e = l + strlen(l);
		if (c1 && c1 < e && (c2 = strchr(c1 + 1, ':')) && c2 < e &&
		    sscanf(c2 + 1, "%u", &g) == 1 && g == gid &&
		    (size_t)(c1 - l) < cap && c1 > l) {
			memcpy(name, l, (size_t)(c1 - l));
			name[c1 - l] = '\0';
			if (strpbrk(name, " \t"))
				gd_strlcpy(name, "-", cap);
			return;
		}
		l = *e ? e + 1 : e;
	}
}

static void node(struct out *o, const gd_fs *fs, const char *path)
{
	struct stat st;
	char line[256], grp[32];
	char t;

	if (strlen(path) >= sizeof((struct gd_devnode *)0)->path ||
	    strpbrk(path, "\n\r") || gd_fs_lstat(fs, path, &st) < 0)
		return;
	t = S_ISCHR(st.st_mode)	  ? 'c'
	    : S_ISBLK(st.st_mode) ? 'b'
	    : S_ISDIR(st.st_mode) ? 'd'
	    : S_ISLNK(st.st_mode) ? 'l'
	    : S_ISREG(st.st_mode) ? '-'
				  : '?';
	group_name(o, (unsigned)st.st_gid, grp, sizeof grp);
	gd_fmt(line, sizeof line, "%c %u:%u %04o %u %u %s %s\n", t,
	       t == 'c' || t == 'b' ? major(st.st_rdev) : 0u,
	       t == 'c' || t == 'b' ? minor(st.st_rdev) : 0u,
	       (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid,
	       (unsigned)st.st_gid, grp, path);
	put(o, line);
}

/* Entries of dir whose name starts with prefix ("" all), in order. */
static void nodes_in(struct out *o, const gd_fs *fs, const char *dir,
		     const char *prefix)
{
	gd_strvec v;
	char p[256];

	if (gd_fs_list(fs, dir, &v) < 0)
		return;
	for (size_t i = 0; i < v.n; i++)
		if (!strncmp(v.v[i], prefix, strlen(prefix))) {
			gd_fmt(p, sizeof p, "%s/%s", dir, v.v[i]);
			node(o, fs, p);
		}
	gd_strvec_free(&v);
}

static void user(struct out *o)
{
	gid_t g[64];
	int n = getgroups(63, g);
	char line[1024];
	size_t k;

	gd_fmt(line, sizeof line, "user %u %u", (unsigned)geteuid(),
	       (unsigned)getegid());
	for (int i = 0; i < n; i++) {
		k = strlen(line);
		if (g[i] != getegid() && k + 16 < sizeof line)
			gd_fmt(line + k, sizeof line - k, ",%u",
			       (unsigned)g[i]);
	}
	k = strlen(line);
	gd_fmt(line + k, sizeof line - k, "\n");
	put(o, line);
}

int gd_devnodes_collect(const gd_fs *fs, char **out, size_t *len)
{
	struct out o = {0};
	size_t glen;

	*out = NULL;
	*len = 0;
	if (!fs->is_slash)
		return -ENOSYS;
	if (gd_fs_read_alloc(fs, "/etc/group", 1 << 20, &o.groups, &glen) < 0) {
		free(o.groups); /* -EFBIG leaves the first MiB */
		o.groups = NULL;
	}
	put(&o, GD_DEVNODES_MAGIC "\n");
	user(&o);
	nodes_in(&o, fs, "/dev", "nvidia");
	nodes_in(&o, fs, "/dev/nvidia-caps", "");
	node(&o, fs, "/dev/kfd");
	nodes_in(&o, fs, "/dev/dri", "");
	node(&o, fs, "/dev/dxg");
	free(o.groups);
	if (o.oom) {
		free(o.buf);
		return -ENOMEM;
	}
	*out = o.buf;
	*len = o.len;
	return 0;
}
