/* The join: PCI devices, KFD topology nodes, DRM attributes, the NVIDIA
 * procfs and the ids files become one struct gd_gpu per physical GPU.
 * KFD nodes are joined to PCI devices on the PCI address (domain +
 * location_id), never on list position; the nodes of one partitioned GPU
 * (MI300 CPX/DPX: same domain, same location_id >> 3, partition index in
 * the low 3 bits) all join that GPU. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "disc_int.h"
#include "vendor.h"

static void kernel_facts(gd_ctx *ctx, struct gd_machine *m)
{
	struct gd_kernel_info *k = &m->kernel;
	char buf[160];
	int rc;

	rc = gd_fs_read_line(&ctx->fs, "/proc/sys/kernel/osrelease", buf,
			     sizeof buf);
	if (rc == 0 && buf[0])
		gd_text_set(&k->release, buf, "/proc/sys/kernel/osrelease");
	else
		gd_text_unknown(&k->release, GD_UNKNOWN,
				"/proc/sys/kernel/osrelease: %s",
				rc ? gd_fs_strerror(rc) : "empty");
	k->amdgpu_loaded = gd_fs_exists(&ctx->fs, "/sys/module/amdgpu");
	k->gim_loaded = gd_fs_exists(&ctx->fs, "/sys/module/gim");
	rc = gd_fs_read_line(&ctx->fs, "/sys/module/amdgpu/version", buf,
			     sizeof buf);
	if (rc == 0 && buf[0])
		gd_text_set(&k->amdgpu_version, buf,
			    "/sys/module/amdgpu/version");
	else
		gd_text_unknown(&k->amdgpu_version, GD_UNKNOWN, "%s",
				k->amdgpu_loaded
				    ? "in-kernel amdgpu (only the DKMS "
				      "module has /sys/module/amdgpu/version)"
				    : "amdgpu module not loaded");
	gd_nvidia_kernel(ctx, k);
}

static void env_facts(gd_ctx *ctx, struct gd_env_facts *e)
{
	const char *v;

	if ((v = gd_ctx_getenv(ctx, "HSA_OVERRIDE_GFX_VERSION")))
		gd_strlcpy(e->hsa_override, v, sizeof e->hsa_override);
	if ((v = gd_ctx_getenv(ctx, "ROCR_VISIBLE_DEVICES"))) {
		e->has_rocr_visible = 1;
		gd_strlcpy(e->rocr_visible, v, sizeof e->rocr_visible);
	}
	if ((v = gd_ctx_getenv(ctx, "HIP_VISIBLE_DEVICES"))) {
		e->has_hip_visible = 1;
		gd_strlcpy(e->hip_visible, v, sizeof e->hip_visible);
	}
	if ((v = gd_ctx_getenv(ctx, "CUDA_VISIBLE_DEVICES"))) {
		e->has_cuda_visible = 1;
		gd_strlcpy(e->cuda_visible, v, sizeof e->cuda_visible);
	}
}

typedef GD_VEC(struct gd_gpu) gpu_vec;

static struct gd_gpu *gpu_for_node(gpu_vec *gpus, const struct gd_kfd_node *n)
{
	uint32_t dom, bus, dev, fn;
	struct gd_gpu *same_slot = NULL, *g;

	if (!n->bdf[0] || gd_pci_bdf_parse(n->bdf, &dom, &bus, &dev, &fn) < 0)
		return NULL;
	for (size_t i = 0; i < gpus->n; i++) {
		g = &gpus->v[i];
		if (g->pci.domain != dom || g->pci.bus != bus ||
		    g->pci.dev != dev)
			continue;
		if (g->pci.fn == fn)
			return g;
		if (!same_slot && g->vendor == GD_VENDOR_AMD)
			same_slot = g; /* a partition of this GPU */
	}
	if (same_slot)
		return same_slot;
	/* No PCI entry (a capture without /sys/bus/pci): a GPU from KFD
	 * alone, at function 0 so its other partitions join it. */
	g = gd_vec_push(gpus);
	if (!g)
		return NULL;
	g->vendor = gd_known(&n->vendor_id)
			? gd_vendor_from_id((uint32_t)n->vendor_id.v)
			: GD_VENDOR_AMD;
	g->pci_missing = 1;
	g->pci.domain = dom;
	g->pci.bus = bus;
	g->pci.dev = dev;
	gd_fmt(g->pci.bdf, sizeof g->pci.bdf, "%04x:%02x:%02x.0", dom, bus,
	       dev);
	g->pci.vendor_id =
	    gd_known(&n->vendor_id) ? (uint32_t)n->vendor_id.v : 0;
	g->pci.device_id =
	    gd_known(&n->device_id) ? (uint32_t)n->device_id.v : 0;
	gd_num_unknown(&g->pci.revision, GD_UNKNOWN, "no PCI entry for %s",
		       g->pci.bdf);
	gd_text_unknown(&g->pci.driver, GD_UNKNOWN, "no PCI entry");
	return g;
}

static int add_node(struct gd_gpu *g, const struct gd_kfd_node *n)
{
	struct gd_kfd_node *v =
	    realloc(g->kfd_nodes, (g->n_kfd_nodes + 1) * sizeof *v);

	if (!v)
		return -ENOMEM;
	g->kfd_nodes = v;
	v[g->n_kfd_nodes++] = *n;
	return 0;
}

static int join_kfd(gd_ctx *ctx, gpu_vec *gpus, const struct gd_kfd_node *nodes,
		    size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct gd_gpu *g;

		if (!gd_kfd_node_is_gpu(&nodes[i]))
			continue;
		if (!nodes[i].bdf[0]) {
			gd_diag_add(ctx, GD_DIAG_WARN, "kfd",
				    "node %u has no location_id: cannot tell "
				    "which PCI device it is",
				    nodes[i].id);
			continue;
		}
		g = gpu_for_node(gpus, &nodes[i]);
		if (!g || add_node(g, &nodes[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* No KFD node gave the target: the kb's per-id row, else the embedded id
 * tables (ids_table.h). 1 when found. */
static int amd_gfx_by_id(gd_ctx *ctx, struct gd_gpu *g)
{
	const char *kbgfx = gd_kbref_gfx_for_pci(ctx, g->pci.device_id);

	if (kbgfx) {
		gd_strlcpy(g->gfx, kbgfx, sizeof g->gfx);
		gd_fmt(g->gfx_source, sizeof g->gfx_source,
		       "pci id 0x%04x (knowledge base)", g->pci.device_id);
		return 1;
	}
	if (g->idrow && g->idrow->target[0]) {
		gd_strlcpy(g->gfx, g->idrow->target, sizeof g->gfx);
		gd_fmt(g->gfx_source, sizeof g->gfx_source,
		       "pci id 0x%04x (embedded ids: %.30s)", g->pci.device_id,
		       g->idrow->src);
		return 1;
	}
	return 0;
}

static void amd_gfx(gd_ctx *ctx, struct gd_gpu *g)
{
	char gfx[16];
	int how, found;

	for (size_t i = 0; i < g->n_kfd_nodes; i++)
		if (g->kfd_nodes[i].gfx[0]) {
			gd_strlcpy(g->gfx, g->kfd_nodes[i].gfx, sizeof g->gfx);
			gd_fmt(g->gfx_source, sizeof g->gfx_source,
			       "kfd gfx_target_version %u",
			       g->kfd_nodes[i].gfx_target_version);
			return;
		}
	found = amd_gfx_by_id(ctx, g);
	how = gd_kbref_amd_no_kfd(
	    ctx, g->pci.device_id, gd_known(&g->pci_name) ? g->pci_name.v : "",
	    g->amd_no_kfd, sizeof g->amd_no_kfd, gfx, sizeof gfx);
	if (how)
		gd_fmt(g->gfx_why, sizeof g->gfx_why,
		       "%s, %s: KFD never supported this family, so ROCm "
		       "cannot use it (knowledge base, %s0x%04x)",
		       g->amd_no_kfd, gfx,
		       how == 1 ? "PCI id " : "by the pci.ids chip name of ",
		       g->pci.device_id);
	if (how && !found) {
		gd_strlcpy(g->gfx, gfx, sizeof g->gfx);
		gd_fmt(g->gfx_source, sizeof g->gfx_source,
		       "pci id 0x%04x (knowledge base, no KFD family)",
		       g->pci.device_id);
	}
	if (found || how)
		return;
	if (!g->n_kfd_nodes)
		gd_fmt(g->gfx_why, sizeof g->gfx_why,
		       "no KFD node for this GPU and no list (knowledge base, "
		       "embedded ids) has a target for PCI id 0x%04x",
		       g->pci.device_id);
	else
		gd_fmt(g->gfx_why, sizeof g->gfx_why,
		       "no gfx_target_version in node %u (old kernel) and no "
		       "list (knowledge base, embedded ids) has a target for "
		       "PCI id 0x%04x",
		       g->kfd_nodes[0].id, g->pci.device_id);
}

void gd_amd_fill(gd_ctx *ctx, struct gd_gpu *g)
{
	uint64_t cus = 0;
	int cu_ok = g->n_kfd_nodes > 0;

	amd_gfx(ctx, g);
	/* a partitioned GPU's CUs are the sum of its partitions' */
	for (size_t i = 0; i < g->n_kfd_nodes; i++) {
		if (!gd_known(&g->kfd_nodes[i].cu_count)) {
			cu_ok = 0;
			gd_num_unknown(&g->cu_count, GD_UNKNOWN, "%s",
				       g->kfd_nodes[i].cu_count.why);
			break;
		}
		cus += g->kfd_nodes[i].cu_count.v;
	}
	if (cu_ok)
		gd_num_set(&g->cu_count, cus, "kfd simd_count / simd_per_cu");
	else if (!g->n_kfd_nodes)
		gd_num_unknown(&g->cu_count, GD_UNKNOWN, "no KFD node for %s",
			       g->pci.bdf);
	if (g->n_kfd_nodes && gd_known(&g->kfd_nodes[0].drm_render_minor) &&
	    g->kfd_nodes[0].drm_render_minor.v)
		gd_num_set(&g->render_minor, g->kfd_nodes[0].drm_render_minor.v,
			   "kfd drm_render_minor");
	else if (g->n_kfd_nodes)
		gd_num_unknown(&g->render_minor, GD_UNKNOWN,
			       "no drm_render_minor in node %u",
			       g->kfd_nodes[0].id);
	else
		gd_num_unknown(&g->render_minor, GD_UNKNOWN, "no KFD node");
	gd_drm_fill(ctx, g);
	gd_fw_read(ctx, g);
	gd_override_apply(ctx, g);
	gd_access_check(ctx, g);
}

static void gpu_facts(gd_ctx *ctx, struct gd_ids *ids, struct gd_gpu *g)
{
	const struct gd_vendor_ops *ops = gd_vendor_ops(g->vendor);

	g->idrow = gd_ids_lookup(g->pci.vendor_id, g->pci.device_id);
	if (g->vendor != GD_VENDOR_AMD) {
		gd_num_unknown(&g->cu_count, GD_UNKNOWN, "not an AMD GPU");
		gd_num_unknown(&g->render_minor, GD_UNKNOWN, "not read for %s",
			       gd_vendor_name(g->vendor));
		gd_num_unknown(&g->vram_total, GD_UNKNOWN, "not read for %s",
			       gd_vendor_name(g->vendor));
		gd_num_unknown(&g->vram_used, GD_UNKNOWN, "not read");
		gd_num_unknown(&g->gtt_total, GD_UNKNOWN, "not read");
		gd_fmt(g->gfx_why, sizeof g->gfx_why, "not an AMD GPU");
	}
	if (ops->discover)
		ops->discover(ctx, g);
	gd_ids_name(ctx, ids, g);
	if (ops->named)
		ops->named(ctx, g);
	gd_decide_integrated(ctx, g);
	if (ops->shared_memory)
		ops->shared_memory(g);
	else
		gd_num_unknown(&g->shared_mem, GD_UNKNOWN, "not read for %s",
			       gd_vendor_name(g->vendor));
}

static int gpu_cmp(const void *a, const void *b)
{
	return gd_pci_cmp(&((const struct gd_gpu *)a)->pci,
			  &((const struct gd_gpu *)b)->pci);
}

const char *gd_not_gpu_what(const char *kind)
{
	return !strcmp(kind, "bmc") ? "a server management controller's display"
	       : !strcmp(kind, "npu") ? "a neural processing unit (NPU)"
	       : !strcmp(kind, "accelerator")
		   ? "an AI accelerator (gpudoctor does not judge it)"
		   : "an emulated display adapter";
}

/* Say what was left out, and why no GPU when nothing else is there. */
static void note_not_gpus(gd_ctx *ctx, struct gd_machine *m)
{
	const struct gd_not_gpu *first = m->n_not_gpus ? &m->not_gpus[0] : NULL;

	for (size_t i = 0; i < m->n_not_gpus; i++) {
		const struct gd_not_gpu *ng = &m->not_gpus[i];

		gd_diag_add(ctx, GD_DIAG_INFO, ng->bdf,
			    "%s [%04x:%04x] is %s, not a GPU: left out of the "
			    "GPU list",
			    ng->name, ng->vendor_id, ng->device_id,
			    gd_not_gpu_what(ng->kind));
	}
	if (!first || m->n_gpus || m->pci_why[0])
		return;
	if (m->n_not_gpus == 1)
		gd_fmt(m->pci_why, sizeof m->pci_why,
		       "the only %s device, %s at %s, is not a GPU",
		       (first->class_code >> 16) == 0x12 ? "accelerator"
							 : "display",
		       first->name, first->bdf);
	else
		gd_fmt(m->pci_why, sizeof m->pci_why,
		       "none of the %zu display or accelerator devices is a "
		       "GPU (%s at %s, ...)",
		       m->n_not_gpus, first->name, first->bdf);
}

/* WSL2: the Windows host's GPU reached through dxgkrnl (/dev/dxg), the
 * Windows driver's user-mode libraries in /usr/lib/wsl/lib (CUDA's
 * libcuda.so.1 there is the NVIDIA Windows driver's); WSL2 kernels name
 * themselves "...-microsoft-standard-WSL2" (docs/virtual.md). */
static void wsl_facts(gd_ctx *ctx, struct gd_machine *m)
{
	static const char *const cuda[] = {"/usr/lib/wsl/lib/libcuda.so.1",
					   "/usr/lib/wsl/lib/libcuda.so"};
	const char *rel =
	    gd_known(&m->kernel.release) ? m->kernel.release.v : "";

	m->wsl = gd_fs_exists(&ctx->fs, "/dev/dxg") ||
		 strstr(rel, "microsoft-standard-WSL") != NULL;
	if (!m->wsl)
		return;
	for (size_t i = 0; i < sizeof cuda / sizeof *cuda; i++)
		if (gd_fs_exists(&ctx->fs, cuda[i])) {
			gd_strlcpy(m->wsl_libcuda, cuda[i],
				   sizeof m->wsl_libcuda);
			break;
		}
}

static void count_vf(struct gd_pci *pf, const struct gd_pci *vf)
{
	if (!pf->n_vfs++)
		gd_strlcpy(pf->vf_first, vf->bdf, sizeof pf->vf_first);
	gd_strlcpy(pf->vf_last, vf->bdf, sizeof pf->vf_last);
	if (gd_known(&vf->driver) && !strcmp(vf->driver.v, "vfio-pci"))
		pf->n_vfs_vfio++;
	else if (gd_known(&vf->driver) && !pf->n_vfs_host++)
		gd_strlcpy(pf->vf_host_driver, vf->driver.v,
			   sizeof pf->vf_host_driver);
}

/* SR-IOV virtual functions on the host (a physfn link) are no GPUs of
 * their own: each is counted under its physical function when that is
 * listed too, and left out (docs/virtual.md). A guest sees no physfn, so
 * its VF stays a GPU. Keeps PCI order. */
static void fold_vfs(gd_ctx *ctx, struct gd_pci *pcis, size_t *n)
{
	size_t out = 0;

	for (size_t i = 0; i < *n; i++) {
		struct gd_pci *vf = &pcis[i], *pf = NULL;

		for (size_t j = 0; vf->physfn[0] && j < *n && !pf; j++)
			if (j != i && !strcmp(pcis[j].bdf, vf->physfn))
				pf = &pcis[j];
		if (!pf)
			vf->physfn[0] = '\0'; /* its PF is not here: a GPU */
		else
			count_vf(pf, vf);
	}
	for (size_t i = 0; i < *n; i++) {
		if (pcis[i].n_vfs)
			gd_diag_add(ctx, GD_DIAG_INFO, pcis[i].bdf,
				    "%d SR-IOV virtual functions (%s to %s, "
				    "physfn links) counted under this GPU, not "
				    "as GPUs of their own",
				    pcis[i].n_vfs, pcis[i].vf_first,
				    pcis[i].vf_last);
		if (!pcis[i].physfn[0])
			pcis[out++] = pcis[i];
	}
	*n = out;
}

int gd_discover(gd_ctx *ctx, struct gd_machine *m)
{
	gpu_vec gpus = {0};
	struct gd_kfd_node *nodes = NULL;
	struct gd_pci *pcis = NULL;
	struct gd_ids ids;
	size_t n_nodes = 0, n_pci = 0;
	int rc;

	memset(m, 0, sizeof *m);
	memset(&ids, 0, sizeof ids);
	m->kstate.secure_boot = -1; /* unknown until read */
	if (gd_ctx_is_windows(ctx))
		return gd_win_discover(ctx, m);
	kernel_facts(ctx, m);
	wsl_facts(ctx, m);
	env_facts(ctx, &m->env);
	rc = gd_pci_scan(ctx, &pcis, &n_pci, &m->not_gpus, &m->n_not_gpus,
			 m->pci_why, sizeof m->pci_why);
	if (rc < 0)
		goto oom;
	fold_vfs(ctx, pcis, &n_pci);
	rc = gd_kfd_scan(ctx, &nodes, &n_nodes, m->kfd_why, sizeof m->kfd_why);
	if (rc < 0)
		goto oom;
	m->kfd_nodes_total = (int)n_nodes;
	m->kernel.kfd_present = n_nodes > 0;
	/* a tree given with --root that `gather` did not write (no
	 * .gpudoctor/): a file missing from it may just not have been copied */
	m->not_a_capture = !ctx->fs.is_slash &&
			   (!gd_fs_exists(&ctx->fs, "/.gpudoctor/environ") ||
			    gd_fs_exists(&ctx->fs, "/.gpudoctor/partial"));
	for (size_t i = 0; i < n_pci; i++) {
		struct gd_gpu *g = gd_vec_push(&gpus);

		if (!g)
			goto oom;
		g->pci = pcis[i];
		g->vendor = gd_vendor_from_id(pcis[i].vendor_id);
	}
	if (join_kfd(ctx, &gpus, nodes, n_nodes) < 0)
		goto oom;
	/* GPUs known from KFD alone were appended: PCI order again */
	if (gpus.n > 1)
		qsort(gpus.v, gpus.n, sizeof *gpus.v, gpu_cmp);
	m->gpus = gpus.v;
	m->n_gpus = gpus.n;
	note_not_gpus(ctx, m);
	for (size_t i = 0; i < m->n_gpus; i++)
		gpu_facts(ctx, &ids, &m->gpus[i]);
	gd_visible_apply(ctx, m);
	gd_kstate_read(ctx, m);
	gd_strlcpy(m->ids_amdgpu, ids.amdgpu_path, sizeof m->ids_amdgpu);
	gd_strlcpy(m->ids_pci, ids.pci_path, sizeof m->ids_pci);
	gd_ids_free(&ids);
	free(nodes);
	free(pcis);
	return 0;
oom:
	m->gpus = gpus.v;
	m->n_gpus = gpus.n;
	gd_ids_free(&ids);
	free(nodes);
	free(pcis);
	return -ENOMEM;
}

void gd_machine_free(struct gd_machine *m)
{
	for (size_t i = 0; i < m->n_gpus; i++)
		free(m->gpus[i].kfd_nodes);
	free(m->gpus);
	free(m->not_gpus);
	memset(m, 0, sizeof *m);
}

void gd_gpu_display_name(const struct gd_gpu *g, char *buf, size_t cap)
{
	if (gd_known(&g->name))
		gd_strlcpy(buf, g->name.v, cap);
	else
		gd_fmt(buf, cap, "%s GPU [%04x:%04x]",
		       gd_vendor_ops(g->vendor)->title, g->pci.vendor_id,
		       g->pci.device_id);
}
