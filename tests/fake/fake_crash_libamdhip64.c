/* fake_crash_libamdhip64: a STAND-IN for libamdhip64.so.5 that segfaults on
 * purpose in hipInit, as broken ROCm installs do at start-up. Only for
 * tests/scripts/test_probe.sh (built into a temp dir, loaded through
 * GPUDOCTOR_LIB_PATH). Every other entry point the probe resolves exists. */
#include <stdio.h>

int hipInit(unsigned flags);
int hipInit(unsigned flags)
{
	volatile int *volatile p = NULL;

	fprintf(stderr,
		"fake_crash_libamdhip64: hipInit writes through NULL\n");
	*p = (int)flags;
	return 0;
}

#define FAIL(name)                                                             \
	int name(void);                                                        \
	int name(void)                                                         \
	{                                                                      \
		return 1;                                                      \
	}
/* clang-format off: one a line (the formatter folds these) */
FAIL(hipGetDeviceCount)
FAIL(hipDriverGetVersion)
FAIL(hipRuntimeGetVersion)
FAIL(hipDeviceGetName)
FAIL(hipDeviceTotalMem)
FAIL(hipGetErrorName)
FAIL(hipGetErrorString)
FAIL(hipSetDevice)
FAIL(hipMalloc)
FAIL(hipFree)
FAIL(hipHostMalloc)
FAIL(hipHostFree)
FAIL(hipMemcpy)
FAIL(hipMemcpyAsync)
FAIL(hipStreamCreate)
FAIL(hipStreamDestroy)
FAIL(hipStreamSynchronize)
FAIL(hipDeviceSynchronize)
FAIL(hipModuleLoadData)
FAIL(hipModuleGetFunction)
FAIL(hipModuleUnload)
FAIL(hipModuleLaunchKernel)
FAIL(hipMemset)
FAIL(hipDeviceReset)
FAIL(hipEventCreate)
FAIL(hipEventRecord)
FAIL(hipEventSynchronize)
FAIL(hipEventElapsedTime)
FAIL(hipEventDestroy)
/* clang-format on */
