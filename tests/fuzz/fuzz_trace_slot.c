/* Fuzz the in-flight slot reader (probe/trace_slot.c): the bytes of a slot
 * are written by the traced program, so they may be torn or hostile. The
 * input is a slot (128 bytes, zero-padded) followed by the sequence number
 * read "after the copy" (8 bytes; missing: the slot's own). Also the
 * /proc syscall line decoder and the /proc/PID/maps caller lookup (at the
 * slot's caller_pc), on the input as text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char slot[GD_TRACE_SLOT_SIZE] = {0};
	struct gd_trace_call c;
	uint64_t seq2;
	char text[200], line[256];

	memcpy(slot, data, size < sizeof slot ? size : sizeof slot);
	memcpy(&seq2, slot, sizeof seq2);
	if (size >= sizeof slot + 8)
		memcpy(&seq2, data + sizeof slot, sizeof seq2);
	if (gd_trace_slot_decode(slot, sizeof slot, seq2, &c) == GD_SLOT_OK) {
		gd_trace_call_text(&c, text, sizeof text);
		if (!memchr(text, '\0', sizeof text) ||
		    !memchr(c.caller, '\0', sizeof c.caller))
			abort();
	}
	gd_trace_slot_decode(data, size, seq2, &c); /* wrong sizes */
	memcpy(line, data, size < sizeof line - 1 ? size : sizeof line - 1);
	line[size < sizeof line - 1 ? size : sizeof line - 1] = '\0';
	gd_trace_syscall_text(line, "/dev/kfd", text, sizeof text);
	if (size >= sizeof slot) {
		char who[GD_TRACE_CALLER_MAX + 1];
		struct gd_trace_slot_raw raw;

		memcpy(&raw, slot, sizeof raw);
		if (gd_trace_maps_caller((const char *)data, size,
					 raw.caller_pc, who, sizeof who) == 0 &&
		    !memchr(who, '\0', sizeof who))
			abort();
	}
	gd_trace_maps_caller((const char *)data, size, seq2, text, 1);
	return 0;
}
