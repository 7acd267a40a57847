/* libFuzzer: explain's input decoding (UTF-16, BOMs, NUL runs, ANSI
 * escapes, CR/CRLF) and its matcher (every kb signature, line by line) on
 * any bytes. The signatures are compiled once: compiling ~30 regexes per
 * input made the campaign's harness run ~300 inputs/s. Inputs past 16 KB
 * are cut: the matcher works line by line, so longer inputs only repeat
 * what shorter ones exercise. Seeds: the real logs of tests/fixtures/logs,
 * some re-encoded (corpus/fuzz_explain/README.md). The runtime error codes
 * (explain_codes.c), the evidence and the program fix run on each input
 * too, and the C API's reader of a text in memory (gd_explain_mem_log),
 * with small parts so that long inputs are cut into head and tail. */
#include <stdlib.h>
#include <string.h>

#include "doctor/explain.h"
#include "kb/kb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gd_ctx ctx;

static struct gd_explain_sigs *sigs(void)
{
	static struct gd_explain_sigs *s;
	static char *envp[] = {NULL};

	if (!s) {
		if (gd_ctx_init(&ctx, "/", envp) < 0)
			abort();
		ctx.kb = gd_kb_load_embedded();
		s = gd_explain_sigs_new(&ctx);
		if (!s)
			abort();
	}
	return s;
}

/* head and tail, each NUL-terminated where their lengths say; what was
 * skipped is the rest */
static void mem_log(const char *data, size_t size)
{
	struct gd_explain_log log;

	if (gd_explain_mem_log(data, size, 4096, 4096, &log) < 0)
		return;
	if (log.head[log.head_len] || (log.tail && log.tail[log.tail_len]) ||
	    log.total != size ||
	    log.skipped != (size > 8192 ? size - 8192 : 0) ||
	    (!log.tail) != (size <= 8192))
		__builtin_trap();
	gd_explain_log_free(&log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_explain_result r;
	size_t len, bom;
	char *text;

	if (size > 16384)
		size = 16384;
	gd_explain_detect((const char *)data, size, &bom);
	if (bom > size)
		__builtin_trap();
	text = gd_explain_decode((const char *)data, size, GD_ENC_DETECT, &len);
	if (!text)
		return 0;
	/* decoded text has no NUL, no CR, no ESC, and ends where it says */
	if (text[len] || memchr(text, '\0', len) || memchr(text, '\r', len) ||
	    memchr(text, 0x1b, len))
		__builtin_trap();
	mem_log((const char *)data, size);
	memset(&r, 0, sizeof r);
	gd_explain_sigs_scan(sigs(), text, len, &r); /* and the error codes */
	gd_explain_evidence(ctx.kb, text, len, NULL, 0, NULL, &r);
	for (size_t i = 0; i < r.m.n; i++) {
		char fix[256];

		gd_explain_program_fix(r.m.v[i].id, text, len, "p", NULL, fix,
				       sizeof fix);
	}
	/* every decoded code is one of the table's, once */
	for (size_t i = 0; i < r.codes.n; i++)
		for (size_t j = 0; j < i; j++)
			if (r.codes.v[i].c == r.codes.v[j].c)
				__builtin_trap();
	gd_explain_result_free(&r);
	free(text);
	return 0;
}
