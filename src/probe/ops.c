/* probe/ops: the one table of probe ops (ops.h). docs/probe.md's "Ops"
 * tables list exactly these names (tests/unit/test_probe_ops.c). */
#include <string.h>

#include "core/util.h"
#include "ops.h"

_Static_assert(GD_OP_COUNT <= 32, "an op set is 32 bits (gd_opset)");

#define ALLB GD_OPB_ALL
#define CU GD_OPB_CUDA
#define HIP GD_OPB_HIP
#define S(op) GD_OPSET(GD_OP_##op)

static const struct gd_op_info table[GD_OP_COUNT] = {
    {GD_OP_INIT, "init",
     "library loaded, runtime initialised, devices "
     "listed",
     1, 0, 0, ALLB, 0},
    {GD_OP_ALLOC_DEVICE, "alloc_device",
     "64 MiB of device memory, "
     "written",
     1, 0, 0, ALLB, 0},
    {GD_OP_ALLOC_PINNED, "alloc_pinned",
     "64 MiB of page-locked or "
     "host-visible memory, written",
     0, 0, 0, ALLB, 0},
    {GD_OP_ALLOC_NONCOHERENT, "alloc_noncoherent",
     "hipHostMalloc "
     "hipHostMallocNonCoherent, 64 MiB",
     0, 0, 0, HIP, 0},
    {GD_OP_ALLOC_EXT_FLAGS, "alloc_ext_flags",
     "hipExtMallocWithFlags "
     "fine-grained, 64 MiB",
     0, 0, 0, HIP, 0},
    {GD_OP_COPY_H2D, "copy_h2d", "64 MiB host to device, synchronous", 1, 0, 0,
     ALLB, S(ALLOC_DEVICE)},
    {GD_OP_COPY_D2H, "copy_d2h",
     "64 MiB device to host, compared with "
     "what was written",
     1, 0, 0, ALLB, S(ALLOC_DEVICE) | S(COPY_H2D)},
    {GD_OP_COPY_H2D_ASYNC, "copy_h2d_async",
     "64 MiB from pinned memory, "
     "asynchronous, compared",
     0, 0, 0, CU | HIP | GD_OPB_OPENCL | GD_OPB_LEVEL_ZERO,
     S(ALLOC_DEVICE) | S(ALLOC_PINNED)},
    {GD_OP_KERNEL_VECTOR_ADD, "kernel_vector_add",
     "c = a + b on 2^20 "
     "floats, compiled at run time, checked",
     1, 0, 0, ALLB, 0},
    {GD_OP_GEMM_FP32, "gemm_fp32",
     "BLAS SGEMM n = 256 against a CPU "
     "reference",
     1, 0, 0, ALLB, 0},
    {GD_OP_GEMM_FP16_EX_V1, "gemm_fp16_ex_v1",
     "hipblasGemmEx fp16, the "
     "hipblasDatatype_t ABI",
     0, 0, 0, HIP, 0},
    {GD_OP_GEMM_FP16, "gemm_fp16",
     "BLAS GEMM fp16 n = 256, compute "
     "fp32",
     0, 0, 0, CU | HIP, 0},
    {GD_OP_GEMM_BF16, "gemm_bf16",
     "BLAS GEMM bf16 n = 256, compute "
     "fp32",
     0, 0, 0, CU | HIP, 0},
    {GD_OP_GEMM_FP32_ROCBLAS, "gemm_fp32_rocblas",
     "rocblas_sgemm "
     "n = 256",
     0, 0, 0, HIP, 0},
    {GD_OP_CONV_FWD, "conv_fwd",
     "forward convolution 1x4x16x16, 8 "
     "filters 3x3, vs the CPU",
     0, 0, 0, CU | HIP, 0},
    {GD_OP_CONTEXT_CYCLE, "context_cycle",
     "contexts made, used, destroyed "
     "from 4 threads, ~2 s",
     0, 0, 0, ALLB, 0},
    {GD_OP_BENCH, "bench", "the --bench figures, as one step", 0, 1, 0, ALLB,
     0},
    {GD_OP_EXIT, "exit", "the child ended between ops", 0, 0, 1, 0, 0},
    {GD_OP_RESTART, "restart", "a restarted child failed in its set-up", 0, 0,
     1, 0, 0},
    {GD_OP_NOT_RUN, "not_run", "the ops after this one were not run", 0, 0, 1,
     0, 0},
};

const struct gd_op_info *gd_ops(void)
{
	return table;
}

const struct gd_op_info *gd_op(enum gd_op id)
{
	return (unsigned)id < GD_OP_COUNT ? &table[id] : &table[GD_OP_INIT];
}

const char *gd_op_name(enum gd_op id)
{
	return gd_op(id)->name;
}

int gd_op_find(const char *name)
{
	for (int i = 0; name && i < GD_OP_COUNT; i++)
		if (!strcmp(table[i].name, name))
			return i;
	return -1;
}

int gd_op_parse_list(const char *list, gd_opset *out, char *bad, size_t cap)
{
	gd_opset set = GD_OPSET(GD_OP_INIT), prev;
	const char *p = list ? list : "";

	if (!*p) {
		gd_strlcpy(bad, "", cap);
		return -1;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		char name[48];
		int id;

		gd_fmt(name, sizeof name, "%.*s", (int)len, p);
		id = len ? gd_op_find(name) : -1;
		if (id < 0 || table[id].parent) {
			gd_strlcpy(bad, name, cap);
			return -1;
		}
		set |= GD_OPSET(id);
		p += len + (p[len] == ',');
	}
	do { /* needs of needs */
		prev = set;
		for (int i = 0; i < GD_OP_COUNT; i++)
			if (set & GD_OPSET(i))
				set |= table[i].needs;
	} while (set != prev);
	*out = set;
	return 0;
}

void gd_op_names(char *buf, size_t cap, const char *sep)
{
	buf[0] = '\0';
	for (int i = 0; i < GD_OP_COUNT; i++)
		if (!table[i].parent)
			gd_fmt(buf + strlen(buf), cap - strlen(buf), "%s%s",
			       i ? sep : "", table[i].name);
}

unsigned gd_op_backend_bit(const char *b)
{
	static const struct {
		const char *n;
		unsigned bit;
	} t[] = {
	    {"cuda", GD_OPB_CUDA},
	    {"hip", GD_OPB_HIP},
	    {"vulkan", GD_OPB_VULKAN},
	    {"opencl", GD_OPB_OPENCL},
	    {"levelzero", GD_OPB_LEVEL_ZERO},
	};

	for (size_t i = 0; b && i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].n, b))
			return t[i].bit;
	return 0;
}
