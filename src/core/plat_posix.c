/* plat.h on Linux: environ, /proc/self/exe, dlopen, and children in their
 * own process group killed as a group. */
#include "plat.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

extern char **environ;

const char *gd_plat_name(void)
{
	return "linux";
}

FILE *gd_plat_memstream_open(gd_memstream *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f;
}

int gd_plat_memstream_close(gd_memstream *m, char **buf, size_t *len)
{
	int rc = fclose(m->f);

	m->f = NULL;
	if (rc != 0) {
		free(m->buf);
		m->buf = NULL;
		return -1;
	}
	*buf = m->buf;
	*len = m->len;
	return 0;
}

void gd_plat_sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

char **gd_plat_environ(void)
{
	return environ;
}

int gd_plat_self_exe(char *buf, size_t cap)
{
	ssize_t n;

	if (cap < 2)
		return -EINVAL;
	n = readlink("/proc/self/exe", buf, cap - 1);
	if (n < 0) {
		buf[0] = '\0';
		return -errno;
	}
	buf[n] = '\0';
	return 0;
}

void *gd_plat_lib_open(const char *name, char *err, size_t errcap)
{
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);

	if (!h && err && errcap) {
		const char *e = dlerror();

		gd_strlcpy(err, e ? e : "dlopen failed", errcap);
	}
	return h;
}

void *gd_plat_lib_sym(void *lib, const char *sym)
{
	return lib ? dlsym(lib, sym) : NULL;
}

void gd_plat_lib_close(void *lib)
{
	if (lib)
		dlclose(lib);
}

int gd_plat_lib_path(void *lib, const char *sym, char *buf, size_t cap)
{
	struct link_map *lm = NULL;

	(void)sym;
	if (!lib || dlinfo(lib, RTLD_DI_LINKMAP, &lm) != 0 || !lm ||
	    !lm->l_name)
		return -ENOENT;
	gd_strlcpy(buf, lm->l_name, cap);
	return 0;
}

/* ---- process supervision ---- */

static void child_exec(const gd_proc_spec *spec, int out)
{
	int nul = open("/dev/null", O_RDONLY);

	if (!spec->same_group)
		setpgid(0, 0);
	if (nul >= 0)
		dup2(nul, 0);
	dup2(out, 1);
	dup2(out, 2);
	if (spec->envp)
		environ = (char **)spec->envp;
	execvp(spec->argv[0], spec->argv);
	dprintf(2, "exec %s: %s\n", spec->argv[0], strerror(errno));
	_exit(127);
}

static void keep(gd_proc_result *res, size_t cap, const char *b, size_t n)
{
	if (res->out_len + n > cap) {
		res->out_truncated = 1;
		n = cap - res->out_len;
	}
	memcpy(res->out + res->out_len, b, n);
	res->out_len += n;
	res->out[res->out_len] = '\0';
}

/* Reads the child's output until EOF or the deadline; 1 on timeout. */
static int drain(int fd, const gd_proc_spec *spec, gd_proc_result *res,
		 size_t cap, double t0)
{
	char b[4096];

	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int wait = -1;
		ssize_t n;

		if (spec->timeout_ms > 0) {
			wait = spec->timeout_ms - (int)((gd_now() - t0) * 1000);
			if (wait <= 0)
				return 1;
		}
		if (poll(&p, 1, wait) < 0) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		if (!p.revents)
			continue;
		n = read(fd, b, sizeof b);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0; /* EOF: every holder of the pipe is gone */
		keep(res, cap, b, (size_t)n);
	}
}

int gd_proc_run(const gd_proc_spec *spec, gd_proc_result *res)
{
	size_t cap = spec->out_cap ? spec->out_cap : 64 * 1024;
	double t0 = gd_now();
	int fds[2], st = 0, timed_out;
	pid_t pid;

	memset(res, 0, sizeof *res);
	if (!spec->argv || !spec->argv[0])
		return -EINVAL;
	if (!(res->out = calloc(1, cap + 1)))
		return -ENOMEM;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		res->how = GD_PROC_NOSTART;
		res->code = (unsigned)errno;
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0)
		child_exec(spec, fds[1]);
	if (!spec->same_group)
		setpgid(pid, pid); /* both sides: no race with the kill below */
	close(fds[1]);
	timed_out = drain(fds[0], spec, res, cap, t0);
	close(fds[0]);
	/* The whole group, so grandchildren holding nothing of ours die too. */
	if (timed_out)
		kill(spec->same_group ? pid : -pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!spec->same_group)
		kill(-pid, SIGKILL);
	res->elapsed_ms = (long)((gd_now() - t0) * 1000);
	if (timed_out) {
		res->how = GD_PROC_TIMEOUT;
	} else if (WIFSIGNALED(st)) {
		res->how = GD_PROC_CRASHED;
		res->code = (unsigned)WTERMSIG(st);
	} else {
		res->how = GD_PROC_EXITED;
		res->code = (unsigned)WEXITSTATUS(st);
	}
	return 0;
}

void gd_proc_result_free(gd_proc_result *res)
{
	free(res->out);
	res->out = NULL;
	res->out_len = 0;
}

void gd_proc_describe(const gd_proc_result *res, int timeout_ms, char *buf,
		      size_t cap)
{
	switch (res->how) {
	case GD_PROC_EXITED:
		gd_fmt(buf, cap, "exited %u", res->code);
		break;
	case GD_PROC_CRASHED:
		gd_fmt(buf, cap, "crashed: signal %u (SIG%s)", res->code,
		       sigabbrev_np((int)res->code)
			   ? sigabbrev_np((int)res->code)
			   : "?");
		break;
	case GD_PROC_TIMEOUT:
		gd_fmt(buf, cap, "timed out after %d ms", timeout_ms);
		break;
	case GD_PROC_NOSTART:
		gd_fmt(buf, cap, "did not start: %s", strerror((int)res->code));
		break;
	}
}

void gd_plat_crash_name(unsigned code, char *buf, size_t cap)
{
	const char *ab = sigabbrev_np((int)code);

	if (ab)
		gd_fmt(buf, cap, "SIG%s", ab);
	else
		gd_fmt(buf, cap, "signal %u", code);
}

int gd_plat_exec(char *const *argv, char *const *envp, unsigned *status)
{
	(void)status;
	environ = (char **)envp;
	execvp(argv[0], argv);
	return -errno;
}

int gd_plat_chan_fd(const char *value)
{
	uint32_t v;

	if (!value || !*value || gd_parse_u32(value, 10, &v) < 0 ||
	    v > 1u << 20)
		return -1;
	return (int)v;
}

char gd_plat_path_sep(void)
{
	return ':';
}

/* The one piece of process state a signal handler forces on us. */
static volatile int *intr_flag;
/* Every signal whose default action ends the process and that can be
 * caught without a fault behind it: killed by any of them, gpudoctor
 * would leave its children's children running (PDEATHSIG reaches only
 * the direct child). The core-dumping ones a fault raises (SEGV, BUS,
 * ILL, FPE, ABRT, TRAP, SYS) keep their default. */
static const int intr_sigs[] = {
    SIGINT,    SIGTERM,	  SIGHUP,  SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE,
    SIGALRM,   SIGVTALRM, SIGXCPU, SIGXFSZ, SIGPROF, SIGIO,
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};
#define N_INTR (sizeof intr_sigs / sizeof intr_sigs[0])
static struct sigaction intr_old[N_INTR], rt_old[64];
static unsigned char intr_set[N_INTR], rt_set[64];

static void on_interrupt(int sig)
{
	if (intr_flag)
		*intr_flag = sig;
}

/* sig's handler becomes on_interrupt unless it was ignored (nohup, a
 * parent that ignores it: we keep that). */
static int catch_one(int sig, const struct sigaction *sa, struct sigaction *old)
{
	if (sigaction(sig, NULL, old) < 0 ||
	    (old->sa_handler == SIG_IGN && sig != SIGINT && sig != SIGTERM &&
	     sig != SIGHUP && sig != SIGQUIT))
		return 0;
	return sigaction(sig, sa, NULL) == 0;
}

void gd_plat_interrupts_catch(volatile int *flag)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_interrupt;
	intr_flag = flag;
	for (size_t i = 0; i < N_INTR; i++)
		intr_set[i] =
		    (unsigned char)catch_one(intr_sigs[i], &sa, &intr_old[i]);
	/* the real-time signals end a process too */
	for (int s = SIGRTMIN, i = 0; s <= SIGRTMAX && i < 64; s++, i++)
		rt_set[i] = (unsigned char)catch_one(s, &sa, &rt_old[i]);
}

void gd_plat_interrupts_restore(void)
{
	for (size_t i = 0; i < N_INTR; i++)
		if (intr_set[i])
			sigaction(intr_sigs[i], &intr_old[i], NULL);
	for (int s = SIGRTMIN, i = 0; s <= SIGRTMAX && i < 64; s++, i++)
		if (rt_set[i])
			sigaction(s, &rt_old[i], NULL);
	intr_flag = NULL;
}

int gd_plat_lib_find(const char *name, char *buf, size_t cap)
{
	(void)name;
	if (cap)
		buf[0] = '\0';
	return -ENOTSUP;
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_init(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

void *gd_plat_c_locale(void)
{
	locale_t prev;

	pthread_once(&c_locale_once, c_locale_init);
	if (!c_locale || (prev = uselocale(c_locale)) == (locale_t)0)
		return NULL;
	return prev;
}

void gd_plat_locale_restore(void *prev)
{
	if (prev)
		uselocale((locale_t)prev);
}
