/* probe/child: what a backend uses inside the supervised child — phases and
 * JSON messages on GPUDOCTOR_PHASE_FD, the step counter that lets the parent
 * restart past a hang, dlopen by table, and the CPU references. */
#include <dlfcn.h>
#include <errno.h>
#include <jansson.h>
#include <link.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "backend.h"

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
	pc_msg(pc, json_pack("{s:s, s:i, s:o, s:o, s:I, s:o, s:o, s:o, s:b, s:o}",
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
			     isfinite(max_error) ? max_error : 1e308,
			     "detail", gd_json_str(detail)));
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
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	struct link_map *lm = NULL;

	if (!h) {
		const char *e = dlerror();

		/* "not found" is expected; anything else (a dependency
		 * missing, wrong ELF class, undefined symbol) is the clue */
		if (e && !err[0] && !strstr(e, "No such file"))
			gd_strlcpy(err, e, ecap);
		return NULL;
	}
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name[0])
		gd_strlcpy(loaded, lm->l_name, lcap);
	else
		gd_strlcpy(loaded, path, lcap);
	return h;
}

static void *pc_try_dirs(const char *dirs, const char *const *sonames,
			 char *loaded, size_t lcap, char *err, size_t ecap)
{
	char path[4096];

	while (dirs && *dirs) {
		const char *e = strchr(dirs, ':');
		size_t len = e ? (size_t)(e - dirs) : strlen(dirs);

		for (int i = 0; len && sonames[i]; i++) {
			void *h;

			gd_fmt(path, sizeof path, "%.*s/%s", (int)len, dirs,
			       sonames[i]);
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
		gd_fmt(searched, scap,
		       "%s via the loader (LD_LIBRARY_PATH, ld.so.cache)%s%s%s",
		       names, d, err[0] ? ": " : "", err);
	}
	return h;
}

int gd_pc_dlsym(void *h, const struct gd_sym *tab, char *missing,
		size_t mcap)
{
	int n = 0;

	if (mcap)
		missing[0] = '\0';
	for (; tab->name; tab++) {
		*tab->fn = dlsym(h, tab->name);
		if (!*tab->fn && tab->required) {
			if (!n)
				gd_strlcpy(missing, tab->name, mcap);
			n++;
		}
	}
	return n;
}

void gd_pc_fill_random(float *v, size_t n, unsigned seed)
{
	unsigned x = seed * 2654435761u + 12345u;

	for (size_t i = 0; i < n; i++) {
		x = x * 1664525u + 1013904223u;
		v[i] = (float)((x >> 8) & 0xffff) / 65536.0f - 0.5f;
	}
}

double gd_pc_max_rel_error(const float *a, const float *b, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)a[i] - (double)b[i]);
		double s = fabs((double)b[i]) > 1 ? fabs((double)b[i]) : 1;

		if (!(d / s <= m)) /* NaN counts as infinitely wrong */
			m = isnan(d) ? INFINITY : d / s;
	}
	return m;
}

/* Column-major, as BLAS: C(i,j) = sum_k A(i,k) B(k,j). */
void gd_pc_ref_gemm(const float *a, const float *b, float *c, int n)
{
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++) {
			double s = 0;

			for (int k = 0; k < n; k++)
				s += (double)a[i + (size_t)k * n] *
				     b[k + (size_t)j * n];
			c[i + (size_t)j * n] = (float)s;
		}
}

uint16_t gd_pc_f2h(float f)
{
	uint32_t x, sign, mant, h, rem, halfway;
	int32_t e;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000;
	e = (int32_t)((x >> 23) & 0xff) - 127 + 15;
	mant = x & 0x7fffff;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) {
		int shift;

		if (e < -10)
			return (uint16_t)sign;
		mant |= 0x800000;
		shift = 14 - e;
		h = mant >> shift;
		rem = mant & ((1u << shift) - 1);
		halfway = 1u << (shift - 1);
	} else {
		h = ((uint32_t)e << 10) | (mant >> 13);
		rem = mant & 0x1fff;
		halfway = 0x1000;
	}
	if (rem > halfway || (rem == halfway && (h & 1)))
		h++;
	return (uint16_t)(sign | h);
}

float gd_pc_h2f(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	float v = e == 0 ? ldexpf((float)m, -24)
		  : e == 31 ? INFINITY
			    : ldexpf((float)(m | 0x400), e - 25);

	return (h & 0x8000) ? -v : v;
}

uint16_t gd_pc_f2bf(float f)
{
	uint32_t x;

	memcpy(&x, &f, 4);
	return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

float gd_pc_bf2f(uint16_t b)
{
	uint32_t x = (uint32_t)b << 16;
	float f;

	memcpy(&f, &x, 4);
	return f;
}

/* Cross-correlation, NCHW, zero padding 1, stride 1. */
void gd_pc_ref_conv(const float *x, const float *w, float *y)
{
	enum { C = GD_CONV_C, HW = GD_CONV_HW, K = GD_CONV_K, R = GD_CONV_R };

	for (int k = 0; k < K; k++)
		for (int i = 0; i < HW; i++)
			for (int j = 0; j < HW; j++) {
				double s = 0;

				for (int c = 0; c < C; c++)
					for (int u = 0; u < R; u++)
						for (int v = 0; v < R; v++) {
							int yi = i + u - 1, xj = j + v - 1;

							if (yi < 0 || yi >= HW || xj < 0 || xj >= HW)
								continue;
							s += (double)x[(c * HW + yi) * HW + xj] *
							     w[((k * C + c) * R + u) * R + v];
						}
				y[(k * HW + i) * HW + j] = (float)s;
			}
}

double gd_pc_now(void)
{
	return gd_now();
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double gd_pc_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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
	if (fds && *fds) {
		uint32_t v;

		if (gd_parse_u32(fds, 10, &v) == 0)
			pc.fd = (int)v;
	}
	pthread_mutex_init(&pc.mu, NULL);
	rc = b->run(&pc);
	pthread_mutex_destroy(&pc.mu);
	return rc;
}

void *gd_pc_to_elem(float *v, size_t n, enum gd_pc_elem t)
{
	uint16_t *o;

	if (t == GD_PC_F32)
		return v;
	o = malloc(n * 2);
	for (size_t i = 0; o && i < n; i++) {
		o[i] = t == GD_PC_F16 ? gd_pc_f2h(v[i]) : gd_pc_f2bf(v[i]);
		v[i] = t == GD_PC_F16 ? gd_pc_h2f(o[i]) : gd_pc_bf2f(o[i]);
	}
	return o;
}

void gd_pc_from_elem(const void *src, float *out, size_t n, enum gd_pc_elem t)
{
	const uint16_t *s = src;

	if (t == GD_PC_F32) {
		memcpy(out, src, n * 4);
		return;
	}
	for (size_t i = 0; i < n; i++)
		out[i] = t == GD_PC_F16 ? gd_pc_h2f(s[i]) : gd_pc_bf2f(s[i]);
}

int gd_pc_gemm_host_make(struct gd_pc_gemm_host *g, int n, enum gd_pc_elem t)
{
	memset(g, 0, sizeof *g);
	g->n = n;
	g->nn = (size_t)n * n;
	g->es = t == GD_PC_F32 ? 4 : 2;
	g->t = t;
	g->a = malloc(g->nn * 4);
	g->id = calloc(g->nn, 4);
	g->b = malloc(g->nn * 4);
	g->c = calloc(g->nn, 4); /* read even when the GEMM fails */
	g->ref = malloc(g->nn * 4);
	g->tc = malloc(g->nn * g->es);
	if (!g->a || !g->id || !g->b || !g->c || !g->ref || !g->tc)
		return -1;
	gd_pc_fill_random(g->a, g->nn, 3);
	gd_pc_fill_random(g->b, g->nn, 4);
	for (int i = 0; i < n; i++)
		g->id[i + (size_t)i * n] = 1.0f;
	g->ta = gd_pc_to_elem(g->a, g->nn, t);
	g->tid = gd_pc_to_elem(g->id, g->nn, t);
	g->tb = gd_pc_to_elem(g->b, g->nn, t);
	return g->ta && g->tid && g->tb ? 0 : -1;
}

void gd_pc_gemm_host_free(struct gd_pc_gemm_host *g)
{
	if (g->t != GD_PC_F32) { /* for F32 they are a, id, b themselves */
		free(g->ta);
		free(g->tid);
		free(g->tb);
	}
	free(g->tc);
	free(g->a);
	free(g->id);
	free(g->b);
	free(g->c);
	free(g->ref);
	memset(g, 0, sizeof *g);
}

void gd_pc_gemm_verdict(struct gd_pc *pc, struct gd_pc_gemm_host *g,
			double e_id, const char *fn, const char *tail)
{
	double tol = g->t == GD_PC_F32 ? 1e-4 : 1e-2, e_ref;

	gd_pc_ref_gemm(g->a, g->b, g->ref, g->n);
	e_ref = gd_pc_max_rel_error(g->c, g->ref, g->nn);
	gd_pc_end(pc, e_id <= 1e-6 && e_ref <= tol ? GD_PS_OK : GD_PS_WRONG,
		  e_id > e_ref ? e_id : e_ref,
		  "%s n=%d: A*I=A max err %.2g, A*B vs CPU max rel err %.2g "
		  "(tolerance %.0e); %s", fn, g->n, e_id, e_ref, tol, tail);
}
