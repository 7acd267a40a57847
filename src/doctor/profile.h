/* doctor/profile: a workaround profile is a named list of environment
 * changes (set, unset, put a directory first in a path list) kept as a small
 * text file in $XDG_CONFIG_HOME/gpudoctor/. One per GPU
 * ("gpu-1002-731f-gfx1010.profile") plus named ones ("llama.profile").
 *
 * File format (docs/workarounds.md), one directive a line:
 *
 *   # gpudoctor profile              comment lines start with '#'
 *   strategy gfx1010-override-10.3.0 the kb strategy it came from (optional)
 *   saved 2026-11-22                 when `try --save` wrote it (optional)
 *   set HSA_OVERRIDE_GFX_VERSION=10.3.0
 *   unset HSA_ENABLE_SDMA
 *   prepend-path LD_LIBRARY_PATH=/opt/rocm-6.2.4/lib
 *   note free text shown by `env` and `run`
 *
 * Values run to the end of the line; trailing blanks are dropped, nothing
 * is quoted or expanded. Profiles are the user's own files, so they are
 * read with plain open(2), not through ctx->fs, but only when the user owns
 * them and nobody else can write them. */
#ifndef GD_PROFILE_H
#define GD_PROFILE_H

#include <stddef.h>

#include "../core/ctx.h"
#include "../discover/discover.h"

#define GD_PROFILE_MAX_BYTES (64 * 1024)
#define GD_PROFILE_MAX_VALUE 4096

enum gd_prof_op {
	GD_PROF_SET,	 /* NAME=VALUE */
	GD_PROF_UNSET,	 /* remove NAME */
	GD_PROF_PREPEND, /* NAME=DIR, then ":" and the old value if non-empty */
};

struct gd_prof_item {
	enum gd_prof_op op;
	char name[128];
	char *value; /* owned; NULL for unset */
};

struct gd_profile {
	char name[128];	    /* "gpu-1002-731f-gfx1010", "llama", "" */
	char path[4096];    /* file it was loaded from / saved to, "" */
	char strategy[128]; /* kb strategy id it was made from, "" */
	char saved[32];	    /* date `try --save` wrote it, "" */
	GD_VEC(struct gd_prof_item) items;
	gd_strvec notes;
};

void gd_profile_init(struct gd_profile *p);
void gd_profile_free(struct gd_profile *p);
/* Append one change (value is copied; NULL for unset). 0 or -ENOMEM. */
int gd_profile_add(struct gd_profile *p, enum gd_prof_op op, const char *name,
		   const char *value);
int gd_profile_add_note(struct gd_profile *p, const char *note);
/* Deep copy; 0 or -ENOMEM. */
int gd_profile_copy(struct gd_profile *dst, const struct gd_profile *src);

/* Parse profile text (pure: bytes in, struct out; fuzzed). p must be
 * initialised. Returns 0, or -1 with "line N: what is wrong" in err. */
int gd_profile_parse(const char *buf, size_t len, struct gd_profile *p,
		     char *err, size_t errlen);
/* Check names and values: names are [A-Za-z_][A-Za-z0-9_]*, values hold no
 * control characters, an HSA_OVERRIDE_GFX_VERSION[_N] value parses the way
 * libhsakmt parses it, a prepend-path directory is absolute with no list
 * separator in it. Returns 0, or -1 with the reason in err. */
int gd_profile_validate(const struct gd_profile *p, char *err, size_t errlen);
int gd_env_name_valid(const char *name);

/* HSA_OVERRIDE_GFX_VERSION as libhsakmt reads it (docs/discover.md):
 * sscanf("%u.%u.%u%c") must convert exactly three numbers, major <= 63,
 * minor and stepping <= 255, each part decimal ("10.3.0" -> gfx1030,
 * "9.0.10" -> gfx90a). Returns 0 and the gfx name, or -1 with why. */
int gd_override_parse(const char *s, char *gfx, size_t gfxcap, char *why,
		      size_t whycap);

/* The text of a profile, as saved. Returns a malloc'ed string or NULL. */
char *gd_profile_format(const struct gd_profile *p);
/* One line for humans: "HSA_OVERRIDE_GFX_VERSION=10.3.0, unset X,
 * LD_LIBRARY_PATH=/opt/rocm/lib:…"; "no changes" when empty. */
void gd_profile_summary(const struct gd_profile *p, char *buf, size_t cap);

/* $XDG_CONFIG_HOME/gpudoctor (when absolute), else $HOME/.config/gpudoctor.
 * Returns 0, or -1 when neither variable helps. */
int gd_profile_dir(const gd_ctx *ctx, char *buf, size_t cap);
/* "gpu-1002-731f-gfx1010", "gpu-10de-2330-sm_90", "gpu-1002-1586" when
 * the target is unknown. */
void gd_profile_gpu_name(const struct gd_gpu *g, char *buf, size_t cap);
/* A profile name is [A-Za-z0-9_.-]+ not starting with '.'. */
int gd_profile_name_valid(const char *name);
/* Path of profile NAME in the profile dir; a NAME holding '/' is taken as
 * a path as is. Returns 0, or -1 (no dir, bad name) with why in err. */
int gd_profile_path(const gd_ctx *ctx, const char *name, char *buf, size_t cap,
		    char *err, size_t errlen);

/* Open, check and parse a profile file. The opened file must be a regular
 * file owned by the effective user and not writable by group or others; so
 * must its directory (or be root's). Returns 0; -ENOENT when missing;
 * -EPERM when refused (err says why and the chmod/chown that fixes it);
 * -EINVAL when it does not parse or validate; other -errno. */
int gd_profile_load(const char *path, struct gd_profile *p, char *err,
		    size_t errlen);
/* Write atomically (temp file + rename), mode 0600, creating the directory
 * with mode 0700 when missing. Returns 0 or -errno with err. */
int gd_profile_save(const char *path, const struct gd_profile *p, char *err,
		    size_t errlen);

/* A new environment: base with p's changes applied in order. Free with
 * gd_env_free. NULL when out of memory. base is this process's kind of
 * environment: on Windows names are matched case-insensitively (the
 * profile's PATH changes the "Path" there, which keeps its spelling). */
char **gd_profile_apply(const struct gd_profile *p, char *const *base);
/* The same with the matching given: fold 1 as on Windows, 0 as on Linux. */
char **gd_profile_apply_env(const struct gd_profile *p, char *const *base,
			    int fold);
void gd_env_free(char **env);
/* Value of NAME in a NULL-terminated environment array of this process's
 * kind (case-insensitive names on Windows), or NULL. */
const char *gd_env_get(char *const *env, const char *name);

#endif
