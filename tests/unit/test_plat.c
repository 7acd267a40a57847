/* core/plat.h on the system the test runs on (Linux natively, Windows
 * under Wine): the test re-runs itself as the child, so the same cases
 * hold on both. Exit codes, a crash, a deadline, the whole tree killed (a
 * grandchild that would write a file later never does), the environment
 * handed over, output kept and capped, library loading errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/plat.h"
#include "core/util.h"
#include "t.h"

static char self[4096];

static int child(int argc, char **argv)
{
	const char *mode = argv[1];

	if (!strcmp(mode, "exit3")) {
		printf("hello from the child\n");
		return 3;
	}
	if (!strcmp(mode, "env")) {
		const char *v = getenv("GD_PLAT_TEST");

		printf("GD_PLAT_TEST=%s\n", v ? v : "(unset)");
		return 0;
	}
	if (!strcmp(mode, "crash")) {
		/* an illegal instruction: SIGILL on Linux (which the sanitizers
		 * leave alone), exception 0xC000001D on Windows */
		fflush(stdout);
		__builtin_trap();
	}
	if (!strcmp(mode, "flood")) {
		for (int i = 0; i < 10000; i++)
			printf("line %d of a flood of output\n", i);
		return 0;
	}
	if (!strcmp(mode, "parent") && argc > 2) {
		/* starts a grandchild that outlives us unless the tree dies */
		char *gargv[] = {self, "late-writer", argv[2], NULL};
		gd_proc_spec s = {gargv, NULL, 0, 0, 1};
		gd_proc_result r;

		return gd_proc_run(&s, &r) == 0 ? 0 : 1;
	}
	if (!strcmp(mode, "late-writer") && argc > 2) {
		FILE *f;

		gd_plat_sleep_ms(1500);
		if ((f = fopen(argv[2], "w")))
			fclose(f);
		return 0;
	}
	return 99;
}

static void run(const char *mode, const char *arg, int timeout_ms, size_t cap,
		gd_proc_result *r)
{
	char *argv[] = {self, (char *)mode, (char *)arg, NULL};
	gd_proc_spec s = {argv, NULL, timeout_ms, cap, 0};

	CHECK_INT(gd_proc_run(&s, r), 0);
}

static void test_exit_and_output(void)
{
	gd_proc_result r;
	char d[128];

	run("exit3", NULL, 10000, 0, &r);
	CHECK_INT(r.how, GD_PROC_EXITED);
	CHECK_INT(r.code, 3);
	CHECK(r.out && strstr(r.out, "hello from the child"));
	gd_proc_describe(&r, 10000, d, sizeof d);
	CHECK_STR(d, "exited 3");
	gd_proc_result_free(&r);

	run("flood", NULL, 10000, 1000, &r);
	CHECK_INT(r.how, GD_PROC_EXITED);
	CHECK_INT(r.out_len, 1000);
	CHECK(r.out_truncated);
	gd_proc_result_free(&r);
}

static void test_crash(void)
{
	gd_proc_result r;
	char d[128];

	run("crash", NULL, 10000, 0, &r);
	CHECK_INT(r.how, GD_PROC_CRASHED);
	gd_proc_describe(&r, 10000, d, sizeof d);
	CHECK(gd_startswith(d, "crashed: "));
	gd_proc_result_free(&r);
}

static void test_env(void)
{
	char *argv[] = {self, "env", NULL};
	char *envp[] = {"GD_PLAT_TEST=from the parent", NULL};
	gd_proc_spec s = {argv, envp, 10000, 0, 0};
	gd_proc_result r;

	CHECK_INT(gd_proc_run(&s, &r), 0);
	CHECK(r.out && strstr(r.out, "GD_PLAT_TEST=from the parent"));
	gd_proc_result_free(&r);
}

/* The child waits on a grandchild that writes a file after 1.5 s; the
 * deadline is 300 ms; the file must never appear. */
static void test_tree_killed(void)
{
	char marker[4200];
	gd_proc_result r;
	FILE *f;

	gd_fmt(marker, sizeof marker, "%s.marker", self);
	remove(marker);
	run("parent", marker, 300, 0, &r);
	CHECK_INT(r.how, GD_PROC_TIMEOUT);
	CHECK(r.elapsed_ms < 1400);
	gd_proc_result_free(&r);
	gd_plat_sleep_ms(2000);
	f = fopen(marker, "r");
	CHECK(!f);
	if (f) {
		fclose(f);
		remove(marker);
	}
}

static void test_nostart_and_libs(void)
{
	char *argv[] = {"/nonexistent/gd-no-such-program", NULL};
	gd_proc_spec s = {argv, NULL, 5000, 0, 0};
	gd_proc_result r;
	char err[256] = "", p[4096];

	CHECK_INT(gd_proc_run(&s, &r), 0);
	CHECK(r.how == GD_PROC_NOSTART ||
	      (r.how == GD_PROC_EXITED && r.code == 127));
	gd_proc_result_free(&r);

	CHECK(!gd_plat_lib_open("gd-no-such-library-42.dll", err, sizeof err));
	CHECK(err[0] != '\0');
	{
		/* a library every system has, found by its loader's search */
		int win = !strcmp(gd_plat_name(), "windows");
		void *h = gd_plat_lib_open(win ? "kernel32.dll" : "libc.so.6",
					   err, sizeof err);

		CHECK(h != NULL);
		CHECK(gd_plat_lib_sym(h, win ? "GetTickCount" : "strlen") !=
		      NULL);
		CHECK(gd_plat_lib_path(h, NULL, p, sizeof p) == 0 &&
		      strstr(p, win ? "ernel32" : "libc") != NULL);
		gd_plat_lib_close(h);
	}
	CHECK(gd_plat_self_exe(p, sizeof p) == 0 && p[0]);
	CHECK(gd_plat_environ() != NULL);
	CHECK(!strcmp(gd_plat_name(), "linux") ||
	      !strcmp(gd_plat_name(), "windows"));
}

int main(int argc, char **argv)
{
	if (gd_plat_self_exe(self, sizeof self) < 0)
		gd_strlcpy(self, argv[0], sizeof self);
	if (argc > 1)
		return child(argc, argv);
	test_exit_and_output();
	test_crash();
	test_env();
	test_tree_killed();
	test_nostart_and_libs();
	return t_done("test_plat");
}
