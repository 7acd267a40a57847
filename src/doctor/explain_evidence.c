/* explain: evidence over symptom. A signature that names the common cause of
 * a symptom ("no CUDA device", "no kernel image", "no ROCm device") is
 * checked against the log's other lines: a container, WSL2, macOS, the CUDA
 * the driver supports against the CUDA the program was built with. When a
 * set-up cause fits too, the match says so ("alternative"): first the one
 * the log's own lines point to, and what tells the two apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "explain.h"

struct marks {
	int container, wsl;
	int gpu_asked;	     /* the log starts its container with the GPU */
	unsigned want, seen; /* marker_rules[] to look for; found, a bit each */
	int container_here, wsl_here; /* said by this machine, not the log */
	int drv_cuda, built_cuda;     /* major*10+minor, 0 unknown */
};

static const char *find(const char *b, size_t n, const char *w)
{
	return memmem(b, n, w, strlen(w));
}

/* A cause only the log's own lines point to: a match of one of ids gets
 * text as its alternative when the log holds one of markers. */
struct marker_rule {
	const char *const *ids, *const *markers;
	const char *alt_id, *text;
};

static const char *const no_lib[] = {"cudnn-win-load-error",
				     "cuda-libs-missing", NULL};
/* PaddlePaddle's own version check warns so; often harmless
 * (docs/workarounds.md), so it is evidence, not a signature */
static const char *const paddle_cudnn[] = {
    "The installed Paddle is compiled with CUDNN", NULL};
static const char *const no_vk[] = {"vk-incompatible-driver",
				    "vk-icd-no-create-instance", NULL};
/* VK_MVK_macos_surface and VK_EXT_metal_surface are the Vulkan registry's
 * macOS (Metal) surface extensions: a program that lists them when it
 * creates its instance runs on macOS (docs/workarounds.md). */
static const char *const macos[] = {"MoltenVK",
				    "macOS",
				    "Darwin",
				    "Mac OS X",
				    ".dylib",
				    "homebrew",
				    "Apple M1",
				    "Apple M2",
				    "Apple M3",
				    "Apple M4",
				    "VK_MVK_macos_surface",
				    "VK_EXT_metal_surface",
				    NULL};

/* rocminfo decides "ROCk module is NOT loaded" from lsmod (or
 * /sys/module/amdgpu) and goes on: its later lines show whether the
 * kernel driver is there after all (docs/workarounds.md). */
static const char *const no_rock[] = {"rocm-kfd-not-loaded", NULL};
static const char *const no_lsmod[] = {"lsmod: not found",
				       "lsmod: command not found", NULL};
static const char *const kfd_open[] = {"Able to open /dev/kfd read-write",
				       "HSA Agents", NULL};

/* nvidia-smi or the kernel saying the GPU fell off: "no device" and "busy"
 * after it are its consequences, not a set-up to repair. */
static const char *const nv_gone[] = {"cuda-no-device",
				      "cuda-devices-unavailable",
				      "nvml-driver-not-loaded", NULL};
static const char *const gpu_lost[] = {"GPU is lost", "fallen off the bus",
				       NULL};

/* nvidia-smi is mounted into a container only when it gets the GPU with
 * the utility capability (docs/workarounds.md). Lines that start or run a
 * container, not the bare word: a host's diagnostics say "Docker detected
 * (0 means not installed)". */
static const char *const no_smi[] = {"nvidia-smi-not-found", NULL};
static const char *const ctr_run[] = {"docker run",	  "docker exec",
				      "docker compose",	  "kubectl",
				      "podman run",	  "container starting",
				      "/.dockerenv",	  "entrypoint.sh",
				      "runtimeClassName", NULL};

/* hipcc ends a failed command with "failed to execute:" (the perl and the
 * C++ hipcc alike) and runs $CUDA_PATH/bin/nvcc only on the NVIDIA
 * platform, so that nvcc missing is hipcc's platform choice
 * (docs/workarounds.md). */
static const char *const no_nvcc[] = {"cuda-toolkit-not-found", NULL};
static const char *const hipcc_nvcc[] = {
    "failed to execute:/usr/local/cuda/bin/nvcc",
    "failed to execute:/opt/cuda/bin/nvcc", NULL};

/* A Jetson's driver comes with JetPack (L4T); CUDA libraries built for
 * arm64 servers (SBSA) do not run on its GPU (docs/workarounds.md). */
static const char *const ptx_old[] = {"cuda-ptx-toolchain", NULL};
static const char *const jetson[] = {"Jetson",	"/tegra/",  "Tegra",	 "L4T",
				     "JetPack", "AGX Orin", "Orin Nano", NULL};

/* rocWMMA's config.hpp stops a target it does not list; clang names the
 * target ("1 error generated when compiling for gfx906."). GCN before
 * gfx908 and RDNA 1/2 have no matrix instructions, so no rocWMMA will list
 * them (docs/workarounds.md, "Sources of the messages the tests replay"). */
static const char *const wmma_arch[] = {"rocwmma-unsupported-arch", NULL};
static const char *const no_matrix[] = {"compiling for gfx6",
					"compiling for gfx7",
					"compiling for gfx8",
					"compiling for gfx900",
					"compiling for gfx902",
					"compiling for gfx904",
					"compiling for gfx906",
					"compiling for gfx909",
					"compiling for gfx90c",
					"compiling for gfx10",
					NULL};

/* ollama installs the ROCm libraries of its ROCm backend (rocBLAS and
 * hipBLASLt with their kernel directories) into lib/ollama/rocm, its
 * CMakeLists.txt's OLLAMA_HIP_INSTALL_DIR: a hipBLASLt kernel library
 * missing there is missing from the ROCm that ollama release bundles, not
 * from the system's (docs/workarounds.md). */
static const char *const no_lt_lib[] = {"hipblaslt-no-library", NULL};
static const char *const ollama_rocm[] = {"ollama/rocm/hipblaslt/",
					  "ollama\\rocm\\hipblaslt\\", NULL};
/* MLX's "Failed to load the default metallib." is followed by the NSError
 * of each attempt; Metal's own "This library is using language version X.Y
 * which is not supported on this OS." there means the metallib was found
 * but is built for a newer macOS (docs/workarounds.md). */
static const char *const no_metallib[] = {"mlx-metallib-not-found", NULL};
static const char *const msl_newer[] = {"is using language version", NULL};

static const struct marker_rule marker_rules[] = {
    {nv_gone, gpu_lost, "gpu-lost-in-log",
     "more likely here: the log also says the GPU was lost (fell off the "
     "bus), so the CUDA error is its consequence: power, heat, the PCIe "
     "link or failing hardware (a reboot brings it back for a while). "
     "Tells them apart: nvidia-smi reports the GPU lost or dmesg shows Xid "
     "79."},
    {no_nvcc, hipcc_nvcc, "hipcc-nvidia-platform",
     "more likely here: hipcc ran nvcc, so it took the NVIDIA platform "
     "(HIP_PLATFORM=nvidia, or unset while it found no ROCm clang): for an "
     "AMD GPU set HIP_PLATFORM=amd and ROCM_PATH to the ROCm with "
     "llvm/bin/clang++; for HIP on NVIDIA install the CUDA toolkit. Tells "
     "them apart: hipconfig --platform."},
    {no_rock, no_lsmod, "rocminfo-no-lsmod",
     "more likely here: lsmod is missing (a container image without kmod), "
     "so rocminfo cannot see the amdgpu module even when it is loaded; "
     "the GPU may well work (install kmod in the image to silence it). "
     "Tells them apart: rocminfo goes on to list the GPU as an HSA agent."},
    {no_rock, kfd_open, "rocminfo-kfd-present",
     "more likely here: rocminfo went on to open /dev/kfd (or list HSA "
     "agents), so the kernel driver is there; its module check fails when "
     "amdgpu is built into the kernel or lsmod is missing, and the message "
     "is harmless. Tells them apart: your GPU is listed as an agent."},
    {no_lib, paddle_cudnn, "cudnn-older-than-build",
     "the log says Paddle was compiled with a newer cuDNN than the "
     "machine's: install the cuDNN it names, or the Paddle build made for "
     "the machine's cuDNN. Tells them apart: the cuDNN DLLs are on PATH but "
     "of the older version."},
    {no_vk, macos, "moltenvk-portability",
     "more likely here: the log is from macOS, where Vulkan is MoltenVK, "
     "which the Vulkan loader (1.3.216 and later) shows only to programs "
     "that enable VK_KHR_portability_enumeration and set "
     "VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR; the program must do "
     "that (update it or report it). Tells them apart: vulkaninfo lists the "
     "GPU but the program fails."},
    {no_smi, ctr_run, "container-no-gpu-runtime",
     "more likely here: the log is from a container, which gets nvidia-smi "
     "only when started with the GPU (docker run --gpus all, or the nvidia "
     "runtime with NVIDIA_DRIVER_CAPABILITIES including utility; "
     "Kubernetes: runtimeClassName nvidia and a nvidia.com/gpu limit). "
     "Tells them apart: nvidia-smi works on the host but not inside the "
     "container."},
    {wmma_arch, no_matrix, "rocwmma-no-matrix-cores",
     "more likely here: the target being compiled (gfx906 or older GCN, or "
     "RDNA 1/2: gfx10xx) has no matrix (MFMA/WMMA) instructions, so no "
     "rocWMMA release supports it, newer or not: build without rocWMMA for "
     "it or leave it out of the target list. Tells them apart: the gfx "
     "target in clang's 'when compiling for' line."},
    {no_lt_lib, ollama_rocm, "ollama-bundled-rocm",
     "more likely here: the kernel library missing is in ollama's own ROCm "
     "bundle (lib/ollama/rocm), so the ROCm this ollama release ships has "
     "no kernels for the GPU's gfx target: use an ollama release or image "
     "whose bundled ROCm has the target, or the Vulkan backend; while "
     "ollama still answers on the GPU it is only a warning. Tells them "
     "apart: ollama's log of the GPU it found and the library it runs."},
    {no_metallib, msl_newer, "metallib-language-too-new",
     "more likely here: Metal says the metallib uses a language version "
     "this macOS does not support, so the library is there but was built "
     "for a newer macOS (Metal 4.0 needs macOS 26): upgrade macOS or use a "
     "build whose metallib targets this one. Tells them apart: the "
     "'language version' line after the failure."},
    {ptx_old, jetson, "jetson-server-cuda",
     "more likely here: the log is from a Jetson, whose driver comes with "
     "JetPack (L4T) and is not updated on its own; a program built against "
     "the CUDA libraries for arm64 servers (SBSA) instead of JetPack's does "
     "not run on its GPU: use a build made for this JetPack, or build it on "
     "the Jetson. Tells them apart: the same program built on the Jetson "
     "runs."},
};
#define GD_N_MARKER_RULES (sizeof marker_rules / sizeof *marker_rules)

static int any(const char *b, size_t n, const char *const *w)
{
	for (; *w; w++)
		if (find(b, n, *w))
			return 1;
	return 0;
}

/* "12.2" after the marker: 122; 0 when none. */
static int version_after(const char *b, size_t n, const char *mark)
{
	const char *p = find(b, n, mark);
	unsigned maj, min;

	if (!p)
		return 0;
	p += strlen(mark);
	while ((size_t)(p - b) < n && *p == ' ')
		p++;
	if ((size_t)(b + n - p) < 3 || sscanf(p, "%2u.%1u", &maj, &min) != 2)
		return 0;
	return (int)(maj * 10 + min);
}

/* "+cu121" in a PyTorch version: 121. */
static int torch_cuda(const char *b, size_t n)
{
	const char *p = find(b, n, "+cu");
	unsigned v;

	if (!p || (size_t)(b + n - p) < 6 || sscanf(p + 3, "%3u", &v) != 1 ||
	    v < 90)
		return 0;
	return (int)v;
}

/* "2024-06-10T10:42:32.734513517Z ": the time stamp docker logs -t and
 * kubectl logs --timestamps put before each line (RFC 3339, nanoseconds). */
static int stamp_at(const char *p, const char *end)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddddddddZ ";

	if ((size_t)(end - p) < sizeof shape - 1)
		return 0;
	for (size_t i = 0; i < sizeof shape - 1; i++)
		if (shape[i] == 'd' ? p[i] < '0' || p[i] > '9'
				    : p[i] != shape[i])
			return 0;
	return 1;
}

/* Any of the first lines stamped so: the log came from a container. */
static int container_stamped(const char *b, size_t n)
{
	const char *p = b, *end = b + n;

	for (int i = 0; i < 16 && p < end; i++) {
		if (stamp_at(p, end))
			return 1;
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			break;
		p++;
	}
	return 0;
}

/* A container started so has asked for the GPU (nvidia-docker run mounts
 * the driver and devices itself; --gpus and the nvidia runtime have the
 * toolkit do it): "started without the GPU" is then not the cause. The
 * flags count only on the line that starts the container: "--gpus 1" is
 * also PyTorch Lightning's and many trainers' own option. */
static const char *const gpu_flags[] = {
    "--gpus ", "--gpus=", "--runtime=nvidia", "--runtime nvidia", NULL};
static const char *const starts_container[] = {"docker", "podman", "nerdctl",
					       NULL};

static int gpu_asked(const char *b, size_t n)
{
	const char *end = b + n;

	if (find(b, n, "nvidia-docker run"))
		return 1;
	for (const char *const *f = gpu_flags; *f; f++) {
		const char *p = b;

		while (p < end && (p = find(p, (size_t)(end - p), *f))) {
			const char *ls = p, *le;

			while (ls > b && ls[-1] != '\n')
				ls--;
			le = memchr(p, '\n', (size_t)(end - p));
			if (!le)
				le = end;
			if (any(ls, (size_t)(le - ls), starts_container))
				return 1;
			p = le;
		}
	}
	return 0;
}

static void marks_of(const char *b, size_t n, struct marks *m)
{
	static const char *const container[] = {"docker",
						"Docker",
						"container",
						"kubernetes",
						"k8s",
						"/.dockerenv",
						"podman",
						"nvidia-container",
						"NVIDIA_VISIBLE",
						"singularity",
						NULL};
	static const char *const wsl[] = {"WSL", "microsoft-standard",
					  "/dev/dxg", "wsl", NULL};
	int v;

	m->container |= any(b, n, container) || container_stamped(b, n);
	m->wsl |= any(b, n, wsl);
	if (!m->gpu_asked)
		m->gpu_asked = gpu_asked(b, n);
	for (unsigned i = 0; i < GD_N_MARKER_RULES; i++)
		if ((m->want & ~m->seen) >> i & 1 &&
		    any(b, n, marker_rules[i].markers))
			m->seen |= 1u << i;
	if (!m->drv_cuda)
		m->drv_cuda = version_after(b, n, "CUDA Version:");
	if (!m->built_cuda && (v = torch_cuda(b, n)))
		m->built_cuda = v;
	if (!m->built_cuda)
		m->built_cuda =
		    version_after(b, n, "Cuda compilation tools, release ");
}

static int is_one_of(const char *id, const char *const *ids)
{
	for (; *ids; ids++)
		if (!strcmp(id, *ids))
			return 1;
	return 0;
}

/* The machine's set-up, when the log or this machine shows it: a container
 * or WSL2 is then the likelier cause of "no GPU" (its own checks differ).
 * cudart answers "driver version is insufficient" (35) also when it finds
 * no libcuda at all, as in a container started without the GPU. */
static const char *const no_nv[] = {"cuda-no-device", "nvidia-driver-missing",
				    "ollama-no-gpu", "cuda-driver-insufficient",
				    NULL};
static const char *const wsl_nv[] = {
    "cuda-no-device",	      "cuda-devices-unavailable",
    "cuda-unknown-error-uvm", "nvidia-driver-missing",
    "nvidia-smi-no-driver",   NULL};
static const char *const no_kfd[] = {"rocm-no-device",
				     "kfd-permission",
				     "kfd-open-failed",
				     "kfd-not-supported",
				     "hip-hsa-init-failed",
				     "hsa-out-of-resources",
				     NULL};

static const struct setup_rule {
	int wsl; /* 1: WSL2, 0: a container */
	const char *const *ids;
	const char *alt_id, *text;
} setup_rules[] = {
    {1, no_kfd, "wsl-no-kfd",
     ", which has no /dev/kfd: ROCm there goes through /dev/dxg with AMD's "
     "WSL driver and the ROCm for WSL packages, and only on the GPUs AMD "
     "lists for WSL; the native KFD and group checks do not apply. Tells "
     "them apart: uname -r ends in microsoft-standard-WSL2."},
    {1, wsl_nv, "wsl-gpu-passthrough",
     ", where the GPU comes from the Windows driver through /dev/dxg and "
     "/usr/lib/wsl/lib: a Windows NVIDIA driver or WSL kernel too old or "
     "broken, a Linux NVIDIA driver installed inside WSL over it, or libcuda "
     "not from /usr/lib/wsl/lib. Tells them apart: nvidia-smi inside WSL "
     "fails while it works in Windows; wsl --update and the current Windows "
     "driver fix most."},
    {0, no_nv, "container-no-gpu-runtime",
     ": it may have been started without the NVIDIA runtime (docker run "
     "--gpus all or --runtime=nvidia; Kubernetes: a nvidia.com/gpu limit and "
     "the device plugin). Tells them apart: nvidia-smi works on the host but "
     "not inside the container."},
};

static int setup_alternative(const struct marks *m, struct gd_explain_match *mt)
{
	for (size_t i = 0; i < sizeof setup_rules / sizeof *setup_rules; i++) {
		const struct setup_rule *r = &setup_rules[i];
		int in_log = r->wsl ? m->wsl : m->container;
		int here = r->wsl ? m->wsl_here : m->container_here;

		if (!(in_log || here) || !is_one_of(mt->id, r->ids))
			continue;
		if (!r->wsl && m->gpu_asked)
			continue;
		mt->alt_id = r->alt_id;
		gd_fmt(mt->alternative, sizeof mt->alternative, "%s%s",
		       r->wsl ? (in_log ? "the log is from WSL2"
					: "this machine is WSL2")
			      : (in_log ? "the log is from a container"
					: "this machine is a container"),
		       r->text);
		return 1;
	}
	return 0;
}

static void alternative(const struct marks *m, struct gd_explain_match *mt)
{
	static const char *const no_code[] = {"cuda-no-kernel-image",
					      "cublas-execution-failed", NULL};

	if (setup_alternative(m, mt))
		return;
	if (is_one_of(mt->id, no_code) && m->drv_cuda && m->built_cuda &&
	    m->drv_cuda < m->built_cuda) {
		mt->alt_id = "driver-older-than-ptx";
		gd_fmt(
		    mt->alternative, sizeof mt->alternative,
		    "more likely here: the driver supports CUDA %d.%d but "
		    "the program was built with CUDA %d.%d, so its PTX "
		    "cannot be compiled for this GPU; update the driver. "
		    "Tells them apart: 'the provided PTX was compiled with an "
		    "unsupported toolchain' (CUDA_ERROR_UNSUPPORTED_PTX_"
		    "VERSION, 222), and 'gpudoctor scan' showing PTX only.",
		    m->drv_cuda / 10, m->drv_cuda % 10, m->built_cuda / 10,
		    m->built_cuda % 10);
		return;
	}
	for (unsigned i = 0; i < GD_N_MARKER_RULES; i++)
		if (m->seen >> i & 1 &&
		    is_one_of(mt->id, marker_rules[i].ids)) {
			mt->alt_id = marker_rules[i].alt_id;
			gd_strlcpy(mt->alternative, marker_rules[i].text,
				   sizeof mt->alternative);
			return;
		}
}

/* The markers are looked for in a log's first and last
 * GD_EVIDENCE_WINDOW bytes (a command line, uname or nvidia-smi at the
 * start; the failure at the end): a 16 MiB log costs no more than a small
 * one. */
#define GD_EVIDENCE_WINDOW (256u * 1024)

static void marks_window(const char *b, size_t n, struct marks *m)
{
	if (n <= 2 * GD_EVIDENCE_WINDOW) {
		marks_of(b, n, m);
		return;
	}
	marks_of(b, GD_EVIDENCE_WINDOW, m);
	marks_of(b + n - GD_EVIDENCE_WINDOW, GD_EVIDENCE_WINDOW, m);
}

void gd_explain_evidence(const char *head, size_t head_len, const char *tail,
			 size_t tail_len, const struct gd_machine *here,
			 struct gd_explain_result *r)
{
	struct marks m;

	memset(&m, 0, sizeof m);
	if (!r->m.n)
		return;
	if (here && here->kernel.release.st == GD_KNOWN)
		m.wsl_here =
		    strstr(here->kernel.release.v, "microsoft") != NULL;
	for (size_t i = 0; here && i < here->n_gpus; i++)
		m.container_here |= here->gpus[i].access.in_container;
	for (unsigned k = 0; k < GD_N_MARKER_RULES; k++) /* only when needed */
		for (size_t i = 0; i < r->m.n; i++)
			if (is_one_of(r->m.v[i].id, marker_rules[k].ids))
				m.want |= 1u << k;
	marks_window(head, head_len, &m);
	if (tail)
		marks_window(tail, tail_len, &m);
	for (size_t i = 0; i < r->m.n; i++) {
		r->m.v[i].alternative[0] = '\0';
		r->m.v[i].alt_id = NULL;
		alternative(&m, &r->m.v[i]);
	}
}
