/* Stand-in for librocprofiler-register (ROCm >= 6.2), which Debian does
 * not ship, for tests/scripts/test_trace_hip_table.sh. It does what
 * ROCm/rocprofiler-register's rocprofiler_register_library_api_table does
 * (docs/trace.md, "HIP on ROCm >= 6.2: the dispatch table", read at
 * 11a4668 and at ROCm/rocm-systems 04e1fbc; written here from that
 * reading, no code taken):
 *  - rocprofiler_configure and rocprofiler_set_api_table are weak
 *    references: a definition anywhere in the process at load time (a
 *    preloaded library) resolves them;
 *  - a tool is present when the weak rocprofiler_configure or
 *    dlsym(RTLD_DEFAULT, "rocprofiler_configure") is non-NULL, or
 *    ROCP_TOOL_LIBRARIES / ROCPROFILER_REGISTER_LIBRARY is set;
 *  - the table goes to the weak rocprofiler_set_api_table, else to
 *    dlsym(RTLD_DEFAULT, ...); (the real one would then dlopen
 *    librocprofiler-sdk.so: not needed here);
 *  - set_api_table(name, lib_version, instance, tables, count), the
 *    instance counted per library name from 0; its nonzero answer is
 *    ROCP_REG_ROCPROFILER_ERROR (6); no tool: ROCP_REG_NO_TOOLS (1);
 *    count < 1: ROCP_REG_BAD_API_TABLE_LENGTH (3); an unknown name:
 *    ROCP_REG_UNSUPPORTED_API (4); ROCPROFILER_REGISTER_ENABLED=0: 1. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int (*set_api_table_fn)(const char *, uint64_t, uint64_t, void **,
				uint64_t);
typedef struct {
	uint64_t handle;
} rocprofiler_register_library_indentifier_t;

#pragma weak rocprofiler_configure
#pragma weak rocprofiler_set_api_table
void *rocprofiler_configure(uint32_t, const char *, uint32_t, void *);
int rocprofiler_set_api_table(const char *, uint64_t, uint64_t, void **,
			      uint64_t);
int rocprofiler_register_library_api_table(
    const char *name, uint32_t (*import_fn)(void), uint32_t lib_version,
    void **tables, uint64_t ntables,
    rocprofiler_register_library_indentifier_t *id);

static const char *const names[] = {"hsa", "hip", "roctx", "hip_compiler"};
static uint64_t instances[4];

static int set_env(const char *name)
{
	const char *v = getenv(name);

	return v && *v;
}

int rocprofiler_register_library_api_table(
    const char *name, uint32_t (*import_fn)(void), uint32_t lib_version,
    void **tables, uint64_t ntables,
    rocprofiler_register_library_indentifier_t *id)
{
	set_api_table_fn set = rocprofiler_set_api_table;
	unsigned lib = 0;
	uint64_t inst;

	(void)import_fn;
	if (ntables < 1)
		return 3;
	if (getenv("ROCPROFILER_REGISTER_ENABLED") &&
	    !strcmp(getenv("ROCPROFILER_REGISTER_ENABLED"), "0"))
		return 1;
	while (lib < 4 && strcmp(names[lib], name))
		lib++;
	if (lib == 4)
		return 4;
	inst = instances[lib]++;
	id->handle = 8 * lib + inst;
	if (!rocprofiler_configure &&
	    !dlsym(RTLD_DEFAULT, "rocprofiler_configure") &&
	    !set_env("ROCP_TOOL_LIBRARIES") &&
	    !set_env("ROCPROFILER_REGISTER_LIBRARY"))
		return 1;
	if (!set) {
		void *p = dlsym(RTLD_DEFAULT, "rocprofiler_set_api_table");

		memcpy(&set, &p, sizeof p);
	}
	if (!set)
		return 1;
	return set(name, lib_version, inst, tables, ntables) ? 6 : 0;
}
