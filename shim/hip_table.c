/* HIP dispatch-table route of libgpudoctor-trace.so (ROCm >= 6.2).
 * Not run against a real ROCm >= 6.2 (none at hand). CI drives it as
 * rocprofiler-register would, with a table of Debian's real HIP 5.2
 * functions laid out as clr lays it out
 * (tests/scripts/test_trace_hip_table.sh); HIP 5.2 itself never calls it.
 *
 * Verified in source (2026-11-24), ROCm/clr at rocm-6.1.0 (a8dbc0c),
 * rocm-6.2.0 (dd7f957), f9f995c (6.3 dev) and ROCm/rocm-systems
 * projects/clr at 04c29c5; rocprofiler-register at 24041c4 and 11a4668
 * (ROCm/rocprofiler-register) and rocm-systems 04e1fbc; rocprofiler-sdk
 * at rocm-systems 0028ad5 (files and full hashes: docs/trace.md, "HIP on
 * ROCm >= 6.2: the dispatch table"):
 *  - every export is `return hip::GetHipDispatchTable()->hipX_fn(...)`
 *    from 6.1; the compiler entry points (__hipPushCallConfiguration,
 *    __hipRegister*) go through a second table,
 *    HipCompilerDispatchTable; 7.x adds a third, hip_tools.
 *  - from 6.2 (absent at 6.1.0) clr registers each table on first use
 *    (ToolInit/ToolsInit): rocprofiler_register_library_api_table(name,
 *    import_fn, version, {&table}, 1, &id) with name "hip" (runtime),
 *    "hip_compiler" or "hip_tools", version 10000*major + 100*minor
 *    (patch 0: 60200 for 6.2), and the table itself, the static object
 *    every export calls through (not a copy): what we swap is what the
 *    exports use.
 *  - the table: a size_t size = sizeof(table), then function pointers;
 *    HIP_ENFORCE_ABI asserts offsetof(entry N) == 8 + 8*N, append-only
 *    (HIP_RUNTIME_API_TABLE_STEP_VERSION 3 at 6.2.0: 452 entries; 6 at
 *    f9f995c: 463). The indices below are the same at all four commits.
 *  - rocprofiler-register declares rocprofiler_configure and
 *    rocprofiler_set_api_table `#pragma weak`; a tool is "found" when
 *    the weak rocprofiler_configure or dlsym(RTLD_DEFAULT,
 *    "rocprofiler_configure") is non-NULL (or ROCP_TOOL_LIBRARIES /
 *    ROCPROFILER_REGISTER_LIBRARY / ROCPROFILER_REGISTER_FORCE_LOAD say
 *    so); it then uses the weak rocprofiler_set_api_table when it
 *    resolved ("found via LD_PRELOAD"), else dlsym(RTLD_DEFAULT), else
 *    dlopens ROCPROFILER_REGISTER_LIBRARY or librocprofiler-sdk.so, and
 *    calls set_api_table(name, lib_version, instance, tables, count):
 *    (const char *, uint64_t, uint64_t, void **, uint64_t) -> int,
 *    nonzero = error. The instance counts per name from 0.
 *    ROCPROFILER_REGISTER_ENABLED=0 (newer versions) turns it all off.
 * So exporting both functions from this preloaded library is enough.
 *
 * Only the runtime table ("hip") is patched, and only the first one seen:
 * the wrappers keep one original per entry, so a second runtime in the
 * process (instance 1) is left alone and said. The compiler table is not
 * patched: __hipPushCallConfiguration only stores the launch
 * configuration, the launch itself is hipLaunchKernel (runtime table).
 *
 * Chaining. We are in front of a real rocprofiler-sdk (rocprofv3, a
 * profiler in a torch wheel): register finds our set_api_table first, so
 * ours passes every table on (any name) to the next definition
 * (dlsym(RTLD_NEXT)) or, when none is loaded but the environment asks for
 * a tool, loads the SDK as register would have. rocprofiler_configure
 * answers NULL ("not a tool") and does not chain: rocprofiler-sdk finds
 * every rocprofiler_configure itself (its find_clients, docs/trace.md:
 * RTLD_DEFAULT, RTLD_NEXT, each library of the link map), so chaining
 * would configure the next tool twice.
 *
 * Exported hooks (hooks_hip.c) and table hooks both run on such a
 * runtime: the export hook is the outer call; the table wrapper it
 * reaches sees depth > 0 and only forwards, so nothing is counted twice;
 * hipHostMalloc flags the export already rewrote carry NonCoherent and
 * are not rewritten again. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "shim.h"

typedef int hipError_t;
typedef void *hipStream_t;
typedef struct {
	uint32_t x, y, z;
} dim3;

unsigned shim_hip_host_flags(unsigned f) SHIM_HIDDEN; /* hooks_hip.c */

/* The original is stored (release) before the table entry points here;
 * a thread that already sees the wrapper sees the original too. Newer clr
 * (rocm-systems 04c29c5, GetDispatchTableImpl) marks the table registered
 * before registering it, so other threads may call through it while we
 * swap. */
#define TABLE_HOOK(ret_t, name, params, args, bytes, kind, stream)             \
	static ret_t(*orig_##name) params;                                     \
	static ret_t tbl_##name params                                         \
	{                                                                      \
		ret_t(*fn_) params =                                           \
		    __atomic_load_n(&orig_##name, __ATOMIC_ACQUIRE);           \
		struct shim_call c_;                                           \
		ret_t r_;                                                      \
		shim_enter(&c_, GD_TRACE_API_##name,                           \
			   __builtin_return_address(0), (uint64_t)(bytes),     \
			   (unsigned)(kind), (const void *)(stream));          \
		r_ = fn_ args;                                                 \
		shim_exit(&c_, (int)r_);                                       \
		return r_;                                                     \
	}

TABLE_HOOK(hipError_t, hipDeviceSynchronize, (void), (), 0, 0, NULL)
TABLE_HOOK(hipError_t, hipEventSynchronize, (void *e), (e), 0, 0, NULL)
TABLE_HOOK(hipError_t, hipExtMallocWithFlags, (void **p, size_t n, unsigned f),
	   (p, n, f), n, f, NULL)
TABLE_HOOK(hipError_t, hipExtModuleLaunchKernel,
	   (void *f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
	    uint32_t ly, uint32_t lz, size_t sh, hipStream_t s, void **p,
	    void **e, void *ev0, void *ev1, uint32_t fl),
	   (f, gx, gy, gz, lx, ly, lz, sh, s, p, e, ev0, ev1, fl), 0, fl, s)
TABLE_HOOK(hipError_t, hipFree, (void *p), (p), 0, 0, NULL)
TABLE_HOOK(hipError_t, hipGraphLaunch, (void *g, hipStream_t s), (g, s), 0, 0,
	   s)
TABLE_HOOK(hipError_t, hipHostFree, (void *p), (p), 0, 0, NULL)
TABLE_HOOK(hipError_t, hipInit, (unsigned f), (f), 0, f, NULL)
TABLE_HOOK(hipError_t, hipLaunchKernel,
	   (const void *f, dim3 g, dim3 b, void **a, size_t sh, hipStream_t s),
	   (f, g, b, a, sh, s), 0, 0, s)
TABLE_HOOK(hipError_t, hipMalloc, (void **p, size_t n), (p, n), n, 0, NULL)
TABLE_HOOK(hipError_t, hipMallocManaged, (void **p, size_t n, unsigned f),
	   (p, n, f), n, f, NULL)
TABLE_HOOK(hipError_t, hipMemcpy, (void *d, const void *s, size_t n, int k),
	   (d, s, n, k), n, k, NULL)
TABLE_HOOK(hipError_t, hipMemcpy2D,
	   (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
	    int k),
	   (d, dp, s, sp, w, h, k), w *h, k, NULL)
TABLE_HOOK(hipError_t, hipMemcpy2DAsync,
	   (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
	    int k, hipStream_t st),
	   (d, dp, s, sp, w, h, k, st), w *h, k, st)
TABLE_HOOK(hipError_t, hipMemcpyAsync,
	   (void *d, const void *s, size_t n, int k, hipStream_t st),
	   (d, s, n, k, st), n, k, st)
TABLE_HOOK(hipError_t, hipMemcpyPeer,
	   (void *d, int dd, const void *s, int sd, size_t n),
	   (d, dd, s, sd, n), n, 3 /* D2D */, NULL)
TABLE_HOOK(hipError_t, hipMemcpyPeerAsync,
	   (void *d, int dd, const void *s, int sd, size_t n, hipStream_t st),
	   (d, dd, s, sd, n, st), n, 3 /* D2D */, st)
TABLE_HOOK(hipError_t, hipMemcpyWithStream,
	   (void *d, const void *s, size_t n, int k, hipStream_t st),
	   (d, s, n, k, st), n, k, st)
TABLE_HOOK(hipError_t, hipModuleLaunchKernel,
	   (void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
	    unsigned by, unsigned bz, unsigned sh, hipStream_t s, void **p,
	    void **e),
	   (f, gx, gy, gz, bx, by, bz, sh, s, p, e), 0, 0, s)
TABLE_HOOK(hipError_t, hipStreamSynchronize, (hipStream_t s), (s), 0, 0, s)

/* hipHostMalloc: the rewrite as in the exported hook (idempotent: flags
 * the export already rewrote carry NonCoherent and are left alone). */
static hipError_t (*orig_hipHostMalloc)(void **, size_t, unsigned);
static hipError_t tbl_hipHostMalloc(void **p, size_t n, unsigned f)
{
	hipError_t (*fn)(void **, size_t, unsigned) =
	    __atomic_load_n(&orig_hipHostMalloc, __ATOMIC_ACQUIRE);
	struct shim_call c;
	unsigned nf = shim_hip_host_flags(f);
	hipError_t r;

	shim_enter(&c, GD_TRACE_API_hipHostMalloc, __builtin_return_address(0),
		   n, nf, NULL);
	r = fn(p, n, nf);
	shim_exit(&c, r);
	return r;
}

/* Every entry and original is a function pointer of one size. */
typedef void (*any_fn)(void) __attribute__((may_alias));
struct entry {
	unsigned index;
	any_fn wrap;
	any_fn *orig; /* &orig_<name>, all function pointers alike */
};

/* HIP_ENFORCE_ABI(HipDispatchTable, <name>_fn, index) in clr. */
#define E(i, n)                                                                \
	{                                                                      \
		i, (any_fn)tbl_##n, (any_fn *)(void *)&orig_##n                \
	}
static const struct entry entries[] = {
    E(66, hipDeviceSynchronize),
    E(82, hipEventSynchronize),
    E(86, hipExtMallocWithFlags),
    E(90, hipFree),
    E(166, hipGraphLaunch),
    E(194, hipHostFree),
    E(197, hipHostMalloc),
    E(202, hipInit),
    E(214, hipLaunchKernel),
    E(215, hipMalloc),
    E(222, hipMallocManaged),
    E(259, hipMemcpy),
    E(260, hipMemcpy2D),
    E(261, hipMemcpy2DAsync),
    E(268, hipMemcpyAsync),
    E(282, hipMemcpyPeer),
    E(283, hipMemcpyPeerAsync),
    E(287, hipMemcpyWithStream),
    E(308, hipModuleLaunchKernel),
    E(346, hipStreamSynchronize),
    E(388, hipExtModuleLaunchKernel),
};
#undef E

/* Swap the entries the table's size covers; returns how many. */
static unsigned patch_hip(unsigned char *t)
{
	size_t size;
	unsigned n = 0;

	memcpy(&size, t, sizeof size);
	for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
		const struct entry *e = &entries[i];
		any_fn *slot = (any_fn *)(void *)(t + 8 + 8 * (size_t)e->index);
		any_fn cur;

		if (size < 8 + 8 * ((size_t)e->index + 1))
			continue; /* an older table: no such entry */
		cur = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
		if (!cur)
			continue;
		__atomic_store_n(e->orig, cur, __ATOMIC_RELEASE);
		__atomic_store_n(slot, e->wrap, __ATOMIC_RELEASE);
		n++;
	}
	return n;
}

typedef int (*set_api_table_fn)(const char *, uint64_t, uint64_t, void **,
				uint64_t);

SHIM_EXPORT int rocprofiler_set_api_table(const char *name, uint64_t version,
					  uint64_t instance, void **tables,
					  uint64_t ntables);

static int env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") && strcasecmp(v, "false") &&
	       strcasecmp(v, "no") && strcasecmp(v, "off");
}

/* No SDK behind us, but the environment asks rocprofiler-register for a
 * tool: load the SDK as it would have (ROCPROFILER_REGISTER_LIBRARY or
 * librocprofiler-sdk.so, RTLD_GLOBAL, also beside register itself). */
static void *load_sdk(char *why, size_t n)
{
	const char *lib = getenv("ROCPROFILER_REGISTER_LIBRARY");
	void *h, *p;
	Dl_info di;

	if (!(lib && *lib) && !env_on("ROCPROFILER_REGISTER_FORCE_LOAD") &&
	    !(getenv("ROCP_TOOL_LIBRARIES") && *getenv("ROCP_TOOL_LIBRARIES")))
		return NULL;
	if (!lib || !*lib)
		lib = "librocprofiler-sdk.so";
	h = dlopen(lib, RTLD_GLOBAL | RTLD_LAZY);
	p = dlsym(RTLD_DEFAULT, "rocprofiler_register_library_api_table");
	if (!h && !strchr(lib, '/') && p && dladdr(p, &di) && di.dli_fname &&
	    strrchr(di.dli_fname, '/')) {
		char path[4096];
		int dl = (int)(strrchr(di.dli_fname, '/') - di.dli_fname);

		if (snprintf(path, sizeof path, "%.*s/%s", dl, di.dli_fname,
			     lib) < (int)sizeof path)
			h = dlopen(path, RTLD_GLOBAL | RTLD_LAZY);
	}
	p = h ? dlsym(h, "rocprofiler_set_api_table") : NULL;
	snprintf(why, n, ", %s %s", lib,
		 !h  ? "not loadable"
		 : p ? "loaded"
		     : "has no set_api_table");
	return p;
}

/* The next rocprofiler_set_api_table. Looked up again at each
 * registration until found: a profiler dlopened later (RTLD_GLOBAL) still
 * gets the tables registered after it came. The SDK is loaded by us at
 * most once. Called under the caller's lock. */
static set_api_table_fn next_set_api_table(char *why, size_t n)
{
	static set_api_table_fn next;
	static int tried_sdk;
	void *p;

	if (next)
		return next;
	p = dlsym(RTLD_NEXT, "rocprofiler_set_api_table");
	memcpy(&next, &p, sizeof p);
	if (!next && !tried_sdk) {
		tried_sdk = 1;
		p = load_sdk(why, n);
		memcpy(&next, &p, sizeof p);
	}
	if (next == rocprofiler_set_api_table)
		next = NULL;
	return next;
}

/* What happened to a "hip" table, for the log. */
static unsigned hip_table(void *table, const char **skip)
{
	static void *hooked;
	void *none = NULL;

	*skip = NULL;
	if (!shim_recording())
		*skip = "not recording";
	else if (__atomic_compare_exchange_n(&hooked, &none, table, 0,
					     __ATOMIC_ACQ_REL,
					     __ATOMIC_ACQUIRE))
		return patch_hip(table);
	else if (none == table)
		*skip = "already hooked";
	else
		*skip = "a second HIP runtime in the process: not hooked";
	return 0;
}

SHIM_EXPORT int rocprofiler_set_api_table(const char *name, uint64_t version,
					  uint64_t instance, void **tables,
					  uint64_t ntables)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	char why[200] = "", msg[400];
	set_api_table_fn next;

	shim_init();
	pthread_mutex_lock(&mu);
	next = next_set_api_table(why, sizeof why);
	pthread_mutex_unlock(&mu);
	if (name && !strcmp(name, "hip") && tables && ntables >= 1 &&
	    tables[0]) {
		const char *skip;
		unsigned n = hip_table(tables[0], &skip);

		snprintf(msg, sizeof msg,
			 "hip route: dispatch table (rocprofiler-register, "
			 "version %llu, instance %llu): %u entries hooked%s%s"
			 "%s%s",
			 (unsigned long long)version,
			 (unsigned long long)instance, n, skip ? " (" : "",
			 skip ? skip : "", skip ? ")" : "",
			 next ? ", chained to rocprofiler-sdk" : "");
		if (shim_recording())
			shim_note(msg, 0);
	}
	if (why[0] && shim_recording()) {
		snprintf(msg, sizeof msg, "hip route: rocprofiler-sdk%s", why);
		shim_note(msg, !strstr(why, " loaded")); /* stderr if failed */
	}
	return next ? next(name, version, instance, tables, ntables) : 0;
}

/* rocprofiler-sdk's tool entry: we are not a tool (NULL). Its presence
 * is what makes rocprofiler-register hand out the tables. */
SHIM_EXPORT void *rocprofiler_configure(uint32_t version, const char *rt,
					uint32_t priority, void *client);
SHIM_EXPORT void *rocprofiler_configure(uint32_t version, const char *rt,
					uint32_t priority, void *client)
{
	(void)version;
	(void)rt;
	(void)priority;
	(void)client;
	return NULL;
}
