/* Fuzz the parsers of untrusted text in probe/: the '@'-messages a
 * (possibly corrupt) probe child sends, /dev/kmsg records, and the op
 * list of `probe --only`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/kmsg.h"
#include "probe/ops.h"
#include "probe/probe_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_pjob j;
	char *s = malloc(size + 1);
	unsigned long long usec;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	memset(&j, 0, sizeof j);
	j.backend = "fuzz";
	j.only = -1;
	/* a begin first, so results are taken too */
	gd_pjob_apply_msg(
	    &j, "{\"t\":\"begin\",\"step\":0,\"op\":\"init\",\"dev\":0}", 0);
	for (char *line = s, *nl; line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		gd_pjob_apply_msg(&j, line, 1.0);
	}
	gd_vec_free(&j.results);
	gd_vec_free(&j.devices);
	gd_vec_free(&j.figures);
	memcpy(s, data, size);
	s[size] = '\0';
	gd_kmsg_parse(s, size, &usec);
	{
		gd_opset set;
		char bad[48];

		gd_op_parse_list(s, &set, bad, sizeof bad);
	}
	free(s);
	return 0;
}
