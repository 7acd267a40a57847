/* HIP dispatch-table route of libgpudoctor-trace.so (ROCm >= 6.2).
 * UNTESTED on a real runtime: no ROCm >= 6.2 was at hand; written against
 * the sources cited below. Debian's HIP 5.2 never calls it, and the
 * exported hooks (hooks_hip.c) keep working there.
 *
 * From ROCm 6.1 every exported hip* function of libamdhip64 is a one-line
 * wrapper around a dispatch table (clr hipamd/src/hip_table_interface.cpp);
 * from 6.2 clr hands a modifiable copy of that table to rocprofiler-
 * register at first use: rocprofiler_register_library_api_table("hip",
 * ..., &table, 1, ...) (hipamd/src/hip_api_trace.cpp). rocprofiler-
 * register (source/lib/rocprofiler-register/rocprofiler_register.cpp)
 * passes it to rocprofiler_set_api_table(name, lib_version, instance,
 * tables, n) when both rocprofiler_configure and rocprofiler_set_api_table
 * resolve in the process: exporting both from this preloaded library is
 * enough, with no rocprofiler-sdk. Swapping table entries then catches
 * callers that exported-symbol hooks miss (dlsym(handle),
 * hipGetProcAddress, HIP calling itself).
 *
 * Chaining: a real rocprofiler-sdk loaded after us (rocprofv3, a bundled
 * torch copy) defines the same two functions; ours call the next
 * definition (dlsym(RTLD_NEXT)) so that tool still gets its tables and is
 * still configured. Exported hooks and table hooks both run on such a
 * runtime: the export hook is the outer call, the table wrapper it reaches
 * sees depth > 0 and only forwards, so nothing is counted twice.
 *
 * Table layout (HIP_ENFORCE_ABI in clr: offsetof(entry) == 8 + 8 * index,
 * a size_t size first, append-only). Indices read at clr f9f995c
 * (ROCm 6.3 dev) in the interposer notes; an entry is patched only when
 * the table's size covers it. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

#include "shim.h"

typedef int hipError_t;
typedef void *hipStream_t;
typedef struct {
	uint32_t x, y, z;
} dim3;

unsigned shim_hip_host_flags(unsigned f) SHIM_HIDDEN; /* hooks_hip.c */

#define TABLE_HOOK(ret_t, name, params, args, bytes, kind, stream)             \
	static ret_t(*orig_##name) params;                                     \
	static ret_t tbl_##name params                                         \
	{                                                                      \
		struct shim_call c_;                                           \
		ret_t r_;                                                      \
		shim_enter(&c_, GD_TRACE_API_##name,                           \
			   __builtin_return_address(0), (uint64_t)(bytes),     \
			   (unsigned)(kind), (const void *)(stream));          \
		r_ = orig_##name args;                                         \
		shim_exit(&c_, (int)r_);                                       \
		return r_;                                                     \
	}

TABLE_HOOK(hipError_t, hipDeviceSynchronize, (void), (), 0, 0, NULL)
TABLE_HOOK(hipError_t, hipExtMallocWithFlags, (void **p, size_t n, unsigned f),
	   (p, n, f), n, f, NULL)
TABLE_HOOK(hipError_t, hipGraphLaunch, (void *g, hipStream_t s), (g, s), 0, 0,
	   s)
TABLE_HOOK(hipError_t, hipLaunchKernel,
	   (const void *f, dim3 g, dim3 b, void **a, size_t sh, hipStream_t s),
	   (f, g, b, a, sh, s), 0, 0, s)
TABLE_HOOK(hipError_t, hipMalloc, (void **p, size_t n), (p, n), n, 0, NULL)
TABLE_HOOK(hipError_t, hipMemcpy, (void *d, const void *s, size_t n, int k),
	   (d, s, n, k), n, k, NULL)
TABLE_HOOK(hipError_t, hipMemcpyAsync,
	   (void *d, const void *s, size_t n, int k, hipStream_t st),
	   (d, s, n, k, st), n, k, st)
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
	struct shim_call c;
	unsigned nf = shim_hip_host_flags(f);
	hipError_t r;

	shim_enter(&c, GD_TRACE_API_hipHostMalloc, __builtin_return_address(0),
		   n, nf, NULL);
	r = orig_hipHostMalloc(p, n, nf);
	shim_exit(&c, r);
	return r;
}

typedef void (*any_fn)(void);
struct entry {
	unsigned index;
	any_fn wrap;
	void *orig; /* &orig_<name> */
};

#define E(i, n)                                                                \
	{                                                                      \
		i, (any_fn)tbl_##n, (void *)&orig_##n                          \
	}
static const struct entry entries[] = {
    E(66, hipDeviceSynchronize),
    E(86, hipExtMallocWithFlags),
    E(166, hipGraphLaunch),
    E(197, hipHostMalloc),
    E(214, hipLaunchKernel),
    E(215, hipMalloc),
    E(259, hipMemcpy),
    E(268, hipMemcpyAsync),
    E(287, hipMemcpyWithStream),
    E(308, hipModuleLaunchKernel),
    E(346, hipStreamSynchronize),
};
#undef E

/* Swap the entries the table is long enough for; returns how many. A
 * table seen twice (a second registration) is left alone. */
static unsigned patch_hip(void *table)
{
	static void *done;
	unsigned char *t = table;
	size_t size;
	unsigned n = 0;

	if (!t || __atomic_exchange_n(&done, table, __ATOMIC_ACQ_REL) == table)
		return 0;
	memcpy(&size, t, sizeof size);
	for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
		const struct entry *e = &entries[i];
		size_t off = 8 + 8 * (size_t)e->index;
		void *cur;

		if (size < off + 8)
			continue;
		memcpy(&cur, t + off, sizeof cur);
		if (!cur)
			continue;
		memcpy(e->orig, &cur, sizeof cur);
		memcpy(t + off, &e->wrap, sizeof e->wrap);
		n++;
	}
	return n;
}

typedef int (*set_api_table_fn)(const char *, uint64_t, uint64_t, void **,
				uint64_t);
typedef void *(*configure_fn)(uint32_t, const char *, uint32_t, void *);

SHIM_EXPORT int rocprofiler_set_api_table(const char *name, uint64_t version,
					  uint64_t instance, void **tables,
					  uint64_t ntables);
SHIM_EXPORT int rocprofiler_set_api_table(const char *name, uint64_t version,
					  uint64_t instance, void **tables,
					  uint64_t ntables)
{
	void *p = dlsym(RTLD_NEXT, "rocprofiler_set_api_table");
	set_api_table_fn next;
	char msg[200];

	memcpy(&next, &p, sizeof p);
	if (shim_recording() && name && !strcmp(name, "hip") && tables &&
	    ntables >= 1) {
		unsigned n = patch_hip(tables[0]);

		snprintf(msg, sizeof msg,
			 "hip route: dispatch table (rocprofiler-register, "
			 "version %llu, instance %llu): %u entries hooked%s",
			 (unsigned long long)version,
			 (unsigned long long)instance, n,
			 next ? ", chained to rocprofiler-sdk" : "");
		shim_note(msg, 0);
	}
	return next ? next(name, version, instance, tables, ntables) : 0;
}

/* rocprofiler-sdk's tool entry: we are not a tool (NULL), but a real tool
 * library behind us must still be found. */
SHIM_EXPORT void *rocprofiler_configure(uint32_t version, const char *rt,
					uint32_t priority, void *client);
SHIM_EXPORT void *rocprofiler_configure(uint32_t version, const char *rt,
					uint32_t priority, void *client)
{
	void *p = dlsym(RTLD_NEXT, "rocprofiler_configure");
	configure_fn next;

	memcpy(&next, &p, sizeof p);
	return next ? next(version, rt, priority, client) : NULL;
}
