/* probe/child_cycle: the "model switch" op shared by the backends —
 * contexts (devices, handles) created, used and destroyed from several
 * threads at once, for a bounded time rather than a fixed count, since a
 * driver may take 0.4 s per vkCreateDevice (NVIDIA) where another takes
 * 1 ms. Each API call is a step: the calling thread names the oldest call
 * in flight as the phase whenever that changes, and declares per-step
 * progress, so the parent tells a slow driver from a call that never
 * returns (docs/probe.md, "Deadlines"). */
#include <string.h>
#include <time.h>

#include "backend.h"

void gd_pc_cycle_step(struct gd_pc_cycle_thread *t, const char *what)
{
	pthread_mutex_lock(&t->c->mu);
	t->what = what;
	t->since = gd_pc_now();
	pthread_mutex_unlock(&t->c->mu);
}

static void *cycle_thread(void *arg)
{
	struct gd_pc_cycle_thread *t = arg;
	struct gd_pc_cycler *c = t->c;

	for (int i = 0;; i++) {
		long err;

		pthread_mutex_lock(&c->mu);
		if (i > 0 && (c->stop || gd_pc_now() >= c->t_end)) {
			pthread_mutex_unlock(&c->mu);
			break;
		}
		t->cycle = i;
		pthread_mutex_unlock(&c->mu);
		err = c->cycle(t, c->arg);
		pthread_mutex_lock(&c->mu);
		if (err) {
			t->err = err;
			t->err_what = t->what;
			c->stop = 1; /* the others end their cycle and stop */
		} else {
			c->cycles++;
		}
		pthread_mutex_unlock(&c->mu);
		if (err)
			break;
	}
	pthread_mutex_lock(&c->mu);
	t->running = 0;
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* The oldest call in flight as "thread 2 cycle 3 vkCreateDevice"; returns
 * the number of threads still running. */
static int cycle_oldest(struct gd_pc_cycler *c, char *buf, size_t cap)
{
	const struct gd_pc_cycle_thread *old = NULL;
	int n = 0;

	pthread_mutex_lock(&c->mu);
	for (int i = 0; i < c->nthreads; i++) {
		const struct gd_pc_cycle_thread *t = &c->t[i];

		if (!t->running)
			continue;
		n++;
		if (t->what && (!old || t->since < old->since))
			old = t;
	}
	if (old)
		gd_fmt(buf, cap, "thread %d cycle %d %s", old->index,
		       old->cycle, old->what);
	pthread_mutex_unlock(&c->mu);
	return n;
}

static void cycle_watch(struct gd_pc_cycler *c)
{
	char last[160] = "", now[160];
	struct timespec ts = {0, 5 * 1000000L};

	for (;;) {
		now[0] = '\0';
		if (!cycle_oldest(c, now, sizeof now))
			break;
		if (now[0] && strcmp(now, last)) {
			gd_pc_phase(c->pc, "%s", now);
			gd_strlcpy(last, now, sizeof last);
		}
		nanosleep(&ts, NULL);
	}
}

int gd_pc_cycle_run(struct gd_pc_cycler *c)
{
	double t0 = gd_pc_now();

	if (c->nthreads > GD_PC_CYCLE_MAX)
		c->nthreads = GD_PC_CYCLE_MAX;
	pthread_mutex_init(&c->mu, NULL);
	c->t_end = t0 + c->budget_s;
	c->cycles = 0;
	c->stop = 0;
	c->err_thread = -1;
	gd_pc_progress(c->pc);
	for (int i = 0; i < c->nthreads; i++) {
		struct gd_pc_cycle_thread *t = &c->t[i];

		memset(t, 0, sizeof *t);
		t->c = c;
		t->index = i;
		t->running = 1;
		t->started = !pthread_create(&t->th, NULL, cycle_thread, t);
		if (!t->started) {
			t->running = 0;
			t->err = -1;
			t->err_what = "pthread_create";
		}
	}
	cycle_watch(c);
	for (int i = 0; i < c->nthreads; i++)
		if (c->t[i].started)
			pthread_join(c->t[i].th, NULL);
	c->seconds = gd_pc_now() - t0;
	for (int i = 0; i < c->nthreads && c->err_thread < 0; i++)
		if (c->t[i].err) {
			c->err_thread = i;
			c->err = c->t[i].err;
			c->err_what = c->t[i].err_what;
			c->err_cycle = c->t[i].cycle;
		}
	pthread_mutex_destroy(&c->mu);
	return c->err_thread < 0 ? 0 : -1;
}
