/* bench/trace-local.sh's CUPTI row: the cost of libgpudoctor-trace's
 * CUPTI callback alone, on a machine without a GPU. This file is both a
 * stand-in libcupti (built -shared -DGD_CUPTI_LIB: it keeps the callback
 * cuptiSubscribe is given and names one runtime callback id) and the loop
 * (built as a program): the loop calls InitializeInjection() as the CUDA
 * driver would, then calls the callback N times with an enter and an exit
 * for cudaStreamSynchronize, as CUPTI does around each call. Plain (no
 * trace library preloaded): the same loop around an empty callback. The
 * difference is what gpudoctor adds to CUPTI's own ~125 ns (which only a
 * GPU machine can measure: bench/trace.sh's cupti-null row). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*cb_fn)(void *, int, uint32_t, const void *);

struct cb_data { /* CUpti_CallbackData's documented field order */
	int site;
	const char *name;
	const void *params;
	void *ret;
	const char *symbol;
	void *ctx;
	uint32_t ctx_uid;
	uint64_t *corr_data;
	uint32_t corr_id;
};

#ifdef GD_CUPTI_LIB
cb_fn gd_bench_cb;

int cuptiSubscribe(void **sub, cb_fn cb, void *ud)
{
	(void)ud;
	*sub = &gd_bench_cb;
	gd_bench_cb = cb;
	return 0;
}
int cuptiEnableDomain(uint32_t on, void *sub, int domain)
{
	(void)on, (void)sub, (void)domain;
	return 0;
}
int cuptiEnableCallback(uint32_t on, void *sub, int domain, uint32_t id)
{
	(void)on, (void)sub, (void)domain, (void)id;
	return 0;
}
int cuptiGetCallbackName(int domain, uint32_t id, const char **name)
{
	if (domain != 2 || id != 131) /* CUDA 13's id, for the look */
		return 1;
	*name = "cudaStreamSynchronize_v3020";
	return 0;
}
#else
#include <dlfcn.h>

static void empty(void *ud, int domain, uint32_t cbid, const void *data)
{
	(void)ud, (void)domain, (void)cbid, (void)data;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	int (*init)(void) =
	    (int (*)(void))dlsym(RTLD_DEFAULT, "InitializeInjection");
	const char *lib = getenv("GPUDOCTOR_CUPTI_LIB");
	void *h = lib ? dlopen(lib, RTLD_NOW) : NULL;
	cb_fn *slot = h ? (cb_fn *)dlsym(h, "gd_bench_cb") : NULL;
	cb_fn cb = empty;
	void *stream = NULL;
	int ret = 0;
	struct cb_data d = {0,	     "cudaStreamSynchronize_v3020",
			    &stream, &ret,
			    NULL,    NULL,
			    0,	     NULL,
			    0};
	double best = 1e9;

	if (init && slot && init() && *slot)
		cb = *slot;
	for (int rep = 0; rep < 5; rep++) {
		double t0 = now(), ns;

		for (long i = 0; i < n; i++) {
			d.site = 0;
			cb(NULL, 2, 131, &d);
			d.site = 1;
			cb(NULL, 2, 131, &d);
		}
		ns = (now() - t0) * 1e9 / n;
		best = ns < best ? ns : best;
	}
	printf("%.1f\n", best);
	return 0;
}
#endif
