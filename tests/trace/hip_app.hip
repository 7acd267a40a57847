// A small HIP program for tests/scripts/test_trace.sh, built with hipcc
// against Debian's HIP 5.2 runtime. Without a GPU every call returns
// hipErrorNoDevice (100); the test checks that the trace shim saw each
// call and passed the runtime's own result back.
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void add(float *a) { a[threadIdx.x] += 1.0f; }

int main(void)
{
	void *d = NULL, *h = NULL;
	int rc = (int)hipInit(0);

	printf("hipInit %d\n", rc);
	printf("hipMalloc %d\n", (int)hipMalloc(&d, 1 << 20));
	printf("hipHostMalloc %d\n", (int)hipHostMalloc(&h, 4096, 0));
	printf("hipExtMallocWithFlags %d\n",
	       (int)hipExtMallocWithFlags(&d, 4096, hipDeviceMallocFinegrained));
	printf("hipMemcpy %d\n",
	       (int)hipMemcpy(d, h, 4096, hipMemcpyHostToDevice));
	hipLaunchKernelGGL(add, dim3(1), dim3(64), 0, 0, (float *)d);
	printf("launch %d\n", (int)hipGetLastError());
	printf("hipDeviceSynchronize %d\n", (int)hipDeviceSynchronize());
	return 0;
}
