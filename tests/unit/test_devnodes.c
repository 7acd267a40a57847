/* .gpudoctor/devnodes (core/devnodes.h, docs/devnodes.md): the parser on
 * the lines gather writes (modes and groups as ls -l shows them on real
 * machines: crw-rw-rw- root root 195,255 nvidiactl, crw-rw---- root render
 * 226,128 renderD128), a file that is no device list, bad and unknown
 * lines, and the live writer read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/devnodes.h"

static int fails;

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);    \
			fails++;                                               \
		}                                                              \
	} while (0)

static const char good[] =
    "gpudoctor-devnodes 1\n"
    "user 1000 1000,4,24,27,44,109\n"
    "c 195:255 0666 0 0 root /dev/nvidiactl\n"
    "c 195:0 0666 0 0 root /dev/nvidia0\n"
    "c 509:0 0666 0 0 root /dev/nvidia-uvm\n"
    "d 0:0 0755 0 0 root /dev/dri\n"
    "c 226:128 0660 0 109 render /dev/dri/renderD128\n"
    "c 238:0 0660 0 - - /dev/kfd\n"	   /* bad: gid "-" */
    "z a later version's line\n"	   /* skipped */
    "c 242:0 0666 0 0 - /dev/nvidia1\r\n"; /* CRLF, group unknown */

int main(void)
{
	struct gd_devnodes *d = malloc(sizeof *d);
	const struct gd_devnode *n;
	char err[128], *buf;
	size_t len;
	gd_fs fs;

	if (!d)
		return 1;
	CHECK(gd_devnodes_parse(good, strlen(good), d, err, sizeof err) == 0);
	CHECK(d->has_user && d->uid == 1000 && d->n_groups == 6 &&
	      d->groups[0] == 1000 && d->groups[5] == 109);
	CHECK(d->n == 6 && d->bad_lines == 1);
	n = gd_devnodes_find(d, "/dev/dri/renderD128");
	CHECK(n && n->type == 'c' && n->major == 226 && n->minor == 128 &&
	      n->mode == 0660 && n->gid == 109 && !strcmp(n->group, "render"));
	n = gd_devnodes_find(d, "/dev/nvidia1");
	CHECK(n && n->minor == 0 && n->group[0] == '\0');
	CHECK(!gd_devnodes_find(d, "/dev/kfd"));
	CHECK(!gd_devnodes_find(d, "/dev/nvidia2"));

	/* not a device list: one clear error */
	CHECK(gd_devnodes_parse("gpudoctor-devnodes 2\n", 21, d, err,
				sizeof err) < 0 &&
	      strstr(err, "not a devnodes file"));
	CHECK(gd_devnodes_parse("", 0, d, err, sizeof err) < 0);
	/* only the header: a machine without GPU nodes */
	CHECK(gd_devnodes_parse("gpudoctor-devnodes 1", 20, d, err,
				sizeof err) == 0 &&
	      d->n == 0 && !d->has_user);
	/* bad values: mode past 07777, no colon, relative path, long path */
	{
		const char *bad = "gpudoctor-devnodes 1\n"
				  "c 1:2 17777 0 0 r /dev/a\n"
				  "c 12 0666 0 0 r /dev/b\n"
				  "c 1:2 0666 0 0 r dev/c\n"
				  "c 1:2 0666 0 0 r\n"
				  "user x 1\n";

		CHECK(gd_devnodes_parse(bad, strlen(bad), d, err, sizeof err) ==
			  0 &&
		      d->n == 0 && d->bad_lines == 5 && !d->has_user);
	}

	/* the live writer reads back (this machine's nodes, whatever they
	 * are), and refuses a tree */
	CHECK(gd_fs_init(&fs, "/") == 0);
	CHECK(gd_devnodes_collect(&fs, &buf, &len) == 0);
	CHECK(gd_devnodes_parse(buf, len, d, err, sizeof err) == 0 &&
	      d->has_user && d->bad_lines == 0);
	free(buf);
	gd_fs_close(&fs);
	CHECK(gd_fs_init(&fs, "tests") == 0 || gd_fs_init(&fs, ".") == 0);
	CHECK(gd_devnodes_collect(&fs, &buf, &len) < 0 && !buf);
	gd_fs_close(&fs);

	free(d);
	if (!fails)
		printf("test_devnodes: ok\n");
	return fails != 0;
}
