/* probe/trace_hang: which hooked calls are in flight, and what /proc says
 * the thread is doing (see trace.h). The parent of the traced program may
 * read /proc/P/task/T/{stat,wchan,syscall} and /proc/P/fd even under Yama
 * ptrace_scope=1 (docs/trace.md, "Sources"). These are live
 * kernel files of our own child, so they are opened directly, not under
 * the --root of captured machines. */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/trace.h"

#define MAX_CALLS GD_TRACE_NSLOTS

static void read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = -1;

	buf[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, buf, cap - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* x86-64 syscall numbers (docs/trace.md, "Sources") of the
 * calls a blocked runtime thread sits in. */
static const char *syscall_name(long nr)
{
#if defined(__x86_64__)
	static const struct {
		long nr;
		const char *name;
	} t[] = {
	    {0, "read"},	 {1, "write"},	       {7, "poll"},
	    {16, "ioctl"},	 {23, "select"},       {34, "pause"},
	    {35, "nanosleep"},	 {202, "futex"},       {230, "clock_nanosleep"},
	    {232, "epoll_wait"}, {247, "waitid"},      {61, "wait4"},
	    {271, "ppoll"},	 {281, "epoll_pwait"}, {24, "sched_yield"},
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].nr == nr)
			return t[i].name;
#else
	(void)nr;
#endif
	return NULL;
}

void gd_trace_syscall_text(const char *line, const char *fd_target, char *buf,
			   size_t cap)
{
	const char *name;
	char *end;
	long nr;

	buf[0] = '\0';
	if (!line[0])
		return;
	if (!strncmp(line, "running", 7)) {
		gd_strlcpy(buf, "running (spinning on the CPU)", cap);
		return;
	}
	nr = strtol(line, &end, 10);
	if (end == line)
		return;
	if (nr < 0) {
		gd_strlcpy(buf, "not in a system call", cap);
		return;
	}
	name = syscall_name(nr);
	if (name && fd_target && fd_target[0])
		gd_fmt(buf, cap, "%s(%s)", name, fd_target);
	else if (name)
		gd_fmt(buf, cap, "%s()", name);
	else
		gd_fmt(buf, cap, "system call %ld", nr);
}

/* The file behind the first argument, for fd-taking calls (ioctl, read,
 * write, poll on one fd is not decoded). */
static void fd_target(int pid, const char *line, char *buf, size_t cap)
{
	char path[64], *end;
	long nr = strtol(line, &end, 10), fd;
	ssize_t n;

	buf[0] = '\0';
	if (end == line || (nr != 0 && nr != 1 && nr != 16))
		return;
	fd = strtol(end, &end, 16); /* arguments are printed in hex */
	if (fd < 0 || fd > 1 << 20)
		return;
	gd_fmt(path, sizeof path, "/proc/%d/fd/%ld", pid, fd);
	n = readlink(path, buf, cap - 1);
	buf[n > 0 ? n : 0] = '\0';
}

static char stat_state(const char *stat)
{
	const char *p = strrchr(stat, ')'); /* comm may hold spaces, ')' */

	return p && p[1] == ' ' && p[2] ? p[2] : '?';
}

static void probe_thread(struct gd_trace_stuck *s)
{
	char path[80], buf[512], target[256], wchan[128];

	gd_fmt(path, sizeof path, "/proc/%d/task/%d/stat", s->pid, s->tid);
	read_small(path, buf, sizeof buf);
	s->state = buf[0] ? stat_state(buf) : '?';
	gd_fmt(path, sizeof path, "/proc/%d/task/%d/syscall", s->pid, s->tid);
	read_small(path, buf, sizeof buf);
	fd_target(s->pid, buf, target, sizeof target);
	gd_trace_syscall_text(buf, target, s->blocked, sizeof s->blocked);
	gd_fmt(path, sizeof path, "/proc/%d/task/%d/wchan", s->pid, s->tid);
	read_small(path, wchan, sizeof wchan);
	gd_sanitize(wchan);
	if (wchan[0] && strcmp(wchan, "0") &&
	    strlen(s->blocked) + 8 + strlen(wchan) < sizeof s->blocked) {
		size_t l = strlen(s->blocked);

		gd_fmt(s->blocked + l, sizeof s->blocked - l, "%skernel: %s",
		       l ? ", " : "", wchan);
	}
	gd_sanitize(s->blocked);
}

/* The caller's library from /proc/PID/maps (the shim stores only the
 * return address). Read once per process per report. */
static void caller_from_maps(struct gd_trace_stuck *s, uint64_t pc, char **maps,
			     size_t *len, int *maps_pid)
{
	char path[40];
	size_t cap = 0;
	int fd;

	if (*maps_pid != s->pid) {
		free(*maps);
		*maps = NULL;
		*len = 0;
		*maps_pid = s->pid;
		gd_fmt(path, sizeof path, "/proc/%d/maps", s->pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		while (fd >= 0) {
			ssize_t r;

			if (*len + 4096 > cap) {
				char *nb =
				    realloc(*maps, cap = cap * 2 + 65536);

				if (!nb)
					break;
				*maps = nb;
			}
			r = read(fd, *maps + *len, cap - *len);
			if (r <= 0)
				break;
			*len += (size_t)r;
		}
		if (fd >= 0)
			close(fd);
	}
	if (*maps)
		gd_trace_maps_caller(*maps, *len, pc, s->caller,
				     sizeof s->caller);
}

static int rd_fd(void *ctx, uint64_t off, void *buf, size_t n)
{
	return off < INT64_MAX &&
		       pread(*(int *)ctx, buf, n, (off_t)off) == (ssize_t)n
		   ? 0
		   : -1;
}

/* The function holding pc, from the symbols of the file mapped there. */
static void caller_function(struct gd_trace_stuck *s, uint64_t pc,
			    const char *maps, size_t len)
{
	char path[4096];
	struct stat st;
	uint64_t off;
	int fd;

	if (!maps ||
	    gd_trace_maps_file(maps, len, pc, path, sizeof path, &off) < 0)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		gd_trace_elf_func(rd_fd, &fd, off, s->function,
				  sizeof s->function);
	close(fd);
}

static void stuck_line(struct gd_trace_stuck *s)
{
	gd_fmt(s->line, sizeof s->line,
	       "thread %d stuck %.1f s in %s%s%s%s%s%s%s%s", s->tid, s->seconds,
	       s->call, s->caller[0] ? " called from " : "", s->caller,
	       s->caller[0] && s->function[0] ? " (" : "",
	       s->caller[0] ? s->function : "",
	       s->caller[0] && s->function[0] ? ")" : "",
	       s->blocked[0] ? ", blocked in " : "", s->blocked);
	if (s->state == 'D')
		gd_fmt(s->line + strlen(s->line),
		       sizeof s->line - strlen(s->line), " (uninterruptible)");
}

size_t gd_trace_hang_report(const void *map, uint64_t now_ns,
			    struct gd_trace_stuck *out, size_t cap)
{
	struct gd_trace_call *calls = calloc(MAX_CALLS, sizeof *calls);
	size_t n, bad, k = 0, maps_len = 0;
	char *maps = NULL;
	int maps_pid = 0;

	if (!calls)
		return 0;
	n = gd_trace_snapshot(map, calls, MAX_CALLS, &bad);
	for (size_t i = 0; i < n && k < cap; i++) {
		struct gd_trace_stuck *s = &out[k];
		char path[64];

		if (!calls[i].in_call)
			continue;
		gd_fmt(path, sizeof path, "/proc/%d/task/%d", calls[i].pid,
		       calls[i].tid);
		if (access(path, F_OK) < 0)
			continue; /* the thread is gone */
		memset(s, 0, sizeof *s);
		s->pid = calls[i].pid;
		s->tid = calls[i].tid;
		s->seconds = now_ns > calls[i].t_enter_ns
				 ? (double)(now_ns - calls[i].t_enter_ns) / 1e9
				 : 0;
		s->api = calls[i].api;
		s->kind = calls[i].kind;
		s->thread = calls[i].thread;
		gd_trace_call_text(&calls[i], s->call, sizeof s->call);
		gd_strlcpy(s->caller, calls[i].caller, sizeof s->caller);
		if (!s->caller[0] && calls[i].caller_pc) {
			caller_from_maps(s, calls[i].caller_pc, &maps,
					 &maps_len, &maps_pid);
			caller_function(s, calls[i].caller_pc, maps, maps_len);
		}
		probe_thread(s);
		stuck_line(s);
		k++;
	}
	free(calls);
	free(maps);
	return k;
}

int gd_trace_py_ask(const struct gd_trace_stuck *s, size_t n)
{
	int asked = 0;

	for (size_t i = 0; i < n; i++) {
		char path[40], exe[512], *base;
		ssize_t len;
		int seen = 0;

		for (size_t k = 0; k < i; k++)
			seen |= s[k].pid == s[i].pid;
		gd_fmt(path, sizeof path, "/proc/%d/exe", s[i].pid);
		len = readlink(path, exe, sizeof exe - 1);
		if (seen || len <= 0)
			continue;
		exe[len] = '\0';
		base = strrchr(exe, '/');
		base = base ? base + 1 : exe;
		if (!strncmp(base, "python", 6) && kill(s[i].pid, SIGABRT) == 0)
			asked++;
	}
	return asked;
}
