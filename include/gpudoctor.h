/* gpudoctor.h: the C API of gpudoctor (libgpudoctor.so.1, pkg-config
 * gpudoctor), for native apps that want to tell their users whether their
 * GPU can be used and why not ("Detected AMD RX 5700 XT (RDNA 1): usable
 * via ROCm after setup ...").
 *
 *   gpudoctor *h;
 *   int verdict = gpudoctor_open(NULL, 0, &h);
 *   if (verdict == GPUDOCTOR_OK)
 *       verdict = gpudoctor_check(h, 0, 0);
 *   if (verdict == GPUDOCTOR_ERROR)
 *       fprintf(stderr, "%s\n", gpudoctor_errmsg(h));
 *   else
 *       fputs(gpudoctor_brief(h), stdout);
 *   gpudoctor_close(h);
 *
 * The results are the bytes `gpudoctor check` prints: gpudoctor_brief() is
 * `check --brief`, gpudoctor_brief_json() `--json check --brief`,
 * gpudoctor_report() `check`, gpudoctor_report_json() `--json check`
 * (docs/json.md, docs/schema/). docs/c-api.md says more.
 *
 * Stability: functions are only added; what a function does, its
 * arguments and the meaning of its results do not change within API
 * version 1 (GPUDOCTOR_API_VERSION, the soname's 1). The handle is opaque.
 *
 * Probes: with GPUDOCTOR_CHECK_PROBES the check loads GPU runtimes (CUDA,
 * HIP, Vulkan, OpenCL) to see whether they work. That never happens in the
 * app's process: the library starts the gpudoctor program (the "helper",
 * found as gpudoctor_set_helper() says), which runs each probe in its own
 * supervised child with a deadline. Without that flag, or for a captured
 * machine, nothing is started and nothing but files is read.
 *
 * Threads: a handle is used by one thread at a time; different handles may
 * be used by different threads at once. The library changes no
 * process-wide state (signal handlers, environment, locale, current
 * directory); it reads the environment when a handle is opened.
 */
#ifndef GPUDOCTOR_H
#define GPUDOCTOR_H

#include <stddef.h> /* size_t */

#ifdef __cplusplus
extern "C" {
#endif

/* The API version this header describes. */
#define GPUDOCTOR_API_VERSION 1

/* Results of gpudoctor_open, gpudoctor_set_helper and gpudoctor_check:
 * the `gpudoctor check` command's exit codes. */
#define GPUDOCTOR_OK 0	     /* a GPU works for ML as the machine is */
#define GPUDOCTOR_UNUSABLE 1 /* a GPU is present but needs changes */
#define GPUDOCTOR_NO_GPU 2   /* no GPU: CPU only */
#define GPUDOCTOR_ERROR 3    /* gpudoctor_errmsg() says what went wrong */

/* gpudoctor_open flags */
#define GPUDOCTOR_OPEN_COLOR 0x1u /* text results with ANSI colours */

/* gpudoctor_check flags */
#define GPUDOCTOR_CHECK_PROBES 0x1u /* run the quick probes (helper) */
#define GPUDOCTOR_CHECK_VERBOSE                                                \
	0x2u /* gpudoctor_report(): every GPU in                               \
	      * full (check -v) */

typedef struct gpudoctor gpudoctor;

/* The API version of the library loaded (compare with
 * GPUDOCTOR_API_VERSION), and its release ("0.1.0"). */
unsigned gpudoctor_api_version(void);
const char *gpudoctor_version(void);

/* A handle on a machine: root is a captured machine's directory (a
 * `gpudoctor gather` capture unpacked, tests/fixtures/<machine>/root), or
 * NULL for this machine ("/"; $GPUDOCTOR_ROOT is not read). flags:
 * GPUDOCTOR_OPEN_*; unknown bits are an error. Returns GPUDOCTOR_OK or
 * GPUDOCTOR_ERROR. *out is set in both cases (NULL only when out of
 * memory), so gpudoctor_errmsg(*out) can say why; close it either way. */
int gpudoctor_open(const char *root, unsigned flags, gpudoctor **out);

/* The gpudoctor program that runs the probes: path, or NULL for the
 * default, which is $GPUDOCTOR_HELPER when set (read at gpudoctor_open),
 * else the program installed with this library (<prefix>/bin/gpudoctor).
 * It is only looked at when a check runs with GPUDOCTOR_CHECK_PROBES; a
 * helper that is missing then fails that check with a message naming it.
 * Returns GPUDOCTOR_OK or GPUDOCTOR_ERROR (path too long). */
int gpudoctor_set_helper(gpudoctor *h, const char *path);

/* Find the GPUs, the compute stack and the frameworks, and judge them.
 * flags: GPUDOCTOR_CHECK_*; probe_timeout_s: the deadline of each probe
 * (0: 10 s). Returns GPUDOCTOR_OK, _UNUSABLE or _NO_GPU (the verdict), or
 * GPUDOCTOR_ERROR. A check replaces the results of an earlier one. */
int gpudoctor_check(gpudoctor *h, unsigned flags, double probe_timeout_s);

/* The results of the last check, NUL-terminated, owned by the handle and
 * valid until the next gpudoctor_check or gpudoctor_close on it. NULL
 * before a successful check or when out of memory (gpudoctor_errmsg). */
const char *gpudoctor_brief(gpudoctor *h);	 /* one line per GPU */
const char *gpudoctor_brief_json(gpudoctor *h);	 /* {"gpus": [...]} */
const char *gpudoctor_report(gpudoctor *h);	 /* the full text report */
const char *gpudoctor_report_json(gpudoctor *h); /* the full JSON report */
/* Problems of the environment met on the way ("gpudoctor: warning: ..."
 * lines, "" when none): what the command prints on stderr. */
const char *gpudoctor_diagnostics(gpudoctor *h);

/* explain on an error text the app caught (len bytes: a traceback, a
 * runtime's message, a child's output; any encoding explain reads): the
 * JSON `gpudoctor --json explain` prints for a file holding it, with
 * "input": "app" (docs/schema/explain.json). Each match names its causes
 * as kb cause codes, likeliest first, ranked by the text's other lines and
 * this handle's machine (read at this call), and the fix. A text nothing
 * known matches gives "matches": []. Owned by the handle, valid until the
 * next gpudoctor_explain_json or gpudoctor_close; NULL on error
 * (gpudoctor_errmsg). Needs no check first; loads no GPU runtime. */
const char *gpudoctor_explain_json(gpudoctor *h, const char *text, size_t len);

/* Why the last call on h failed; "" when it did not. Never NULL for a
 * non-NULL h; owned by the handle. */
const char *gpudoctor_errmsg(const gpudoctor *h);

/* Frees the handle and every string it returned. NULL is allowed. */
void gpudoctor_close(gpudoctor *h);

#ifdef __cplusplus
}
#endif

#endif
