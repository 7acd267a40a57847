/* `gpudoctor run` on Windows: CMD as our child (CreateProcess, in a
 * kill-on-close Job Object as gd_plat_exec does), its stdout and stderr
 * each a pipe that a thread of ours copies, unchanged, to our own stdout
 * or stderr handle while the last lines are kept for explain
 * (run_keep.h). CMD keeps our console, stdin and process group: Ctrl-C and
 * Ctrl-Break reach it directly; we ignore them while it runs and wait for
 * its exit code. Unlike on Linux, where a terminal stays one, CMD's
 * stdout and stderr are pipes here (docs/workarounds.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "core/plat_win32.h"
#include "run_keep.h"
#include "run_tee.h"

/* Ctrl-C ends CMD with this NTSTATUS: the user's will, nothing to
 * explain (as SIGINT on Linux). */
#define GD_STATUS_CONTROL_C_EXIT 0xC000013Au

/* One of CMD's output streams and the thread copying it. */
struct stream {
	HANDLE rd, wr; /* the pipe: we read rd, CMD writes wr */
	HANDLE out;    /* our stdout or stderr; NULL: none, only kept */
	HANDLE thread;
	struct gd_run_line line;
	struct gd_run_keep *k;
	CRITICAL_SECTION *lock; /* k is both threads' */
};

static BOOL WINAPI ignore_ctrl(DWORD ev)
{
	(void)ev;
	return TRUE; /* CMD, on our console, decides what it means */
}

static int write_all(HANDLE h, const char *b, DWORD n)
{
	while (n) {
		DWORD w = 0;

		if (!WriteFile(h, b, n, &w, NULL) || !w)
			return -1;
		b += w;
		n -= w;
	}
	return 0;
}

static DWORD WINAPI copy_stream(void *arg)
{
	struct stream *s = arg;
	char buf[65536];
	DWORD r;

	while (ReadFile(s->rd, buf, sizeof buf, &r, NULL) && r) {
		int gone = s->out && write_all(s->out, buf, r) < 0;

		EnterCriticalSection(s->lock);
		gd_run_keep_lines(s->k, &s->line, buf, r);
		LeaveCriticalSection(s->lock);
		if (gone) { /* our reader went away: so does CMD's, as
			       without us (its next write fails) */
			CloseHandle(s->rd);
			s->rd = NULL;
			break;
		}
	}
	EnterCriticalSection(s->lock);
	gd_run_keep_flush(s->k, &s->line);
	LeaveCriticalSection(s->lock);
	return 0;
}

static HANDLE our_handle(DWORD which)
{
	HANDLE h = GetStdHandle(which);

	return h == INVALID_HANDLE_VALUE ? NULL : h;
}

/* 0, or a Windows error (all closed). */
static DWORD streams_open(struct stream *st)
{
	SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};

	for (int i = 0; i < 2; i++) {
		st[i].rd = st[i].wr = st[i].thread = NULL;
		st[i].out =
		    our_handle(i ? STD_ERROR_HANDLE : STD_OUTPUT_HANDLE);
		st[i].line.n = 0;
	}
	for (int i = 0; i < 2; i++) {
		if (!CreatePipe(&st[i].rd, &st[i].wr, &sa, 1 << 16)) {
			DWORD e = GetLastError();

			for (int j = 0; j < i; j++) {
				CloseHandle(st[j].rd);
				CloseHandle(st[j].wr);
			}
			return e;
		}
		SetHandleInformation(st[i].rd, HANDLE_FLAG_INHERIT, 0);
	}
	return 0;
}

/* An inheritable copy of our stdin for CMD; NULL when we have none. */
static HANDLE stdin_copy(void)
{
	HANDLE in = our_handle(STD_INPUT_HANDLE), dup = NULL;

	if (in && !DuplicateHandle(GetCurrentProcess(), in, GetCurrentProcess(),
				   &dup, 0, TRUE, DUPLICATE_SAME_ACCESS))
		dup = NULL;
	return dup;
}

/* CMD started suspended in job, then resumed; 0 or a Windows error. */
static DWORD start(char *const *cmd, char *const *env, HANDLE job,
		   struct stream *st, PROCESS_INFORMATION *pi)
{
	STARTUPINFOW si;
	wchar_t *prog = gd_w32_find_program(cmd[0], env);
	wchar_t *cl = gd_w32_command_line(cmd);
	wchar_t *wenv = env ? gd_w32_env_block(env) : NULL;
	HANDLE in = stdin_copy();
	DWORD e = 0;

	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = in;
	si.hStdOutput = st[0].wr;
	si.hStdError = st[1].wr;
	if (!cl)
		e = ERROR_NOT_ENOUGH_MEMORY;
	else if (!CreateProcessW(prog, cl, NULL, NULL, TRUE,
				 CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT,
				 wenv, NULL, &si, pi))
		e = GetLastError();
	free(prog);
	free(cl);
	free(wenv);
	if (in)
		CloseHandle(in);
	if (e)
		return e;
	/* where jobs do not nest the child stays in ours */
	AssignProcessToJobObject(job, pi->hProcess);
	return 0;
}

/* The NTSTATUS of an exception (0xC...) is a crash; Ctrl-C's is the
 * user's. The status run returns is the code itself, as cmd.exe's. */
static void result(DWORD code, struct gd_run_out *o)
{
	o->exit_code = (int)code;
	if ((code & 0xF0000000u) != 0xC0000000u)
		return;
	o->signo = (int)code;
	o->by_user = code == GD_STATUS_CONTROL_C_EXIT;
	o->crashed = !o->by_user;
}

/* Waits for CMD, then for the copying threads; closing the job ends
 * whatever CMD left running, and with it the last writers of the pipes.
 * Where it cannot (jobs that do not nest), a copy still blocked after a
 * moment is cancelled: that process's later writes fail. */
static DWORD wait_all(PROCESS_INFORMATION *pi, HANDLE job, struct stream *st)
{
	DWORD code = 1;

	WaitForSingleObject(pi->hProcess, INFINITE);
	GetExitCodeProcess(pi->hProcess, &code);
	CloseHandle(job);
	for (int i = 0; i < 2; i++) {
		if (!st[i].thread)
			continue;
		if (WaitForSingleObject(st[i].thread, 2000) != WAIT_TIMEOUT)
			continue;
		CancelSynchronousIo(st[i].thread);
		/* the kept output is about to be read and freed: a copy
		 * that would not end is ended (it holds nothing else) */
		if (WaitForSingleObject(st[i].thread, 2000) == WAIT_TIMEOUT)
			TerminateThread(st[i].thread, 1);
	}
	return code;
}

static void streams_close(struct stream *st)
{
	for (int i = 0; i < 2; i++) {
		if (st[i].wr)
			CloseHandle(st[i].wr);
		if (st[i].rd)
			CloseHandle(st[i].rd);
		if (st[i].thread)
			CloseHandle(st[i].thread);
		st[i].rd = st[i].wr = st[i].thread = NULL;
	}
}

/* CMD started and its streams copied until it ends; 0 or -errno. */
static int run_child(char *const *cmd, char *const *env, struct stream *st,
		     struct gd_run_out *o)
{
	PROCESS_INFORMATION pi;
	HANDLE job = gd_w32_kill_job();
	DWORD e;

	if (!job)
		return gd_w32_errno(GetLastError());
	e = start(cmd, env, job, st, &pi);
	for (int i = 0; i < 2; i++) { /* CMD's ends: its alone now */
		CloseHandle(st[i].wr);
		st[i].wr = NULL;
	}
	if (e) {
		CloseHandle(job);
		o->start_errno = -gd_w32_errno(e);
		return 0;
	}
	for (int i = 0; i < 2; i++)
		st[i].thread =
		    CreateThread(NULL, 0, copy_stream, &st[i], 0, NULL);
	SetConsoleCtrlHandler(ignore_ctrl, TRUE);
	ResumeThread(pi.hThread);
	CloseHandle(pi.hThread);
	for (int i = 0; i < 2; i++)
		if (!st[i].thread) /* no thread: read here, after CMD */
			copy_stream(&st[i]);
	result(wait_all(&pi, job, st), o);
	SetConsoleCtrlHandler(ignore_ctrl, FALSE);
	CloseHandle(pi.hProcess);
	return 0;
}

int gd_run_tee(char *const *cmd, char *const *env, struct gd_run_out *o)
{
	struct stream st[2];
	struct gd_run_keep k;
	CRITICAL_SECTION lock;
	DWORD e;
	int rc;

	memset(o, 0, sizeof *o);
	if (gd_run_keep_init(&k) < 0)
		return -ENOMEM;
	e = streams_open(st);
	if (e) {
		gd_run_keep_free(&k);
		return gd_w32_errno(e);
	}
	InitializeCriticalSection(&lock);
	for (int i = 0; i < 2; i++) {
		st[i].k = &k;
		st[i].lock = &lock;
	}
	fflush(NULL);
	rc = run_child(cmd, env, st, o);
	streams_close(st);
	DeleteCriticalSection(&lock);
	if (!rc && !o->start_errno)
		rc = gd_run_keep_finish(&k, o);
	gd_run_keep_free(&k);
	return rc;
}

void gd_run_out_free(struct gd_run_out *o)
{
	free(o->log);
	o->log = NULL;
}
