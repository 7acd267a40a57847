/* probe/selftest: fault probes that test the supervisor itself. Each case
 * runs alone in its own child (`__probe-child selftest --only N`) and does
 * on purpose what broken GPU runtimes do by accident; the parent must
 * classify it as `expected`, on time, with nothing left running. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "probe_int.h"

struct st_case {
	const char *name;
	const char *expected;
	void (*fn)(struct gd_pc *pc);
};

static void sleep_forever(void)
{
	for (;;)
		pause();
}

static void st_hang_phase(struct gd_pc *pc)
{
	gd_pc_phase(pc, "fake_driver_init");
	sleep_forever();
}

static void st_busy_loop(struct gd_pc *pc)
{
	volatile unsigned long x = 0;

	gd_pc_phase(pc, "spin");
	for (;;)
		x++;
}

static void st_segv(struct gd_pc *pc)
{
	/* page 0, not NULL itself: UBSan would trap a NULL store first */
	volatile int *volatile p = (volatile int *)(uintptr_t)16;

	gd_pc_phase(pc, "write to address 16");
	*p = 1;
	gd_pc_end(pc, GD_PS_OK, 0, "survived a NULL write?");
}

static void st_abort(struct gd_pc *pc)
{
	gd_pc_phase(pc, "assert");
	fprintf(stderr, "selftest: assertion 'queue != NULL' failed\n");
	abort();
}

static void st_wrong(struct gd_pc *pc)
{
	float a[256], b[256], c[256], want[256];

	gd_pc_phase(pc, "vector_add on the CPU, off by one somewhere");
	gd_pc_fill_random(a, 256, 1);
	gd_pc_fill_random(b, 256, 2);
	for (int i = 0; i < 256; i++) {
		c[i] = a[i] + b[i];
		want[i] = c[i];
	}
	c[77] += 0.25f;
	gd_pc_end(pc, GD_PS_WRONG, gd_pc_max_rel_error(c, want, 256),
		  "element 77 differs");
}

static void st_flood(struct gd_pc *pc)
{
	static char line[4096];

	gd_pc_phase(pc, "flood 64 MiB on stdout");
	memset(line, 'x', sizeof line - 1);
	line[sizeof line - 1] = '\n';
	for (int i = 0; i < 16384; i++)
		if (write(1, line, sizeof line) < 0)
			break;
	gd_pc_end(pc, GD_PS_OK, 0, "wrote 64 MiB of output");
}

static void st_exit_mid_message(struct gd_pc *pc)
{
	static const char half[] = "@{\"t\":\"res\",\"step\":6,\"stat";

	gd_pc_phase(pc, "report");
	if (write(pc->fd, half, sizeof half - 1) < 0)
		_exit(1);
	_exit(0);
}

static void st_ignore_term(struct gd_pc *pc)
{
	volatile unsigned long x = 0;

	signal(SIGTERM, SIG_IGN);
	gd_pc_phase(pc, "spin, deaf to SIGTERM");
	for (;;)
		x++;
}

static void st_grandchild(struct gd_pc *pc)
{
	pid_t pid;

	gd_pc_phase(pc, "wait for a grandchild");
	pid = fork();
	if (pid == 0) {
		signal(SIGTERM, SIG_IGN);
		sleep_forever();
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	gd_pc_end(pc, GD_PS_ERROR, 0, "fork failed");
}

static void st_missing(struct gd_pc *pc)
{
	const char *const *names = gd_lib_names(GD_LIB_ABSENT);
	char loaded[256], searched[512];
	void *h;

	gd_pc_phase(pc, "dlopen");
	h = gd_pc_dlopen(pc, names, NULL, loaded, sizeof loaded, searched,
			 sizeof searched);
	if (h)
		gd_pc_end(pc, GD_PS_OK, 0, "loaded %s", loaded);
	else
		gd_pc_end(pc, GD_PS_MISSING, 0, "not found: %s", searched);
}

static void st_exit_in_op(struct gd_pc *pc)
{
	gd_pc_phase(pc, "library calls exit(3)");
	exit(3);
}

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};

	nanosleep(&ts, NULL);
}

/* Longer than the per-op deadline in all, but every step is short and
 * named: slow, not hung (the parent's per-step rule). */
static void st_slow_progress(struct gd_pc *pc)
{
	gd_pc_progress(pc);
	for (int i = 0; i < 6; i++) {
		gd_pc_phase(pc, "step %d of 6, 0.35 s each", i + 1);
		sleep_s(0.35);
	}
	gd_pc_end(pc, GD_PS_OK, 0, "6 steps in 2.1 s, each under the deadline");
}

/* Progress, then one step that never returns: a hang in that step. */
static void st_stall_after_progress(struct gd_pc *pc)
{
	gd_pc_progress(pc);
	for (int i = 0; i < 3; i++) {
		gd_pc_phase(pc, "step %d", i + 1);
		sleep_s(0.3);
	}
	gd_pc_phase(pc, "step 4, never returns");
	sleep_forever();
}

static const struct st_case cases[] = {
    {"hang_in_phase", "hang", st_hang_phase},
    {"busy_loop", "hang", st_busy_loop},
    {"sigsegv", "crash", st_segv},
    {"abort", "crash", st_abort},
    {"wrong_result", "wrong", st_wrong},
    {"output_flood", "ok", st_flood},
    {"exit_mid_message", "crash", st_exit_mid_message},
    {"ignores_sigterm", "hang", st_ignore_term},
    {"grandchild_hangs", "hang", st_grandchild},
    {"missing_library", "missing", st_missing},
    {"exit_during_op", "crash", st_exit_in_op},
    {"slow_progress", "ok", st_slow_progress},
    {"progress_then_hang", "hang", st_stall_after_progress},
};

#define NCASES ((int)(sizeof cases / sizeof cases[0]))

const char *gd_selftest_case(int i, const char **expected)
{
	if (i < 0 || i >= NCASES)
		return NULL;
	*expected = cases[i].expected;
	return cases[i].name;
}

static int selftest_run(struct gd_pc *pc)
{
	for (int i = 0; i < NCASES; i++)
		if (gd_pc_begin_case(pc, -1, cases[i].name))
			cases[i].fn(pc);
	return 0;
}

const struct gd_backend gd_backend_selftest = {
    .name = "selftest",
    .title = "Self-test",
    .run = selftest_run,
};
