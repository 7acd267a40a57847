/* ICD files on bytes: Vulkan driver manifests (JSON, read with jansson) and
 * OpenCL vendor .icd files, and which driver each one names. */
#include <jansson.h>
#include <string.h>

#include "inv_int.h"

/* The Vulkan loader's "Driver Manifest File Format" (docs/json-runtimes.md,
 * "Sources"): {"file_format_version": "1.0.1", "ICD": {"library_path": ...,
 * "api_version": "1.3.239", "library_arch": "64",
 * "is_portability_driver": false}}. file_format_version and
 * ICD.library_path are required; the loader skips a manifest without them. */
int gd_vk_manifest_parse(const char *buf, size_t len, struct gd_icd *icd)
{
	json_error_t err;
	json_t *root, *o;
	const char *ffv, *lib, *api;

	icd->error[0] = '\0';
	gd_text_unknown(&icd->library, GD_UNKNOWN, "not read");
	gd_text_unknown(&icd->api_version, GD_UNKNOWN, "not in the manifest");
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		gd_fmt(icd->error, sizeof icd->error,
		       "not valid JSON: %s (line %d, column %d)", err.text,
		       err.line, err.column);
		gd_sanitize(icd->error);
		gd_text_unknown(&icd->library, GD_FAILED,
				"manifest is not valid JSON");
		return -1;
	}
	ffv = json_string_value(json_object_get(root, "file_format_version"));
	o = json_object_get(root, "ICD");
	lib = json_string_value(json_object_get(o, "library_path"));
	api = json_string_value(json_object_get(o, "api_version"));
	if (ffv) {
		gd_strlcpy(icd->file_format_version, ffv,
			   sizeof icd->file_format_version);
		gd_sanitize(icd->file_format_version);
	}
	if (api && *api)
		gd_text_set(&icd->api_version, api, "ICD.api_version");
	if (lib && *lib)
		gd_text_set(&icd->library, lib, "ICD.library_path");
	if (!json_is_object(root))
		gd_strlcpy(icd->error, "manifest is not a JSON object",
			   sizeof icd->error);
	else if (!json_is_object(o))
		gd_strlcpy(icd->error, "no \"ICD\" object (a layer manifest?)",
			   sizeof icd->error);
	else if (!lib || !*lib)
		gd_strlcpy(icd->error, "no ICD.library_path",
			   sizeof icd->error);
	else if (!ffv)
		gd_strlcpy(icd->error, "no file_format_version",
			   sizeof icd->error);
	json_decref(root);
	if (!gd_known(&icd->library))
		gd_text_unknown(&icd->library, GD_FAILED, "%s", icd->error);
	return icd->error[0] ? -1 : 0;
}

/* ocl-icd and the Khronos loader (docs/json-runtimes.md) read the
 * first line of each vendors/NAME.icd file as the library to dlopen. */
int gd_ocl_icd_parse(const char *buf, size_t len, struct gd_icd *icd)
{
	char line[512];
	size_t n = 0;

	icd->error[0] = '\0';
	gd_text_unknown(&icd->api_version, GD_UNKNOWN,
			"OpenCL .icd files carry no version");
	while (n < len && buf[n] && buf[n] != '\n' && buf[n] != '\r')
		n++;
	if (n >= sizeof line) {
		gd_strlcpy(icd->error, "first line longer than 511 bytes",
			   sizeof icd->error);
		gd_text_unknown(&icd->library, GD_FAILED, "%s", icd->error);
		return -1;
	}
	memcpy(line, buf, n);
	line[n] = '\0';
	if (n < len && buf[n] == '\0') {
		gd_strlcpy(icd->error, "binary content", sizeof icd->error);
		gd_text_unknown(&icd->library, GD_FAILED, "%s", icd->error);
		return -1;
	}
	{
		char *t = gd_trim(line);

		if (!*t) {
			gd_strlcpy(icd->error, "empty first line",
				   sizeof icd->error);
			gd_text_unknown(&icd->library, GD_FAILED, "%s",
					icd->error);
			return -1;
		}
		gd_text_set(&icd->library, t, "first line");
	}
	return 0;
}

struct drv_name {
	const char *needle, *driver;
	int software;
};

/* Longer needles first where one contains another. */
static const struct drv_name vk_names[] = {
    {"libvulkan_lvp", "lvp", 1},
    {"lavapipe", "lvp", 1},
    {"llvmpipe", "lvp", 1},
    {"swiftshader", "swiftshader", 1},
    {"libvulkan_radeon", "radv", 0},
    {"amdvlk", "amdvlk", 0},
    {"libGLX_nvidia", "nvidia", 0},
    {"libEGL_nvidia", "nvidia", 0},
    {"libnvidia-", "nvidia", 0},
    {"libvulkan_intel_hasvk", "intel-hasvk", 0},
    {"libvulkan_intel", "intel", 0},
    {"libvulkan_nouveau", "nvk", 0},
    {"libvulkan_freedreno", "turnip", 0},
    {"libvulkan_panfrost", "panvk", 0},
    {"libvulkan_broadcom", "v3dv", 0},
    {"libvulkan_virtio", "venus", 0},
    {"libvulkan_dzn", "dozen", 0},
    {"libvulkan_asahi", "asahi", 0},
    {"libvulkan_powervr", "powervr", 0},
    {"libvulkan_gfxstream", "gfxstream", 0},
    {NULL, NULL, 0},
};

static const struct drv_name ocl_names[] = {
    {"libpocl", "pocl", 1},
    {"libintelocl", "intel-cpu", 1},
    {"libamdocl", "amdocl", 0},
    {"libnvidia-opencl", "nvidia", 0},
    {"libRusticlOpenCL", "rusticl", 0},
    {"libMesaOpenCL", "clover", 0},
    {"libigdrcl", "intel", 0},
    {"libclvk", "clvk", 0},
    {NULL, NULL, 0},
};

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* "libvulkan_foo.so.1" -> "foo": a readable name for drivers not listed. */
static void derive_name(const char *lib, char *out, size_t cap)
{
	const char *b = base_name(lib);
	size_t n;

	if (gd_startswith(b, "lib"))
		b += 3;
	if (gd_startswith(b, "vulkan_"))
		b += 7;
	n = strcspn(b, ".");
	gd_fmt(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), b);
	gd_sanitize(out);
}

void gd_icd_classify(struct gd_icd *icd, int vulkan)
{
	const struct drv_name *t = vulkan ? vk_names : ocl_names;
	const char *lib =
	    gd_known(&icd->library) ? base_name(icd->library.v) : "";
	const char *man = base_name(icd->manifest);

	icd->driver[0] = '\0';
	icd->software = 0;
	for (; t->needle; t++) {
		if (strstr(lib, t->needle) ||
		    (vulkan && strstr(man, t->needle))) {
			gd_strlcpy(icd->driver, t->driver, sizeof icd->driver);
			icd->software = t->software;
			break;
		}
	}
	/* Mesa names lavapipe's manifest lvp_icd.<arch>.json */
	if (vulkan && gd_startswith(man, "lvp_icd")) {
		gd_strlcpy(icd->driver, "lvp", sizeof icd->driver);
		icd->software = 1;
	}
	if (!icd->driver[0] && lib[0])
		derive_name(lib, icd->driver, sizeof icd->driver);
}
