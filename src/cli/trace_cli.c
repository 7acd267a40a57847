/* `run --trace` / `try --trace` setup (see trace_cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "doctor/profile.h"
#include "doctor/strategy.h"
#include "doctor/trace_why.h"
#include "kb/kb.h"
#include "trace_cli.h"

/* One word of --trace=WORD[,WORD...]. */
static int mode_word(const char *w, size_t n)
{
	static const struct {
		const char *name;
		int bits;
	} words[] = {
	    {"hang", GD_TRACE_M_HANG},
	    {"log", GD_TRACE_M_HANG | GD_TRACE_M_LOG},
	    /* always logged */
	    {"rewrite", GD_TRACE_M_HANG | GD_TRACE_M_LOG | GD_TRACE_M_REWRITE},
	    {"deep", GD_TRACE_M_HANG | GD_TRACE_M_DEEP},
	    {"hooks", GD_TRACE_M_HANG | GD_TRACE_M_NOCUPTI},
	};

	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strlen(words[i].name) == n && !strncmp(words[i].name, w, n))
			return words[i].bits;
	return -1;
}

int gd_trace_mode_parse(const char *s)
{
	int mode = 0;

	if (!s)
		return GD_TRACE_M_HANG;
	do {
		size_t n = strcspn(s, ",");
		int b = mode_word(s, n);

		if (b < 0)
			return -1;
		mode |= b;
		s += n;
	} while (*s++ == ',');
	if ((mode & GD_TRACE_M_DEEP) && (mode & GD_TRACE_M_NOCUPTI))
		return -1; /* deep is a CUPTI domain */
	return mode;
}

/* GPUDOCTOR_TRACE_LIB, else beside the program (the build tree), else
 * where `make install` puts it (LIBDIR/gpudoctor/). */
static int find_lib(const char *self_exe, char *out, size_t cap)
{
	const char *env = getenv("GPUDOCTOR_TRACE_LIB");
	const char *slash;

	if (env && env[0]) {
		gd_strlcpy(out, env, cap);
	} else {
		slash = strrchr(self_exe, '/');
		if (!slash)
			return -1;
		gd_fmt(out, cap, "%.*s/libgpudoctor-trace.so",
		       (int)(slash - self_exe), self_exe);
	}
#ifdef GD_TRACE_LIB_INSTALLED
	if (!(env && env[0]) && access(out, R_OK) != 0 &&
	    access(GD_TRACE_LIB_INSTALLED, R_OK) == 0)
		gd_strlcpy(out, GD_TRACE_LIB_INSTALLED, cap);
#endif
	return access(out, R_OK);
}

void gd_trace_reset(struct gd_trace_run *tr, int seq)
{
	const char *tmp = getenv("TMPDIR");

	if (tr->map) {
		struct gd_trace_hdr *h = tr->map;

		memset((char *)tr->map + GD_TRACE_HDR_SIZE, 0,
		       GD_TRACE_REGION_SIZE - GD_TRACE_HDR_SIZE);
		__atomic_store_n(&h->unrecorded, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&h->released, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&h->next_slot, 0, __ATOMIC_RELEASE);
	}
	tr->log[0] = '\0';
	if (tr->mode & GD_TRACE_M_LOG)
		gd_fmt(tr->log, sizeof tr->log, "%s/gpudoctor-trace-%d-%d.log",
		       tmp && tmp[0] == '/' ? tmp : "/tmp", (int)getpid(), seq);
	if (tr->log[0])
		unlink(tr->log); /* the shim appends */
}

int gd_trace_available(void)
{
	return 1;
}

int gd_trace_start(struct gd_trace_run *tr, const char *self_exe, int mode)
{
	memset(tr, 0, sizeof *tr);
	tr->fd = -1;
	tr->mode = mode;
	if (!mode)
		return 0;
	if (find_lib(self_exe, tr->lib, sizeof tr->lib) < 0) {
		fprintf(stderr,
			"gpudoctor: --trace: cannot read %s (set "
			"GPUDOCTOR_TRACE_LIB to libgpudoctor-trace.so)\n",
			tr->lib[0] ? tr->lib : "libgpudoctor-trace.so");
		return -1;
	}
	if (strpbrk(tr->lib, " :")) {
		fprintf(stderr,
			"gpudoctor: --trace: LD_PRELOAD cannot hold "
			"the path %s (space or ':')\n",
			tr->lib);
		return -1;
	}
	tr->fd = gd_trace_region_create(&tr->map);
	if (tr->fd < 0) {
		fprintf(stderr, "gpudoctor: --trace: memfd: %s\n",
			strerror(-tr->fd));
		return -1;
	}
	gd_trace_reset(tr, 0);
	return 0;
}

/* CUDA: the driver loads CUDA_INJECTION64_PATH at cuInit, and the
 * library subscribes to CUPTI (shim/cupti.c). Not with --trace=hooks, and
 * not over an injection library the user set (that tool owns CUPTI; the
 * exported hooks still run). */
static int injection_env(const struct gd_trace_run *tr, struct gd_profile *p,
			 char **env)
{
	static const char key[] = "CUDA_INJECTION64_PATH=";

	if (tr->mode & GD_TRACE_M_NOCUPTI)
		return 0;
	for (char **e = env; e && *e; e++)
		if (!strncmp(*e, key, sizeof key - 1) && (*e)[sizeof key - 1]) {
			fprintf(stderr,
				"gpudoctor: --trace: CUDA_INJECTION64_PATH "
				"is set (%s): CUDA calls are traced by "
				"exported-symbol hooks only\n",
				*e + sizeof key - 1);
			return 0;
		}
	return gd_profile_add(p, GD_PROF_SET, "CUDA_INJECTION64_PATH", tr->lib);
}

/* PYTHONFAULTHANDLER: set to 1 unless the user set it (then kept, and
 * asked only when on). Costs nothing until a fatal signal. */
static int faulthandler_env(struct gd_trace_run *tr, struct gd_profile *p,
			    char **env)
{
	static const char key[] = "PYTHONFAULTHANDLER=";

	for (char **e = env; e && *e; e++)
		if (!strncmp(*e, key, sizeof key - 1)) {
			tr->pyfault = (*e)[sizeof key - 1] != '\0';
			return 0;
		}
	tr->pyfault = 1;
	return gd_profile_add(p, GD_PROF_SET, "PYTHONFAULTHANDLER", "1");
}

char **gd_trace_env(struct gd_trace_run *tr, char **env)
{
	struct gd_profile p;
	char fd[16], mode[16];
	char **out;

	if (!tr->mode)
		return env;
	gd_fmt(fd, sizeof fd, "%d", tr->fd);
	gd_fmt(mode, sizeof mode, "%d", tr->mode);
	gd_profile_init(&p);
	if (gd_profile_add(&p, GD_PROF_PREPEND, "LD_PRELOAD", tr->lib) < 0 ||
	    gd_profile_add(&p, GD_PROF_SET, "GPUDOCTOR_TRACE_FD", fd) < 0 ||
	    gd_profile_add(&p, GD_PROF_SET, "GPUDOCTOR_TRACE_MODE", mode) < 0 ||
	    gd_profile_add(&p, tr->log[0] ? GD_PROF_SET : GD_PROF_UNSET,
			   "GPUDOCTOR_TRACE_LOG",
			   tr->log[0] ? tr->log : NULL) < 0 ||
	    injection_env(tr, &p, env) < 0 || faulthandler_env(tr, &p, env) < 0)
		out = NULL;
	else
		out = gd_profile_apply(&p, env);
	gd_profile_free(&p);
	gd_env_free(env);
	return out;
}

#define DUMP_MAX (256u << 10)

int gd_trace_deadline(struct gd_trace_run *tr, struct gd_trace_stuck *out,
		      int cap, int *n, char *unrecorded, size_t ucap)
{
	struct timespec ts;

	*n = 0;
	unrecorded[0] = '\0';
	if (!tr->map)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*n = (int)gd_trace_hang_report(
	    tr->map, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec,
	    out, (size_t)cap);
	gd_trace_explain(out, (size_t)*n);
	gd_trace_unrecorded_text(tr->map, unrecorded, ucap);
	if (!tr->pyfault || !*n || gd_trace_py_ask(out, (size_t)*n) <= 0)
		return 0;
	tr->capturing = 1;
	return 3000; /* the dump is written at once; Python then ends */
}

int gd_trace_capture(struct gd_trace_run *tr, const char *line)
{
	size_t l = strlen(line);
	char *nb;

	if (!tr->capturing)
		return 0;
	if (tr->dump_len + l + 1 > DUMP_MAX)
		return 1;
	nb = realloc(tr->dump, tr->dump_len + l + 2);
	if (!nb)
		return 1;
	tr->dump = nb;
	memcpy(tr->dump + tr->dump_len, line, l);
	tr->dump_len += l;
	tr->dump[tr->dump_len++] = '\n';
	tr->dump[tr->dump_len] = '\0';
	return 1;
}

void gd_trace_finish(struct gd_trace_run *tr, struct gd_trace_stuck *s, int n)
{
	if (n > 0)
		gd_trace_py_attach(s, (size_t)n, tr->dump, tr->dump_len);
	free(tr->dump);
	tr->dump = NULL;
	tr->dump_len = 0;
	tr->capturing = 0;
}

void gd_trace_stop(struct gd_trace_run *tr)
{
	free(tr->dump);
	tr->dump = NULL;
	gd_trace_region_free(tr->fd, tr->map);
	tr->fd = -1;
	tr->map = NULL;
}

void gd_trace_rewrite_note(struct gd_cli *cli, const struct gd_machine *m,
			   int mode)
{
	static const char suffix[] = "host-alloc-noncoherent";
	struct gd_strategy_list l;
	int listed = 0;

	if (!(mode & GD_TRACE_M_REWRITE))
		return;
	memset(&l, 0, sizeof l);
	if (gd_strategy_candidates(&cli->ctx, m, &l) == 0)
		for (size_t k = 0; k < l.v.n; k++) {
			size_t n = strlen(l.v.v[k].id);

			if (n >= sizeof suffix - 1 &&
			    !strcmp(l.v.v[k].id + n - (sizeof suffix - 1),
				    suffix))
				listed = 1;
		}
	gd_strategy_list_free(&l);
	if (!listed)
		fprintf(stderr,
			"gpudoctor: --trace=rewrite: the knowledge base "
			"lists this rewrite for no GPU found here; applying it "
			"because it was asked for\n");
}
