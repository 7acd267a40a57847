/* probe/selftest: fault probes that test the supervisor itself. Each case
 * runs alone in its own child (`__probe-child selftest --only N`) and does
 * on purpose what broken GPU runtimes do by accident; the parent must
 * classify it as `expected`, on time, with nothing left running. The same
 * cases on Linux and Windows; what needs the system (a process left
 * behind, ignoring SIGTERM) is selftest_posix.c / selftest_win32.c, and a
 * case that cannot happen on a system is not run there (gd_st_applies). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "core/plat.h"
#include "probe_int.h"
#include "selftest_plat.h"

struct st_case {
	const char *name;
	const char *expected;
	void (*fn)(struct gd_pc *pc);
};

static void sleep_forever(void)
{
	for (;;)
		gd_plat_sleep_ms(1000);
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
	/* 16 lines of 4 KiB per write: as a chatty runtime's buffered
	 * stdout does */
	static char block[65536];

	gd_pc_phase(pc, "flood 64 MiB on stdout");
	memset(block, 'x', sizeof block);
	for (size_t i = 4095; i < sizeof block; i += 4096)
		block[i] = '\n';
	for (int i = 0; i < 1024; i++)
		if (write(1, block, sizeof block) < 0)
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

	gd_st_ignore_stop();
	gd_pc_phase(pc, "spin, deaf to SIGTERM");
	for (;;)
		x++;
}

static int hang_case(void);

static void st_grandchild(struct gd_pc *pc)
{
	gd_pc_phase(pc, "wait for a grandchild");
	gd_st_spawn_sleeper(pc, hang_case(), 1, 0);
	gd_pc_end(pc, GD_PS_ERROR, 0, "could not start a grandchild");
}

/* The op returns, leaving a process that sleeps forever and has left the
 * process group (Linux) or would outlive the child (Windows): ok, and the
 * supervisor must end it (the test looks for it afterwards). */
static void st_orphan(struct gd_pc *pc)
{
	gd_pc_phase(pc, "start a process and return");
	if (gd_st_spawn_sleeper(pc, hang_case(), 0, 1) < 0)
		gd_pc_end(pc, GD_PS_ERROR, 0, "could not start a process");
	else
		gd_pc_end(pc, GD_PS_OK, 0,
			  "left a process that sleeps forever behind");
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
	gd_plat_sleep_ms((int)(s * 1000));
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
    {"orphan_left_running", "ok", st_orphan},
    {"missing_library", "missing", st_missing},
    {"exit_during_op", "crash", st_exit_in_op},
    {"slow_progress", "ok", st_slow_progress},
    {"progress_then_hang", "hang", st_stall_after_progress},
};

#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* The i-th case this system runs (the numbering --only uses), or NULL. */
static const struct st_case *nth_case(int i)
{
	for (int k = 0; k < NCASES; k++)
		if (gd_st_applies(cases[k].name) && i-- == 0)
			return &cases[k];
	return NULL;
}

/* --only number of hang_in_phase, the first case on every system: what
 * a sleeper process runs (Windows) */
static int hang_case(void)
{
	return 0;
}

const char *gd_selftest_case(int i, const char **expected)
{
	const struct st_case *c = i < 0 ? NULL : nth_case(i);

	if (!c)
		return NULL;
	*expected = c->expected;
	return c->name;
}

static int selftest_run(struct gd_pc *pc)
{
	const struct st_case *c;

	for (int i = 0; (c = nth_case(i)); i++)
		if (gd_pc_begin_case(pc, -1, c->name))
			c->fn(pc);
	return 0;
}

const struct gd_backend gd_backend_selftest = {
    .name = "selftest",
    .title = "Self-test",
    .run = selftest_run,
};
