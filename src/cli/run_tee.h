/* `gpudoctor run`: CMD as our child, its output passed through to our
 * stdout and stderr as it comes, byte for byte, while its last lines are
 * kept for explain (run_tee_posix.c; Windows: run_tee_win32.c, its
 * differences there).
 *
 * The child keeps our process group, stdin and controlling terminal (it
 * can read the terminal and Ctrl-C reaches it directly); each of stdout and
 * stderr that is a terminal is given to it as a pseudo-terminal of the
 * same settings and size (output post-processing off: the real terminal
 * does it), so the program still sees a terminal and keeps its line
 * buffering; otherwise a pipe. A signal sent to gpudoctor (SIGTERM, SIGHUP,
 * SIGINT, SIGQUIT, SIGUSR1/2, SIGALRM) by another process is sent on to
 * the child; the ones the terminal sends reach the child itself. */
#ifndef GD_RUN_TEE_H
#define GD_RUN_TEE_H

#include <stddef.h>

/* The start of the output kept, and its end (a ring). */
#define GD_RUN_HEAD_BYTES (64u * 1024)
#define GD_RUN_TAIL_BYTES (256u * 1024)

struct gd_run_out {
	int start_errno; /* CMD could not be executed: why (ENOENT: not
			    found); nothing else is set */
	int exit_code;	 /* -1 when it died of a signal */
	int signo;	 /* the signal it died of, 0 none; Windows: the
			    NTSTATUS of the exception that ended it */
	int cored;	 /* ...and dumped core */
	int crashed;	 /* the signal is a fault's (SIGSEGV, SIGBUS, SIGILL,
			    SIGFPE, SIGABRT, SIGTRAP, SIGSYS) */
	int by_user;	 /* SIGINT or SIGPIPE: its user's or its reader's
			    will, nothing to explain (a shell says nothing) */
	/* the output's first GD_RUN_HEAD_BYTES and last GD_RUN_TAIL_BYTES,
	 * stdout and stderr line by line in the order they came; malloc'd,
	 * NUL-terminated */
	char *log;
	size_t log_len;
	unsigned long long total; /* bytes of output in all */
};

/* Runs cmd (looked up in env's PATH) with env. Returns 0 when CMD ran or
 * could not be executed (o->start_errno), -ENOSYS where this is not
 * available, or -errno when the child could not be started. On Windows a
 * crash's NTSTATUS (0xC0000005) is both o->exit_code and o->signo. */
int gd_run_tee(char *const *cmd, char *const *env, struct gd_run_out *o);
void gd_run_out_free(struct gd_run_out *o);

/* run_explain.c: CMD through gd_run_tee; when it fails (a non-zero exit,
 * a signal other than SIGINT or SIGPIPE) explain's cause in its output,
 * the fix for the program and what `scan` says of its file, on stderr
 * under its output (with --json: doc, the document printed before CMD
 * started, again with the outcome; doc is the caller's). Returns CMD's exit
 * status (128 + N for signal N; 125, 126, 127 as env(1)), or -1 where
 * CMD cannot be run this way (the caller execs it). */
struct gd_cli;
struct gd_machine;
int gd_run_explained(struct gd_cli *cli, const struct gd_machine *m,
		     const void *doc, char *const *cmd, char *const *env);

#endif
