/* CUDA facts from bytes: the kernel module's version line, a toolkit's
 * version.json, header #defines, and the driver-vs-CUDA rule. */
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/nvrm.h"
#include "inv_int.h"

int gd_cuda_parse_nvrm(const char *buf, char *ver, size_t cap)
{
	return gd_nvrm_version_parse(buf, ver, cap);
}

static void json_version(json_t *root, const char *key, char *out, size_t cap)
{
	json_t *o = json_object_get(root, key);
	const char *v = json_string_value(json_object_get(o, "version"));

	if (v && strlen(v) < cap) {
		gd_strlcpy(out, v, cap);
		gd_sanitize(out);
	}
}

/* version.json (CUDA 11.1+): {"cuda": {"name": "CUDA SDK", "version":
 * "12.4.1"}, "cuda_cudart": {...}, "libcublas": {...}, ...}. */
int gd_cuda_parse_version_json(const char *buf, size_t len,
			       struct gd_cuda_version_json *out)
{
	json_error_t err;
	json_t *root;

	memset(out, 0, sizeof *out);
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	if (!root)
		return -1;
	if (!json_is_object(root)) {
		json_decref(root);
		return -1;
	}
	json_version(root, "cuda", out->cuda, sizeof out->cuda);
	json_version(root, "cuda_cudart", out->cudart, sizeof out->cudart);
	json_version(root, "libcublas", out->cublas, sizeof out->cublas);
	json_version(root, "cuda_nvrtc", out->nvrtc, sizeof out->nvrtc);
	json_version(root, "nvidia_driver", out->driver, sizeof out->driver);
	json_decref(root);
	return out->cuda[0] ? 0 : -1;
}

int gd_parse_c_define(const char *buf, const char *name, unsigned long *v)
{
	size_t k = strlen(name);

	for (const char *p = buf; p && (p = strstr(p, "#define")); p++) {
		const char *q = p + 7;
		char *end;

		if (!isspace((unsigned char)*q))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, name, k) || (q[k] != ' ' && q[k] != '\t'))
			continue;
		q += k;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!isdigit((unsigned char)*q))
			continue;
		*v = strtoul(q, &end, 10);
		return 0;
	}
	return -1;
}

/* Rows of nvidia.cuda_driver_min are either one release ("12.4") or a
 * whole major ("12.x": the minor-version-compatibility minimum). */
static int is_major_row(const char *c)
{
	return gd_endswith(c, ".x");
}

/* The table's entry for release "X.Y" exactly, or NULL. */
static const char *kb_min(const struct gd_cuda_min_table *t, const char *cuda)
{
	for (size_t i = 0; i < t->n; i++) {
		const char *c = t->rows[i].cuda;

		if (c && !is_major_row(c) && !gd_version_cmp(c, cuda))
			return t->rows[i].linux_min;
	}
	return NULL;
}

/* The minimum for every release of a major: its "X.x" row, else the
 * lowest-listed "X.y" row (normally X.0). */
static const char *kb_min_major(const struct gd_cuda_min_table *t,
				unsigned long major, char *rel, size_t cap)
{
	const char *best = NULL, *bestc = NULL;

	for (size_t i = 0; i < t->n; i++) {
		const char *c = t->rows[i].cuda;
		const char *l = t->rows[i].linux_min;

		if (!c || !l || strtoul(c, NULL, 10) != major)
			continue;
		if (is_major_row(c)) {
			gd_strlcpy(rel, c, cap);
			return l;
		}
		if (!bestc || gd_version_cmp(c, bestc) < 0) {
			bestc = c;
			best = l;
		}
	}
	if (bestc)
		gd_strlcpy(rel, bestc, cap);
	return best;
}

/* NVIDIA CUDA Compatibility guide, "Minor Version Compatibility"
 * (https://docs.nvidia.com/deploy/cuda-compatibility/): since CUDA 11, an
 * application built with any toolkit X.y runs on a driver >= the minimum
 * driver of X.0 (e.g. >= 525.60.13 for every 12.y on Linux), except that
 * features needing a newer driver fail and PTX newer than the driver cannot
 * be JIT-compiled. Before CUDA 11 the exact release's minimum applies
 * (CUDA Toolkit release notes, table "CUDA Toolkit and Corresponding
 * Driver Versions"). */
void gd_cuda_driver_check(const struct gd_cuda_min_table *kb, const char *driver,
			  const char *cuda, struct gd_cuda_check *out)
{
	unsigned long major = strtoul(cuda ? cuda : "0", NULL, 10);
	const char *full = kb && cuda ? kb_min(kb, cuda) : NULL;
	const char *min = NULL;
	char rel[16] = "";

	out->driver_ok = -1;
	gd_strlcpy(out->cuda, cuda ? cuda : "", sizeof out->cuda);
	gd_strlcpy(out->full_driver, full ? full : "", sizeof out->full_driver);
	if (kb && major >= 11)
		min = kb_min_major(kb, major, rel, sizeof rel);
	else if (full) {
		min = full;
		gd_strlcpy(rel, cuda, sizeof rel);
	}
	gd_strlcpy(out->min_driver, min ? min : "", sizeof out->min_driver);
	if (!cuda || !major) {
		gd_strlcpy(out->why, "CUDA version it was built for is unknown", sizeof out->why);
	} else if (!min) {
		gd_fmt(out->why, sizeof out->why,
		       "no minimum driver for CUDA %s in the knowledge base", cuda);
	} else if (!driver || !*driver) {
		gd_fmt(out->why, sizeof out->why,
		       "needs driver >= %s; the NVIDIA driver version is unknown", min);
	} else if (gd_version_cmp(driver, min) < 0) {
		out->driver_ok = 0;
		if (major >= 11)
			gd_fmt(out->why, sizeof out->why, "driver %s is older than "
			       "%s, the minimum for any CUDA %lu.x", driver, min, major);
		else
			gd_fmt(out->why, sizeof out->why, "driver %s is older than "
			       "%s, the minimum for CUDA %s", driver, min, cuda);
	} else if (full && gd_version_cmp(driver, full) < 0) {
		out->driver_ok = 1;
		gd_fmt(out->why, sizeof out->why,
		       "runs through minor-version compatibility (driver %s >= %s); "
		       "PTX JIT and newer features need >= %s", driver, min, full);
	} else {
		out->driver_ok = 1;
		gd_fmt(out->why, sizeof out->why, "driver %s >= %s", driver,
		       full ? full : min);
	}
}

int gd_cuda_driver_api(const struct gd_cuda_min_table *kb, const char *driver,
		       char *out, size_t cap)
{
	const char *best = NULL;

	if (cap)
		out[0] = '\0';
	if (!kb || !driver || !*driver)
		return -1;
	for (size_t i = 0; i < kb->n; i++) {
		const char *c = kb->rows[i].cuda;
		const char *l = kb->rows[i].linux_min;

		if (!c || !l || gd_version_cmp(driver, l) < 0)
			continue;
		if (!best || gd_version_cmp(c, best) > 0)
			best = c;
	}
	if (!best)
		return -1;
	gd_strlcpy(out, best, cap);
	return 0;
}
