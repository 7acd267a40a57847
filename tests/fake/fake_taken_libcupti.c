/* fake_taken_libcupti: a STAND-IN for libcupti.so whose cuptiSubscribe
 * fails as it does when another tool (Nsight, Kineto, compute-sanitizer)
 * already subscribed: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39,
 * CUPTI result codes; one subscriber per process before CUPTI 13.3).
 * Only for tests/scripts/test_trace.sh (GPUDOCTOR_CUPTI_LIB): the shim
 * says CUPTI is taken and keeps its exported-symbol hooks. */
typedef int CUptiResult;

CUptiResult cuptiSubscribe(void **subscriber, void *callback, void *userdata);
CUptiResult cuptiEnableDomain(unsigned enable, void *subscriber, int domain);

CUptiResult cuptiSubscribe(void **subscriber, void *callback, void *userdata)
{
	(void)callback;
	(void)userdata;
	*subscriber = 0;
	return 39;
}

CUptiResult cuptiEnableDomain(unsigned enable, void *subscriber, int domain)
{
	(void)enable;
	(void)subscriber;
	(void)domain;
	return 1; /* never reached: subscribing failed */
}
