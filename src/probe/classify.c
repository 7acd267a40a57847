/* probe/classify: the child's '@'-messages become results, and the way the
 * child ended (exit, signal, deadline, cut-off message) becomes the result
 * of the op it was in. The messages come from a process that may be
 * corrupt, so every field is checked and bounded (fuzzed: fuzz_probe_msg). */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <string.h>

#include "core/plat.h"
#include "probe_int.h"
#include "supervisor.h"

struct gd_probe_result *gd_pjob_add(struct gd_pjob *j, int dev, const char *op,
				    enum gd_probe_status st, const char *detail)
{
	struct gd_probe_result *r = gd_vec_push(&j->results);

	if (!r)
		return NULL;
	gd_strlcpy(r->backend, j->backend, sizeof r->backend);
	r->dev = dev;
	for (size_t i = 0; dev >= 0 && i < j->devices.n; i++)
		if (j->devices.v[i].index == dev)
			gd_strlcpy(r->device, j->devices.v[i].name,
				   sizeof r->device);
	gd_strlcpy(r->op, op, sizeof r->op);
	r->status = st;
	gd_strlcpy(r->detail, detail ? detail : "", sizeof r->detail);
	gd_strlcpy(r->expected, j->expected, sizeof r->expected);
	gd_sanitize(r->detail);
	return r;
}

static const char *jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static int jint(json_t *o, const char *key, int dflt)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v))
		return dflt;
	if (json_integer_value(v) < -1 || json_integer_value(v) > 1000000)
		return dflt;
	return (int)json_integer_value(v);
}

static void apply_dev(struct gd_pjob *j, json_t *o)
{
	struct gd_probe_device *d = NULL;
	int idx = jint(o, "index", -1);
	json_t *mem = json_object_get(o, "mem");

	if (idx < 0)
		return;
	for (size_t i = 0; i < j->devices.n; i++)
		if (j->devices.v[i].index == idx)
			d = &j->devices.v[i];
	if (!d && j->devices.n < 64)
		d = gd_vec_push(&j->devices);
	if (!d)
		return;
	memset(d, 0, sizeof *d);
	gd_strlcpy(d->backend, j->backend, sizeof d->backend);
	d->index = idx;
	gd_strlcpy(d->name, jstr(o, "name"), sizeof d->name);
	gd_strlcpy(d->isa, jstr(o, "isa"), sizeof d->isa);
	gd_strlcpy(d->driver, jstr(o, "driver"), sizeof d->driver);
	gd_strlcpy(d->runtime, jstr(o, "runtime"), sizeof d->runtime);
	gd_strlcpy(d->library, jstr(o, "library"), sizeof d->library);
	gd_strlcpy(d->platform, jstr(o, "platform"), sizeof d->platform);
	if (json_is_integer(mem) && json_integer_value(mem) > 0)
		d->mem_bytes = (unsigned long long)json_integer_value(mem);
	d->software = json_is_true(json_object_get(o, "software"));
	gd_sanitize(d->name);
	gd_sanitize(d->isa);
	gd_sanitize(d->driver);
	gd_sanitize(d->runtime);
	gd_sanitize(d->library);
	gd_sanitize(d->platform);
}

static int reported(const struct gd_pjob *j, int step)
{
	return j->only >= 0 ? step == j->only : step >= j->start;
}

static void apply_res(struct gd_pjob *j, json_t *o, double now)
{
	enum gd_probe_status st;
	struct gd_probe_result *r;
	int step = jint(o, "step", -1);

	if (!j->in_op || step != j->cur_step)
		return; /* a result for no op: ignore it */
	j->in_op = 0;
	j->op_t0 = now;
	if (!reported(j, step) || j->results.n >= 4096)
		return;
	if (gd_probe_status_parse(jstr(o, "status"), &st) < 0)
		st = GD_PS_ERROR;
	r = gd_pjob_add(j, j->cur_dev, j->op, st, jstr(o, "detail"));
	if (!r)
		return;
	gd_strlcpy(r->phase, j->phase, sizeof r->phase);
	gd_sanitize(r->phase);
	r->seconds = json_number_value(json_object_get(o, "seconds"));
	r->max_error = json_number_value(json_object_get(o, "max_error"));
}

static void apply_fig(struct gd_pjob *j, json_t *o)
{
	struct gd_probe_figure *f;

	if (j->figures.n >= 256 || !json_is_number(json_object_get(o, "value")))
		return;
	f = gd_vec_push(&j->figures);
	if (!f)
		return;
	gd_strlcpy(f->backend, j->backend, sizeof f->backend);
	f->dev = jint(o, "dev", -1);
	gd_strlcpy(f->name, jstr(o, "name"), sizeof f->name);
	f->value = json_number_value(json_object_get(o, "value"));
	gd_strlcpy(f->unit, jstr(o, "unit"), sizeof f->unit);
	gd_strlcpy(f->note, jstr(o, "note"), sizeof f->note);
	gd_sanitize(f->name);
	gd_sanitize(f->unit);
	gd_sanitize(f->note);
}

void gd_pjob_phase(struct gd_pjob *j, const char *line, double now)
{
	if (strcmp(j->phase, line)) {
		gd_strlcpy(j->phase, line, sizeof j->phase);
		j->phase_t = now;
	}
}

const char *gd_pjob_deadline(const struct gd_pjob *j, double now)
{
	double t = j->run->timeout;

	if (now >= j->run->deadline)
		return "whole-run deadline";
	if (!j->in_op || !j->progress)
		return now - j->op_t0 >= t ? "deadline" : NULL;
	if (now - j->phase_t >= t)
		return "step deadline";
	if (now - j->op_t0 >= GD_PROBE_PROGRESS_CAP * t)
		return "progress cap";
	return NULL;
}

int gd_pjob_apply_msg(struct gd_pjob *j, const char *json, double now)
{
	json_error_t err;
	json_t *o = json_loads(json, JSON_REJECT_DUPLICATES, &err);
	const char *t;
	int rc = 0;

	if (!json_is_object(o)) {
		json_decref(o);
		return -1;
	}
	t = jstr(o, "t");
	if (!strcmp(t, "dev")) {
		apply_dev(j, o);
	} else if (!strcmp(t, "begin")) {
		j->in_op = 1;
		j->begun = 1;
		j->cur_step = jint(o, "step", -1);
		j->cur_dev = jint(o, "dev", -1);
		gd_strlcpy(j->op, jstr(o, "op"), sizeof j->op);
		gd_sanitize(j->op);
		j->op_t0 = now;
		j->phase_t = now;
		j->progress = 0;
		j->phase[0] = '\0';
	} else if (!strcmp(t, "progress")) {
		/* the op promises a phase per bounded step (docs/probe.md) */
		if (j->in_op && jint(o, "step", -1) == j->cur_step) {
			j->progress = 1;
			j->phase_t = now;
		}
	} else if (!strcmp(t, "res")) {
		apply_res(j, o, now);
	} else if (!strcmp(t, "fig")) {
		apply_fig(j, o);
	} else {
		rc = -1;
	}
	json_decref(o);
	return rc;
}

/* The last few output lines: abort messages, runtime complaints. */
static void tail_lines(const char *tail, int n, char *out, size_t cap)
{
	const char *p = tail + strlen(tail);

	while (p > tail && n > 0) {
		p--;
		if (*p == '\n' && --n == 0) {
			p++;
			break;
		}
	}
	gd_strlcpy(out, p, cap);
	for (char *l = out; l && *l;) { /* sanitize each line, keep the '\n' */
		char *nl = strchr(l, '\n');

		if (nl)
			*nl = '\0';
		gd_sanitize(l);
		if (nl)
			*nl = '\n';
		l = nl ? nl + 1 : NULL;
	}
}

static void describe_end(const struct gd_pjob *j,
			 const struct gd_child_result *res, char *d, size_t cap,
			 enum gd_probe_status *st)
{
	*st = GD_PS_CRASH;
	if (res->outcome == GD_CHILD_HUNG && j->stop_why &&
	    !strcmp(j->stop_why, "step deadline")) {
		*st = GD_PS_HANG;
		gd_fmt(d, cap,
		       "no progress for %.1f s in phase '%s' (step "
		       "deadline %.3g s; the op had run %.1f s)",
		       j->stop_t - j->phase_t, j->phase, j->run->timeout,
		       j->stop_t - j->op_t0);
	} else if (res->outcome == GD_CHILD_HUNG && j->stop_why &&
		   !strcmp(j->stop_why, "progress cap")) {
		*st = GD_PS_HANG;
		gd_fmt(d, cap,
		       "still going after %.1f s, last in phase '%s' "
		       "(progress cap %d x %.3g s)",
		       j->stop_t - j->op_t0, j->phase, GD_PROBE_PROGRESS_CAP,
		       j->run->timeout);
	} else if (res->outcome == GD_CHILD_HUNG) {
		*st = GD_PS_HANG;
		gd_fmt(d, cap, "no answer after %.1f s%s%s%s (%s %.3g s)",
		       j->stop_t > 0 ? j->stop_t - j->op_t0 : res->seconds,
		       j->phase[0] ? " in phase '" : "", j->phase,
		       j->phase[0] ? "'" : "",
		       j->stop_why ? j->stop_why : "deadline",
		       j->stop_why && strstr(j->stop_why, "whole")
			   ? j->run->total
			   : j->run->timeout);
	} else if (res->outcome == GD_CHILD_SIGNALED) {
		char name[64]; /* SIGSEGV; Windows: 0xC0000005 (access ...) */

		gd_plat_crash_name((unsigned)res->signo, name, sizeof name);
		gd_fmt(d, cap, "killed by %s%s%s", name,
		       res->last_line[0] ? ": " : "", res->last_line);
	} else if (res->partial_message) {
		gd_fmt(d, cap,
		       "exited %d in the middle of a message (\"%.60s\")",
		       res->exit_code, res->partial);
	} else {
		gd_fmt(d, cap, "exited %d during the op%s%s", res->exit_code,
		       res->last_line[0] ? ": " : "", res->last_line);
	}
}

static int clean_exit(const struct gd_pjob *j, const struct gd_child_result *r)
{
	return r->outcome == GD_CHILD_EXITED && !r->partial_message &&
	       !j->in_op && r->exit_code == 0;
}

/* The child's output tail and the kernel's lines go with the result. */
static void attach_log(struct gd_probe_result *r,
		       const struct gd_child_result *res, const char *kern)
{
	tail_lines(res->tail, 4, r->log, sizeof r->log);
	if (kern[0])
		gd_fmt(r->log + strlen(r->log), sizeof r->log - strlen(r->log),
		       "%skernel: %s", r->log[0] ? "\n" : "", kern);
}

/* After a failed op: 1 to restart past it, else a not_run row. */
static int restart_or_stop(struct gd_pjob *j)
{
	if (j->restarts < GD_PROBE_MAX_RESTARTS &&
	    gd_now() < j->run->deadline - 1.0) {
		j->restarts++;
		j->start = j->cur_step + 1;
		j->stop_t = 0;
		j->begun = 0;
		return 1;
	}
	gd_pjob_add(
	    j, -1, gd_op_name(GD_OP_NOT_RUN), GD_PS_SKIPPED,
	    gd_now() >= j->run->deadline - 1.0
		? "the ops after this one were not run: the whole-run "
		  "deadline (--total-timeout) passed"
		: "the ops after this one were not run: too many hangs or "
		  "crashes in this backend");
	return 0;
}

/* Returns 1 when the backend should be restarted past the failed op. */
int gd_pjob_classify(struct gd_pjob *j, const struct gd_child_result *res,
		     const char *kern)
{
	const char *cancel = NULL;
	struct gd_probe_result *r = NULL;
	enum gd_probe_status st;
	char d[512];
	const char *op =
	    j->in_op ? j->op : gd_op_name(j->begun ? GD_OP_EXIT : GD_OP_INIT);

	/* the setup steps of a restarted child were reported the first time */
	if (j->in_op && !reported(j, j->cur_step))
		op = gd_op_name(GD_OP_RESTART);

	if (j->run->opts->cancel && *j->run->opts->cancel)
		cancel = "stopped: interrupted";
	if (res->outcome == GD_CHILD_NOSTART) {
		gd_fmt(d, sizeof d, "cannot start the probe child: %s",
		       res->error);
		r = gd_pjob_add(j, -1, gd_op_name(GD_OP_INIT), GD_PS_ERROR, d);
	} else if (res->outcome == GD_CHILD_HUNG && cancel) {
		r = gd_pjob_add(j, j->in_op ? j->cur_dev : -1, op,
				GD_PS_SKIPPED, cancel);
	} else if (!clean_exit(j, res)) {
		describe_end(j, res, d, sizeof d, &st);
		if (!j->in_op && res->outcome == GD_CHILD_EXITED &&
		    !res->partial_message)
			gd_fmt(d, sizeof d, "probe child exited %d%s%s",
			       res->exit_code, res->last_line[0] ? ": " : "",
			       res->last_line);
		r = gd_pjob_add(j, j->in_op ? j->cur_dev : -1, op, st, d);
		if (r) {
			gd_strlcpy(r->phase, j->phase, sizeof r->phase);
			r->seconds =
			    (j->stop_t > 0 ? j->stop_t : gd_now()) - j->op_t0;
		}
	}
	if (!r && j->results.n)
		r = &j->results.v[j->results.n - 1];
	if (r && (!clean_exit(j, res) || kern[0]))
		attach_log(r, res, kern);
	if (j->only >= 0 && j->last_pid > 0 && kill(-j->last_pid, 0) == 0 &&
	    r) {
		r->status = GD_PS_ERROR;
		gd_strlcpy(r->detail,
			   "processes of the probe were left running",
			   sizeof r->detail);
	}
	if (clean_exit(j, res) || cancel || j->only >= 0 || !j->in_op ||
	    !reported(j, j->cur_step) || gd_op_find(j->op) == GD_OP_INIT)
		return 0;
	return restart_or_stop(j);
}
