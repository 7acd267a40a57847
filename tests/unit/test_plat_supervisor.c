/* probe/supervisor.h on the system the test runs on (Linux: fork, process
 * group, poll; Windows under Wine: Job Object, two pipes): the test re-runs
 * itself as the child, so the same cases hold on both. Phases and '@'
 * messages on the phase channel, output lines, an exit code, a hang at the
 * deadline (phase kept), a stop asked by should_stop, a crash by name, a
 * grandchild left behind (killed, its late file never written), a program
 * that does not exist. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _WIN32
#include <process.h>
#endif

#include "core/plat.h"
#include "core/util.h"
#include "probe/supervisor.h"
#include "t.h"

static char self[4096];

static void chan(const char *line)
{
	int fd = gd_plat_chan_fd(getenv("GPUDOCTOR_PHASE_FD"));
	char b[256];
	size_t n;

	gd_fmt(b, sizeof b, "%s\n", line);
	n = strlen(b);
	if (fd < 0 || write(fd, b, (unsigned)n) != (long)n)
		printf("no phase channel\n");
}

/* Starts "late MARKER" without waiting for it: it outlives us unless the
 * supervisor ends it. (The paths here have no spaces: _spawnl joins its
 * arguments unquoted.) */
static int orphan(const char *marker)
{
#ifdef _WIN32
	if (_spawnl(_P_NOWAIT, self, self, "late", marker, NULL) == -1)
		return 2;
#else
	pid_t pid = fork();

	if (pid == 0) {
		execl(self, self, "late", marker, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		return 2;
#endif
	gd_plat_sleep_ms(1000); /* let it start (Wine is slow to) */
	printf("left a grandchild behind\n");
	return 0;
}

static int child(int argc, char **argv)
{
	const char *mode = argv[1];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(mode, "phases")) {
		chan("step one");
		chan("@{\"t\":\"msg\"}");
		chan("step two");
		printf("first line\nout line\n");
		return 4;
	}
	if (!strcmp(mode, "hang")) {
		chan("stuck here");
		printf("waiting forever\n");
		for (;;)
			gd_plat_sleep_ms(1000);
	}
	if (!strcmp(mode, "crash")) {
		printf("about to crash\n");
		__builtin_trap(); /* SIGILL / 0xC000001D: sanitizers agree */
	}
	if (!strcmp(mode, "orphan") && argc > 2)
		return orphan(argv[2]);
	if (!strcmp(mode, "late") && argc > 2) {
		FILE *f;

		gd_plat_sleep_ms(2000);
		if ((f = fopen(argv[2], "w")))
			fclose(f);
		return 0;
	}
	return 99;
}

struct seen {
	int phases, msgs, lines;
	int stop_after_phase;
};

static void on_line(void *arg, int is_phase, const char *line)
{
	struct seen *s = arg;

	(void)line;
	if (is_phase == 1)
		s->phases++;
	else if (is_phase == 2)
		s->msgs++;
	else
		s->lines++;
}

static int should_stop(void *arg)
{
	struct seen *s = arg;

	return s->stop_after_phase && s->phases > 0;
}

static void run(const char *mode, const char *arg, double timeout,
		struct seen *s, struct gd_child_result *r)
{
	char *argv[] = {self, (char *)mode, (char *)arg, NULL};
	struct gd_child_spec spec;

	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.timeout_s = timeout;
	spec.phase_pipe = 1;
	spec.on_line = on_line;
	spec.should_stop = should_stop;
	spec.arg = s;
	CHECK_INT(gd_child_run(&spec, r), 0);
}

static void test_phases_and_exit(void)
{
	struct seen s = {0};
	struct gd_child_result r;

	run("phases", NULL, 20, &s, &r);
	CHECK_INT(r.outcome, GD_CHILD_EXITED);
	CHECK_INT(r.exit_code, 4);
	CHECK_STR(r.phase, "step two");
	CHECK_STR(r.last_line, "out line");
	CHECK(strstr(r.tail, "first line\nout line") != NULL);
	CHECK_INT(s.phases, 2);
	CHECK_INT(s.msgs, 1);
	CHECK_INT(s.lines, 2);
	CHECK(!r.leftovers_killed);
}

static void test_hang_and_stop(void)
{
	struct seen s = {0};
	struct gd_child_result r;
	char d[300];

	/* 3 s: a process takes a while to start under Wine */
	run("hang", NULL, 3.0, &s, &r);
	CHECK_INT(r.outcome, GD_CHILD_HUNG);
	CHECK_STR(r.phase, "stuck here");
	CHECK(r.seconds >= 2.9 && r.seconds < 8);
	gd_child_describe(&r, d, sizeof d);
	CHECK(strstr(d, "in phase 'stuck here'") != NULL);

	memset(&s, 0, sizeof s);
	s.stop_after_phase = 1;
	run("hang", NULL, 30, &s, &r);
	CHECK_INT(r.outcome, GD_CHILD_HUNG);
	CHECK(r.seconds < 10);
}

static void test_crash(void)
{
	struct seen s = {0};
	struct gd_child_result r;
	char name[64];

	run("crash", NULL, 20, &s, &r);
	CHECK_INT(r.outcome, GD_CHILD_SIGNALED);
	CHECK(strstr(r.tail, "about to crash") != NULL);
	gd_plat_crash_name((unsigned)r.signo, name, sizeof name);
	CHECK(!strcmp(name, "SIGILL") ||
	      !strcmp(name, "0xC000001D (illegal instruction)"));
}

/* The child exits after 1 s; its grandchild would write a file 2 s after
 * its start. */
static void test_orphan(void)
{
	struct seen s = {0};
	struct gd_child_result r;
	char marker[4200];
	FILE *f;

	gd_fmt(marker, sizeof marker, "%s.sup-marker", self);
	remove(marker);
	run("orphan", marker, 20, &s, &r);
	CHECK_INT(r.outcome, GD_CHILD_EXITED);
	CHECK_INT(r.exit_code, 0);
	CHECK(r.leftovers_killed);
	gd_plat_sleep_ms(2500);
	f = fopen(marker, "r");
	CHECK(!f);
	if (f) {
		fclose(f);
		remove(marker);
	}
}

static void test_nostart(void)
{
	char *argv[] = {"gd-no-such-program-42", NULL};
	struct gd_child_spec spec;
	struct gd_child_result r;

	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.search_path = 1;
	spec.timeout_s = 10;
	CHECK_INT(gd_child_run(&spec, &r), 0);
	CHECK_INT(r.outcome, GD_CHILD_NOSTART);
	CHECK(r.error[0] != '\0');
}

int main(int argc, char **argv)
{
	if (gd_plat_self_exe(self, sizeof self) < 0)
		gd_strlcpy(self, argv[0], sizeof self);
	if (argc > 1)
		return child(argc, argv);
	test_phases_and_exit();
	test_hang_and_stop();
	test_crash();
	test_orphan();
	test_nostart();
	return t_done("test_plat_supervisor");
}
