/* probe/backend_opencl: the OpenCL op matrix through the ICD loader opened
 * at run time. No OpenCL BLAS/DNN is probed: gemm and conv are reported as
 * skipped so the matrix stays comparable across backends. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "opencl_api.h"

#define N_VEC (1 << 20)
#define CL_CHECK(call, what)                                                   \
	do {                                                                   \
		cl_int e_ = (call);                                            \
		if (e_ != CL_SUCCESS) {                                        \
			gd_pc_end(pc, GD_PS_ERROR, 0, "%s: %s (%d)", what,     \
				  gd_cl_err(e_), e_);                             \
			goto out;                                              \
		}                                                              \
	} while (0)

const char *gd_cl_err(cl_int e)
{
	static const struct { cl_int c; const char *n; } t[] = {
		{-1, "CL_DEVICE_NOT_FOUND"}, {-2, "CL_DEVICE_NOT_AVAILABLE"},
		{-3, "CL_COMPILER_NOT_AVAILABLE"},
		{-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
		{-5, "CL_OUT_OF_RESOURCES"}, {-6, "CL_OUT_OF_HOST_MEMORY"},
		{-11, "CL_BUILD_PROGRAM_FAILURE"}, {-30, "CL_INVALID_VALUE"},
		{-33, "CL_INVALID_DEVICE"}, {-34, "CL_INVALID_CONTEXT"},
		{-36, "CL_INVALID_COMMAND_QUEUE"}, {-38, "CL_INVALID_MEM_OBJECT"},
		{-44, "CL_INVALID_PROGRAM"}, {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
		{-46, "CL_INVALID_KERNEL_NAME"}, {-48, "CL_INVALID_KERNEL"},
		{-52, "CL_INVALID_KERNEL_ARGS"}, {-54, "CL_INVALID_WORK_GROUP_SIZE"},
		{-61, "CL_INVALID_BUFFER_SIZE"}, {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].c == e)
			return t[i].n;
	return "CL error";
}

static int cl_load(struct gd_pc *pc, struct gd_cl *cl, char *loaded,
		   size_t lcap)
{
	static const char *const names[] = {"libOpenCL.so.1", "libOpenCL.so",
					    NULL};
#define S(n) {"cl" #n, (void **)&cl->n, 1}
	const struct gd_sym syms[] = {
		S(GetPlatformIDs), S(GetPlatformInfo), S(GetDeviceIDs),
		S(GetDeviceInfo), S(CreateContext), S(ReleaseContext),
		S(CreateCommandQueue), S(ReleaseCommandQueue), S(CreateBuffer),
		S(ReleaseMemObject), S(EnqueueWriteBuffer),
		S(EnqueueReadBuffer), S(EnqueueCopyBuffer), S(EnqueueMapBuffer),
		S(EnqueueUnmapMemObject), S(CreateProgramWithSource),
		S(BuildProgram), S(GetProgramBuildInfo), S(ReleaseProgram),
		S(CreateKernel), S(ReleaseKernel), S(SetKernelArg),
		S(EnqueueNDRangeKernel), S(Finish), S(WaitForEvents),
		S(GetEventProfilingInfo), S(ReleaseEvent), {NULL, NULL, 0},
	};
#undef S
	char searched[600], missing[64];

	gd_pc_phase(pc, "dlopen libOpenCL.so.1");
	cl->lib = gd_pc_dlopen(pc, names, NULL, loaded, lcap, searched,
			       sizeof searched);
	if (!cl->lib) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "OpenCL ICD loader not found: %s",
			  searched);
		return -1;
	}
	if (gd_pc_dlsym(cl->lib, syms, missing, sizeof missing)) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "%s lacks %s", loaded, missing);
		return -1;
	}
	return 0;
}


/* A string property, truncated to cap (the API refuses short buffers). */
static void cl_info(struct gd_cl *cl, cl_device_id d, cl_device_info what,
		    char *out, size_t cap)
{
	char buf[1024] = "";

	cl->GetDeviceInfo(d, what, sizeof buf - 1, buf, NULL);
	buf[sizeof buf - 1] = '\0';
	gd_strlcpy(out, buf, cap);
}

static void cl_describe(struct gd_cl *cl, cl_platform_id p, cl_device_id d,
			int idx, const char *lib, struct gd_probe_device *pd)
{
	cl_device_type type = 0;
	cl_ulong mem = 0;
	char pv[64] = "";

	memset(pd, 0, sizeof *pd);
	pd->index = idx;
	cl_info(cl, d, CL_DEVICE_NAME, pd->name, sizeof pd->name);
	cl_info(cl, d, CL_DRIVER_VERSION, pd->driver, sizeof pd->driver);
	cl_info(cl, d, CL_DEVICE_VERSION, pd->runtime, sizeof pd->runtime);
	cl->GetPlatformInfo(p, CL_PLATFORM_NAME, sizeof pv - 1, pv, NULL);
	cl->GetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
	cl->GetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
	pd->mem_bytes = mem;
	pd->software = (type & CL_DEVICE_TYPE_CPU) != 0;
	if (gd_startswith(pd->name, "gfx")) /* AMD names devices by ISA */
		gd_strlcpy(pd->isa, pd->name, sizeof pd->isa);
	gd_strlcpy(pd->library, lib, sizeof pd->library);
	gd_strlcpy(pd->platform, pv, sizeof pd->platform);
}

static const char *vadd_src =
	"__kernel void vector_add(__global const float *a,\n"
	"                         __global const float *b,\n"
	"                         __global float *c, uint n)\n"
	"{ uint i = get_global_id(0); if (i < n) c[i] = a[i] + b[i]; }\n";

static void cl_build_log(struct gd_cl *cl, cl_program prog, cl_device_id d,
			 char *buf, size_t cap)
{
	buf[0] = '\0';
	cl->GetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, cap - 1, buf,
				NULL);
	buf[cap - 1] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

/* Builds vector_add for the device; on failure why says what failed. */
cl_kernel gd_cl_build_vadd(struct gd_cl *cl, struct cl_dev *d,
			       cl_program *prog, char *why, size_t cap)
{
	char log[400];
	cl_kernel k;
	cl_int e = 0;

	*prog = cl->CreateProgramWithSource(d->ctx, 1, &vadd_src, NULL, &e);
	if (!*prog) {
		gd_fmt(why, cap, "clCreateProgramWithSource: %s (%d)",
		       gd_cl_err(e), e);
		return NULL;
	}
	e = cl->BuildProgram(*prog, 1, &d->id, "", NULL, NULL);
	if (e != CL_SUCCESS) {
		cl_build_log(cl, *prog, d->id, log, sizeof log);
		gd_fmt(why, cap, "clBuildProgram: %s (%d): %s", gd_cl_err(e), e,
		       log);
		return NULL;
	}
	k = cl->CreateKernel(*prog, "vector_add", &e);
	if (!k)
		gd_fmt(why, cap, "clCreateKernel: %s (%d)", gd_cl_err(e), e);
	return k;
}

static void cl_vector_add(struct gd_pc *pc, struct gd_cl *cl,
			  struct cl_dev *d)
{
	float *a = malloc(N_VEC * 4), *b = malloc(N_VEC * 4),
	      *c = malloc(N_VEC * 4), *want = malloc(N_VEC * 4);
	cl_mem ma = NULL, mb = NULL, mc = NULL;
	cl_program prog = NULL;
	cl_kernel k = NULL;
	cl_int e = 0;
	cl_uint n = N_VEC;
	size_t gsz = N_VEC;
	char log[500];

	if (!a || !b || !c || !want) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "out of host memory");
		goto out;
	}
	gd_pc_fill_random(a, N_VEC, 1);
	gd_pc_fill_random(b, N_VEC, 2);
	for (int i = 0; i < N_VEC; i++)
		want[i] = a[i] + b[i];
	gd_pc_phase(pc, "clBuildProgram vector_add");
	k = gd_cl_build_vadd(cl, d, &prog, log, sizeof log);
	if (!k) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "%s", log);
		goto out;
	}
	ma = cl->CreateBuffer(d->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      N_VEC * 4, a, &e);
	mb = cl->CreateBuffer(d->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      N_VEC * 4, b, &e);
	mc = cl->CreateBuffer(d->ctx, CL_MEM_WRITE_ONLY, N_VEC * 4, NULL, &e);
	CL_CHECK(ma && mb && mc ? 0 : e, "clCreateBuffer");
	cl->SetKernelArg(k, 0, sizeof ma, &ma);
	cl->SetKernelArg(k, 1, sizeof mb, &mb);
	cl->SetKernelArg(k, 2, sizeof mc, &mc);
	cl->SetKernelArg(k, 3, sizeof n, &n);
	gd_pc_phase(pc, "launch vector_add");
	CL_CHECK(cl->EnqueueNDRangeKernel(d->q, k, 1, NULL, &gsz, NULL, 0, NULL,
					  NULL), "clEnqueueNDRangeKernel");
	gd_pc_phase(pc, "read back");
	CL_CHECK(cl->EnqueueReadBuffer(d->q, mc, CL_TRUE, 0, N_VEC * 4, c, 0,
				       NULL, NULL), "clEnqueueReadBuffer");
	{
		double err = gd_pc_max_rel_error(c, want, N_VEC);

		gd_pc_end(pc, err == 0 ? GD_PS_OK : GD_PS_WRONG, err,
			  "%d elements checked", N_VEC);
	}
out:
	if (ma)
		cl->ReleaseMemObject(ma);
	if (mb)
		cl->ReleaseMemObject(mb);
	if (mc)
		cl->ReleaseMemObject(mc);
	if (k)
		cl->ReleaseKernel(k);
	if (prog)
		cl->ReleaseProgram(prog);
	free(a);
	free(b);
	free(c);
	free(want);
}

/* Allocation and the copies, each checked by reading back. OpenCL
 * allocates lazily, so alloc_device writes one word to make it real. */
static void cl_memory_ops(struct gd_pc *pc, struct gd_cl *cl,
			  struct cl_dev *d, int dev)
{
	size_t sz = 64u << 20;
	unsigned char *h = malloc(sz), *back = malloc(sz);
	cl_mem m = NULL, pin = NULL;
	cl_int e = 0;

	if (!h || !back)
		goto out;
	for (size_t i = 0; i < sz; i++)
		h[i] = (unsigned char)(i * 7 + 1);
	if (gd_pc_begin(pc, dev, "alloc_device")) {
		gd_pc_phase(pc, "clCreateBuffer 64 MiB");
		m = cl->CreateBuffer(d->ctx, CL_MEM_READ_WRITE, sz, NULL, &e);
		if (m)
			e = cl->EnqueueWriteBuffer(d->q, m, CL_TRUE, 0, 4, h, 0,
						   NULL, NULL);
		if (e)
			gd_pc_end(pc, GD_PS_ERROR, 0, "clCreateBuffer 64 MiB: %s (%d)",
				  gd_cl_err(e), e);
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB");
	}
	if (!m)
		m = cl->CreateBuffer(d->ctx, CL_MEM_READ_WRITE, sz, NULL, &e);
	if (!pc->args->quick && gd_pc_begin(pc, dev, "alloc_pinned")) {
		void *map = NULL;

		gd_pc_phase(pc, "clCreateBuffer ALLOC_HOST_PTR + map");
		pin = cl->CreateBuffer(d->ctx, CL_MEM_ALLOC_HOST_PTR, sz, NULL,
				       &e);
		if (pin)
			map = cl->EnqueueMapBuffer(d->q, pin, CL_TRUE,
						   CL_MAP_WRITE, 0, sz, 0,
						   NULL, NULL, &e);
		if (map) {
			memset(map, 0x5a, sz);
			e = cl->EnqueueUnmapMemObject(d->q, pin, map, 0, NULL,
						      NULL);
			cl->Finish(d->q);
		}
		if (e || !map)
			gd_pc_end(pc, GD_PS_ERROR, 0, "host-visible buffer: %s (%d)",
				  gd_cl_err(e), e);
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB, mapped and written");
	}
	if (!m)
		goto out;
	if (gd_pc_begin(pc, dev, "copy_h2d")) {
		gd_pc_phase(pc, "clEnqueueWriteBuffer 64 MiB blocking");
		e = cl->EnqueueWriteBuffer(d->q, m, CL_TRUE, 0, sz, h, 0, NULL,
					   NULL);
		if (e)
			gd_pc_end(pc, GD_PS_ERROR, 0, "clEnqueueWriteBuffer: %s (%d)",
				  gd_cl_err(e), e);
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB pageable");
	}
	if (gd_pc_begin(pc, dev, "copy_d2h")) {
		gd_pc_phase(pc, "clEnqueueReadBuffer 64 MiB blocking");
		memset(back, 0, sz);
		e = cl->EnqueueReadBuffer(d->q, m, CL_TRUE, 0, sz, back, 0,
					  NULL, NULL);
		if (e)
			gd_pc_end(pc, GD_PS_ERROR, 0, "clEnqueueReadBuffer: %s (%d)",
				  gd_cl_err(e), e);
		else if (memcmp(back, h, sz))
			gd_pc_end(pc, GD_PS_WRONG, 1, "read back differs from what was written");
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB, checked");
	}
	if (!pc->args->quick && gd_pc_begin(pc, dev, "copy_h2d_async")) {
		for (size_t i = 0; i < sz; i += 4096)
			h[i] ^= 0xff;
		gd_pc_phase(pc, "clEnqueueWriteBuffer non-blocking + clFinish");
		e = cl->EnqueueWriteBuffer(d->q, m, CL_FALSE, 0, sz, h, 0, NULL,
					   NULL);
		if (!e)
			e = cl->Finish(d->q);
		if (!e)
			e = cl->EnqueueReadBuffer(d->q, m, CL_TRUE, 0, sz, back,
						  0, NULL, NULL);
		if (e)
			gd_pc_end(pc, GD_PS_ERROR, 0, "async write: %s (%d)",
				  gd_cl_err(e), e);
		else
			gd_pc_end(pc, memcmp(back, h, sz) ? GD_PS_WRONG : GD_PS_OK,
				  0, "64 MiB, checked");
	}
out:
	if (m)
		cl->ReleaseMemObject(m);
	if (pin)
		cl->ReleaseMemObject(pin);
	free(h);
	free(back);
}

static void cl_device_ops(struct gd_pc *pc, struct gd_cl *cl,
			  cl_device_id id, int dev)
{
	struct cl_dev d = {id, NULL, NULL};
	cl_int e = 0;

	gd_pc_phase(pc, "clCreateContext");
	d.ctx = cl->CreateContext(NULL, 1, &id, NULL, NULL, &e);
	if (d.ctx)
		d.q = cl->CreateCommandQueue(d.ctx, id,
					     CL_QUEUE_PROFILING_ENABLE, &e);
	if (!d.q) {
		gd_pc_skip(pc, dev, "alloc_device", GD_PS_ERROR,
			   "clCreateContext/CommandQueue: %s (%d)", gd_cl_err(e), e);
		goto out;
	}
	cl_memory_ops(pc, cl, &d, dev);
	if (gd_pc_begin(pc, dev, "kernel_vector_add"))
		cl_vector_add(pc, cl, &d);
	if (!pc->args->quick) {
		gd_pc_skip(pc, dev, "gemm_fp32", GD_PS_SKIPPED,
			   "no OpenCL BLAS library is probed");
		if (gd_pc_begin(pc, dev, "context_cycle"))
			gd_cl_context_cycle(pc, cl, id);
	}
	if (gd_pc_bench_begin(pc, dev)) {
		gd_cl_bench(pc, cl, &d, dev);
		gd_pc_bench_end(pc);
	}
out:
	if (d.q)
		cl->ReleaseCommandQueue(d.q);
	if (d.ctx)
		cl->ReleaseContext(d.ctx);
}

static int opencl_run(struct gd_pc *pc)
{
	struct gd_cl cl;
	cl_platform_id plats[8];
	cl_device_id devs[8];
	cl_uint np = 0;
	int nd = 0;
	cl_int e;
	char lib[256];

	memset(&cl, 0, sizeof cl);
	gd_pc_begin_always(pc, -1, "init");
	if (cl_load(pc, &cl, lib, sizeof lib))
		return 0;
	gd_pc_phase(pc, "clGetPlatformIDs");
	e = cl.GetPlatformIDs(8, plats, &np);
	if (e || !np) {
		gd_pc_end(pc, GD_PS_ERROR, 0,
			  "clGetPlatformIDs: %s (%d): no OpenCL platform (no ICD "
			  "in /etc/OpenCL/vendors or none loads)",
			  gd_cl_err(e), e);
		return 0;
	}
	for (cl_uint p = 0; p < np && p < 8; p++) {
		cl_uint n = 0;

		gd_pc_phase(pc, "clGetDeviceIDs platform %u", p);
		if (cl.GetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 8 - nd,
				    devs + nd, &n) || !n)
			continue;
		for (cl_uint k = 0; k < n && nd < 8; k++, nd++) {
			struct gd_probe_device pd;

			cl_describe(&cl, plats[p], devs[nd], nd, lib, &pd);
			gd_pc_device(pc, &pd);
		}
	}
	if (!nd) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "%u platform(s) but no device: "
			  "CL_DEVICE_NOT_FOUND", np);
		return 0;
	}
	gd_pc_end(pc, GD_PS_OK, 0, "%u platform(s), %d device(s); %s", np, nd,
		  lib);
	for (int i = 0; i < nd; i++)
		cl_device_ops(pc, &cl, devs[i], i);
	return 0;
}

const struct gd_backend gd_backend_opencl = {
	.name = "opencl",
	.title = "OpenCL",
	.run = opencl_run,
};
