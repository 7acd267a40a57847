#include "ctx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static size_t env_len(char *const *envp)
{
	size_t n = 0;

	while (envp && envp[n])
		n++;
	return n;
}

int gd_ctx_init(gd_ctx *ctx, const char *root, char *const *envp)
{
	size_t n = env_len(envp);

	memset(ctx, 0, sizeof *ctx);
	ctx->fs.rootfd = -1;
	ctx->env = calloc(n + 1, sizeof *ctx->env);
	if (!ctx->env)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		ctx->env[i] = strdup(envp[i]);
		if (!ctx->env[i])
			return -ENOMEM;
	}
	if (!root)
		root = gd_ctx_getenv(ctx, "GPUDOCTOR_ROOT");
	return gd_fs_init(&ctx->fs, root && *root ? root : "/");
}

void gd_ctx_free(gd_ctx *ctx)
{
	for (size_t i = 0; ctx->env && ctx->env[i]; i++)
		free(ctx->env[i]);
	free(ctx->env);
	ctx->env = NULL;
	gd_fs_close(&ctx->fs);
	gd_vec_free(&ctx->diags);
}

static long env_find(const gd_ctx *ctx, const char *name)
{
	size_t k = strlen(name);

	for (long i = 0; ctx->env && ctx->env[i]; i++)
		if (!strncmp(ctx->env[i], name, k) && ctx->env[i][k] == '=')
			return i;
	return -1;
}

const char *gd_ctx_getenv(const gd_ctx *ctx, const char *name)
{
	long i = env_find(ctx, name);

	return i < 0 ? NULL : ctx->env[i] + strlen(name) + 1;
}

int gd_ctx_setenv(gd_ctx *ctx, const char *name, const char *value)
{
	long i = env_find(ctx, name);
	size_t n = env_len(ctx->env);
	char *entry = NULL;

	if (value) {
		size_t len = strlen(name) + strlen(value) + 2;

		entry = malloc(len);
		if (!entry)
			return -ENOMEM;
		gd_fmt(entry, len, "%s=%s", name, value);
	}
	if (i >= 0) {
		free(ctx->env[i]);
		if (entry) {
			ctx->env[i] = entry;
		} else {
			memmove(&ctx->env[i], &ctx->env[i + 1],
				(n - (size_t)i) * sizeof *ctx->env);
		}
		return 0;
	}
	if (!entry)
		return 0;
	{
		char **ne = realloc(ctx->env, (n + 2) * sizeof *ne);

		if (!ne) {
			free(entry);
			return -ENOMEM;
		}
		ctx->env = ne;
		ne[n] = entry;
		ne[n + 1] = NULL;
	}
	return 0;
}

void gd_diag_add(gd_ctx *ctx, enum gd_diag_level level, const char *source,
		 const char *fmt, ...)
{
	gd_diag *d = gd_vec_push(&ctx->diags);
	va_list ap;

	if (!d)
		return;
	d->level = level;
	gd_strlcpy(d->source, source ? source : "", sizeof d->source);
	va_start(ap, fmt);
	gd_vfmt(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
}
