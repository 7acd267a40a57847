/* gpudoctor __probe-child BACKEND [--start N] [--only N] [--ops HEX]
 * [--quick] [--bench] [--miopen-find-mode M] [--lib NAME]: the hidden command
 * the probe supervisor re-execs (--ops: the op set of `probe --only`, ops.h).
 * It runs one backend's ops (or one selftest case) and reports on the fd
 * named by GPUDOCTOR_PHASE_FD; run by hand, it reports on stderr. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "probe/probe.h"

int gd_cmd_probe_child(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_pc_args a;

	memset(&a, 0, sizeof a);
	a.only = -1;
	if (argc < 2)
		return gd_cli_usage_error(cli, "__probe-child",
					  "backend name needed");
	a.backend = argv[1];
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--quick")) {
			a.quick = 1;
		} else if (!strcmp(o, "--bench")) {
			a.bench = 1;
		} else if (v && !strcmp(o, "--start")) {
			a.start = atoi(v);
			i++;
		} else if (v && !strcmp(o, "--only")) {
			a.only = atoi(v);
			i++;
		} else if (v && !strcmp(o, "--ops")) {
			a.ops = (gd_opset)strtoul(v, NULL, 16);
			i++;
		} else if (v && !strcmp(o, "--lib")) {
			a.lib = v;
			i++;
		} else if (v && !strcmp(o, "--miopen-find-mode")) {
			a.miopen_find_mode = v;
			i++;
		} else {
			return gd_cli_usage_error(cli, "__probe-child",
						  "unknown option '%s'", o);
		}
	}
	if (a.start < 0)
		a.start = 0;
	return gd_probe_child_main(&cli->ctx, &a);
}
