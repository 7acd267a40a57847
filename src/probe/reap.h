/* probe/reap: end every process a supervised child left behind, including
 * those that left its process group (setsid daemons, GNU timeout, Python's
 * start_new_session=True, a runtime's forked helper). Internal to the
 * supervisor. */
#ifndef GD_REAP_H
#define GD_REAP_H

/* Called before a supervised child is forked. */
void gd_reap_enter(void);

/* Called once the supervised child has been reaped. When no other
 * supervised child is running (backends are supervised in parallel, one
 * thread each), kills and reaps every remaining descendant of this
 * process. Returns how many processes were found and killed. */
int gd_reap_leave(void);

/* Kills and reaps every descendant of this process now (bounded at 2 s).
 * Returns how many were found. Exposed for the unit test. */
int gd_reap_descendants(void);

#endif
