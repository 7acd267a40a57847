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
	int gpu_asked; /* the log starts its container with the GPU */
	/* the kb's evidence[] rules that name a match of this log, read
	 * once, in the kb's order, and whether their markers were found */
	struct gd_kb_evidence rule[GD_KB_EVIDENCE_MAX];
	unsigned char seen[GD_KB_EVIDENCE_MAX];
	size_t n_rules;
	int container_here, wsl_here; /* said by this machine, not the log */
	int drv_cuda, built_cuda;     /* major*10+minor, 0 unknown */
};

static const char *find(const char *b, size_t n, const char *w)
{
	return memmem(b, n, w, strlen(w));
}

/* A cause only the log's own lines point to is data: the kb's evidence[]
 * (docs/kb.md "evidence"), each rule a few signatures, the marker strings
 * that point away from their common cause, that cause and what tells them
 * apart. Why each rule holds is in docs/workarounds.md. */
static int any_of(const char *b, size_t n, struct gd_kb_list l)
{
	for (size_t i = 0; i < gd_kb_list_n(l); i++) {
		const char *w = gd_kb_list_at(l, i);

		if (w && *w && find(b, n, w))
			return 1;
	}
	return 0;
}

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
	for (size_t i = 0; i < m->n_rules; i++)
		if (!m->seen[i] && any_of(b, n, m->rule[i].markers))
			m->seen[i] = 1;
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
	for (size_t i = 0; i < m->n_rules; i++)
		if (m->seen[i] &&
		    gd_kb_list_has(m->rule[i].signatures, mt->id)) {
			mt->alt_id = m->rule[i].id;
			gd_strlcpy(mt->alternative, m->rule[i].text,
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

void gd_explain_evidence(const gd_kb *kb, const char *head, size_t head_len,
			 const char *tail, size_t tail_len,
			 const struct gd_machine *here,
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
	for (size_t k = 0; kb && k < gd_kb_evidence_count(kb) &&
			   m.n_rules < GD_KB_EVIDENCE_MAX;
	     k++) { /* only the rules a match needs */
		struct gd_kb_evidence *e = &m.rule[m.n_rules];

		if (gd_kb_evidence_at(kb, k, e))
			continue;
		for (size_t i = 0; i < r->m.n; i++)
			if (gd_kb_list_has(e->signatures, r->m.v[i].id)) {
				m.n_rules++;
				break;
			}
	}
	marks_window(head, head_len, &m);
	if (tail)
		marks_window(tail, tail_len, &m);
	for (size_t i = 0; i < r->m.n; i++) {
		r->m.v[i].alternative[0] = '\0';
		r->m.v[i].alt_id = NULL;
		alternative(&m, &r->m.v[i]);
	}
}
