/* fake_hang_init_libamdhip64: a STAND-IN for libamdhip64.so.5 whose
 * device enumeration never returns (hipGetDeviceCount pauses): how
 * runtimes hang at start when the firmware or KFD does not answer
 * (field reports of issue #19); no real runtime does it on demand.
 * tests/scripts/test_trace_init.sh checks that `--trace` names the call. */
#include <unistd.h>

int hipInit(unsigned f);
int hipInit(unsigned f)
{
	(void)f;
	return 0;
}

int hipGetDeviceCount(int *n);
int hipGetDeviceCount(int *n)
{
	for (;;)
		pause();
	*n = 0;
	return 0;
}
