/* rt_calls: the runtime calls of tests/scripts/test_trace_rtld_local.sh,
 * built into a library linked against a real runtime (Debian's HIP 5.2
 * libamdhip64.so.5 with -DRT_HIP, CUDA's libcudart with -DRT_CUDA; no
 * device here: each answers with its own error code) and loaded the way
 * Python loads extension modules, RTLD_LOCAL. gd_rt_calls() prints
 * "NAME RESULT" per call: run with and without the tracer, the lines must
 * be the same. Declarations as in the runtimes' headers (handles are
 * pointers, errors ints). */
#include <stdio.h>
#include <stdlib.h>

int gd_rt_calls(void);

#define SHOW(name, call) printf("%s %d\n", name, (int)(call))

#ifdef RT_HIP
int hipInit(unsigned f);
int hipGetDeviceCount(int *n);
int hipSetDevice(int d);
int hipGetDeviceProperties(void *p, int d);
int hipDeviceGet(int *dev, int d);
int hipMalloc(void **p, size_t n);
int hipHostMalloc(void **p, size_t n, unsigned f);
int hipHostFree(void *p);
int hipExtMallocWithFlags(void **p, size_t n, unsigned f);
int hipFree(void *p);
int hipMemcpy(void *d, const void *s, size_t n, int k);
int hipDeviceSynchronize(void);
int hipStreamSynchronize(void *s);

int gd_rt_calls(void)
{
	static char props[4096];
	void *p = NULL, *h = NULL;
	int n = -1, v = 0;
	char buf[64] = "";

	SHOW("hipInit", hipInit(0));
	SHOW("hipGetDeviceCount", hipGetDeviceCount(&n));
	SHOW("hipSetDevice", hipSetDevice(0));
	SHOW("hipGetDeviceProperties", hipGetDeviceProperties(props, 0));
	SHOW("hipDeviceGet", hipDeviceGet(&v, 0));
	SHOW("hipMalloc", hipMalloc(&p, 4096));
	SHOW("hipHostMalloc", hipHostMalloc(&h, 4096, 0));
	SHOW("hipExtMallocWithFlags", hipExtMallocWithFlags(&p, 4096, 1));
	SHOW("hipMemcpy", hipMemcpy(buf, buf + 32, 16, 0));
	SHOW("hipDeviceSynchronize", hipDeviceSynchronize());
	SHOW("hipStreamSynchronize", hipStreamSynchronize(NULL));
	SHOW("hipHostFree", hipHostFree(h));
	SHOW("hipFree", hipFree(p));
	fflush(stdout);
	return 0;
}
#endif

#ifdef RT_CUDA
int cudaGetDeviceCount(int *n);
int cudaSetDevice(int d);
int cudaGetDeviceProperties(void *p, int d);
int cudaMalloc(void **p, size_t n);
int cudaMallocHost(void **p, size_t n);
int cudaHostAlloc(void **p, size_t n, unsigned f);
int cudaFree(void *p);
int cudaMemcpy(void *d, const void *s, size_t n, int k);
int cudaDeviceSynchronize(void);
int cudaStreamSynchronize(void *s);

int gd_rt_calls(void)
{
	static char props[8192];
	void *p = NULL;
	int n = -1;
	char buf[64] = "";

	SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&n));
	SHOW("cudaSetDevice", cudaSetDevice(0));
	SHOW("cudaGetDeviceProperties", cudaGetDeviceProperties(props, 0));
	SHOW("cudaMalloc", cudaMalloc(&p, 4096));
	SHOW("cudaMallocHost", cudaMallocHost(&p, 4096));
	SHOW("cudaHostAlloc", cudaHostAlloc(&p, 4096, 0));
	SHOW("cudaMemcpy", cudaMemcpy(buf, buf + 32, 16, 0));
	SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
	SHOW("cudaStreamSynchronize", cudaStreamSynchronize(NULL));
	SHOW("cudaFree", cudaFree(NULL));
	fflush(stdout);
	return 0;
}
#endif
