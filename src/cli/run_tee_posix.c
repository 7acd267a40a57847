/* `gpudoctor run`: CMD as our child, its output passed through and its
 * last lines kept (run_tee.h says what the child keeps of ours). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "core/util.h"
#include "run_keep.h"
#include "run_tee.h"

extern char **environ;

/* One of CMD's output streams: a pipe or a pseudo-terminal's master. */
struct stream {
	int in, out; /* we read in and write out (1 or 2) */
	int slave;   /* the child's end */
	int out_ok;  /* 0 once writing out failed: CMD's end is closed */
	struct gd_run_line line;
};

/* The child, for the signal handler: the one piece of state a handler
 * forces on us. 0 when there is none. */
static volatile pid_t tee_child;
static volatile sig_atomic_t tee_winch;

static const int fwd_sigs[] = {SIGINT,	SIGTERM, SIGHUP, SIGQUIT,
			       SIGUSR1, SIGUSR2, SIGALRM};
#define N_FWD (sizeof fwd_sigs / sizeof fwd_sigs[0])

/* A signal from another process goes on to the child; one the kernel
 * sent (the terminal's Ctrl-C, Ctrl-\, hang-up) reached the child's
 * process group, ours, already. */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGWINCH) {
		tee_winch = 1;
		return;
	}
	if (tee_child > 0 && (!si || si->si_code != SI_KERNEL))
		kill(tee_child, sig);
}

static int write_all(int fd, const char *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) { /* a non-blocking terminal */
			struct pollfd p = {fd, POLLOUT, 0};

			poll(&p, 1, 100);
			continue;
		}
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads what is there; returns 0, or -1 at the end of the stream. */
static int stream_read(struct stream *s, struct gd_run_keep *k)
{
	char buf[65536];
	ssize_t r = read(s->in, buf, sizeof buf);

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r <= 0) { /* EIO: a pseudo-terminal whose other end is closed */
		gd_run_keep_flush(k, &s->line);
		close(s->in);
		s->in = -1;
		return -1;
	}
	if (s->out_ok && write_all(s->out, buf, (size_t)r) < 0) {
		/* our reader went away: so does CMD's, as without us (its
		 * next write gets EPIPE or SIGPIPE) */
		s->out_ok = 0;
		gd_run_keep_lines(k, &s->line, buf, (size_t)r);
		close(s->in);
		s->in = -1;
		return -1;
	}
	gd_run_keep_lines(k, &s->line, buf, (size_t)r);
	return 0;
}

/* A pseudo-terminal like the terminal real is (its settings, output
 * post-processing off, and size); -1 when none can be had. */
static int pty_like(int real, int *master, int *slave)
{
	struct termios t;
	struct winsize ws;
	char name[128];
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), s = -1;

	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 ||
	    ptsname_r(m, name, sizeof name) != 0 ||
	    (s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
		if (m >= 0)
			close(m);
		return -1;
	}
	if (tcgetattr(real, &t) == 0) {
		t.c_oflag &= ~(tcflag_t)OPOST;
		t.c_lflag &= ~(tcflag_t)(ECHO | ICANON | ISIG | IEXTEN);
		tcsetattr(s, TCSANOW, &t);
	}
	if (ioctl(real, TIOCGWINSZ, &ws) == 0)
		ioctl(s, TIOCSWINSZ, &ws);
	*master = m;
	*slave = s;
	return 0;
}

static int stream_open(struct stream *s, int out)
{
	int p[2];

	memset(s, 0, sizeof *s);
	s->in = s->slave = -1;
	s->out = out;
	s->out_ok = 1;
	if (isatty(out) && pty_like(out, &s->in, &s->slave) == 0)
		return 0;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	s->in = p[0];
	s->slave = p[1];
	return 0;
}

static void resize(const struct stream *st)
{
	struct winsize ws;

	for (int i = 0; i < 2; i++)
		if (st[i].in >= 0 && isatty(st[i].out) && isatty(st[i].in) &&
		    ioctl(st[i].out, TIOCGWINSZ, &ws) == 0)
			ioctl(st[i].in, TIOCSWINSZ, &ws);
}

struct sigs {
	struct sigaction old[N_FWD], pipe, winch;
	unsigned char set[N_FWD];
};

static void sigs_catch(struct sigs *g)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < N_FWD; i++) {
		g->set[i] = 0;
		/* one we were started with ignored stays so (nohup) */
		if (sigaction(fwd_sigs[i], NULL, &g->old[i]) == 0 &&
		    g->old[i].sa_handler != SIG_IGN)
			g->set[i] = sigaction(fwd_sigs[i], &sa, NULL) == 0;
	}
	sigaction(SIGWINCH, &sa, &g->winch);
	signal(SIGPIPE, SIG_IGN); /* a closed reader: write() says EPIPE */
}

static void sigs_restore(const struct sigs *g, const struct sigaction *pipe_old)
{
	for (size_t i = 0; i < N_FWD; i++)
		if (g->set[i])
			sigaction(fwd_sigs[i], &g->old[i], NULL);
	sigaction(SIGWINCH, &g->winch, NULL);
	sigaction(SIGPIPE, pipe_old, NULL);
}

/* In the child, between fork and exec. */
static void child_exec(char *const *cmd, char *const *env, const struct sigs *g,
		       const struct sigaction *pipe_old, const sigset_t *mask,
		       struct stream *st, int err_w, pid_t parent)
{
	int e;

	/* SIGKILL to run, which cannot be passed on, ends CMD too: as when
	 * CMD was exec'd in run's place and was that process */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	sigs_restore(g, pipe_old);
	sigprocmask(SIG_SETMASK, mask, NULL);
	dup2(st[0].slave, 1);
	dup2(st[1].slave, 2);
	environ = (char **)env;
	execvp(cmd[0], cmd);
	e = errno;
	if (write(err_w, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

/* Reads both streams until they end; once the child is gone, until a
 * moment passes without output (something it left running may hold
 * them open). */
static void pump(struct stream *st, struct gd_run_keep *k, pid_t pid,
		 int *status)
{
	int reaped = 0;

	while (st[0].in >= 0 || st[1].in >= 0) {
		struct pollfd p[2];
		int n = 0, r;

		for (int i = 0; i < 2; i++)
			if (st[i].in >= 0)
				p[n++] = (struct pollfd){st[i].in, POLLIN, 0};
		r = poll(p, (nfds_t)n, reaped ? 100 : 250);
		if (tee_winch) {
			tee_winch = 0;
			resize(st);
		}
		if (r == 0 && reaped)
			break;
		for (int i = 0, j = 0; r > 0 && i < 2; i++) {
			if (st[i].in < 0)
				continue;
			if (p[j++].revents)
				stream_read(&st[i], k);
		}
		if (!reaped && waitpid(pid, status, WNOHANG) == pid) {
			reaped = 1;
			tee_child = 0;
		}
	}
	if (!reaped) {
		while (waitpid(pid, status, 0) < 0 && errno == EINTR)
			;
		tee_child = 0;
	}
}

static void streams_close(struct stream *st)
{
	for (int i = 0; i < 2; i++) {
		if (st[i].in >= 0)
			close(st[i].in);
		if (st[i].slave >= 0)
			close(st[i].slave);
		st[i].in = st[i].slave = -1;
	}
}

/* The child's exec error, from the pipe it closes on exec: 0 none. */
static int exec_error(int err_r)
{
	int e = 0;
	ssize_t r;

	do
		r = read(err_r, &e, sizeof e);
	while (r < 0 && errno == EINTR);
	close(err_r);
	return r == (ssize_t)sizeof e ? e : 0;
}

static void result(int status, struct gd_run_out *o)
{
	o->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	o->signo = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	o->cored = WIFSIGNALED(status) && WCOREDUMP(status);
	o->crashed = o->cored || o->signo == SIGSEGV || o->signo == SIGBUS ||
		     o->signo == SIGILL || o->signo == SIGFPE ||
		     o->signo == SIGABRT || o->signo == SIGTRAP ||
		     o->signo == SIGSYS;
	o->by_user = o->signo == SIGINT || o->signo == SIGPIPE;
}

/* The buffers, both streams and the exec-error pipe; 0 or -errno (all
 * closed and freed). */
static int tee_open(struct stream *st, struct gd_run_keep *k, int err[2])
{
	int rc = 0;

	st[0].in = st[0].slave = st[1].in = st[1].slave = -1;
	rc = gd_run_keep_init(k);
	if (!rc && (rc = stream_open(&st[0], 1)) == 0)
		rc = stream_open(&st[1], 2);
	if (!rc && pipe2(err, O_CLOEXEC) < 0)
		rc = -errno;
	if (rc) {
		streams_close(st);
		gd_run_keep_free(k);
	}
	return rc;
}

int gd_run_tee(char *const *cmd, char *const *env, struct gd_run_out *o)
{
	struct stream st[2];
	struct gd_run_keep k;
	struct sigs g;
	struct sigaction pipe_old;
	sigset_t all, mask;
	int err[2] = {-1, -1}, status = 0, rc = 0;
	pid_t pid, parent;

	memset(o, 0, sizeof *o);
	rc = tee_open(st, &k, err);
	if (rc)
		return rc;
	sigaction(SIGPIPE, NULL, &pipe_old);
	sigs_catch(&g);
	fflush(NULL);
	/* a signal that comes before the child is known waits until it is
	 * (and in the child, until its handlers are ours no more) */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &mask);
	parent = getpid();
	pid = fork();
	if (pid == 0)
		child_exec(cmd, env, &g, &pipe_old, &mask, st, err[1], parent);
	rc = pid < 0 ? -errno : 0;
	tee_child = pid > 0 ? pid : 0;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	close(err[1]);
	if (pid > 0) {
		for (int i = 0; i < 2; i++) { /* the child's ends */
			close(st[i].slave);
			st[i].slave = -1;
		}
		o->start_errno = exec_error(err[0]);
		pump(st, &k, pid, &status);
		result(status, o);
		rc = gd_run_keep_finish(&k, o);
	} else {
		close(err[0]);
	}
	sigs_restore(&g, &pipe_old);
	streams_close(st);
	gd_run_keep_free(&k);
	return rc;
}

void gd_run_out_free(struct gd_run_out *o)
{
	free(o->log);
	o->log = NULL;
}
