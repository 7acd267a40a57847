#include "ctx.h"

#include <errno.h>
#include <fcntl.h>
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

/* A capture made by `gather` holds the variables gpudoctor read on that
 * machine; replaying it with --root judges that environment, not ours (edit
 * the capture's .gpudoctor/environ to try another). */
static void load_captured_env(gd_ctx *ctx)
{
	char buf[GD_FS_SMALL];
	char *save = NULL, *line;

	if (gd_fs_read(&ctx->fs, "/.gpudoctor/environ", buf, sizeof buf, NULL) < 0)
		return;
	for (size_t i = 0; ctx->env[i]; i++)
		free(ctx->env[i]);
	ctx->env[0] = NULL;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq || eq == line)
			continue;
		*eq = '\0';
		gd_ctx_setenv(ctx, line, eq + 1);
	}
}

int gd_ctx_init(gd_ctx *ctx, const char *root, char *const *envp)
{
	size_t n = env_len(envp);
	int rc;

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
	rc = gd_fs_init(&ctx->fs, root && *root ? root : "/");
	if (rc < 0)
		return rc;
	if (!ctx->fs.is_slash)
		load_captured_env(ctx);
	return 0;
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

	if (ctx->env_read) {
		size_t k;

		for (k = 0; k < ctx->env_read->n; k++)
			if (!strcmp(ctx->env_read->v[k], name))
				break;
		if (k == ctx->env_read->n) {
			char **slot = gd_vec_push(ctx->env_read);

			if (slot && !(*slot = strdup(name)))
				ctx->env_read->n--;
		}
	}

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
