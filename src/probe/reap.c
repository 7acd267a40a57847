/* probe/reap: after a supervised child is gone, end whatever it started.
 *
 * Killing the child's process group is not enough: GNU timeout, setsid,
 * Python's start_new_session=True and daemonising helpers put processes in
 * another group or session, where kill(-pgid) never reaches them; a hung
 * workload left that way keeps the GPU busy while the next strategy runs.
 * The supervisor makes us a child subreaper, so every such orphan is
 * reparented to us: walking /proc for the processes whose parent chain
 * leads to us finds all of them, wherever they moved. The walk needs
 * nothing but procfs, so it is the path that always works (a cgroup per
 * child would also catch a double-forked process reparented above us, but
 * is seldom writable for a user).
 *
 * Several backends are supervised at once, one thread each, and every
 * process we own is a descendant: the sweep therefore waits until no
 * supervised child is running. That is the one piece of process-wide state
 * here (a mutex and a count), as the subreaper attribute is process-wide. */
#include "reap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"

static pthread_mutex_t reap_mu = PTHREAD_MUTEX_INITIALIZER;
static int reap_active;

struct reap_proc {
	pid_t pid, ppid;
	int ours; /* 1: a descendant of ours, 0: not, -1: not known yet */
};

/* The parent pid from /proc/PID/stat: "PID (comm) S PPID ...", where comm
 * may itself hold ')' and spaces, so parse after the last ')'. */
static pid_t read_ppid(const char *pid)
{
	char path[64], buf[512];
	const char *p;
	ssize_t n;
	long ppid;
	int fd;

	gd_fmt(path, sizeof path, "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || !p[1] || !p[2] || p[3] != ' ')
		return -1;
	ppid = strtol(p + 4, NULL, 10);
	return ppid > 0 ? (pid_t)ppid : -1;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct reap_proc *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Every process of the system with its parent, sorted by pid. */
static struct reap_proc *list_procs(size_t *n)
{
	struct reap_proc *v = NULL, *nv;
	size_t cap = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		pid_t ppid;

		if (pid <= 0 || *end || (ppid = read_ppid(de->d_name)) < 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof *v);
			if (!nv)
				break;
			v = nv;
		}
		v[(*n)++] = (struct reap_proc){(pid_t)pid, ppid, -1};
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof *v, cmp_pid);
	return v;
}

/* Whether v[i]'s chain of parents reaches self; memoised in ->ours. The
 * depth cap guards against a cycle in a list read while processes change. */
static int is_ours(struct reap_proc *v, size_t n, size_t i, pid_t self)
{
	struct reap_proc key, *p = &v[i], *up;
	int depth = 0;

	while (p->ours < 0 && depth++ < 4096) {
		if (p->ppid == self)
			return p->ours = 1;
		key.pid = p->ppid;
		up = bsearch(&key, v, n, sizeof *v, cmp_pid);
		if (!up || up->pid <= 1)
			return p->ours = 0;
		if (up->ours >= 0)
			return p->ours = up->ours;
		p = up;
	}
	if (p->ours < 0)
		return 0;
	return v[i].ours = p->ours;
}

/* One pass: SIGKILL every descendant, reap those that are our children.
 * Returns how many descendants were seen. */
static int sweep_once(void)
{
	pid_t self = getpid();
	size_t n, found = 0;
	struct reap_proc *v = list_procs(&n);

	for (size_t i = 0; v && i < n; i++) {
		if (v[i].pid == self || !is_ours(v, n, i, self))
			continue;
		found++;
		kill(v[i].pid, SIGKILL);
	}
	for (size_t i = 0; v && i < n; i++)
		if (v[i].ppid == self)
			waitpid(v[i].pid, NULL, WNOHANG);
	free(v);
	return (int)found;
}

int gd_reap_descendants(void)
{
	double end = gd_now() + 2.0;
	struct timespec ms = {0, 1000000L};
	int first = sweep_once(), n = first;

	/* Killing a parent reparents its children to us: they are found in
	 * the next pass. Bounded, as a fork storm could outrun us. */
	while (n > 0 && gd_now() < end) {
		nanosleep(&ms, NULL);
		n = sweep_once();
	}
	return first;
}

void gd_reap_enter(void)
{
	pthread_mutex_lock(&reap_mu);
	reap_active++;
	pthread_mutex_unlock(&reap_mu);
}

int gd_reap_leave(void)
{
	int n = 0;

	pthread_mutex_lock(&reap_mu);
	if (--reap_active == 0)
		n = gd_reap_descendants();
	pthread_mutex_unlock(&reap_mu);
	return n;
}
