/* Which HIP result the probe verdict quotes when HIP was probed through
 * several runtimes side by side (Windows: one child per amdhip64_N.dll,
 * probe.c add_backend_jobs; each result's detail starts with the DLL's
 * name, each device names the DLL it loaded). The shape is that of
 * tests/fixtures/windows-rx6800xt-hip64-hip71: "HIP 7.1 amdhip64_7.dll:
 * hipGetDeviceCount => err=100, count=0 / HIP 6.4 amdhip64_6.dll:
 * hipGetDeviceCount => err=0, count=1". The verdict must quote the runtime that
 * works, whatever the order of the results, and name the other.
 * tests/scripts/test_windows.sh checks the detail prefixes on real children
 * under Wine. */
#include <stdlib.h>
#include <string.h>

#include "doctor/evidence.h"
#include "probe/probe.h"
#include "t.h"

static void result(struct gd_probe_report *r, const char *op,
		   enum gd_probe_status st, const char *detail)
{
	struct gd_probe_result *x = gd_vec_push(&r->results);

	gd_strlcpy(x->backend, "hip", sizeof x->backend);
	gd_strlcpy(x->op, op, sizeof x->op);
	x->status = st;
	x->dev = strcmp(op, "init") ? 0 : -1;
	gd_strlcpy(x->detail, detail, sizeof x->detail);
}

static void hip7_no_device(struct gd_probe_report *r)
{
	result(r, "init", GD_PS_NODEVICE,
	       "amdhip64_7.dll: hipErrorNoDevice (100): no ROCm-capable "
	       "device is detected");
}

static void hip6_works(struct gd_probe_report *r)
{
	struct gd_probe_device *d;

	result(r, "init", GD_PS_OK, "amdhip64_6.dll: HIP runtime 6.4");
	result(r, "gemm_fp32", GD_PS_OK, "amdhip64_6.dll: max error 0");
	d = gd_vec_push(&r->devices);
	gd_strlcpy(d->backend, "hip", sizeof d->backend);
	gd_strlcpy(d->name, "AMD Radeon RX 6800 XT", sizeof d->name);
	gd_strlcpy(d->isa, "gfx1030", sizeof d->isa);
	gd_strlcpy(d->library,
		   "C:\\Program Files\\AMD\\ROCm\\6.4\\bin\\amdhip64_6.dll",
		   sizeof d->library);
}

static const char want_works[] =
    "HIP works on AMD Radeon RX 6800 XT (gfx1030) [through amdhip64_6.dll; "
    "also probed: amdhip64_7.dll: no usable device]";

static void test_working_runtime_quoted(int seven_first)
{
	struct gd_probe_report r;
	struct gd_probe_verdict v[8];
	size_t n;

	memset(&r, 0, sizeof r);
	if (seven_first) {
		hip7_no_device(&r);
		hip6_works(&r);
	} else {
		hip6_works(&r);
		hip7_no_device(&r);
	}
	n = gd_probe_verdicts(&r, v, 8);
	CHECK_INT(n, 1);
	CHECK_INT(v[0].level, GD_PV_WORKS);
	CHECK_STR(v[0].text, want_works);
	gd_probe_report_free(&r);
}

/* Both see no device: the first probed (the newest major) is quoted, the
 * other named. */
static void test_none_works(void)
{
	struct gd_probe_report r;
	struct gd_probe_verdict v[8];

	memset(&r, 0, sizeof r);
	hip7_no_device(&r);
	result(&r, "init", GD_PS_NODEVICE,
	       "amdhip64_6.dll: hipErrorNoDevice (100): no ROCm-capable "
	       "device is detected");
	CHECK_INT(gd_probe_verdicts(&r, v, 8), 1);
	CHECK_INT(v[0].level, GD_PV_ABSENT);
	CHECK(strstr(v[0].text, "HIP: no usable device: amdhip64_7.dll: ") ==
	      v[0].text);
	CHECK(strstr(v[0].text, "[through amdhip64_7.dll; also probed: "
				"amdhip64_6.dll: no usable device]") != NULL);
	gd_probe_report_free(&r);
}

/* One runtime (Linux, or one DLL found): the verdict as before. */
static void test_single_runtime(void)
{
	struct gd_probe_report r;
	struct gd_probe_verdict v[8];

	memset(&r, 0, sizeof r);
	hip6_works(&r);
	CHECK_INT(gd_probe_verdicts(&r, v, 8), 1);
	CHECK_STR(v[0].text, "HIP works on AMD Radeon RX 6800 XT (gfx1030)");
	gd_probe_report_free(&r);
}

int main(void)
{
	test_working_runtime_quoted(1);
	test_working_runtime_quoted(0);
	test_none_works();
	test_single_runtime();
	return t_done("test_probe_verdict");
}
