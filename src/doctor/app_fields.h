/* What an app needs to use a GPU, as fields of the verdict (never parsed
 * back from its English): the backend's device string and number type for
 * each framework, and the workaround as data (environment variables, DLL
 * directories, PATH entries) that an app or `gpudoctor env` applies.
 * check --json (per GPU verdict), check --brief --json and the C API
 * carry them under the names of docs/json.md ("frameworks",
 * "workaround"). */
#ifndef GD_APP_FIELDS_H
#define GD_APP_FIELDS_H

#include <stddef.h>

/* Per framework: torch, CTranslate2, llama.cpp. A NULL string is JSON
 * null. */
struct gd_fw_devices {
	char torch_device[16];	 /* "cuda:0", "cpu" */
	const char *torch_dtype; /* "float16", "float32" */
	const char *ct2_device;	 /* "cuda", "cpu" */
	int ct2_index;
	const char *ct2_compute;   /* "float16", "int8_float16", "int8" */
	const char *llama_backend; /* "ROCm", "CUDA", "Vulkan", "CPU" */
	char llama_device[16];	   /* "ROCm0", "" (null) for the CPU */
};

/* backend: "ROCm", "CUDA", "Vulkan", "CPU"; ordinal: the GPU's number among
 * the GPUs of that backend (the framework's device index); target: its
 * code target ("sm_75", "gfx1010", "" unknown) for the number type. */
void gd_fw_devices_for(const char *backend, int ordinal, const char *target,
		       struct gd_fw_devices *f);

#define GD_WA_MAX 4
struct gd_wa_env {
	char name[64];
	char value[320];
};
struct gd_workaround {
	int any; /* 0: JSON null */
	struct gd_wa_env env[GD_WA_MAX];
	int n_env;
	char dll_dirs[GD_WA_MAX][320]; /* os.add_dll_directory() each */
	int n_dll;
	char path_prepend[GD_WA_MAX][320];
	int n_path;
	char note[400];
};

void gd_wa_add_env(struct gd_workaround *w, const char *name,
		   const char *value);
void gd_wa_add_dll_dir(struct gd_workaround *w, const char *dir);
void gd_wa_add_path(struct gd_workaround *w, const char *dir);

#endif
