/* The probe progress line on stderr: the command line's own, so it lives
 * here and not with the renderers (report/ never writes to a terminal). */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/plat.h"
#include "core/util.h"
#include "probe/probe.h"
#include "report/check_data.h"

/* One status line on stderr, rewritten in place (terminals only). */
void gd_render_probe_progress(void *arg, const struct gd_probe_progress *p,
			      size_t n)
{
	char line[256] = "";

	(void)arg;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(line);

		if (p[i].done)
			continue;
		gd_fmt(line + l, sizeof line - l, "%s%s %s %.1f/%.0f s",
		       l ? " | " : "", p[i].backend,
		       p[i].op[0] ? p[i].op : p[i].phase, p[i].elapsed,
		       p[i].deadline);
	}
	fprintf(stderr, "\r\033[Kprobing: %.70s", line);
	fflush(stderr);
}

/* gd_check_collect with the progress line on a terminal, as the command
 * line showed it before the renderers moved to report/ (report, nfd,
 * metrics; check sets it through the API). */
/* Set by SIGTERM, SIGINT, SIGHUP, SIGQUIT while a check collects: the
 * supervisor stops the probe children (their process groups, so what a
 * runtime forked goes too), then the signal is raised again. Whoever
 * stops gpudoctor with SIGTERM (the Python package on its timeout, a
 * service manager) leaves nothing running. */
static volatile int check_cancel;

void gd_cli_cancel_begin(struct gd_cli *cli)
{
	check_cancel = 0;
	cli->cancel = &check_cancel;
	gd_plat_interrupts_catch(&check_cancel);
}

void gd_cli_cancel_end(struct gd_cli *cli)
{
	gd_plat_interrupts_restore();
	cli->cancel = NULL;
	if (check_cancel) /* the default action now: end as signalled */
		raise(check_cancel);
}

int gd_cli_check_collect(struct gd_cli *cli, struct gd_check_opts *o,
			 struct gd_check_data *d)
{
	int rc;

	if (o->probes && isatty(STDERR_FILENO))
		o->on_progress = gd_render_probe_progress;
	gd_cli_cancel_begin(cli);
	rc = gd_check_collect(cli, o, d);
	if (o->on_progress)
		fprintf(stderr, "\r\033[K");
	gd_cli_cancel_end(cli);
	return rc;
}
