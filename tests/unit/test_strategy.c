/* Candidate strategies: matching kb entries to machines (hand-built facts
 * against a small kb, then the captured machines against the shipped kb),
 * and which profile `run` picks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discover/discover.h"
#include "doctor/strategy.h"
#include "kb/kb_raw.h"
#include "t.h"
#include "t_machine.h"

static const char kb_text[] =
    "{\"sources\": {\"s1\": {\"title\": \"t\", \"url\": \"https://x/1\"}},"
    " \"strategies\": ["
    " {\"id\": \"a-none\", \"targets\": [\"gfx1010\"], \"order\": 0,"
    "  \"kind\": \"env\", \"env\": {}},"
    " {\"id\": \"a-ovr-103\", \"targets\": [\"gfx1010\"], \"order\": 2,"
    "  \"kind\": \"env\", \"env\": {\"HSA_OVERRIDE_GFX_VERSION\": \"10.3.0\"},"
    "  \"sources\": [\"s1\"], \"reason\": \"r\"},"
    " {\"id\": \"a-ovr-101\", \"targets\": [\"gfx1010\"], \"order\": 1,"
    "  \"kind\": \"env\", \"env\": {\"HSA_OVERRIDE_GFX_VERSION\": \"10.1.0\"},"
    "  \"unset\": [\"MIOPEN_FIND_MODE\"], \"recommended\": true},"
    " {\"id\": \"a-bad\", \"targets\": [\"gfx1010\"], \"order\": 3,"
    "  \"kind\": \"env\", \"env\": {\"HSA_OVERRIDE_GFX_VERSION\": \"10.3\"}},"
    " {\"id\": \"a-odd\", \"targets\": [\"gfx1010\"], \"kind\": \"reboot\"},"
    " {\"id\": \"a-cwsr\", \"targets\": [\"gfx1010\"], \"order\": 1,"
    "  \"kind\": \"user-step\", \"steps\": \"amdgpu.cwsr_enable=0\"},"
    " {\"id\": \"nv\", \"vendor\": \"nvidia\", \"order\": 1, \"kind\": \"env\","
    "  \"env\": {\"CUDA_MODULE_LOADING\": \"LAZY\"}},"
    " {\"id\": \"apu\", \"condition\": \"apu-beside-dgpu\", \"order\": 1,"
    "  \"kind\": \"env\", \"env\": {\"ROCR_VISIBLE_DEVICES\": \"{dgpus}\"}}"
    "]}";

static struct gd_gpu amd(const char *gfx, int integrated, unsigned node,
			 uint64_t uid)
{
	static struct gd_kfd_node nodes[8];
	static int used;
	struct gd_gpu g;

	memset(&g, 0, sizeof g);
	g.vendor = GD_VENDOR_AMD;
	g.pci.vendor_id = 0x1002;
	g.pci.device_id = 0x731f;
	g.integrated = integrated;
	gd_strlcpy(g.gfx, gfx, sizeof g.gfx);
	memset(&nodes[used], 0, sizeof nodes[used]);
	nodes[used].id = node;
	if (uid)
		gd_num_set(&nodes[used].unique_id, uid, "test");
	g.kfd_nodes = &nodes[used++];
	g.n_kfd_nodes = 1;
	return g;
}

static const char *ids(const struct gd_strategy_list *l)
{
	static char buf[1024];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->v.n; i++) {
		gd_fmt(buf + used, sizeof buf - used, "%s%s", i ? " " : "",
		       l->v.v[i].id);
		used += strlen(buf + used);
	}
	return buf;
}

static void test_small_kb(void)
{
	gd_kb *kb = gd_kb_wrap(json_loads(kb_text, 0, NULL));
	struct gd_gpu gpus[2];
	struct gd_machine m;
	struct gd_strategy_list l;
	char *env[] = {NULL};
	gd_ctx ctx;

	CHECK(kb != NULL);
	gd_ctx_init(&ctx, "/", env);
	ctx.kb = kb;
	memset(&m, 0, sizeof m);

	/* No GPU: only the baseline. */
	CHECK_INT(gd_strategy_candidates(&ctx, &m, &l), 0);
	CHECK_STR(ids(&l), "baseline");
	gd_strategy_list_free(&l);

	/* gfx1010: kb order, the empty one folded into the baseline, the
	 * invalid override and the unknown kind skipped with a diagnostic,
	 * the user step after the env change of the same order. */
	gpus[0] = amd("gfx1010", 0, 1, 0);
	m.gpus = gpus;
	m.n_gpus = 1;
	ctx.diags.n = 0;
	CHECK_INT(gd_strategy_candidates(&ctx, &m, &l), 0);
	CHECK_STR(ids(&l), "baseline a-ovr-101 a-cwsr a-ovr-103");
	CHECK_INT(ctx.diags.n, 2);
	CHECK_INT(l.v.v[0].kind, GD_STRAT_BASELINE);
	CHECK_INT(l.v.v[1].kind, GD_STRAT_ENV);
	CHECK(l.v.v[1].recommended);
	CHECK_INT(l.v.v[1].prof.items.n, 2);
	CHECK_STR(l.v.v[1].prof.items.v[0].value, "10.1.0");
	CHECK_INT(l.v.v[1].prof.items.v[1].op, GD_PROF_UNSET);
	CHECK_INT(l.v.v[2].kind, GD_STRAT_USER_STEP);
	CHECK_STR(l.v.v[2].steps, "amdgpu.cwsr_enable=0");
	CHECK_INT(l.v.v[2].prof.items.n, 0);
	CHECK_STR(l.v.v[3].sources, "https://x/1");
	CHECK_STR(l.v.v[3].for_what, "gfx1010");
	gd_strategy_list_free(&l);

	/* APU (node 1) beside a dGPU (node 2): hide the APU by the dGPU's
	 * ROCm UUID, or by its KFD-order index when the UUID is unknown. */
	gpus[0] = amd("gfx90c", 1, 1, 0);
	gpus[1] = amd("gfx1100", 0, 2, 0x1234abcdULL);
	m.n_gpus = 2;
	CHECK_INT(gd_strategy_candidates(&ctx, &m, &l), 0);
	CHECK_STR(ids(&l), "baseline apu");
	CHECK_STR(l.v.v[1].prof.items.v[0].value, "GPU-000000001234abcd");
	CHECK_INT(l.v.v[1].gpu, 1);
	CHECK_INT(gd_strategy_primary_gpu(&m), 1);
	gd_strategy_list_free(&l);
	gpus[1] = amd("gfx1100", 0, 2, 0);
	CHECK_INT(gd_strategy_candidates(&ctx, &m, &l), 0);
	CHECK_STR(l.v.v[1].prof.items.v[0].value, "1");
	gd_strategy_list_free(&l);

	/* NVIDIA by vendor. */
	memset(&gpus[0], 0, sizeof gpus[0]);
	gpus[0].vendor = GD_VENDOR_NVIDIA;
	gd_strlcpy(gpus[0].nv.sm, "sm_90", sizeof gpus[0].nv.sm);
	m.n_gpus = 1;
	CHECK_INT(gd_strategy_candidates(&ctx, &m, &l), 0);
	CHECK_STR(ids(&l), "baseline nv");
	gd_strategy_list_free(&l);

	/* A kb without strategies. */
	ctx.kb = NULL;
	CHECK_INT(gd_strategy_candidates(&ctx, &m, &l), 0);
	CHECK_STR(ids(&l), "baseline");
	gd_strategy_list_free(&l);
	gd_ctx_free(&ctx);
	gd_kb_free(kb);
}

static int has_id(const struct gd_strategy_list *l, const char *id,
		  enum gd_strategy_kind kind)
{
	for (size_t i = 0; i < l->v.n; i++)
		if (!strcmp(l->v.v[i].id, id))
			return l->v.v[i].kind == kind;
	return 0;
}

static const char *env_of(const struct gd_strategy_list *l, const char *id,
			  const char *name)
{
	for (size_t i = 0; i < l->v.n; i++) {
		const struct gd_profile *p = &l->v.v[i].prof;

		if (strcmp(l->v.v[i].id, id))
			continue;
		for (size_t k = 0; k < p->items.n; k++)
			if (!strcmp(p->items.v[k].name, name))
				return p->items.v[k].value;
	}
	return NULL;
}

static int captured(const char *name, gd_ctx *ctx, struct gd_machine *m,
		    struct gd_strategy_list *l)
{
	const char *src = getenv("GD_SRCDIR");
	char root[1024];
	char *env[] = {NULL};

	gd_fmt(root, sizeof root, "%s/tests/fixtures/%s/root", src ? src : "..",
	       name);
	if (gd_ctx_init(ctx, root, env) < 0)
		return -1;
	ctx->kb = gd_kb_load_embedded();
	if (gd_discover(ctx, m) < 0)
		return -1;
	return gd_strategy_candidates(ctx, m, l);
}

static void done(gd_ctx *ctx, struct gd_machine *m, struct gd_strategy_list *l)
{
	gd_strategy_list_free(l);
	t_machine_free(ctx, m);
}

static void test_captured(void)
{
	struct gd_strategy_list l;
	struct gd_machine m;
	gd_ctx ctx;

	CHECK_INT(captured("rx5700xt", &ctx, &m, &l), 0);
	printf("rx5700xt: %s\n", ids(&l));
	CHECK_STR(l.v.v[0].id, "baseline");
	/* 10.1.0 is gfx1010 itself: no change on this GPU, so not offered */
	CHECK(!has_id(&l, "rdna1-override-10.1.0", GD_STRAT_ENV));
	CHECK(has_id(&l, "rdna1-override-10.3.0", GD_STRAT_ENV));
	CHECK(has_id(&l, "rdna1-override-10.3.0-miopen-fast", GD_STRAT_ENV));
	CHECK(!has_id(&l, "rdna1-none", GD_STRAT_ENV));
	CHECK(!has_id(&l, "gfx1151-sdma-off", GD_STRAT_ENV));
	CHECK_STR(
	    env_of(&l, "rdna1-override-10.3.0", "HSA_OVERRIDE_GFX_VERSION"),
	    "10.3.0");
	CHECK(l.v.n > 1 && !strcmp(l.v.v[1].id, "rdna1-override-10.3.0"));
	done(&ctx, &m, &l);

	CHECK_INT(captured("strixhalo", &ctx, &m, &l), 0);
	printf("strixhalo: %s\n", ids(&l));
	CHECK(has_id(&l, "gfx1151-sdma-off", GD_STRAT_ENV));
	CHECK(has_id(&l, "gfx1151-sdma-off-hipblaslt", GD_STRAT_ENV));
	CHECK(has_id(&l, "gfx1151-sdma-off-override-11.0.0", GD_STRAT_ENV));
	CHECK(has_id(&l, "gfx1151-cwsr-off", GD_STRAT_USER_STEP));
	CHECK(!has_id(&l, "apu-hide-igpu", GD_STRAT_ENV)); /* APU alone */
	CHECK(!has_id(&l, "rdna1-override-10.3.0", GD_STRAT_ENV));
	CHECK_STR(env_of(&l, "gfx1151-sdma-off", "HSA_ENABLE_SDMA"), "0");
	CHECK_STR(env_of(&l, "gfx1151-sdma-off-override-11.0.0",
			 "HSA_OVERRIDE_GFX_VERSION"),
		  "11.0.0");
	done(&ctx, &m, &l);

	CHECK_INT(captured("apu-plus-dgpu", &ctx, &m, &l), 0);
	printf("apu-plus-dgpu: %s\n", ids(&l));
	CHECK(has_id(&l, "apu-hide-igpu", GD_STRAT_ENV));
	/* The kb's "0" is a placeholder: the dGPU (KFD node 1) by its UUID. */
	CHECK_STR(env_of(&l, "apu-hide-igpu", "ROCR_VISIBLE_DEVICES"),
		  "GPU-a1ffc9d1799c317f");
	CHECK(!has_id(&l, "gfx1151-sdma-off", GD_STRAT_ENV));
	done(&ctx, &m, &l);
}

/* The kb's "recommended" strategy is what run/env apply when nothing was
 * saved; the shipped kb marks none, and the docs (docs/workarounds.md,
 * docs/kb.md, `run --help`, the man page) say so: change them together. */
static void test_recommended(void)
{
	static const char *const machines[] = {"rx5700xt", "strixhalo",
					       "apu-plus-dgpu"};
	gd_kb *kb = gd_kb_wrap(json_loads(kb_text, 0, NULL));
	struct gd_gpu gpus[1];
	struct gd_strategy_list l;
	struct gd_machine m;
	struct gd_pick pk;
	char *env[] = {"XDG_CONFIG_HOME=/nonexistent-gd-test", NULL};
	char err[1024];
	gd_ctx ctx;

	gd_ctx_init(&ctx, "/", env);
	memset(&m, 0, sizeof m);
	gpus[0] = amd("gfx1010", 0, 1, 0);
	m.gpus = gpus;
	m.n_gpus = 1;
	ctx.kb = kb;
	CHECK_INT(gd_profile_pick(&ctx, NULL, &m, &pk, err, sizeof err), 0);
	CHECK_INT(pk.origin, GD_PICK_RECOMMENDED);
	CHECK_STR(pk.prof.name, "a-ovr-101");
	CHECK_STR(pk.gpu_name, "gpu-1002-731f-gfx1010");
	gd_pick_free(&pk);
	gd_ctx_free(&ctx);
	gd_kb_free(kb);

	for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++) {
		int n = 0;

		CHECK_INT(captured(machines[i], &ctx, &m, &l), 0);
		for (size_t k = 0; k < l.v.n; k++)
			n += l.v.v[k].recommended;
		CHECK_INT(n, 0);
		done(&ctx, &m, &l);
	}
}

static void test_pick(void)
{
	char dir[] = "/tmp/gd-test-pick-XXXXXX";
	char xdg[600], path[700], err[1024], cmd[700];
	struct gd_profile p;
	struct gd_pick pk;
	struct gd_strategy_list l;
	struct gd_machine m;
	gd_ctx ctx;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(captured("rx5700xt", &ctx, &m, &l), 0);
	gd_fmt(xdg, sizeof xdg, "%s/cfg", dir);
	gd_ctx_setenv(&ctx, "XDG_CONFIG_HOME", xdg);

	/* Nothing saved: nothing applies, and the GPU's name is known. */
	CHECK_INT(gd_profile_pick(&ctx, NULL, &m, &pk, err, sizeof err), 0);
	CHECK_INT(pk.origin, GD_PICK_NONE);
	CHECK_STR(pk.gpu_name, "gpu-1002-731f-gfx1010");
	gd_pick_free(&pk);

	/* Saved: found by the GPU's key. */
	gd_profile_init(&p);
	gd_profile_add(&p, GD_PROF_SET, "HSA_OVERRIDE_GFX_VERSION", "10.3.0");
	gd_fmt(path, sizeof path, "%s/gpudoctor/gpu-1002-731f-gfx1010.profile",
	       xdg);
	CHECK_INT(gd_profile_save(path, &p, err, sizeof err), 0);
	CHECK_INT(gd_profile_pick(&ctx, NULL, &m, &pk, err, sizeof err), 0);
	CHECK_INT(pk.origin, GD_PICK_SAVED);
	CHECK_INT(pk.prof.items.n, 1);
	gd_pick_free(&pk);

	/* A saved profile that is refused is an error, never skipped. */
	chmod(path, 0666);
	CHECK_INT(gd_profile_pick(&ctx, NULL, &m, &pk, err, sizeof err),
		  -EPERM);
	CHECK(strstr(err, "chmod go-w") != NULL);
	gd_pick_free(&pk);

	/* Named. */
	CHECK_INT(gd_profile_pick(&ctx, "nosuch", NULL, &pk, err, sizeof err),
		  -ENOENT);
	CHECK(strstr(err, "no profile 'nosuch'") != NULL);
	gd_pick_free(&pk);
	gd_fmt(path, sizeof path, "%s/gpudoctor/llama.profile", xdg);
	CHECK_INT(gd_profile_save(path, &p, err, sizeof err), 0);
	CHECK_INT(gd_profile_pick(&ctx, "llama", NULL, &pk, err, sizeof err),
		  0);
	CHECK_INT(pk.origin, GD_PICK_NAMED);
	CHECK_STR(pk.prof.name, "llama");
	gd_pick_free(&pk);

	/* A named profile (try --save-as) is used only through --profile:
	 * with the GPU's own profile gone, nothing applies. */
	gd_fmt(path, sizeof path, "%s/gpudoctor/gpu-1002-731f-gfx1010.profile",
	       xdg);
	CHECK_INT(unlink(path), 0);
	CHECK_INT(gd_profile_pick(&ctx, NULL, &m, &pk, err, sizeof err), 0);
	CHECK_INT(pk.origin, GD_PICK_NONE);
	gd_pick_free(&pk);
	gd_profile_free(&p);
	done(&ctx, &m, &l);
	gd_fmt(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK_INT(system(cmd), 0);
}

int main(void)
{
	test_small_kb();
	test_captured();
	test_recommended();
	test_pick();
	return t_done("test_strategy");
}
