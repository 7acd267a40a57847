/* An NVIDIA GPU seen from inside a container. The host's sysfs shows the
 * GPU bound to nvidia, but CUDA needs /dev/nvidiactl and /dev/nvidia<N>
 * and the driver's libcuda.so.1 inside the container: the NVIDIA
 * Container Toolkit (Docker --gpus, the nvidia runtime) or a CDI spec
 * (Podman, Docker 25+, Kubernetes' device plugin) passes them in. Without
 * them the GPU is there but unusable, and the fix is how the container is
 * started, never a driver install in it. The flags and their sources are
 * the table below; facts and sources: docs/virtual.md. */
#include <string.h>

#include "inventory/ldpath.h"
#include "verdict.h"
#include "verdict_util.h"

struct ctr_way {
	enum gd_code code;
	const char *text;
	const char *source; /* kb sources id */
};

/* How each engine passes an NVIDIA GPU in (NVIDIA Container Toolkit's
 * install guide, CDI page, k8s-device-plugin README: docs/virtual.md). */
static const struct ctr_way ctr_ways[] = {
    {GD_C_CONTAINER_DOCKER,
     "Docker: start the container with --gpus all (docker run --gpus all "
     "IMAGE); the host needs the NVIDIA Container Toolkit (package "
     "nvidia-container-toolkit) registered with Docker: sudo nvidia-ctk "
     "runtime configure --runtime=docker, then sudo systemctl restart "
     "docker",
     "nvidia-ctk-install"},
    {GD_C_CONTAINER_CDI,
     "Podman (or another CDI engine): generate the CDI spec on the host "
     "(sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml) and "
     "start the container with --device nvidia.com/gpu=all",
     "nvidia-ctk-cdi"},
    {GD_C_CONTAINER_KUBERNETES,
     "Kubernetes: request the GPU in the pod spec (resources: limits: "
     "nvidia.com/gpu: 1), with NVIDIA's device plugin or GPU Operator on "
     "the node",
     "k8s-device-plugin"},
};

static void no_gpu(gd_ctx *ctx, const struct gd_gpu *g, const char *title,
		   struct gd_verdict *v)
{
	v->status = GD_V_SETUP;
	gd_v_headline(v, title,
		      "this container was started without the GPU (no "
		      "/dev/nvidiactl here)");
	gd_v_fact(v, GD_C_CONTAINER_NO_GPU,
		  "In a container: the host's driver drives %s (sysfs says "
		  "nvidia), but /dev/nvidiactl is not in this container, so "
		  "CUDA finds no device; the driver is not to be installed "
		  "here",
		  g->pci.bdf);
	for (size_t i = 0; i < sizeof ctr_ways / sizeof *ctr_ways; i++) {
		gd_v_step(v, ctr_ways[i].code, "%s", ctr_ways[i].text);
		gd_v_source(v, ctr_ways[i].source);
	}
	gd_v_workloads_for_stack(ctx, v, "cuda", "needs-setup");
}

static void no_libcuda(gd_ctx *ctx, const struct gd_gpu *g, const char *title,
		       struct gd_verdict *v)
{
	const char *caps = g->access.nv_caps;

	v->status = GD_V_SETUP;
	gd_v_headline(v, title,
		      "the GPU is passed into this container, but the "
		      "driver's libcuda.so.1 is not");
	gd_v_fact(v, GD_C_CONTAINER_NO_LIBCUDA,
		  "/dev/nvidiactl is here, libcuda.so.1 is not: the NVIDIA "
		  "Container Toolkit mounts the driver's libraries only for "
		  "the capabilities NVIDIA_DRIVER_CAPABILITIES names "
		  "(compute for CUDA, utility for nvidia-smi; now %s%s%s), "
		  "and only under the nvidia runtime, --gpus or CDI",
		  caps[0] ? "'" : "", caps[0] ? caps : "unset: utility only",
		  caps[0] ? "'" : "");
	gd_v_step(v, GD_C_CONTAINER_NO_LIBCUDA,
		  "Start the container with -e "
		  "NVIDIA_DRIVER_CAPABILITIES=compute,utility and --gpus all "
		  "(or --runtime=nvidia, or --device nvidia.com/gpu=all with "
		  "CDI); do not install the driver inside the image");
	gd_v_source(v, "nvidia-ctk-docker-specialized");
	gd_v_workloads_for_stack(ctx, v, "cuda", "needs-setup");
}

/* libcuda.so.1 where the loader looks (ld.so.conf, its cache, the default
 * folders): discovery looked only in the folders the toolkit mounts it
 * into, so a library elsewhere is not taken for a missing one. */
static int libcuda_loadable(gd_ctx *ctx)
{
	struct gd_ld_dirs ld = {0};
	char p[1024];
	int found;

	gd_ld_dirs_collect(ctx, &ld);
	found = gd_ld_find(ctx, &ld, "libcuda.so.1", p, sizeof p) >= 0;
	gd_ld_dirs_free(&ld);
	return found;
}

int gd_v_nvidia_container(gd_ctx *ctx, const struct gd_gpu *g,
			  const char *title, struct gd_verdict *v)
{
	if (!g->access.in_container)
		return 0;
	if (g->access.nv_nodes == 0) {
		no_gpu(ctx, g, title, v);
		return 1;
	}
	if (g->access.nv_nodes == 1 && g->access.nv_libcuda == 0 &&
	    !libcuda_loadable(ctx)) {
		no_libcuda(ctx, g, title, v);
		return 1;
	}
	return 0;
}
