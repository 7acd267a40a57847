/* probe/supervisor on Windows: the contract of supervisor.h with a Job
 * Object in place of the process group. The child starts suspended, joins
 * a job that kills every process in it when closed
 * (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, core/proc_win32.c), then runs; at
 * the deadline, a stop or its own exit the job is terminated, so a hung
 * child, a crashed one and anything either started (a grandchild that
 * detached included) are gone when gd_child_run() returns. Output comes
 * through one pipe (stdout and stderr), phases through a second one whose
 * handle number the child finds in GPUDOCTOR_PHASE_FD
 * (gd_plat_chan_fd). Only these two handles are inherited
 * (PROC_THREAD_ATTRIBUTE_HANDLE_LIST), so children started in parallel
 * threads do not hold each other's pipes open. No memory limit and no
 * grace period: TerminateJobObject is the only way to stop. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "core/plat.h"
#include "core/plat_win32.h"
#include "core/util.h"
#include "sup_stream.h"
#include "supervisor.h"

#define SUP_TICK_MS 20

struct sup_stream {
	HANDLE rd;
	struct gd_sup_stream b; /* the line being assembled (sup_stream.c) */
};

struct sup {
	const struct gd_child_spec *spec;
	struct gd_child_result *res;
	double t0;
	struct gd_sup_lines L;
	struct sup_stream s[2];
};

/* Takes what is in the pipe now, at most 32 buffers (2 MiB), without
 * blocking: a flood must not starve the deadline check. Big reads: each
 * call is a round trip to the kernel (under Wine, to wineserver). */
static size_t drain(struct sup *st, struct sup_stream *s)
{
	char b[65536];
	size_t total = 0;

	for (int k = 0; s->rd && k < 32; k++) {
		DWORD avail = 0, got = 0;

		if (!PeekNamedPipe(s->rd, NULL, 0, NULL, &avail, NULL) ||
		    !avail)
			break;
		if (!ReadFile(s->rd, b, avail < sizeof b ? avail : sizeof b,
			      &got, NULL) ||
		    !got)
			break;
		gd_sup_split(&st->L, &s->b, b, got);
		total += got;
	}
	return total;
}

/* The environment the child gets: spec's (or ours), plus the phase
 * channel's handle number. NULL-terminated, entries borrowed but own. */
static char **child_env(const struct gd_child_spec *spec, HANDLE ph, char *own,
			size_t cap)
{
	char *const *src = spec->envp ? spec->envp : gd_plat_environ();
	size_t n = 0, k = 0;
	char **env;

	while (src && src[n])
		n++;
	if (!(env = calloc(n + 2, sizeof *env)))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!ph || !gd_startswith(src[i], "GPUDOCTOR_PHASE_FD="))
			env[k++] = src[i];
	if (ph) {
		gd_fmt(own, cap, "GPUDOCTOR_PHASE_FD=%lu",
		       (unsigned long)(uintptr_t)ph);
		env[k++] = own;
	}
	return env;
}

/* CreateProcessW with only the listed handles inherited. 0 or the
 * Windows error. */
static DWORD create(const struct gd_child_spec *spec, HANDLE out, HANDLE ph,
		    PROCESS_INFORMATION *pi)
{
	STARTUPINFOEXW si;
	HANDLE inh[2] = {out, ph};
	SIZE_T asz = 0;
	char own[64];
	char **env = child_env(spec, ph, own, sizeof own);
	wchar_t *prog =
	    spec->search_path ? gd_w32_find_program(spec->argv[0], env) : NULL;
	wchar_t *cl = gd_w32_command_line(spec->argv);
	wchar_t *wenv = env ? gd_w32_env_block(env) : NULL;
	wchar_t *cwd = spec->cwd ? gd_w32_wide(spec->cwd) : NULL;
	DWORD e = 0, flags = CREATE_SUSPENDED | CREATE_NO_WINDOW |
			     CREATE_UNICODE_ENVIRONMENT;

	memset(&si, 0, sizeof si);
	si.StartupInfo.cb = sizeof si;
	si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
	si.StartupInfo.hStdInput = INVALID_HANDLE_VALUE;
	si.StartupInfo.hStdOutput = out;
	si.StartupInfo.hStdError = out;
	InitializeProcThreadAttributeList(NULL, 1, 0, &asz);
	si.lpAttributeList = malloc(asz);
	if (si.lpAttributeList &&
	    InitializeProcThreadAttributeList(si.lpAttributeList, 1, 0, &asz) &&
	    UpdateProcThreadAttribute(
		si.lpAttributeList, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inh,
		(ph ? 2 : 1) * sizeof(HANDLE), NULL, NULL))
		flags |= EXTENDED_STARTUPINFO_PRESENT;
	/* No "DLL not found" or crash dialog waits for a click. */
	SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX |
		     SEM_NOOPENFILEERRORBOX);
	if (!cl || !wenv ||
	    !CreateProcessW(prog, cl, NULL, NULL, TRUE, flags, wenv, cwd,
			    &si.StartupInfo, pi))
		e = cl && wenv ? GetLastError() : ERROR_NOT_ENOUGH_MEMORY;
	if (flags & EXTENDED_STARTUPINFO_PRESENT)
		DeleteProcThreadAttributeList(si.lpAttributeList);
	free(si.lpAttributeList);
	free(env);
	free(prog);
	free(cl);
	free(wenv);
	free(cwd);
	return e;
}

static void nostart(struct gd_child_result *res, const char *prog, DWORD e)
{
	char why[200] = "";

	FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM |
			   FORMAT_MESSAGE_IGNORE_INSERTS,
		       NULL, e, 0, why, sizeof why, NULL);
	res->outcome = GD_CHILD_NOSTART;
	res->start_errno = -gd_w32_errno(e);
	gd_fmt(res->error, sizeof res->error, "cannot run %s: %s", prog,
	       why[0] ? gd_trim(why) : "Windows error");
}

static int stop_now(struct sup *st, double deadline, double now)
{
	const struct gd_child_spec *sp = st->spec;

	return now >= deadline || (sp->cancel && *sp->cancel) ||
	       (sp->should_stop && sp->should_stop(sp->arg));
}

/* Polls the pipes and the process until it ends or must stop. Returns 1
 * when it was stopped. */
static int watch(struct sup *st, HANDLE proc, int pid)
{
	const struct gd_child_spec *sp = st->spec;
	double deadline = st->t0 + (sp->timeout_s > 0 ? sp->timeout_s : 30.0),
	       now;
	size_t got = 0;

	for (;;) {
		/* while output flows, no pause between rounds: the pipe's
		 * 64 KiB would hold a flooding child back (--selftest's
		 * output_flood: 64 MiB) */
		DWORD w = WaitForSingleObject(proc, got ? 0 : SUP_TICK_MS);

		got = drain(st, &st->s[1]);
		got += drain(st, &st->s[0]);
		if (w == WAIT_OBJECT_0)
			return 0;
		now = gd_now();
		if (!stop_now(st, deadline, now))
			continue;
		st->res->outcome = GD_CHILD_HUNG;
		st->res->cancelled = sp->cancel && *sp->cancel;
		if (now >= deadline && sp->on_deadline)
			sp->on_deadline(sp->arg, pid);
		st->res->seconds = now - st->t0;
		st->res->phase_seconds = now - st->L.phase_t0;
		return 1;
	}
}

/* The console host the system starts for a console program without a
 * console (CREATE_NO_WINDOW) lands in its job; it is not the child's. */
static int is_conhost(DWORD pid)
{
	HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
	wchar_t name[MAX_PATH * 2];
	DWORD n = sizeof name / sizeof *name;
	const wchar_t *base;
	int yes = 0;

	if (!h)
		return 0;
	if (QueryFullProcessImageNameW(h, 0, name, &n)) {
		base = wcsrchr(name, L'\\');
		base = base ? base + 1 : name;
		yes = !_wcsicmp(base, L"conhost.exe");
	}
	CloseHandle(h);
	return yes;
}

/* Processes still in the job after the child's own exit: its leftovers.
 * Counted, less the child itself (its entry may linger a moment after its
 * handle is signalled) and console hosts: Wine lists in the job only the
 * processes that were set up in it, not every one it counts. */
static int job_leftovers(HANDLE job, DWORD child)
{
	JOBOBJECT_BASIC_ACCOUNTING_INFORMATION ai;
	struct {
		JOBOBJECT_BASIC_PROCESS_ID_LIST l;
		ULONG_PTR more[63];
	} ids;
	DWORD ours = 0;

	memset(&ids, 0, sizeof ids);
	ids.l.NumberOfAssignedProcesses = 64;
	if (!QueryInformationJobObject(job, JobObjectBasicAccountingInformation,
				       &ai, sizeof ai, NULL))
		return 0;
	if (QueryInformationJobObject(job, JobObjectBasicProcessIdList, &ids,
				      sizeof ids, NULL))
		for (DWORD i = 0; i < ids.l.NumberOfProcessIdsInList && i < 64;
		     i++) {
			DWORD pid = (DWORD)ids.l.ProcessIdList[i];

			if (pid != child && !is_conhost(pid))
				return 1;
			ours++;
		}
	return ai.ActiveProcesses > ours;
}

static void finish(struct sup *st, HANDLE job, HANDLE proc, int stopped)
{
	struct gd_child_result *res = st->res;
	DWORD code = 1;

	if (!stopped && job_leftovers(job, (DWORD)res->pid))
		res->leftovers_killed = 1;
	TerminateJobObject(job, 1);
	if (stopped) /* where jobs do not nest, the child is not in ours */
		TerminateProcess(proc, 1);
	WaitForSingleObject(proc, 2000);
	for (int i = 0; i < 2; i++) {
		/* what is still buffered, bounded */
		for (int k = 0; k < 64 && drain(st, &st->s[i]); k++)
			;
		gd_sup_flush(&st->L, &st->s[i].b);
	}
	if (stopped)
		return;
	GetExitCodeProcess(proc, &code);
	res->seconds = gd_now() - st->t0;
	res->phase_seconds = gd_now() - st->L.phase_t0;
	/* An unhandled exception ends a process with its NTSTATUS. */
	if ((code & 0xF0000000u) == 0xC0000000u) {
		res->outcome = GD_CHILD_SIGNALED;
		res->signo = (int)code;
	} else {
		res->outcome = GD_CHILD_EXITED;
		res->exit_code = (int)code;
	}
}

static int make_pipe(HANDLE *rd, HANDLE *wr)
{
	SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};

	if (!CreatePipe(rd, wr, &sa, 1 << 20))
		return -1;
	SetHandleInformation(*rd, HANDLE_FLAG_INHERIT, 0);
	return 0;
}

int gd_child_run(const struct gd_child_spec *spec, struct gd_child_result *res)
{
	struct sup *st = calloc(1, sizeof *st);
	HANDLE out_w = NULL, ph_w = NULL, job = NULL;
	PROCESS_INFORMATION pi;
	DWORD e;
	int stopped;

	memset(res, 0, sizeof *res);
	if (!st)
		return -ENOMEM;
	st->spec = st->L.spec = spec;
	st->res = st->L.res = res;
	st->s[1].b.is_phase = 1;
	if (!spec->argv || !spec->argv[0]) {
		res->outcome = GD_CHILD_NOSTART;
		gd_strlcpy(res->error, "no program given", sizeof res->error);
		free(st);
		return 0;
	}
	if (make_pipe(&st->s[0].rd, &out_w) < 0 ||
	    (spec->phase_pipe && make_pipe(&st->s[1].rd, &ph_w) < 0) ||
	    !(job = gd_w32_kill_job())) {
		e = GetLastError();
		for (int i = 0; i < 2; i++)
			if (st->s[i].rd)
				CloseHandle(st->s[i].rd);
		if (out_w)
			CloseHandle(out_w);
		free(st);
		return gd_w32_errno(e);
	}
	st->t0 = st->L.phase_t0 = gd_now();
	e = create(spec, out_w, ph_w, &pi);
	CloseHandle(out_w);
	if (ph_w)
		CloseHandle(ph_w);
	if (e) {
		nostart(res, spec->argv[0], e);
	} else {
		res->pid = (int)pi.dwProcessId;
		AssignProcessToJobObject(job, pi.hProcess);
		ResumeThread(pi.hThread);
		CloseHandle(pi.hThread);
		stopped = watch(st, pi.hProcess, res->pid);
		finish(st, job, pi.hProcess, stopped);
		CloseHandle(pi.hProcess);
		gd_sup_tail(&st->L);
	}
	CloseHandle(job);
	for (int i = 0; i < 2; i++) {
		if (st->s[i].rd)
			CloseHandle(st->s[i].rd);
		gd_sup_free(&st->s[i].b);
	}
	free(st);
	return 0;
}

void gd_child_describe(const struct gd_child_result *res, char *buf, size_t cap)
{
	char crash[64];

	switch (res->outcome) {
	case GD_CHILD_EXITED:
		gd_fmt(buf, cap, "exited %d", res->exit_code);
		break;
	case GD_CHILD_SIGNALED:
		gd_plat_crash_name((unsigned)res->signo, crash, sizeof crash);
		gd_fmt(buf, cap, "crashed with exception %s", crash);
		break;
	case GD_CHILD_HUNG:
		gd_fmt(buf, cap, "%s for %.1f s%s%s%s",
		       res->cancelled ? "stopped" : "hung", res->seconds,
		       res->phase[0] ? " in phase '" : " before any phase",
		       res->phase, res->phase[0] ? "'" : "");
		break;
	case GD_CHILD_NOSTART:
		gd_fmt(buf, cap, "could not start: %s", res->error);
		break;
	}
}
