/* The probe layer's OS side on Windows, for now: children are supervised
 * through core/plat.h (a Job Object that kills the tree), but the runtime
 * backends (amdhip64_N.dll, nvcuda.dll, vulkan-1.dll, OpenCL.dll) are not
 * ported yet, so each reports itself unavailable rather than guessing. */
#include <errno.h>
#include <string.h>

#include "backend.h"
#include "core/plat.h"
#include "core/util.h"
#include "kmsg.h"
#include "probe_int.h"
#include "supervisor.h"

static int not_ported(struct gd_pc *pc)
{
	(void)pc;
	return 3;
}

const struct gd_backend gd_backend_cuda = {"cuda", "CUDA", not_ported};
const struct gd_backend gd_backend_hip = {"hip", "HIP", not_ported};
const struct gd_backend gd_backend_vulkan = {"vulkan", "Vulkan", not_ported};
const struct gd_backend gd_backend_opencl = {"opencl", "OpenCL", not_ported};
const struct gd_backend gd_backend_selftest = {"selftest", "selftest",
					       not_ported};

int gd_probe_child_main(gd_ctx *ctx, const struct gd_pc_args *args)
{
	(void)ctx;
	(void)args;
	return 3;
}

const char *gd_selftest_case(int i, const char **expected)
{
	(void)i;
	*expected = NULL;
	return NULL;
}

/* Windows has no kernel log a user can read: nothing is collected. */
int gd_kmsg_open(gd_ctx *ctx, struct gd_kmsg *k)
{
	(void)ctx;
	k->fd = -1;
	return -ENOTSUP;
}

size_t gd_kmsg_collect(struct gd_kmsg *k, char *out, size_t cap)
{
	(void)k;
	if (cap)
		out[0] = '\0';
	return 0;
}

void gd_kmsg_close(struct gd_kmsg *k)
{
	k->fd = -1;
}

static void tail_lines(const struct gd_child_spec *spec,
		       struct gd_child_result *res, char *out)
{
	char *save = NULL;

	for (char *l = strtok_r(out, "\r\n", &save); l;
	     l = strtok_r(NULL, "\r\n", &save)) {
		if (spec->on_line)
			spec->on_line(spec->arg, 0, l);
		gd_strlcpy(res->last_line, l, sizeof res->last_line);
	}
}

/* The supervisor's contract over gd_proc_run: deadline, whole tree killed,
 * output kept; no phase pipe yet (the Windows children do not report
 * phases), no per-op stop, no memory limit. */
int gd_child_run(const struct gd_child_spec *spec, struct gd_child_result *res)
{
	gd_proc_spec ps = {spec->argv, spec->envp, 0, sizeof res->tail - 1, 0};
	gd_proc_result pr;
	int rc;

	memset(res, 0, sizeof *res);
	ps.timeout_ms =
	    (int)((spec->timeout_s > 0 ? spec->timeout_s : 30) * 1000);
	if ((rc = gd_proc_run(&ps, &pr)) < 0)
		return rc;
	res->seconds = (double)pr.elapsed_ms / 1000;
	res->output_bytes = pr.out_len;
	gd_strlcpy(res->tail, pr.out ? pr.out : "", sizeof res->tail);
	switch (pr.how) {
	case GD_PROC_EXITED:
		res->outcome = GD_CHILD_EXITED;
		res->exit_code = (int)pr.code;
		break;
	case GD_PROC_CRASHED:
		res->outcome = GD_CHILD_SIGNALED;
		res->signo = (int)pr.code;
		break;
	case GD_PROC_TIMEOUT:
		res->outcome = GD_CHILD_HUNG;
		break;
	case GD_PROC_NOSTART:
		res->outcome = GD_CHILD_NOSTART;
		gd_proc_describe(&pr, ps.timeout_ms, res->error,
				 sizeof res->error);
		break;
	}
	if (pr.out)
		tail_lines(spec, res, pr.out);
	gd_proc_result_free(&pr);
	return 0;
}

void gd_child_describe(const struct gd_child_result *res, char *buf, size_t cap)
{
	switch (res->outcome) {
	case GD_CHILD_EXITED:
		gd_fmt(buf, cap, "exited %d", res->exit_code);
		break;
	case GD_CHILD_SIGNALED:
		gd_fmt(buf, cap, "crashed with exception 0x%08X",
		       (unsigned)res->signo);
		break;
	case GD_CHILD_HUNG:
		gd_fmt(buf, cap, "hung for %.1f s", res->seconds);
		break;
	case GD_CHILD_NOSTART:
		gd_strlcpy(buf, res->error, cap);
		break;
	}
}
