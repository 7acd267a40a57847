/* The program `try --trace` runs in tests/scripts/test_trace.sh: the copy
 * that hangs is made on a second thread (so the report must name that
 * thread, not the main one) from libfake_caller.so. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

int fake_caller_upload(void);

static void *worker(void *arg)
{
	(void)arg;
	fake_caller_upload();
	return NULL;
}

int main(void)
{
	pthread_t t;

	printf("loading model\n");
	fflush(stdout);
	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	pthread_join(t, NULL);
	printf("done\n");
	return 0;
}
