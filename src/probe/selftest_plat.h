/* probe/selftest: the few fault cases that need the system
 * (selftest_posix.c, selftest_win32.c); the cases are selftest.c. */
#ifndef GD_SELFTEST_PLAT_H
#define GD_SELFTEST_PLAT_H

struct gd_pc;

/* Starts a process that never ends: Linux: a fork() deaf to SIGTERM
 * (with leave: in a session of its own, out of the probe's process group);
 * Windows: this program again, running the hang_in_phase case (argv is
 * `__probe-child selftest --only <hang>`; it is in the child's Job Object,
 * as every process it starts). wait: wait for it (never returns while it
 * runs). 0 when it started, else -errno. */
int gd_st_spawn_sleeper(struct gd_pc *pc, int hang_case, int wait, int leave);

/* 1 when the process can ignore the supervisor's polite stop (SIGTERM),
 * and does so now; 0 where there is none (Windows: TerminateJobObject
 * cannot be refused, so the case does not apply). */
int gd_st_ignore_stop(void);
/* 1 when the case is run on this system. */
int gd_st_applies(const char *name);

#endif
