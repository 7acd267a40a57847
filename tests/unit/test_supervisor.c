/* The supervisor against real children (/bin/sh scripts): exit codes,
 * signals, a hang in a named phase, a child that ignores SIGTERM, a
 * grandchild left hanging in the group, an output flood, a phase message
 * cut off by exit. Every case checks that nothing of the group survives. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/supervisor.h"
#include "t.h"

static int lines_seen, phases_seen, msgs_seen;

static void count_line(void *arg, int is_phase, const char *line)
{
	(void)arg;
	(void)line;
	if (is_phase == 2)
		msgs_seen++;
	else if (is_phase)
		phases_seen++;
	else
		lines_seen++;
}

/* Runs `sh -c script` with a deadline; returns wall seconds. */
static double run_sh(const char *script, double timeout,
		     struct gd_child_result *res)
{
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	struct gd_child_spec spec = {0};
	double t0 = gd_now();

	spec.argv = argv;
	spec.timeout_s = timeout;
	spec.grace_s = 0.2;
	spec.phase_pipe = 1;
	spec.on_line = count_line;
	CHECK_INT(gd_child_run(&spec, res), 0);
	return gd_now() - t0;
}

/* Nothing of the group is left, and no zombie of ours waits to be reaped. */
static void check_gone(const struct gd_child_result *res)
{
	int st;

	CHECK(res->pid > 0);
	errno = 0;
	CHECK(kill(-res->pid, 0) == -1 && errno == ESRCH);
	errno = 0;
	CHECK(waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD);
}

static void test_exit_and_signals(void)
{
	struct gd_child_result r;
	char d[300];

	run_sh("echo hello; exit 3", 5, &r);
	CHECK_INT(r.outcome, GD_CHILD_EXITED);
	CHECK_INT(r.exit_code, 3);
	CHECK_STR(r.last_line, "hello");
	gd_child_describe(&r, d, sizeof d);
	CHECK_STR(d, "exited 3");
	check_gone(&r);

	run_sh("kill -SEGV $$", 5, &r);
	CHECK_INT(r.outcome, GD_CHILD_SIGNALED);
	CHECK_INT(r.signo, SIGSEGV);
	gd_child_describe(&r, d, sizeof d);
	CHECK_STR(d, "killed by SIGSEGV");
	check_gone(&r);

	/* abort message without a trailing newline still counts */
	run_sh("printf 'fatal: boom' >&2; kill -ABRT $$", 5, &r);
	CHECK_INT(r.outcome, GD_CHILD_SIGNALED);
	CHECK_INT(r.signo, SIGABRT);
	CHECK_STR(r.last_line, "fatal: boom");
	check_gone(&r);
}

static void test_hang_in_phase(void)
{
	struct gd_child_result r;
	double wall;
	char d[300];

	wall = run_sh("echo cuInit >&$GPUDOCTOR_PHASE_FD; "
		      "echo 'waiting on the driver'; sleep 30", 0.5, &r);
	CHECK_INT(r.outcome, GD_CHILD_HUNG);
	CHECK_STR(r.phase, "cuInit");
	CHECK(r.seconds >= 0.5 && r.seconds < 1.0);
	CHECK(wall < 0.5 + 0.5);
	CHECK_STR(r.last_line, "waiting on the driver");
	gd_child_describe(&r, d, sizeof d);
	CHECK(strstr(d, "hung for 0.5 s in phase 'cuInit'") != NULL);
	check_gone(&r);

	/* ignores SIGTERM and spins: only SIGKILL ends it */
	wall = run_sh("trap '' TERM; echo spin >&$GPUDOCTOR_PHASE_FD; "
		      "while :; do :; done", 0.5, &r);
	CHECK_INT(r.outcome, GD_CHILD_HUNG);
	CHECK_STR(r.phase, "spin");
	CHECK(wall < 0.5 + 0.2 + 0.5);
	check_gone(&r);
}

static void test_grandchildren(void)
{
	struct gd_child_result r;
	double wall;

	/* the child exits at once, its grandchild keeps the pipe and hangs */
	wall = run_sh("sleep 60 & echo started; exit 0", 5, &r);
	CHECK_INT(r.outcome, GD_CHILD_EXITED);
	CHECK_INT(r.exit_code, 0);
	CHECK(r.leftovers_killed);
	CHECK(wall < 1.0);
	check_gone(&r);

	/* the child waits for a grandchild that hangs: a hang, both killed */
	wall = run_sh("trap '' TERM; sh -c 'trap \"\" TERM; sleep 60' & "
		      "echo wait >&$GPUDOCTOR_PHASE_FD; wait", 0.5, &r);
	CHECK_INT(r.outcome, GD_CHILD_HUNG);
	CHECK_STR(r.phase, "wait");
	CHECK(wall < 0.5 + 0.2 + 0.5);
	check_gone(&r);
}

static void test_flood_and_tail(void)
{
	struct gd_child_result r;
	double wall;

	lines_seen = 0;
	run_sh("i=1; while [ $i -le 30 ]; do echo line $i; i=$((i+1)); done",
	       5, &r);
	CHECK_INT(lines_seen, 30);
	CHECK(gd_startswith(r.tail, "line 11\n"));
	CHECK(gd_endswith(r.tail, "\nline 30"));
	check_gone(&r);

	/* 20 MB in one line, then exit: counted, not kept, no hang */
	run_sh("head -c 20000000 /dev/zero | tr '\\0' x; echo; echo done", 10,
	       &r);
	CHECK_INT(r.outcome, GD_CHILD_EXITED);
	CHECK_INT(r.output_bytes, 20000000 + 1 + 5);
	CHECK_STR(r.last_line, "done");
	check_gone(&r);

	/* a flood that never ends is a hang at the deadline, on time */
	wall = run_sh("echo flood >&$GPUDOCTOR_PHASE_FD; yes", 0.5, &r);
	CHECK_INT(r.outcome, GD_CHILD_HUNG);
	CHECK(r.output_bytes > 100000);
	CHECK(wall < 0.5 + 0.5);
	check_gone(&r);
}

static void test_messages(void)
{
	struct gd_child_result r;

	msgs_seen = phases_seen = 0;
	run_sh("echo init >&$GPUDOCTOR_PHASE_FD; "
	       "echo '@{\"op\":\"init\"}' >&$GPUDOCTOR_PHASE_FD; "
	       "printf '@{\"op\":\"gem' >&$GPUDOCTOR_PHASE_FD; exit 0", 5, &r);
	CHECK_INT(r.outcome, GD_CHILD_EXITED);
	CHECK_STR(r.phase, "init"); /* messages do not move the phase */
	CHECK_INT(phases_seen, 1);
	CHECK_INT(msgs_seen, 1);
	CHECK(r.partial_message);
	CHECK_STR(r.partial, "@{\"op\":\"gem");
	check_gone(&r);
}

static void test_nostart(void)
{
	char *argv[] = {"/nonexistent/gpudoctor-child", NULL};
	char *argv2[] = {"gpudoctor-no-such-program", NULL};
	struct gd_child_spec spec = {0};
	struct gd_child_result r;

	spec.argv = argv;
	CHECK_INT(gd_child_run(&spec, &r), 0);
	CHECK_INT(r.outcome, GD_CHILD_NOSTART);
	CHECK(strstr(r.error, "No such file") != NULL);
	spec.argv = argv2;
	spec.search_path = 1;
	CHECK_INT(gd_child_run(&spec, &r), 0);
	CHECK_INT(r.outcome, GD_CHILD_NOSTART);
}

static void test_cancel(void)
{
	char *argv[] = {"/bin/sh", "-c", "sleep 30", NULL};
	struct gd_child_spec spec = {0};
	struct gd_child_result r;
	volatile int cancel = 1;
	double t0 = gd_now();

	spec.argv = argv;
	spec.timeout_s = 10;
	spec.cancel = &cancel;
	CHECK_INT(gd_child_run(&spec, &r), 0);
	CHECK_INT(r.outcome, GD_CHILD_HUNG);
	CHECK(r.cancelled);
	CHECK(gd_now() - t0 < 1.0);
	check_gone(&r);
}

static void *hang_thread(void *arg)
{
	struct gd_child_result *r = arg;
	char *argv[] = {"/bin/sh", "-c", "sleep 30", NULL};
	struct gd_child_spec spec = {0};

	spec.argv = argv;
	spec.timeout_s = 0.5;
	spec.grace_s = 0.1;
	gd_child_run(&spec, r);
	return NULL;
}

/* Several supervisors at once (backends run in parallel). */
static void test_parallel(void)
{
	struct gd_child_result r[4];
	pthread_t th[4];
	double t0 = gd_now();

	for (int i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, hang_thread, &r[i]);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	CHECK(gd_now() - t0 < 0.5 + 0.1 + 0.5);
	for (int i = 0; i < 4; i++) {
		CHECK_INT(r[i].outcome, GD_CHILD_HUNG);
		check_gone(&r[i]);
	}
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_exit_and_signals();
	test_hang_in_phase();
	test_grandchildren();
	test_flood_and_tail();
	test_messages();
	test_nostart();
	test_cancel();
	test_parallel();
	return t_done("test_supervisor");
}
