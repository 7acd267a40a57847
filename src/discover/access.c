/* Can this user reach the GPU through ROCm: /dev/kfd and the GPU's render
 * node, both read-write. On the live root (/) this is faccessat(AT_EACCESS)
 * under the root fd: /dev/kfd is never opened, since opening it creates a
 * KFD process in the kernel. When access is missing, the device node's
 * group (from stat, named through /etc/group) that the user lacks is the
 * fix. Under a captured root the device nodes are usually absent: access
 * is unknown with that reason, unless the capture holds dev/kfd, in which
 * case its mode and group are judged against the capture's
 * proc/self/status (Uid/Gid/Groups lines) when present. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/devnodes.h"
#include "disc_int.h"

struct who {
	uid_t uid;
	gid_t groups[256];
	int n;
	int known;
};

static void group_name(gd_ctx *ctx, const struct gd_devnodes *dn, gid_t gid,
		       char *out, size_t cap)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len;

	gd_fmt(out, cap, "gid %u", (unsigned)gid);
	for (size_t i = 0; dn && i < dn->n; i++)
		if (dn->v[i].gid == gid && dn->v[i].group[0]) {
			gd_strlcpy(out, dn->v[i].group, cap);
			return;
		}
	if (gd_fs_read_alloc(&ctx->fs, "/etc/group", 1 << 20, &buf, &len) < 0) {
		free(buf); /* -EFBIG leaves the first MiB */
		return;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2, *c3;
		uint32_t g;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')) ||
		    !(c3 = strchr(c2 + 1, ':')))
			continue;
		*c1 = *c3 = '\0';
		if (gd_parse_u32(c2 + 1, 10, &g) == 0 && g == gid) {
			gd_strlcpy(out, line, cap);
			break;
		}
	}
	free(buf);
}

static void who_live(struct who *w)
{
	int n = getgroups(255, w->groups);

	w->uid = geteuid();
	w->n = n < 0 ? 0 : n;
	w->groups[w->n++] = getegid();
	w->known = 1;
}

/* proc/self/status of a capture: "Uid:\t1000\t1000...", "Groups:\t4 24". */
static void who_capture(gd_ctx *ctx, struct who *w)
{
	char buf[4096], *p;
	uint32_t v;

	memset(w, 0, sizeof *w);
	if (gd_fs_read(&ctx->fs, "/proc/self/status", buf, sizeof buf, NULL) <
	    0)
		return;
	if ((p = strstr(buf, "\nUid:")) && sscanf(p + 5, "%u", &v) == 1) {
		w->uid = v;
		w->known = 1;
	}
	if ((p = strstr(buf, "\nGid:")) && sscanf(p + 5, "%u", &v) == 1)
		w->groups[w->n++] = v;
	if ((p = strstr(buf, "\nGroups:"))) {
		char *e = strchr(p + 8, '\n'), *tok, *save = NULL;

		if (e)
			*e = '\0';
		for (tok = strtok_r(p + 8, " \t", &save); tok && w->n < 256;
		     tok = strtok_r(NULL, " \t", &save))
			if (gd_parse_u32(tok, 10, &v) == 0)
				w->groups[w->n++] = v;
	}
}

/* The capture's device list (core/devnodes.h), NULL live or when the
 * tree has none (its /dev was never recorded). Free with free(). */
static struct gd_devnodes *devnodes_load(gd_ctx *ctx)
{
	struct gd_devnodes *d;
	char *buf = NULL, err[128];
	size_t len;
	int rc;

	if (ctx->fs.is_slash)
		return NULL;
	rc = gd_fs_read_alloc(&ctx->fs, GD_DEVNODES_FILE, 1 << 20, &buf, &len);
	if (rc == -EFBIG)
		gd_diag_add(ctx, GD_DIAG_WARN, ".gpudoctor/devnodes",
			    "larger than 1 MiB: not read");
	if (rc < 0) {
		free(buf); /* -EFBIG leaves the first MiB */
		return NULL;
	}
	d = malloc(sizeof *d);
	if (d && gd_devnodes_parse(buf, len, d, err, sizeof err) < 0) {
		gd_diag_add(ctx, GD_DIAG_WARN, ".gpudoctor/devnodes", "%s",
			    err);
		free(d);
		d = NULL;
	}
	free(buf);
	return d;
}

/* A capture's user: the devnodes "user" line, else proc/self/status. */
static void who_of(gd_ctx *ctx, const struct gd_devnodes *dn, struct who *w)
{
	if (ctx->fs.is_slash) {
		who_live(w);
		return;
	}
	who_capture(ctx, w);
	if (w->known || !dn || !dn->has_user)
		return;
	w->uid = dn->uid;
	w->n = 0;
	for (int i = 0; i < dn->n_groups && w->n < 256; i++)
		w->groups[w->n++] = dn->groups[i];
	w->known = 1;
}

/* A device node: 1 present (*st filled), 0 absent on the machine, -1 not
 * recorded (a tree without a device list that lacks it). Live: stat; a
 * capture with .gpudoctor/devnodes: the list; else a node the tree holds
 * (a container's root, a hand-built tree). */
static int node_stat(gd_ctx *ctx, const struct gd_devnodes *dn,
		     const char *path, struct stat *st)
{
	const struct gd_devnode *n;

	memset(st, 0, sizeof *st);
	if (ctx->fs.is_slash)
		return gd_fs_stat(&ctx->fs, path, st) == 0;
	if (dn) {
		if (!(n = gd_devnodes_find(dn, path)))
			return 0;
		st->st_mode = (mode_t)(n->mode | (n->type == 'c'   ? S_IFCHR
						  : n->type == 'd' ? S_IFDIR
								   : S_IFREG));
		st->st_uid = n->uid;
		st->st_gid = n->gid;
		return 1;
	}
	return gd_fs_stat(&ctx->fs, path, st) == 0 ? 1 : -1;
}

static int in_groups(const struct who *w, gid_t g)
{
	for (int i = 0; i < w->n; i++)
		if (w->groups[i] == g)
			return 1;
	return 0;
}

/* One device node: 1 ok, 0 denied (missing group filled), -1 unknown,
 * -2 absent on the machine (live, or the capture's device list). */
static int check_node(gd_ctx *ctx, const struct gd_devnodes *dn,
		      const char *path, const struct who *w, gd_text *f,
		      char *missing, size_t mcap)
{
	struct stat st;
	int rc = node_stat(ctx, dn, path, &st);
	int ok;

	if (rc <= 0) {
		gd_text_unknown(f, GD_UNKNOWN, "%s %s", path,
				rc == 0 ? "does not exist"
					: "is not in the capture");
		return rc == 0 ? -2 : -1;
	}
	if (ctx->fs.is_slash)
		ok = faccessat(ctx->fs.rootfd, path + 1, R_OK | W_OK,
			       AT_EACCESS) == 0;
	else if (!w->known) {
		gd_text_unknown(f, GD_UNKNOWN,
				"%s captured, but not the "
				"user's groups (no proc/self/status)",
				path);
		return -1;
	} else
		ok = w->uid == 0 ||
		     (st.st_uid == w->uid && (st.st_mode & 0600) == 0600) ||
		     (in_groups(w, st.st_gid) && (st.st_mode & 060) == 060) ||
		     (st.st_mode & 06) == 06;
	if (ok) {
		gd_text_set(f, "ok", path);
		return 1;
	}
	group_name(ctx, dn, st.st_gid, missing, mcap);
	gd_text_unknown(f, GD_FAILED,
			"%s: no read-write access (mode %03o, "
			"group %s%s)",
			path, (unsigned)(st.st_mode & 0777), missing,
			in_groups(w, st.st_gid) ? "" : ", not yours");
	if (in_groups(w, st.st_gid))
		missing[0] = '\0';
	return 0;
}

static int in_container(gd_ctx *ctx)
{
	char buf[4096];

	if (gd_fs_exists(&ctx->fs, "/.dockerenv") ||
	    gd_fs_exists(&ctx->fs, "/run/.containerenv"))
		return 1;
	if (gd_fs_read(&ctx->fs, "/proc/1/cgroup", buf, sizeof buf, NULL) < 0)
		return 0;
	return strstr(buf, "docker") || strstr(buf, "kubepods") ||
	       strstr(buf, "containerd") || strstr(buf, "libpod") ||
	       strstr(buf, "/lxc");
}

/* One NVIDIA node for this user: 1 read-write, 0 absent, 2 present without
 * read-write (why and the group to join filled), -1 not recorded. */
static int nv_node(gd_ctx *ctx, const struct gd_devnodes *dn,
		   const struct who *w, const char *path, char *why,
		   size_t wcap, char *group, size_t gcap)
{
	struct stat st;
	int rc = node_stat(ctx, dn, path, &st), ok;

	if (rc <= 0)
		return rc;
	if (ctx->fs.is_slash)
		ok = faccessat(ctx->fs.rootfd, path + 1, R_OK | W_OK,
			       AT_EACCESS) == 0;
	else if (!w->known)
		return 1; /* present; whose it is cannot be judged */
	else
		ok = w->uid == 0 ||
		     (st.st_uid == w->uid && (st.st_mode & 0600) == 0600) ||
		     (in_groups(w, st.st_gid) && (st.st_mode & 060) == 060) ||
		     (st.st_mode & 06) == 06;
	if (ok)
		return 1;
	group_name(ctx, dn, st.st_gid, group, gcap);
	gd_fmt(why, wcap, "%s: no read-write access (mode %03o, group %s%s)",
	       path, (unsigned)(st.st_mode & 0777), group,
	       in_groups(w, st.st_gid) ? "" : ", not yours");
	if (in_groups(w, st.st_gid) || !(st.st_mode & 060))
		group[0] = '\0'; /* joining the group would not help */
	return 2;
}

/* The GPU's own nodes: /dev/nvidia<minor> (minor from its procfs
 * information, "Device Minor") and /dev/nvidia-uvm, which CUDA opens for
 * every GPU (docs/virtual.md). */
static void nv_gpu_nodes(gd_ctx *ctx, const struct gd_devnodes *dn,
			 struct gd_access *a)
{
	struct who w;
	char p[48];

	a->nv_dev = a->nv_uvm = -1;
	if (a->nv_minor < 0 || a->nv_nodes == 0)
		return;
	who_of(ctx, dn, &w);
	gd_fmt(p, sizeof p, "/dev/nvidia%d", a->nv_minor);
	a->nv_dev = nv_node(ctx, dn, &w, p, a->nv_why, sizeof a->nv_why,
			    a->nv_group, sizeof a->nv_group);
	if (a->nv_dev != 1)
		return;
	a->nv_uvm = nv_node(ctx, dn, &w, "/dev/nvidia-uvm", a->nv_why,
			    sizeof a->nv_why, a->nv_group, sizeof a->nv_group);
}

/* The NVIDIA Container Toolkit puts a tmpfs over /proc/driver/nvidia and
 * binds in gpus/<bdf> of the GPUs it passes only (libnvidia-container;
 * docs/discover.md, "NVIDIA"): a GPU sysfs shows but
 * without its entry, while others have theirs, was not passed in. */
static int toolkit_hid(gd_ctx *ctx, const char *bdf)
{
	gd_strvec v;
	int others = 0;

	if (gd_fs_list(&ctx->fs, "/proc/driver/nvidia/gpus", &v) < 0)
		return 0;
	for (size_t i = 0; i < v.n; i++)
		if (strcasecmp(v.v[i], bdf))
			others = 1;
		else
			others = -1000; /* its own entry is there */
	gd_strvec_free(&v);
	return others > 0;
}

/* An NVIDIA GPU in a container: the NVIDIA Container Toolkit (or a CDI
 * spec) passes in /dev/nvidiactl and /dev/nvidia<N> and mounts the
 * driver's libcuda.so.1 into the image's library folder; without them
 * the host's sysfs still shows the GPU bound to nvidia (docs/virtual.md).
 * The nodes are judged live, from a capture's device list, or in a tree
 * that holds them; a capture without the list is not judged (never "the
 * container was started without the GPU" of a /dev never recorded). Each
 * GPU's own node and /dev/nvidia-uvm are judged in and out of containers
 * (nv_dev, nv_uvm). */
void gd_access_nvidia(gd_ctx *ctx, struct gd_gpu *g)
{
	struct gd_access *a = &g->access;
	static const char *const libcuda[] = {
	    "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
	    "/usr/lib/aarch64-linux-gnu/libcuda.so.1",
	    "/usr/lib64/libcuda.so.1",
	    "/usr/lib/libcuda.so.1",
	    "/usr/local/nvidia/lib64/libcuda.so.1",
	    "/usr/local/nvidia/lib/libcuda.so.1"};
	const char *caps = gd_ctx_getenv(ctx, "NVIDIA_DRIVER_CAPABILITIES");
	struct gd_devnodes *dn = devnodes_load(ctx);
	struct stat st;
	int ctl;

	a->in_container = in_container(ctx);
	a->nv_nodes = a->nv_libcuda = -1;
	ctl = node_stat(ctx, dn, "/dev/nvidiactl", &st);
	if (a->in_container && ctl >= 0) {
		a->nv_nodes = ctl;
		a->nv_libcuda = 0;
		for (size_t i = 0; i < sizeof libcuda / sizeof *libcuda; i++)
			if (gd_fs_exists(&ctx->fs, libcuda[i]))
				a->nv_libcuda = 1;
		gd_strlcpy(a->nv_caps, caps ? caps : "", sizeof a->nv_caps);
	}
	nv_gpu_nodes(ctx, dn, a);
	/* on a host, CUDA runs the setuid nvidia-modprobe to create a
	 * missing /dev/nvidiaN or /dev/nvidia-uvm on first use: a missing
	 * node is then not a finding (a container cannot create nodes) */
	a->nv_modprobe =
	    gd_fs_exists(&ctx->fs, "/usr/bin/nvidia-modprobe") ||
	    gd_fs_exists(&ctx->fs, "/usr/local/bin/nvidia-modprobe");
	if (a->in_container && ctl == 1 && a->nv_minor < 0 &&
	    toolkit_hid(ctx, g->pci.bdf))
		a->nv_dev = 0, a->nv_hidden = 1;
	free(dn);
}

void gd_access_check(gd_ctx *ctx, struct gd_gpu *g)
{
	struct gd_access *a = &g->access;
	char render[64], miss_k[32] = "", miss_r[32] = "";
	struct gd_devnodes *dn = devnodes_load(ctx);
	struct who w;
	int k, r;

	memset(a, 0, sizeof *a);
	who_of(ctx, dn, &w);
	a->in_container = in_container(ctx);
	a->nv_nodes = a->nv_libcuda = -1;
	k = check_node(ctx, dn, "/dev/kfd", &w, &a->kfd, miss_k, sizeof miss_k);
	if (gd_known(&g->render_minor)) {
		gd_fmt(render, sizeof render, "/dev/dri/renderD%llu",
		       (unsigned long long)g->render_minor.v);
		r = check_node(ctx, dn, render, &w, &a->render, miss_r,
			       sizeof miss_r);
	} else {
		gd_strlcpy(render, "/dev/dri/renderD128", sizeof render);
		gd_text_unknown(&a->render, GD_UNKNOWN,
				"render node unknown: %s", g->render_minor.why);
		r = -1;
	}
	a->kfd_ok = k == 1;
	a->render_ok = r == 1;
	gd_strlcpy(a->missing_group, miss_k[0] ? miss_k : miss_r,
		   sizeof a->missing_group);
	if (a->missing_group[0] && !a->in_container)
		gd_fmt(a->fix, sizeof a->fix,
		       "sudo usermod -aG %s $USER, then log out and back in",
		       a->missing_group);
	if (a->in_container) {
		gd_fmt(a->container_flags, sizeof a->container_flags,
		       "--device=/dev/kfd --device=%s --group-add video "
		       "--group-add render",
		       render);
		if (k == -2 || k == 0 || r == 0)
			gd_fmt(a->fix, sizeof a->fix,
			       "start the container with %s",
			       a->container_flags);
	}
	free(dn);
}
