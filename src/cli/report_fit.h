/* Making `gpudoctor report` fit where it goes (report_fit.c). */
#ifndef GD_REPORT_FIT_H
#define GD_REPORT_FIT_H

/* GitHub refuses an issue body over 65,536 characters. */
#define GD_REPORT_MAX 65536

/* text with what differs between identical GPUs (PCI addresses, UUIDs,
 * render and KFD node numbers) taken out: GPUs whose keys are equal are
 * shown once. Caller frees; NULL when out of memory. */
char *gd_report_group_key(const char *text);
/* Drops, in place, the entries of each "Sources:" list that have neither
 * an address (://) nor a repository document (docs/), renumbering. */
void gd_report_drop_internal_sources(char *text);
/* --redact: home directories' user names, the kernel command line (JSON)
 * and the host name replaced; text is freed and a new string returned. */
char *gd_report_redact(char *text, const char *hostname);

#endif
