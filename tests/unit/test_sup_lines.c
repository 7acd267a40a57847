/* Lines of any length through the supervisor (issue #20: `make test` was
 * red on an AVX-512 machine, where ld.so's LD_DEBUG=libs "search
 * path=...(system search path)" line is 2,397 bytes and the supervisor cut
 * lines at 2,048, so the not-found list stayed empty).
 *
 * The same condition on any CPU: the real ld.so, run explicitly with
 * --glibc-hwcaps-prepend, adds a glibc-hwcaps subdirectory per name to
 * every system directory, so its system search-path line is as long as we
 * like (4 KiB and 85 KiB here); --preload of a library that exists
 * nowhere makes it search the system path and give up. The real
 * supervisor reads the output; the probe's LD_DEBUG parser (probe/diag.c)
 * must still find that ld.so did not find the library. Then a line of
 * 1 MiB and a line past GD_SUP_LINE_MAX (never whole: cut and counted,
 * not silent) from sh. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/probe.h"
#include "probe/sup_stream.h"
#include "probe/supervisor.h"
#include "t.h"

struct seen {
	struct gd_lddebug ld;
	size_t longest_system; /* the longest "(system search path)" line */
	size_t longest;
	size_t n;
};

static int is_file(void *arg, const char *path)
{
	struct stat st;

	(void)arg;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void on_line(void *arg, int is_phase, const char *line)
{
	struct seen *s = arg;
	size_t len = strlen(line);

	if (is_phase)
		return;
	s->n++;
	if (len > s->longest)
		s->longest = len;
	if (strstr(line, "(system search path)") && len > s->longest_system)
		s->longest_system = len;
	gd_lddebug_line(&s->ld, line);
}

static const char *find_ldso(void)
{
	static const char *const c[] = {"/lib64/ld-linux-x86-64.so.2",
					"/lib/ld-linux-aarch64.so.1",
					"/lib64/ld-linux-aarch64.so.1",
					"/lib/ld-linux-armhf.so.3",
					"/lib64/ld64.so.2",
					"/lib/ld-linux-riscv64-lp64d.so.1"};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		if (access(c[i], X_OK) == 0)
			return c[i];
	return NULL;
}

static int run(char **argv, char **envp, struct seen *s,
	       struct gd_child_result *res)
{
	struct gd_child_spec spec;

	memset(s, 0, sizeof *s);
	memset(&spec, 0, sizeof spec);
	s->ld.exists = is_file;
	spec.argv = argv;
	spec.envp = envp;
	spec.timeout_s = 60;
	spec.on_line = on_line;
	spec.arg = s;
	if (gd_child_run(&spec, res) < 0)
		return -1;
	gd_lddebug_end(&s->ld);
	return 0;
}

static int missing(const struct gd_lddebug *d, const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->missing[i], name))
			return 1;
	return 0;
}

/* ld.so with n hwcaps names of len bytes (ld.so takes at most 32): its
 * system search-path line passes min. */
static void ldso_case(const char *ldso, int names, int len, size_t min)
{
	char *list = malloc((size_t)names * ((size_t)len + 1) + 1), *p = list;
	char *envp[] = {"LD_DEBUG=libs", "PATH=/usr/bin:/bin", NULL};
	char *argv[] = {(char *)ldso, "--glibc-hwcaps-prepend",	    list,
			"--preload",  "libgd_absent_dep_7391.so.1", "/bin/true",
			NULL};
	struct gd_child_result res;
	struct seen s;

	for (int i = 0; i < names; i++)
		p += sprintf(p, "%sgd_hwcaps_%04d%0*d", i ? ":" : "", i,
			     len - 14, 0);
	CHECK_INT(run(argv, envp, &s, &res), 0);
	printf("ld.so, %d hwcaps names: system search path line %zu bytes, "
	       "%zu lines\n",
	       names, s.longest_system, s.n);
	CHECK(s.longest_system > min); /* the condition is reproduced */
	CHECK(missing(&s.ld, "libgd_absent_dep_7391.so.1"));
	CHECK_INT(res.lines_cut, 0);
	free(list);
}

/* sh prints one line of n bytes (then "end"): whole, or cut and counted. */
static void sh_case(size_t n, int cut)
{
	char script[200];
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct gd_child_result res;
	struct seen s;

	snprintf(script, sizeof script,
		 "head -c %zu /dev/zero | tr '\\0' x; echo; echo end", n);
	CHECK_INT(run(argv, NULL, &s, &res), 0);
	CHECK_INT(s.n, 2);
	CHECK_INT(s.longest, cut ? GD_SUP_LINE_MAX : n);
	CHECK_INT(res.lines_cut, cut);
	CHECK_STR(res.last_line, "end");
	CHECK_INT(res.output_bytes, n + 5);
}

int main(void)
{
	const char *ldso = find_ldso();
	char probe[300];

	snprintf(probe, sizeof probe,
		 "%s --glibc-hwcaps-prepend x --help >/dev/null 2>&1",
		 ldso ? ldso : "/nonexistent");
	if (ldso && system(probe) == 0) {
		ldso_case(ldso, 12, 40, 2048);
		ldso_case(ldso, 30, 700, 64 * 1024);
	} else {
		printf("skip - no glibc ld.so with --glibc-hwcaps-prepend "
		       "(glibc >= 2.33)\n");
	}
	sh_case(1u << 20, 0);
	sh_case(GD_SUP_LINE_MAX + 1000, 1);
	return t_done("sup_lines");
}
