/* .gpudoctor/devnodes (devnodes.h, docs/devnodes.md): the parser. */
#include "devnodes.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* "1000,4,24" into d->groups; 0, or -1 on a bad number. */
static int parse_groups(char *s, struct gd_devnodes *d)
{
	char *save = NULL;

	for (char *t = strtok_r(s, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		uint32_t g;

		if (gd_parse_u32(t, 10, &g) < 0)
			return -1;
		if (d->n_groups < (int)(sizeof d->groups / sizeof *d->groups))
			d->groups[d->n_groups++] = g;
	}
	return 0;
}

/* "user UID GIDS" */
static int parse_user(char *rest, struct gd_devnodes *d)
{
	char *save = NULL, *uid = strtok_r(rest, " ", &save);
	char *gids = strtok_r(NULL, " ", &save);
	uint32_t u;

	if (!uid || !gids || strtok_r(NULL, " ", &save))
		return -1;
	if (!strcmp(uid, "-"))
		return 0;
	if (gd_parse_u32(uid, 10, &u) < 0)
		return -1;
	d->uid = u;
	d->n_groups = 0;
	if (strcmp(gids, "-") && parse_groups(gids, d) < 0)
		return -1;
	d->has_user = 1;
	return 0;
}

/* "c 195:255 0666 0 0 root /dev/nvidiactl" */
static int parse_node(char *line, struct gd_devnode *n)
{
	char *f[6], *save = NULL, *colon;
	uint32_t v[5];

	memset(n, 0, sizeof *n);
	for (int i = 0; i < 6; i++)
		if (!(f[i] = strtok_r(i ? NULL : line, " ", &save)))
			return -1;
	line = strtok_r(NULL, "", &save); /* the path: the rest */
	if (strlen(f[0]) != 1 || !strchr("cbdl-?", f[0][0]) || !line ||
	    line[0] != '/' || strlen(line) >= sizeof n->path ||
	    !(colon = strchr(f[1], ':')))
		return -1;
	*colon = '\0';
	if (gd_parse_u32(f[1], 10, &v[0]) < 0 ||
	    gd_parse_u32(colon + 1, 10, &v[1]) < 0 ||
	    gd_parse_u32(f[2], 8, &v[2]) < 0 || v[2] > 07777 ||
	    gd_parse_u32(f[3], 10, &v[3]) < 0 ||
	    gd_parse_u32(f[4], 10, &v[4]) < 0)
		return -1;
	n->type = f[0][0];
	n->major = v[0];
	n->minor = v[1];
	n->mode = v[2];
	n->uid = v[3];
	n->gid = v[4];
	if (strcmp(f[5], "-"))
		gd_strlcpy(n->group, f[5], sizeof n->group);
	gd_strlcpy(n->path, line, sizeof n->path);
	return 0;
}

static void parse_line(char *line, struct gd_devnodes *d)
{
	size_t k = strlen(line);

	while (k && (line[k - 1] == '\r' || line[k - 1] == ' '))
		line[--k] = '\0';
	if (!k || line[0] == '#')
		return;
	if (!strncmp(line, "user ", 5)) {
		if (parse_user(line + 5, d) < 0)
			d->bad_lines++;
		return;
	}
	if (k < 2 || line[1] != ' ' || !strchr("cbdl-?", line[0]))
		return; /* another kind of line: a later version's */
	if (d->n >= GD_DEVNODES_MAX) {
		d->dropped++;
		return;
	}
	if (parse_node(line, &d->v[d->n]) < 0)
		d->bad_lines++;
	else
		d->n++;
}

int gd_devnodes_parse(const char *buf, size_t len, struct gd_devnodes *d,
		      char *err, size_t errlen)
{
	char *copy, *line, *save = NULL;
	size_t m = strlen(GD_DEVNODES_MAGIC);

	memset(d, 0, sizeof *d);
	if (len < m || memcmp(buf, GD_DEVNODES_MAGIC, m) ||
	    (len > m && buf[m] != '\n' && buf[m] != '\r')) {
		gd_fmt(err, errlen, "not a devnodes file (no \"%s\" line)",
		       GD_DEVNODES_MAGIC);
		return -1;
	}
	if (!(copy = malloc(len + 1))) {
		gd_fmt(err, errlen, "out of memory");
		return -1;
	}
	memcpy(copy, buf, len);
	copy[len] = '\0';
	strtok_r(copy, "\n", &save); /* the magic line */
	while ((line = strtok_r(NULL, "\n", &save)))
		parse_line(line, d);
	free(copy);
	return 0;
}

const struct gd_devnode *gd_devnodes_find(const struct gd_devnodes *d,
					  const char *path)
{
	for (size_t i = 0; d && i < d->n; i++)
		if (!strcmp(d->v[i].path, path))
			return &d->v[i];
	return NULL;
}
