/* The GPU device nodes as `gpudoctor gather` saw them: .gpudoctor/devnodes
 * in a capture (docs/devnodes.md), since a tar of the machine cannot hold
 * /dev/nvidia0 or /dev/kfd themselves. Text, one node a line:
 *
 *   gpudoctor-devnodes 1
 *   user 1000 1000,4,24,44,109
 *   c 195:255 0666 0 0 root /dev/nvidiactl
 *
 * "user UID GIDS": the effective uid and the groups (effective gid first),
 * "-" when unknown. A node line: type (c char device, b block device,
 * d directory, l symbolic link, - regular file, ? other), MAJOR:MINOR
 * (0:0 when no device), the permission bits in octal, uid, gid, the
 * group's name ("-" unknown), the absolute path (the rest of the line).
 * Which nodes: /dev/nvidia..., the entries of /dev/nvidia-caps and of
 * /dev/dri, /dev/kfd,
 * /dev/dxg. A node not listed was absent on the machine; a capture
 * without the file did not record /dev at all. */
#ifndef GD_DEVNODES_H
#define GD_DEVNODES_H

#include <stddef.h>

#include "fs.h"

#define GD_DEVNODES_FILE "/.gpudoctor/devnodes"
#define GD_DEVNODES_MAGIC "gpudoctor-devnodes 1"
#define GD_DEVNODES_MAX 256

struct gd_devnode {
	char type; /* 'c', 'b', 'd', 'l', '-', '?' */
	unsigned major, minor, mode, uid, gid;
	char group[32]; /* "" when unknown */
	char path[96];
};

struct gd_devnodes {
	int has_user;
	unsigned uid;
	unsigned groups[64]; /* effective gid first */
	int n_groups;
	size_t n;
	struct gd_devnode v[GD_DEVNODES_MAX];
	int bad_lines; /* node or user lines that did not parse */
	int dropped;   /* nodes past GD_DEVNODES_MAX */
};

/* Bytes in, struct out: 0, or -1 with err when the first line is not
 * GD_DEVNODES_MAGIC. Lines of another kind are skipped (later versions
 * may add some); bad lines are counted. */
int gd_devnodes_parse(const char *buf, size_t len, struct gd_devnodes *d,
		      char *err, size_t errlen);
/* The node of that path, NULL when not listed. */
const struct gd_devnode *gd_devnodes_find(const struct gd_devnodes *d,
					  const char *path);
/* The file for the machine fs is rooted at, which must be the live root
 * "/" (a tree's nodes are not a machine's): malloc'ed text in *out.
 * 0, or -errno (-ENOSYS off Linux and on a tree). */
int gd_devnodes_collect(const gd_fs *fs, char **out, size_t *len);

#endif
