/* explain: which class of NVIDIA Xid event an "NVRM: Xid (PCI:…): N, …"
 * line (or the Kubernetes device plugin's "XidCriticalError: Xid=N")
 * reports, from its number. The classes and first actions are those of
 * NVIDIA's Xid catalog (docs/vendor-failures.tsv names the page): some Xids
 * are the application's own fault, some the GPU's memory, its NVLink or
 * PCIe link, some the GSP firmware. The kb's nvrm-xid signature says what an
 * Xid is; this says what this one is. */
#include "explain.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

struct xid_class {
	int xid;
	const char *what;  /* the catalog's name, then what to do first */
	const char *cause; /* its kb cause code (docs/kb.md), NULL: none */
};

static const struct xid_class xids[] = {
    {8,
     "GPU stopped processing (channel idle timeout): restart the "
     "application; contact support if it recurs",
     NULL},
    {13,
     "Graphics Engine Exception: usually the application (an "
     "out-of-range access, a bad instruction), rarely the driver or "
     "hardware; restart the application and check it with "
     "compute-sanitizer",
     "program-bug"},
    {31,
     "GPU memory page fault (MMU fault): the application accessed an "
     "invalid address; rarely the driver or hardware; restart the "
     "application and check it with compute-sanitizer",
     "program-bug"},
    {43,
     "GPU stopped processing: the application's channel was stopped "
     "after its own fault; the GPU itself is fine; restart the "
     "application",
     "program-bug"},
    {45,
     "preemptive cleanup: the process was killed or exited after an "
     "earlier error; the Xid before it says why",
     NULL},
    {48,
     "double-bit ECC error (uncorrectable GPU memory error): reset the "
     "GPU; drain and service the board if it recurs",
     "gpu-hardware-fault"},
    {63,
     "ECC page retirement or row remapping recorded: reset the GPU (or "
     "reboot) to activate it",
     "gpu-hardware-fault"},
    {64,
     "ECC page retirement or row remapping failed: the board needs "
     "service",
     "gpu-hardware-fault"},
    {74,
     "NVLink error: an NVLink or NVSwitch fault; reset the GPU and check "
     "the NVLink hardware",
     "gpu-hardware-fault"},
    {79,
     "GPU has fallen off the bus: the GPU no longer answers on PCIe; "
     "check power, cooling, seating and PCIe link, then reboot",
     "gpu-lost"},
    {92,
     "high single-bit ECC error rate (corrected errors): watch the "
     "rate; service the board if it keeps rising",
     "gpu-hardware-fault"},
    {94,
     "contained uncorrectable ECC error: only the application that "
     "used the memory stops; restart it, reset the GPU when idle",
     "gpu-hardware-fault"},
    {95,
     "uncontained uncorrectable ECC error: every application on the GPU "
     "is affected; reset the GPU",
     "gpu-hardware-fault"},
    {119,
     "GSP RPC timeout: the GPU's firmware (GSP) stopped answering; "
     "reset the GPU or reboot, update the driver",
     NULL},
    {120,
     "GSP error: the GPU's firmware (GSP) faulted; reset the GPU or "
     "reboot, update the driver",
     NULL},
    {154,
     "GPU recovery action changed: the driver asks for the reset or "
     "reboot the line names",
     NULL},
};

int gd_explain_xid(const char *line, char *out, size_t cap, const char **cause)
{
	const char *p = strstr(line, "Xid (");
	char *end;
	long n;

	if (cap)
		out[0] = '\0';
	if (cause)
		*cause = NULL;
	if (p && (p = strchr(p, ')')) && !strncmp(p, "): ", 3))
		p += 3; /* the driver: "NVRM: Xid (PCI:…): N, …" */
	else if ((p = strstr(line, "Xid=")))
		p +=
		    4; /* the k8s device plugin: "XidCriticalError: Xid=N on" */
	else
		return 0;
	n = strtol(p, &end, 10);
	if (end == p || n < 0 || *p == '-' || *p == '+' || *p == ' ')
		return 0;
	for (size_t i = 0; i < sizeof xids / sizeof *xids; i++)
		if (xids[i].xid == n) {
			gd_fmt(out, cap, "Xid %ld: %s", n, xids[i].what);
			if (cause)
				*cause = xids[i].cause;
			return out[0] != '\0';
		}
	gd_fmt(out, cap,
	       "Xid %ld: look it up in NVIDIA's Xid catalog (its immediate "
	       "action column says whether to restart the application, reset "
	       "the GPU or service it)",
	       n);
	return out[0] != '\0';
}
