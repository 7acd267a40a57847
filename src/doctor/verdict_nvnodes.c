/* An NVIDIA GPU's own device nodes (discover/access.c: nv_dev, nv_uvm): a
 * container started with other GPUs only has /dev/nvidiactl but not this
 * GPU's /dev/nvidia<minor>; on a host the node, or /dev/nvidia-uvm that
 * CUDA opens for every GPU, can be missing (without nvidia-modprobe, which
 * CUDA runs to create them, a host has no way to; a container never has)
 * or closed to this user. Each is judged for
 * the GPU it belongs to, with the step for where the fix is: how the
 * container is started, or the host. Facts and sources: docs/virtual.md. */
#include "verdict_util.h"

static void not_passed(gd_ctx *ctx, const struct gd_gpu *g, const char *title,
		       struct gd_verdict *v)
{
	const char *id = gd_known(&g->nv.uuid) ? g->nv.uuid.v : NULL;
	int n = g->access.nv_minor;

	v->status = GD_V_SETUP;
	if (g->access.nv_hidden) {
		gd_v_headline(v, title,
			      "not passed into this container (the container "
			      "was given other GPUs)");
		gd_v_fact(v, GD_C_CONTAINER_GPU_NOT_PASSED,
			  "GPU %s: this container's /proc/driver/nvidia/gpus "
			  "has other GPUs' entries but not this one's, as the "
			  "NVIDIA Container Toolkit leaves a GPU it does not "
			  "pass in (--gpus '\"device=...\"', "
			  "NVIDIA_VISIBLE_DEVICES or a CDI device): CUDA here "
			  "does not see this GPU",
			  g->pci.bdf);
	} else {
		gd_v_headline(v, title,
			      "not passed into this container (no "
			      "/dev/nvidia%d; the container was given other "
			      "GPUs)",
			      n);
		gd_v_fact(
		    v, GD_C_CONTAINER_GPU_NOT_PASSED,
		    "GPU %s is /dev/nvidia%d (Device Minor %d in its "
		    "/proc/driver/nvidia information); this container has "
		    "/dev/nvidiactl but not /dev/nvidia%d: it was started with "
		    "other GPUs only (--gpus '\"device=...\"', "
		    "NVIDIA_VISIBLE_DEVICES or a CDI device), so CUDA here "
		    "does "
		    "not see this GPU",
		    g->pci.bdf, n, n, n);
	}
	gd_v_step(v, GD_C_CONTAINER_DOCKER,
		  "Docker: add this GPU to the container's list, --gpus "
		  "'\"device=%s%s\"' (a comma-separated list of indices or "
		  "UUIDs), or --gpus all; with --runtime=nvidia, -e "
		  "NVIDIA_VISIBLE_DEVICES=%s%s",
		  id ? id : "", id ? "" : "INDEX-or-UUID", id ? id : "",
		  id ? "" : "INDEX-or-UUID");
	gd_v_source(v, "nvidia-ctk-docker-specialized");
	gd_v_step(v, GD_C_CONTAINER_CDI,
		  "Podman (CDI): --device nvidia.com/gpu=%s%s (the CDI spec "
		  "names each GPU by index and UUID), or nvidia.com/gpu=all",
		  id ? id : "", id ? "" : "INDEX-or-UUID");
	gd_v_source(v, "nvidia-ctk-cdi");
	gd_v_step(v, GD_C_CONTAINER_KUBERNETES,
		  "Kubernetes: the device plugin chose the pod's GPUs; "
		  "request more (resources: limits: nvidia.com/gpu) if this "
		  "one is needed too");
	gd_v_source(v, "k8s-device-plugin");
	gd_v_workloads_for_stack(ctx, v, "cuda", "needs-setup");
}

/* /dev/nvidia<minor> or /dev/nvidia-uvm missing on the machine itself. */
static void missing(gd_ctx *ctx, const struct gd_gpu *g, const char *title,
		    int uvm, struct gd_verdict *v)
{
	const struct gd_access *a = &g->access;
	char node[32];

	gd_fmt(node, sizeof node, uvm ? "/dev/nvidia-uvm" : "/dev/nvidia%d",
	       a->nv_minor);
	v->status = GD_V_SETUP;
	gd_v_headline(v, title, "%s does not exist%s", node,
		      a->in_container ? " in this container" : "");
	if (a->in_container) {
		gd_v_fact(
		    v, uvm ? GD_C_NVIDIA_UVM_MISSING : GD_C_NVIDIA_NODE_MISSING,
		    "GPU %s (minor %d): %s is not in this container; "
		    "CUDA opens it%s",
		    g->pci.bdf, a->nv_minor, node, uvm ? " for every GPU" : "");
		gd_v_step(v, GD_C_CONTAINER_DOCKER,
			  "Start the container with --gpus (the NVIDIA "
			  "Container Toolkit passes /dev/nvidiactl, the GPU's "
			  "/dev/nvidiaN, /dev/nvidia-uvm and "
			  "/dev/nvidia-uvm-tools), or add --device=%s to a "
			  "--device list; on the host, /dev/nvidia-uvm exists "
			  "only once nvidia-uvm is loaded (sudo "
			  "nvidia-modprobe -u -c=0)",
			  node);
		gd_v_source(v, "nvidia-ctk-install");
	} else {
		gd_v_fact(
		    v, uvm ? GD_C_NVIDIA_UVM_MISSING : GD_C_NVIDIA_NODE_MISSING,
		    "GPU %s is driven as minor %d, but %s does not exist "
		    "and nvidia-modprobe, which CUDA runs (setuid root) to "
		    "create it, is not installed%s",
		    g->pci.bdf, a->nv_minor, node,
		    uvm ? "; /dev/nvidia-uvm exists only once the "
			  "nvidia-uvm module is loaded"
			: "");
		gd_v_step(
		    v, uvm ? GD_C_NVIDIA_UVM_MISSING : GD_C_NVIDIA_NODE_MISSING,
		    "Install nvidia-modprobe (NVIDIA's driver packages and the "
		    "distributions' carry it, setuid root): CUDA runs it to "
		    "create the nodes on first use; or once as root: sudo "
		    "nvidia-modprobe -u -c=%d (loads nvidia-uvm and creates "
		    "/dev/nvidia%d and /dev/nvidia-uvm)",
		    a->nv_minor, a->nv_minor);
	}
	gd_v_workloads_for_stack(ctx, v, "cuda", "needs-setup");
}

static void no_access(gd_ctx *ctx, const struct gd_gpu *g, const char *title,
		      struct gd_verdict *v)
{
	const struct gd_access *a = &g->access;

	v->status = GD_V_SETUP;
	gd_v_headline(v, title, "this user cannot open the GPU's device node");
	gd_v_fact(v, GD_C_NVIDIA_NODE_ACCESS, "GPU %s: %s", g->pci.bdf,
		  a->nv_why);
	if (a->nv_group[0])
		gd_v_step(v, GD_C_NVIDIA_NODE_ACCESS,
			  a->in_container
			      ? "Run the container's process in group %s "
				"(--group-add %s)"
			      : "sudo usermod -aG %s $USER, then log out and "
				"back in%s",
			  a->nv_group, a->in_container ? a->nv_group : "");
	else
		gd_v_step(
		    v, GD_C_NVIDIA_NODE_ACCESS,
		    "On the host, give the nodes the driver's default "
		    "mode 0666: remove the udev rule or the nvidia "
		    "module options NVreg_DeviceFileMode / "
		    "NVreg_DeviceFileGID that narrow it (/etc/modprobe.d), "
		    "or run as root");
	gd_v_workloads_for_stack(ctx, v, "cuda", "needs-setup");
}

int gd_v_nvidia_nodes(gd_ctx *ctx, const struct gd_gpu *g, const char *title,
		      struct gd_verdict *v)
{
	const struct gd_access *a = &g->access;

	if (a->nv_dev == 0 && a->in_container && a->nv_nodes == 1)
		not_passed(ctx, g, title, v);
	else if ((a->nv_dev == 0 || a->nv_uvm == 0) &&
		 (a->in_container || !a->nv_modprobe))
		missing(ctx, g, title, a->nv_dev != 0, v);
	else if (a->nv_dev == 2 || a->nv_uvm == 2)
		no_access(ctx, g, title, v);
	else
		return 0;
	return 1;
}
