/* init_app hip|cuda: the first call of a program into a stand-in runtime
 * that hangs there (tests/fake/fake_hang_init_libamdhip64.c:
 * hipGetDeviceCount; tests/fake/fake_hang_libcuda.c: cuInit). */
#include <stdio.h>
#include <string.h>

int hipGetDeviceCount(int *n);
int cuInit(unsigned f);

int main(int argc, char **argv)
{
	int n = 0;

	printf("starting the runtime\n");
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "cuda"))
		return cuInit(0);
	return hipGetDeviceCount(&n);
}
