/* fake_hang_libamdhip64: a STAND-IN for libamdhip64.so.5 that hangs on
 * purpose in hipModuleLoadData, the code-object load where broken COMGR /
 * unsupported-gfx setups were reported to hang. To get there it reports
 * one device ("gfx1010") and serves allocations and copies from host
 * memory, with hiprtc inside (as HIP 5.x). Only for
 * tests/scripts/test_probe.sh (built into a temp dir, loaded through
 * GPUDOCTOR_LIB_PATH): it shows that the probe restarts past a hung op,
 * that the ops after it (hipBLAS, rocBLAS, MIOpen: absent from that dir)
 * are reported "missing" with where they were searched, and that the
 * time-bounded context cycle passes a 1 s per-op deadline.
 * tests/scripts/test_trace.sh uses its hanging hipMemcpyAsync (>= 64 MiB)
 * for the hang report of `try --trace`. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define API(ret, name, args)                                                   \
	ret name args;                                                         \
	ret name args

API(int, hipInit, (unsigned f))
{
	(void)f;
	return 0;
}
API(int, hipGetDeviceCount, (int *n))
{
	*n = 1;
	return 0;
}
API(int, hipDriverGetVersion, (int *v))
{
	*v = 50231921;
	return 0;
}
API(int, hipRuntimeGetVersion, (int *v))
{
	*v = 50231921;
	return 0;
}
API(int, hipDeviceGetName, (char *s, int n, int d))
{
	(void)d;
	strncpy(s, "fake_hang_libamdhip64 (no GPU)", (size_t)n);
	return 0;
}
API(int, hipDeviceTotalMem, (size_t * m, int d))
{
	(void)d;
	*m = 1u << 30;
	return 0;
}
API(int, hipGetDeviceProperties, (void *p, int d))
{
	(void)d;
	memset(p, 0, 1024);
	strcpy((char *)p + 512, "gfx1010:xnack-");
	return 0;
}
API(const char *, hipGetErrorName, (int e))
{
	return e ? "hipErrorFake" : "hipSuccess";
}
API(const char *, hipGetErrorString, (int e))
{
	return e ? "fake error" : "no error";
}
API(int, hipSetDevice, (int d))
{
	return d ? 101 : 0;
}
API(int, hipMalloc, (void **p, size_t n))
{
	*p = malloc(n);
	return *p ? 0 : 2;
}
API(int, hipFree, (void *p))
{
	free(p);
	return 0;
}
API(int, hipHostMalloc, (void **p, size_t n, unsigned f))
{
	(void)f;
	*p = malloc(n);
	return *p ? 0 : 2;
}
API(int, hipHostFree, (void *p))
{
	free(p);
	return 0;
}
API(int, hipExtMallocWithFlags, (void **p, size_t n, unsigned f))
{
	(void)f;
	*p = malloc(n);
	return *p ? 0 : 2;
}
API(int, hipMemcpy, (void *d, const void *s, size_t n, int k))
{
	(void)k;
	memmove(d, s, n);
	return 0;
}
/* the second fault, for tests/scripts/test_trace.sh: a copy of 64 MiB or
 * more never completes (the probe's copies are far smaller) */
API(int, hipMemcpyAsync, (void *d, const void *s, size_t n, int k, void *st))
{
	(void)k;
	(void)st;
	while (n >= (64u << 20))
		pause();
	memmove(d, s, n);
	return 0;
}
API(int, hipMemset, (void *d, int v, size_t n))
{
	memset(d, v, n);
	return 0;
}
static int fake_stream;
API(int, hipStreamCreate, (void **s))
{
	*s = &fake_stream;
	return 0;
}
API(int, hipStreamDestroy, (void *s))
{
	(void)s;
	return 0;
}
API(int, hipStreamSynchronize, (void *s))
{
	(void)s;
	return 0;
}
API(int, hipDeviceSynchronize, (void))
{
	return 0;
}
API(int, hipDeviceReset, (void))
{
	return 0;
}
API(int, hipEventCreate, (void **e))
{
	*e = &fake_stream;
	return 0;
}
API(int, hipEventRecord, (void *e, void *s))
{
	(void)e;
	(void)s;
	return 0;
}
API(int, hipEventSynchronize, (void *e))
{
	(void)e;
	return 0;
}
API(int, hipEventElapsedTime, (float *ms, void *a, void *b))
{
	(void)a;
	(void)b;
	*ms = 1;
	return 0;
}
API(int, hipEventDestroy, (void *e))
{
	(void)e;
	return 0;
}
/* the fault: loading the code object never returns */
API(int, hipModuleLoadData, (void **m, const void *img))
{
	(void)m;
	(void)img;
	for (;;)
		pause();
}
API(int, hipModuleGetFunction, (void **f, void *m, const char *n))
{
	(void)f;
	(void)m;
	(void)n;
	return 500;
}
API(int, hipModuleUnload, (void *m))
{
	(void)m;
	return 0;
}
API(int, hipModuleLaunchKernel, (void))
{
	return 98;
}
/* hiprtc, inside libamdhip64 as in HIP 5.x */
static int fake_prog;
API(int, hiprtcCreateProgram,
    (void **p, const char *s, const char *n, int h, const char **a,
     const char **b))
{
	(void)s;
	(void)n;
	(void)h;
	(void)a;
	(void)b;
	*p = &fake_prog;
	return 0;
}
API(int, hiprtcCompileProgram, (void *p, int n, const char **o))
{
	(void)p;
	(void)n;
	(void)o;
	return 0;
}
API(int, hiprtcGetCodeSize, (void *p, size_t *n))
{
	(void)p;
	*n = 16;
	return 0;
}
API(int, hiprtcGetCode, (void *p, char *c))
{
	(void)p;
	memset(c, 0x7f, 16);
	return 0;
}
API(int, hiprtcGetProgramLogSize, (void *p, size_t *n))
{
	(void)p;
	*n = 1;
	return 0;
}
API(int, hiprtcGetProgramLog, (void *p, char *l))
{
	(void)p;
	*l = '\0';
	return 0;
}
API(int, hiprtcDestroyProgram, (void **p))
{
	*p = NULL;
	return 0;
}
API(const char *, hiprtcGetErrorString, (int e))
{
	(void)e;
	return "fake";
}
