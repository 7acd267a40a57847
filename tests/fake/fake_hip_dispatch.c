/* Stand-in for the dispatch-table layer of libamdhip64 >= 6.2, for
 * tests/scripts/test_trace_hip_table.sh: Debian's HIP 5.2 has no table,
 * so this library builds one from the REAL HIP 5.2 functions (dlopen of
 * libamdhip64.so.5, dlsym on that handle) and does with it what clr does
 * (ROCm/clr at rocm-6.2.0, dd7f957, as docs/trace.md "HIP on ROCm >= 6.2:
 * the dispatch table" records it; no code taken):
 *  - HipDispatchTable: a size_t size = sizeof(table), then one function
 *    pointer per entry in clr's order, entry N at byte 8 + 8*N
 *    (HIP_ENFORCE_ABI); ROCm 6.2.0 has 452 entries
 *    (HIP_RUNTIME_API_TABLE_STEP_VERSION 3). Entries this test does not
 *    name hold a stub; clr's are never NULL either.
 *    FAKE_HIP_TABLE_ENTRIES=N makes the size claim fewer entries (an
 *    older table); the entries past it are still filled, as memory past
 *    a real table's end would be.
 *  - HipCompilerDispatchTable: 9 entries, __hipPopCallConfiguration 0,
 *    __hipPushCallConfiguration 1, ... (HIP_COMPILER_API_TABLE_STEP 0).
 *  - each table is registered once, on first use (clr's ToolInit):
 *    rocprofiler_register_library_api_table("hip_compiler" or "hip",
 *    import, 60200 (10000*6 + 100*2 + 0), {&table}, 1, &id); the
 *    compiler table first (a HIP program registers its fat binary at
 *    start-up, before its first runtime call);
 *  - the exports call through the table (clr's exports):
 *    `return GetHipDispatchTable()->hipX_fn(...)`. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RUNTIME_ENTRIES 452
#define COMPILER_ENTRIES 9
#define HIP_VERSION_62 60200u

typedef void (*any_fn)(void);
typedef int (*import_fn)(void);
typedef struct {
	uint64_t handle;
} reg_id;
int rocprofiler_register_library_api_table(const char *name,
					   uint32_t (*import)(void),
					   uint32_t lib_version, void **tables,
					   uint64_t ntables, reg_id *id);

struct runtime_table {
	size_t size;
	any_fn fn[RUNTIME_ENTRIES];
};
struct compiler_table {
	size_t size;
	any_fn fn[COMPILER_ENTRIES];
};

/* The entries the test calls or checks: index in clr's HipDispatchTable
 * (HIP_ENFORCE_ABI at dd7f957), name in HIP 5.2. */
static const struct {
	unsigned index;
	const char *name;
} runtime_names[] = {
    {66, "hipDeviceSynchronize"},   {82, "hipEventSynchronize"},
    {86, "hipExtMallocWithFlags"},  {90, "hipFree"},
    {103, "hipGetDeviceCount"},	    {109, "hipGetLastError"},
    {166, "hipGraphLaunch"},	    {194, "hipHostFree"},
    {197, "hipHostMalloc"},	    {202, "hipInit"},
    {214, "hipLaunchKernel"},	    {215, "hipMalloc"},
    {222, "hipMallocManaged"},	    {259, "hipMemcpy"},
    {260, "hipMemcpy2D"},	    {261, "hipMemcpy2DAsync"},
    {268, "hipMemcpyAsync"},	    {282, "hipMemcpyPeer"},
    {283, "hipMemcpyPeerAsync"},    {287, "hipMemcpyWithStream"},
    {308, "hipModuleLaunchKernel"}, {326, "hipRuntimeGetVersion"},
    {346, "hipStreamSynchronize"},  {388, "hipExtModuleLaunchKernel"},
};
static const char *const compiler_names[COMPILER_ENTRIES] = {
    "__hipPopCallConfiguration", "__hipPushCallConfiguration",
    "__hipRegisterFatBinary",	 "__hipRegisterFunction",
    "__hipRegisterManagedVar",	 "__hipRegisterSurface",
    "__hipRegisterTexture",	 "__hipRegisterVar",
    "__hipUnregisterFatBinary"};

static struct runtime_table runtime, runtime2;
static struct compiler_table compiler;
static any_fn real[RUNTIME_ENTRIES];
static void *hip;
static int status = -1, compiler_status = -1;

static uint32_t import_hip(void)
{
	return HIP_VERSION_62;
}

static int unlisted(void)
{
	return 801; /* hipErrorNotSupported: never called by the test */
}

static any_fn sym(const char *name)
{
	void *p = hip ? dlsym(hip, name) : NULL;
	any_fn f;

	memcpy(&f, &p, sizeof p);
	return f;
}

static void fill(struct runtime_table *t)
{
	const char *n = getenv("FAKE_HIP_TABLE_ENTRIES");
	size_t entries = n ? strtoul(n, NULL, 10) : RUNTIME_ENTRIES;

	if (entries > RUNTIME_ENTRIES)
		entries = RUNTIME_ENTRIES;
	t->size = 8 + 8 * entries;
	for (unsigned i = 0; i < RUNTIME_ENTRIES; i++)
		t->fn[i] = real[i] ? real[i] : (any_fn)unlisted;
}

static void init_runtime(void)
{
	void *tables[1] = {&runtime};
	reg_id id;

	for (size_t i = 0; i < sizeof runtime_names / sizeof *runtime_names;
	     i++)
		real[runtime_names[i].index] = sym(runtime_names[i].name);
	fill(&runtime);
	status = rocprofiler_register_library_api_table(
	    "hip", import_hip, HIP_VERSION_62, tables, 1, &id);
}

static struct runtime_table *table(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, init_runtime);
	return &runtime;
}

__attribute__((constructor)) static void init_compiler(void)
{
	void *tables[1] = {&compiler};
	reg_id id;

	hip = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_LOCAL);
	compiler.size = 8 + 8 * COMPILER_ENTRIES;
	for (unsigned i = 0; i < COMPILER_ENTRIES; i++) {
		compiler.fn[i] = sym(compiler_names[i]);
		if (!compiler.fn[i])
			compiler.fn[i] = (any_fn)unlisted;
	}
	compiler_status = rocprofiler_register_library_api_table(
	    "hip_compiler", import_hip, HIP_VERSION_62, tables, 1, &id);
}

/* For the test program. */
int fake_hip_loaded(void);
void *fake_hip_table(void);
void *fake_hip_compiler_table(void);
int fake_hip_status(int compiler_table);
void *fake_hip_real(unsigned index);
int fake_hip_second_runtime(void **table2);

int fake_hip_loaded(void)
{
	return hip != NULL;
}

void *fake_hip_table(void)
{
	return table();
}

void *fake_hip_compiler_table(void)
{
	return &compiler;
}

int fake_hip_status(int compiler_table)
{
	return compiler_table ? compiler_status : status;
}

/* What entry index held before registration: the HIP 5.2 function of
 * that name, or the stub. */
void *fake_hip_real(unsigned index)
{
	any_fn f = (any_fn)unlisted;
	void *p;

	if (index < RUNTIME_ENTRIES && real[index])
		f = real[index];
	memcpy(&p, &f, sizeof p);
	return p;
}

/* A second libamdhip64 in the process (a torch wheel's beside
 * /opt/rocm's) registers its own table: instance 1. */
int fake_hip_second_runtime(void **table2)
{
	void *tables[1] = {&runtime2};
	reg_id id;

	table();
	fill(&runtime2);
	*table2 = &runtime2;
	return rocprofiler_register_library_api_table(
	    "hip", import_hip, HIP_VERSION_62, tables, 1, &id);
}

/* The exports the test program calls by name, as clr's do (docs/trace.md). */
typedef int hipError_t;
hipError_t hipInit(unsigned f);
hipError_t hipMalloc(void **p, size_t n);
hipError_t hipHostMalloc(void **p, size_t n, unsigned f);
hipError_t hipDeviceSynchronize(void);
hipError_t hipGetDeviceCount(int *n);

#define CALL(idx, type, args)                                                  \
	do {                                                                   \
		__typeof__(type) fn_;                                          \
		any_fn f_ = table()->fn[idx];                                  \
		memcpy(&fn_, &f_, sizeof f_);                                  \
		return fn_ args;                                               \
	} while (0)

hipError_t hipInit(unsigned f)
{
	CALL(202, hipError_t(*)(unsigned), (f));
}

hipError_t hipMalloc(void **p, size_t n)
{
	CALL(215, hipError_t(*)(void **, size_t), (p, n));
}

hipError_t hipHostMalloc(void **p, size_t n, unsigned f)
{
	CALL(197, hipError_t(*)(void **, size_t, unsigned), (p, n, f));
}

hipError_t hipDeviceSynchronize(void)
{
	CALL(66, hipError_t(*)(void), ());
}

hipError_t hipGetDeviceCount(int *n)
{
	CALL(103, hipError_t(*)(int *), (n));
}
