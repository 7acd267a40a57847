/* The context every layer hangs off (docs/style.md habit 6): the OS root, the
 * environment the run judges (a copy, so tests can set their own), the
 * knowledge base and the diagnostics collected on the way. The library
 * never prints: it appends diagnostics here and cli/ decides. */
#ifndef GD_CTX_H
#define GD_CTX_H

#include "fs.h"
#include "util.h"

struct gd_kb;

enum gd_diag_level { GD_DIAG_INFO, GD_DIAG_WARN, GD_DIAG_ERROR };

typedef struct gd_diag {
	enum gd_diag_level level;
	char source[96]; /* file or subsystem it is about */
	char msg[256];
} gd_diag;

typedef struct gd_ctx {
	gd_fs fs;
	char **env;    /* this process's environment (a copy, NULL-terminated):
			* what commands gpudoctor starts run with */
	char **judged; /* a captured machine's environment (.gpudoctor/environ
			* of a `gather` capture under --root), or NULL: what
			* the facts are judged against (gd_ctx_getenv) */
	struct gd_kb *kb;
	char self_exe[4096]; /* for re-exec of supervised children */
	gd_strvec
	    *env_read; /* when set, names of variables looked up (gather) */
	GD_VEC(gd_diag) diags;
	/* Added for Windows (append-only): the system judged, "linux" or
	 * "windows" (a Windows capture under --root, or this machine), and
	 * for Windows its registry (core/wincap.c), else NULL. */
	const char *platform;
	struct gd_reg *reg;
} gd_ctx;

/* root: NULL means $GPUDOCTOR_ROOT from envp, else "/". envp is copied. */
int gd_ctx_init(gd_ctx *ctx, const char *root, char *const *envp);
void gd_ctx_free(gd_ctx *ctx);

/* A variable of the environment the machine is judged in: the captured
 * one when replaying a capture, else ours. */
const char *gd_ctx_getenv(const gd_ctx *ctx, const char *name);
/* A variable of this process's own environment (the user's settings:
 * HOME for profiles, NO_COLOR), whatever machine is being judged. */
const char *gd_ctx_live_getenv(const gd_ctx *ctx, const char *name);
/* Set (value != NULL) or unset a variable in the environment that
 * gd_ctx_getenv reads. */
int gd_ctx_setenv(gd_ctx *ctx, const char *name, const char *value);

/* 1 when the judged system is Windows. */
int gd_ctx_is_windows(const gd_ctx *ctx);

/* Environment arrays ("NAME=value", NULL-terminated): the index of NAME,
 * or -1. fold: names compare case-insensitively (ASCII), as Windows
 * compares them: a Windows environment holds "Path", programs ask for
 * PATH. */
long gd_envv_find(char *const *env, const char *name, int fold);
/* 1 when the entry "NAME=value" is NAME's (fold as above). */
int gd_env_is(const char *entry, const char *name, int fold);
/* 1 when this process's own environment has Windows semantics (the
 * Windows build): its names are looked up with fold. */
int gd_env_own_folds(void);

void gd_diag_add(gd_ctx *ctx, enum gd_diag_level level, const char *source,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
