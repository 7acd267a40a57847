/* explain on a program's own output, for the commands that run it (`try`
 * for each failed strategy, `run` when CMD fails): the first known cause
 * and a fix for the program at hand (try_explain.c). */
#ifndef GD_CLI_EXPLAIN_H
#define GD_CLI_EXPLAIN_H

#include <stddef.h>

#include "cli.h"
#include "discover/discover.h"
#include "doctor/explain.h"
#include "inventory/inventory.h"

struct gd_cli_cause {
	char id[96];	 /* the signature's id or the error code's name; "" when
			    nothing known matched */
	char cause[600]; /* "TITLE (ID; log: LINE)" or "NAME = N (TYPE): ..." */
	char fix[1024];	 /* the fix, or "" */
	int program_fix; /* the fix is for the program itself (rebuild it for
			    this GPU), not the kb's advice for a framework */
	/* the match's causes (kb cause codes, strings of the kb), likeliest
	 * first, ranked by the output's other lines and this machine */
	const char *causes[GD_EXPLAIN_MAX_CAUSES];
	size_t n_causes;
};

/* The inventory explain's checks read (gd_check_inventory), collected when
 * an output first needs it and kept for the next: `try` explains each
 * failed strategy's output on the same machine. */
struct gd_cli_inv {
	struct gd_inventory inv;
	int state; /* 0: not collected yet, 1: collected, -1: failed */
};
void gd_cli_inv_free(struct gd_cli_inv *ci);

/* ["code", ...]: the cause codes, likeliest first (JSON "causes"). */
json_t *gd_cli_causes_json(const char *const *codes, size_t n);

/* The program's name as the user gave it (argv[0]'s last component). */
const char *gd_cli_program_name(const char *argv0);
/* explain's first signature match in output (n bytes), else its first
 * error code; program: the name the fix speaks of, or NULL. m and ci:
 * the machine it ran on and its inventory (collected here on first need). */
void gd_cli_explain_output(struct gd_cli *cli, const struct gd_machine *m,
			   struct gd_cli_inv *ci, const char *program,
			   const char *output, size_t n,
			   struct gd_cli_cause *c);
/* `gpudoctor scan` on argv0's file (a path, or found on PATH) against m's
 * GPUs: "PATH: no code for sm_90 (has: sm_80)" when its GPU code does not
 * fit, else "". */
void gd_cli_scan_program(struct gd_cli *cli, const struct gd_machine *m,
			 const char *argv0, char *out, size_t cap);

#endif
