#include "ctx.h"

#include "plat.h"
#include "wincap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static size_t env_len(char *const *envp)
{
	size_t n = 0;

	while (envp && envp[n])
		n++;
	return n;
}

/* A capture made by `gather` holds the variables gpudoctor read on that
 * machine; replaying it with --root judges that environment (edit the
 * capture's .gpudoctor/environ to try another). Our own environment stays
 * for what runs here: profiles, colour, the commands of run and try. */
static void load_captured_env(gd_ctx *ctx)
{
	char *buf = NULL, *save = NULL, *line;
	size_t len = 0;
	/* as much as gather may write: a whole environment (ARG_MAX) */
	int rc = gd_fs_read_alloc(&ctx->fs, "/.gpudoctor/environ", 4u << 20,
				  &buf, &len);

	if (rc < 0) {
		gd_diag_add(ctx, rc == -ENOENT ? GD_DIAG_INFO : GD_DIAG_WARN,
			    ".gpudoctor/environ", "%s: it is judged with yours",
			    rc == -ENOENT ? "this tree records no environment "
					    "(a `gather` capture does)"
					  : strerror(-rc));
		free(buf);
		return;
	}
	ctx->judged = calloc(1, sizeof *ctx->judged);
	for (line = strtok_r(buf, "\n", &save); ctx->judged && line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq || eq == line)
			continue;
		*eq = '\0';
		gd_ctx_setenv(ctx, line, eq + 1);
	}
	free(buf);
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
	gd_wincap_init(ctx);
	return 0;
}

static void env_free(char **env)
{
	for (size_t i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

void gd_ctx_free(gd_ctx *ctx)
{
	env_free(ctx->env);
	env_free(ctx->judged);
	ctx->env = ctx->judged = NULL;
	gd_fs_close(&ctx->fs);
	gd_vec_free(&ctx->diags);
	gd_wincap_free(ctx);
}

int gd_env_is(const char *entry, const char *name, int fold)
{
	size_t k = strlen(name);

	return !(fold ? strncasecmp(entry, name, k)
		      : strncmp(entry, name, k)) &&
	       entry[k] == '=';
}

long gd_envv_find(char *const *env, const char *name, int fold)
{
	for (long i = 0; env && env[i]; i++)
		if (gd_env_is(env[i], name, fold))
			return i;
	return -1;
}

int gd_env_own_folds(void)
{
	return !strcmp(gd_plat_name(), "windows");
}

/* The captured environment folds when the capture is of Windows; our own
 * when we run on Windows. */
static int judged_folds(const gd_ctx *ctx)
{
	return ctx->judged ? gd_ctx_is_windows(ctx) : gd_env_own_folds();
}

static const char *env_get(char *const *env, const char *name, int fold)
{
	long i = gd_envv_find(env, name, fold);

	return i < 0 ? NULL : env[i] + strlen(name) + 1;
}

const char *gd_ctx_live_getenv(const gd_ctx *ctx, const char *name)
{
	return env_get(ctx->env, name, gd_env_own_folds());
}

const char *gd_ctx_getenv(const gd_ctx *ctx, const char *name)
{
	char *const *env = ctx->judged ? ctx->judged : ctx->env;

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

	return env_get(env, name, judged_folds(ctx));
}

int gd_ctx_setenv(gd_ctx *ctx, const char *name, const char *value)
{
	char ***envp = ctx->judged ? &ctx->judged : &ctx->env;
	char **env = *envp;
	long i = gd_envv_find(env, name, judged_folds(ctx));
	size_t n = env_len(env);
	char *entry = NULL;

	if (value) {
		size_t len = strlen(name) + strlen(value) + 2;

		entry = malloc(len);
		if (!entry)
			return -ENOMEM;
		/* a variable that exists keeps its spelling ("Path") */
		gd_fmt(entry, len, "%.*s=%s", (int)strlen(name),
		       i >= 0 ? env[i] : name, value);
	}
	if (i >= 0) {
		free(env[i]);
		if (entry)
			env[i] = entry;
		else
			memmove(&env[i], &env[i + 1],
				(n - (size_t)i) * sizeof *env);
		return 0;
	}
	if (!entry)
		return 0;
	{
		char **ne = realloc(env, (n + 2) * sizeof *ne);

		if (!ne) {
			free(entry);
			return -ENOMEM;
		}
		*envp = ne;
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
	if (gd_strlcpy(d->source, source ? source : "", sizeof d->source) >=
	    sizeof d->source) /* a path: its cut is shown */
		gd_mark_cut(d->source, sizeof d->source);
	va_start(ap, fmt);
	if (gd_vfmt(d->msg, sizeof d->msg, fmt, ap) == -ENAMETOOLONG)
		gd_mark_cut(d->msg, sizeof d->msg); /* never a silent cut */
	va_end(ap);
}
