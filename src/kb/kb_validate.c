/* kb/: schema checks for a parsed knowledge base (docs/kb.md). jansson
 * tells the line of a syntax error but not where a value sits, so errors
 * about content find their line by searching the text for the entry's
 * "gfx"/"id" member and then for the offending key or value after it.
 * The search only runs when there is an error: loading stays cheap. */
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "kb_internal.h"

struct vctx {
	const json_t *sources, *issues;
	const char *buf, *name;
	size_t len;
	const char *ekey, *eval; /* the entry being checked: "gfx": "gfx1010" */
	char *err;
	size_t errlen;
};

#define NOWHERE ((size_t)-1)

static const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static size_t line_at(const struct vctx *v, size_t off)
{
	size_t line = 1;

	for (size_t i = 0; i < off && i < v->len; i++)
		line += v->buf[i] == '\n';
	return line;
}

/* Offset of the JSON string "s" at or after from, or NOWHERE. */
static size_t find_quoted(const struct vctx *v, size_t from, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = from; i + n + 2 <= v->len; i++)
		if (v->buf[i] == '"' && v->buf[i + n + 1] == '"' &&
		    !memcmp(v->buf + i + 1, s, n))
			return i;
	return NOWHERE;
}

static size_t skip_ws(const struct vctx *v, size_t p)
{
	while (p < v->len && strchr(" \t\r\n", v->buf[p]))
		p++;
	return p;
}

/* Offset of member "key" (followed by ':'), with value "val" when val is
 * given, at or after from; NOWHERE when absent. */
static size_t find_member(const struct vctx *v, size_t from, const char *key,
			  const char *val)
{
	size_t off = from;

	while ((off = find_quoted(v, off, key)) != NOWHERE) {
		size_t p = skip_ws(v, off + strlen(key) + 2);

		if (p < v->len && v->buf[p] == ':') {
			p = skip_ws(v, p + 1);
			if (!val || find_quoted(v, p, val) == p)
				return off;
		}
		off++;
	}
	return NOWHERE;
}

/* Where the current entry starts (0 when unknown). */
static size_t entry_off(const struct vctx *v)
{
	size_t off;

	if (!v->ekey)
		return 0;
	off = find_member(v, 0, v->ekey, v->eval);
	return off == NOWHERE ? 0 : off;
}

/* what: a key (is_key) or a string value to point at inside the entry. */
static int fail(struct vctx *v, const char *what, int is_key, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));
static int fail(struct vctx *v, const char *what, int is_key, const char *fmt,
		...)
{
	char msg[384];
	size_t off = entry_off(v), at = NOWHERE;
	va_list ap;

	va_start(ap, fmt);
	gd_vfmt(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (what)
		at = is_key ? find_member(v, off, what, NULL)
			    : find_quoted(v, off, what);
	if (v->err && v->errlen)
		gd_fmt(v->err, v->errlen, "%s:%zu: %s", v->name,
		       line_at(v, at == NOWHERE ? off : at), msg);
	return -1;
}

/* A duplicate: point at the second entry with the same name. */
static int fail_dup(struct vctx *v, const char *what, const char *name)
{
	size_t off = find_member(v, entry_off(v) + 1, v->ekey, v->eval);

	if (v->err && v->errlen)
		gd_fmt(v->err, v->errlen, "%s:%zu: duplicate %s \"%s\"",
		       v->name, line_at(v, off == NOWHERE ? 0 : off), what,
		       name);
	return -1;
}

static void enter(struct vctx *v, const char *key, const char *val)
{
	v->ekey = key;
	v->eval = val;
}

static int str_or_null(const json_t *o, const char *key)
{
	const json_t *m = json_object_get(o, key);

	return !m || json_is_null(m) || json_is_string(m);
}

static int one_of(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (!strcmp(s, *set))
			return 1;
	return 0;
}

static int is_gfx(const char *s)
{
	if (!s || strncmp(s, "gfx", 3) || !s[3] || strlen(s) > 12)
		return 0;
	return strspn(s + 3, "0123456789abcdef") == strlen(s + 3);
}

static int is_pci(const char *s)
{
	return s && strlen(s) == 6 && !strncmp(s, "0x", 2) &&
	       strspn(s + 2, "0123456789abcdef") == 4;
}

/* Every "sources" list anywhere below o names ids of the top-level map.
 * Entries with a "gfx" or "id" become the current entry for messages. */
static int check_refs(struct vctx *v, const json_t *o)
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
	if (jstr(o, "gfx"))
		enter(v, "gfx", jstr(o, "gfx"));
	else if (jstr(o, "id"))
		enter(v, "id", jstr(o, "id"));
	json_object_foreach((json_t *)o, k, m)
	{
		if (strcmp(k, "sources")) {
			if (check_refs(v, m) < 0)
				return -1;
			continue;
		}
		if (!json_is_array(m))
			return fail(v, "sources", 1,
				    "\"sources\" must be a "
				    "list of source ids");
		json_array_foreach(m, i, s)
		{
			const char *id = json_string_value(s);

			if (!id)
				return fail(v, "sources", 1,
					    "a source id must "
					    "be a string");
			if (!json_object_get(v->sources, id))
				return fail(
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

static int check_sources_map(struct vctx *v, const json_t *root)
{
	long kbday = gd_kb_day(jstr(root, "kb_date"));
	const char *k;
	json_t *s;

	if (kbday < 0)
		return fail(v, "kb_date", 1,
			    "\"kb_date\" must be a date "
			    "YYYY-MM-DD");
	json_object_foreach((json_t *)v->sources, k, s)
	{
		long day;

		enter(v, NULL, NULL);
		if (!json_is_object(s) || !jstr(s, "title"))
			return fail(v, k, 1, "source \"%s\" needs a \"title\"",
				    k);
		if (!str_or_null(s, "url"))
			return fail(v, k, 1,
				    "source \"%s\": \"url\" must be a "
				    "string or null",
				    k);
		day = gd_kb_day(jstr(s, "checked"));
		if (day < 0)
			return fail(v, k, 1,
				    "source \"%s\" needs \"checked\": "
				    "the date YYYY-MM-DD its claims were last "
				    "checked",
				    k);
		if (day > kbday)
			return fail(v, k, 1,
				    "source \"%s\": \"checked\" is "
				    "after kb_date",
				    k);
	}
	return 0;
}

static int check_status(struct vctx *v, const json_t *t, const char *key,
			const char *const *set)
{
	const json_t *o = json_object_get(t, key);

	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		return fail(v, key, 1, "\"%s\" must be an object", key);
	if (!set) {
		if (json_is_boolean(json_object_get(o, "status")))
			return 0;
		return fail(v, key, 1,
			    "\"%s\".\"status\" must be true or "
			    "false",
			    key);
	}
	if (!one_of(jstr(o, "status"), set))
		return fail(v, key, 1,
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

static int check_products(struct vctx *v, const json_t *t)
{
	json_t *p, *id;
	size_t i, j;

	if (!json_is_array(json_object_get(t, "products")))
		return fail(v, "products", 1, "\"products\" must be a list");
	json_array_foreach(json_object_get(t, "products"), i, p)
	{
		if (!jstr(p, "name"))
			return fail(v, "products", 1,
				    "a product needs a "
				    "\"name\"");
		json_array_foreach(json_object_get(p, "pci_ids"), j, id) if (
		    !is_pci(json_string_value(
			id))) return fail(v, "pci_ids", 1,
					  "PCI ids are "
					  "written \"0x731f\" (4 lower-case "
					  "hex digits)");
	}
	return 0;
}

static int check_advice(struct vctx *v, const json_t *t)
{
	const json_t *adv = json_object_get(t, "advice");
	const char *k;
	json_t *a;

	if (!adv)
		return 0;
	if (!json_is_object(adv))
		return fail(v, "advice", 1, "\"advice\" must be an object");
	json_object_foreach((json_t *)adv, k, a) if (
	    !one_of(jstr(a, "verdict"),
		    verdicts)) return fail(v, k, 1,
					   "advice \"%s\": \"verdict\" must "
					   "be works, workaround, no or cpu",
					   k);
	return 0;
}

static int check_target_issues(struct vctx *v, const json_t *t)
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
		    gd_streq(jstr(is, "id"), s);
		if (!found)
			return fail(v, s ? s : "issues", !s,
				    "unknown issue "
				    "\"%s\" (not in \"issues\")",
				    s ? s : "(not a string)");
	}
	return 0;
}

static int check_target(struct vctx *v, const json_t *t, const json_t *seen)
{
	const char *gfx = jstr(t, "gfx");
	const json_t *ov = json_object_get(t, "override");

	if (!json_is_object(t))
		return fail(v, "targets", 1, "each target must be an object");
	enter(v, "gfx", gfx);
	if (!is_gfx(gfx))
		return fail(v, "gfx", 1, "\"gfx\" must match ^gfx[0-9a-f]+$");
	if (json_object_get(seen, gfx))
		return fail_dup(v, "target", gfx);
	if (json_object_get(t, "gfx_target_version") &&
	    !json_is_integer(json_object_get(t, "gfx_target_version")) &&
	    !json_is_null(json_object_get(t, "gfx_target_version")))
		return fail(v, "gfx_target_version", 1,
			    "\"gfx_target_version\" "
			    "must be an integer or null");
	if (!jstr(t, "family") || !str_or_null(t, "llvm_generic"))
		return fail(v, "family", 1,
			    "\"family\" must be a string and "
			    "\"llvm_generic\" a string or null");
	if (check_products(v, t) ||
	    check_status(v, t, "rocm_linux", linux_st) ||
	    check_status(v, t, "rocm_windows", win_st) ||
	    check_status(v, t, "pytorch_wheels", wheel_st) ||
	    check_status(v, t, "therock", NULL) || check_advice(v, t) ||
	    check_target_issues(v, t))
		return -1;
	if (ov && (!json_is_object(ov) || !str_or_null(ov, "value")))
		return fail(v, "override", 1,
			    "\"override\" must be an object "
			    "with \"value\" a string or null");
	return 0;
}

static int check_targets(struct vctx *v, const json_t *targets)
{
	json_t *seen = json_object(), *t;
	size_t i;
	int rc = 0;

	json_array_foreach(targets, i, t)
	{
		rc = check_target(v, t, seen);
		if (rc < 0)
			break;
		json_object_set_new(seen, jstr(t, "gfx"), json_true());
	}
	json_decref(seen);
	return rc;
}

/* The lists whose entries are named by "id": objects, unique ids. */
static int check_ids(struct vctx *v, const json_t *list, const char *what)
{
	json_t *seen = json_object(), *o;
	size_t i;
	int rc = 0;

	json_array_foreach(list, i, o)
	{
		const char *id = jstr(o, "id");

		enter(v, "id", id);
		if (!id || !*id) {
			enter(v, NULL, NULL);
			rc = fail(v, what, 1,
				  "every entry of \"%s\" needs an "
				  "\"id\" (entry %zu)",
				  what, i);
		} else if (json_object_get(seen, id)) {
			rc = fail_dup(v, what, id);
		}
		if (rc < 0)
			break;
		json_object_set_new(seen, id, json_true());
	}
	json_decref(seen);
	return rc;
}

static int check_issue(struct vctx *v, const json_t *is)
{
	json_t *t;
	size_t i;

	if (!jstr(is, "title") || !str_or_null(is, "url") ||
	    !str_or_null(is, "workaround"))
		return fail(v, "title", 1,
			    "an issue needs a \"title\"; \"url\" "
			    "and \"workaround\" are strings or null");
	json_array_foreach(
	    json_object_get(is, "targets"), i,
	    t) if (!is_gfx(json_string_value(t))) return fail(v, "targets", 1,
							      "issue targets "
							      "must be gfx "
							      "names");
	return 0;
}

static int check_strategy(struct vctx *v, const json_t *st)
{
	static const char *const kinds[] = {"env", "user-step", NULL};
	const char *kind = jstr(st, "kind");
	const json_t *env = json_object_get(st, "env");
	const char *k;
	json_t *m;

	if (!one_of(kind, kinds))
		return fail(v, "kind", 1,
			    "\"kind\" must be \"env\" or "
			    "\"user-step\"");
	if (!json_is_integer(json_object_get(st, "order")))
		return fail(v, "order", 1, "\"order\" must be an integer");
	if (env && !json_is_object(env))
		return fail(v, "env", 1, "\"env\" must be an object");
	json_object_foreach((json_t *)env, k, m) if (
	    !json_is_string(
		m)) return fail(v, k, 1, "env value of %s must be a string", k);
	if (!strcmp(kind, "env") && !env &&
	    !json_is_array(json_object_get(st, "unset")))
		return fail(v, "kind", 1,
			    "an env strategy needs \"env\" or "
			    "\"unset\"");
	if (!strcmp(kind, "user-step") && !jstr(st, "steps"))
		return fail(v, "kind", 1,
			    "a user-step strategy needs \"steps\"");
	return 0;
}

static int check_signature(struct vctx *v, const json_t *sg)
{
	const char *re = jstr(sg, "regex");
	const json_t *ic = json_object_get(sg, "icase");
	regex_t rx;
	char why[160];
	int rc;

	if (!re || !*re)
		return fail(v, "regex", 1, "a signature needs a \"regex\"");
	if (ic && !json_is_boolean(ic))
		return fail(v, "icase", 1, "\"icase\" must be true or false");
	if (gd_kb_check_from_name(jstr(sg, "check")) < 0)
		return fail(v, "check", 1,
			    "\"check\" is not one of the checks "
			    "docs/kb.md lists");
	if (!jstr(sg, "title") || !jstr(sg, "meaning") || !jstr(sg, "fix"))
		return fail(v, "title", 1,
			    "a signature needs \"title\", "
			    "\"meaning\" and \"fix\"");
	rc = regcomp(&rx, re,
		     REG_EXTENDED | REG_NOSUB |
			 (json_is_true(ic) ? REG_ICASE : 0));
	if (rc) {
		regerror(rc, &rx, why, sizeof why);
		return fail(v, "regex", 1,
			    "signature \"%s\": regex does not "
			    "compile (POSIX ERE): %s",
			    jstr(sg, "id"), why);
	}
	regfree(&rx);
	return 0;
}

typedef int (*entry_fn)(struct vctx *v, const json_t *o);

static int each(struct vctx *v, const json_t *list, entry_fn fn)
{
	json_t *o;
	size_t i;

	json_array_foreach(list, i, o)
	{
		enter(v, "id", jstr(o, "id"));
		if (fn(v, o) < 0)
			return -1;
	}
	return 0;
}

static int check_nvidia(struct vctx *v, const json_t *nv)
{
	json_t *o;
	size_t i;

	enter(v, NULL, NULL);
	if (!json_is_array(json_object_get(nv, "gpus")) ||
	    !json_is_array(json_object_get(nv, "compute_capabilities")) ||
	    !json_is_array(json_object_get(nv, "cuda_driver_min")))
		return fail(v, "nvidia", 1,
			    "\"nvidia\" needs the lists \"gpus\", "
			    "\"compute_capabilities\" and \"cuda_driver_min\"");
	json_array_foreach(json_object_get(nv, "gpus"), i, o)
	{
		enter(v, "pci_id", jstr(o, "pci_id"));
		if (!is_pci(jstr(o, "pci_id")) || !jstr(o, "name") ||
		    !jstr(o, "sm"))
			return fail(v, "gpus", 1,
				    "each NVIDIA GPU needs "
				    "\"pci_id\" (0x2330), \"name\" and \"sm\"");
	}
	json_array_foreach(json_object_get(nv, "compute_capabilities"), i, o)
	{
		const char *sm = jstr(o, "sm");

		enter(v, "sm", sm);
		if (!sm || strncmp(sm, "sm_", 3) || !jstr(o, "cc"))
			return fail(
			    v, "compute_capabilities", 1,
			    "each compute "
			    "capability needs \"sm\" (sm_90) and \"cc\"");
	}
	json_array_foreach(json_object_get(nv, "cuda_driver_min"), i, o)
	{
		enter(v, "cuda", jstr(o, "cuda"));
		if (!jstr(o, "cuda") || !str_or_null(o, "linux") ||
		    !str_or_null(o, "windows"))
			return fail(v, "cuda_driver_min", 1,
				    "each row needs "
				    "\"cuda\"; \"linux\"/\"windows\" strings "
				    "or null");
	}
	return 0;
}

/* Optional hardware lists: pci_not_gpu (display devices that are no GPU),
 * amd_no_kfd (AMD families KFD never supported) and nvidia_chips (pci.ids
 * chip-name prefix -> sm). */
static int check_hw(struct vctx *v, const json_t *root)
{
	static const char *const kinds[] = {"bmc", "emulated", NULL};
	const json_t *o, *id;
	size_t i, j;

	json_array_foreach(json_object_get(root, "pci_not_gpu"), i, o)
	{
		enter(v, "name", jstr(o, "name"));
		if (!is_pci(jstr(o, "vendor_id")) || !jstr(o, "name") ||
		    !one_of(jstr(o, "kind"), kinds) ||
		    !json_array_size(json_object_get(o, "device_ids")))
			return fail(v, "pci_not_gpu", 1,
				    "each entry needs "
				    "\"vendor_id\" (0x1a03), \"device_ids\", "
				    "\"kind\" (bmc, emulated) and \"name\"");
		json_array_foreach(json_object_get(o, "device_ids"), j, id) if (
		    !is_pci(json_string_value(
			id))) return fail(v, "device_ids", 1,
					  "device ids "
					  "are \"0x\" and 4 hex digits");
	}
	json_array_foreach(json_object_get(root, "amd_no_kfd"), i, o)
	{
		enter(v, "gfx", jstr(o, "gfx"));
		if (!is_gfx(jstr(o, "gfx")) || !jstr(o, "family") ||
		    !json_array_size(json_object_get(o, "pci_ids")))
			return fail(v, "amd_no_kfd", 1,
				    "each family needs "
				    "\"gfx\", \"family\" and \"pci_ids\"");
		json_array_foreach(json_object_get(o, "pci_ids"), j, id) if (
		    !is_pci(json_string_value(
			id))) return fail(v, "pci_ids", 1,
					  "PCI ids are \"0x\" "
					  "and 4 hex digits");
	}
	json_array_foreach(json_object_get(root, "nvidia_chips"), i, o)
	{
		const char *sm = jstr(o, "sm");

		enter(v, "arch", jstr(o, "arch"));
		if (!sm || strncmp(sm, "sm_", 3) || !jstr(o, "arch") ||
		    !json_array_size(json_object_get(o, "chips")) ||
		    !str_or_null(o, "last_driver_branch"))
			return fail(
			    v, "nvidia_chips", 1,
			    "each entry needs "
			    "\"chips\" (name prefixes), \"sm\", \"arch\" "
			    "and \"last_driver_branch\" (string or null)");
	}
	return 0;
}

static int strings_or_absent(const json_t *a)
{
	const json_t *x;
	size_t i;

	if (!a)
		return 1;
	if (!json_is_array(a))
		return 0;
	json_array_foreach(a, i, x) if (!json_is_string(x)) return 0;
	return 1;
}

/* Optional libraries[]: soname -> the Debian/Ubuntu and Fedora packages
 * (each a name or null, at least one), with sources. */
static int check_libraries(struct vctx *v, const json_t *root)
{
	const json_t *o;
	size_t i;

	json_array_foreach(json_object_get(root, "libraries"), i, o)
	{
		const char *so = jstr(o, "soname");

		enter(v, "soname", so);
		if (!so || !strstr(so, ".so") || !str_or_null(o, "debian") ||
		    !str_or_null(o, "fedora") ||
		    (!jstr(o, "debian") && !jstr(o, "fedora")) ||
		    !json_array_size(json_object_get(o, "sources")) ||
		    !strings_or_absent(json_object_get(o, "dlopens")))
			return fail(v, "libraries", 1,
				    "each library needs \"soname\" "
				    "(libfoo.so.1), \"debian\" and \"fedora\" "
				    "(a package name or null, not both null), "
				    "\"sources\" and optionally \"dlopens\" "
				    "(sonames)");
	}
	return 0;
}

static int check_top(struct vctx *v, const json_t *root)
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
		return fail(v, NULL, 0,
			    "the knowledge base must be a JSON "
			    "object");
	for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
		const json_t *m = json_object_get(root, req[i].key);

		if (!m)
			return fail(v, NULL, 0, "missing top-level key \"%s\"",
				    req[i].key);
		if (json_typeof(m) != req[i].type)
			return fail(v, req[i].key, 1,
				    "top-level \"%s\" has the "
				    "wrong type",
				    req[i].key);
	}
	ver = json_integer_value(json_object_get(root, "schema_version"));
	if (ver != GD_KB_SCHEMA)
		return fail(v, "schema_version", 1,
			    "schema_version %lld is not "
			    "the one this gpudoctor reads (%d)",
			    (long long)ver, GD_KB_SCHEMA);
	return 0;
}

int gd_kb_validate(const json_t *root, const char *buf, size_t len,
		   const char *name, char *err, size_t errlen)
{
	struct vctx v = {
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
	    check_nvidia(&v, json_object_get(root, "nvidia")) < 0 ||
	    check_hw(&v, root) < 0 || check_libraries(&v, root) < 0)
		return -1;
	if (gd_kb_validate_kernel(root, err, errlen) < 0 ||
	    gd_kb_validate_windows(root, err, errlen) < 0)
		return -1;
	/* Every "sources" list below the top level names known sources. */
	json_object_foreach((json_t *)root, k, m)
	{
		enter(&v, NULL, NULL);
		if (strcmp(k, "sources") && check_refs(&v, m) < 0)
			return -1;
	}
	return 0;
}
