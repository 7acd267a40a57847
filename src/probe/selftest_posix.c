/* probe/selftest on Linux: fork() for the processes a runtime leaves
 * behind, signals for the one that ignores SIGTERM (selftest_plat.h). */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "selftest_plat.h"

int gd_st_spawn_sleeper(struct gd_pc *pc, int hang_case, int wait, int leave)
{
	pid_t pid = fork();

	(void)pc;
	(void)hang_case;
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		signal(SIGTERM, SIG_IGN);
		if (leave)
			setsid(); /* out of the group: probe/reap.c's case */
		for (;;)
			pause();
	}
	if (wait)
		waitpid(pid, NULL, 0);
	return 0;
}

int gd_st_ignore_stop(void)
{
	signal(SIGTERM, SIG_IGN);
	return 1;
}

int gd_st_applies(const char *name)
{
	(void)name;
	return 1;
}
