/* bench/trace-local.sh's stand-in runtime: hipStreamSynchronize and
 * hipInit that return at once, so the difference between a plain and a
 * traced loop is the shim's own cost per call. A benchmark aid, not a
 * test double: nothing checks its results. */
int hipInit(unsigned flags);
int hipStreamSynchronize(void *stream);

int hipInit(unsigned flags)
{
	(void)flags;
	return 0;
}

int hipStreamSynchronize(void *stream)
{
	__asm__ volatile("" : : "r"(stream) : "memory");
	return 0;
}
