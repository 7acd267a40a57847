/* probe/child_ref: the CPU side of the checks every backend makes — random
 * inputs, relative error, the reference GEMM and convolution, half and
 * bfloat16 conversions, the host half of a checked GEMM — and the timing
 * helpers (now, median). Child side. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

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
	float v = e == 0    ? ldexpf((float)m, -24)
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
							int yi = i + u - 1,
							    xj = j + v - 1;

							if (yi < 0 ||
							    yi >= HW ||
							    xj < 0 || xj >= HW)
								continue;
							s +=
							    (double)x[(c * HW +
								       yi) *
									  HW +
								      xj] *
							    w[((k * C + c) * R +
							       u) *
								  R +
							      v];
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
		  "(tolerance %.0e); %s",
		  fn, g->n, e_id, e_ref, tol, tail);
}
