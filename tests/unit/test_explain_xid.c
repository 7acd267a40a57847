/* explain: the class of an NVIDIA Xid read from the line's own number
 * (doctor/explain_xid.c), on Xid lines as the driver prints them. */
#include <string.h>

#include "doctor/explain.h"
#include "t.h"

/* cause: the kb cause code the line names, NULL for none */
static void expect_cause(const char *line, const char *start, const char *cause)
{
	t_decoded(gd_explain_xid, line, start, cause);
}

static void expect(const char *line, const char *start)
{
	t_decoded(gd_explain_xid, line, start, NULL);
}

int main(void)
{
	expect_cause(
	    "NVRM: Xid (PCI:0000:3b:00): 13, pid=2521, name=python, "
	    "Graphics Exception: ESR 0x504648=0x2000d",
	    "Xid 13: Graphics Engine Exception: usually the application",
	    "program-bug");
	expect_cause(
	    "[ 8.1] NVRM: Xid (PCI:0000:08:00): 31, pid=1896, name=python3, "
	    "Ch 0000003b, intr 10000000. MMU Fault: ENGINE GRAPHICS",
	    "Xid 31: GPU memory page fault", "program-bug");
	expect_cause(
	    "NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New "
	    "row marked for remapping, reset gpu to activate.",
	    "Xid 63: ECC page retirement or row remapping recorded",
	    "gpu-hardware-fault");
	expect_cause(
	    "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.",
	    "Xid 79: GPU has fallen off the bus", "gpu-lost");
	expect_cause("NVRM: Xid (PCI:0000:3b:00): 95, pid=34012, name=python, "
		     "Uncontained: FBHUB. RST: Yes, D-RST: No",
		     "Xid 95: uncontained uncorrectable ECC error",
		     "gpu-hardware-fault");
	expect("NVRM: Xid (PCI:0000:01:00): 119, pid=15041, name=Xorg, Timeout "
	       "after 45s of waiting for RPC response from GPU0 GSP!",
	       "Xid 119: GSP RPC timeout");
	/* a number the table does not hold: the catalog, not a guess */
	expect("NVRM: Xid (PCI:0000:01:00): 62, pid=1, name=x",
	       "Xid 62: look it up in NVIDIA's Xid catalog");
	/* the Kubernetes device plugin's health check (both wordings) */
	expect_cause(
	    "I0624 22:58:05.486697       1 health.go:185] XidCriticalError: "
	    "Xid=79 on Device=GPU-adb24b25-1db1-436e-d958-ddee5da83d07; "
	    "marking device as unhealthy.",
	    "Xid 79: GPU has fallen off the bus", "gpu-lost");
	expect_cause("2020/08/10 19:09:42 XidCriticalError: Xid=48 on "
		     "Device=GPU-7540a9b3, the device will go unhealthy.",
		     "Xid 48: double-bit ECC error", "gpu-hardware-fault");
	expect("XidCriticalError: Xid= 48", "");
	/* no number: nothing */
	expect("NVRM: Xid (PCI:0000:01:00): pid=1", "");
	expect("NVRM: Xid (PCI:0000:01:00", "");
	expect("Xid", "");
	{
		char small[8];

		gd_explain_xid("NVRM: Xid (PCI:0000:2b:00): 79, x", small,
			       sizeof small, NULL);
		CHECK(strlen(small) < sizeof small);
	}
	return t_done("test_explain_xid");
}
