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
 *   stdin    copy stdin to stdout, exit 0 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

static void bytes(FILE *f, int salt)
{
	for (int i = 0; i < 256; i++)
		fputc((i + salt) & 0xff, f);
	for (int i = 0; i < 70000; i++)
		fputc('a' + (i + salt) % 26, f);
	fputc('\n', f);
	fputs("no newline at the end", f);
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
	if (!strcmp(m, "term"))
		return term();
	if (!strcmp(m, "raise") && argc > 2) {
		signal(atoi(argv[2]), SIG_DFL);
		raise(atoi(argv[2]));
		return 99;
	}
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
