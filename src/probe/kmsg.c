/* probe/kmsg: kernel-log lines that appear while a probe runs (amdgpu page
 * faults, "MEMORY APERTURE VIOLATION", MES timeouts, NVRM Xid), read from
 * /dev/kmsg when it is readable. A live-machine stream: never under --root
 * (a captured tree has no live kernel). Opened plainly on purpose: gd_fs
 * refuses non-regular files, and /dev/kmsg is a character device. */
#include "kmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Substrings of kernel messages that concern GPUs (the amdgpu driver,
 * NVIDIA's nvidia.ko "NVRM:" prefix, the KFD). */
static const char *const gpu_words[] = {
    "amdgpu", "NVRM",	  "Xid",	"kfd",	     "KFD",
    "MES",    "APERTURE", "page fault", "GPU reset", "ring gfx",
    "drm:",   "nouveau",  "i915",	"xe ",
};

int gd_kmsg_is_gpu_line(const char *msg)
{
	for (size_t i = 0; i < sizeof gpu_words / sizeof gpu_words[0]; i++)
		if (strstr(msg, gpu_words[i]))
			return 1;
	return 0;
}

/* A /dev/kmsg record is "prio,seq,usec,flags[,...];message\n" followed by
 * optional " KEY=value" continuation lines (the kernel's ABI document:
 * docs/probe.md, "Sources"). rec holds len bytes plus one writable byte.
 * Returns a pointer to the message text within rec (ended at the first newline,
 * which is replaced), or NULL when rec is not a record. */
const char *gd_kmsg_parse(char *rec, size_t len, unsigned long long *usec)
{
	char *semi = memchr(rec, ';', len);
	char *p = rec, *nl;
	int commas = 0;

	if (!semi)
		return NULL;
	for (char *q = rec; q < semi; q++) {
		if (*q == ',')
			commas++;
		else if (*q < '0' || *q > '9')
			if (commas < 3)
				return NULL;
	}
	if (commas < 3)
		return NULL;
	*usec = 0;
	p = memchr(rec, ',', (size_t)(semi - rec));
	p = p ? memchr(p + 1, ',', (size_t)(semi - p - 1)) : NULL;
	for (p = p ? p + 1 : semi; p < semi && *p >= '0' && *p <= '9'; p++)
		*usec = *usec * 10 + (unsigned long long)(*p - '0');
	nl = memchr(semi + 1, '\n', len - (size_t)(semi + 1 - rec));
	if (nl)
		*nl = '\0';
	else
		rec[len] = '\0';
	return semi + 1;
}

int gd_kmsg_open(gd_ctx *ctx, struct gd_kmsg *k)
{
	k->fd = -1;
	if (!ctx->fs.is_slash)
		return -ENOTSUP;
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		close(k->fd);
		k->fd = -1;
		return -ENOTSUP;
	}
	return 0;
}

size_t gd_kmsg_collect(struct gd_kmsg *k, char *out, size_t cap)
{
	char rec[8192];
	size_t used = out && cap ? strlen(out) : 0;
	size_t added = 0;

	if (k->fd < 0 || !cap)
		return 0;
	for (int guard = 0; guard < 10000; guard++) {
		unsigned long long usec;
		const char *msg;
		ssize_t n = read(k->fd, rec, sizeof rec - 1);

		if (n < 0 && errno == EPIPE) /* overwritten: skip ahead */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = gd_kmsg_parse(rec, (size_t)n, &usec);
		if (!msg || !gd_kmsg_is_gpu_line(msg))
			continue;
		if (used + strlen(msg) + 2 < cap) {
			gd_fmt(out + used, cap - used, "%s%s", used ? "\n" : "",
			       msg);
			gd_sanitize(out + used);
			used = strlen(out);
			added++;
		}
	}
	return added;
}

void gd_kmsg_close(struct gd_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}
