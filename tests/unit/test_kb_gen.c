/* tools/kbgen.c, the build-time generator of the embedded knowledge base:
 * a file that gpudoctor would refuse from --kb stops the build with
 * "FILE:LINE: why" and writes nothing; a good one gives the index, with
 * odd keys written as safe C string literals. Runs the built generator
 * ($GD_BINDIR/gd_kbgen) on small files in a temporary directory. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t.h"

static char dir[] = "/tmp/test_kb_gen.XXXXXX";
static char gen[4096];

static void put(const char *name, const char *text)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The generator's exit status; its stderr and output file into out. */
static int run_gen(const char *in, char *out, size_t cap)
{
	char cmd[9000];
	FILE *f;
	size_t n = 0;
	int st;

	snprintf(cmd, sizeof cmd,
		 "cd %s && rm -f out.c && '%s' %s out.c "
		 "2>err.txt; rc=$?; cat err.txt out.c 2>/dev/null; exit $rc",
		 dir, gen, in);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, cap - 1, f);
	out[n] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define HEAD                                                                   \
	"{\"schema_version\": 1, \"kb_date\": \"2026-11-22\",\n"               \
	"\"sources\": {\"s1\": {\"title\": \"t\", \"url\": null, "             \
	"\"checked\": \"2026-11-22\"},\n"                                      \
	" \"odd \\\"q\\\" ?\?) \\\\ \\u00e9\": {\"title\": \"t\", "            \
	"\"checked\": \"2026-11-22\"}},\n"
#define NV                                                                     \
	"\"nvidia\": {\"gpus\": [{\"pci_id\": \"0x2330\", \"name\": "          \
	"\"H100\", \"sm\": \"sm_90\"}], \"compute_capabilities\": "            \
	"[{\"sm\": \"sm_90\", \"cc\": \"9.0\"}], \"cuda_driver_min\": []},\n"
#define TAIL                                                                   \
	"\"issues\": [], \"strategies\": [], \"signatures\": [],\n" NV         \
	"\"workloads\": {}}\n"
#define T(gfx)                                                                 \
	"{\"gfx\": \"" gfx "\", \"family\": \"x\", "                           \
	"\"gfx_target_version\": 100100, \"apu\": false, "                     \
	"\"products\": [{\"name\": \"p\", \"pci_ids\": "                       \
	"[\"0x731f\", \"0x7310\"]}]}"

static void test_refuses(void)
{
	static char out[1 << 16];

	put("syntax.json", "{\n\"a\": 1,\n\"b\": }\n");
	CHECK_INT(run_gen("syntax.json", out, sizeof out), 1);
	CHECK(strstr(out, "syntax.json:3:") != NULL);
	CHECK(strstr(out, "refusing") != NULL);
	CHECK(strstr(out, "gd_kb_embedded_index") == NULL);

	put("dup.json", HEAD
	    "\"targets\": [\n" T("gfx1010") ",\n" T("gfx1010") "],\n" TAIL);
	CHECK_INT(run_gen("dup.json", out, sizeof out), 1);
	CHECK(strstr(out, "dup.json:6: duplicate target \"gfx1010\"") != NULL);

	put("schema.json", "{\"schema_version\": 2}");
	CHECK_INT(run_gen("schema.json", out, sizeof out), 1);
	CHECK(strstr(out, "schema.json:1:") != NULL);

	CHECK_INT(run_gen("missing.json", out, sizeof out), 1);
	CHECK(strstr(out, "missing.json") != NULL);
}

static void test_writes_index(void)
{
	static char out[1 << 16];

	put("ok.json",
	    HEAD "\"targets\": [" T("gfx1010") ", {\"gfx\": "
					       "\"gfx702\", \"family\": \"x\", "
					       "\"products\": []}],\n" TAIL);
	CHECK_INT(run_gen("ok.json", out, sizeof out), 0);
	CHECK(strstr(out, "static const unsigned pci_0[] = {0x731f,0x7310,};"));
	CHECK(strstr(out, "{\"gfx1010\", 100100, pci_0, 2, 0, "));
	/* No version, no PCI ids, apu not a boolean. */
	CHECK(strstr(out, "{\"gfx702\", -1, NULL, 0, -1, "));
	CHECK(strstr(out, "{0x2330, "));
	CHECK(strstr(out, "{\"sm_90\", "));
	/* Quote, backslash, '?' (trigraphs) and UTF-8 as octal escapes. */
	CHECK(
	    strstr(out, "{\"odd \\042q\\042 \\077\\077) \\134 \\303\\251\", "));
	CHECK(strstr(out, "{issues, 0}") == NULL);
	CHECK(strstr(out, "{top, sources, NULL, NULL, NULL, ccs},"));
	CHECK(strstr(out, "{9, 2, 0, 0, 0, 1},"));
}

int main(void)
{
	const char *bindir = getenv("GD_BINDIR");
	char cmd[200];

	if (!bindir || !mkdtemp(dir)) {
		fprintf(stderr,
			"test_kb_gen: needs GD_BINDIR and a temp dir\n");
		CHECK(0);
		return t_done("test_kb_gen");
	}
	snprintf(gen, sizeof gen, "%s/gd_kbgen", bindir);
	CHECK(access(gen, X_OK) == 0);
	test_refuses();
	test_writes_index();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return t_done("test_kb_gen");
}
