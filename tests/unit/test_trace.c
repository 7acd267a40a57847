/* probe/trace: the in-flight slot reader (seqlock: torn and hostile slots
 * rejected), the call text, the /proc syscall decoder, and a live round
 * trip: a thread of this process writes a slot the way the shim does and
 * the hang report finds it in /proc. */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "doctor/trace_why.h"
#include "probe/trace.h"
#include "t.h"

static struct gd_trace_slot_raw good_slot(void)
{
	struct gd_trace_slot_raw s;

	memset(&s, 0, sizeof s);
	s.seq = 4;
	s.pid = 100;
	s.tid = 101;
	s.state = GD_TRACE_IN_CALL;
	s.api = GD_TRACE_API_hipMemcpyAsync;
	s.bytes = 256u << 20;
	s.kind = 1;
	s.stream = 5;
	s.last_api = GD_TRACE_API_COUNT;
	strcpy(s.caller, "libggml-hip.so");
	return s;
}

static void test_decode(void)
{
	struct gd_trace_slot_raw s = good_slot();
	struct gd_trace_call c;
	char buf[200];

	CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 4, &c), GD_SLOT_OK);
	CHECK_INT(c.tid, 101);
	CHECK(c.in_call);
	gd_trace_call_text(&c, buf, sizeof buf);
	CHECK_STR(buf, "hipMemcpyAsync(H2D, 256 MiB, stream 0x5)");
	CHECK_STR(c.caller, "libggml-hip.so");
	/* torn: odd while writing, or changed during the copy */
	CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 6, &c), GD_SLOT_TORN);
	s.seq = 5;
	CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 5, &c), GD_SLOT_TORN);
	s = good_slot();
	s.seq = 0;
	CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 0, &c), GD_SLOT_EMPTY);
	/* hostile */
	s = good_slot();
	s.api = 9999;
	CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 4, &c), GD_SLOT_BAD);
	s = good_slot();
	memset(s.caller, 'A', sizeof s.caller);
	CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 4, &c), GD_SLOT_BAD);
	s = good_slot();
	s.state = 7;
	CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 4, &c), GD_SLOT_BAD);
	s = good_slot();
	s.tid = 0;
	CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 4, &c), GD_SLOT_BAD);
	s = good_slot();
	strcpy(s.caller, "lib\033[31m.so");
	CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 4, &c), GD_SLOT_OK);
	CHECK(!strchr(c.caller, '\033'));
	CHECK_INT(gd_trace_slot_decode(&s, sizeof s - 1, 4, &c), GD_SLOT_BAD);
	s = good_slot();
	s.api = GD_TRACE_API_hipHostMalloc;
	s.bytes = 4096;
	s.kind = 0x80000000u;
	gd_trace_slot_decode(&s, sizeof s, 4, &c);
	gd_trace_call_text(&c, buf, sizeof buf);
	CHECK_STR(buf, "hipHostMalloc(4 KiB, flags 0x80000000)");
}

static void test_syscall(void)
{
	char buf[100];

	gd_trace_syscall_text("16 0x5 0xc0184b0c 0x7ffd 0 0 0 0x7ffd 0x7f",
			      "/dev/kfd", buf, sizeof buf);
#if defined(__x86_64__)
	CHECK_STR(buf, "ioctl(/dev/kfd)");
#endif
	gd_trace_syscall_text("running", "", buf, sizeof buf);
	CHECK_STR(buf, "running (spinning on the CPU)");
	gd_trace_syscall_text("-1 0x7ffd 0x7f", "", buf, sizeof buf);
	CHECK_STR(buf, "not in a system call");
	gd_trace_syscall_text("", "", buf, sizeof buf);
	CHECK_STR(buf, "");
	gd_trace_syscall_text("99999 0", NULL, buf, sizeof buf);
	CHECK_STR(buf, "system call 99999");
}

/* Lines in the shape proc(5) documents for /proc/PID/maps; then this
 * process's own maps and the address of a libc function. */
/* faulthandler's dump (CPython's format, docs/trace.md "Sources"): the stuck
 * thread's innermost user frames, library frames skipped. */
static void test_pystack(void)
{
	static const char dump[] =
	    "Fatal Python error: Aborted\n\n"
	    "Thread 0x00007f0011223344 (most recent call first):\n"
	    "  File \"/usr/lib/python3.11/threading.py\", line 975 in run\n"
	    "  File \"/home/u/train.py\", line 14 in step\n"
	    "  File \"/home/u/train.py\", line 18 in worker\n"
	    "  File \"/home/u/train.py\", line 30 in loop\n"
	    "  File \"/home/u/train.py\", line 40 in main\n\n"
	    "Current thread 0x00007f0099887766 [MainThread] (most recent call "
	    "first):\n"
	    "  File \"/venv/lib/python3.11/site-packages/torch/_tensor.py\", "
	    "line 7 in item\n"
	    "  File \"/usr/lib/python3.11/threading.py\", line 1112 in join\n";
	char out[400], tiny[12];

	CHECK_INT(gd_trace_py_stack(dump, sizeof dump - 1, 0x7f0011223344u, out,
				    sizeof out),
		  0);
	CHECK_STR(out,
		  "train.py:14 in step, called from train.py:18 in worker, "
		  "called from train.py:30 in loop");
	/* only library frames: the innermost one */
	CHECK_INT(gd_trace_py_stack(dump, sizeof dump - 1, 0x7f0099887766u, out,
				    sizeof out),
		  0);
	CHECK_STR(out, "_tensor.py:7 in item");
	CHECK_INT(
	    gd_trace_py_stack(dump, sizeof dump - 1, 0x1234u, out, sizeof out),
	    -1);
	CHECK_STR(out, "");
	CHECK_INT(gd_trace_py_stack(dump, 40, 0x7f0011223344u, out, sizeof out),
		  -1);
	gd_trace_py_stack(dump, sizeof dump - 1, 0x7f0011223344u, tiny,
			  sizeof tiny);
	CHECK_STR(tiny, "train.py:14");
	/* a freed slot (thread ended) is empty, not bad */
	{
		struct gd_trace_slot_raw s;
		struct gd_trace_call c;

		memset(&s, 0, sizeof s);
		s.seq = 4;
		s.owner = GD_TRACE_OWNER_FREE;
		CHECK_INT(gd_trace_slot_decode(&s, sizeof s, 4, &c),
			  GD_SLOT_EMPTY);
	}
}

/* The why table: by API, copies by kind. */
static void test_why(void)
{
	struct gd_trace_stuck s;
	const char *w;

	memset(&s, 0, sizeof s);
	s.api = GD_TRACE_API___cudaLaunchKernel;
	w = gd_trace_why(&s);
	CHECK(w && strstr(w, "CUDA_MODULE_LOADING=EAGER"));
	s.api = GD_TRACE_API_cudaMemcpyAsync;
	s.kind = 2; /* D2H */
	w = gd_trace_why(&s);
	CHECK(w && strstr(w, "pageable"));
	s.kind = 3; /* D2D: no host memory involved */
	CHECK(gd_trace_why(&s) == NULL);
	s.api = GD_TRACE_API_hipGetDeviceCount;
	w = gd_trace_why(&s);
	CHECK(w && strstr(w, "runtime start") && strstr(w, "/dev/kfd"));
	s.api = GD_TRACE_API_cuInit;
	w = gd_trace_why(&s);
	CHECK(w && strstr(w, "CUDA_VISIBLE_DEVICES"));
	s.api = GD_TRACE_API_cudaOther;
	CHECK(gd_trace_why(&s) == NULL);
	gd_trace_explain(&s, 1);
	CHECK_STR(s.why, "");
}

static int rd_fd(void *ctx, uint64_t off, void *buf, size_t n)
{
	return pread(*(int *)ctx, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* The function of a return address: this program's own test_why. */
static void test_elf_func(void)
{
	char *maps = NULL, path[4096], fn[128];
	size_t len = 0, cap = 0;
	uint64_t off;
	int fd = open("/proc/self/maps", O_RDONLY), f;
	void (*pfn)(void) = test_why;
	uint64_t pc;
	ssize_t r;

	memcpy(&pc, &pfn, sizeof pc);
	pc += 4; /* inside, as a return address is */
	while (fd >= 0) {
		if (len + 4096 > cap) {
			char *nb = realloc(maps, cap = cap * 2 + 65536);

			if (!nb)
				break;
			maps = nb;
		}
		r = read(fd, maps + len, cap - len);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	CHECK_INT(gd_trace_maps_file(maps, len, pc, path, sizeof path, &off),
		  0);
	f = open(path, O_RDONLY);
	CHECK(f >= 0);
	if (f >= 0) {
		CHECK_INT(gd_trace_elf_func(rd_fd, &f, off, fn, sizeof fn), 0);
		CHECK_STR(fn, "test_why");
		/* not an ELF file: nothing */
		close(f);
	}
	f = open("/proc/self/maps", O_RDONLY);
	CHECK_INT(gd_trace_elf_func(rd_fd, &f, 0, fn, sizeof fn), -1);
	CHECK_STR(fn, "");
	if (f >= 0)
		close(f);
	free(maps);
}

static void test_maps(void)
{
	static const char maps[] =
	    "00400000-00452000 r-xp 00000000 08:02 173521      "
	    "/usr/bin/dbus-daemon\n"
	    "7f0000000000-7f0000001000 rw-p 00000000 00:00 0 \n"
	    "7f1000000000-7f1000100000 r-xp 00002000 08:01 42 "
	    "/opt/x/lib/libggml-hip.so\n"
	    "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0    [stack]";
	char out[GD_TRACE_CALLER_MAX + 1], *text = NULL;
	size_t n = 0, cap = 0;
	/* a libc function no sanitizer intercepts (ASan's free is
	 * libasan's) */
	pid_t (*fn)(void) = getpid;
	uint64_t pc;
	FILE *f;

	CHECK_INT(gd_trace_maps_caller(maps, sizeof maps - 1, 0x401000, out,
				       sizeof out),
		  0);
	CHECK_STR(out, "dbus-daemon");
	CHECK_INT(gd_trace_maps_caller(maps, sizeof maps - 1, 0x7f1000000abcull,
				       out, sizeof out),
		  0);
	CHECK_STR(out, "libggml-hip.so");
	CHECK_INT(gd_trace_maps_caller(maps, sizeof maps - 1, 0x7f0000000010ull,
				       out, sizeof out),
		  -1); /* anonymous */
	CHECK_INT(gd_trace_maps_caller(maps, sizeof maps - 1, 0x7ffd00000010ull,
				       out, sizeof out),
		  -1); /* [stack] */
	CHECK_INT(
	    gd_trace_maps_caller(maps, 30, 0x7f1000000abcull, out, sizeof out),
	    -1); /* cut short */
	f = fopen("/proc/self/maps", "r");
	CHECK(f != NULL);
	while (f) {
		if (n + 4096 > cap) {
			cap = cap * 2 + 65536;
			text = realloc(text, cap);
		}
		size_t r = fread(text + n, 1, cap - n, f);
		if (!r)
			break;
		n += r;
	}
	if (f)
		fclose(f);
	memcpy(&pc, &fn, sizeof pc);
	CHECK_INT(gd_trace_maps_caller(text, n, pc, out, sizeof out), 0);
	CHECK(!strncmp(out, "libc", 4));
	free(text);
}

struct live {
	void *map;
	volatile int ready;
};

/* Writes a slot as shim.c does (seq odd, payload, seq even), then sleeps
 * "inside the call". */
static void *writer(void *arg)
{
	struct live *l = arg;
	struct gd_trace_hdr *h = l->map;
	struct gd_trace_slot_raw *s =
	    (void *)((char *)l->map + GD_TRACE_HDR_SIZE);
	struct timespec ts;

	__atomic_fetch_add(&h->next_slot, 1, __ATOMIC_ACQ_REL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	__atomic_store_n(&s->seq, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	s->pid = (uint32_t)getpid();
	s->tid = (uint32_t)gettid();
	s->state = GD_TRACE_IN_CALL;
	s->api = GD_TRACE_API_hipStreamSynchronize;
	s->t_enter_ns =
	    (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	s->stream = 0x10;
	s->last_api = GD_TRACE_API_COUNT;
	strcpy(s->caller, "libtest.so");
	__atomic_store_n(&s->seq, 2, __ATOMIC_RELEASE);
	l->ready = 1;
	sleep(5);
	return NULL;
}

static void test_live(void)
{
	struct gd_trace_stuck st[2];
	struct live l = {NULL, 0};
	struct timespec ts;
	pthread_t t;
	int fd = gd_trace_region_create(&l.map);
	size_t n;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	pthread_create(&t, NULL, writer, &l);
	while (!l.ready)
		usleep(1000);
	usleep(100000);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	n = gd_trace_hang_report(
	    l.map, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec, st,
	    2);
	CHECK_INT(n, 1);
	if (n == 1) {
		CHECK_STR(st[0].call, "hipStreamSynchronize(stream 0x10)");
		CHECK_STR(st[0].caller, "libtest.so");
		CHECK(st[0].seconds >= 0.1 && st[0].seconds < 5);
		CHECK(strstr(st[0].line, "called from libtest.so") != NULL);
#if defined(__x86_64__)
		CHECK(strstr(st[0].blocked, "nanosleep") != NULL);
#endif
	}
	pthread_cancel(t);
	pthread_join(t, NULL);
	gd_trace_region_free(fd, l.map);
}

int main(void)
{
	test_decode();
	test_syscall();
	test_maps();
	test_pystack();
	test_why();
	test_elf_func();
	test_live();
	return t_done("test_trace");
}
