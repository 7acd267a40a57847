/* bench/trace.sh's anchor: what CUPTI's callback path costs by itself.
 * A CUDA injection library (CUDA_INJECTION64_PATH) that subscribes an
 * empty callback to the runtime-API domain, as the interposer notes
 * measured it; the difference between this row and libgpudoctor-trace's
 * is the part gpudoctor's callback adds. Declares the three CUPTI calls
 * itself (CUPTI Callback API, cupti_callbacks.h) and links -lcupti. */
#include <stdint.h>

typedef void (*cb_fn)(void *, int, uint32_t, const void *);
int cuptiSubscribe(void **sub, cb_fn cb, void *ud);
int cuptiEnableDomain(uint32_t enable, void *sub, int domain);

static void empty(void *ud, int domain, uint32_t cbid, const void *data)
{
	(void)ud;
	(void)domain;
	(void)cbid;
	(void)data;
}

int InitializeInjection(void);
int InitializeInjection(void)
{
	void *sub;

	if (cuptiSubscribe(&sub, empty, 0) == 0)
		cuptiEnableDomain(1, sub, 2 /* CUPTI_CB_DOMAIN_RUNTIME_API */);
	return 1;
}
