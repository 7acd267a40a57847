/* probe/supervisor: fork/exec one child in its own process group, read its
 * output and phase lines with poll(), enforce the deadline, kill the whole
 * group and reap everything in it (docs/style.md habit 8).
 *
 * Why each piece is here:
 *  - own process group: a probe that forks (MIOpen's compiler, hipcc) is
 *    killed as a whole with kill(-pgid);
 *  - child subreaper: in containers PID 1 often does not reap orphans, so a
 *    grandchild left behind would stay a zombie forever; we reap it;
 *  - the direct child is also signalled by pid: one that moved itself into
 *    another process group is out of reach of kill(-pgid), and we would
 *    wait for it forever;
 *  - after the child, every process it left behind is ended, also those
 *    that left the group (probe/reap.c);
 *  - pidfd: we notice the child's exit even when a grandchild keeps the
 *    output pipe open (falls back to a 10 ms waitpid tick on old kernels);
 *  - the environment and the exec path are prepared before fork() so the
 *    child calls only async-signal-safe functions (we may be one of several
 *    supervising threads). */
#include "supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "reap.h"
#include "sup_stream.h"

extern char **environ;

#define SUP_TICK_MS 50

struct sup_stream {
	int fd;
	struct gd_sup_stream b; /* the line being assembled (sup_stream.c) */
};

struct sup_state {
	const struct gd_child_spec *spec;
	struct gd_child_result *res;
	double t0;
	struct gd_sup_lines L;
};

/* Keep our pipe ends off fds 0-2 so the child's dup2() calls never clobber
 * one of them when the parent runs with closed stdio. */
static int fd_above2(int fd)
{
	int nfd;

	if (fd > 2)
		return fd;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return nfd;
}

static int make_pipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	p[0] = fd_above2(p[0]);
	p[1] = fd_above2(p[1]);
	if (p[0] < 0 || p[1] < 0) {
		if (p[0] >= 0)
			close(p[0]);
		if (p[1] >= 0)
			close(p[1]);
		return -EMFILE;
	}
	return 0;
}

/* The child's environment: the given one (or ours) with
 * GPUDOCTOR_PHASE_FD replaced. Returns a malloc'd array whose last extra
 * slot points into *own (also malloc'd). */
static char **build_env(const struct gd_child_spec *spec, int phase_fd,
			char **own)
{
	char *const *src = spec->envp ? spec->envp : environ;
	size_t n = 0, k = 0;
	char **env;

	*own = NULL;
	while (src && src[n])
		n++;
	env = calloc(n + 2, sizeof *env);
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!gd_startswith(src[i], "GPUDOCTOR_PHASE_FD="))
			env[k++] = src[i];
	if (phase_fd >= 0) {
		*own = malloc(48);
		if (!*own) {
			free(env);
			return NULL;
		}
		gd_fmt(*own, 48, "GPUDOCTOR_PHASE_FD=%d", phase_fd);
		env[k++] = *own;
	}
	env[k] = NULL;
	return env;
}

/* execvp without the child having to search: resolve argv[0] through the
 * PATH of the child's environment now. */
static int resolve_exe(const char *name, char *const *env, char *out,
		       size_t cap)
{
	const char *path = "/usr/local/bin:/usr/bin:/bin";

	if (strchr(name, '/')) {
		gd_strlcpy(out, name, cap);
		return 0;
	}
	for (size_t i = 0; env && env[i]; i++)
		if (gd_startswith(env[i], "PATH="))
			path = env[i] + 5;
	while (*path) {
		const char *e = strchr(path, ':');
		size_t len = e ? (size_t)(e - path) : strlen(path);

		gd_fmt(out, cap, "%.*s/%s", (int)len, len ? path : ".", name);
		if (access(out, X_OK) == 0)
			return 0;
		path += len + (e ? 1 : 0);
		if (!e)
			break;
	}
	return -ENOENT;
}

/* Runs in the child between fork and exec: async-signal-safe calls only. */
static void child_exec(const struct gd_child_spec *spec, const char *exe,
		       char **env, int out_w, int phase_w, int err_w)
{
	struct rlimit core = {0, 0};
	sigset_t none;
	int e, devnull;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0 && devnull != 0) {
		dup2(devnull, 0);
		close(devnull);
	}
	dup2(out_w, 1);
	dup2(out_w, 2);
	if (phase_w >= 0)
		fcntl(phase_w, F_SETFD, 0); /* keep it across exec */
	setrlimit(RLIMIT_CORE, &core);
	if (spec->mem_limit_mb) {
		struct rlimit as;

		as.rlim_cur = as.rlim_max = (rlim_t)spec->mem_limit_mb << 20;
		setrlimit(RLIMIT_AS, &as);
	}
	if (spec->cwd && chdir(spec->cwd) < 0)
		goto fail;
	execve(exe, spec->argv, env);
fail:
	e = errno;
	if (write(err_w, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

/* Splits what arrived into lines. Returns 0 at EOF or error (the stream is
 * then closed), 1 otherwise. Reads at most one buffer so a flood cannot
 * starve the deadline check. */
static int read_stream(struct sup_state *st, struct sup_stream *s)
{
	char buf[65536];
	ssize_t n = read(s->fd, buf, sizeof buf);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 1;
	if (n <= 0) {
		close(s->fd);
		s->fd = -1;
		return 0;
	}
	gd_sup_split(&st->L, &s->b, buf, (size_t)n);
	return 1;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {0, (long)ms * 1000000L};

	nanosleep(&ts, NULL);
}

/* Kill whatever is left in the group and reap it: zombies of the group that
 * were reparented to us count as "left" until reaped. Bounded at 2 s. */
static int reap_group(pid_t pgid)
{
	double end = gd_now() + 2.0;
	int found = 0, st;

	if (kill(-pgid, 0) == 0) {
		found = 1;
		kill(-pgid, SIGKILL);
	}
	while (kill(-pgid, 0) == 0 && gd_now() < end) {
		while (waitpid(-pgid, &st, WNOHANG) > 0)
			;
		sleep_ms(1);
	}
	while (waitpid(-pgid, &st, WNOHANG) > 0)
		;
	return found;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	long fd = syscall(SYS_pidfd_open, pid, 0);

	if (fd >= 0) {
		fcntl((int)fd, F_SETFD, FD_CLOEXEC);
		return (int)fd;
	}
#else
	(void)pid;
#endif
	return -1;
}

static void set_status(struct gd_child_result *res, int wst)
{
	if (WIFEXITED(wst)) {
		res->outcome = GD_CHILD_EXITED;
		res->exit_code = WEXITSTATUS(wst);
	} else if (WIFSIGNALED(wst)) {
		res->outcome = GD_CHILD_SIGNALED;
		res->signo = WTERMSIG(wst);
	}
}

struct sup_run {
	pid_t pid;
	int pidfd;
	struct sup_stream s[2];
	int term_sent, kill_sent, exited, wst;
	int reported; /* the deadline passed (or a stop was asked) */
	double deadline, kill_at, stop_at;
};

/* One poll round: read what is there, notice exit, enforce the deadline. */
static void sup_round(struct sup_state *st, struct sup_run *r)
{
	struct pollfd pf[3];
	int npf = 0, timeout = SUP_TICK_MS;
	double now;

	for (int i = 0; i < 2; i++)
		if (r->s[i].fd >= 0)
			pf[npf++] = (struct pollfd){r->s[i].fd, POLLIN, 0};
	if (r->pidfd >= 0)
		pf[npf++] = (struct pollfd){r->pidfd, POLLIN, 0};
	else
		timeout = 10;
	if (poll(pf, (nfds_t)npf, timeout) > 0)
		for (int i = 0; i < 2; i++)
			if (r->s[i].fd >= 0)
				for (int k = 0; k < npf; k++)
					if (pf[k].fd == r->s[i].fd &&
					    pf[k].revents)
						read_stream(st, &r->s[i]);
	if (waitpid(r->pid, &r->wst, WNOHANG) == r->pid)
		r->exited = 1;
	now = gd_now();
	if (!r->term_sent && !r->exited && !r->reported &&
	    (now >= r->deadline || (st->spec->cancel && *st->spec->cancel) ||
	     (st->spec->should_stop && st->spec->should_stop(st->spec->arg)))) {
		int wait_ms = 0;

		st->res->outcome = GD_CHILD_HUNG;
		st->res->cancelled = st->spec->cancel && *st->spec->cancel;
		if (now >= r->deadline && st->spec->on_deadline)
			wait_ms = st->spec->on_deadline(st->spec->arg, r->pid);
		st->res->seconds = now - st->t0;
		st->res->phase_seconds = now - st->L.phase_t0;
		r->reported = 1;
		r->stop_at = now + (wait_ms > 0 ? wait_ms / 1000.0 : 0);
	}
	if (r->reported && !r->term_sent && !r->exited && now >= r->stop_at) {
		kill(-r->pid, SIGTERM);
		kill(r->pid, SIGTERM); /* not reaped yet: the pid is ours */
		r->term_sent = 1;
		r->kill_at =
		    now + (st->spec->grace_s > 0 ? st->spec->grace_s : 0.3);
	}
	if (r->term_sent && !r->kill_sent && !r->exited && now >= r->kill_at) {
		kill(-r->pid, SIGKILL);
		kill(r->pid, SIGKILL);
		r->kill_sent = 1;
	}
}

/* After the child is gone: kill and reap the rest of its group, then take
 * what is still buffered in the pipes (bounded: a writer we could not kill,
 * outside the group, must not hold us). */
static void sup_finish(struct sup_state *st, struct sup_run *r)
{
	double end;

	if (reap_group(r->pid) && !r->reported)
		st->res->leftovers_killed = 1;
	if (gd_reap_leave() && !r->reported)
		st->res->leftovers_killed = 1;
	end = gd_now() + 0.2;
	while ((r->s[0].fd >= 0 || r->s[1].fd >= 0) && gd_now() < end) {
		struct pollfd pf[2];
		int npf = 0;

		for (int i = 0; i < 2; i++)
			if (r->s[i].fd >= 0)
				pf[npf++] =
				    (struct pollfd){r->s[i].fd, POLLIN, 0};
		if (poll(pf, (nfds_t)npf, 20) <= 0)
			continue;
		for (int i = 0; i < 2; i++)
			if (r->s[i].fd >= 0)
				read_stream(st, &r->s[i]);
	}
	for (int i = 0; i < 2; i++) {
		gd_sup_flush(&st->L, &r->s[i].b);
		if (r->s[i].fd >= 0)
			close(r->s[i].fd);
	}
	if (r->pidfd >= 0)
		close(r->pidfd);
}

static int sup_start(const struct gd_child_spec *spec,
		     struct gd_child_result *res, struct sup_run *r, int out[2],
		     int ph[2])
{
	int errp[2] = {-1, -1}, e = 0, rc;
	char *own = NULL, **env;
	char exe[4096];
	ssize_t n;

	if (make_pipe(errp) < 0)
		return -EMFILE;
	env = build_env(spec, spec->phase_pipe ? ph[1] : -1, &own);
	rc = env ? 0 : -ENOMEM;
	if (!rc && !spec->search_path)
		gd_strlcpy(exe, spec->argv[0], sizeof exe);
	else if (!rc && resolve_exe(spec->argv[0], env, exe, sizeof exe) < 0)
		gd_strlcpy(exe, spec->argv[0],
			   sizeof exe); /* exec says ENOENT */
	if (!rc) {
		r->pid = fork();
		if (r->pid == 0)
			child_exec(spec, exe, env, out[1], ph[1], errp[1]);
		if (r->pid < 0)
			rc = -errno;
	}
	free(env);
	free(own);
	close(errp[1]);
	if (!rc) {
		setpgid(r->pid, r->pid); /* no race with our kill(-pid) */
		res->pid = (int)r->pid;
		do
			n = read(errp[0], &e, sizeof e);
		while (n < 0 && errno == EINTR);
		if (n == (ssize_t)sizeof e) {
			waitpid(r->pid, NULL, 0);
			res->outcome = GD_CHILD_NOSTART;
			res->start_errno = e;
			gd_fmt(res->error, sizeof res->error,
			       "cannot run %s: %s", exe, strerror(e));
			rc = 1;
		}
	}
	close(errp[0]);
	return rc;
}

int gd_child_run(const struct gd_child_spec *spec, struct gd_child_result *res)
{
	struct sup_state st;
	struct sup_run r;
	int out[2], ph[2] = {-1, -1}, rc;

	memset(res, 0, sizeof *res);
	memset(&st, 0, sizeof st);
	memset(&r, 0, sizeof r);
	st.spec = st.L.spec = spec;
	st.res = st.L.res = res;
	if (!spec->argv || !spec->argv[0]) {
		res->outcome = GD_CHILD_NOSTART;
		gd_strlcpy(res->error, "no program given", sizeof res->error);
		return 0;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (make_pipe(out) < 0)
		return -EMFILE;
	if (spec->phase_pipe && make_pipe(ph) < 0) {
		close(out[0]);
		close(out[1]);
		return -EMFILE;
	}
	st.t0 = st.L.phase_t0 = gd_now();
	gd_reap_enter();
	rc = sup_start(spec, res, &r, out, ph);
	close(out[1]);
	if (ph[1] >= 0)
		close(ph[1]);
	if (rc) {
		gd_reap_leave();
		close(out[0]);
		if (ph[0] >= 0)
			close(ph[0]);
		return rc > 0 ? 0 : rc;
	}
	r.s[0].fd = out[0];
	r.s[1].fd = ph[0];
	r.s[1].b.is_phase = 1;
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	if (ph[0] >= 0)
		fcntl(ph[0], F_SETFL, O_NONBLOCK);
	r.pidfd = open_pidfd(r.pid);
	r.deadline = st.t0 + (spec->timeout_s > 0 ? spec->timeout_s : 30.0);
	while (!r.exited)
		sup_round(&st, &r);
	if (!r.reported) {
		set_status(res, r.wst);
		res->seconds = gd_now() - st.t0;
		res->phase_seconds = gd_now() - st.L.phase_t0;
	}
	sup_finish(&st, &r);
	gd_sup_tail(&st.L);
	gd_sup_free(&r.s[0].b);
	gd_sup_free(&r.s[1].b);
	return 0;
}

void gd_child_describe(const struct gd_child_result *res, char *buf, size_t cap)
{
	switch (res->outcome) {
	case GD_CHILD_EXITED:
		gd_fmt(buf, cap, "exited %d", res->exit_code);
		break;
	case GD_CHILD_SIGNALED:
		gd_fmt(buf, cap, "killed by SIG%s",
		       sigabbrev_np(res->signo) ? sigabbrev_np(res->signo)
						: "?");
		break;
	case GD_CHILD_HUNG:
		if (res->phase[0])
			gd_fmt(buf, cap, "%s for %.1f s in phase '%s'",
			       res->cancelled ? "stopped" : "hung",
			       res->seconds, res->phase);
		else
			gd_fmt(buf, cap, "%s for %.1f s before any phase",
			       res->cancelled ? "stopped" : "hung",
			       res->seconds);
		break;
	case GD_CHILD_NOSTART:
		gd_fmt(buf, cap, "could not start: %s", res->error);
		break;
	}
}
