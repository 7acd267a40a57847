/* probe/probe: the parent side. One job per backend (or per selftest case),
 * each in its own thread supervising one child at a time; the child's
 * '@'-messages build the results, the per-op deadline is enforced through
 * the supervisor's should_stop hook, and a backend that hangs or crashes
 * in an op is restarted past it. The calling thread only waits and feeds
 * the progress callback. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "core/plat.h"
#include "kmsg.h"
#include "probe_int.h"
#include "supervisor.h"

/* AddressSanitizer reserves terabytes of shadow memory: no RLIMIT_AS then */
#if defined(__SANITIZE_ADDRESS__)
#define GD_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GD_UNDER_ASAN 1
#endif
#endif
#ifndef GD_UNDER_ASAN
#define GD_UNDER_ASAN 0
#endif

static void job_line(void *arg, int is_phase, const char *line)
{
	struct gd_pjob *j = arg;

	pthread_mutex_lock(&j->run->mu);
	if (is_phase == 1)
		gd_pjob_phase(j, line, gd_now());
	else if (is_phase == 2)
		gd_pjob_apply_msg(j, line + 1, gd_now());
	pthread_mutex_unlock(&j->run->mu);
}

/* Per-op (or per-step) deadline and whole-run deadline, checked every
 * <= 50 ms; the rule is gd_pjob_deadline(). */
static int job_should_stop(void *arg)
{
	struct gd_pjob *j = arg;
	double now = gd_now();
	int stop = 0;

	pthread_mutex_lock(&j->run->mu);
	j->stop_why = gd_pjob_deadline(j, now);
	stop = j->stop_why != NULL;
	if (stop)
		j->stop_t = now;
	pthread_mutex_unlock(&j->run->mu);
	return stop;
}

static int job_argv(struct gd_pjob *j, char **argv, char bufs[][16])
{
	const struct gd_probe_opts *o = j->run->opts;
	int n = 0;

	argv[n++] = j->run->ctx->self_exe;
	argv[n++] = "__probe-child";
	argv[n++] = (char *)j->backend;
	gd_fmt(bufs[0], 16, "%d", j->start);
	argv[n++] = "--start";
	argv[n++] = bufs[0];
	if (j->only >= 0) {
		gd_fmt(bufs[1], 16, "%d", j->only);
		argv[n++] = "--only";
		argv[n++] = bufs[1];
	}
	if (o->only && j->only < 0) {
		gd_fmt(bufs[2], 16, "%lx", (unsigned long)o->only);
		argv[n++] = "--ops";
		argv[n++] = bufs[2];
	}
	if (o->quick)
		argv[n++] = "--quick";
	if (o->bench || (o->only & GD_OPSET(GD_OP_BENCH)))
		argv[n++] = "--bench";
	if (j->lib) {
		argv[n++] = "--lib";
		argv[n++] = (char *)j->lib;
	}
	if (o->miopen_find_mode && *o->miopen_find_mode) {
		argv[n++] = "--miopen-find-mode";
		argv[n++] = (char *)o->miopen_find_mode;
	}
	argv[n] = NULL;
	return n;
}

/* The child's environment: ours, plus MIOPEN_FIND_MODE for the HIP child
 * when --miopen-find-mode was given (MIOpen reads it when it loads, so it
 * must be there before the child starts). NULL when no change is needed
 * or on allocation failure (the child then inherits ctx->env). */
static char **job_env(const struct gd_pjob *j, char *own, size_t cap)
{
	const char *m = j->run->opts->miopen_find_mode;
	char **env, *const *src = j->run->ctx->env;
	size_t n = 0, k = 0;

	if (!m || !*m || strcmp(j->backend, "hip") || !src)
		return NULL;
	while (src[n])
		n++;
	env = calloc(n + 2, sizeof *env);
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) /* Windows: any case is the same */
		if (!gd_env_is(src[i], "MIOPEN_FIND_MODE", gd_env_own_folds()))
			env[k++] = src[i];
	gd_fmt(own, cap, "MIOPEN_FIND_MODE=%s", m);
	env[k++] = own;
	env[k] = NULL;
	return env;
}

/* One child from start to end; returns 1 when the job should restart. */
static int job_once(struct gd_pjob *j)
{
	struct gd_child_spec spec;
	struct gd_child_result res;
	char *argv[20], bufs[3][16];
	struct gd_kmsg k;
	char kern[1024] = "", mode[160];
	char **env = job_env(j, mode, sizeof mode);

	memset(&spec, 0, sizeof spec);
	job_argv(j, argv, bufs);
	spec.argv = argv;
	spec.envp = env ? env : j->run->ctx->env;
	/* the supervisor's own deadline is only a backstop: should_stop
	 * enforces the per-op and whole-run ones */
	spec.timeout_s = j->run->deadline - gd_now() + 1.0;
	spec.grace_s = 0.3;
	spec.phase_pipe = 1;
	spec.on_line = job_line;
	spec.should_stop = job_should_stop;
	spec.cancel = j->run->opts->cancel;
	spec.arg = j;
	/* GPU runtimes reserve terabytes of address space (CUDA UVM), so no
	 * RLIMIT_AS for them; the fault probes get one */
	spec.mem_limit_mb = j->only >= 0 && !GD_UNDER_ASAN ? 2048 : 0;
	pthread_mutex_lock(&j->run->mu);
	j->in_op = 0;
	j->progress = 0;
	j->op_t0 = j->phase_t = gd_now();
	j->phase[0] = '\0';
	gd_strlcpy(j->op, gd_op_name(GD_OP_INIT), sizeof j->op);
	j->cur_dev = -1;
	j->stop_why = NULL;
	j->stop_t = 0;
	j->begun = 0;
	pthread_mutex_unlock(&j->run->mu);
	gd_kmsg_open(j->run->ctx, &k);
	if (gd_child_run(&spec, &res) < 0) {
		gd_strlcpy(res.error, "cannot create pipes or fork",
			   sizeof res.error);
		res.outcome = GD_CHILD_NOSTART;
	}
	free(env);
	gd_kmsg_collect(&k, kern, sizeof kern);
	gd_kmsg_close(&k);
	pthread_mutex_lock(&j->run->mu);
	j->last_pid = res.pid;
	{
		int restart = gd_pjob_classify(j, &res, kern);

		pthread_mutex_unlock(&j->run->mu);
		return restart;
	}
}

static void *job_thread(void *arg)
{
	struct gd_pjob *j = arg;

	while (job_once(j))
		;
	gd_probe_diag_run(j);
	pthread_mutex_lock(&j->run->mu);
	j->done = 1;
	pthread_mutex_unlock(&j->run->mu);
	return NULL;
}

static int want_backend(const char *list, const char *name)
{
	size_t n = strlen(name);

	if (!list || !*list || !strcmp(list, "all"))
		return 1;
	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return 1;
	return 0;
}

static int add_job(struct gd_prun *r, const char *backend, const char *lib)
{
	struct gd_pjob *j = gd_vec_push(&r->jobs);

	if (!j)
		return -ENOMEM;
	j->backend = backend;
	j->lib = lib;
	j->only = -1;
	return 0;
}

/* One job per backend; where a backend's runtime comes in several majors
 * side by side (HIP on Windows, libnames.h), one per major the loader can
 * find (the file is looked for, not loaded: that is for the child), so
 * each says for itself whether it works. None found: one job that tries
 * every name and says where it looked. */
static int add_backend_jobs(struct gd_prun *r, const char *backend)
{
	const char *const *v =
	    !strcmp(backend, "hip") ? gd_lib_variants(GD_LIB_HIP) : NULL;
	char path[1024];
	int n = 0;

	for (size_t i = 0; v && v[i]; i++) {
		if (gd_plat_lib_find(v[i], path, sizeof path) < 0)
			continue;
		if (add_job(r, backend, v[i]) < 0)
			return -ENOMEM;
		n++;
	}
	return n ? 0 : add_job(r, backend, NULL);
}

static int make_jobs(struct gd_prun *r)
{
	if (r->opts->selftest) {
		const char *expected;

		for (int i = 0; gd_selftest_case(i, &expected); i++) {
			struct gd_pjob *j = gd_vec_push(&r->jobs);

			if (!j)
				return -ENOMEM;
			j->backend = "selftest";
			j->only = i;
			j->start = i;
			gd_strlcpy(j->expected, expected, sizeof j->expected);
		}
		return 0;
	}
	{
		size_t n;
		const struct gd_backend *const *t = gd_backends(&n);

		for (size_t i = 0; i < n; i++) {
			if (!want_backend(r->opts->backends, t[i]->name))
				continue;
			if (add_backend_jobs(r, t[i]->name) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

static void wait_jobs(struct gd_prun *r)
{
	struct gd_probe_progress *p = calloc(r->jobs.n + 1, sizeof *p);

	for (;;) {
		size_t done = 0;
		struct timespec ts = {0, 100 * 1000000L};

		pthread_mutex_lock(&r->mu);
		for (size_t i = 0; i < r->jobs.n; i++) {
			struct gd_pjob *j = &r->jobs.v[i];

			done += j->done;
			if (p) {
				p[i].backend = j->backend;
				p[i].op = j->in_op   ? j->op
					  : j->begun ? ""
						     : gd_op_name(GD_OP_INIT);
				p[i].phase = j->phase;
				p[i].elapsed = gd_now() - j->op_t0;
				p[i].deadline = r->timeout;
				p[i].done = j->done;
			}
		}
		if (p && r->opts->on_progress && done < r->jobs.n)
			r->opts->on_progress(r->opts->arg, p, r->jobs.n);
		pthread_mutex_unlock(&r->mu);
		if (done == r->jobs.n)
			break;
		nanosleep(&ts, NULL);
	}
	free(p);
}

static void merge(struct gd_prun *r, struct gd_probe_report *out)
{
	for (size_t i = 0; i < r->jobs.n; i++) {
		struct gd_pjob *j = &r->jobs.v[i];

		for (size_t k = 0; k < j->results.n; k++) {
			struct gd_probe_result *d = gd_vec_push(&out->results);

			if (!d)
				continue;
			*d = j->results.v[k];
			if (j->lib) /* which runtime said it */
				gd_fmt(d->detail, sizeof d->detail, "%s: %s",
				       j->lib, j->results.v[k].detail);
		}
		for (size_t k = 0; k < j->devices.n; k++) {
			struct gd_probe_device *d = gd_vec_push(&out->devices);

			if (d)
				*d = j->devices.v[k];
		}
		for (size_t k = 0; k < j->figures.n; k++) {
			struct gd_probe_figure *d = gd_vec_push(&out->figures);

			if (d)
				*d = j->figures.v[k];
		}
		for (size_t k = 0; k < j->diags.n; k++) {
			struct gd_probe_diag *d = gd_vec_push(&out->diags);

			if (d)
				*d = j->diags.v[k];
			else
				free(j->diags.v[k].out);
		}
		gd_vec_free(&j->results);
		gd_vec_free(&j->devices);
		gd_vec_free(&j->figures);
		gd_vec_free(&j->diags);
	}
}

int gd_probe_run(gd_ctx *ctx, const struct gd_probe_opts *opts,
		 struct gd_probe_report *out)
{
	struct gd_prun r;
	double t0 = gd_now();
	size_t started = 0;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	out->selftest = opts->selftest;
	r.ctx = ctx;
	r.opts = opts;
	r.timeout = opts->timeout_s > 0 ? opts->timeout_s
		    : opts->selftest	? 1.0
		    : opts->quick	? 5.0
					: 10.0;
	r.total = opts->total_timeout_s > 0 ? opts->total_timeout_s
		  : opts->quick		    ? 8.0
					    : 120.0;
	r.deadline = t0 + r.total;
	pthread_mutex_init(&r.mu, NULL);
	rc = make_jobs(&r);
	if (!rc && !ctx->self_exe[0])
		rc = -ENOEXEC;
	for (size_t i = 0; !rc && i < r.jobs.n; i++) {
		r.jobs.v[i].run = &r;
		r.jobs.v[i].cur_dev = -1;
	}
	for (size_t i = 0; !rc && i < r.jobs.n; i++) {
		struct gd_pjob *j = &r.jobs.v[i];

		if (pthread_create(&j->thread, NULL, job_thread, j) == 0) {
			j->started = 1;
			started++;
		} else {
			j->done = 1;
			gd_pjob_add(j, -1, gd_op_name(GD_OP_INIT), GD_PS_ERROR,
				    "cannot start a supervising thread");
		}
	}
	if (!rc)
		wait_jobs(&r);
	for (size_t i = 0; i < r.jobs.n; i++)
		if (r.jobs.v[i].started)
			pthread_join(r.jobs.v[i].thread, NULL);
	merge(&r, out);
	gd_vec_free(&r.jobs);
	pthread_mutex_destroy(&r.mu);
	out->wall_seconds = gd_now() - t0;
	if (rc == -ENOEXEC)
		gd_diag_add(ctx, GD_DIAG_ERROR, "probe",
			    "cannot re-exec gpudoctor: path of the running "
			    "binary unknown");
	return rc ? rc : (started || !out->results.n ? 0 : -ECHILD);
}

void gd_probe_report_free(struct gd_probe_report *r)
{
	gd_vec_free(&r->results);
	gd_vec_free(&r->devices);
	gd_vec_free(&r->figures);
	for (size_t i = 0; i < r->diags.n; i++)
		free(r->diags.v[i].out);
	gd_vec_free(&r->diags);
}
