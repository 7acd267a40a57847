/* libgpudoctor-trace.so internals: the per-call record (shim.c) used by
 * the exported hooks (hooks_hip.c, hooks_cuda.c) and the CUPTI callbacks
 * (cupti.c); the call log (shim_log.c). The hooks are found by
 * exported-symbol interposition (LD_PRELOAD) and forward to the next
 * definition, found with dlsym(RTLD_NEXT) once per hook; dlsym itself is
 * never overridden. Nothing here needs a GPU SDK header. */
#ifndef GD_SHIM_H
#define GD_SHIM_H

#include <stdint.h>
#include <string.h>

#include "probe/trace_shm.h"

#define SHIM_EXPORT __attribute__((visibility("default")))
#define SHIM_HIDDEN __attribute__((visibility("hidden")))
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

/* Which hook families record (hooks of a family that is off forward
 * only): the CUDA runtime exports go quiet while CUPTI reports the same
 * calls, so no call is counted twice; the driver exports (SHIM_FAM_CU)
 * stay (CUPTI's driver domain is --trace=deep; a call seen by both is
 * nested and counted once). */
enum { SHIM_FAM_HIP = 1, SHIM_FAM_CUDA = 2, SHIM_FAM_CU = 4 };
extern int shim_families SHIM_HIDDEN;

/* The real definition of name (cached in *cache), or NULL: the next in
 * the global scope, else the one the caller (its return address) would
 * have bound to without the preload (shim_resolve.c). */
void *shim_real(const char *name, void **cache, void *caller_pc) SHIM_HIDDEN;
void *shim_find(const char *name, void *caller_pc) SHIM_HIDDEN;
void shim_enter(struct shim_call *c, unsigned api, void *caller_pc,
		uint64_t bytes, unsigned kind, const void *stream) SHIM_HIDDEN;
void shim_exit(struct shim_call *c, int result) SHIM_HIDDEN;
int shim_mode(void) SHIM_HIDDEN;
/* The constructor's work, once (environment, region, log). */
void shim_init(void) SHIM_HIDDEN;
/* One "rewrite" line in the log: what was asked and what was passed on. */
void shim_log_rewrite(unsigned api, unsigned old_flags,
		      unsigned new_flags) SHIM_HIDDEN;
/* A "note" line in the log; a warning also goes to stderr
 * ("gpudoctor-trace: ...") when there is no log. */
void shim_note(const char *msg, int warn) SHIM_HIDDEN;
/* Whether calls are recorded at all (a region or a log). */
int shim_recording(void) SHIM_HIDDEN;
/* The return address of the hooked export that is forwarding now (the
 * CUPTI callback runs deeper and cannot see the caller); returns the old
 * value. */
void *shim_pc_set(void *pc) SHIM_HIDDEN;
void *shim_pc_get(void) SHIM_HIDDEN;

/* shim_log.c: the call log (GD_TRACE_M_LOG). */
int shim_log_open(const char *path) SHIM_HIDDEN;
int shim_log_on(void) SHIM_HIDDEN;
void shim_log_call(const struct shim_call *c, int result, uint64_t dur, int pid,
		   int tid, uint64_t now) SHIM_HIDDEN;
void shim_log_line(const char *line, size_t n) SHIM_HIDDEN;
void shim_log_fork_child(void) SHIM_HIDDEN;
void shim_log_fini(int pid) SHIM_HIDDEN;
extern const char *const shim_api_names[] SHIM_HIDDEN;

/* Resolve the next definition into a typed function pointer (object to
 * function pointer conversion is not ISO C; memcpy is). */
#define SHIM_REAL(fnvar, name)                                                 \
	do {                                                                   \
		static void *real_cache_;                                      \
		void *p_ = shim_real(name, &real_cache_,                       \
				     __builtin_return_address(0));             \
		memcpy(&fnvar, &p_, sizeof fnvar);                             \
	} while (0)

/* A hook: declare, resolve, record around the forwarded call. A
 * definition found nowhere (shim_resolve.c): the program reached this
 * export without any runtime defining it (a weak reference, or
 * dlsym(RTLD_DEFAULT) that found only us), so it could not have made
 * the call without the preload: the runtime's "symbol not found". */
#define SHIM_HOOK_API(fam, api, ret_t, name, params, args, bytes, kind,        \
		      stream)                                                  \
	SHIM_EXPORT ret_t name params;                                         \
	SHIM_EXPORT ret_t name params                                          \
	{                                                                      \
		ret_t(*fn_) params = NULL;                                     \
		struct shim_call c_;                                           \
		ret_t r_;                                                      \
		SHIM_REAL(fn_, #name);                                         \
		if (!fn_)                                                      \
			return (ret_t)SHIM_ENOSYM;                             \
		if (!(shim_families & (fam))) {                                \
			void *o_ = shim_pc_set(__builtin_return_address(0));   \
			r_ = fn_ args;                                         \
			shim_pc_set(o_);                                       \
			return r_;                                             \
		}                                                              \
		shim_enter(&c_, api, __builtin_return_address(0),              \
			   (uint64_t)(bytes), (unsigned)(kind),                \
			   (const void *)(stream));                            \
		r_ = fn_ args;                                                 \
		shim_exit(&c_, (int)r_);                                       \
		return r_;                                                     \
	}
#define SHIM_HOOK_FAM(fam, ret_t, name, ...)                                   \
	SHIM_HOOK_API(fam, GD_TRACE_API_##name, ret_t, name, __VA_ARGS__)
#define SHIM_HOOK(...) SHIM_HOOK_FAM(SHIM_FAM_HIP, __VA_ARGS__)

#endif
