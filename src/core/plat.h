/* The few things gpudoctor asks of the operating system beyond C11, behind
 * one small interface per concern, with one implementation per OS:
 * plat_posix.c (Linux) and plat_win32.c (Windows, MinGW-w64). The build
 * picks the file (CMake: *_posix.c / *_win32.c), so code above core/ never
 * needs #ifdef _WIN32. The file-system root is the fourth concern; its
 * interface is fs.h (fs_posix.c / fs_win32.c). */
#ifndef GD_PLAT_H
#define GD_PLAT_H

#include <stddef.h>
#include <stdio.h>

/* ---- the system gpudoctor runs on ---- */

/* "linux" or "windows": the OS this binary was built for. */
const char *gd_plat_name(void);

/* Sleeps about ms milliseconds. */
void gd_plat_sleep_ms(int ms);

/* ---- environment ---- */

/* This process's environment, NULL-terminated, UTF-8 (on Windows converted
 * from the wide environment once; the strings live for the process). */
char **gd_plat_environ(void);
/* Path of this executable, for re-running itself. 0 or -errno. */
int gd_plat_self_exe(char *buf, size_t cap);
/* The separator of PATH-like lists: ':' (POSIX), ';' (Windows). */
char gd_plat_path_sep(void);

/* ---- output built in memory ---- */

/* A stream whose bytes end up in memory (a file written whole afterwards):
 * open_memstream on POSIX; Windows has none, so a delete-on-close
 * temporary file read back at the end. */
typedef struct gd_memstream {
	FILE *f;
	char *buf;
	size_t len;
} gd_memstream;
/* m->f, or NULL (errno set). */
FILE *gd_plat_memstream_open(gd_memstream *m);
/* Closes m->f; 0 with the bytes in *buf (malloc'd, NUL-terminated; the
 * caller frees) and *len, or -1 (nothing to free). */
int gd_plat_memstream_close(gd_memstream *m, char **buf, size_t *len);

/* ---- library loading ---- */

/* dlopen(name, RTLD_NOW|RTLD_LOCAL) / LoadLibraryExW with the safe default
 * search (application dir, System32, AddDllDirectory dirs; never the
 * current directory nor PATH, as Python >= 3.8 loads extension DLLs).
 * NULL on failure with the loader's message in err. */
void *gd_plat_lib_open(const char *name, char *err, size_t errcap);
void *gd_plat_lib_sym(void *lib, const char *sym);
void gd_plat_lib_close(void *lib);
/* The file the loader actually mapped for lib (dlinfo / GetModuleFileNameW). */
int gd_plat_lib_path(void *lib, const char *sym, char *buf, size_t cap);
/* Where gd_plat_lib_open(name) would find the file, without loading it:
 * Windows: this program's directory, then System32 (the default dirs of
 * a process that added none). 0 with the path, -ENOENT, or -ENOTSUP
 * where the loader's search cannot be followed by hand (ld.so.cache). */
int gd_plat_lib_find(const char *name, char *buf, size_t cap);

/* ---- process supervision ---- */

/* A child command run to completion or to its deadline, its whole process
 * tree killed afterwards: POSIX: own process group, SIGKILL to the group;
 * Windows: a Job Object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, so even
 * a grandchild that detached dies with the job. */
typedef struct gd_proc_spec {
	char *const *argv; /* argv[0] is the program (a path, or a name
			    * looked up in PATH) */
	char *const *envp; /* NULL: inherit ours */
	int timeout_ms;	   /* <= 0: no deadline */
	size_t out_cap;	   /* bytes of stdout+stderr kept (0: 64 KiB) */
	int same_group;	   /* POSIX: stay in the caller's process group, so
			    * a supervisor above us kills this child too
			    * (e.g. a probe child running a helper). Windows:
			    * jobs nest, the child is always in ours too. */
} gd_proc_spec;

enum gd_proc_how {
	GD_PROC_EXITED,	 /* code: exit status */
	GD_PROC_CRASHED, /* code: signal number (POSIX) or NTSTATUS (Windows) */
	GD_PROC_TIMEOUT, /* killed at the deadline */
	GD_PROC_NOSTART, /* code: errno / Windows error of the start */
};

typedef struct gd_proc_result {
	enum gd_proc_how how;
	unsigned code;
	char *out; /* stdout+stderr, interleaved, NUL-terminated */
	size_t out_len;
	int out_truncated;
	long elapsed_ms;
} gd_proc_result;

/* Runs spec; returns 0 when a result was filled (whatever the child did),
 * -errno when nothing could be attempted. Free with gd_proc_result_free. */
int gd_proc_run(const gd_proc_spec *spec, gd_proc_result *res);
void gd_proc_result_free(gd_proc_result *res);
/* "exited 3", "crashed: signal 11 (SIGSEGV)", "crashed: 0xC0000005
 * (access violation)", "timed out after 2000 ms", "did not start: ...". */
void gd_proc_describe(const gd_proc_result *res, int timeout_ms, char *buf,
		      size_t cap);
/* A crash code of gd_proc_result (or of a supervised child) as people know
 * it: "SIGSEGV" (POSIX signal number), "0xC0000005 (access violation)"
 * (Windows NTSTATUS). */
void gd_plat_crash_name(unsigned code, char *buf, size_t cap);

/* Runs argv in place of this process with envp, argv[0] looked up in the
 * PATH of envp (as env(1) does). POSIX: execvp, returns only on failure
 * (-errno). Windows has no exec: argv runs on our console inside a
 * kill-on-close Job Object (nothing it starts outlives us), we wait, and
 * 0 is returned with its exit status (an NTSTATUS after a crash) in
 * *status; -errno when it could not start. */
int gd_plat_exec(char *const *argv, char *const *envp, unsigned *status);

/* The write end of the phase channel a supervised child was given, from
 * the value of GPUDOCTOR_PHASE_FD: an fd number (POSIX) or the number of
 * an inherited pipe handle (Windows), as a C file descriptor for write();
 * -1 when the value is not one. */
int gd_plat_chan_fd(const char *value);

/* Until gd_plat_interrupts_restore(): Ctrl-C, SIGTERM, SIGHUP, SIGQUIT and
 * every other catchable signal whose default ends the process (USR1/2,
 * PIPE, ALRM, VTALRM, XCPU, XFSZ, PROF, IO, PWR, the real-time ones; one
 * the process inherited as ignored stays ignored) (Windows: Ctrl-C, Ctrl-Break,
 * the console closing) set *flag to the signal number (Windows: SIGINT for
 * Ctrl-C, SIGTERM for the others) and the process goes on, so a supervisor can
 * stop its children first. */
void gd_plat_interrupts_catch(volatile int *flag);
void gd_plat_interrupts_restore(void);

/* The C locale for this thread until gd_plat_locale_restore(ret): the
 * library's entry points run in an app that may have called
 * setlocale(LC_ALL, ""), where printf("%.1f") writes "1,5", strtod stops
 * at "1.5"'s point and strerror speaks the user's language; the command
 * never leaves the C locale, and the API's documents are the command's
 * (docs/c-api.md, "Locale"). NULL when nothing was changed (Windows: the
 * API runs only inside gpudoctor.exe, which keeps the C locale). */
void *gd_plat_c_locale(void);
void gd_plat_locale_restore(void *prev);

#endif
