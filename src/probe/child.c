/* probe/child: what a backend uses inside the supervised child — phases and
 * JSON messages on GPUDOCTOR_PHASE_FD, the step counter that lets the parent
 * restart past a hang (op selection: ops.h), dlopen by table. The CPU
 * references are in child_ref.c. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "core/json.h"
#include "core/plat.h"

/* One write per line: the pipe keeps lines under PIPE_BUF whole even when
 * several threads report. */
static void pc_write(struct gd_pc *pc, const char *s)
{
	size_t len = strlen(s);
	char buf[4000];

	if (len > sizeof buf - 2)
		len = sizeof buf - 2;
	memcpy(buf, s, len);
	buf[len++] = '\n';
	pthread_mutex_lock(&pc->mu);
	if (write(pc->fd, buf, len) < 0) {
		/* the parent is gone: nothing to report to */
	}
	pthread_mutex_unlock(&pc->mu);
}

static void pc_msg(struct gd_pc *pc, json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);

	if (s) {
		char *line = malloc(strlen(s) + 2);

		if (line) {
			line[0] = '@';
			strcpy(line + 1, s);
			pc_write(pc, line);
			free(line);
		}
		free(s);
	}
	json_decref(o);
}

void gd_pc_phase(struct gd_pc *pc, const char *fmt, ...)
{
	char buf[200];
	va_list ap;

	va_start(ap, fmt);
	gd_vfmt(buf, sizeof buf, fmt, ap);
	va_end(ap);
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	if (buf[0] == '@')
		buf[0] = '_';
	pc_write(pc, buf);
}

void gd_pc_device(struct gd_pc *pc, const struct gd_probe_device *d)
{
	pc_msg(pc,
	       json_pack("{s:s, s:i, s:o, s:o, s:I, s:o, s:o, s:o, s:b, s:o}",
			 "t", "dev", "index", d->index, "name",
			 gd_json_str(d->name), "isa", gd_json_str(d->isa),
			 "mem", (json_int_t)d->mem_bytes, "driver",
			 gd_json_str(d->driver), "runtime",
			 gd_json_str(d->runtime), "library",
			 gd_json_str(d->library), "software", d->software,
			 "platform", gd_json_str(d->platform)));
}

static int pc_wanted(const struct gd_pc *pc, int step)
{
	if (pc->args->only >= 0)
		return step == pc->args->only;
	return step >= pc->args->start;
}

int gd_pc_wants(const struct gd_pc *pc, enum gd_op op)
{
	const struct gd_op_info *o = gd_op(op);

	if (o->bench)
		return pc->args->bench;
	if (pc->args->ops)
		return (pc->args->ops & GD_OPSET(op)) != 0;
	return !pc->args->quick || o->quick;
}

static void pc_announce(struct gd_pc *pc, int dev, const char *op)
{
	pc->cur_step = pc->step++;
	pc->op_t0 = gd_pc_now();
	pc_msg(pc, json_pack("{s:s, s:i, s:s, s:i}", "t", "begin", "step",
			     pc->cur_step, "op", op, "dev", dev));
}

int gd_pc_begin_case(struct gd_pc *pc, int dev, const char *name)
{
	if (!pc_wanted(pc, pc->step)) {
		pc->step++;
		return 0;
	}
	pc_announce(pc, dev, name);
	return 1;
}

/* An op left out by --quick, --only or the lack of --bench takes no step
 * number: every child of a run gets the same selection, so the numbers
 * still agree across restarts. */
int gd_pc_begin(struct gd_pc *pc, int dev, enum gd_op op)
{
	if (!gd_pc_wants(pc, op))
		return 0;
	return gd_pc_begin_case(pc, dev, gd_op_name(op));
}

void gd_pc_begin_always(struct gd_pc *pc, int dev, enum gd_op op)
{
	pc_announce(pc, dev, gd_op_name(op));
}

static void pc_result(struct gd_pc *pc, int step, enum gd_probe_status st,
		      double max_error, double secs, const char *detail)
{
	pc_msg(pc, json_pack("{s:s, s:i, s:s, s:f, s:f, s:o}", "t", "res",
			     "step", step, "status", gd_probe_status_name(st),
			     "seconds", secs, "max_error",
			     isfinite(max_error) ? max_error : 1e308, "detail",
			     gd_json_str(detail)));
}

void gd_pc_end(struct gd_pc *pc, enum gd_probe_status st, double max_error,
	       const char *fmt, ...)
{
	char detail[500];
	va_list ap;

	if (pc->cur_step < 0)
		return;
	va_start(ap, fmt);
	gd_vfmt(detail, sizeof detail, fmt, ap);
	va_end(ap);
	pc_result(pc, pc->cur_step, st, max_error, gd_pc_now() - pc->op_t0,
		  detail);
	pc->cur_step = -1;
}

static void pc_skip_v(struct gd_pc *pc, int dev, enum gd_op op,
		      enum gd_probe_status st, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

static void pc_skip_v(struct gd_pc *pc, int dev, enum gd_op op,
		      enum gd_probe_status st, const char *fmt, va_list ap)
{
	char detail[500];

	if (!pc_wanted(pc, pc->step)) {
		pc->step++;
		return;
	}
	gd_vfmt(detail, sizeof detail, fmt, ap);
	pc_announce(pc, dev, gd_op_name(op));
	pc_result(pc, pc->cur_step, st, 0, 0, detail);
	pc->cur_step = -1;
}

void gd_pc_skip(struct gd_pc *pc, int dev, enum gd_op op,
		enum gd_probe_status st, const char *fmt, ...)
{
	va_list ap;

	if (!gd_pc_wants(pc, op))
		return;
	va_start(ap, fmt);
	pc_skip_v(pc, dev, op, st, fmt, ap);
	va_end(ap);
}

void gd_pc_setup_failed(struct gd_pc *pc, int dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pc_skip_v(pc, dev, GD_OP_ALLOC_DEVICE, GD_PS_ERROR, fmt, ap);
	va_end(ap);
}

void gd_pc_figure(struct gd_pc *pc, int dev, const char *name, double value,
		  const char *unit, const char *note)
{
	if (!isfinite(value))
		return;
	pc->figures++;
	pc_msg(pc, json_pack("{s:s, s:i, s:s, s:f, s:s, s:s}", "t", "fig",
			     "dev", dev, "name", name, "value", value, "unit",
			     unit, "note", note));
}

int gd_pc_bench_begin(struct gd_pc *pc, int dev)
{
	if (!gd_pc_begin(pc, dev, GD_OP_BENCH))
		return 0;
	/* The bench is a series of measurements, each one phase: the per-op
	 * deadline applies to each (with the overall cap), so a CPU device
	 * (lavapipe, PoCL) that takes seconds per 256 MiB copy is not called
	 * hung while it still moves on. */
	gd_pc_progress(pc);
	pc->bench_fig0 = pc->figures;
	return 1;
}

void gd_pc_bench_end(struct gd_pc *pc)
{
	int n = pc->figures - pc->bench_fig0;

	if (n)
		gd_pc_end(pc, GD_PS_OK, 0, "%d figure%s, listed under Bench", n,
			  n == 1 ? "" : "s");
	else
		gd_pc_end(pc, GD_PS_ERROR, 0, "no figure could be measured");
}

void gd_pc_progress(struct gd_pc *pc)
{
	if (pc->cur_step >= 0)
		pc_msg(pc, json_pack("{s:s, s:i}", "t", "progress", "step",
				     pc->cur_step));
}

static void *pc_try(const char *path, char *loaded, size_t lcap, char *err,
		    size_t ecap)
{
	char e[300] = "";
	void *h = gd_plat_lib_open(path, e, sizeof e);

	if (!h) {
		/* the file itself not found is expected; anything else (a
		 * dependency missing, which reads "No such file" too but
		 * names the dependency, wrong ELF class, undefined symbol, a
		 * DLL's initialisation failing) is the clue. Windows says
		 * error 126 for a missing DLL and a missing dependency alike:
		 * only other errors are kept there. */
		if (e[0] && !err[0] &&
		    !(strstr(e, "No such file") &&
		      !strncmp(e, path, strlen(path))) &&
		    !strstr(e, "(error 126)"))
			gd_strlcpy(err, e, ecap);
		return NULL;
	}
	if (gd_plat_lib_path(h, NULL, loaded, lcap) < 0 || !loaded[0])
		gd_strlcpy(loaded, path, lcap);
	return h;
}

static void *pc_try_dirs(const char *dirs, const char *const *sonames,
			 char *loaded, size_t lcap, char *err, size_t ecap)
{
	char path[4096], sep = gd_plat_path_sep();
	/* LoadLibraryExW wants backslashes in a path */
	const char *slash = sep == ';' ? "\\" : "/";

	while (dirs && *dirs) {
		const char *e = strchr(dirs, sep);
		size_t len = e ? (size_t)(e - dirs) : strlen(dirs);

		for (int i = 0; len && sonames[i]; i++) {
			void *h;

			gd_fmt(path, sizeof path, "%.*s%s%s", (int)len, dirs,
			       slash, sonames[i]);
			h = pc_try(path, loaded, lcap, err, ecap);
			if (h)
				return h;
		}
		dirs += len + (e ? 1 : 0);
	}
	return NULL;
}

void *gd_pc_dlopen(struct gd_pc *pc, const char *const *sonames,
		   const char *const *dirs, char *loaded, size_t lcap,
		   char *searched, size_t scap)
{
	const char *env = gd_ctx_getenv(pc->ctx, "GPUDOCTOR_LIB_PATH");
	char names[256] = "", err[300] = "";
	void *h = NULL;

	for (int i = 0; sonames[i]; i++)
		gd_fmt(names + strlen(names), sizeof names - strlen(names),
		       "%s%s", i ? ", " : "", sonames[i]);
	loaded[0] = '\0';
	if (env && *env) {
		h = pc_try_dirs(env, sonames, loaded, lcap, err, sizeof err);
		gd_fmt(searched, scap, "%s in $GPUDOCTOR_LIB_PATH (%s)%s%s",
		       names, env, err[0] ? ": " : "", err);
		return h;
	}
	for (int i = 0; !h && sonames[i]; i++)
		h = pc_try(sonames[i], loaded, lcap, err, sizeof err);
	for (int i = 0; !h && dirs && dirs[i]; i++)
		h = pc_try_dirs(dirs[i], sonames, loaded, lcap, err,
				sizeof err);
	{
		char d[512] = "";

		for (int i = 0; dirs && dirs[i]; i++)
			gd_fmt(d + strlen(d), sizeof d - strlen(d), "%s%s",
			       i ? ", " : " and ", dirs[i]);
		gd_fmt(searched, scap, "%s %s%s%s%s", names,
		       gd_lib_search_desc(), d, err[0] ? ": " : "", err);
	}
	return h;
}

int gd_pc_dlsym(void *h, const struct gd_sym *tab, char *missing, size_t mcap)
{
	int n = 0;

	if (mcap)
		missing[0] = '\0';
	for (; tab->name; tab++) {
		*tab->fn = gd_plat_lib_sym(h, tab->name);
		if (!*tab->fn && tab->required) {
			if (!n)
				gd_strlcpy(missing, tab->name, mcap);
			n++;
		}
	}
	return n;
}

int gd_probe_child_main(gd_ctx *ctx, const struct gd_pc_args *args)
{
	const struct gd_backend *b = gd_backend_find(args->backend);
	const char *fds = gd_ctx_getenv(ctx, "GPUDOCTOR_PHASE_FD");
	struct gd_pc pc;
	int rc;

	if (!b)
		return 3;
	memset(&pc, 0, sizeof pc);
	pc.ctx = ctx;
	pc.args = args;
	pc.cur_step = -1;
	pc.fd = 2;
	if (fds && *fds && (rc = gd_plat_chan_fd(fds)) >= 0)
		pc.fd = rc;
	pthread_mutex_init(&pc.mu, NULL);
	rc = b->run(&pc);
	pthread_mutex_destroy(&pc.mu);
	return rc;
}
