/* probe/backend_opencl: the OpenCL op matrix through the ICD loader opened
 * at run time. No OpenCL BLAS/DNN is probed: gemm and conv are reported as
 * skipped so the matrix stays comparable across backends. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "device.h"
#include "opencl_api.h"

#define GD_CL_PLATFORM_NOT_FOUND_KHR (-1001) /* cl_khr_icd (docs/probe.md) */

const char *gd_cl_err(cl_int e)
{
	static const struct {
		cl_int c;
		const char *n;
	} t[] = {
	    {-1, "CL_DEVICE_NOT_FOUND"},
	    {-2, "CL_DEVICE_NOT_AVAILABLE"},
	    {-3, "CL_COMPILER_NOT_AVAILABLE"},
	    {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
	    {-5, "CL_OUT_OF_RESOURCES"},
	    {-6, "CL_OUT_OF_HOST_MEMORY"},
	    {-11, "CL_BUILD_PROGRAM_FAILURE"},
	    {-30, "CL_INVALID_VALUE"},
	    {-33, "CL_INVALID_DEVICE"},
	    {-34, "CL_INVALID_CONTEXT"},
	    {-36, "CL_INVALID_COMMAND_QUEUE"},
	    {-38, "CL_INVALID_MEM_OBJECT"},
	    {-44, "CL_INVALID_PROGRAM"},
	    {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
	    {-46, "CL_INVALID_KERNEL_NAME"},
	    {-48, "CL_INVALID_KERNEL"},
	    {-52, "CL_INVALID_KERNEL_ARGS"},
	    {-54, "CL_INVALID_WORK_GROUP_SIZE"},
	    {-61, "CL_INVALID_BUFFER_SIZE"},
	    {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].c == e)
			return t[i].n;
	return "CL error";
}

static int cl_load(struct gd_pc *pc, struct gd_cl *cl, char *loaded,
		   size_t lcap)
{
	const char *const *names = gd_lib_names(GD_LIB_OPENCL);
#define S(n)                                                                   \
	{                                                                      \
		"cl" #n, (void **)&cl->n, 1                                    \
	}
	const struct gd_sym syms[] = {
	    S(GetPlatformIDs),
	    S(GetPlatformInfo),
	    S(GetDeviceIDs),
	    S(GetDeviceInfo),
	    S(CreateContext),
	    S(ReleaseContext),
	    S(CreateCommandQueue),
	    S(ReleaseCommandQueue),
	    S(CreateBuffer),
	    S(ReleaseMemObject),
	    S(EnqueueWriteBuffer),
	    S(EnqueueReadBuffer),
	    S(EnqueueCopyBuffer),
	    S(EnqueueMapBuffer),
	    S(EnqueueUnmapMemObject),
	    S(CreateProgramWithSource),
	    S(BuildProgram),
	    S(GetProgramBuildInfo),
	    S(ReleaseProgram),
	    S(CreateKernel),
	    S(ReleaseKernel),
	    S(SetKernelArg),
	    S(EnqueueNDRangeKernel),
	    S(Finish),
	    S(WaitForEvents),
	    S(GetEventProfilingInfo),
	    S(ReleaseEvent),
	    {"clEnqueueFillBuffer", (void **)&cl->EnqueueFillBuffer, 0},
	    {NULL, NULL, 0},
	};
#undef S
	char searched[600], missing[64];

	gd_pc_phase(pc, "dlopen libOpenCL.so.1");
	cl->lib = gd_pc_dlopen(pc, names, NULL, loaded, lcap, searched,
			       sizeof searched);
	if (!cl->lib) {
		gd_pc_end(pc, GD_PS_MISSING, 0,
			  "OpenCL ICD loader not found: %s", searched);
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
cl_kernel gd_cl_build_vadd(struct gd_cl *cl, struct cl_dev *d, cl_program *prog,
			   char *why, size_t cap)
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

static void cl_device_ops(struct gd_pc *pc, struct gd_cl *cl, cl_device_id id,
			  int dev)
{
	struct cl_dev d = {cl, id, NULL, NULL, NULL, 0};
	cl_int e = 0;

	gd_pc_phase(pc, "clCreateContext");
	d.ctx = cl->CreateContext(NULL, 1, &id, NULL, NULL, &e);
	if (d.ctx)
		d.q = cl->CreateCommandQueue(d.ctx, id,
					     CL_QUEUE_PROFILING_ENABLE, &e);
	if (!d.q) {
		gd_pc_setup_failed(pc, dev,
				   "clCreateContext/CommandQueue: "
				   "%s (%d)",
				   gd_cl_err(e), e);
		goto out;
	}
	gd_dev_memory_ops(pc, &gd_cl_devops, &d, dev);
	if (gd_pc_begin(pc, dev, GD_OP_KERNEL_VECTOR_ADD))
		gd_dev_vector_add(pc, &gd_cl_devops, &d);
	if (!pc->args->quick) /* --quick: no row for what is not probed */
		gd_pc_skip(pc, dev, GD_OP_GEMM_FP32, GD_PS_SKIPPED,
			   "no OpenCL BLAS library is probed");
	if (gd_pc_begin(pc, dev, GD_OP_CONTEXT_CYCLE))
		gd_cl_context_cycle(pc, cl, id);
	if (gd_pc_bench_begin(pc, dev)) {
		gd_dev_bench(pc, &gd_cl_devops, &d, dev);
		gd_pc_bench_end(pc);
	}
out:
	if (d.ev)
		cl->ReleaseEvent(d.ev);
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
	cl_int e, bad = 0;
	char lib[256];

	memset(&cl, 0, sizeof cl);
	gd_pc_begin_always(pc, -1, GD_OP_INIT);
	if (cl_load(pc, &cl, lib, sizeof lib))
		return 0;
	gd_pc_phase(pc, "clGetPlatformIDs");
	e = cl.GetPlatformIDs(8, plats, &np);
	if (e || !np) { /* the ICD loader's "no platform": -1001 or 0 */
		gd_pc_end(
		    pc,
		    !np && (!e || e == GD_CL_PLATFORM_NOT_FOUND_KHR)
			? GD_PS_NODEVICE
			: GD_PS_ERROR,
		    0,
		    "clGetPlatformIDs: %s (%d): no OpenCL platform (no ICD "
		    "in /etc/OpenCL/vendors or none loads)",
		    gd_cl_err(e), e);
		return 0;
	}
	for (cl_uint p = 0; p < np && p < 8; p++) {
		cl_uint n = 0;

		gd_pc_phase(pc, "clGetDeviceIDs platform %u", p);
		e = cl.GetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 8 - nd,
				    devs + nd, &n);
		if (e && e != CL_DEVICE_NOT_FOUND && !bad)
			bad = e;
		if (e || !n)
			continue;
		for (cl_uint k = 0; k < n && nd < 8; k++, nd++) {
			struct gd_probe_device pd;

			cl_describe(&cl, plats[p], devs[nd], nd, lib, &pd);
			gd_pc_device(pc, &pd);
		}
	}
	if (!nd) { /* no device: CL_DEVICE_NOT_FOUND (or 0) everywhere */
		e = bad ? bad : CL_DEVICE_NOT_FOUND;
		gd_pc_end(pc, bad ? GD_PS_ERROR : GD_PS_NODEVICE, 0,
			  "%u platform(s) but no device: %s (%d)", np,
			  gd_cl_err(e), e);
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
