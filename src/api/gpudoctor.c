/* The C API (include/gpudoctor.h): a handle holds a context, the check
 * built in memory (report/check_data.h) and the strings rendered from it,
 * each rendered once, when first asked for, by the renderers the command
 * line prints with. Probes never run in the app's process: a check with
 * probes on the live machine runs in the helper (`gpudoctor __api-check`),
 * whose results are read back whole. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "core/plat.h"
#include "kb/kb.h"
#include "report/check_brief.h"
#include "report/check_data.h"
#include "report/explain_json.h"

#ifndef GD_HELPER_INSTALLED
#define GD_HELPER_INSTALLED "/usr/local/bin/gpudoctor"
#endif

/* The results, in the order the helper writes them. */
enum { R_BRIEF, R_BRIEF_JSON, R_REPORT, R_REPORT_JSON, R_DIAGS, R_N };

struct gpudoctor {
	struct gd_cli own; /* the context of a handle opened here */
	struct gd_cli *v;  /* &own, or the command line's (gd_api_adopt) */
	int owns_ctx;
	int inproc; /* probes in this process: it is gpudoctor itself */
	gd_api_progress_fn on_progress;
	size_t diags_at_open; /* diagnostics of the open, kept by each check */
	char helper[4096];
	int have_data; /* d holds a check (not a helper's results) */
	int verbose;
	struct gd_check_data d;
	char *res[R_N];
	char *explained; /* the last gpudoctor_explain_json */
	char err[512];
};

unsigned gpudoctor_api_version(void)
{
	return GPUDOCTOR_API_VERSION;
}

const char *gpudoctor_version(void)
{
	return GD_VERSION;
}

static int fail(gpudoctor *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(gpudoctor *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->err, sizeof h->err, fmt, ap);
	va_end(ap);
	return GPUDOCTOR_ERROR;
}

static void default_helper(gpudoctor *h)
{
	const char *env = gd_ctx_live_getenv(&h->v->ctx, "GPUDOCTOR_HELPER");

	gd_strlcpy(h->helper, env && *env ? env : GD_HELPER_INSTALLED,
		   sizeof h->helper);
}

static int open_c(const char *root, unsigned flags, gpudoctor **out)
{
	gpudoctor *h;
	int rc;

	if (!out)
		return GPUDOCTOR_ERROR;
	*out = h = calloc(1, sizeof *h);
	if (!h)
		return GPUDOCTOR_ERROR;
	h->v = &h->own;
	h->owns_ctx = 1;
	rc = gd_ctx_init(&h->own.ctx, root ? root : "/", gd_plat_environ());
	if (rc < 0)
		return fail(h, "cannot use root '%s': %s", root ? root : "/",
			    strerror(-rc));
	if (flags & ~GPUDOCTOR_OPEN_COLOR)
		return fail(h, "gpudoctor_open: unknown flags 0x%x",
			    flags & ~GPUDOCTOR_OPEN_COLOR);
	h->own.color = (flags & GPUDOCTOR_OPEN_COLOR) != 0;
	h->own.ctx.kb = gd_kb_load_embedded();
	if (!h->own.ctx.kb)
		return fail(h, "out of memory");
	h->diags_at_open = h->own.ctx.diags.n;
	default_helper(h);
	return GPUDOCTOR_OK;
}

int gpudoctor_open(const char *root, unsigned flags, gpudoctor **out)
{
	void *loc = gd_plat_c_locale();
	int rc = open_c(root, flags, out);

	gd_plat_locale_restore(loc);
	return rc;
}

gpudoctor *gd_api_adopt(struct gd_cli *cli, gd_api_progress_fn on_progress)
{
	gpudoctor *h = calloc(1, sizeof *h);

	if (!h)
		return NULL;
	h->v = cli;
	h->inproc = 1;
	h->on_progress = on_progress;
	h->diags_at_open = cli->ctx.diags.n;
	gd_strlcpy(h->helper, cli->ctx.self_exe, sizeof h->helper);
	return h;
}

int gpudoctor_set_helper(gpudoctor *h, const char *path)
{
	if (!h)
		return GPUDOCTOR_ERROR;
	h->err[0] = '\0';
	if (!path) {
		default_helper(h);
		return GPUDOCTOR_OK;
	}
	if (!*path || strlen(path) >= sizeof h->helper)
		return fail(h, "gpudoctor_set_helper: %s path",
			    *path ? "too long a" : "an empty");
	gd_strlcpy(h->helper, path, sizeof h->helper);
	return GPUDOCTOR_OK;
}

static void clear_results(gpudoctor *h)
{
	for (int k = 0; k < R_N; k++) {
		free(h->res[k]);
		h->res[k] = NULL;
	}
	if (h->have_data)
		gd_check_free(&h->d);
	h->have_data = 0;
}

/* The helper's output: magic, verdict, then the R_N results, each ended
 * by a NUL (gd_api_helper_write). */
static int take_helper_output(gpudoctor *h, char *buf, size_t len)
{
	const char *field[R_N + 2], *p = buf, *end = buf + len;
	int n = 0;
	long rc;

	while (p < end && n < R_N + 2) {
		const char *z = memchr(p, '\0', (size_t)(end - p));

		if (!z)
			break;
		field[n++] = p;
		p = z + 1;
	}
	if (n < R_N + 2 || strcmp(field[0], GD_API_HELPER_MAGIC))
		return fail(h,
			    "the helper %s gave no results (not gpudoctor %s, "
			    "or it failed)",
			    h->helper, GD_VERSION);
	rc = strtol(field[1], NULL, 10);
	for (int k = 0; k < R_N; k++)
		if (!(h->res[k] = strdup(field[k + 2])))
			return fail(h, "out of memory");
	return rc >= GPUDOCTOR_OK && rc <= GPUDOCTOR_NO_GPU
		   ? (int)rc
		   : fail(h, "the helper %s failed", h->helper);
}

static int check_by_helper(gpudoctor *h, double timeout)
{
	char t[32], *out = NULL;
	size_t len = 0;
	int n = 0, rc;
	char *argv[12];

	if (gd_api_helper_usable(h->helper, h->err, sizeof h->err) < 0)
		return GPUDOCTOR_ERROR;
	gd_fmt(t, sizeof t, "%g", timeout);
	argv[n++] = h->helper;
	argv[n++] = (char *)"--root=/";
	argv[n++] =
	    h->v->color ? (char *)"--color=always" : (char *)"--color=never";
	argv[n++] = (char *)"__api-check";
	if (h->verbose)
		argv[n++] = (char *)"--verbose";
	argv[n++] = (char *)"--timeout";
	argv[n++] = t;
	argv[n] = NULL;
	/* the quick set's own limits (probe.c) are well inside this */
	if (gd_api_helper_run(h->helper, argv, 2 * timeout + 30, &out, &len,
			      h->err, sizeof h->err) < 0) {
		free(out);
		return GPUDOCTOR_ERROR;
	}
	rc = take_helper_output(h, out, len);
	free(out);
	return rc;
}

static int check_c(gpudoctor *h, unsigned flags, double probe_timeout_s)
{
	const unsigned known = GPUDOCTOR_CHECK_PROBES | GPUDOCTOR_CHECK_VERBOSE;
	struct gd_check_opts o = {0, 10.0, NULL};

	if (!h)
		return GPUDOCTOR_ERROR;
	clear_results(h);
	h->err[0] = '\0';
	if (!h->v->ctx.kb)
		return fail(h, "the handle was not opened");
	if (flags & ~known)
		return fail(h, "gpudoctor_check: unknown flags 0x%x",
			    flags & ~known);
	if (!(probe_timeout_s >= 0 && probe_timeout_s <= 86400))
		return fail(h, "gpudoctor_check: probe_timeout_s must be "
			       "0 to 86400 seconds");
	h->verbose = (flags & GPUDOCTOR_CHECK_VERBOSE) != 0;
	o.probes = (flags & GPUDOCTOR_CHECK_PROBES) != 0;
	if (probe_timeout_s > 0)
		o.probe_timeout = probe_timeout_s;
	if (o.probes && h->v->ctx.fs.is_slash && !h->inproc)
		return check_by_helper(h, o.probe_timeout);
	o.on_progress = h->on_progress;
	h->v->ctx.diags.n = h->diags_at_open;
	if (gd_check_collect(h->v, &o, &h->d) < 0) {
		gd_check_free(&h->d);
		return fail(h, "out of memory");
	}
	h->have_data = 1;
	return gd_check_exit_code(&h->d);
}

int gpudoctor_check(gpudoctor *h, unsigned flags, double probe_timeout_s)
{
	void *loc = gd_plat_c_locale();
	int rc = check_c(h, flags, probe_timeout_s);

	gd_plat_locale_restore(loc);
	return rc;
}

static char *render_text(gpudoctor *h, int k)
{
	struct gd_memout m;
	FILE *f = gd_memout_open(&m);

	if (!f)
		return NULL;
	if (k == R_BRIEF)
		gd_check_brief_text(h->v, f, &h->d);
	else if (k == R_REPORT)
		gd_check_text(h->v, f, &h->d, h->verbose);
	else
		gd_cli_print_diags(h->v, f);
	return gd_memout_close(&m);
}

static const char *result_c(gpudoctor *h, int k)
{
	if (!h)
		return NULL;
	if (h->res[k])
		return h->res[k];
	if (!h->have_data) {
		fail(h, "no check has run on this handle");
		return NULL;
	}
	if (k == R_BRIEF_JSON)
		h->res[k] =
		    gd_cli_json_text(h->v, gd_check_brief_json(h->v, &h->d));
	else if (k == R_REPORT_JSON)
		h->res[k] = gd_cli_json_text(h->v, gd_check_json(h->v, &h->d));
	else
		h->res[k] = render_text(h, k);
	if (!h->res[k])
		fail(h, "out of memory");
	return h->res[k];
}

static const char *result(gpudoctor *h, int k)
{
	void *loc = gd_plat_c_locale();
	const char *r = result_c(h, k);

	gd_plat_locale_restore(loc);
	return r;
}

const char *gpudoctor_brief(gpudoctor *h)
{
	return result(h, R_BRIEF);
}

const char *gpudoctor_brief_json(gpudoctor *h)
{
	return result(h, R_BRIEF_JSON);
}

const char *gpudoctor_report(gpudoctor *h)
{
	return result(h, R_REPORT);
}

const char *gpudoctor_report_json(gpudoctor *h)
{
	return result(h, R_REPORT_JSON);
}

const char *gpudoctor_diagnostics(gpudoctor *h)
{
	return result(h, R_DIAGS);
}

/* explain on the text, as `gpudoctor --json explain` prints it for a file
 * holding it ("input": "app"); the machine is the handle's, read now. */
static char *explain_doc(gpudoctor *h, struct gd_explain_log *log)
{
	struct gd_machine m;
	struct gd_inventory inv;
	struct gd_explain_result r;
	struct gd_explain_view v = {&h->v->ctx, "app", &m, &inv, &r, log, NULL};
	char *out = NULL;

	memset(&m, 0, sizeof m);
	memset(&inv, 0, sizeof inv);
	memset(&r, 0, sizeof r);
	if (gd_explain_here(&h->v->ctx, log, &m, &inv, &r) == 0)
		out = gd_cli_json_text(h->v, gd_explain_doc(&v));
	gd_explain_result_free(&r);
	gd_machine_free(&m);
	gd_inventory_free(&inv);
	return out;
}

static const char *explain_json_c(gpudoctor *h, const char *text, size_t len)
{
	struct gd_explain_log log;
	int rc;

	if (!h)
		return NULL;
	h->err[0] = '\0';
	free(h->explained);
	h->explained = NULL;
	if (!h->v->ctx.kb) {
		fail(h, "the handle did not open");
		return NULL;
	}
	if (!text && len) {
		fail(h, "gpudoctor_explain_json: text is NULL");
		return NULL;
	}
	rc = gd_explain_mem_log(text ? text : "", len, GD_EXPLAIN_HEAD_BYTES,
				GD_EXPLAIN_TAIL_BYTES, &log);
	if (rc < 0) {
		fail(h, "explain: %s", strerror(-rc));
		return NULL;
	}
	h->explained = explain_doc(h, &log);
	gd_explain_log_free(&log);
	if (!h->explained)
		fail(h, "out of memory");
	return h->explained;
}

const char *gpudoctor_explain_json(gpudoctor *h, const char *text, size_t len)
{
	void *loc = gd_plat_c_locale();
	const char *r = explain_json_c(h, text, len);

	gd_plat_locale_restore(loc);
	return r;
}

const char *gpudoctor_errmsg(const gpudoctor *h)
{
	return h ? h->err : "no handle (NULL)";
}

int gd_api_helper_write(gpudoctor *h, int verdict, FILE *f)
{
	fprintf(f, "%s%c%d%c", GD_API_HELPER_MAGIC, 0, verdict, 0);
	for (int k = 0; k < R_N; k++) {
		const char *s = result(h, k);

		if (!s)
			return -1;
		fputs(s, f);
		fputc('\0', f);
	}
	return fflush(f) ? -1 : 0;
}

void gpudoctor_close(gpudoctor *h)
{
	if (!h)
		return;
	clear_results(h);
	free(h->explained);
	if (h->owns_ctx) {
		gd_kb_free(h->own.ctx.kb);
		gd_ctx_free(&h->own.ctx);
	}
	free(h);
}
