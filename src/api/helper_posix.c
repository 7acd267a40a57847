/* The helper for probes through the C API: the gpudoctor program, started
 * with posix_spawn (safe in a threaded app), its stdout read to the end
 * with a deadline, then reaped by its pid alone. The app's signal
 * handlers, other children and process attributes are left as they are:
 * the supervisor, which makes its process a child subreaper and kills its
 * descendants, runs in the helper. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api_int.h"
#include "core/util.h"

extern char **environ;

int gd_api_helper_usable(const char *path, char *err, size_t errlen)
{
	struct stat st;
	const char *why;

	if (stat(path, &st) < 0)
		why = errno == ENOENT ? "not there" : strerror(errno);
	else if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0)
		why = "not an executable program";
	else
		return 0;
	gd_fmt(err, errlen,
	       "the probe helper '%s' is %s; set GPUDOCTOR_HELPER or call "
	       "gpudoctor_set_helper() with the gpudoctor program, or check "
	       "without GPUDOCTOR_CHECK_PROBES",
	       path, why);
	return -1;
}

static int spawn(const char *path, char *const argv[], int out_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int rc;

	if (posix_spawn_file_actions_init(&fa))
		return ENOMEM;
	rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null",
						      O_WRONLY, 0);
	if (!rc)
		rc = posix_spawn(pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

/* Everything from fd until end of file or the deadline; 1 on timeout. */
static int read_all(int fd, double deadline, char **out, size_t *len)
{
	size_t cap = 0;
	char *nb;
	ssize_t n;

	for (;;) {
		struct pollfd p = {fd, POLLIN, 0};
		double left = deadline - gd_now();

		if (left <= 0)
			return 1;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			return -1;
		if (!p.revents)
			continue;
		if (*len + 65536 > cap) {
			cap = cap ? cap * 2 : 131072;
			if (!(nb = realloc(*out, cap)))
				return -1;
			*out = nb;
		}
		n = read(fd, *out + *len, cap - *len);
		if (n == 0)
			return 0;
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -1;
		if (n > 0)
			*len += (size_t)n;
	}
}

int gd_api_helper_run(const char *path, char *const argv[], double deadline_s,
		      char **out, size_t *len, char *err, size_t errlen)
{
	int fds[2], rc, st;
	pid_t pid;

	*out = NULL;
	*len = 0;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		gd_fmt(err, errlen, "cannot start the helper: %s",
		       strerror(errno));
		return -1;
	}
	rc = spawn(path, argv, fds[1], &pid);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		gd_fmt(err, errlen, "cannot start the helper '%s': %s", path,
		       strerror(rc));
		return -1;
	}
	rc = read_all(fds[0], gd_now() + deadline_s, out, len);
	close(fds[0]);
	if (rc)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (rc) {
		gd_fmt(err, errlen,
		       rc > 0 ? "the helper '%s' did not finish in %.0f s"
			      : "reading the helper '%s' failed (%.0f s)",
		       path, deadline_s);
		return -1;
	}
	return 0;
}
