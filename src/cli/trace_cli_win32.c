/* `run --trace` on Windows: the interposer is an LD_PRELOAD library
 * (shim/, Linux only), so --trace and --watch say they are not in the
 * Windows build yet instead of running the program untraced. */
#include <stdio.h>
#include <string.h>

#include "trace_cli.h"

int gd_trace_mode_parse(const char *s)
{
	if (!s || !strcmp(s, "hang"))
		return GD_TRACE_M_HANG;
	if (!strcmp(s, "log"))
		return GD_TRACE_M_HANG | GD_TRACE_M_LOG;
	if (!strcmp(s, "rewrite"))
		return GD_TRACE_M_HANG | GD_TRACE_M_LOG | GD_TRACE_M_REWRITE;
	return -1;
}

int gd_trace_available(void)
{
	return 0;
}

int gd_trace_start(struct gd_trace_run *tr, const char *self_exe, int mode)
{
	(void)self_exe;
	(void)mode;
	tr->fd = -1;
	tr->map = NULL;
	fprintf(stderr, "gpudoctor: --trace and --watch are not in the Windows "
			"build yet (the tracer is an LD_PRELOAD library)\n");
	return -1;
}

void gd_trace_reset(struct gd_trace_run *tr, int seq)
{
	(void)tr;
	(void)seq;
}

char **gd_trace_env(struct gd_trace_run *tr, char **env)
{
	(void)tr;
	return env;
}

void gd_trace_stop(struct gd_trace_run *tr)
{
	(void)tr;
}

void gd_trace_rewrite_note(struct gd_cli *cli, const struct gd_machine *m,
			   int mode)
{
	(void)cli;
	(void)m;
	(void)mode;
}

int gd_trace_deadline(struct gd_trace_run *tr, struct gd_trace_stuck *out,
		      int cap, int *n, char *unrecorded, size_t ucap)
{
	(void)tr;
	(void)out;
	(void)cap;
	*n = 0;
	if (ucap)
		unrecorded[0] = '\0';
	return 0;
}

int gd_trace_capture(struct gd_trace_run *tr, const char *line)
{
	(void)tr;
	(void)line;
	return 0;
}

void gd_trace_finish(struct gd_trace_run *tr, struct gd_trace_stuck *s, int n)
{
	(void)tr;
	(void)s;
	(void)n;
}
