/* A native app of the C API, built by tests/scripts/test_capi.sh against an
 * installed libgpudoctor (pkg-config gpudoctor), as an app would be.
 *
 *   api_check show WHAT ROOT [probes]   print one result of a check of
 *       ROOT ("-": this machine); WHAT is brief, brief-json, report,
 *       report-json or diags; exit status: the check's verdict
 *       (with probes: 98 when a GPU runtime got mapped into this process)
 *   api_check errors ROOT BAD_ROOT      the error paths, "ok: ..." lines
 *   api_check explain ROOT FILE          gpudoctor_explain_json on FILE's
 *       bytes as the app holds them, printed
 * GD_API_TIMEOUT_MS=N sets show's probe timeout to N ms.
 * With GD_API_SETLOCALE=1 in its environment the app first takes the
 * user's locale (setlocale(LC_ALL, "")), as GUI apps do; it says on stderr
 * "decimal point: ','" when that locale writes 1.5 as "1,5", so the test
 * knows the locale really applied.
 */
#include <gpudoctor.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

static void expect(int cond, const char *what)
{
	printf("%s: %s\n", cond ? "ok" : "FAIL", what);
	if (!cond)
		fails++;
}

static const char *result(gpudoctor *h, const char *what)
{
	if (!strcmp(what, "brief"))
		return gpudoctor_brief(h);
	if (!strcmp(what, "brief-json"))
		return gpudoctor_brief_json(h);
	if (!strcmp(what, "report"))
		return gpudoctor_report(h);
	if (!strcmp(what, "report-json"))
		return gpudoctor_report_json(h);
	if (!strcmp(what, "diags"))
		return gpudoctor_diagnostics(h);
	return NULL;
}

/* Whether a GPU runtime is mapped into this process. */
static int runtime_loaded(void)
{
	static const char *const libs[] = {"libcuda.so",    "libamdhip64",
					   "libvulkan.so",  "libOpenCL.so",
					   "libvulkan_lvp", "libpocl"};
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
			if (strstr(line, libs[i])) {
				fprintf(stderr, "mapped: %s", line);
				found = 1;
			}
	fclose(f);
	return found;
}

static int show(const char *what, const char *root, int probes)
{
	gpudoctor *h = NULL;
	const char *s, *ms;
	int rc;

	if (gpudoctor_open(strcmp(root, "-") ? root : NULL, 0, &h) !=
	    GPUDOCTOR_OK) {
		fprintf(stderr, "open: %s\n", gpudoctor_errmsg(h));
		gpudoctor_close(h);
		return 99;
	}
	/* GD_API_TIMEOUT_MS: the probe timeout, in ms (read as an integer: the
	 * app may be in a comma locale) */
	ms = getenv("GD_API_TIMEOUT_MS");
	rc = gpudoctor_check(h, probes ? GPUDOCTOR_CHECK_PROBES : 0,
			     ms ? atoi(ms) / 1000.0 : 0);
	s = rc == GPUDOCTOR_ERROR ? NULL : result(h, what);
	if (!s) {
		fprintf(stderr, "check: %s\n", gpudoctor_errmsg(h));
		gpudoctor_close(h);
		return 99;
	}
	fputs(s, stdout);
	if (probes && runtime_loaded() != 0)
		rc = 98;
	gpudoctor_close(h);
	return rc;
}

static void null_args(void)
{
	expect(gpudoctor_api_version() == GPUDOCTOR_API_VERSION,
	       "gpudoctor_api_version() is the header's");
	expect(gpudoctor_version() && *gpudoctor_version(),
	       "gpudoctor_version() names a release");
	expect(gpudoctor_open(NULL, 0, NULL) == GPUDOCTOR_ERROR,
	       "open with out NULL is an error");
	expect(gpudoctor_check(NULL, 0, 0) == GPUDOCTOR_ERROR,
	       "check(NULL) is an error");
	expect(gpudoctor_set_helper(NULL, "x") == GPUDOCTOR_ERROR,
	       "set_helper(NULL) is an error");
	expect(!gpudoctor_brief(NULL) && !gpudoctor_brief_json(NULL) &&
		   !gpudoctor_report(NULL) && !gpudoctor_report_json(NULL) &&
		   !gpudoctor_diagnostics(NULL),
	       "results of NULL are NULL");
	expect(gpudoctor_errmsg(NULL) != NULL, "errmsg(NULL) is a string");
	expect(!gpudoctor_explain_json(NULL, "x", 1),
	       "explain_json(NULL) is NULL");
	gpudoctor_close(NULL);
}

/* FILE read whole into memory, then explained, as an app would its own
 * caught error text. */
static int explain(const char *root, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, k;
	gpudoctor *h = NULL;
	const char *out;
	int rc = 1;

	if (!f)
		return 2;
	do {
		if (n + 65536 > cap) {
			char *nb = realloc(buf, cap = n + 65536 + cap);

			if (!nb)
				break;
			buf = nb;
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k);
	fclose(f);
	if (gpudoctor_open(strcmp(root, "-") ? root : NULL, 0, &h) ==
		GPUDOCTOR_OK &&
	    (out = gpudoctor_explain_json(h, buf, n))) {
		fputs(out, stdout);
		rc = 0;
	} else {
		fprintf(stderr, "explain: %s\n", gpudoctor_errmsg(h));
	}
	/* a NULL text of some length is refused, the handle stays usable */
	if (h && !rc &&
	    (gpudoctor_explain_json(h, NULL, 3) || !*gpudoctor_errmsg(h) ||
	     !gpudoctor_explain_json(h, "", 0)))
		rc = 1;
	gpudoctor_close(h);
	free(buf);
	return rc;
}

static void bad_root(const char *bad)
{
	gpudoctor *h = NULL;
	int rc = gpudoctor_open(bad, 0, &h);

	expect(rc == GPUDOCTOR_ERROR && h, "a missing root fails the open");
	expect(h && strstr(gpudoctor_errmsg(h), "cannot use root") &&
		   strstr(gpudoctor_errmsg(h), bad),
	       "... and the message names it");
	expect(gpudoctor_check(h, 0, 0) == GPUDOCTOR_ERROR,
	       "... and a check on that handle fails");
	gpudoctor_close(h);
}

static void misuse(const char *root)
{
	gpudoctor *h = NULL;

	expect(gpudoctor_open(root, 0x80, &h) == GPUDOCTOR_ERROR &&
		   strstr(gpudoctor_errmsg(h), "unknown flags"),
	       "unknown open flags are refused");
	gpudoctor_close(h);
	h = NULL;
	expect(gpudoctor_open(root, 0, &h) == GPUDOCTOR_OK, "open a root");
	expect(!gpudoctor_brief(h) &&
		   strstr(gpudoctor_errmsg(h), "no check has run"),
	       "no result before a check");
	expect(gpudoctor_check(h, 0x80, 0) == GPUDOCTOR_ERROR,
	       "unknown check flags are refused");
	expect(gpudoctor_check(h, 0, -1) == GPUDOCTOR_ERROR,
	       "a negative probe timeout is refused");
	expect(gpudoctor_check(h, 0, 0) != GPUDOCTOR_ERROR &&
		   !*gpudoctor_errmsg(h),
	       "a check clears the last error");
	/* a captured machine has no runtimes: no helper is needed */
	expect(gpudoctor_set_helper(h, "/nonexistent/gpudoctor") ==
		       GPUDOCTOR_OK &&
		   gpudoctor_check(h, GPUDOCTOR_CHECK_PROBES, 0) !=
		       GPUDOCTOR_ERROR,
	       "probes on a captured machine need no helper");
	expect(gpudoctor_report_json(h) == gpudoctor_report_json(h),
	       "a result is rendered once and kept by the handle");
	gpudoctor_close(h);
}

static void no_helper(void)
{
	gpudoctor *h = NULL;

	expect(gpudoctor_open(NULL, 0, &h) == GPUDOCTOR_OK,
	       "open this machine");
	gpudoctor_set_helper(h, "/nonexistent/gpudoctor");
	expect(gpudoctor_check(h, GPUDOCTOR_CHECK_PROBES, 0) ==
		       GPUDOCTOR_ERROR &&
		   strstr(gpudoctor_errmsg(h), "/nonexistent/gpudoctor") &&
		   strstr(gpudoctor_errmsg(h), "GPUDOCTOR_HELPER"),
	       "a missing helper fails a check with probes, named");
	gpudoctor_set_helper(h, "/dev/null");
	expect(gpudoctor_check(h, GPUDOCTOR_CHECK_PROBES, 0) ==
		       GPUDOCTOR_ERROR &&
		   strstr(gpudoctor_errmsg(h), "not an executable"),
	       "a helper that is not a program is refused");
	gpudoctor_set_helper(h, "/bin/true");
	expect(gpudoctor_check(h, GPUDOCTOR_CHECK_PROBES, 0) ==
		       GPUDOCTOR_ERROR &&
		   strstr(gpudoctor_errmsg(h), "gave no results"),
	       "a helper that is not gpudoctor gives an error, not a crash");
	expect(gpudoctor_check(h, 0, 0) != GPUDOCTOR_ERROR,
	       "without probes no helper is needed");
	gpudoctor_close(h);
}

int main(int argc, char **argv)
{
	const char *loc = getenv("GD_API_SETLOCALE");

	if (loc && !strcmp(loc, "1")) {
		char b[16];

		setlocale(LC_ALL, "");
		snprintf(b, sizeof b, "%.1f", 1.5);
		fprintf(stderr, "decimal point: '%c'\n", b[1]);
	}
	if (argc >= 4 && !strcmp(argv[1], "show"))
		return show(argv[2], argv[3],
			    argc > 4 && !strcmp(argv[4], "probes"));
	if (argc == 4 && !strcmp(argv[1], "explain"))
		return explain(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "errors")) {
		null_args();
		bad_root(argv[3]);
		misuse(argv[2]);
		no_helper();
		return fails ? 1 : 0;
	}
	fprintf(stderr, "usage: api_check show WHAT ROOT [probes] | "
			"errors ROOT BAD_ROOT | explain ROOT FILE\n");
	return 2;
}
