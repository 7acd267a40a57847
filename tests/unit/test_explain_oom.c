/* explain: the out-of-memory case read from a PyTorch OOM line's own
 * numbers, on real lines of the corpus (tests/fixtures/logs/INDEX.tsv). */
#include <string.h>

#include "doctor/explain.h"
#include "t.h"

/* cause: the kb cause code the line names, NULL for none */
static void expect_cause(const char *line, const char *start, const char *cause)
{
	t_decoded(gd_explain_oom, line, start, cause);
}

static void expect(const char *line, const char *start)
{
	t_decoded(gd_explain_oom, line, start, NULL);
}

int main(void)
{
	/* Qwen2.5-Omni #240: more than the whole GPU */
	expect("CUDA out of memory. Tried to allocate 124.68 GiB. GPU 0 has a "
	       "total capacity of 95.22 GiB of which 51.23 GiB is free. "
	       "Process 608946 has 14.91 GiB memory in use. Of the allocated "
	       "memory 25.50 GiB is allocated by PyTorch, and 3.14 GiB is "
	       "reserved by PyTorch but unallocated.",
	       "the request (124.68 GiB) is larger than the whole GPU");
	/* Mask2DiT #4: fragmentation */
	expect("CUDA out of memory. Tried to allocate 35.60 GiB. GPU 0 has a "
	       "total capacity of 79.33 GiB of which 26.16 GiB is free. "
	       "Process 76883 has 53.16 GiB memory in use. Of the allocated "
	       "memory 11.97 GiB is allocated by PyTorch, and 40.69 GiB is "
	       "reserved by PyTorch but unallocated.",
	       "fragmentation: 40.69 GiB reserved but unallocated");
	/* meshgen #7: full ("0 bytes is free") */
	expect("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
	       "1002.00 MiB. GPU 0 has a total capacity of 8.00 GiB of which 0 "
	       "bytes is free. Of the allocated memory 13.98 GiB is allocated "
	       "by PyTorch, and 129.48 MiB is reserved by PyTorch but "
	       "unallocated.",
	       "the GPU is full (0.00 GiB free of 8.00 GiB");
	/* One-2-3-45 #25: the older wording */
	expect("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
	       "allocate 1.69 GiB (GPU 0; 14.56 GiB total capacity; 649.97 MiB "
	       "already allocated; 1.31 GiB free; 1.01 GiB reserved in total "
	       "by PyTorch)",
	       "the GPU is full (1.31 GiB free of 14.56 GiB");
	/* taggui #188: free memory exceeds the request */
	expect("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
	       "allocate 20.00 MiB. GPU 0 has a total capacity of 4.00 GiB of "
	       "which 2.35 GiB is free. Of the allocated memory 825.15 MiB is "
	       "allocated by PyTorch, and 24.85 MiB is reserved by PyTorch but "
	       "unallocated.",
	       "2.35 GiB is free, more than");
	/* TheRock #2118: a per-process limit */
	expect("torch.OutOfMemoryError: HIP out of memory. Tried to allocate "
	       "2.00 MiB. GPU 0 has a total capacity of 255.98 GiB of which "
	       "244.65 GiB is free. 1.05 GiB allowed; Of the allocated memory "
	       "1017.01 MiB is allocated by PyTorch, with 17.00 MiB allocated "
	       "in private pools (e.g., HIP Graphs), and 54.99 MiB is reserved "
	       "by PyTorch but unallocated.",
	       "a per-process limit was reached");
	/* Strix Halo toolbox #3: the APU's memory held elsewhere */
	expect("torch.OutOfMemoryError: HIP out of memory. Tried to allocate "
	       "3.31 GiB. GPU 0 has a total capacity of 128.00 GiB of which "
	       "780.24 MiB is free. Of the allocated memory 57.70 GiB is "
	       "allocated by PyTorch, and 75.82 MiB is reserved by PyTorch but "
	       "unallocated.",
	       "about 69.46 GiB of the 128.00 GiB is held outside");
	/* Two public run logs, as PyTorch 2.x prints them: another process
	 * on the GPU holds the memory, seen from this process's own total
	 * ("this process has") or from the processes NVML lists. */
	expect_cause(
	    "CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has "
	    "a total capacity of 31.74 GiB of which 315.38 MiB is free. "
	    "Process 3269913 has 1.88 GiB memory in use. Process "
	    "3269914 has 13.17 GiB memory in use. Including non-PyTorch "
	    "memory, this process has 16.37 GiB memory in use. Of the "
	    "allocated memory 16.00 GiB is allocated by PyTorch, and "
	    "16.00 MiB is reserved by PyTorch but unallocated.",
	    "about 15.06 GiB of the 31.74 GiB is held by other processes",
	    "gpu-memory-held-by-other");
	expect_cause(
	    "Error: CUDA out of memory. Tried to allocate 5.50 GiB. GPU "
	    "0 has a total capacity of 79.20 GiB of which 3.50 GiB is "
	    "free. Process 3283987 has 516.00 MiB memory in use. Process "
	    "3284604 has 75.19 GiB memory in use. Of the allocated memory "
	    "0 bytes is allocated by PyTorch, and 0 bytes is reserved by "
	    "PyTorch but unallocated.",
	    "about 75.70 GiB of the 79.20 GiB is held by other processes",
	    "gpu-memory-held-by-other");
	/* RLinf #255: more is free than asked, but others hold 15 GiB of the
	 * 24: that is what to act on */
	expect_cause(
	    "torch.OutOfMemoryError: CUDA out of memory. Tried to "
	    "allocate 86.00 MiB. GPU 0 has a total capacity of 23.64 "
	    "GiB of which 264.00 MiB is free. Process 2086283 has "
	    "419.48 MiB memory in use. Including non-PyTorch memory, "
	    "this process has 8.04 GiB memory in use. Process 2797307 "
	    "has 14.85 GiB memory in use. Of the allocated memory 7.63 "
	    "GiB is allocated by PyTorch, and 40.11 MiB is reserved by "
	    "PyTorch but unallocated.",
	    "about 15.34 GiB of the 23.64 GiB is held by other processes",
	    "gpu-memory-held-by-other");
	/* three processes listed, but this one holds the GPU: it is full */
	expect(
	    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
	    "32.00 GiB. GPU 0 has a total capacity of 79.18 GiB of which "
	    "842.75 MiB is free. Process 834991 has 520.00 MiB memory in "
	    "use. Process 852079 has 75.72 GiB memory in use. Process 859101 "
	    "has 2.06 GiB memory in use. Of the allocated memory 74.09 GiB is "
	    "allocated by PyTorch, and 89.93 MiB is reserved by PyTorch but "
	    "unallocated.",
	    "the GPU is full");
	/* vllm #2140: this process holds nearly all of it */
	expect("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
	       "allocate 3.50 GiB. GPU 0 has a total capacty of 23.69 GiB of "
	       "which 3.09 GiB is free. Including non-PyTorch memory, this "
	       "process has 20.57 GiB memory in use. Of the allocated memory "
	       "20.13 GiB is allocated by PyTorch, and 755.50 KiB is reserved "
	       "by PyTorch but unallocated.",
	       "the GPU is full");
	/* no numbers: nothing said */
	/* lllyasviel/Fooocus #780: PyTorch 2.1 spelled it "capacty" */
	expect("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
	       "allocate 14.00 MiB. GPU 0 has a total capacty of 6.00 GiB of "
	       "which 3.55 GiB is free. Of the allocated memory 1.36 GiB is "
	       "allocated by PyTorch, and 77.12 MiB is reserved by PyTorch but "
	       "unallocated.",
	       "3.55 GiB is free, more than the 14 MiB requested");
	expect("RuntimeError: CUDA out of memory.", "");

	/* What the numbers rule out: vllm #2140's line shows this process
	 * holding 20.57 of 23.69 GiB, so not other processes; the first
	 * public run log above shows others holding 15 GiB, and a line
	 * without this process's total rules nothing out. */
	CHECK_STR(gd_explain_oom_ruled_out(
		      "CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 "
		      "has a total capacty of 23.69 GiB of which 3.09 GiB is "
		      "free. Including non-PyTorch memory, this process has "
		      "20.57 GiB memory in use."),
		  "gpu-memory-held-by-other");
	CHECK(!gd_explain_oom_ruled_out(
	    "CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total "
	    "capacity of 31.74 GiB of which 315.38 MiB is free. Including "
	    "non-PyTorch memory, this process has 16.37 GiB memory in use."));
	CHECK(!gd_explain_oom_ruled_out(
	    "CUDA out of memory. Tried to allocate 14.00 MiB. GPU 0 has a "
	    "total capacty of 6.00 GiB of which 3.55 GiB is free."));
	CHECK(!gd_explain_oom_ruled_out("RuntimeError: CUDA out of memory."));
	return t_done("test_explain_oom");
}
