/* Profile choice and rendering shared by run, env and try. */
#include "wa_common.h"
#include "core/json.h"

#include <stdlib.h>
#include <string.h>

#include "doctor/verdict_windows.h"
#include "report/check_brief.h"
#include "report/check_win.h"

/* Windows: the kb's strategies are Linux ones (HSA_OVERRIDE_GFX_VERSION,
 * ...); what applies there is the HIP SDK matching the driver (HIP_PATH
 * corrected, its bin first on PATH, the Python line: gd_win_profile), as
 * the check's verdict picked it. A named or saved profile still wins. */
static void win_pick(struct gd_cli *cli, struct gd_pick *pk)
{
	struct gd_check_opts o = {0, 10.0, NULL};
	struct gd_check_data *d;

	if (pk->origin == GD_PICK_NAMED || pk->origin == GD_PICK_SAVED)
		return;
	gd_profile_free(&pk->prof);
	gd_profile_init(&pk->prof);
	pk->origin = GD_PICK_NONE;
	d = calloc(1, sizeof *d);
	if (!d || gd_check_collect(cli, &o, d) < 0 || !d->win)
		goto out;
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		const struct gd_win_verdict *v = &d->win->vs[i];

		if (!v->judged || v->sdk < 0)
			continue;
		gd_profile_gpu_name(&d->m.gpus[i], pk->gpu_name,
				    sizeof pk->gpu_name);
		pk->gpu = (int)i;
		if (gd_win_profile(&d->win->wi, v, &pk->prof) == 0) {
			pk->origin = GD_PICK_RECOMMENDED;
			goto out;
		}
		gd_profile_free(&pk->prof);
		gd_profile_init(&pk->prof);
	}
out:
	if (d)
		gd_check_free(d);
	free(d);
}

json_t *gd_wa_verdict_workaround_json(struct gd_cli *cli)
{
	struct gd_check_opts o = {0, 10.0, NULL};
	struct gd_check_data *d = calloc(1, sizeof *d);
	json_t *w = NULL;
	struct gd_brief b;

	if (d && gd_check_collect(cli, &o, d) == 0)
		for (size_t i = 0; !w && i < d->m.n_gpus; i++) {
			gd_brief_fill(cli, d, i, &b);
			if (b.wa.any) {
				w = gd_brief_workaround_json(&b.wa);
				json_object_set_new(
				    w, "gpu", json_integer((json_int_t)i));
			}
		}
	if (d)
		gd_check_free(d);
	free(d);
	return w ? w : json_null();
}

int gd_wa_pick(struct gd_cli *cli, const char *cmd, const char *name,
	       struct gd_machine *m, struct gd_pick *pk)
{
	char err[1024];
	int rc;

	memset(m, 0, sizeof *m);
	if (!name && gd_discover(&cli->ctx, m) < 0) {
		fprintf(stderr, "gpudoctor %s: out of memory\n", cmd);
		return -1;
	}
	rc = gd_profile_pick(&cli->ctx, name, name ? NULL : m, pk, err,
			     sizeof err);
	if (rc < 0) {
		fprintf(stderr, "gpudoctor %s: %s\n", cmd,
			err[0] ? err : "cannot choose a profile");
		return -1;
	}
	if (!name && gd_ctx_is_windows(&cli->ctx))
		win_pick(cli, pk);
	return 0;
}

const char *gd_wa_origin_name(enum gd_pick_origin o)
{
	static const char *n[] = {"none", "named", "saved", "recommended"};

	return n[o];
}

void gd_wa_describe(const struct gd_pick *pk, char *buf, size_t cap)
{
	char sum[768], when[64] = "";

	gd_profile_summary(&pk->prof, sum, sizeof sum);
	if (pk->prof.saved[0])
		gd_fmt(when, sizeof when, " (saved %s)", pk->prof.saved);
	switch (pk->origin) {
	case GD_PICK_NAMED:
	case GD_PICK_SAVED:
		gd_fmt(buf, cap, "profile %s: %s%s", pk->prof.name, sum, when);
		break;
	case GD_PICK_RECOMMENDED:
		if (!strcmp(pk->prof.strategy, "windows-hip-sdk")) {
			gd_fmt(buf, cap,
			       "%s for %s: the HIP SDK the check's verdict "
			       "chose: %s",
			       pk->prof.name, pk->gpu_name, sum);
			break;
		}
		gd_fmt(buf, cap,
		       "recommended strategy %s for %s: %s (not "
		       "checked here; 'gpudoctor try --save' checks and keeps "
		       "one)",
		       pk->prof.name, pk->gpu_name, sum);
		break;
	case GD_PICK_NONE:
		if (pk->gpu_name[0])
			gd_fmt(buf, cap,
			       "no profile for %s, nothing changed "
			       "('gpudoctor try --save' finds one)",
			       pk->gpu_name);
		else
			gd_fmt(buf, cap,
			       "no GPU found and no --profile given, "
			       "nothing changed");
		break;
	}
	gd_sanitize(buf);
}

json_t *gd_wa_jstr(const char *s)
{
	return gd_json_str(s);
}

json_t *gd_wa_jstr_or_null(const char *s)
{
	return s && s[0] ? gd_wa_jstr(s) : json_null();
}

json_t *gd_wa_words_json(const char *s)
{
	json_t *a = json_array();
	char w[1024];

	while (s && *s) {
		size_t k = strcspn(s, " ");

		if (k && k < sizeof w) {
			memcpy(w, s, k);
			w[k] = '\0';
			json_array_append_new(a, gd_wa_jstr(w));
		}
		s += k;
		s += strspn(s, " ");
	}
	return a;
}

json_t *gd_wa_profile_json(const struct gd_profile *p)
{
	json_t *o = json_object(), *set = json_object(), *unset = json_array();
	json_t *pre = json_array(), *notes = json_array();

	json_object_set_new(o, "name", gd_wa_jstr(p->name));
	json_object_set_new(o, "path", gd_wa_jstr_or_null(p->path));
	json_object_set_new(o, "strategy", gd_wa_jstr_or_null(p->strategy));
	json_object_set_new(o, "saved", gd_wa_jstr_or_null(p->saved));
	for (size_t i = 0; i < p->items.n; i++) {
		const struct gd_prof_item *it = &p->items.v[i];
		json_t *e;

		switch (it->op) {
		case GD_PROF_SET:
			json_object_set_new(set, it->name,
					    gd_wa_jstr(it->value));
			break;
		case GD_PROF_UNSET:
			json_array_append_new(unset, gd_json_str(it->name));
			break;
		case GD_PROF_PREPEND:
			e = json_object();
			json_object_set_new(e, "name", gd_json_str(it->name));
			json_object_set_new(e, "dir", gd_wa_jstr(it->value));
			json_array_append_new(pre, e);
			break;
		}
	}
	for (size_t i = 0; i < p->notes.n; i++)
		json_array_append_new(notes, gd_wa_jstr(p->notes.v[i]));
	json_object_set_new(o, "set", set);
	json_object_set_new(o, "unset", unset);
	json_object_set_new(o, "prepend_path", pre);
	json_object_set_new(o, "notes", notes);
	return o;
}

json_t *gd_wa_pick_json(const struct gd_pick *pk)
{
	json_t *o = json_object();

	json_object_set_new(o, "origin",
			    gd_json_str(gd_wa_origin_name(pk->origin)));
	json_object_set_new(o, "gpu", gd_wa_jstr_or_null(pk->gpu_name));
	json_object_set_new(o, "profile",
			    pk->origin == GD_PICK_NONE
				? json_null()
				: gd_wa_profile_json(&pk->prof));
	return o;
}
