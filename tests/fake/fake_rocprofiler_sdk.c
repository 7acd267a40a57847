/* Stand-in for a rocprofiler-sdk behind libgpudoctor-trace.so, for
 * tests/scripts/test_trace_hip_table.sh: defines the same two functions
 * as the shim (rocprofiler_set_api_table, rocprofiler_configure) and says
 * on stdout what reached it. Loaded after the shim (dlopen RTLD_GLOBAL by
 * the test program, or by the shim itself as librocprofiler-sdk.so when
 * ROCP_TOOL_LIBRARIES asks for a tool), it must still get every table, and
 * see the runtime table as the shim left it (hipMalloc_fn, index 215 in
 * clr's HipDispatchTable, pointing into the shim). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int rocprofiler_set_api_table(const char *name, uint64_t version,
			      uint64_t instance, void **tables,
			      uint64_t ntables);
void *rocprofiler_configure(uint32_t version, const char *rt, uint32_t priority,
			    void *client);

static const char *lib_of(const void *p)
{
	Dl_info di;
	const char *s;

	if (!p || !dladdr(p, &di) || !di.dli_fname)
		return "?";
	s = strrchr(di.dli_fname, '/');
	return s ? s + 1 : di.dli_fname;
}

int rocprofiler_set_api_table(const char *name, uint64_t version,
			      uint64_t instance, void **tables,
			      uint64_t ntables)
{
	const char *at = "";

	if (!strcmp(name, "hip") && ntables >= 1) {
		void *e;

		memcpy(&e, (char *)tables[0] + 8 + 8 * 215, sizeof e);
		at = lib_of(e);
	}
	printf("sdk set_api_table %s version=%llu instance=%llu tables=%llu"
	       "%s%s\n",
	       name, (unsigned long long)version, (unsigned long long)instance,
	       (unsigned long long)ntables, at[0] ? " hipMalloc_fn=" : "", at);
	fflush(stdout);
	return 0;
}

void *rocprofiler_configure(uint32_t version, const char *rt, uint32_t priority,
			    void *client)
{
	(void)version;
	(void)rt;
	(void)client;
	printf("sdk configure priority=%u\n", priority);
	fflush(stdout);
	return NULL;
}
