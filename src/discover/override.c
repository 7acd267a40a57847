/* HSA_OVERRIDE_GFX_VERSION and the *_VISIBLE_DEVICES variables.
 *
 * Override: libhsakmt's topology_sysfs_get_node_props() (source file:
 * docs/discover.md, "AMD: KFD topology and HSA_OVERRIDE_GFX_VERSION"):
 *   snprintf(per_node_override, ..., "HSA_OVERRIDE_GFX_VERSION_%d", node_id);
 *   if ((envvar = getenv(per_node_override)) ||
 *       (envvar = getenv("HSA_OVERRIDE_GFX_VERSION"))) {
 *       if (sscanf(envvar, "%u.%u.%u%c", &major, &minor, &step, &dummy) != 3
 *           || major > 63 || minor > 255 || step > 255) -> HSAKMT_STATUS_ERROR
 * so a malformed value fails hsaKmtAcquireSystemProperties() and with it
 * hsa_init(): ROCm does not start at all. node_id is libhsakmt's node id,
 * which is the sysfs node number unless a node is unsupported
 * (topology_sysfs_check_node_supported: EPERM on gpu_id, or its render
 * node cannot be opened), in which case later nodes shift down; we use the
 * sysfs number and say so in the docs.
 *
 * Visibility (a model, documented in docs/json.md): ROCR_VISIBLE_DEVICES
 * indexes the GPU agents in KFD node order, CPU nodes skipped (each MI300
 * partition is one agent); HIP_VISIBLE_DEVICES (else CUDA_VISIBLE_DEVICES,
 * which HIP also honours) then indexes what ROCr left. For NVIDIA,
 * CUDA_VISIBLE_DEVICES indexes NVIDIA GPUs in PCI bus order (as with
 * CUDA_DEVICE_ORDER=PCI_BUS_ID). Entries may be "GPU-<uuid>"; parsing
 * stops at the first invalid entry, as the CUDA documentation states. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disc_int.h"

int gd_hsa_override_parse(const char *value, struct gd_override *o)
{
	unsigned major = 0, minor = 0, step = 0;
	char dummy;

	o->valid = 0;
	o->gfx[0] = o->why[0] = '\0';
	gd_strlcpy(o->value, value, sizeof o->value);
	gd_sanitize(o->value);
	/* The very call libhsakmt makes, so every corner (leading blanks,
	 * "+10", wrap-around of "-1") behaves as it does there. */
	if (sscanf(value, "%u.%u.%u%c", &major, &minor, &step, &dummy) != 3) {
		gd_fmt(
		    o->why, sizeof o->why,
		    "ROCm will refuse to start: %s=\"%s\" is not "
		    "MAJOR.MINOR.STEPPING in decimal (e.g. 10.3.0); libhsakmt "
		    "rejects it",
		    o->var[0] ? o->var : "HSA_OVERRIDE_GFX_VERSION", o->value);
		return -1;
	}
	if (major > 63 || minor > 255 || step > 255) {
		gd_fmt(
		    o->why, sizeof o->why,
		    "ROCm will refuse to start: %s=\"%s\" is out of range "
		    "(libhsakmt allows major <= 63, minor and stepping <= 255)",
		    o->var[0] ? o->var : "HSA_OVERRIDE_GFX_VERSION", o->value);
		return -1;
	}
	o->valid = 1;
	if (gd_gfx_from_parts(major, minor, step, o->gfx, sizeof o->gfx) < 0)
		gd_fmt(
		    o->why, sizeof o->why,
		    "accepted by libhsakmt, but %u.%u.%u names no gfx target "
		    "(minor and stepping are one hex digit, major >= 1): the "
		    "runtime will find no code object for it",
		    major, minor, step);
	return 0;
}

void gd_override_apply(gd_ctx *ctx, struct gd_gpu *g)
{
	gd_strlcpy(g->gfx_effective, g->gfx, sizeof g->gfx_effective);
	for (size_t i = 0; i < g->n_kfd_nodes; i++) {
		struct gd_override o;
		const char *v;

		memset(&o, 0, sizeof o);
		gd_fmt(o.var, sizeof o.var, "HSA_OVERRIDE_GFX_VERSION_%u",
		       g->kfd_nodes[i].id);
		v = gd_ctx_getenv(ctx, o.var);
		if (!v) {
			gd_strlcpy(o.var, "HSA_OVERRIDE_GFX_VERSION",
				   sizeof o.var);
			v = gd_ctx_getenv(ctx, o.var);
		}
		if (!v)
			continue;
		gd_hsa_override_parse(v, &o);
		/* The first node decides what we show; an invalid value on
		 * any node stops ROCm, so that one wins. */
		if (!g->ovr.var[0] || (!o.valid && g->ovr.valid))
			g->ovr = o;
	}
	if (g->ovr.var[0] && g->ovr.valid && g->ovr.gfx[0])
		gd_strlcpy(g->gfx_effective, g->ovr.gfx,
			   sizeof g->gfx_effective);
	else if (g->ovr.var[0] && !g->ovr.valid)
		g->gfx_effective[0] = '\0'; /* ROCm won't start: no target */
}

static int is_uuid_tok(const char *t)
{
	return !strncmp(t, "GPU-", 4) || !strncmp(t, "MIG-", 4);
}

int gd_visible_parse(const char *value, int n_agents, const char *const *uuids,
		     int stop_at_bad, int *keep, int max, int *bad)
{
	char buf[256], *save = NULL, *tok;
	int n = 0, pos = 0;

	*bad = 0;
	gd_strlcpy(buf, value, sizeof buf);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save), pos++) {
		int idx = -1;
		uint32_t u;

		tok = gd_trim(tok);
		if (gd_parse_u32(tok, 10, &u) == 0 && u < (uint32_t)n_agents) {
			idx = (int)u;
		} else if (is_uuid_tok(tok) && uuids) {
			for (int i = 0; i < n_agents; i++)
				if (uuids[i] && uuids[i][0] &&
				    !strcasecmp(uuids[i], tok)) {
					idx = i;
					break;
				}
		}
		for (int k = 0; idx >= 0 && k < n; k++)
			if (keep[k] == idx)
				idx = -2; /* a duplicate is invalid */
		if (idx < 0) {
			if (!*bad)
				*bad = pos + 1;
			if (stop_at_bad)
				break;
			continue;
		}
		if (n < max)
			keep[n++] = idx;
	}
	return n;
}

struct agent {
	unsigned node;
	size_t gpu;
	char uuid[64];
};

static int agent_cmp(const void *a, const void *b)
{
	const struct agent *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

/* Apply one variable to the list of still-visible agents (in place). */
static int filter(const char *name, const char *val, struct agent *list, int n,
		  int *bad)
{
	const char *uu[256];
	int keep[256], k;
	struct agent tmp[256];

	for (int i = 0; i < n; i++)
		uu[i] = list[i].uuid;
	k = gd_visible_parse(val, n, uu, 1, keep, 256, bad);
	for (int i = 0; i < k; i++)
		tmp[i] = list[keep[i]];
	memcpy(list, tmp, (size_t)k * sizeof *list);
	(void)name;
	return k;
}

static void note_gpus(struct gd_machine *m, enum gd_vendor vendor,
		      const struct agent *all, int n_all,
		      const struct agent *vis, int n_vis, const char *vars)
{
	for (size_t gi = 0; gi < m->n_gpus; gi++) {
		struct gd_gpu *g = &m->gpus[gi];
		int total = 0, shown = 0, first = -1;

		if (g->vendor != vendor)
			continue;
		for (int i = 0; i < n_all; i++)
			total += all[i].gpu == gi;
		for (int i = 0; i < n_vis; i++)
			if (vis[i].gpu == gi) {
				shown++;
				if (first < 0)
					first = i;
			}
		if (!total)
			continue;
		g->n_agents_hidden = total - shown;
		g->hidden = shown == 0;
		if (g->hidden)
			gd_fmt(g->visible_note, sizeof g->visible_note,
			       "hidden by %s", vars);
		else if (shown < total)
			gd_fmt(g->visible_note, sizeof g->visible_note,
			       "%d of %d partitions hidden by %s; the first "
			       "visible one is device %d",
			       total - shown, total, vars, first);
		else
			gd_fmt(g->visible_note, sizeof g->visible_note,
			       "visible as device %d (after %s)", first, vars);
	}
}

static void apply_amd(gd_ctx *ctx, struct gd_machine *m, struct agent *a, int n)
{
	const char *rocr = gd_ctx_getenv(ctx, "ROCR_VISIBLE_DEVICES");
	const char *hip = gd_ctx_getenv(ctx, "HIP_VISIBLE_DEVICES");
	const char *hipvar = "HIP_VISIBLE_DEVICES";
	struct agent vis[256];
	char vars[128] = "";
	int nv = n, bad = 0;

	if (!hip) {
		hip = gd_ctx_getenv(ctx, "CUDA_VISIBLE_DEVICES");
		hipvar = "CUDA_VISIBLE_DEVICES";
	}
	qsort(a, (size_t)n, sizeof *a, agent_cmp);
	for (int i = 0; i < n; i++)
		m->gpus[a[i].gpu].first_agent =
		    m->gpus[a[i].gpu].first_agent < 0
			? i
			: m->gpus[a[i].gpu].first_agent;
	/* no AMD agent: a CUDA_VISIBLE_DEVICES that HIP would also read is
	 * about NVIDIA GPUs here, not "0 of 0 ROCm agents" */
	if ((!rocr && !hip) || !n)
		return;
	memcpy(vis, a, (size_t)n * sizeof *a);
	if (rocr) {
		nv = filter("ROCR_VISIBLE_DEVICES", rocr, vis, nv, &bad);
		gd_fmt(vars, sizeof vars, "ROCR_VISIBLE_DEVICES=%s", rocr);
	}
	if (hip) {
		nv = filter(hipvar, hip, vis, nv, &bad);
		gd_fmt(vars + strlen(vars), sizeof vars - strlen(vars),
		       "%s%s=%s", vars[0] ? " then " : "", hipvar, hip);
	}
	gd_sanitize(vars);
	note_gpus(m, GD_VENDOR_AMD, a, n, vis, nv, vars);
	gd_fmt(m->visible_summary, sizeof m->visible_summary,
	       "%s: %d of %d ROCm agents visible%s", vars, nv, n,
	       bad ? " (an entry was invalid: the list stops there)" : "");
}

static void apply_nvidia(gd_ctx *ctx, struct gd_machine *m, struct agent *a,
			 int n)
{
	const char *cuda = gd_ctx_getenv(ctx, "CUDA_VISIBLE_DEVICES");
	struct agent vis[256];
	char vars[160];
	int nv, bad = 0;

	if (!cuda)
		return;
	memcpy(vis, a, (size_t)n * sizeof *a);
	nv = filter("CUDA_VISIBLE_DEVICES", cuda, vis, n, &bad);
	gd_fmt(vars, sizeof vars, "CUDA_VISIBLE_DEVICES=%s", cuda);
	gd_sanitize(vars);
	note_gpus(m, GD_VENDOR_NVIDIA, a, n, vis, nv, vars);
	if (!m->visible_summary[0])
		gd_fmt(m->visible_summary, sizeof m->visible_summary,
		       "%s: %d of %d NVIDIA GPUs visible (PCI bus order)%s",
		       vars, nv, n,
		       bad ? " (an entry was invalid: the list stops there)"
			   : "");
}

void gd_visible_apply(gd_ctx *ctx, struct gd_machine *m)
{
	struct agent amd[256], nv[256];
	int na = 0, nn = 0;

	for (size_t gi = 0; gi < m->n_gpus; gi++) {
		struct gd_gpu *g = &m->gpus[gi];

		g->first_agent = -1;
		for (size_t j = 0; g->vendor == GD_VENDOR_AMD &&
				   j < g->n_kfd_nodes && na < 256;
		     j++) {
			amd[na].node = g->kfd_nodes[j].id;
			amd[na].gpu = gi;
			amd[na].uuid[0] = '\0';
			if (gd_known(&g->kfd_nodes[j].unique_id))
				gd_fmt(amd[na].uuid, sizeof amd[na].uuid,
				       "GPU-%016llx",
				       (unsigned long long)g->kfd_nodes[j]
					   .unique_id.v);
			na++;
		}
		if (g->vendor == GD_VENDOR_NVIDIA && nn < 256) {
			g->first_agent = nn;
			nv[nn].node = (unsigned)nn;
			nv[nn].gpu = gi;
			gd_strlcpy(nv[nn].uuid, g->nv.uuid.v,
				   sizeof nv[nn].uuid);
			nn++;
		}
	}
	apply_amd(ctx, m, amd, na);
	apply_nvidia(ctx, m, nv, nn);
}
