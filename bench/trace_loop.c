/* bench/trace.sh's loop: N calls of a cheap hooked API, ns per call.
 * Built as CUDA (-DGD_CUDA, linked with the shared libcudart so the
 * exported-symbol hooks see it) or HIP (hipcc -x c). -DGD_NO_INIT
 * (bench/trace-local.sh, no GPU): the init result is not checked. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef GD_CUDA
int cudaStreamSynchronize(void *s);
int cudaFree(void *p);
#define SYNC(s) cudaStreamSynchronize(s)
#define INIT() cudaFree(NULL)
#else
int hipStreamSynchronize(void *s);
int hipInit(unsigned f);
#define SYNC(s) hipStreamSynchronize(s)
#define INIT() hipInit(0)
#endif

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	double best = 1e9;

#ifdef GD_NO_INIT
	(void)INIT();
#else
	if (INIT() != 0) {
		printf("init failed\n");
		return 1;
	}
#endif
	for (int rep = 0; rep < 5; rep++) {
		double t0 = now(), ns;

		for (long i = 0; i < n; i++)
			SYNC(NULL); /* idle default stream */
		ns = (now() - t0) * 1e9 / n;
		best = ns < best ? ns : best;
	}
	printf("%.1f\n", best);
	return 0;
}
