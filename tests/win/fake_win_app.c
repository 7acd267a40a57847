/* A test double for `try` and `run` under Wine (test_windows.sh): a
 * program that does, on demand, what a GPU app does when it goes wrong on
 * Windows and no runtime here can be made to do: hang inside a call, crash
 * with an access violation, leave a process behind that outlives it. Also
 * says what environment it got (the profile's HIP_PATH, PATH).
 *   fake_win_app ok | exit N | hang | crash | orphan FILE | late FILE |
 *                env VAR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

/* "late FILE" started without waiting: a grandchild that writes FILE
 * after 2 s unless it is ended first. */
static int orphan(const char *file)
{
	wchar_t self[MAX_PATH], wf[MAX_PATH], cl[2 * MAX_PATH + 32];
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;

	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	GetModuleFileNameW(NULL, self, MAX_PATH);
	if (!MultiByteToWideChar(CP_UTF8, 0, file, -1, wf, MAX_PATH))
		return 2;
	_snwprintf(cl, sizeof cl / sizeof *cl, L"\"%ls\" late \"%ls\"", self,
		   wf);
	cl[sizeof cl / sizeof *cl - 1] = 0;
	/* asks to leave the job; a job without BREAKAWAY_OK refuses, so
	 * plain creation is the fallback */
	if (!CreateProcessW(NULL, cl, NULL, NULL, FALSE,
			    CREATE_BREAKAWAY_FROM_JOB | DETACHED_PROCESS, NULL,
			    NULL, &si, &pi) &&
	    !CreateProcessW(NULL, cl, NULL, NULL, FALSE, DETACHED_PROCESS, NULL,
			    NULL, &si, &pi))
		return 2;
	CloseHandle(pi.hThread);
	CloseHandle(pi.hProcess);
	printf("fake: started a helper that outlives me\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "ok";

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(m, "ok")) {
		printf("fake: hipInit ok, 1 device\n");
		return 0;
	}
	if (!strcmp(m, "exit") && argc > 2) {
		printf("fake: giving up\n");
		return atoi(argv[2]);
	}
	if (!strcmp(m, "hang")) {
		printf("fake: hipMemcpy waiting\n");
		Sleep(INFINITE);
	}
	if (!strcmp(m, "crash")) {
		printf("fake: rocblas_gemm\n");
		volatile int *volatile p = NULL;

		*p = 1; /* 0xC0000005 */
		return 0;
	}
	if (!strcmp(m, "orphan") && argc > 2)
		return orphan(argv[2]);
	if (!strcmp(m, "late") && argc > 2) {
		FILE *f;

		Sleep(2000);
		if ((f = fopen(argv[2], "w")))
			fclose(f);
		return 0;
	}
	if (!strcmp(m, "env") && argc > 2) {
		const char *v = getenv(argv[2]);

		printf("%s=%s\n", argv[2], v ? v : "(unset)");
		return 0;
	}
	return 99;
}
