/* stress_app MODE N, linked against the stand-in libamdhip64
 * (tests/fake/fake_hang_libamdhip64.c: hipMemcpyAsync of 64 MiB or more
 * never returns):
 *   threads N  N short-lived threads (one after another) each call
 *              hipMalloc/hipFree and end; then one more hangs in
 *              hipMemcpyAsync (trace slots must be given back);
 *   live N     N threads each call hipMalloc and stay; then one more
 *              hangs (no slot left: the report must say so);
 *   loop N     N hipMalloc/hipFree pairs, then exit (the log cap). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hipMalloc(void **p, size_t n);
int hipFree(void *p);
int hipMemcpyAsync(void *d, const void *s, size_t n, int k, void *st);

static void *short_lived(void *arg)
{
	void *p = NULL;

	(void)arg;
	hipMalloc(&p, 64);
	hipFree(p);
	return NULL;
}

static void *stays(void *arg)
{
	void *p = NULL;

	(void)arg;
	hipMalloc(&p, 64);
	pause();
	return NULL;
}

static void *hangs(void *arg)
{
	static char a, b;

	(void)arg;
	hipMemcpyAsync(&a, &b, 256u << 20, 1, (void *)0x5);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;
	pthread_t t;

	if (argc < 3)
		return 2;
	if (!strcmp(argv[1], "loop")) {
		for (long i = 0; i < n; i++) {
			void *p = NULL;

			hipMalloc(&p, 64);
			hipFree(p);
		}
		printf("loop %ld done\n", n);
		return 0;
	}
	for (long i = 0; i < n; i++) {
		if (pthread_create(
			&t, NULL, strcmp(argv[1], "live") ? short_lived : stays,
			NULL))
			return 1;
		if (strcmp(argv[1], "live"))
			pthread_join(t, NULL);
	}
	printf("%ld threads called, now the hang\n", n);
	fflush(stdout);
	sleep(argv[1][0] == 'l' ? 1 : 0);
	pthread_create(&t, NULL, hangs, NULL);
	pthread_join(t, NULL);
	return 0;
}
