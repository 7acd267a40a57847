/* fake_hang_libcuda: a STAND-IN for libcuda.so.1 that hangs on purpose in
 * cuInit, the fault no real driver produces on demand (field reports: a
 * driver wedged after an Xid). Only for tests/scripts/test_probe.sh, which
 * builds it as libcuda.so.1 into a temp dir and points GPUDOCTOR_LIB_PATH
 * at it. Every other entry point the probe resolves exists and fails.
 * With GD_FAKE_HELPER=PROG, cuInit first starts PROG 7773 in the
 * background, as a driver's helper process (tests/scripts/test_signals.sh:
 * a probe child's own child must not outlive gpudoctor). */
#include <stdlib.h>
#include <unistd.h>
#ifdef GD_FAKE_FORK_HELPER
/* Built with -DGD_FAKE_FORK_HELPER (tests/scripts/test_python.sh): cuInit
 * first forks a helper process that outlives nothing on its own, as a
 * runtime's helper does, and writes its pid to $FAKE_HELPER_PID. Whoever
 * stops the probe must end it too (issue #20 E9). */
#include <stdio.h>
#include <stdlib.h>

static void fork_helper(void)
{
	const char *file = getenv("FAKE_HELPER_PID");
	pid_t p = fork();
	FILE *f;

	if (p == 0)
		for (;;)
			pause();
	if (p > 0 && file && (f = fopen(file, "w"))) {
		fprintf(f, "%d\n", (int)p);
		fclose(f);
	}
}
#else
static void fork_helper(void)
{
}
#endif

int cuInit(unsigned flags);
int cuInit(unsigned flags)
{
	const char *helper = getenv("GD_FAKE_HELPER");

	(void)flags;
	if (helper && *helper && fork() == 0) {
		execl(helper, helper, "7773", (char *)NULL);
		_exit(127);
	}
	fork_helper();
	for (;;)
		pause();
}

#define FAIL(name)                                                             \
	int name(void);                                                        \
	int name(void)                                                         \
	{                                                                      \
		return 999;                                                    \
	}
/* clang-format off: one a line (the formatter folds these) */
FAIL(cuDriverGetVersion)
FAIL(cuDeviceGetCount)
FAIL(cuDeviceGet)
FAIL(cuDeviceGetName)
FAIL(cuDeviceTotalMem_v2)
FAIL(cuDeviceGetAttribute)
FAIL(cuDevicePrimaryCtxRetain)
FAIL(cuDevicePrimaryCtxRelease_v2)
FAIL(cuCtxSetCurrent)
FAIL(cuCtxCreate_v2)
FAIL(cuCtxDestroy_v2)
FAIL(cuCtxSynchronize)
FAIL(cuMemAlloc_v2)
FAIL(cuMemFree_v2)
FAIL(cuMemAllocHost_v2)
FAIL(cuMemFreeHost)
FAIL(cuMemcpyHtoD_v2)
FAIL(cuMemcpyDtoH_v2)
FAIL(cuMemcpyHtoDAsync_v2)
FAIL(cuMemcpyDtoHAsync_v2)
FAIL(cuMemcpyDtoDAsync_v2)
FAIL(cuMemsetD8_v2)
FAIL(cuStreamCreate)
FAIL(cuStreamSynchronize)
FAIL(cuStreamDestroy_v2)
FAIL(cuEventCreate)
FAIL(cuEventRecord)
FAIL(cuEventSynchronize)
FAIL(cuEventElapsedTime)
FAIL(cuEventDestroy_v2)
FAIL(cuModuleLoadData)
FAIL(cuModuleGetFunction)
FAIL(cuModuleUnload)
FAIL(cuLaunchKernel)
FAIL(cuGetErrorName)
FAIL(cuGetErrorString)
/* clang-format on */
