/* probe/diag: when a backend's init fails, run that init once more in a
 * supervised child with the runtime's own diagnostics switched on, the way
 * a person would (the Windows field report found its missing amd_comgr
 * with AMD_LOG_LEVEL=4), and keep what it says: the runtime's lines
 * (bounded) and, from ld.so's LD_DEBUG=libs, the libraries it searched for
 * and never found (a driver that dlopens a dependency at run time, as
 * NVIDIA's Vulkan ICD does libEGL.so.1, fails without a word otherwise).
 * Picking the decisive lines and naming the cause is doctor/'s
 * (probe_cause.c); docs/probe.md, "Diagnostics". On Windows the same
 * re-run sets the variables that exist there (libnames_win32.c), without
 * a loader trace: there is none to switch on with a variable. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "libnames.h"
#include "probe_int.h"
#include "supervisor.h"

/* The variables each runtime reads for its own diagnostics, per system:
 * libnames_posix.c, libnames_win32.c. */
const char *gd_probe_diag_env(const char *backend)
{
	return gd_lib_diag_env(backend);
}

const struct gd_probe_diag *gd_probe_diag_of(const struct gd_probe_report *r,
					     const char *backend)
{
	for (size_t i = 0; i < r->diags.n; i++)
		if (!strcmp(r->diags.v[i].backend, backend))
			return &r->diags.v[i];
	return NULL;
}

const struct gd_probe_diag *gd_probe_diag_for(const struct gd_probe_report *r,
					      const struct gd_probe_result *x)
{
	if (strcmp(x->op, gd_op_name(GD_OP_INIT)))
		return NULL;
	for (size_t i = 0; i < r->diags.n; i++) {
		const struct gd_probe_diag *dg = &r->diags.v[i];
		size_t n = strlen(dg->lib);

		if (!strcmp(dg->backend, x->backend) &&
		    (!n ||
		     (!strncmp(x->detail, dg->lib, n) && x->detail[n] == ':')))
			return dg;
	}
	return NULL;
}

/* --- ld.so's LD_DEBUG=libs lines: "     PID:\t<what>" (glibc's
 * "find library=%s [%lu]; searching", " search path=%s\t\t(%s)",
 * "  trying file=%s", "calling init: %s"; docs/probe.md, "Sources"). */

static void add_missing(struct gd_lddebug *d, const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->missing[i], name))
			return;
	if (d->n < GD_PROBE_DIAG_NOTFOUND)
		gd_strlcpy(d->missing[d->n++], name, sizeof d->missing[0]);
}

/* The stem of a soname: "libamdhip64.so.5" -> length of "libamdhip64". */
static size_t stem_len(const char *name)
{
	const char *p = strstr(name, ".so");

	return p ? (size_t)(p - name) : strlen(name);
}

/* A library that initialised: a search for it, or for another version of
 * it (the probe tries libamdhip64.so.7, .6, .5 in turn), found something. */
static void drop_missing(struct gd_lddebug *d, const char *name)
{
	size_t n = stem_len(name);

	for (int i = 0; i < d->n;)
		if (stem_len(d->missing[i]) == n &&
		    !strncmp(d->missing[i], name, n)) {
			memmove(d->missing[i], d->missing[i + 1],
				(size_t)(d->n - i - 1) * sizeof d->missing[0]);
			d->n--;
		} else {
			i++;
		}
}

/* A search that fell through to the system default path and found no file
 * there: ld.so gave up on this name. */
void gd_lddebug_end(struct gd_lddebug *d)
{
	if (d->cur[0] && d->in_system && !d->found)
		add_missing(d, d->cur);
	d->cur[0] = '\0';
	d->in_system = d->found = 0;
}

/* The text after "PID:\t", or NULL when line is not ld.so's. */
static const char *lddebug_body(const char *line)
{
	const char *p = line;

	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return p[0] == ':' && p[1] == '\t' ? p + 2 : NULL;
}

int gd_lddebug_line(struct gd_lddebug *d, const char *line)
{
	const char *b = lddebug_body(line), *v;

	if (!b)
		return 0;
	if (!*b) { /* a blank line ends a search */
		gd_lddebug_end(d);
	} else if ((v = gd_startswith(b, "find library=") ? b + 13 : NULL)) {
		size_t n = strcspn(v, " ");

		gd_lddebug_end(d);
		/* a name too long to keep is kept cut, and says so */
		if (n && gd_fmt(d->cur, sizeof d->cur, "%.*s", (int)n, v) < 0)
			gd_mark_cut(d->cur, sizeof d->cur);
	} else if (d->cur[0] && gd_startswith(b, " search path=") &&
		   strstr(b, "(system search path)")) {
		d->in_system = 1;
	} else if (d->cur[0] && d->in_system && !d->found &&
		   gd_startswith(b, "  trying file=")) {
		d->found = d->exists && d->exists(d->arg, b + 14);
	} else if (gd_startswith(b, "calling init: ")) {
		const char *s = strrchr(b + 14, '/');

		drop_missing(d, s ? s + 1 : b + 14);
	}
	return 1;
}

/* --- the re-run */

struct diag_run {
	struct gd_probe_diag *dg;
	struct gd_lddebug ld;
	size_t cap;
};

static int path_exists(void *arg, const char *path)
{
	struct stat st;

	(void)arg;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void diag_line(void *arg, int is_phase, const char *line)
{
	struct diag_run *d = arg;
	struct gd_probe_diag *dg = d->dg;
	size_t len;

	if (is_phase || gd_lddebug_line(&d->ld, line) || !line[0])
		return;
	dg->lines_seen++;
	len = strlen(line);
	if (!dg->out || dg->out_len + len + 2 > d->cap) {
		dg->truncated = dg->out != NULL;
		return;
	}
	memcpy(dg->out + dg->out_len, line, len);
	dg->out_len += len;
	dg->out[dg->out_len++] = '\n';
	dg->out[dg->out_len] = '\0';
}

/* A variable the re-run sets (or LD_DEBUG_*: ld.so reads them all), named
 * as the system compares names (Windows: any case). */
static int diag_var(const char *entry)
{
	static const char *const names[] = {
	    "AMD_LOG_LEVEL=", "VK_LOADER_DEBUG=", "OCL_ICD_DEBUG=",
	    "OCL_ICD_ENABLE_TRACE=", "LD_DEBUG"};
	int fold = gd_env_own_folds();

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t k = strlen(names[i]);

		if (!(fold ? strncasecmp(entry, names[i], k)
			   : strncmp(entry, names[i], k)))
			return 1;
	}
	return 0;
}

/* Ours, less the variables the re-run sets, plus them. NULL when out of
 * memory. */
static char **diag_envp(char *const *src, char *vars)
{
	size_t n = 0, k = 0;
	char **env, *save = NULL;
	static char *const none[] = {NULL};

	src = src ? src : none;
	while (src[n])
		n++;
	env = calloc(n + 8, sizeof *env);
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!diag_var(src[i]))
			env[k++] = src[i];
	for (char *t = strtok_r(vars, " ", &save); t && k < n + 7;
	     t = strtok_r(NULL, " ", &save))
		env[k++] = t;
	env[k] = NULL;
	return env;
}

static const struct gd_probe_result *init_of(const struct gd_pjob *j)
{
	for (size_t i = 0; i < j->results.n; i++)
		if (!strcmp(j->results.v[i].op, gd_op_name(GD_OP_INIT)))
			return &j->results.v[i];
	return NULL;
}

static void diag_exec(struct gd_pjob *j, struct gd_probe_diag *dg,
		      double timeout)
{
	struct gd_child_spec spec;
	struct gd_child_result res;
	struct diag_run d;
	char vars[200], desc[160];
	/* the same runtime as the job's (--lib: one of several HIP DLLs) */
	char *argv[] = {j->run->ctx->self_exe,
			"__probe-child",
			(char *)j->backend,
			"--only",
			"0",
			j->lib ? "--lib" : NULL,
			(char *)j->lib,
			NULL};
	char **env;

	gd_fmt(vars, sizeof vars, "%s", dg->env);
	env = diag_envp(j->run->ctx->env, vars);
	memset(&d, 0, sizeof d);
	d.dg = dg;
	d.cap = GD_PROBE_DIAG_KEEP;
	d.ld.exists = path_exists;
	dg->out = malloc(d.cap);
	if (!env || !dg->out) {
		gd_strlcpy(dg->outcome, "not re-run: out of memory",
			   sizeof dg->outcome);
		free(env);
		return;
	}
	dg->out[0] = '\0';
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.envp = env;
	spec.timeout_s = timeout;
	spec.grace_s = 0.3;
	spec.phase_pipe = 1; /* the child's own messages stay off stderr */
	spec.on_line = diag_line;
	spec.cancel = j->run->opts->cancel;
	spec.arg = &d;
	if (gd_child_run(&spec, &res) < 0) {
		gd_strlcpy(dg->outcome,
			   "not re-run: cannot create pipes or fork",
			   sizeof dg->outcome);
		free(env);
		return;
	}
	free(env);
	gd_lddebug_end(&d.ld);
	dg->ran = 1;
	gd_child_describe(&res, desc, sizeof desc);
	gd_fmt(dg->outcome, sizeof dg->outcome, "%s after %.1f s%s", desc,
	       res.seconds,
	       res.lines_cut ? "; a line over 16 MiB was cut (its end unread)"
			     : "");
	dg->n_not_found = d.ld.n;
	memcpy(dg->not_found, d.ld.missing, sizeof dg->not_found);
}

void gd_probe_diag_run(struct gd_pjob *j)
{
	const struct gd_probe_result *init = init_of(j);
	struct gd_probe_diag *dg;
	double left = j->run->deadline - gd_now();
	const char *env;

	if (j->only >= 0 || !init || init->status == GD_PS_OK ||
	    init->status == GD_PS_WRONG)
		return;
	dg = gd_vec_push(&j->diags);
	if (!dg)
		return;
	memset(dg, 0, sizeof *dg);
	gd_strlcpy(dg->backend, j->backend, sizeof dg->backend);
	gd_strlcpy(dg->lib, j->lib ? j->lib : "", sizeof dg->lib);
	env = gd_probe_diag_env(j->backend);
	gd_fmt(dg->env, sizeof dg->env, "%s%s%s", env,
	       *env && *gd_lib_loader_debug_env() ? " " : "",
	       gd_lib_loader_debug_env());
	/* a library that is absent or a backend skipped for want of a GPU
	 * has nothing more to say; doctor/ still names the cause */
	/* a hang would hang again: a second deadline's wait for lines the
	 * user can get with the variables above (docs/probe.md) */
	if (init->status == GD_PS_MISSING || init->status == GD_PS_SKIPPED ||
	    init->status == GD_PS_HANG) {
		dg->env[0] = '\0';
		gd_fmt(dg->outcome, sizeof dg->outcome, "not re-run: init %s",
		       gd_probe_status_name(init->status));
		return;
	}
	if (!dg->env[0]) { /* nvcuda.dll: nothing to switch on */
		gd_strlcpy(dg->outcome,
			   "not re-run: the runtime has no diagnostics "
			   "switch here",
			   sizeof dg->outcome);
		return;
	}
	if ((j->run->opts->cancel && *j->run->opts->cancel) || left < 0.5) {
		gd_strlcpy(
		    dg->outcome,
		    "not re-run: the whole-run deadline (--total-timeout) "
		    "passed",
		    sizeof dg->outcome);
		return;
	}
	diag_exec(j, dg,
		  left - 0.2 < j->run->timeout ? left - 0.2 : j->run->timeout);
}
