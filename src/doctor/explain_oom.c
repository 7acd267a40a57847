/* explain: which out-of-memory case a PyTorch "CUDA out of memory" line
 * is, from its own numbers. Current wording (PyTorch >= 2.1):
 *   Tried to allocate X. GPU 0 has a total capacity of Y of which F is
 *   free. ... and R is reserved by PyTorch but unallocated.
 * Older wording: Tried to allocate X (GPU 0; Y total capacity; A already
 * allocated; F free; T reserved in total by PyTorch). */
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

int gd_explain_oom(const char *line, char *out, size_t cap)
{
	double want = size_near(line, "Tried to allocate ", 0);
	double total = size_near(line, "total capacity of ", 0);
	double freeb = size_near(line, " is free", 1);
	double spare = size_near(line, " is reserved by PyTorch but unallocated",
				 1);

	if (total < 0) /* older wording */
		total = size_near(line, " total capacity", 1);
	if (freeb < 0)
		freeb = size_near(line, " free;", 1);
	if (spare < 0) {
		double res = size_near(line, " reserved in total by PyTorch", 1);
		double used = size_near(line, " already allocated", 1);

		spare = res >= 0 && used >= 0 && res >= used ? res - used : -1;
	}
	out[0] = '\0';
	if (want < 0 || total < 0)
		return 0;
	if (want > total)
		gd_fmt(out, cap, "the request (%.2f GiB) is larger than the "
		       "whole GPU (%.2f GiB): no allocator setting makes it fit; "
		       "shrink the input, batch or model, or use a GPU with more "
		       "memory", want, total);
	else if (freeb >= 0 && spare >= 0 && freeb < want &&
		 spare >= want)
		gd_fmt(out, cap, "fragmentation: %.2f GiB is reserved by "
		       "PyTorch but unallocated, more than the %.2f GiB "
		       "requested: set PYTORCH_CUDA_ALLOC_CONF=expandable_"
		       "segments:True%s", spare, want, freeb * 10 < total
		       ? "; the GPU is nearly full as well, so a smaller batch "
			 "may still be needed" : "");
	else if (freeb >= 0 && freeb >= want)
		gd_fmt(out, cap, "%.2f GiB is free, more than the %.2f GiB "
		       "requested, yet it failed: free memory in pieces or a "
		       "per-process limit; try PYTORCH_CUDA_ALLOC_CONF="
		       "expandable_segments:True", freeb, want);
	else
		gd_fmt(out, cap, "the GPU is full (%.2f GiB free of %.2f GiB, "
		       "%.2f GiB requested%s): the model and its activations "
		       "need more than this GPU; reduce batch, sequence or "
		       "resolution, use lower precision or offload",
		       freeb < 0 ? 0 : freeb, total, want,
		       spare >= 0 ? ", little reserved but unallocated" : "");
	return out[0] != '\0';
}
