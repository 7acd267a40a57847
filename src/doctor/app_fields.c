#include "app_fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The backends an app reaches through each framework: torch and
 * CTranslate2 see ROCm GPUs as "cuda" devices (HIP builds keep the CUDA
 * names); neither runs on Vulkan, llama.cpp runs on all four and names
 * its devices ROCm0, CUDA0, Vulkan0. */
struct backend_row {
	const char *backend;
	int torch_gpu;	   /* torch/CTranslate2 use "cuda" on it */
	const char *llama; /* llama.cpp's device prefix, NULL: CPU */
};
static const struct backend_row rows[] = {
    {"ROCm", 1, "ROCm"},
    {"CUDA", 1, "CUDA"},
    {"Vulkan", 0, "Vulkan"},
};

/* NVIDIA "sm_XY" below 7.0 has no fast float16 (Pascal and older): int8
 * for CTranslate2 there, float32 for torch. */
static int slow_half(const char *target)
{
	return target && !strncmp(target, "sm_", 3) && atoi(target + 3) < 70;
}

void gd_fw_devices_for(const char *backend, int ordinal, const char *target,
		       struct gd_fw_devices *f)
{
	const struct backend_row *r = NULL;

	memset(f, 0, sizeof *f);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (backend && !strcmp(backend, rows[i].backend))
			r = &rows[i];
	gd_strlcpy(f->torch_device, "cpu", sizeof f->torch_device);
	f->torch_dtype = "float32";
	f->ct2_device = "cpu";
	f->ct2_compute = "int8";
	f->llama_backend = r ? r->backend : "CPU";
	if (!r)
		return;
	gd_fmt(f->llama_device, sizeof f->llama_device, "%s%d", r->llama,
	       ordinal);
	if (!r->torch_gpu)
		return;
	gd_fmt(f->torch_device, sizeof f->torch_device, "cuda:%d", ordinal);
	f->torch_dtype = slow_half(target) ? "float32" : "float16";
	f->ct2_device = "cuda";
	f->ct2_index = ordinal;
	f->ct2_compute = slow_half(target) ? "int8" : "float16";
}

void gd_wa_add_env(struct gd_workaround *w, const char *name, const char *value)
{
	if (w->n_env >= GD_WA_MAX)
		return;
	gd_strlcpy(w->env[w->n_env].name, name, sizeof w->env[0].name);
	gd_strlcpy(w->env[w->n_env].value, value, sizeof w->env[0].value);
	w->n_env++;
	w->any = 1;
}

void gd_wa_add_dll_dir(struct gd_workaround *w, const char *dir)
{
	if (w->n_dll >= GD_WA_MAX)
		return;
	gd_strlcpy(w->dll_dirs[w->n_dll++], dir, sizeof w->dll_dirs[0]);
	w->any = 1;
}

void gd_wa_add_path(struct gd_workaround *w, const char *dir)
{
	if (w->n_path >= GD_WA_MAX)
		return;
	gd_strlcpy(w->path_prepend[w->n_path++], dir,
		   sizeof w->path_prepend[0]);
	w->any = 1;
}
