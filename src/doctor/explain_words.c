/* The words and API function prefixes explain's error-code scan knows
 * (explain_codes.c). */
#include <ctype.h>
#include <string.h>

#include "explain_words.h"

const struct word gd_code_words[] = {
    {"cuda", W_PRODUCT, "cudart"},
    {"cublas", W_PRODUCT, "cublas"},
    {"cudnn", W_PRODUCT, "cudnn"},
    {"nccl", W_PRODUCT, "nccl"},
    {"nvrtc", W_PRODUCT, "nvrtc"},
    {"hip", W_PRODUCT, "hip"},
    {"hsa", W_PRODUCT, "hsa"},
    {"rocblas", W_PRODUCT, "rocblas"},
    {"hipblas", W_PRODUCT, "hipblas"},
    {"miopen", W_PRODUCT, "miopen"},
    {"vulkan", W_PRODUCT, "vk"},
    {"opencl", W_PRODUCT, "cl"},
    {"levelzero", W_PRODUCT, "ze"},
    {"level_zero", W_PRODUCT, "ze"},
    {"ze", W_PRODUCT, "ze"}, /* Triton XPU: "Triton Error [ZE]: 0x70000004" */
    {"cudaerror_t", W_TYPE, "cudart"},
    {"cudaerror", W_TYPE, "cudart"},
    {"curesult", W_TYPE, "cu"},
    {"cublasstatus_t", W_TYPE, "cublas"},
    {"cudnnstatus_t", W_TYPE, "cudnn"},
    {"ncclresult_t", W_TYPE, "nccl"},
    {"nvrtcresult", W_TYPE, "nvrtc"},
    {"hiperror_t", W_TYPE, "hip"},
    {"hsa_status_t", W_TYPE, "hsa"},
    {"rocblas_status", W_TYPE, "rocblas"},
    {"hipblasstatus_t", W_TYPE, "hipblas"},
    {"miopenstatus_t", W_TYPE, "miopen"},
    {"vkresult", W_TYPE, "vk"},
    {"cl_int", W_TYPE, "cl"},
    {"ze_result_t", W_TYPE, "ze"},
    {"ur_result_t", W_TYPE, "ur"},
    {"error", W_GENERIC, NULL},
    {"err", W_GENERIC, NULL},
    {"status", W_GENERIC, NULL},
    {"code", W_GENERIC, NULL},
    {"result", W_GENERIC, NULL},
    {"returned", W_GENERIC, NULL},
    {"returns", W_GENERIC, NULL},
    {"return", W_GENERIC, NULL},
    {"failed", W_GENERIC, NULL},
    {"errorcode", W_GENERIC, NULL},
    {"error_code", W_GENERIC, NULL},
    {"rc", W_GENERIC, NULL},
    {"runtime", W_QUALIFIER, NULL},
    {"driver", W_QUALIFIER, NULL},
    {"api", W_QUALIFIER, NULL},
    {"level", W_LEVEL, NULL},
    {"zero", W_ZERO, "ze"},
};

const size_t gd_n_code_words = sizeof gd_code_words / sizeof *gd_code_words;
_Static_assert(sizeof gd_code_words / sizeof *gd_code_words <= GD_N_WORDS,
	       "gd_code_words[]");

const char *gd_code_function_api(const char *w, size_t n)
{
	static const struct {
		const char *pre, *id;
	} fns[] = {{"cudnn", "cudnn"},
		   {"cublas", "cublas"},
		   {"cuda", "cudart"},
		   {"nccl", "nccl"},
		   {"nvrtc", "nvrtc"},
		   {"cu", "cu"},
		   {"hipblas", "hipblas"},
		   {"hip", "hip"},
		   {"hsa_", "hsa"},
		   {"rocblas_", "rocblas"},
		   {"miopen", "miopen"},
		   {"vk", "vk"},
		   {"cl", "cl"},
		   {"ze", "ze"},
		   {"ur", "ur"}};
	int inner = 0;

	switch (w[0]) {
	case 'c':
	case 'h':
	case 'n':
	case 'r':
	case 'm':
	case 'v':
	case 'z':
	case 'u':
		break;
	default:
		return NULL;
	}
	for (size_t i = 2; i < n && i < 10 && !inner; i++)
		inner = isupper((unsigned char)w[i]) || w[i] == '_';
	if (!inner || !islower((unsigned char)w[0]))
		return NULL;
	for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
		size_t k = strlen(fns[i].pre);

		if (n > k + 1 && !strncmp(w, fns[i].pre, k) &&
		    (fns[i].pre[k - 1] == '_' || isupper((unsigned char)w[k])))
			return fns[i].id;
	}
	return NULL;
}
