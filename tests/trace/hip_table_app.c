/* The program of tests/scripts/test_trace_hip_table.sh: a HIP program on a
 * ROCm >= 6.2 style runtime, played by tests/fake/fake_hip_dispatch.c
 * (clr's table of the real HIP 5.2 functions, registered through the
 * stand-in tests/fake/fake_rocprofiler_register.c). It prints what the
 * script checks against the trace log:
 *   register <table> <status>   rocprofiler-register's answer
 *   entry <index> <patched|same> <library>   runtime table entries
 *   compiler 1 <patched|same>   __hipPushCallConfiguration's entry
 *   table <api> <result>        a call made through the table
 *   real <api> <result>         the same call to the HIP 5.2 function
 *   export <api> <result>       a call by name (exports, then the table)
 *   second <status> <n>         a second runtime's table: n entries changed
 *   configure <library> <null|result>   rocprofiler_configure as
 *                               rocprofiler-sdk finds it (RTLD_DEFAULT)
 * Arguments: "second" registers a second runtime table.
 * HIP_TABLE_APP_SDK=PATH: dlopen PATH (RTLD_GLOBAL) first, a profiler
 * library loaded after the preloaded shim. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int hipError_t;
typedef struct {
	uint32_t x, y, z;
} dim3;
int fake_hip_loaded(void);
void *fake_hip_table(void);
void *fake_hip_compiler_table(void);
int fake_hip_status(int compiler_table);
void *fake_hip_real(unsigned index);
int fake_hip_second_runtime(void **table2);
hipError_t hipMalloc(void **p, size_t n);
hipError_t hipHostMalloc(void **p, size_t n, unsigned f);
hipError_t hipDeviceSynchronize(void);
hipError_t hipGetDeviceCount(int *n);

static const unsigned checked[] = {66,	82,  86,  90,  103, 109, 166, 194,
				   197, 202, 214, 215, 222, 259, 260, 261,
				   268, 282, 283, 287, 308, 326, 346, 388};

static void *entry(void *table, unsigned i)
{
	void *p;

	memcpy(&p, (char *)table + 8 + 8 * (size_t)i, sizeof p);
	return p;
}

static const char *lib_of(const void *p)
{
	Dl_info di;
	const char *s;

	if (!p || !dladdr(p, &di) || !di.dli_fname)
		return "?";
	s = strrchr(di.dli_fname, '/');
	return s ? s + 1 : di.dli_fname;
}

/* Call entry i of the runtime table as type T (and the real function). */
#define BOTH(i, api, T, args)                                                  \
	do {                                                                   \
		__typeof__(T) fn_;                                             \
		void *p_ = entry(t, i);                                        \
		memcpy(&fn_, &p_, sizeof p_);                                  \
		printf("table " api " %d\n", (int)fn_ args);                   \
		p_ = fake_hip_real(i);                                         \
		memcpy(&fn_, &p_, sizeof p_);                                  \
		printf("real " api " %d\n", (int)fn_ args);                    \
	} while (0)

static void calls_through_table(void *t)
{
	static char host[4096];
	void *d = NULL, *h = NULL;
	dim3 g = {1, 1, 1}, b = {64, 1, 1};

	BOTH(202, "hipInit", hipError_t(*)(unsigned), (0));
	BOTH(215, "hipMalloc", hipError_t(*)(void **, size_t), (&d, 1 << 20));
	BOTH(197, "hipHostMalloc", hipError_t(*)(void **, size_t, unsigned),
	     (&h, 4096, 0));
	BOTH(86, "hipExtMallocWithFlags",
	     hipError_t(*)(void **, size_t, unsigned), (&d, 4096, 1));
	BOTH(259, "hipMemcpy", hipError_t(*)(void *, const void *, size_t, int),
	     (host, host, 16, 1));
	BOTH(214, "hipLaunchKernel",
	     hipError_t(*)(const void *, dim3, dim3, void **, size_t, void *),
	     ((const void *)host, g, b, NULL, 0, NULL));
	BOTH(346, "hipStreamSynchronize", hipError_t(*)(void *), (NULL));
	BOTH(66, "hipDeviceSynchronize", hipError_t(*)(void), ());
	BOTH(90, "hipFree", hipError_t(*)(void *), (NULL));
}

/* rocprofiler-sdk calls every rocprofiler_configure it finds; the one
 * RTLD_DEFAULT gives (the shim's, when preloaded) must answer NULL. */
static void configure(void)
{
	void *p = dlsym(RTLD_DEFAULT, "rocprofiler_configure");
	void *(*fn)(uint32_t, const char *, uint32_t, void *);

	if (!p) {
		puts("configure none");
		return;
	}
	memcpy(&fn, &p, sizeof p);
	printf("configure %s %s\n", lib_of(p),
	       fn(10000, "1.0.0", 0, NULL) ? "result" : "null");
}

int main(int argc, char **argv)
{
	const char *sdk = getenv("HIP_TABLE_APP_SDK");
	void *t, *c, *d = NULL, *h = NULL;
	int n = -1;

	if (sdk && !dlopen(sdk, RTLD_NOW | RTLD_GLOBAL)) {
		printf("cannot load %s: %s\n", sdk, dlerror());
		return 1;
	}
	if (!fake_hip_loaded()) {
		puts("no libamdhip64.so.5");
		return 1;
	}
	t = fake_hip_table(); /* the first use: registers the table */
	c = fake_hip_compiler_table();
	printf("register hip_compiler %d\n", fake_hip_status(1));
	printf("register hip %d\n", fake_hip_status(0));
	for (size_t i = 0; i < sizeof checked / sizeof *checked; i++)
		printf("entry %u %s %s\n", checked[i],
		       entry(t, checked[i]) == fake_hip_real(checked[i])
			   ? "same"
			   : "patched",
		       lib_of(entry(t, checked[i])));
	printf("compiler 1 %s\n",
	       !strcmp(lib_of(entry(c, 1)), "libgpudoctor-trace.so") ? "patched"
								     : "same");
	configure();
	fflush(stdout);
	calls_through_table(t);
	printf("export hipMalloc %d\n", (int)hipMalloc(&d, 4096));
	printf("export hipHostMalloc %d\n", (int)hipHostMalloc(&h, 64, 0));
	printf("export hipDeviceSynchronize %d\n", (int)hipDeviceSynchronize());
	printf("export hipGetDeviceCount %d\n", (int)hipGetDeviceCount(&n));
	if (argc > 1 && !strcmp(argv[1], "second")) {
		void *t2 = NULL;
		int st = fake_hip_second_runtime(&t2), changed = 0;

		for (unsigned i = 0; i < 452; i++)
			changed += entry(t2, i) != fake_hip_real(i);
		printf("second %d %d\n", st, changed);
	}
	return 0;
}
