/* A real CUDA program for tests/scripts/test_run_explain.sh and
 * bench/nokernel.sh: one kernel launch, the CUDA runtime's own error text
 * and name on stderr and exit 1 when it fails. Built for one architecture
 * only (nvcc -gencode arch=compute_80,code=sm_80: SASS, no PTX to JIT), it
 * fails on any other GPU with "no kernel image is available for execution
 * on the device"; on a machine without the driver with the runtime's
 * cudaErrorInsufficientDriver / cudaErrorNoDevice. */
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(float *x)
{
	x[threadIdx.x] = 1.0f;
}
int main()
{
	float *x = nullptr;
	cudaError_t e = cudaMalloc(&x, 256);
	if (e == cudaSuccess) {
		k<<<1, 64>>>(x);
		e = cudaGetLastError();
	}
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess) {
		fprintf(stderr, "CUDA error: %s (%s)\n", cudaGetErrorString(e),
			cudaGetErrorName(e));
		return 1;
	}
	printf("kernel ran\n");
	return 0;
}
