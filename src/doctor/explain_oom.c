/* explain: which out-of-memory case a PyTorch "CUDA out of memory" line
 * is, from its own numbers. Current wording (PyTorch >= 2.1):
 *   Tried to allocate X. GPU 0 has a total capacity of Y of which F is
 *   free. ... and R is reserved by PyTorch but unallocated.
 * Older wording: Tried to allocate X (GPU 0; Y total capacity; A already
 * allocated; F free; T reserved in total by PyTorch). PyTorch 2.1 printed
 * "total capacty of". */
#include "explain.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The size right after (or before, when before is set) needle, in GiB;
 * -1 when absent. "0 bytes", "20.00 MiB", "1.69 GiB". */
static double size_near(const char *line, const char *needle, int before)
{
	const char *p = strstr(line, needle), *num;
	char *end;
	double v;

	if (!p)
		return -1;
	if (before) { /* back over " UNIT" and the number */
		const char *q = p;

		while (q > line && q[-1] == ' ')
			q--;
		while (q > line && q[-1] != ' ')
			q--; /* unit */
		while (q > line && q[-1] == ' ')
			q--;
		while (q > line && q[-1] != ' ' && q[-1] != '(' && q[-1] != ';')
			q--; /* number */
		num = q;
	} else {
		num = p + strlen(needle);
	}
	v = strtod(num, &end);
	if (end == num)
		return -1;
	while (*end == ' ')
		end++;
	if (!strncmp(end, "GiB", 3))
		return v;
	if (!strncmp(end, "MiB", 3))
		return v / 1024;
	if (!strncmp(end, "KiB", 3))
		return v / (1024 * 1024);
	if (!strncmp(end, "bytes", 5))
		return v / (1024.0 * 1024 * 1024);
	return -1;
}

/* How many "Process N has X memory in use" the line lists (PyTorch asks
 * NVML for every process on the GPU). */
static int processes_listed(const char *line)
{
	int n = 0;

	for (const char *p = line; (p = strstr(p, "Process ")); p++)
		if (p[8] >= '0' && p[8] <= '9')
			n++;
	return n;
}

/* The GPU's size, in every wording the file's top lists. */
static double capacity(const char *line)
{
	double total = size_near(line, "total capacity of ", 0);

	if (total < 0) /* PyTorch 2.1's spelling */
		total = size_near(line, "total capacty of ", 0);
	if (total < 0) /* older wording */
		total = size_near(line, " total capacity", 1);
	return total;
}

/* Its free memory, in both wordings. */
static double free_of(const char *line)
{
	double freeb = size_near(line, " is free", 1);

	return freeb >= 0 ? freeb : size_near(line, " free;", 1);
}

/* What other processes hold, from this process's own total ("Including
 * non-PyTorch memory, this process has X"): 1 and *others when the line
 * gives it and the free memory, else 0. */
static int others_by_self(const char *line, double total, double freeb,
			  double *others)
{
	double self = size_near(line, "this process has ", 0);

	if (self < 0 || freeb < 0)
		return 0;
	*others = total - freeb - self;
	return 1;
}

/* How much other processes hold (GiB), when the line shows it is theirs
 * and more than a quarter of the GPU and the request; else -1. Shown by
 * this process's own total ("Including non-PyTorch memory, this process
 * has X") or by the other processes the line lists. Without either, an
 * APU's GPU memory taken by the rest of the system reads the same. */
static double held_by_others(const char *line, double total, double freeb,
			     double want, double others)
{
	if (!others_by_self(line, total, freeb, &others) &&
	    processes_listed(line) < 2)
		return -1;
	return others > total / 4 && others > want ? others : -1;
}

/* Other processes are not why it failed when the line's own totals leave
 * them at most a quarter of the GPU. */
const char *gd_explain_oom_ruled_out(const char *line)
{
	double total = capacity(line), others;

	return total > 0 &&
		       others_by_self(line, total, free_of(line), &others) &&
		       others <= total / 4
		   ? "gpu-memory-held-by-other"
		   : NULL;
}

/* "3.31 GiB", "432 MiB" */
static void sz(char *out, size_t cap, double gib)
{
	if (gib >= 1 || gib <= 0)
		gd_fmt(out, cap, "%.2f GiB", gib < 0 ? 0 : gib);
	else
		gd_fmt(out, cap, "%.0f MiB", gib * 1024);
}

int gd_explain_oom(const char *line, char *out, size_t cap, const char **cause)
{
	double want = size_near(line, "Tried to allocate ", 0);
	double total = capacity(line);
	double freeb = free_of(line);
	double spare =
	    size_near(line, " is reserved by PyTorch but unallocated", 1);
	double mine = size_near(line, " is allocated by PyTorch", 1);
	double allowed = size_near(line, " allowed;", 1);
	/* torch_npu (Ascend) reads its own variable, as ROCm builds do */
	const char *conf =
	    strstr(line, "HIP out of memory")	? "PYTORCH_HIP_ALLOC_CONF"
	    : strstr(line, "NPU out of memory") ? "PYTORCH_NPU_ALLOC_CONF"
						: "PYTORCH_CUDA_ALLOC_CONF";
	double others, held;
	char w[32], t[32], f[32], r[64], o[32];

	if (spare < 0) {
		double res =
		    size_near(line, " reserved in total by PyTorch", 1);
		double used = size_near(line, " already allocated", 1);

		spare = res >= 0 && used >= 0 && res >= used ? res - used : -1;
	}
	out[0] = '\0';
	if (cause)
		*cause = NULL;
	if (want < 0 || total < 0)
		return 0;
	others = freeb >= 0 && mine >= 0
		     ? total - freeb - mine - (spare > 0 ? spare : 0)
		     : -1;
	sz(w, sizeof w, want);
	sz(t, sizeof t, total);
	sz(f, sizeof f, freeb);
	sz(r, sizeof r, spare);
	if (spare >= 0)
		gd_strlcpy(r + strlen(r), " reserved but unallocated",
			   sizeof r - strlen(r));
	sz(o, sizeof o, others);
	if (want > total)
		gd_fmt(out, cap,
		       "the request (%s) is larger than the whole GPU "
		       "(%s): no allocator setting makes it fit; shrink the "
		       "input, batch or model, or use a GPU with more memory",
		       w, t);
	else if (allowed >= 0)
		gd_fmt(out, cap,
		       "a per-process limit was reached (%.2f GiB "
		       "allowed, torch.cuda.set_per_process_memory_fraction), "
		       "not the GPU (%s free): raise or remove the limit",
		       allowed, f);
	else if (freeb >= 0 && spare >= 0 && freeb < want && spare >= want)
		gd_fmt(out, cap,
		       "fragmentation: %s by PyTorch, more than the "
		       "%s requested: set %s="
		       "expandable_segments:True%s",
		       r, w, conf,
		       freeb * 10 < total ? "; the GPU is nearly full as well, "
					    "so a smaller batch may still be "
					    "needed"
					  : "");
	else if ((held = held_by_others(line, total, freeb, want, others)) >
		 0) {
		sz(o, sizeof o, held);
		if (cause)
			*cause = "gpu-memory-held-by-other"; /* docs/kb.md */
		gd_fmt(out, cap,
		       "about %s of the %s is held by other processes on "
		       "this GPU (the line lists them; nvidia-smi shows them): "
		       "stop them, or give this program another GPU",
		       o, t);
	} else if (freeb >= 0 && freeb >= want) {
		gd_fmt(
		    out, cap,
		    "%s is free, more than the %s requested, yet it "
		    "failed: the free memory is in pieces or a limit applies; "
		    "try %s=expandable_segments:True",
		    f, w, conf);
	} else if (others > total / 4 && others > want) {
		gd_fmt(
		    out, cap,
		    "about %s of the %s is held outside this "
		    "process's PyTorch (other processes, or on an APU the rest "
		    "of the system sharing that memory): free it, or raise an "
		    "APU's GPU memory limit (carve-out, GTT)",
		    o, t);
	} else
		gd_fmt(out, cap,
		       "the GPU is full (%s free of %s, %s requested"
		       "%s%s): the model and its activations need more than "
		       "this GPU; reduce batch, sequence or resolution, use "
		       "lower precision or offload",
		       f, t, w, spare >= 0 ? ", " : "", spare >= 0 ? r : "");
	return out[0] != '\0';
}
