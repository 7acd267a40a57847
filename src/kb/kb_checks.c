/* kb/: the names of the machine checks a signature may ask for
 * (signatures[].check, docs/kb.md). The one list: kb_validate.c accepts
 * exactly these, and doctor/explain_check.c has one function per entry
 * (indexed by enum gd_kb_check). The same for the line decoders
 * (signatures[].decode; doctor/explain.c calls them). Compiled into
 * tools/kbgen.c as well. */
#include <string.h>

#include "kb.h"

static const char *const names[GD_KB_N_CHECKS] = {
    [GD_KB_CHECK_NONE] = "none",
    [GD_KB_CHECK_ROCBLAS_COVERAGE] = "rocblas-coverage",
    [GD_KB_CHECK_GFX_SUPPORTED] = "gfx-supported",
    [GD_KB_CHECK_KFD_ACCESS] = "kfd-access",
    [GD_KB_CHECK_CUDA_DRIVER] = "cuda-driver",
    [GD_KB_CHECK_HIP_MAJOR_MISMATCH] = "hip-major-mismatch",
    [GD_KB_CHECK_OVERRIDE_VALID] = "override-valid",
    [GD_KB_CHECK_OVERRIDE_SPOOF] = "override-spoof",
    [GD_KB_CHECK_KFD_NODE] = "kfd-node",
    [GD_KB_CHECK_GPU_FAULT] = "gpu-fault",
    [GD_KB_CHECK_CODE_FOR_GPU] = "code-for-gpu",
    [GD_KB_CHECK_APU] = "apu",
    [GD_KB_CHECK_GPU_MEMORY] = "gpu-memory",
    [GD_KB_CHECK_VISIBLE_DEVICES] = "visible-devices",
    [GD_KB_CHECK_ROCM_CAUSE] = "rocm-cause",
};

const char *gd_kb_check_name(enum gd_kb_check c)
{
	return (unsigned)c < GD_KB_N_CHECKS && names[c] ? names[c] : "none";
}

/* The index of name in list (n entries), or -1. */
static int index_of(const char *const *list, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (list[i] && !strcmp(list[i], name))
			return i;
	return -1;
}

int gd_kb_check_from_name(const char *name)
{
	return index_of(names, GD_KB_N_CHECKS, name);
}

static const char *const decoders[GD_KB_N_DECODES] = {
    [GD_KB_DECODE_NONE] = "none",
    [GD_KB_DECODE_OOM] = "oom",
    [GD_KB_DECODE_XID] = "xid",
};

int gd_kb_decode_from_name(const char *name)
{
	return index_of(decoders, GD_KB_N_DECODES, name);
}
