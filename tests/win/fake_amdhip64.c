/* A test double for the HIP runtime DLLs a Windows driver ships side by
 * side (amdhip64_7.dll, amdhip64_6.dll; built twice, GD_FAKE_MAJOR 7 and 6):
 * it loads, names its version, and answers hipErrorNoDevice, as the field
 * report's SDK 7.1 runtime did on a driver with the HIP 6 runtime. No real
 * HIP runtime runs under Wine; the probe must say, per DLL, what each one
 * answered (test_windows.sh). Every other entry point the probe resolves
 * exists and fails. With AMD_LOG_LEVEL set it logs to stderr as ROCclr
 * does, naming the file it was loaded from ("HIP Library Path", the line
 * docs/windows.md A.4 cites): the diagnostics re-run must
 * run the same DLL again and keep the line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define EXPORT __declspec(dllexport)
#define HIP_NO_DEVICE 100

static const char here; /* an address inside this DLL */

static void log_init(void)
{
	const char *lvl = getenv("AMD_LOG_LEVEL");
	char path[MAX_PATH] = "?";
	HMODULE self = NULL;

	if (!lvl || atoi(lvl) < 3)
		return;
	GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
			       GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
			   &here, &self);
	GetModuleFileNameA(self, path, sizeof path);
	fprintf(stderr,
		":3:hip_context.cpp           :50  : 0 us: HIP "
		"Library Path: %s\n",
		path);
	fprintf(stderr,
		":1:rocdevice.cpp             :240 : 0 us: no "
		"device found (fake: HIP %d runtime)\n",
		GD_FAKE_MAJOR);
	fflush(stderr);
}

EXPORT int hipInit(unsigned flags)
{
	(void)flags;
	log_init();
	return HIP_NO_DEVICE;
}

EXPORT int hipGetDeviceCount(int *n)
{
	*n = 0;
	return HIP_NO_DEVICE;
}

/* HIP_VERSION = major * 10^7 + minor * 10^5 + patch */
EXPORT int hipRuntimeGetVersion(int *v)
{
	*v = GD_FAKE_MAJOR * 10000000 + 1 * 100000 + 1;
	return 0;
}

EXPORT int hipDriverGetVersion(int *v)
{
	return hipRuntimeGetVersion(v);
}

EXPORT const char *hipGetErrorName(int e)
{
	return e == HIP_NO_DEVICE ? "hipErrorNoDevice" : "hipErrorUnknown";
}

EXPORT const char *hipGetErrorString(int e)
{
	return e == HIP_NO_DEVICE ? "no ROCm-capable device is detected"
				  : "unknown error";
}

/* The rest: present, and never reached without a device. */
#define FAIL(name)                                                             \
	EXPORT int name(void)                                                  \
	{                                                                      \
		return HIP_NO_DEVICE;                                          \
	}
FAIL(hipDeviceGetName)
FAIL(hipDeviceTotalMem)
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
