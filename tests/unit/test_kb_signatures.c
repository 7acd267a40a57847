/* kb/: every error signature matches its own "example" and its real log
 * excerpt tests/fixtures/logs/<id>.txt (quoted from the public issue cited
 * in tests/fixtures/logs/README.md), and no other signature matches that
 * excerpt, so explain's top hit for each real log is the right one. Also
 * checks the data the other layers rely on. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb_raw.h"
#include "t.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = calloc(1, 1 << 16);
	n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
	(void)n;
	fclose(f);
	return buf;
}

/* A signature's regexes, compiled once: each fixture is checked against
 * every signature, and regcomp of them all per fixture is quadratic (minutes
 * under the sanitizers). */
struct crx {
	regex_t rx, un;
	int ok, has_un;
};

static void crx_init(struct crx *c, const json_t *sig)
{
	const char *unless = gd_kb_str(sig, "unless");
	int flags = REG_EXTENDED | REG_NOSUB | REG_NEWLINE;

	memset(c, 0, sizeof *c);
	if (json_is_true(json_object_get(sig, "icase")))
		flags |= REG_ICASE;
	if (regcomp(&c->rx, gd_kb_str(sig, "regex"), flags))
		return;
	if (unless && regcomp(&c->un, unless, flags)) {
		regfree(&c->rx);
		return;
	}
	c->has_un = unless != NULL;
	c->ok = 1;
}

static void crx_free(struct crx *c)
{
	if (!c->ok)
		return;
	regfree(&c->rx);
	if (c->has_un)
		regfree(&c->un);
}

/* Some line matches "regex" and not "unless" (explain's rule). */
static int matches(const struct crx *c, const char *text)
{
	int found = 0;

	if (!c->ok)
		return -1;
	if (!c->has_un)
		return regexec(&c->rx, text, 0, NULL, 0) == 0;
	for (const char *p = text; *p && !found;) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);

		found = line && regexec(&c->rx, line, 0, NULL, 0) == 0 &&
			regexec(&c->un, line, 0, NULL, 0) != 0;
		free(line);
		p += n + (p[n] == '\n');
	}
	return found;
}

static void test_signatures(const gd_kb *kb, const char *srcdir)
{
	const json_t *sigs = gd_kb_get(kb, "signatures");
	size_t i, j, n = json_array_size(sigs);
	struct crx *c = calloc(n ? n : 1, sizeof *c);
	json_t *s, *o;

	CHECK(n >= 25);
	CHECK(c != NULL);
	if (!c)
		return;
	json_array_foreach(sigs, i, s) crx_init(&c[i], s);
	json_array_foreach(sigs, i, s)
	{
		char path[4096];
		char *text;

		snprintf(path, sizeof path, "%s/tests/fixtures/logs/%s.txt",
			 srcdir, gd_kb_str(s, "id"));
		CHECK(matches(&c[i], gd_kb_str(s, "example")) == 1);
		CHECK(json_array_size(json_object_get(s, "sources")) > 0);
		text = slurp(path);
		if (!text) {
			fprintf(stderr, "  missing fixture %s\n", path);
			CHECK(0);
			continue;
		}
		if (matches(&c[i], text) != 1)
			fprintf(stderr, "  %s does not match its fixture\n",
				gd_kb_str(s, "id"));
		CHECK(matches(&c[i], text) == 1);
		json_array_foreach(sigs, j, o)
		{
			if (o == s || matches(&c[j], text) != 1)
				continue;
			fprintf(stderr, "  fixture of %s also matches %s\n",
				gd_kb_str(s, "id"), gd_kb_str(o, "id"));
			CHECK(0);
		}
		free(text);
	}
	for (i = 0; i < n; i++)
		crx_free(&c[i]);
	free(c);
}

/* The names other engineers code against (task brief) are present. */
static void test_coverage(const gd_kb *kb)
{
	static const char *const gfx[] = {
	    "gfx700",  "gfx701",  "gfx702",  "gfx703",	"gfx704",  "gfx705",
	    "gfx801",  "gfx802",  "gfx803",  "gfx805",	"gfx810",  "gfx900",
	    "gfx902",  "gfx904",  "gfx906",  "gfx908",	"gfx909",  "gfx90a",
	    "gfx90c",  "gfx940",  "gfx941",  "gfx942",	"gfx950",  "gfx1010",
	    "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032",
	    "gfx1033", "gfx1034", "gfx1035", "gfx1036", "gfx1100", "gfx1101",
	    "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153",
	    "gfx1200", "gfx1201"};
	const json_t *t;

	for (size_t i = 0; i < sizeof gfx / sizeof gfx[0]; i++) {
		t = gd_kb_target(kb, gfx[i]);
		if (!t)
			fprintf(stderr, "  missing target %s\n", gfx[i]);
		CHECK(t != NULL);
		CHECK(json_is_object(json_object_get(t, "override")));
		CHECK(json_is_object(json_object_get(t, "advice")));
	}
	/* Real ids from the captured machines (tests/fixtures/rx5700xt,
	 * tests/fixtures/strixhalo). */
	CHECK_STR(gd_kb_str(gd_kb_target_for_pci(kb, 0x731f), "gfx"),
		  "gfx1010");
	CHECK_STR(gd_kb_str(gd_kb_target_for_pci(kb, 0x1586), "gfx"),
		  "gfx1151");
	CHECK_STR(gd_kb_str(gd_kb_target_for_pci(kb, 0x740f), "gfx"), "gfx90a");
	CHECK_STR(gd_kb_str(gd_kb_target_for_pci(kb, 0x744c), "gfx"),
		  "gfx1100");
	CHECK_STR(gd_kb_str(gd_kb_target_for_pci(kb, 0x74a1), "gfx"), "gfx942");
	CHECK_STR(gd_kb_str(gd_kb_target_for_pci(kb, 0x150e), "gfx"),
		  "gfx1150");
	CHECK_STR(gd_kb_str(gd_kb_target_for_version(kb, 110501), "gfx"),
		  "gfx1151");
	CHECK_STR(gd_kb_str(gd_kb_target_for_version(kb, 90010), "gfx"),
		  "gfx90a");
	CHECK_STR(gd_kb_str(gd_kb_nvidia_for_pci(kb, 0x2330), "sm"), "sm_90");
	CHECK_STR(gd_kb_str(gd_kb_nvidia_for_pci(kb, 0x2335), "sm"), "sm_90");
	CHECK_STR(gd_kb_str(gd_kb_nvidia_cc(kb, "sm_90"), "arch"), "Hopper");
	CHECK(gd_kb_nvidia_cc(kb, "9.0") == gd_kb_nvidia_cc(kb, "sm_90"));
	CHECK(gd_kb_nvidia_cc(kb, "sm_120") != NULL);
	CHECK(gd_kb_nvidia_cc(kb, "sm_12") == NULL);
	CHECK(gd_kb_issue(kb, "rocm-5724") != NULL);
	CHECK(gd_kb_strategy(kb, "gfx1151-sdma-off") != NULL);
	CHECK_STR(gd_kb_str(gd_kb_strategy(kb, "gfx1151-cwsr-off"), "kind"),
		  "user-step");
	CHECK_STR(
	    gd_kb_str(json_object_get(
			  gd_kb_strategy(kb, "rdna1-override-10.3.0"), "env"),
		      "HSA_OVERRIDE_GFX_VERSION"),
	    "10.3.0");
}

int main(void)
{
	const char *srcdir = getenv("GD_SRCDIR");
	gd_kb *kb = gd_kb_load_embedded();

	CHECK(kb != NULL);
	if (!kb)
		return t_done("test_kb_signatures");
	test_signatures(kb, srcdir ? srcdir : "..");
	test_coverage(kb);
	gd_kb_free(kb);
	return t_done("test_kb_signatures");
}
