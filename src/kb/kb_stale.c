/* kb/: which entries were last checked too long ago (`gpudoctor kb
 * --stale`). Sources carry the date their claims were last checked; an
 * entry, with everything nested in it, is as fresh as its newest source. */
#include <stdio.h>
#include <string.h>

#include "kb_internal.h"
#include "kb_raw.h"

/* Add every source id below o to ids (once each); newest "checked" day
 * into *best. */
static void gather(const gd_kb *kb, const json_t *o, json_t *ids, long *best)
{
	const char *k;
	json_t *m, *s;
	size_t i;

	if (json_is_array(o)) {
		json_array_foreach(o, i, m) gather(kb, m, ids, best);
		return;
	}
	json_object_foreach((json_t *)o, k, m)
	{
		if (strcmp(k, "sources")) {
			gather(kb, m, ids, best);
			continue;
		}
		json_array_foreach(m, i, s)
		{
			const json_t *src =
			    gd_kb_source(kb, json_string_value(s));
			long day = gd_kb_day(gd_kb_str(src, "checked"));
			int seen = 0;
			size_t j;
			json_t *x;

			json_array_foreach(ids, j, x) seen |= json_equal(x, s);
			if (!seen)
				json_array_append(ids, s);
			if (day > *best)
				*best = day;
		}
	}
}

static void ymd(long day, char *buf, size_t cap)
{
	/* Inverse of gd_kb_day (civil-from-days). */
	long z = day + 719468, era = z / 146097, doe = z - era * 146097;
	long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long doy = doe - (365 * yoe + yoe / 4 - yoe / 100),
	     mp = (5 * doy + 2) / 153;
	long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;

	snprintf(buf, cap, "%04ld-%02ld-%02ld", yoe + era * 400 + (m <= 2), m,
		 d);
}

static void entry(const gd_kb *kb, json_t *out, const char *kind,
		  const char *id, const json_t *o, long today, long max_age)
{
	json_t *ids = json_array(), *e;
	long best = -1;
	char date[64] = "";

	gather(kb, o, ids, &best);
	if (!json_array_size(ids) || (best >= 0 && today - best <= max_age)) {
		json_decref(ids);
		return;
	}
	if (best >= 0)
		ymd(best, date, sizeof date);
	e = json_pack("{s:s, s:s?, s:s?, s:I, s:o}", "kind", kind, "id", id,
		      "checked", best >= 0 ? date : NULL, "age_days",
		      (json_int_t)(best >= 0 ? today - best : -1), "sources",
		      ids);
	if (e)
		json_array_append_new(out, e);
}

/* Each list of the kb with the member that names an entry. */
static const struct {
	const char *kind, *list, *sub, *idkey;
} lists[] = {
    {"target", "targets", NULL, "gfx"},
    {"issue", "issues", NULL, "id"},
    {"strategy", "strategies", NULL, "id"},
    {"signature", "signatures", NULL, "id"},
    {"pci-not-gpu", "pci_not_gpu", NULL, "name"},
    {"nvidia-chip", "nvidia_chips", NULL, "sm"},
    {"amd-no-kfd", "amd_no_kfd", NULL, "family"},
    {"library", "libraries", NULL, "soname"},
    {"nvidia-gpu", "nvidia", "gpus", "pci_id"},
    {"compute-capability", "nvidia", "compute_capabilities", "sm"},
    {"cuda-driver-min", "nvidia", "cuda_driver_min", "cuda"},
};

json_t *gd_kb_stale(const gd_kb *kb, long today, long max_age)
{
	const json_t *root = gd_kb_root(kb), *w;
	json_t *out = json_array(), *e, *stacks, *adv;
	const char *wk, *sk;
	size_t i, j;

	if (!out || !root)
		return out;
	for (i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		const json_t *l = json_object_get(root, lists[i].list);

		if (lists[i].sub)
			l = json_object_get(l, lists[i].sub);
		json_array_foreach(l, j, e)
		    entry(kb, out, lists[i].kind, gd_kb_str(e, lists[i].idkey),
			  e, today, max_age);
	}
	w = json_object_get(root, "workloads");
	json_object_foreach((json_t *)w, wk, stacks)
	{
		json_object_foreach(stacks, sk, adv)
		{
			char id[128];

			snprintf(id, sizeof id, "%s/%s", wk, sk);
			entry(kb, out, "workload", id, adv, today, max_age);
		}
	}
	return out;
}
