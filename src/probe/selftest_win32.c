/* probe/selftest on Windows (selftest_plat.h): a process left behind is
 * this program again, started with CreateProcessW; nothing can refuse
 * TerminateJobObject, so the SIGTERM case does not apply. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "backend.h"
#include "core/plat_win32.h"
#include "core/util.h"
#include "selftest_plat.h"

int gd_st_spawn_sleeper(struct gd_pc *pc, int hang_case, int wait, int leave)
{
	char only[16];
	char *argv[] = {pc->ctx->self_exe,
			"__probe-child",
			"selftest",
			"--only",
			only,
			NULL};
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	wchar_t *exe = gd_w32_wide(pc->ctx->self_exe), *cl;
	wchar_t *env = NULL;
	char **own = NULL;
	size_t n = 0, k = 0;
	BOOL okp;

	/* ours less GPUDOCTOR_PHASE_FD: that handle number is not the
	 * sleeper's (no handle is inherited) */
	while (pc->ctx->env && pc->ctx->env[n])
		n++;
	own = calloc(n + 1, sizeof *own);
	for (size_t i = 0; own && i < n; i++)
		if (!gd_startswith(pc->ctx->env[i], "GPUDOCTOR_PHASE_FD="))
			own[k++] = pc->ctx->env[i];
	env = own ? gd_w32_env_block(own) : NULL;
	free(own);

	(void)leave; /* a Job Object holds it wherever it goes */
	gd_fmt(only, sizeof only, "%d", hang_case);
	cl = gd_w32_command_line(argv);
	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	/* no handle inherited: the pipes stay the child's own */
	okp = exe && cl && env &&
	      CreateProcessW(exe, cl, NULL, NULL, FALSE,
			     CREATE_NO_WINDOW | CREATE_UNICODE_ENVIRONMENT, env,
			     NULL, &si, &pi);
	free(exe);
	free(cl);
	free(env);
	if (!okp)
		return -ENOENT;
	CloseHandle(pi.hThread);
	if (wait)
		WaitForSingleObject(pi.hProcess, INFINITE);
	CloseHandle(pi.hProcess);
	return 0;
}

int gd_st_ignore_stop(void)
{
	return 0;
}

/* ignores_sigterm: Windows has no polite stop to ignore. */
int gd_st_applies(const char *name)
{
	return strcmp(name, "ignores_sigterm") != 0;
}
