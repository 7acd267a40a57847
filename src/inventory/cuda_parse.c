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
