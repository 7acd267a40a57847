/* probe/opencl_api: the OpenCL 1.2 entry points the probe uses, as
 * pointers filled from the ICD loader (libOpenCL.so.1) opened at run time.
 * Types come from the Khronos headers (Debian opencl-headers); nothing is
 * linked. */
#ifndef GD_OPENCL_API_H
#define GD_OPENCL_API_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

struct gd_cl {
	void *lib;
	cl_int (*GetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
	cl_int (*GetPlatformInfo)(cl_platform_id, cl_platform_info, size_t,
				  void *, size_t *);
	cl_int (*GetDeviceIDs)(cl_platform_id, cl_device_type, cl_uint,
			       cl_device_id *, cl_uint *);
	cl_int (*GetDeviceInfo)(cl_device_id, cl_device_info, size_t, void *,
				size_t *);
	cl_context (*CreateContext)(const cl_context_properties *, cl_uint,
				    const cl_device_id *,
				    void (*)(const char *, const void *, size_t,
					     void *),
				    void *, cl_int *);
	cl_int (*ReleaseContext)(cl_context);
	cl_command_queue (*CreateCommandQueue)(cl_context, cl_device_id,
					       cl_command_queue_properties,
					       cl_int *);
	cl_int (*ReleaseCommandQueue)(cl_command_queue);
	cl_mem (*CreateBuffer)(cl_context, cl_mem_flags, size_t, void *,
			       cl_int *);
	cl_int (*ReleaseMemObject)(cl_mem);
	cl_int (*EnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_bool, size_t,
				     size_t, const void *, cl_uint,
				     const cl_event *, cl_event *);
	cl_int (*EnqueueReadBuffer)(cl_command_queue, cl_mem, cl_bool, size_t,
				    size_t, void *, cl_uint, const cl_event *,
				    cl_event *);
	cl_int (*EnqueueCopyBuffer)(cl_command_queue, cl_mem, cl_mem, size_t,
				    size_t, size_t, cl_uint, const cl_event *,
				    cl_event *);
	void *(*EnqueueMapBuffer)(cl_command_queue, cl_mem, cl_bool,
				  cl_map_flags, size_t, size_t, cl_uint,
				  const cl_event *, cl_event *, cl_int *);
	cl_int (*EnqueueUnmapMemObject)(cl_command_queue, cl_mem, void *,
					cl_uint, const cl_event *, cl_event *);
	cl_program (*CreateProgramWithSource)(cl_context, cl_uint,
					      const char **, const size_t *,
					      cl_int *);
	cl_int (*BuildProgram)(cl_program, cl_uint, const cl_device_id *,
			       const char *, void (*)(cl_program, void *),
			       void *);
	cl_int (*GetProgramBuildInfo)(cl_program, cl_device_id,
				      cl_program_build_info, size_t, void *,
				      size_t *);
	cl_int (*ReleaseProgram)(cl_program);
	cl_kernel (*CreateKernel)(cl_program, const char *, cl_int *);
	cl_int (*ReleaseKernel)(cl_kernel);
	cl_int (*SetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
	cl_int (*EnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint,
				       const size_t *, const size_t *,
				       const size_t *, cl_uint,
				       const cl_event *, cl_event *);
	cl_int (*Finish)(cl_command_queue);
	cl_int (*WaitForEvents)(cl_uint, const cl_event *);
	cl_int (*GetEventProfilingInfo)(cl_event, cl_profiling_info, size_t,
					void *, size_t *);
	cl_int (*ReleaseEvent)(cl_event);
	cl_int (*EnqueueFillBuffer)(cl_command_queue, cl_mem, const void *,
				    size_t, size_t, size_t, cl_uint,
				    const cl_event *, cl_event *); /* 1.2 */
};

/* One device under test: the state behind the primitives. */
struct cl_dev {
	struct gd_cl *cl;
	cl_device_id id;
	cl_context ctx;
	cl_command_queue q; /* in order, with profiling */
	cl_event ev;	    /* of the command being timed */
	int timing;	    /* between timer_start and timer_stop */
};

/* "CL_DEVICE_NOT_FOUND" ... */
const char *gd_cl_err(cl_int e);
/* vector_add built for the device; NULL with why on failure. */
cl_kernel gd_cl_build_vadd(struct gd_cl *cl, struct cl_dev *d, cl_program *prog,
			   char *why, size_t cap);
/* backend_opencl_bench.c */
struct gd_pc;
void gd_cl_context_cycle(struct gd_pc *pc, struct gd_cl *cl, cl_device_id id);

/* backend_opencl_dev.c: the device primitives (device.h); be is the
 * struct cl_dev. */
struct gd_devops;
extern const struct gd_devops gd_cl_devops;

#endif
