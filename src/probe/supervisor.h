/* probe/supervisor: run one program in a supervised child. The parent never
 * calls a vendor runtime; anything that might hang or crash runs here.
 * The child gets its own process group and resource limits; it may report
 * named phases ("cuInit", "sgemm 1024") on the fd named by the environment
 * variable GPUDOCTOR_PHASE_FD, one line each, and free-form output on
 * stdout/stderr. At the deadline the group (and the child by pid) gets
 * SIGTERM, then SIGKILL after a grace period, and is reaped; then every
 * process the child left behind, in its group or not, is killed and reaped
 * (once no other supervised child runs): nothing outlives gd_child_run().
 *
 * Additions (probe layer): phase lines that start with '@' are messages, not
 * phases (the probe child sends its results that way); they leave
 * res->phase alone and reach on_line with is_phase == 2. The supervisor
 * makes the calling process a child subreaper (PR_SET_CHILD_SUBREAPER) so
 * that grandchildren left in the group are reaped here too, and the child
 * runs with RLIMIT_CORE 0 and PR_SET_PDEATHSIG SIGKILL. gd_child_run() is
 * thread-safe: backends are supervised in parallel, one thread each. */
#ifndef GD_SUPERVISOR_H
#define GD_SUPERVISOR_H

#include <stddef.h>

enum gd_child_outcome {
	GD_CHILD_EXITED,   /* exit_code holds the status */
	GD_CHILD_SIGNALED, /* signo holds the signal (crash) */
	GD_CHILD_HUNG,	   /* deadline passed; killed */
	GD_CHILD_NOSTART,  /* could not start (exec failed): error says why */
};

struct gd_child_spec {
	char *const
	    *argv; /* argv[0] is the program; exec'd directly, no shell */
	char *const *envp;	    /* full environment; NULL inherits ours */
	double timeout_s;	    /* deadline from start; <= 0 means 30 s */
	double grace_s;		    /* SIGTERM -> SIGKILL; <= 0 means 0.3 s */
	int phase_pipe;		    /* give the child GPUDOCTOR_PHASE_FD */
	int search_path;	    /* resolve argv[0] through PATH (execvp) */
	unsigned long mem_limit_mb; /* RLIMIT_AS, 0 = none */
	/* called with each complete output line (stdout+stderr merged) and each
	 * phase line as they arrive (e.g. live progress); may be NULL */
	void (*on_line)(void *arg, int is_phase, const char *line);
	void *arg;
	/* optional: when it points at a non-zero value the child is stopped as
	 * at its deadline (Ctrl-C in the parent); checked every 50 ms */
	const volatile int *cancel;
	/* optional: asked every round (<= 50 ms); non-zero stops the child
	 * as at its deadline (per-op deadlines of the probe layer) */
	int (*should_stop)(void *arg);
	/* optional: working directory for the child, NULL = ours */
	const char *cwd;
	/* optional: called once when the deadline passes, before the group
	 * is stopped (the hang report of --trace reads /proc/pid then).
	 * Returns how many ms output is still read before the group is
	 * stopped, unless the child ends sooner (a Python program asked for
	 * its stacks); 0 stops it now. */
	int (*on_deadline)(void *arg, int pid);
};

#define GD_CHILD_TAIL_LINES 20

struct gd_child_result {
	enum gd_child_outcome outcome;
	int exit_code;
	int signo;
	double seconds;
	char phase[256];     /* last phase reported, or "" */
	char last_line[512]; /* last non-empty output line */
	char
	    tail[4096]; /* last GD_CHILD_TAIL_LINES output lines, '\n'-joined */
	size_t
	    output_bytes; /* total output seen (floods are counted, not kept) */
	char error[256];  /* for NOSTART */
	/* additions */
	double phase_seconds; /* time spent in the last phase when it ended */
	int partial_message;  /* the phase pipe ended in the middle of a line */
	char partial[256];    /* ...which started like this */
	int leftovers_killed; /* processes of the group still alive after the
			       * child's own exit, killed and reaped */
	int cancelled;	      /* stopped through spec->cancel */
	int pid;	      /* the child's pid = its process group id */
	int start_errno;      /* NOSTART: why exec failed (ENOENT: not found,
			       * anything else: found but cannot be run) */
	size_t lines_cut;     /* lines longer than GD_SUP_LINE_MAX (16 MiB):
			       * on_line saw only their head (sup_stream.h) */
};

/* Runs the child to completion or deadline. Returns 0, or -errno when the
 * supervisor itself could not work (pipe/fork failure). */
int gd_child_run(const struct gd_child_spec *spec, struct gd_child_result *res);

/* "exited 0", "killed by SIGSEGV", "hung for 5.0 s in phase 'cuInit'"... */
void gd_child_describe(const struct gd_child_result *res, char *buf,
		       size_t cap);

#endif
