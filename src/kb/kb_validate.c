/* kb/: schema checks for a parsed knowledge base (docs/kb.md): the top
 * level, sources, targets, issues, strategies and signatures, and the
 * references between them. Messages and their line numbers come from
 * kb_validate_ctx.c; the hardware lists are checked in kb_validate_hw.c,
 * libraries[] in kb_validate_libs.c. */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "core/re_cost.h"
#include "core/util.h"
#include "kb_internal.h"
#include "kb_validate.h"

/* Every "sources" list anywhere below o names ids of the top-level map.
 * Entries with a "gfx" or "id" become the current entry for messages. */
static int check_refs(struct gd_kb_vctx *v, const json_t *o)
{
	const char *k;
	json_t *m, *s;
	size_t i;

	if (json_is_array(o)) {
		json_array_foreach(o, i, m) if (check_refs(v, m) < 0) return -1;
		return 0;
	}
	if (!json_is_object(o))
		return 0;
	if (gd_kbv_str(o, "gfx"))
		gd_kbv_enter(v, "gfx", gd_kbv_str(o, "gfx"));
	else if (gd_kbv_str(o, "id"))
		gd_kbv_enter(v, "id", gd_kbv_str(o, "id"));
	json_object_foreach((json_t *)o, k, m)
	{
		if (strcmp(k, "sources")) {
			if (check_refs(v, m) < 0)
				return -1;
			continue;
		}
		if (!json_is_array(m))
			return gd_kbv_fail(v, "sources", 1,
					   "\"sources\" must be a "
					   "list of source ids");
		json_array_foreach(m, i, s)
		{
			const char *id = json_string_value(s);

			if (!id)
				return gd_kbv_fail(v, "sources", 1,
						   "a source id must "
						   "be a string");
			if (!json_object_get(v->sources, id))
				return gd_kbv_fail(
				    v, id, 0,
				    "unknown source \"%s\" "
				    "(not in the top-level \"sources\")",
				    id);
		}
	}
	return 0;
}

/* Days since 1970-01-01 of a real "YYYY-MM-DD" date, -1 otherwise (civil
 * calendar arithmetic: no timegm, which Windows lacks). */
long gd_kb_day(const char *s)
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30,
				    31, 31, 30, 31, 30, 31};
	int y, m, d, n = 0;
	long era, yoe, doy;

	if (!s || strlen(s) != 10 ||
	    sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || n != 10 ||
	    y < 1970 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] ||
	    (m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400))))
		return -1;
	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

static int check_sources_map(struct gd_kb_vctx *v, const json_t *root)
{
	long kbday = gd_kb_day(gd_kbv_str(root, "kb_date"));
	const char *k;
	json_t *s;

	if (kbday < 0)
		return gd_kbv_fail(v, "kb_date", 1,
				   "\"kb_date\" must be a date "
				   "YYYY-MM-DD");
	json_object_foreach((json_t *)v->sources, k, s)
	{
		long day;

		gd_kbv_enter(v, NULL, NULL);
		if (!json_is_object(s) || !gd_kbv_str(s, "title"))
			return gd_kbv_fail(
			    v, k, 1, "source \"%s\" needs a \"title\"", k);
		if (!gd_kbv_str_or_null(s, "url"))
			return gd_kbv_fail(v, k, 1,
					   "source \"%s\": \"url\" must be a "
					   "string or null",
					   k);
		day = gd_kb_day(gd_kbv_str(s, "checked"));
		if (day < 0)
			return gd_kbv_fail(
			    v, k, 1,
			    "source \"%s\" needs \"checked\": "
			    "the date YYYY-MM-DD its claims were last "
			    "checked",
			    k);
		if (day > kbday)
			return gd_kbv_fail(v, k, 1,
					   "source \"%s\": \"checked\" is "
					   "after kb_date",
					   k);
	}
	return 0;
}

static int check_status(struct gd_kb_vctx *v, const json_t *t, const char *key,
			const char *const *set)
{
	const json_t *o = json_object_get(t, key);

	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		return gd_kbv_fail(v, key, 1, "\"%s\" must be an object", key);
	if (!set) {
		if (json_is_boolean(json_object_get(o, "status")))
			return 0;
		return gd_kbv_fail(v, key, 1,
				   "\"%s\".\"status\" must be true or "
				   "false",
				   key);
	}
	if (!gd_kbv_one_of(gd_kbv_str(o, "status"), set))
		return gd_kbv_fail(v, key, 1,
				   "\"%s\".\"status\" has a value this "
				   "gpudoctor does not know",
				   key);
	return 0;
}

static const char *const linux_st[] = {"supported", "deprecated", "unsupported",
				       "preview",   "unknown",	  NULL};
static const char *const win_st[] = {"supported", "deprecated",	  "unsupported",
				     "preview",	  "runtime-only", "unknown",
				     NULL};
static const char *const wheel_st[] = {"yes", "no", "via-override", "unknown",
				       NULL};
static const char *const verdicts[] = {"works", "workaround", "no", "cpu",
				       NULL};

static int check_products(struct gd_kb_vctx *v, const json_t *t)
{
	json_t *p, *id;
	size_t i, j;

	if (!json_is_array(json_object_get(t, "products")))
		return gd_kbv_fail(v, "products", 1,
				   "\"products\" must be a list");
	json_array_foreach(json_object_get(t, "products"), i, p)
	{
		if (!gd_kbv_str(p, "name"))
			return gd_kbv_fail(v, "products", 1,
					   "a product needs a "
					   "\"name\"");
		json_array_foreach(json_object_get(p, "pci_ids"), j, id) if (
		    !gd_kbv_is_pci(json_string_value(
			id))) return gd_kbv_fail(v, "pci_ids", 1,
						 "PCI ids are "
						 "written \"0x731f\" (4 "
						 "lower-case "
						 "hex digits)");
	}
	return 0;
}

static int check_advice(struct gd_kb_vctx *v, const json_t *t)
{
	const json_t *adv = json_object_get(t, "advice");
	const char *k;
	json_t *a;

	if (!adv)
		return 0;
	if (!json_is_object(adv))
		return gd_kbv_fail(v, "advice", 1,
				   "\"advice\" must be an object");
	json_object_foreach((json_t *)adv, k, a) if (
	    !gd_kbv_one_of(
		gd_kbv_str(a, "verdict"),
		verdicts)) return gd_kbv_fail(v, k, 1,
					      "advice \"%s\": \"verdict\" must "
					      "be works, workaround, no or cpu",
					      k);
	return 0;
}

static int check_target_issues(struct gd_kb_vctx *v, const json_t *t)
{
	json_t *id;
	size_t i;

	json_array_foreach(json_object_get(t, "issues"), i, id)
	{
		const char *s = json_string_value(id);
		json_t *is;
		size_t j;
		int found = 0;

		json_array_foreach((json_t *)v->issues, j, is) found |=
		    gd_streq(gd_kbv_str(is, "id"), s);
		if (!found)
			return gd_kbv_fail(v, s ? s : "issues", !s,
					   "unknown issue "
					   "\"%s\" (not in \"issues\")",
					   s ? s : "(not a string)");
	}
	return 0;
}

static int check_target(struct gd_kb_vctx *v, const json_t *t,
			const json_t *seen)
{
	const char *gfx = gd_kbv_str(t, "gfx");
	const json_t *ov = json_object_get(t, "override");

	if (!json_is_object(t))
		return gd_kbv_fail(v, "targets", 1,
				   "each target must be an object");
	gd_kbv_enter(v, "gfx", gfx);
	if (!gd_kbv_is_gfx(gfx))
		return gd_kbv_fail(v, "gfx", 1,
				   "\"gfx\" must match ^gfx[0-9a-f]+$");
	if (json_object_get(seen, gfx))
		return gd_kbv_fail_dup(v, "target", gfx);
	if (json_object_get(t, "gfx_target_version") &&
	    !json_is_integer(json_object_get(t, "gfx_target_version")) &&
	    !json_is_null(json_object_get(t, "gfx_target_version")))
		return gd_kbv_fail(v, "gfx_target_version", 1,
				   "\"gfx_target_version\" "
				   "must be an integer or null");
	if (!gd_kbv_str(t, "family") || !gd_kbv_str_or_null(t, "llvm_generic"))
		return gd_kbv_fail(v, "family", 1,
				   "\"family\" must be a string and "
				   "\"llvm_generic\" a string or null");
	if (check_products(v, t) ||
	    check_status(v, t, "rocm_linux", linux_st) ||
	    check_status(v, t, "rocm_windows", win_st) ||
	    check_status(v, t, "pytorch_wheels", wheel_st) ||
	    check_status(v, t, "therock", NULL) || check_advice(v, t) ||
	    check_target_issues(v, t))
		return -1;
	if (ov && (!json_is_object(ov) || !gd_kbv_str_or_null(ov, "value")))
		return gd_kbv_fail(v, "override", 1,
				   "\"override\" must be an object "
				   "with \"value\" a string or null");
	return 0;
}

static int check_targets(struct gd_kb_vctx *v, const json_t *targets)
{
	json_t *seen = json_object(), *t;
	size_t i;
	int rc = 0;

	json_array_foreach(targets, i, t)
	{
		rc = check_target(v, t, seen);
		if (rc < 0)
			break;
		json_object_set_new(seen, gd_kbv_str(t, "gfx"), json_true());
	}
	json_decref(seen);
	return rc;
}

/* The lists whose entries are named by "id": objects, unique ids. */
static int check_ids(struct gd_kb_vctx *v, const json_t *list, const char *what)
{
	json_t *seen = json_object(), *o;
	size_t i;
	int rc = 0;

	json_array_foreach(list, i, o)
	{
		const char *id = gd_kbv_str(o, "id");

		gd_kbv_enter(v, "id", id);
		if (!id || !*id) {
			gd_kbv_enter(v, NULL, NULL);
			rc = gd_kbv_fail(v, what, 1,
					 "every entry of \"%s\" needs an "
					 "\"id\" (entry %zu)",
					 what, i);
		} else if (json_object_get(seen, id)) {
			rc = gd_kbv_fail_dup(v, what, id);
		}
		if (rc < 0)
			break;
		json_object_set_new(seen, id, json_true());
	}
	json_decref(seen);
	return rc;
}

static int check_issue(struct gd_kb_vctx *v, const json_t *is)
{
	json_t *t;
	size_t i;

	if (!gd_kbv_str(is, "title") || !gd_kbv_str_or_null(is, "url") ||
	    !gd_kbv_str_or_null(is, "workaround"))
		return gd_kbv_fail(v, "title", 1,
				   "an issue needs a \"title\"; \"url\" "
				   "and \"workaround\" are strings or null");
	json_array_foreach(json_object_get(is, "targets"), i, t) if (
	    !gd_kbv_is_gfx(
		json_string_value(t))) return gd_kbv_fail(v, "targets", 1,
							  "issue targets "
							  "must be gfx "
							  "names");
	return 0;
}

static int check_strategy(struct gd_kb_vctx *v, const json_t *st)
{
	static const char *const kinds[] = {"env", "user-step", NULL};
	const char *kind = gd_kbv_str(st, "kind");
	const json_t *env = json_object_get(st, "env");
	const char *k;
	json_t *m;

	if (!gd_kbv_one_of(kind, kinds))
		return gd_kbv_fail(v, "kind", 1,
				   "\"kind\" must be \"env\" or "
				   "\"user-step\"");
	if (!json_is_integer(json_object_get(st, "order")))
		return gd_kbv_fail(v, "order", 1,
				   "\"order\" must be an integer");
	if (env && !json_is_object(env))
		return gd_kbv_fail(v, "env", 1, "\"env\" must be an object");
	json_object_foreach((json_t *)env, k, m) if (
	    !json_is_string(
		m)) return gd_kbv_fail(v, k, 1,
				       "env value of %s must be a string", k);
	if (!strcmp(kind, "env") && !env &&
	    !json_is_array(json_object_get(st, "unset")))
		return gd_kbv_fail(v, "kind", 1,
				   "an env strategy needs \"env\" or "
				   "\"unset\"");
	if (!strcmp(kind, "user-step") && !gd_kbv_str(st, "steps"))
		return gd_kbv_fail(v, "kind", 1,
				   "a user-step strategy needs \"steps\"");
	return 0;
}

/* signatures[].origin (optional): where a message comes from, as
 * [{"file", "line", "versions", "sources"}]; "versions" and "sources" are
 * required, "file" and "line" optional (docs/kb.md). */
static int check_origin(struct gd_kb_vctx *v, const json_t *org)
{
	const json_t *o, *line;
	size_t i;

	if (!org)
		return 0;
	if (!json_is_array(org))
		return gd_kbv_fail(v, "origin", 1, "\"origin\" must be a list");
	json_array_foreach(org, i, o)
	{
		line = json_object_get(o, "line");
		if (!gd_kbv_str(o, "versions") ||
		    !json_array_size(json_object_get(o, "sources")))
			return gd_kbv_fail(v, "origin", 1,
					   "an origin needs \"versions\" "
					   "and \"sources\"");
		if ((json_object_get(o, "file") && !gd_kbv_str(o, "file")) ||
		    (line &&
		     (!json_is_integer(line) || json_integer_value(line) < 1)))
			return gd_kbv_fail(v, "origin", 1,
					   "an origin's \"file\" must be a "
					   "string and \"line\" a positive "
					   "integer");
	}
	return 0;
}

/* A signature's regex or unless compiles, within the size bound
 * (core/re_cost.h): a hostile kb must not make regcomp take gigabytes.
 * The messages name "regex" bare and other fields quoted. */
static int check_re(struct gd_kb_vctx *v, const json_t *sg, const char *field,
		    const char *re, int flags)
{
	const char *id = gd_kbv_str(sg, "id");
	const char *q = strcmp(field, "regex") ? "\"" : "";
	regex_t rx;
	char why[160];
	int rc = gd_regcomp_bounded(&rx, re, REG_EXTENDED | REG_NOSUB | flags);

	if (rc == GD_RE_TOO_LARGE)
		return gd_kbv_fail(v, field, 1,
				   "signature \"%s\": %s%s%s too large once "
				   "compiled (its repeats multiply past %d "
				   "nodes)",
				   id, q, field, q, GD_RE_MAX_COST);
	if (rc) {
		regerror(rc, &rx, why, sizeof why);
		return gd_kbv_fail(v, field, 1,
				   "signature \"%s\": %s%s%s does not compile "
				   "(POSIX ERE): %s",
				   id, q, field, q, why);
	}
	regfree(&rx);
	return 0;
}

static int check_signature(struct gd_kb_vctx *v, const json_t *sg)
{
	const char *re = gd_kbv_str(sg, "regex");
	const json_t *ic = json_object_get(sg, "icase");

	if (!re || !*re)
		return gd_kbv_fail(v, "regex", 1,
				   "a signature needs a \"regex\"");
	if (ic && !json_is_boolean(ic))
		return gd_kbv_fail(v, "icase", 1,
				   "\"icase\" must be true or false");
	if (json_object_get(sg, "minor") &&
	    !json_is_boolean(json_object_get(sg, "minor")))
		return gd_kbv_fail(v, "minor", 1,
				   "\"minor\" must be true or false");
	if (json_array_size(json_object_get(sg, "literals")) > 6)
		return gd_kbv_fail(v, "literals", 1,
				   "a signature has at most 6 \"literals\" "
				   "(explain tries a signature with more on "
				   "every line)");
	if (json_object_get(sg, "decode") &&
	    gd_kb_decode_from_name(gd_kbv_str(sg, "decode")) < 0)
		return gd_kbv_fail(v, "decode", 1,
				   "\"decode\" is one of \"oom\", \"xid\" "
				   "and \"none\" (docs/kb.md)");
	if (gd_kb_check_from_name(gd_kbv_str(sg, "check")) < 0)
		return gd_kbv_fail(v, "check", 1,
				   "\"check\" is not one of the checks "
				   "docs/kb.md lists");
	if (!gd_kbv_str(sg, "title") || !gd_kbv_str(sg, "meaning") ||
	    !gd_kbv_str(sg, "fix"))
		return gd_kbv_fail(v, "title", 1,
				   "a signature needs \"title\", "
				   "\"meaning\" and \"fix\"");
	if (check_re(v, sg, "regex", re, json_is_true(ic) ? REG_ICASE : 0))
		return -1;
	re = gd_kbv_str(sg, "unless");
	if (json_object_get(sg, "unless") && (!re || !*re))
		return gd_kbv_fail(v, "unless", 1,
				   "\"unless\" must be a non-empty regex");
	if (re && check_re(v, sg, "unless", re, 0))
		return -1;
	return check_origin(v, json_object_get(sg, "origin"));
}

typedef int (*entry_fn)(struct gd_kb_vctx *v, const json_t *o);

static int each(struct gd_kb_vctx *v, const json_t *list, entry_fn fn)
{
	json_t *o;
	size_t i;

	json_array_foreach(list, i, o)
	{
		gd_kbv_enter(v, "id", gd_kbv_str(o, "id"));
		if (fn(v, o) < 0)
			return -1;
	}
	return 0;
}

static int check_top(struct gd_kb_vctx *v, const json_t *root)
{
	static const struct {
		const char *key;
		json_type type;
	} req[] = {
	    {"schema_version", JSON_INTEGER}, {"kb_date", JSON_STRING},
	    {"sources", JSON_OBJECT},	      {"targets", JSON_ARRAY},
	    {"issues", JSON_ARRAY},	      {"strategies", JSON_ARRAY},
	    {"signatures", JSON_ARRAY},	      {"nvidia", JSON_OBJECT},
	    {"workloads", JSON_OBJECT},
	};
	json_int_t ver;

	if (!json_is_object(root))
		return gd_kbv_fail(v, NULL, 0,
				   "the knowledge base must be a JSON "
				   "object");
	for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
		const json_t *m = json_object_get(root, req[i].key);

		if (!m)
			return gd_kbv_fail(v, NULL, 0,
					   "missing top-level key \"%s\"",
					   req[i].key);
		if (json_typeof(m) != req[i].type)
			return gd_kbv_fail(v, req[i].key, 1,
					   "top-level \"%s\" has the "
					   "wrong type",
					   req[i].key);
	}
	ver = json_integer_value(json_object_get(root, "schema_version"));
	if (ver != GD_KB_SCHEMA)
		return gd_kbv_fail(v, "schema_version", 1,
				   "schema_version %lld is not "
				   "the one this gpudoctor reads (%d)",
				   (long long)ver, GD_KB_SCHEMA);
	return 0;
}

int gd_kb_validate(const json_t *root, const char *buf, size_t len,
		   const char *name, char *err, size_t errlen)
{
	struct gd_kb_vctx v = {
	    .buf = buf,
	    .len = len,
	    .name = name,
	    .err = err,
	    .errlen = errlen,
	};
	const char *k;
	json_t *m;

	if (check_top(&v, root) < 0)
		return -1;
	v.sources = json_object_get(root, "sources");
	v.issues = json_object_get(root, "issues");
	if (check_sources_map(&v, root) < 0 ||
	    check_targets(&v, json_object_get(root, "targets")) < 0 ||
	    check_ids(&v, v.issues, "issues") < 0 ||
	    each(&v, v.issues, check_issue) < 0 ||
	    check_ids(&v, json_object_get(root, "strategies"), "strategies") <
		0 ||
	    each(&v, json_object_get(root, "strategies"), check_strategy) < 0 ||
	    check_ids(&v, json_object_get(root, "signatures"), "signatures") <
		0 ||
	    each(&v, json_object_get(root, "signatures"), check_signature) <
		0 ||
	    gd_kbv_check_nvidia(&v, json_object_get(root, "nvidia")) < 0 ||
	    gd_kbv_check_hw(&v, root) < 0 ||
	    gd_kbv_check_libraries(&v, root) < 0 ||
	    gd_kbv_check_causes(&v, root) < 0)
		return -1;
	if (gd_kb_validate_kernel(root, err, errlen) < 0 ||
	    gd_kb_validate_windows(root, err, errlen) < 0 ||
	    gd_kb_validate_intel(root, err, errlen) < 0) {
		/* those sections' checks name the entry; the file goes first,
		 * as in every other message */
		char msg[400];

		gd_strlcpy(msg, err, sizeof msg);
		gd_fmt(err, errlen, "%s: %s", name ? name : "(kb)", msg);
		return -1;
	}
	/* Every "sources" list below the top level names known sources. */
	json_object_foreach((json_t *)root, k, m)
	{
		gd_kbv_enter(&v, NULL, NULL);
		if (strcmp(k, "sources") && check_refs(&v, m) < 0)
			return -1;
	}
	return 0;
}
