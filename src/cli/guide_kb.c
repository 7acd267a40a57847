/* The guide's kb reads, still on the JSON (kb/kb_raw.h): the one cli/ file
 * besides cmd_kb.c and cmd_kb_text.c that does (tests/scripts/test_seams.sh
 * lists it); the typed entries of kb.h lack rocm_windows and the whole-list
 * walks it needs. */
#include "guide_kb.h"

#include <string.h>

#include "kb/kb_raw.h"

static const json_t *member(const json_t *o, const char *k)
{
	return json_object_get(o, k);
}

const char *gd_guide_kb_date(const gd_kb *kb)
{
	return json_string_value(gd_kb_get(kb, "kb_date"));
}

static void fill_target(const json_t *t, struct gd_guide_target *g)
{
	const json_t *lx = member(t, "rocm_linux"),
		     *win = member(t, "rocm_windows");
	const json_t *ov = member(t, "override");

	memset(g, 0, sizeof *g);
	g->gfx = gd_kb_str(t, "gfx");
	g->family = gd_kb_str(t, "family");
	g->product =
	    gd_kb_str(json_array_get(member(t, "products"), 0), "name");
	g->linux_status = gd_kb_str(lx, "status");
	g->linux_since = gd_kb_str(lx, "since");
	g->linux_note = gd_kb_str(lx, "note");
	g->win_status = gd_kb_str(win, "status");
	g->win_since = gd_kb_str(win, "since");
	g->win_note = gd_kb_str(win, "note");
	g->override = gd_kb_str(ov, "value");
	g->override_caveat = gd_kb_str(ov, "caveat");
	g->apu = json_is_true(member(t, "apu"));
}

size_t gd_guide_targets(const gd_kb *kb, struct gd_guide_target *out,
			size_t max)
{
	const json_t *ts = gd_kb_get(kb, "targets");
	size_t n = 0;

	for (size_t i = 0; i < json_array_size(ts) && n < max; i++)
		fill_target(json_array_get(ts, i), &out[n++]);
	return n;
}

int gd_guide_target_advice(const gd_kb *kb, const char *gfx,
			   const char *workload, struct gd_guide_advice *out)
{
	const json_t *a =
	    member(member(gd_kb_target(kb, gfx), "advice"), workload);

	if (!a)
		return -1;
	out->verdict = gd_kb_str(a, "verdict");
	out->backend = gd_kb_str(a, "backend");
	out->text = gd_kb_str(a, "text");
	out->install = gd_kb_str(a, "install");
	return 0;
}

int gd_guide_workload(const gd_kb *kb, const char *workload,
		      const char *backend, struct gd_guide_howto *out)
{
	const json_t *w =
	    member(member(gd_kb_get(kb, "workloads"), workload), backend);

	if (!w)
		return -1;
	out->install = gd_kb_str(w, "install");
	out->caveats = gd_kb_str(w, "caveats");
	return 0;
}

size_t gd_guide_nvidia_ccs(const gd_kb *kb, struct gd_guide_cc *out, size_t max)
{
	const json_t *a =
	    member(gd_kb_get(kb, "nvidia"), "compute_capabilities");
	size_t n = 0;

	for (size_t i = 0; i < json_array_size(a) && n < max; i++, n++) {
		const json_t *c = json_array_get(a, i);

		out[n].sm = gd_kb_str(c, "sm");
		out[n].cc = gd_kb_str(c, "cc");
		out[n].arch = gd_kb_str(c, "arch");
		out[n].min_cuda = gd_kb_str(c, "min_cuda");
		out[n].last_cuda = gd_kb_str(c, "last_cuda");
		out[n].note = gd_kb_str(c, "note");
	}
	return n;
}

size_t gd_guide_cuda_drivers(const gd_kb *kb, struct gd_guide_driver *out,
			     size_t max)
{
	const json_t *a = member(gd_kb_get(kb, "nvidia"), "cuda_driver_min");
	size_t n = 0;

	for (size_t i = 0; i < json_array_size(a) && n < max; i++, n++) {
		const json_t *c = json_array_get(a, i);

		out[n].cuda = gd_kb_str(c, "cuda");
		out[n].linux_min = gd_kb_str(c, "linux");
		out[n].windows_min = gd_kb_str(c, "windows");
		out[n].note = gd_kb_str(c, "note");
	}
	return n;
}
