/* Installed HIP SDKs the knowledge base knows not to see this GPU on
 * Windows (kb windows.hip_sdk[], docs/kb.md; verdict_windows.h). The one
 * entry today: HIP SDK 7.1.x and gfx1030 (docs/kb.md, "hip_sdk": 7.1.1's
 * amdhip64_7.dll returns hipErrorNoDevice, 6.4's amdhip64_6.dll works on
 * the same driver). Such an SDK is never the one recommended. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "kb/kb.h"
#include "verdict_windows.h"

static int lists(struct gd_kb_list l, const char *s)
{
	for (size_t i = 0; s && i < gd_kb_list_n(l); i++)
		if (gd_kb_list_at(l, i) && !strcasecmp(gd_kb_list_at(l, i), s))
			return 1;
	return 0;
}

/* "7.1" in the entry's sdk list names SDK 7.1 (any patch release). */
static int names_sdk(struct gd_kb_list l, const struct gd_win_sdk *s)
{
	for (size_t i = 0; i < gd_kb_list_n(l); i++) {
		const char *e = gd_kb_list_at(l, i);
		int a, b;

		if (e && sscanf(e, "%d.%d", &a, &b) == 2 && a == s->major &&
		    b == s->minor)
			return 1;
	}
	return 0;
}

/* "ROCm/hip#3899" from "https://github.com/ROCm/hip/issues/3899"; else
 * the kb's issue id. */
static void issue_ref(const struct gd_kb_issue *is, const char *id, char *buf,
		      size_t cap)
{
	static const char gh[] = "https://github.com/";
	const char *u = is->url, *n;

	if (u && !strncmp(u, gh, sizeof gh - 1) &&
	    (n = strstr(u, "/issues/")) && n > u + sizeof gh - 1)
		gd_fmt(buf, cap, "%.*s#%s", (int)(n - u - (sizeof gh - 1)),
		       u + sizeof gh - 1, n + 8);
	else
		gd_strlcpy(buf, id ? id : "kb", cap);
}

void gd_win_sdk_breaks(gd_ctx *ctx, const struct gd_gpu *g,
		       const struct gd_win_inventory *wi,
		       struct gd_win_verdict *v)
{
	size_t n = ctx && ctx->kb ? gd_kb_win_sdk_break_count(ctx->kb) : 0;

	for (size_t k = 0; g->gfx[0] && k < n; k++) {
		struct gd_kb_win_sdk_break b;
		struct gd_kb_issue is;

		if (gd_kb_win_sdk_break_at(ctx->kb, k, &b) < 0 ||
		    !lists(b.targets, g->gfx))
			continue;
		gd_kb_issue_get(ctx->kb, b.issue, &is);
		for (int i = 0; i < wi->n_sdks; i++) {
			if (v->sdk_broken[i] || !names_sdk(b.sdk, &wi->sdks[i]))
				continue;
			v->sdk_broken[i] = 1;
			issue_ref(&is, b.issue, v->sdk_broken_ref[i],
				  sizeof v->sdk_broken_ref[i]);
			gd_fmt(v->sdk_broken_why[i],
			       sizeof v->sdk_broken_why[i], "%s%s%s", b.text,
			       is.url ? "; " : "", is.url ? is.url : "");
		}
	}
}

void gd_win_sdk_broken_facts(const struct gd_gpu *g,
			     const struct gd_win_inventory *wi,
			     struct gd_win_verdict *v)
{
	for (int i = 0; i < wi->n_sdks; i++)
		if (v->sdk_broken[i])
			gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_SDK_KNOWN_BROKEN,
				    "HIP SDK %s (%s) does not see %s here, a "
				    "known issue: %s",
				    wi->sdks[i].version, wi->sdks[i].root,
				    g->gfx, v->sdk_broken_why[i]);
}
