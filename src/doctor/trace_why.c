/* doctor/trace_why: the table of why a call blocks (see trace_why.h).
 * Sources of the behaviours, restated in docs/trace.md ("Why a call
 * blocks"): CUDA Programming Guide, "Lazy Loading" (CUDA_MODULE_LOADING,
 * LAZY the default since CUDA 12.2) and "API synchronization behavior"
 * (cudaMemcpy from pageable memory, cudaFree); HIP's environment
 * variables (AMD_SERIALIZE_KERNEL=3: wait before and after each kernel). */
#include <string.h>

#include "core/util.h"
#include "doctor/trace_why.h"

#define A(n) GD_TRACE_API_##n
#define END GD_TRACE_API_COUNT

enum { ANY, HOST_COPY };

struct why_rule {
	unsigned apis[16]; /* ended by END */
	int when;
	const char *text;
};

static const struct why_rule rules[] = {
    {{A(cudaLaunchKernel), A(__cudaLaunchKernel), A(__cudaLaunchKernel_ptsz),
      A(cudaLaunchKernel_ptsz), A(cudaLaunchKernelExC), A(cuLaunchKernel),
      A(cuLaunchKernelEx), END},
     ANY,
     "under CUDA's lazy module loading (the default since CUDA 12.2) the "
     "first launch of a kernel loads its module, and that waits for the "
     "kernels already running: CUDA_MODULE_LOADING=EAGER loads every module "
     "at start, then a launch blocks only on a full queue"},
    {{A(hipLaunchKernel), A(hipModuleLaunchKernel), A(hipExtModuleLaunchKernel),
      A(__hipPushCallConfiguration), A(hipGraphLaunch), END},
     ANY,
     "a launch returns once the kernel is queued; it blocks while the code "
     "object loads or the queue is full of work that does not end: "
     "AMD_SERIALIZE_KERNEL=3 makes every launch wait for its kernel, so the "
     "report names the kernel that does not end"},
    {{A(cudaDeviceSynchronize), A(cudaStreamSynchronize),
      A(cudaEventSynchronize), A(cuCtxSynchronize), A(cuStreamSynchronize),
      A(cuEventSynchronize), END},
     ANY,
     "it waits for GPU work queued before it (PyTorch's .item(), .cpu() and "
     "printing a CUDA tensor end here): the kernel that does not end was "
     "launched earlier; CUDA_LAUNCH_BLOCKING=1 makes each launch wait, so "
     "the report names that launch"},
    {{A(hipDeviceSynchronize), A(hipStreamSynchronize), A(hipEventSynchronize),
      END},
     ANY,
     "it waits for GPU work queued before it (PyTorch's .item() and .cpu() "
     "end here): the kernel that does not end was launched earlier; "
     "AMD_SERIALIZE_KERNEL=3 makes each launch wait, so the report names "
     "that launch"},
    {{A(cudaMemcpy), A(cudaMemcpyAsync), A(cudaMemcpyAsync_ptsz),
      A(cuMemcpyHtoD), A(cuMemcpyDtoH), A(cuMemcpyHtoDAsync),
      A(cuMemcpyDtoHAsync), A(cuMemcpyAsync), END},
     HOST_COPY,
     "a copy to or from pageable (not pinned) host memory waits for the "
     "stream's earlier work and runs while the host waits, even when "
     "asynchronous: the kernel before it may be what does not end "
     "(CUDA_LAUNCH_BLOCKING=1 names it); pinned memory (cudaMallocHost, "
     "PyTorch's pin_memory=True) keeps copies asynchronous"},
    {{A(hipMemcpy), A(hipMemcpyAsync), A(hipMemcpy2D), A(hipMemcpy2DAsync),
      A(hipMemcpyWithStream), END},
     HOST_COPY,
     "a copy to or from pageable (not pinned) host memory waits for the "
     "stream's earlier work and runs while the host waits: the kernel "
     "before it may be what does not end (AMD_SERIALIZE_KERNEL=3 names it); "
     "hipHostMalloc'd memory keeps copies asynchronous"},
    {{A(cudaFree), A(cudaMalloc), A(cudaMallocHost), A(cudaHostAlloc),
      A(cuMemFree), A(cuMemAlloc), END},
     ANY,
     "cudaFree synchronises the device (it waits for every running kernel) "
     "and allocations may too: a kernel launched earlier may be what does "
     "not end (CUDA_LAUNCH_BLOCKING=1 names it); PyTorch's caching allocator "
     "calls them when memory runs short or on torch.cuda.empty_cache()"},
    {{A(hipFree), A(hipMalloc), A(hipHostMalloc), A(hipHostFree),
      A(hipExtMallocWithFlags), A(hipMallocManaged), END},
     ANY,
     "hipFree waits for the device's queued work before it frees, as "
     "cudaFree does, and allocations may too: a kernel launched earlier may "
     "be what does not end (AMD_SERIALIZE_KERNEL=3 names it)"},
    {{A(hipInit), A(hipGetDeviceCount), A(hipSetDevice),
      A(hipGetDeviceProperties), A(hipGetDevicePropertiesR0600),
      A(hipDeviceGet), A(hipDevicePrimaryCtxRetain), A(hipCtxCreate), END},
     ANY,
     "runtime start: HIP opens /dev/kfd and the GPU's queues here, so a hang "
     "is the driver or firmware not answering (dmesg shows amdgpu's "
     "errors); HIP_VISIBLE_DEVICES leaves a device out, `gpudoctor probe` "
     "tries each device in a supervised child"},
    {{A(cudaGetDeviceCount), A(cudaSetDevice), A(cudaGetDeviceProperties),
      A(cudaInitDevice), A(cuInit), A(cuDeviceGetCount), A(cuDeviceGet),
      A(cuCtxCreate), A(cuDevicePrimaryCtxRetain), END},
     ANY,
     "runtime start: the CUDA driver opens /dev/nvidia* and creates the "
     "context here, so a hang is the driver or the GPU not answering (dmesg "
     "shows NVRM Xid lines); CUDA_VISIBLE_DEVICES leaves a device out, "
     "`gpudoctor probe` tries each device in a supervised child"},
};

static int rule_has(const struct why_rule *r, unsigned api)
{
	for (size_t i = 0; i < sizeof r->apis / sizeof *r->apis; i++) {
		if (r->apis[i] == END)
			return 0;
		if (r->apis[i] == api)
			return 1;
	}
	return 0;
}

const char *gd_trace_why(const struct gd_trace_stuck *s)
{
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
		const struct why_rule *r = &rules[i];

		if (!rule_has(r, s->api))
			continue;
		/* copy kinds (hipMemcpyKind = cudaMemcpyKind): 3 is D2D */
		if (r->when == HOST_COPY && s->kind == 3)
			return NULL;
		return r->text;
	}
	return NULL;
}

void gd_trace_explain(struct gd_trace_stuck *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *w = gd_trace_why(&s[i]);

		gd_strlcpy(s[i].why, w ? w : "", sizeof s[i].why);
	}
}
