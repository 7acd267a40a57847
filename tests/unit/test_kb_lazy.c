/* kb/: the embedded knowledge base, parsed lazily through the build-time
 * index (tools/kbgen.c), answers every lookup exactly as the eager parse
 * of the source file src/kb/gpudoctor-kb.json does (--kb FILE path): for
 * every target gfx, KFD version and PCI id, every NVIDIA PCI id and sm,
 * every source, issue, strategy, signature and top-level member. */
#include <stdlib.h>
#include <string.h>

#include "kb/kb_raw.h"
#include "t.h"

static gd_kb *load_source(void)
{
	const char *dir = getenv("GD_SRCDIR");
	char path[4096], err[512];
	gd_kb *kb;

	snprintf(path, sizeof path, "%s/src/kb/gpudoctor-kb.json",
		 dir ? dir : "..");
	kb = gd_kb_load_file(path, err, sizeof err);
	if (!kb)
		fprintf(stderr, "  %s\n", err);
	return kb;
}

/* Both found and equal, or both not found; what names the lookup. */
static void same(const json_t *lazy, const json_t *eager, const char *what)
{
	if ((!lazy && !eager) || json_equal((json_t *)lazy, (json_t *)eager)) {
		CHECK(1);
		return;
	}
	fprintf(stderr, "  lazy and eager differ for %s (%s / %s)\n", what,
		lazy ? "found" : "missing", eager ? "found" : "missing");
	CHECK(0);
}

static void check_targets(const gd_kb *lz, const gd_kb *eg)
{
	const json_t *targets = gd_kb_get(eg, "targets"), *t, *p, *id;
	size_t i, j, k;
	char what[128];

	CHECK(json_array_size(targets) > 0);
	json_array_foreach(targets, i, t)
	{
		const char *gfx = gd_kb_str(t, "gfx");
		const json_t *v = json_object_get(t, "gfx_target_version");
		const json_t *once = gd_kb_target(lz, gfx);

		same(once, t, gfx);
		/* Cached: the same object each time, owned by the kb. */
		CHECK(gd_kb_target(lz, gfx) == once);
		snprintf(what, sizeof what, "%s:xnack-", gfx);
		same(gd_kb_target(lz, what), gd_kb_target(eg, what), what);
		if (json_is_integer(v))
			same(gd_kb_target_for_version(
				 lz, (unsigned)json_integer_value(v)),
			     gd_kb_target_for_version(
				 eg, (unsigned)json_integer_value(v)),
			     gfx);
		json_array_foreach(json_object_get(t, "products"), j, p)
		    json_array_foreach(json_object_get(p, "pci_ids"), k, id)
		{
			unsigned pci =
			    (unsigned)strtoul(json_string_value(id), NULL, 16);

			snprintf(what, sizeof what, "%s pci %s", gfx,
				 json_string_value(id));
			same(gd_kb_target_for_pci(lz, pci),
			     gd_kb_target_for_pci(eg, pci), what);
			same(gd_kb_product_for_pci(lz, pci),
			     gd_kb_product_for_pci(eg, pci), what);
			CHECK(gd_kb_target_for_pci(lz, pci) != NULL);
		}
	}
}

static void check_nvidia(const gd_kb *lz, const gd_kb *eg)
{
	const json_t *nv = gd_kb_get(eg, "nvidia"), *o;
	static const char *const forms[] = {"9.0",    "sm90",  "compute_90",
					    "sm_90a", "sm_12", "bogus"};
	size_t i;

	CHECK(json_array_size(json_object_get(nv, "gpus")) > 0);
	json_array_foreach(json_object_get(nv, "gpus"), i, o)
	{
		const char *id = gd_kb_str(o, "pci_id");
		unsigned pci = (unsigned)strtoul(id, NULL, 16);

		same(gd_kb_nvidia_for_pci(lz, pci),
		     gd_kb_nvidia_for_pci(eg, pci), id);
		CHECK(gd_kb_nvidia_for_pci(lz, pci) != NULL);
		CHECK(gd_kb_nvidia_for_pci(lz, pci) ==
		      gd_kb_nvidia_for_pci(lz, pci));
	}
	CHECK(json_array_size(json_object_get(nv, "compute_capabilities")) > 0);
	json_array_foreach(json_object_get(nv, "compute_capabilities"), i, o)
	{
		const char *sm = gd_kb_str(o, "sm");

		same(gd_kb_nvidia_cc(lz, sm), gd_kb_nvidia_cc(eg, sm), sm);
		CHECK(gd_kb_nvidia_cc(lz, sm) != NULL);
	}
	for (i = 0; i < sizeof forms / sizeof *forms; i++)
		same(gd_kb_nvidia_cc(lz, forms[i]),
		     gd_kb_nvidia_cc(eg, forms[i]), forms[i]);
}

typedef const json_t *(*by_id_fn)(const gd_kb *kb, const char *id);

static void check_ids(const gd_kb *lz, const gd_kb *eg, const char *list,
		      by_id_fn fn)
{
	const json_t *o;
	size_t i;

	CHECK(json_array_size(gd_kb_get(eg, list)) > 0);
	json_array_foreach(gd_kb_get(eg, list), i, o)
	{
		const char *id = gd_kb_str(o, "id");

		same(fn(lz, id), fn(eg, id), id);
		CHECK(fn(lz, id) != NULL && fn(lz, id) == fn(lz, id));
	}
	CHECK(fn(lz, "no-such-id") == NULL);
}

static void check_named(const gd_kb *lz, const gd_kb *eg)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)gd_kb_get(eg, "sources"), k, v)
	{
		same(gd_kb_source(lz, k), v, k);
		CHECK(gd_kb_source(lz, k) != NULL);
	}
	CHECK(gd_kb_source(lz, "no-such-source") == NULL);
	json_object_foreach((json_t *)gd_kb_root(eg), k, v)
	{
		same(gd_kb_get(lz, k), v, k);
		CHECK(gd_kb_get(lz, k) == gd_kb_get(lz, k));
	}
	CHECK(gd_kb_get(lz, "no-such-member") == NULL);
	check_ids(lz, eg, "issues", gd_kb_issue);
	check_ids(lz, eg, "strategies", gd_kb_strategy);
	check_ids(lz, eg, "signatures", gd_kb_signature);
}

/* Ids that are in no list, and NULL arguments, miss on both paths. */
static void check_misses(const gd_kb *lz, const gd_kb *eg)
{
	static const unsigned pci[] = {0, 0xffff, 0x10de, 0x1002};

	for (size_t i = 0; i < sizeof pci / sizeof *pci; i++) {
		same(gd_kb_target_for_pci(lz, pci[i]),
		     gd_kb_target_for_pci(eg, pci[i]), "odd pci");
		same(gd_kb_nvidia_for_pci(lz, pci[i]),
		     gd_kb_nvidia_for_pci(eg, pci[i]), "odd nvidia pci");
	}
	CHECK(gd_kb_target(lz, "gfx101") == NULL);
	CHECK(gd_kb_target(lz, NULL) == NULL);
	CHECK(gd_kb_target_for_version(lz, 0) == NULL);
	CHECK(gd_kb_target_for_version(lz, 1) == NULL);
	CHECK(gd_kb_get(lz, NULL) == NULL);
	CHECK(gd_kb_root(NULL) == NULL &&
	      gd_kb_target(NULL, "gfx1010") == NULL);
}

int main(void)
{
	gd_kb *eg = load_source(), *lz = gd_kb_load_embedded();
	const json_t *t;

	CHECK(eg != NULL && lz != NULL);
	if (!eg || !lz)
		return t_done("test_kb_lazy");
	CHECK_STR(gd_kb_origin(lz), "embedded");
	/* A lookup before the whole document is parsed, one after. */
	t = gd_kb_target_for_pci(lz, 0x731f);
	CHECK_STR(gd_kb_str(t, "gfx"), "gfx1010");
	check_targets(lz, eg);
	check_nvidia(lz, eg);
	check_named(lz, eg);
	check_misses(lz, eg);
	/* The embedded document is the source file, entry for entry. */
	CHECK(json_equal((json_t *)gd_kb_root(lz), (json_t *)gd_kb_root(eg)));
	CHECK(gd_kb_root(lz) == gd_kb_root(lz));
	CHECK(gd_kb_target_for_pci(lz, 0x731f) == t);
	gd_kb_free(lz);
	gd_kb_free(eg);
	/* A fresh kb whose first use is the whole document. */
	lz = gd_kb_load_embedded();
	CHECK(json_array_size(json_object_get(gd_kb_root(lz), "targets")) > 0);
	CHECK_STR(gd_kb_str(gd_kb_target(lz, "gfx90a"), "gfx"), "gfx90a");
	gd_kb_free(lz);
	return t_done("test_kb_lazy");
}
