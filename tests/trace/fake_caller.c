/* libfake_caller.so for tests/scripts/test_trace.sh: plays the part of a
 * framework library (libggml-hip.so, libMIOpen.so) that calls HIP. Linked
 * against the stand-in fake_hang_libamdhip64, whose hipMemcpyAsync of
 * 64 MiB or more never returns. */
#include <stddef.h>

int hipInit(unsigned f);
int hipHostMalloc(void **p, size_t n, unsigned f);
int hipMemcpyAsync(void *d, const void *s, size_t n, int k, void *st);
int fake_caller_upload(void);

int fake_caller_upload(void)
{
	static char src[16], dst[16];
	void *h = NULL;

	if (hipInit(0) || hipHostMalloc(&h, 4096, 0))
		return 1;
	/* hipMemcpyHostToDevice = 1; 256 MiB, stream 0x5: the fake never
	 * touches the buffers of a copy it does not finish */
	return hipMemcpyAsync(dst, src, (size_t)256 << 20, 1, (void *)0x5);
}
