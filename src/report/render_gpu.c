/* One GPU as JSON and as a text facts block (see render_gpu.h for the
 * unknown-fact convention). */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "render_gpu.h"

static void put_hex(json_t *o, const char *key, uint32_t v, int width)
{
	char buf[16];

	gd_fmt(buf, sizeof buf, "0x%0*x", width, v);
	json_object_set_new(o, key, gd_json_str(buf));
}

static void put_unknown(json_t *o, const char *key, const char *why)
{
	char k[80];

	json_object_set_new(o, key, json_null());
	gd_fmt(k, sizeof k, "%s_unknown", key);
	json_object_set_new(o, k, gd_json_str(why[0] ? why : "unknown"));
}

static void put_num(json_t *o, const char *key, const gd_num *f)
{
	if (gd_known(f))
		json_object_set_new(o, key, json_integer((json_int_t)f->v));
	else
		put_unknown(o, key, f->why);
}

static void put_text(json_t *o, const char *key, const gd_text *f)
{
	if (gd_known(f))
		json_object_set_new(o, key, gd_json_str(f->v));
	else
		put_unknown(o, key, f->why);
}

static void put_str_or(json_t *o, const char *key, const char *v,
		       const char *why)
{
	if (v && v[0])
		json_object_set_new(o, key, gd_json_str(v));
	else
		put_unknown(o, key, why ? why : "");
}

/* The embedded id tables' row (discover/ids_table.h, docs/ids.md). */
static json_t *idrow_json(const struct gd_id_row *r)
{
	json_t *o;

	if (!r)
		return json_null();
	o = json_object();
	json_object_set_new(o, "name", gd_json_str(r->name));
	json_object_set_new(o, "chip", gd_json_str(r->chip));
	json_object_set_new(o, "arch", gd_json_str(r->arch));
	json_object_set_new(o, "target", gd_json_str(r->target));
	json_object_set_new(o, "virtual_function",
			    json_boolean(r->flags & GD_IDF_VF));
	json_object_set_new(o, "integrated",
			    json_boolean(r->flags & GD_IDF_IGPU));
	json_object_set_new(o, "lists", gd_json_str(r->src));
	return o;
}

static json_t *pci_json(const struct gd_gpu *g)
{
	const struct gd_pci *p = &g->pci;
	json_t *o = json_object(), *link = json_object();

	json_object_set_new(o, "bdf", gd_json_str(p->bdf));
	put_hex(o, "vendor_id", p->vendor_id, 4);
	put_hex(o, "device_id", p->device_id, 4);
	if (g->pci_missing) {
		json_object_set_new(o, "present", json_false());
		json_object_set_new(o, "present_why",
				    gd_json_str("no PCI entry; address from "
						"KFD location_id"));
	} else {
		json_object_set_new(o, "present", json_true());
		put_hex(o, "subsystem_vendor_id", p->subsys_vendor_id, 4);
		put_hex(o, "subsystem_device_id", p->subsys_device_id, 4);
		put_hex(o, "class", p->class_code, 6);
	}
	if (gd_known(&p->revision))
		put_hex(o, "revision", (uint32_t)p->revision.v, 2);
	else
		put_unknown(o, "revision", p->revision.why);
	put_text(o, "driver", &p->driver);
	put_text(o, "pci_ids_name", &g->pci_name);
	json_object_set_new(o, "device_ids", idrow_json(g->idrow));
	if (!g->pci_missing) {
		put_text(link, "current_speed", &p->cur_link_speed);
		put_num(link, "current_width", &p->cur_link_width);
		put_text(link, "max_speed", &p->max_link_speed);
		put_num(link, "max_width", &p->max_link_width);
		json_object_set_new(o, "link", link);
		put_num(o, "numa_node", &p->numa_node);
		if (gd_known(&p->boot_vga)) /* sysfs "0"/"1": a flag */
			json_object_set_new(o, "boot_vga",
					    json_boolean(p->boot_vga.v != 0));
		else
			put_unknown(o, "boot_vga", p->boot_vga.why);
	} else {
		json_decref(link);
	}
	return o;
}

static json_t *node_json(const struct gd_kfd_node *n)
{
	json_t *o = json_object();
	char buf[32];

	json_object_set_new(o, "id", json_integer(n->id));
	if (n->has_gfx_target_version)
		json_object_set_new(o, "gfx_target_version",
				    json_integer(n->gfx_target_version));
	else
		put_unknown(o, "gfx_target_version",
			    "no gfx_target_version key (old kernel)");
	put_str_or(o, "gfx", n->gfx,
		   n->why[0] ? n->why : "no gfx_target_version");
	put_str_or(o, "bdf", n->bdf, "no location_id");
	put_num(o, "cu_count", &n->cu_count);
	put_num(o, "simd_count", &n->simd_count);
	put_num(o, "simd_per_cu", &n->simd_per_cu);
	put_num(o, "cpu_cores_count", &n->cpu_cores_count);
	put_num(o, "location_id", &n->location_id);
	put_num(o, "domain", &n->domain);
	put_num(o, "drm_render_minor", &n->drm_render_minor);
	put_num(o, "num_xcc", &n->num_xcc);
	put_num(o, "fw_version", &n->fw_version);
	put_num(o, "sdma_fw_version", &n->sdma_fw_version);
	put_num(o, "local_mem_size", &n->local_mem_size);
	put_num(o, "mem_banks_bytes", &n->mem_banks_bytes);
	put_num(o, "gpu_id", &n->gpu_id);
	/* u64 ids as strings: JSON readers lose precision past 2^53 */
	if (gd_known(&n->unique_id)) {
		gd_fmt(buf, sizeof buf, "%llu",
		       (unsigned long long)n->unique_id.v);
		json_object_set_new(o, "unique_id", gd_json_str(buf));
	} else {
		put_unknown(o, "unique_id", n->unique_id.why);
	}
	if (n->truncated)
		json_object_set_new(o, "truncated", json_true());
	return o;
}

static json_t *access_json(const struct gd_access *a)
{
	json_t *o = json_object();

	put_text(o, "kfd", &a->kfd);
	put_text(o, "render", &a->render);
	json_object_set_new(o, "kfd_ok", json_boolean(a->kfd_ok));
	json_object_set_new(o, "render_ok", json_boolean(a->render_ok));
	json_object_set_new(o, "missing_group",
			    a->missing_group[0] ? gd_json_str(a->missing_group)
						: json_null());
	json_object_set_new(o, "fix",
			    a->fix[0] ? gd_json_str(a->fix) : json_null());
	json_object_set_new(o, "in_container", json_boolean(a->in_container));
	if (a->container_flags[0])
		json_object_set_new(o, "container_flags",
				    gd_json_str(a->container_flags));
	return o;
}

static void amd_json(json_t *o, const struct gd_gpu *g)
{
	json_t *nodes = json_array(), *ovr;
	char buf[64];

	put_str_or(o, "gfx", g->gfx, g->gfx_why);
	if (g->gfx[0])
		json_object_set_new(o, "gfx_source",
				    gd_json_str(g->gfx_source));
	put_str_or(o, "gfx_effective", g->gfx_effective,
		   g->ovr.var[0] && !g->ovr.valid ? g->ovr.why : g->gfx_why);
	if (g->ovr.var[0]) {
		ovr = json_object();
		json_object_set_new(ovr, "var", gd_json_str(g->ovr.var));
		json_object_set_new(ovr, "value", gd_json_str(g->ovr.value));
		json_object_set_new(ovr, "valid", json_boolean(g->ovr.valid));
		json_object_set_new(ovr, "gfx",
				    g->ovr.gfx[0] ? gd_json_str(g->ovr.gfx)
						  : json_null());
		if (g->ovr.why[0])
			json_object_set_new(ovr, "why",
					    gd_json_str(g->ovr.why));
		json_object_set_new(o, "override", ovr);
	} else {
		json_object_set_new(o, "override", json_null());
	}
	for (size_t i = 0; i < g->n_kfd_nodes; i++)
		json_array_append_new(nodes, node_json(&g->kfd_nodes[i]));
	json_object_set_new(o, "kfd_nodes", nodes);
	json_object_set_new(o, "partitions",
			    json_integer((json_int_t)g->n_kfd_nodes));
	put_num(o, "cu_count", &g->cu_count);
	put_num(o, "vram_bytes", &g->vram_total);
	if (gd_known(&g->vram_total))
		json_object_set_new(o, "vram_source", gd_json_str(g->vram_src));
	if (g->integrated) {
		put_num(o, "shared_memory_bytes", &g->shared_mem);
		if (gd_known(&g->shared_mem))
			json_object_set_new(o, "shared_memory_source",
					    gd_json_str(g->shared_src));
	}
	put_num(o, "vram_used_bytes", &g->vram_used);
	put_num(o, "gtt_bytes", &g->gtt_total);
	/* firmware is read on Linux only (fw.why says why none was) */
	if (g->fw.n || g->fw.why[0])
		json_object_set_new(o, "firmware", gd_render_fw_json(&g->fw));
	if (!g->fw.n && g->fw.why[0])
		json_object_set_new(o, "firmware_unknown",
				    gd_json_str(g->fw.why));
	if (gd_known(&g->render_minor)) {
		gd_fmt(buf, sizeof buf, "/dev/dri/renderD%llu",
		       (unsigned long long)g->render_minor.v);
		json_object_set_new(o, "render_node", gd_json_str(buf));
	} else {
		put_unknown(o, "render_node", g->render_minor.why);
	}
	json_object_set_new(o, "rocm_agent_index",
			    g->first_agent >= 0 ? json_integer(g->first_agent)
						: json_null());
	json_object_set_new(o, "access", access_json(&g->access));
}

static void nvidia_json(json_t *o, const struct gd_gpu *g)
{
	json_t *nv = json_object();

	put_text(nv, "model", &g->nv.model);
	put_text(nv, "uuid", &g->nv.uuid);
	put_text(nv, "vbios", &g->nv.vbios);
	put_str_or(nv, "sm", g->nv.sm,
		   "the knowledge base has no entry "
		   "for this PCI id or chip name");
	if (g->nv.sm[0])
		json_object_set_new(nv, "sm_source", gd_json_str(g->nv.sm_src));
	put_str_or(nv, "arch", g->nv.arch,
		   "chip name not in the "
		   "knowledge base");
	json_object_set_new(nv, "last_driver_branch",
			    g->nv.last_driver[0]
				? gd_json_str(g->nv.last_driver)
				: json_null());
	json_object_set_new(o, "nvidia", nv);
}

static void nvidia_text(struct gd_cli *cli, FILE *f, const struct gd_gpu *g,
			int verbose);
static void amd_text(struct gd_cli *cli, FILE *f, const struct gd_gpu *g,
		     int verbose);

/* cli's column of the vendor table (discover/vendor.h): each vendor's own
 * block of a GPU's JSON and text. A vendor without one prints the common
 * facts only. */
static const struct gd_vendor_render {
	enum gd_vendor vendor;
	void (*json)(json_t *o, const struct gd_gpu *g);
	void (*text)(struct gd_cli *cli, FILE *f, const struct gd_gpu *g,
		     int verbose);
} renders[] = {
    {GD_VENDOR_AMD, amd_json, amd_text},
    {GD_VENDOR_NVIDIA, nvidia_json, nvidia_text},
};

static const struct gd_vendor_render *vendor_render(enum gd_vendor v)
{
	for (size_t i = 0; i < sizeof renders / sizeof *renders; i++)
		if (renders[i].vendor == v)
			return &renders[i];
	return NULL;
}

json_t *gd_render_gpu_json(const struct gd_gpu *g)
{
	json_t *o = json_object(), *vis;

	json_object_set_new(o, "vendor",
			    gd_json_str(gd_vendor_name(g->vendor)));
	put_text(o, "name", &g->name);
	if (gd_known(&g->name))
		json_object_set_new(o, "name_source", gd_json_str(g->name.src));
	json_object_set_new(o, "pci", pci_json(g));
	json_object_set_new(o, "integrated", json_boolean(g->integrated));
	json_object_set_new(o, "integrated_why",
			    gd_json_str(g->integrated_why));
	if (vendor_render(g->vendor))
		vendor_render(g->vendor)->json(o, g);
	vis = json_object();
	json_object_set_new(vis, "hidden", json_boolean(g->hidden));
	json_object_set_new(vis, "note",
			    g->visible_note[0] ? gd_json_str(g->visible_note)
					       : json_null());
	json_object_set_new(o, "visibility", vis);
	return o;
}

void gd_render_bytes(uint64_t v, char *buf, size_t cap)
{
	if (v >= (1ULL << 30))
		gd_fmt(buf, cap, "%.1f GiB", (double)v / (double)(1ULL << 30));
	else
		gd_fmt(buf, cap, "%llu MiB", (unsigned long long)(v >> 20));
}

void gd_render_gpu_name(const struct gd_gpu *g, char *buf, size_t cap)
{
	gd_gpu_display_name(g, buf, cap);
}

static void line_fact(FILE *f, const char *label, const char *v,
		      const char *why)
{
	if (v && v[0])
		fprintf(f, "  %-14s %s\n", label, v);
	else if (why && why[0]) /* else not looked at: not on this OS */
		fprintf(f, "  %-14s unknown (%s)\n", label, why);
}

/* VRAM; on an APU the carve-out and the shared system memory. */
static void mem_text(FILE *f, const struct gd_gpu *g)
{
	char buf[200] = "", b2[32];

	if (gd_known(&g->vram_total)) {
		gd_render_bytes(g->vram_total.v, b2, sizeof b2);
		gd_fmt(buf, sizeof buf, "%s (%s)", b2, g->vram_src);
	}
	line_fact(f, g->integrated ? "carve-out" : "VRAM", buf,
		  g->vram_total.why);
	if (!g->integrated)
		return;
	buf[0] = '\0';
	if (gd_known(&g->shared_mem)) {
		gd_render_bytes(g->shared_mem.v, b2, sizeof b2);
		gd_fmt(buf, sizeof buf, "%s system memory (%s)", b2,
		       g->shared_src);
	}
	line_fact(f, "shared memory", buf, g->shared_mem.why);
}

static void amd_text(struct gd_cli *cli, FILE *f, const struct gd_gpu *g,
		     int verbose)
{
	char buf[200];

	line_fact(f, "gfx target", g->gfx, g->gfx_why);
	if (g->ovr.var[0])
		fprintf(f, "  %-14s %s=%s -> %s%s%s%s\n", "override",
			g->ovr.var, g->ovr.value,
			g->ovr.valid ? g->ovr.gfx : "",
			g->ovr.valid ? "" : gd_c_red(cli),
			g->ovr.why[0] ? g->ovr.why : "", gd_c_off(cli));
	if (gd_known(&g->cu_count))
		gd_fmt(buf, sizeof buf, "%llu%s",
		       (unsigned long long)g->cu_count.v,
		       g->n_kfd_nodes > 1 ? " (all partitions)" : "");
	else
		buf[0] = '\0';
	line_fact(f, "compute units", buf, g->cu_count.why);
	mem_text(f, g);
	if (g->n_kfd_nodes) {
		size_t o = 0;

		buf[0] = '\0';
		for (size_t i = 0; i < g->n_kfd_nodes && o + 8 < sizeof buf;
		     i++)
			o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%u",
					      i ? "," : "", g->kfd_nodes[i].id);
		fprintf(f, "  %-14s %s\n", "KFD node ids", buf);
	}
	line_fact(f, "/dev/kfd",
		  gd_known(&g->access.kfd) ? g->access.kfd.v : "",
		  g->access.kfd.why);
	line_fact(f, "render node",
		  gd_known(&g->access.render) ? g->access.render.v : "",
		  g->access.render.why);
	if (g->access.fix[0])
		fprintf(f, "  %-14s %s%s%s\n", "fix", gd_c_yellow(cli),
			g->access.fix, gd_c_off(cli));
	if (verbose)
		for (size_t i = 0; i < g->n_kfd_nodes; i++) {
			const struct gd_kfd_node *n = &g->kfd_nodes[i];

			fprintf(f,
				"  node %-9u %s gfx_target_version %u fw %llu "
				"sdma_fw %llu\n",
				n->id, n->bdf, n->gfx_target_version,
				(unsigned long long)n->fw_version.v,
				(unsigned long long)n->sdma_fw_version.v);
		}
}

static void nvidia_text(struct gd_cli *cli, FILE *f, const struct gd_gpu *g,
			int verbose)
{
	(void)cli, (void)verbose;
	line_fact(f, "model", g->nv.model.v, g->nv.model.why);
	line_fact(f, "uuid", g->nv.uuid.v, g->nv.uuid.why);
	if (g->nv.sm[0])
		fprintf(f, "  %-14s %s (%s)\n", "sm", g->nv.sm, g->nv.sm_src);
	else
		line_fact(f, "sm", "", "not in the knowledge base");
}

void gd_render_gpu_text(struct gd_cli *cli, FILE *f, const struct gd_gpu *g,
			int verbose)
{
	char name[200], rev[8];

	gd_render_gpu_name(g, name, sizeof name);
	gd_fmt(rev, sizeof rev, gd_known(&g->pci.revision) ? "%02llx" : "?",
	       (unsigned long long)g->pci.revision.v);
	fprintf(f, "  %-14s %s%s%s (%s)\n", "name", gd_c_bold(cli), name,
		gd_c_off(cli), gd_known(&g->name) ? g->name.src : g->name.why);
	fprintf(f, "  %-14s %s [%04x:%04x] rev %s, driver %s\n", "pci",
		g->pci.bdf, g->pci.vendor_id, g->pci.device_id, rev,
		gd_known(&g->pci.driver) ? g->pci.driver.v : "none");
	fprintf(f, "  %-14s %s%s%s%s\n", "kind",
		g->integrated ? "integrated" : "discrete",
		g->integrated_why[0] ? " (" : "", g->integrated_why,
		g->integrated_why[0] ? ")" : "");
	if (vendor_render(g->vendor))
		vendor_render(g->vendor)->text(cli, f, g, verbose);
	if (g->visible_note[0])
		fprintf(f, "  %-14s %s%s%s\n", "visibility",
			g->hidden ? gd_c_yellow(cli) : "", g->visible_note,
			g->hidden ? gd_c_off(cli) : "");
}

static json_t *kernel_json(const struct gd_machine *m)
{
	json_t *k = json_object();
	const struct gd_kernel_info *ki = &m->kernel;

	json_object_set_new(k, "release",
			    gd_known(&ki->release) ? gd_json_str(ki->release.v)
						   : json_null());
	json_object_set_new(k, "amdgpu_loaded",
			    json_boolean(ki->amdgpu_loaded));
	json_object_set_new(k, "amdgpu_version",
			    gd_known(&ki->amdgpu_version)
				? gd_json_str(ki->amdgpu_version.v)
				: json_null());
	json_object_set_new(k, "kfd_present", json_boolean(ki->kfd_present));
	json_object_set_new(k, "kfd_nodes_total",
			    json_integer(m->kfd_nodes_total));
	json_object_set_new(k, "nvidia_driver",
			    gd_known(&ki->nvidia_driver)
				? gd_json_str(ki->nvidia_driver.v)
				: json_null());
	/* Linux's module state; a Windows machine has none to show */
	if (m->kstate.read)
		gd_render_kstate_json(k, &m->kstate);
	return k;
}

void gd_render_machine_json(json_t *doc, const struct gd_machine *m)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < m->n_gpus; i++) {
		json_t *g = json_object(),
		       *body = gd_render_gpu_json(&m->gpus[i]);

		/* index first, then the shared GPU object's members */
		json_object_set_new(g, "index", json_integer((json_int_t)i));
		json_object_update(g, body);
		json_decref(body);
		json_array_append_new(arr, g);
	}
	json_object_set_new(doc, "gpus", arr);
	if (m->n_not_gpus) {
		json_t *ng = json_array();

		for (size_t i = 0; i < m->n_not_gpus; i++) {
			const struct gd_not_gpu *d = &m->not_gpus[i];
			json_t *o = json_object();

			json_object_set_new(o, "bdf", gd_json_str(d->bdf));
			put_hex(o, "vendor_id", d->vendor_id, 4);
			put_hex(o, "device_id", d->device_id, 4);
			json_object_set_new(o, "kind", gd_json_str(d->kind));
			json_object_set_new(o, "name", gd_json_str(d->name));
			json_array_append_new(ng, o);
		}
		json_object_set_new(doc, "not_gpus", ng);
	}
	if (!m->n_gpus)
		json_object_set_new(
		    doc, "no_gpu_why",
		    gd_json_str(m->pci_why[0]
				    ? m->pci_why
				    : "no display or accelerator PCI device"));
	json_object_set_new(doc, "kernel", kernel_json(m));
	json_object_set_new(doc, "visible_devices",
			    m->visible_summary[0]
				? gd_json_str(m->visible_summary)
				: json_null());
}
