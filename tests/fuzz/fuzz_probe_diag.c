/* Fuzz what probe diagnostics read from a runtime (docs/probe.md,
 * "Diagnostics"): ld.so's LD_DEBUG=libs lines (probe/diag.c), the
 * loader's dlerror lines, and the cause rules on diagnostics made of the
 * input's lines (doctor/probe_cause.c: the ICD name after "for ICD", the
 * library after "associated with ICD JSON"). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/probe_cause.h"
#include "kb/kb.h"
#include "probe/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gd_ctx *ctx(void)
{
	static gd_ctx c;
	static char *envp[] = {NULL};
	static int done;

	if (!done) {
		if (gd_ctx_init(&c, "/", envp) < 0)
			abort();
		c.kb = gd_kb_load_embedded();
		done = 1;
	}
	return &c;
}

static int odd_path(void *arg, const char *path)
{
	(void)arg;
	return strlen(path) & 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const backends[] = {"hip", "vulkan", "opencl",
					       "cuda"};
	struct gd_lddebug ld;
	struct gd_probe_diag dg;
	struct gd_probe_result init;
	struct gd_cause_in in;
	struct gd_cause out;
	char *s = malloc(size + 1), lib[96];

	if (!s || size > 65536) {
		free(s);
		return 0;
	}
	memcpy(s, data, size);
	s[size] = '\0';
	memset(&ld, 0, sizeof ld);
	memset(&dg, 0, sizeof dg);
	memset(&init, 0, sizeof init);
	ld.exists = odd_path;
	dg.out = s;
	dg.out_len = size;
	dg.ran = 1;
	for (char *l = s, *nl; l; l = nl) {
		nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		gd_lddebug_line(&ld, l);
		gd_cause_dlerror_lib(l, lib, sizeof lib);
		if (dg.n_lines < GD_PROBE_DIAG_LINES) {
			gd_strlcpy(dg.lines[dg.n_lines], l, sizeof dg.lines[0]);
			gd_strlcpy(dg.line_sig[dg.n_lines],
				   dg.n_lines & 1 ? "vk-icd-no-create-instance"
						  : "hip-hsa-init-failed",
				   sizeof dg.line_sig[0]);
			dg.n_lines++;
		}
		if (nl)
			*nl++ = '\n';
	}
	gd_lddebug_end(&ld);
	dg.n_not_found = ld.n;
	memcpy(dg.not_found, ld.missing, sizeof dg.not_found);
	memcpy(init.detail, s, size < sizeof init.detail ? size : 0);
	memset(&in, 0, sizeof in);
	in.ctx = ctx();
	in.init = &init;
	in.diag = &dg;
	in.backend = backends[size % 4];
	gd_cause_find(&in, &out);
	free(s);
	return 0;
}
