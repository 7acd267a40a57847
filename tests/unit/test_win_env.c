/* Environment names on Windows are case-insensitive (issue #14): a Windows
 * capture's .gpudoctor/environ holds "Path", and gpudoctor asks for PATH;
 * on Windows itself (this test's .exe under Wine, whose own environment is
 * the real thing) gd_ctx_getenv and gd_profile_apply match names the same
 * way and keep the spelling they found. A Linux environment stays exact.
 * Runs natively and, in the Windows build, under Wine. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/ctx.h"
#include "core/plat.h"
#include "doctor/profile.h"
#include "t.h"

#define RX5700 "fixtures/windows-rx5700xt-hip62-hip71/root"

/* A Windows capture replayed: its "Path" answers PATH and path, HIP_PATH
 * answers hip_path; setting PATH replaces Path and keeps its spelling. */
static void test_capture(void)
{
	char *none[] = {NULL};
	gd_ctx ctx;
	const char *p;

	CHECK_INT(gd_ctx_init(&ctx, RX5700, none), 0);
	CHECK(gd_ctx_is_windows(&ctx));
	p = gd_ctx_getenv(&ctx, "PATH");
	CHECK(p && strstr(p, "C:\\Windows\\system32"));
	CHECK(p && gd_ctx_getenv(&ctx, "path") == p);
	CHECK(gd_ctx_getenv(&ctx, "hip_path") ==
	      gd_ctx_getenv(&ctx, "HIP_PATH"));
	CHECK(gd_ctx_getenv(&ctx, "HIP_PATH_62") != NULL);
	CHECK_INT(gd_ctx_setenv(&ctx, "PATH", "C:\\x"), 0);
	CHECK(gd_envv_find(ctx.judged, "Path", 0) >= 0);
	CHECK_INT(gd_envv_find(ctx.judged, "PATH", 0), -1);
	CHECK_STR(gd_ctx_getenv(&ctx, "Path"), "C:\\x");
	gd_ctx_free(&ctx);
}

/* A Linux tree: PATH and Path are two variables. */
static void test_linux(void)
{
	char *env[] = {"PATH=/usr/bin", "Path=/nowhere", NULL};

	CHECK_INT(gd_envv_find(env, "PATH", 0), 0);
	CHECK_INT(gd_envv_find(env, "Path", 0), 1);
	CHECK_INT(gd_envv_find(env, "path", 0), -1);
	CHECK_INT(gd_envv_find(env, "path", 1), 0);
	CHECK_INT(gd_envv_find(env, "PAT", 1), -1);
}

/* This process's own environment. On Windows (Wine) every name is looked
 * up whatever its case, and a profile's PATH lands in the one variable
 * the system has, under the name the system gave it. */
static void test_own(void)
{
	char **own = gd_plat_environ();
	struct gd_profile p;
	gd_ctx ctx;
	char **env;
	long i;
	int n_path = 0;

	if (!gd_env_own_folds()) {
		char *lin[] = {"PATH=/usr/bin", "Path=/x", NULL};

		CHECK_INT(gd_ctx_init(&ctx, "/", lin), 0);
		CHECK_STR(gd_ctx_getenv(&ctx, "Path"), "/x");
		CHECK(gd_ctx_getenv(&ctx, "path") == NULL);
		gd_ctx_free(&ctx);
		return;
	}
	i = gd_envv_find(own, "PATH", 1);
	CHECK(i >= 0);
	if (i < 0)
		return;
	fprintf(stderr, "test_win_env: this Windows spells it %.4s\n", own[i]);
	CHECK_INT(gd_ctx_init(&ctx, "/", own), 0);
	CHECK(gd_ctx_getenv(&ctx, "PATH") != NULL);
	CHECK(gd_ctx_getenv(&ctx, "pAtH") == gd_ctx_getenv(&ctx, "PATH"));
	CHECK(gd_ctx_live_getenv(&ctx, "path") != NULL);
	CHECK(gd_ctx_getenv(&ctx, "SYSTEMROOT") != NULL);
	gd_profile_init(&p);
	gd_profile_add(&p, GD_PROF_PREPEND, "PATH", "C:\\ROCm\\6.2\\bin");
	env = gd_profile_apply(&p, ctx.env);
	for (size_t k = 0; env && env[k]; k++)
		if (!strncasecmp(env[k], "PATH=", 5)) {
			n_path++;
			CHECK(!strncmp(env[k], own[i], 5));
			CHECK(!strncmp(env[k] + 5, "C:\\ROCm\\6.2\\bin;", 16));
		}
	CHECK_INT(n_path, 1);
	gd_env_free(env);
	gd_profile_free(&p);
	gd_ctx_free(&ctx);
}

int main(void)
{
	test_capture();
	test_linux();
	test_own();
	return t_done("test_win_env");
}
