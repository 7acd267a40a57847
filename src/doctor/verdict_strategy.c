/* The workaround strategies of the knowledge base, as verdict steps: what
 * `gpudoctor try` would test for this GPU, and the steps only the user can
 * take (kernel parameters, firmware), which gpudoctor never applies. */
#include <stdio.h>
#include <string.h>

#include "kb/kb.h"
#include "strategy.h"
#include "verdict_util.h"

static void add_try_step(struct gd_verdict *v, const struct gd_strategy_list *l,
			 int gpu)
{
	char list[560] = "";
	size_t used = 0;
	int n = 0;

	for (size_t i = 0; i < l->v.n; i++) {
		const struct gd_strategy *s = &l->v.v[i];
		char sum[256];

		if (s->gpu != gpu || s->kind != GD_STRAT_ENV)
			continue;
		gd_profile_summary(&s->prof, sum, sizeof sum);
		if (used + strlen(sum) + 4 >= sizeof list)
			break;
		used += (size_t)snprintf(list + used, sizeof list - used,
					 "%s%s", n ? "; " : "", sum);
		n++;
	}
	/* a single strategy already given as a step needs no try step */
	for (size_t i = 0; n == 1 && i < v->steps.n; i++)
		if (strstr(v->steps.v[i].text, list))
			return;
	if (n)
		gd_v_step(v, GD_C_STRATEGY_TRY,
			  "If ML work fails or hangs, let 'gpudoctor try -- "
			  "YOUR COMMAND' test the known workarounds one by "
			  "one (%d: %s) and '--save' the first that works",
			  n, list);
}

static int step_mentions(const struct gd_verdict *v, const char *s)
{
	for (size_t i = 0; i < v->steps.n; i++)
		if (strstr(v->steps.v[i].text, s))
			return 1;
	return 0;
}

/* A user-step already in force, asked for but pending, or judged from the
 * firmware version itself is not offered again (1: skip it). */
static int user_step_settled(gd_ctx *ctx, const struct gd_machine *m,
			     struct gd_verdict *v, const struct gd_strategy *s)
{
	const struct gd_gpu *g = &m->gpus[s->gpu];
	struct gd_kb_firmware f;

	if (s->kernel_param[0]) {
		char mod[32] = "", par[48] = "";
		const char *dot = strchr(s->kernel_param, '.');
		const char *eq = strchr(s->kernel_param, '=');
		const struct gd_kopt *asked;

		if (gd_v_kparam_in_force(&m->kstate, s->kernel_param)) {
			gd_v_fact(v, GD_C_STRATEGY_IN_FORCE,
				  "%s is in force already (kb strategy %s): "
				  "not offered again",
				  s->kernel_param, s->id);
			return 1;
		}
		if (dot && eq && eq > dot) {
			gd_fmt(mod, sizeof mod, "%.*s",
			       (int)(dot - s->kernel_param), s->kernel_param);
			gd_fmt(par, sizeof par, "%.*s", (int)(eq - dot - 1),
			       dot + 1);
		}
		asked = gd_kstate_asked(&m->kstate, mod, par);
		/* pending: the fact and the initramfs step say so */
		if ((asked && eq && gd_kparam_same(asked->value, eq + 1)) ||
		    step_mentions(v, s->kernel_param))
			return 1;
	}
	return s->firmware[0] &&
	       gd_kb_firmware_get(ctx->kb, s->firmware, &f) == 0 && f.file &&
	       gd_fw_get(&g->fw, f.file);
}

static void add_user_steps(gd_ctx *ctx, const struct gd_machine *m,
			   struct gd_verdict *v,
			   const struct gd_strategy_list *l, int gpu)
{
	for (size_t i = 0; i < l->v.n; i++) {
		const struct gd_strategy *s = &l->v.v[i];

		if (s->gpu != gpu || s->kind != GD_STRAT_USER_STEP ||
		    user_step_settled(ctx, m, v, s))
			continue;
		gd_v_step(
		    v, GD_C_STRATEGY_USER_STEP,
		    "If it still hangs (not applied by gpudoctor): %s%s%s",
		    s->steps, s->reason[0] ? " — " : "", s->reason);
	}
}

void gd_v_strategies(gd_ctx *ctx, const struct gd_machine *m,
		     struct gd_diagnosis *d)
{
	struct gd_strategy_list l;

	memset(&l, 0, sizeof l);
	if (!m->n_gpus || gd_strategy_candidates(ctx, m, &l) < 0) {
		gd_strategy_list_free(&l);
		return;
	}
	for (size_t i = 0; i < d->n; i++) {
		struct gd_verdict *v = &d->v[i];

		if (v->status == GD_V_WORKS || v->status == GD_V_UNKNOWN ||
		    v->gpu_index < 0)
			continue;
		/* a missing or too-old NVIDIA driver: no variable fixes that */
		if (v->status == GD_V_SETUP &&
		    m->gpus[v->gpu_index].vendor == GD_VENDOR_NVIDIA)
			continue;
		add_try_step(v, &l, v->gpu_index);
		add_user_steps(ctx, m, v, &l, v->gpu_index);
	}
	gd_strategy_list_free(&l);
}
