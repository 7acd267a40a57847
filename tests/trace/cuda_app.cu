// A small CUDA program for tests/scripts/test_trace.sh, built with nvcc
// -cudart shared against the CUDA 13 runtime. Without an NVIDIA driver
// every call returns cudaErrorInsufficientDriver (35); the test checks
// that the trace shim saw each call, including the <<<>>> launch (which
// CUDA 12.4+ stubs route through __cudaLaunchKernel), and passed the
// runtime's own result back.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(float *a) { a[threadIdx.x] += 1.0f; }

int main(void)
{
	void *d = NULL;

	printf("cudaMalloc %d\n", (int)cudaMalloc(&d, 1 << 20));
	add<<<1, 64>>>((float *)d);
	printf("launch %d\n", (int)cudaGetLastError());
	printf("cudaStreamSynchronize %d\n", (int)cudaStreamSynchronize(0));
	return 0;
}
