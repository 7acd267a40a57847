/* The supervisor against real children (/bin/sh scripts): exit codes,
 * signals, a hang in a named phase, a child that ignores SIGTERM, a
 * grandchild left hanging in the group, an output flood, a phase message
 * cut off by exit. Every case checks that nothing of the group survives.
 * Escapees: processes that leave the group (setsid, GNU timeout, a new
 * session from Python) and a child that moves itself into another group
 * are ended too, and the deadline holds. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/reap.h"
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
		      "echo 'waiting on the driver'; sleep 30",
		      0.5, &r);
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
		      "while :; do :; done",
		      0.5, &r);
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
		      "echo wait >&$GPUDOCTOR_PHASE_FD; wait",
		      0.5, &r);
	CHECK_INT(r.outcome, GD_CHILD_HUNG);
	CHECK_STR(r.phase, "wait");
	CHECK(wall < 0.5 + 0.2 + 0.5);
	check_gone(&r);
}

/* The pid a child script wrote to `path`, or -1. */
static pid_t read_pid(const char *path)
{
	char buf[32] = {0};
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	unlink(path);
	return n > 0 ? (pid_t)atol(buf) : -1;
}

/* The process that wrote its pid to `path` is gone and reaped. */
static void check_escapee_gone(const char *what, const char *path)
{
	pid_t pid = read_pid(path);

	CHECK(pid > 0);
	errno = 0;
	if (!(pid > 0 && kill(pid, 0) == -1 && errno == ESRCH)) {
		fprintf(stderr, "%s: process %d survived\n", what, (int)pid);
		t_fail++;
		if (pid > 0)
			kill(pid, SIGKILL);
	}
}

/* Runs `script`, which starts `sleep 60` outside the child's process
 * group with its pid written to `path`. */
static void escapee_case(const char *what, const char *script, const char *path,
			 double timeout, int want_hang)
{
	struct gd_child_result r;
	double wall;

	wall = run_sh(script, timeout, &r);
	CHECK_INT(r.outcome, want_hang ? GD_CHILD_HUNG : GD_CHILD_EXITED);
	CHECK(wall < timeout + 0.2 + 2.0);
	if (!want_hang)
		CHECK(r.leftovers_killed);
	check_escapee_gone(what, path);
	check_gone(&r);
}

static void test_escapees(void)
{
	char path[64], pidw[160], wait[160], s[600];

	gd_fmt(path, sizeof path, "/tmp/gd_sup_escapee_%d", (int)getpid());
	unlink(path);
	gd_fmt(pidw, sizeof pidw, "sh -c 'echo $$ > %s; exec sleep 60'", path);
	/* the escapee has started once its pid is written (a loaded machine
	 * can take seconds); deadlines leave room for that */
	gd_fmt(wait, sizeof wait, "while [ ! -s %s ]; do sleep 0.05; done",
	       path);
	/* setsid: a new session, exit 0 at once (a daemon) */
	gd_fmt(s, sizeof s, "setsid %s & %s; exit 0", pidw, wait);
	escapee_case("setsid", s, path, 30, 0);
	/* double fork into a new session, then hang */
	gd_fmt(s, sizeof s, "(setsid %s &) ; %s; sleep 60", pidw, wait);
	escapee_case("setsid + hang", s, path, 3, 1);
	/* GNU timeout puts itself in its own group (--foreground aside) */
	gd_fmt(s, sizeof s, "timeout 60 %s", pidw);
	escapee_case("timeout, hung", s, path, 3, 1);
	gd_fmt(s, sizeof s, "timeout 60 %s & %s; exit 0", pidw, wait);
	escapee_case("timeout, exit 0", s, path, 30, 0);
	/* Python launchers: subprocess with start_new_session=True */
	if (access("/usr/bin/python3", X_OK) == 0) {
		gd_fmt(s, sizeof s,
		       "python3 -c 'import subprocess; subprocess.Popen("
		       "[\"sh\", \"-c\", \"echo $$ > %s; exec sleep 60\"],"
		       " start_new_session=True)'; %s",
		       path, wait);
		escapee_case("python start_new_session", s, path, 30, 0);
	}
}

/* A child that moves itself into another existing group (here ours):
 * kill(-pgid) no longer reaches it, the stop must still hold. It is
 * stopped as soon as it says it moved (python may start slowly on a busy
 * machine), through the same path as a deadline. */
static double moved_at;

static void see_moved(void *arg, int is_phase, const char *line)
{
	(void)arg;
	if (!is_phase && !strcmp(line, "moved") && !moved_at)
		moved_at = gd_now();
}

static int stop_when_moved(void *arg)
{
	(void)arg;
	return moved_at > 0;
}

static void test_leaves_group(void)
{
	struct gd_child_spec spec = {0};
	struct gd_child_result r;
	char s[256];
	char *argv[] = {"/bin/sh", "-c", s, NULL};

	if (access("/usr/bin/python3", X_OK) != 0)
		return;
	gd_fmt(s, sizeof s,
	       "exec python3 -c 'import os,signal; os.setpgid(0, %d); "
	       "print(\"moved\", flush=True); signal.pause()'",
	       (int)getpgrp());
	spec.argv = argv;
	spec.timeout_s = 60;
	spec.grace_s = 0.2;
	spec.on_line = see_moved;
	spec.should_stop = stop_when_moved;
	moved_at = 0;
	CHECK_INT(gd_child_run(&spec, &r), 0);
	CHECK_INT(r.outcome, GD_CHILD_HUNG);
	CHECK_STR(r.last_line, "moved");
	CHECK(moved_at > 0 && gd_now() - moved_at < 0.2 + 1.0);
	errno = 0;
	CHECK(kill(r.pid, 0) == -1 && errno == ESRCH);
	CHECK_INT(gd_reap_descendants(), 0);
}

static void test_flood_and_tail(void)
{
	struct gd_child_result r;
	double wall;

	lines_seen = 0;
	run_sh("i=1; while [ $i -le 30 ]; do echo line $i; i=$((i+1)); done", 5,
	       &r);
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
	       "printf '@{\"op\":\"gem' >&$GPUDOCTOR_PHASE_FD; exit 0",
	       5, &r);
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
	test_escapees();
	test_leaves_group();
	test_flood_and_tail();
	test_messages();
	test_nostart();
	test_cancel();
	test_parallel();
	return t_done("test_supervisor");
}
