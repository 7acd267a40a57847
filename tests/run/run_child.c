/* A real program for tests/scripts/test_run_explain.sh: what `gpudoctor
 * run` starts, in one of these modes (argv[1]):
 *   fail     a line on stdout, then on stderr the CUDA runtime's own text
 *            for cudaErrorNoKernelImageForDevice (209) as gpu-burn prints
 *            it when cuModuleLoad fails (the same text as
 *            tests/fixtures/logs/cuda-no-kernel-image.txt), exit 1
 *   code     only the driver API's code name (cuGetErrorName), exit 1
 *   print L  the line L on stderr, exit 1
 *   bytes    every byte value, a 70000-byte line and no final newline on
 *            stdout and stderr, exit 3
 *   term     "ready" on stdout, then wait; SIGTERM: "child got SIGTERM"
 *            on stderr and exit 42
 *   raise N  die of signal N
 *   tty      "stdout tty=%d stderr tty=%d stdin tty=%d"
 *   stdin    copy stdin to stdout, exit 0
 * Built for Windows too (tests/windows.cmake, for test_windows.sh), where
 * term and raise are not; instead:
 *   crash    an access violation (0xC0000005)
 *   ctrlc catch|die  a Ctrl-C to the console's processes
 *            (GenerateConsoleCtrlEvent: run's and this one's); catch:
 *            "child got Ctrl-C" on stderr and exit 42; die: the default
 *            handler ends it (0xC000013A). Exit 77 with a line on stderr
 *            when no Ctrl-C arrives (no console: under Wine, a pipe). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _WIN32
#include <windows.h>
#endif

static void bytes(FILE *f, int salt)
{
	for (int i = 0; i < 256; i++)
		fputc((i + salt) & 0xff, f);
	for (int i = 0; i < 70000; i++)
		fputc('a' + (i + salt) % 26, f);
	fputc('\n', f);
	fputs("no newline at the end", f);
}

#ifdef _WIN32
static volatile LONG got_ctrl;

static BOOL WINAPI on_ctrl(DWORD ev)
{
	(void)ev;
	InterlockedExchange(&got_ctrl, 1);
	return TRUE;
}

static int ctrlc(const char *how)
{
	int i;

	if (!strcmp(how, "catch"))
		SetConsoleCtrlHandler(on_ctrl, TRUE);
	if (!GenerateConsoleCtrlEvent(CTRL_C_EVENT, 0)) {
		fprintf(stderr, "no console to send Ctrl-C on (error %lu)\n",
			(unsigned long)GetLastError());
		return 77;
	}
	for (i = 0; i < 100 && !got_ctrl; i++)
		Sleep(50);
	if (!got_ctrl) {
		fprintf(stderr, "no Ctrl-C arrived\n");
		return 77;
	}
	fprintf(stderr, "child got Ctrl-C\n");
	return 42;
}

static int crash(void)
{
	/* the pointer itself volatile: the compiler cannot see the fault
	 * coming (-Warray-bounds on a constant address) */
	volatile int *volatile p = (volatile int *)(size_t)8;

	fprintf(stderr, "about to fault\n");
	fflush(stderr);
	*p = 1;
	return 99;
}
#else
static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

static int term(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	printf("ready\n");
	fflush(stdout);
	for (int i = 0; i < 200 && !got_term; i++)
		usleep(50000);
	if (!got_term)
		return 5;
	fprintf(stderr, "child got SIGTERM\n");
	return 42;
}
#endif

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	if (!strcmp(m, "fail")) {
		printf("Initialized device 0 with 81079 MB of memory\n");
		fflush(stdout);
		fprintf(stderr, "Couldn't init a GPU test: Error in load "
				"module: no kernel image is available for "
				"execution on the device\n");
		return 1;
	}
	if (!strcmp(m, "code")) {
		fprintf(stderr, "cuModuleLoad failed: "
				"CUDA_ERROR_NO_BINARY_FOR_GPU\n");
		return 1;
	}
	if (!strcmp(m, "print") && argc > 2) {
		fprintf(stderr, "%s\n", argv[2]);
		return 1;
	}
	if (!strcmp(m, "bytes")) {
		bytes(stdout, 0);
		bytes(stderr, 7);
		return 3;
	}
#ifdef _WIN32
	if (!strcmp(m, "crash"))
		return crash();
	if (!strcmp(m, "ctrlc") && argc > 2)
		return ctrlc(argv[2]);
#else
	if (!strcmp(m, "term"))
		return term();
	if (!strcmp(m, "raise") && argc > 2) {
		signal(atoi(argv[2]), SIG_DFL);
		raise(atoi(argv[2]));
		return 99;
	}
#endif
	if (!strcmp(m, "tty")) {
		printf("stdout tty=%d stderr tty=%d stdin tty=%d\n", isatty(1),
		       isatty(2), isatty(0));
		return 0;
	}
	if (!strcmp(m, "stdin")) {
		int c;

		while ((c = getchar()) != EOF)
			putchar(c);
		return 0;
	}
	fprintf(stderr, "usage: run_child fail|code|print L|bytes|term|raise "
			"N|tty|stdin\n");
	return 2;
}
