/* libgpudoctor-trace.so internals: the per-call record (shim.c) used by
 * the exported hooks (hooks_hip.c, hooks_cuda.c). The hooks are found by
 * exported-symbol interposition (LD_PRELOAD) and forward to the next
 * definition, found with dlsym(RTLD_NEXT); dlsym itself is never
 * overridden. Nothing here needs a GPU SDK header. */
#ifndef GD_SHIM_H
#define GD_SHIM_H

#include <stdint.h>
#include <string.h>

#include "probe/trace_shm.h"

#define SHIM_EXPORT __attribute__((visibility("default")))
/* hipErrorSharedObjectSymbolNotFound, cudaErrorSharedObjectSymbolNotFound */
#define SHIM_ENOSYM 302

struct shim_call {
	int active; /* 0: nested call (HIP calling its own exports) or off */
	unsigned api;
	uint64_t t0;
	uint64_t bytes;
	unsigned kind;
	uint64_t stream;
	void *caller_pc;
};

/* The next definition of name (cached in *cache), or NULL. */
void *shim_real(const char *name, void **cache);
void shim_enter(struct shim_call *c, unsigned api, void *caller_pc,
		uint64_t bytes, unsigned kind, const void *stream);
void shim_exit(struct shim_call *c, int result);
int shim_mode(void);
/* One "rewrite" line in the log: what was asked and what was passed on. */
void shim_log_rewrite(unsigned api, unsigned old_flags, unsigned new_flags);

/* Resolve the next definition into a typed function pointer (object to
 * function pointer conversion is not ISO C; memcpy is). */
#define SHIM_REAL(fnvar, name)                                                 \
	do {                                                                   \
		static void *real_cache_;                                      \
		void *p_ = shim_real(name, &real_cache_);                      \
		memcpy(&fnvar, &p_, sizeof fnvar);                             \
	} while (0)

/* A hook: declare, resolve, record around the forwarded call. */
#define SHIM_HOOK(ret_t, name, params, args, bytes, kind, stream)              \
	SHIM_EXPORT ret_t name params;                                         \
	SHIM_EXPORT ret_t name params                                          \
	{                                                                      \
		ret_t(*fn_) params = NULL;                                     \
		struct shim_call c_;                                           \
		ret_t r_;                                                      \
		SHIM_REAL(fn_, #name);                                         \
		if (!fn_)                                                      \
			return (ret_t)SHIM_ENOSYM;                             \
		shim_enter(&c_, GD_TRACE_API_##name,                           \
			   __builtin_return_address(0), (uint64_t)(bytes),     \
			   (unsigned)(kind), (const void *)(stream));          \
		r_ = fn_ args;                                                 \
		shim_exit(&c_, (int)r_);                                       \
		return r_;                                                     \
	}

#endif
