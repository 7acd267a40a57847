/* probe/ parsers on strings: the child's '@'-messages (classify.c), the
 * /dev/kmsg record format and GPU-line filter (kmsg.c), status names. */
#include <stdlib.h>

#include "probe/kmsg.h"
#include "probe/probe_int.h"
#include "t.h"

static void test_messages(void)
{
	struct gd_pjob j;

	memset(&j, 0, sizeof j);
	j.backend = "vulkan";
	j.only = -1;
	j.start = 1; /* a restarted child: step 0 (init) was reported before */
	CHECK_INT(
	    gd_pjob_apply_msg(&j,
			      "{\"t\":\"dev\",\"index\":0,\"name\":"
			      "\"llvmpipe\",\"software\":true,\"mem\":1024}",
			      0),
	    0);
	CHECK_INT(j.devices.n, 1);
	CHECK(j.devices.v[0].software);
	CHECK_INT(j.devices.v[0].mem_bytes, 1024);
	gd_pjob_apply_msg(
	    &j, "{\"t\":\"begin\",\"step\":0,\"op\":\"init\",\"dev\":-1}", 1);
	gd_pjob_apply_msg(&j, "{\"t\":\"res\",\"step\":0,\"status\":\"ok\"}",
			  2);
	CHECK_INT(j.results.n, 0); /* below start: not reported twice */
	gd_pjob_apply_msg(
	    &j, "{\"t\":\"begin\",\"step\":1,\"op\":\"gemm_fp32\",\"dev\":0}",
	    3);
	CHECK(j.in_op);
	CHECK_STR(j.op, "gemm_fp32");
	/* a result for another step is ignored */
	gd_pjob_apply_msg(&j, "{\"t\":\"res\",\"step\":7,\"status\":\"ok\"}",
			  4);
	CHECK_INT(j.results.n, 0);
	gd_pjob_apply_msg(&j,
			  "{\"t\":\"res\",\"step\":1,\"status\":\"wrong\","
			  "\"max_error\":0.5,\"detail\":\"A*I != A\"}",
			  5);
	CHECK_INT(j.results.n, 1);
	CHECK_STR(j.results.v[0].op, "gemm_fp32");
	CHECK_STR(j.results.v[0].device, "llvmpipe");
	CHECK_INT(j.results.v[0].status, GD_PS_WRONG);
	CHECK(j.results.v[0].max_error == 0.5);
	CHECK(!j.in_op);
	/* garbage and unknown statuses */
	CHECK_INT(gd_pjob_apply_msg(&j, "{\"t\":\"res\",\"st", 6), -1);
	CHECK_INT(gd_pjob_apply_msg(&j, "[1,2]", 6), -1);
	gd_pjob_apply_msg(
	    &j,
	    "{\"t\":\"begin\",\"step\":2,\"op\":\"x\\u001b[31m\",\"dev\":0}",
	    7);
	gd_pjob_apply_msg(&j, "{\"t\":\"res\",\"step\":2,\"status\":\"great\"}",
			  8);
	CHECK_INT(j.results.n, 2);
	CHECK_INT(j.results.v[1].status, GD_PS_ERROR);
	CHECK(strchr(j.results.v[1].op, '\033') == NULL); /* sanitized */
	gd_vec_free(&j.results);
	gd_vec_free(&j.devices);
	gd_vec_free(&j.figures);
}

/* The deadline rule (docs/probe.md, "Deadlines"): plain ops get the
 * per-op deadline from their start; an op that declared per-step progress
 * gets it per phase change, capped at GD_PROBE_PROGRESS_CAP deadlines. */
static void test_deadlines(void)
{
	struct gd_probe_opts o;
	struct gd_prun r;
	struct gd_pjob j;

	memset(&o, 0, sizeof o);
	memset(&r, 0, sizeof r);
	memset(&j, 0, sizeof j);
	r.opts = &o;
	r.timeout = 10;
	r.deadline = 1000;
	j.run = &r;
	j.backend = "vulkan";
	j.only = -1;
	gd_pjob_apply_msg(&j,
			  "{\"t\":\"begin\",\"step\":3,\"op\":"
			  "\"context_cycle\",\"dev\":0}",
			  100);
	CHECK(gd_pjob_deadline(&j, 109.9) == NULL);
	CHECK_STR(gd_pjob_deadline(&j, 110), "deadline");
	/* progress for another step is ignored */
	gd_pjob_apply_msg(&j, "{\"t\":\"progress\",\"step\":2}", 101);
	CHECK(!j.progress);
	gd_pjob_apply_msg(&j, "{\"t\":\"progress\",\"step\":3}", 101);
	CHECK(j.progress);
	gd_pjob_phase(&j, "thread 0 cycle 0 vkCreateDevice", 102);
	gd_pjob_phase(&j, "thread 1 cycle 0 vkCreateDevice", 108);
	CHECK(gd_pjob_deadline(&j, 115) == NULL); /* 15 s in, 7 s a step */
	gd_pjob_phase(&j, "thread 1 cycle 0 vkCreateDevice", 116); /* same */
	CHECK_STR(gd_pjob_deadline(&j, 118), "step deadline");
	for (int t = 118; t < 130; t += 5)
		gd_pjob_phase(&j, t % 2 ? "a" : "b", t);
	CHECK(gd_pjob_deadline(&j, 129.9) == NULL);
	CHECK_STR(gd_pjob_deadline(&j, 130), "progress cap"); /* 3 x 10 s */
	CHECK_STR(gd_pjob_deadline(&j, 1000), "whole-run deadline");
	/* the next op starts plain again */
	gd_pjob_apply_msg(&j, "{\"t\":\"res\",\"step\":3,\"status\":\"ok\"}",
			  131);
	gd_pjob_apply_msg(&j,
			  "{\"t\":\"begin\",\"step\":4,\"op\":"
			  "\"bench\",\"dev\":0}",
			  131);
	CHECK(!j.progress);
	gd_pjob_phase(&j, "bench: d2d", 140);
	CHECK_STR(gd_pjob_deadline(&j, 141), "deadline");
	gd_vec_free(&j.results);
	gd_vec_free(&j.devices);
	gd_vec_free(&j.figures);
}

static void test_kmsg(void)
{
	char rec[] = "3,812,90712345,-;amdgpu 0000:03:00.0: amdgpu: MES failed "
		     "to respond to msg=REMOVE_QUEUE\n SUBSYSTEM=pci\n";
	char bad[] = "no record here";
	unsigned long long us = 0;
	const char *m = gd_kmsg_parse(rec, strlen(rec), &us);

	CHECK(m != NULL);
	CHECK_INT(us, 90712345);
	CHECK(m && gd_startswith(m, "amdgpu 0000:03:00.0"));
	CHECK(m && gd_endswith(m, "REMOVE_QUEUE"));
	CHECK(m && gd_kmsg_is_gpu_line(m));
	CHECK(gd_kmsg_parse(bad, strlen(bad), &us) == NULL);
	CHECK(gd_kmsg_is_gpu_line(
	    "NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus."));
	CHECK(!gd_kmsg_is_gpu_line("EXT4-fs (sda1): mounted filesystem"));
}

static void test_status_names(void)
{
	enum gd_probe_status s;

	for (int i = GD_PS_OK; i <= GD_PS_SKIPPED; i++) {
		CHECK_INT(gd_probe_status_parse(gd_probe_status_name(i), &s),
			  0);
		CHECK_INT(s, i);
	}
	CHECK_STR(gd_probe_status_name(GD_PS_HANG), "hang");
	CHECK_INT(gd_probe_status_parse("fine", &s), -1);
}

int main(void)
{
	test_messages();
	test_deadlines();
	test_kmsg();
	test_status_names();
	return t_done("test_probe_msg");
}
