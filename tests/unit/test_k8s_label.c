/* Kubernetes label values from gpudoctor's facts: target features, product
 * names, versions (Kubernetes' rules: deploy/kubernetes/README.md). */
#include <stdio.h>
#include <string.h>

#include "core/k8s_label.h"

static int fails;

static void expect(const char *in, const char *want)
{
	char out[64];

	gd_k8s_label_value(in, out, sizeof out);
	if (strcmp(out, want) || !gd_k8s_label_value_valid(out)) {
		printf("FAIL %s: got '%s', want '%s'\n", in, out, want);
		fails++;
	}
}

int main(void)
{
	char out[64], big[300];

	expect("gfx1010", "gfx1010");
	expect("gfx1010:xnack-", "gfx1010.xnack-off");
	expect("gfx90a:sramecc+:xnack-", "gfx90a.sramecc-on.xnack-off");
	expect("AMD Radeon RX 5700 (XT)", "AMD_Radeon_RX_5700__XT");
	expect("7.2.1+rocmsdk20250101", "7.2.1_rocmsdk20250101");
	expect("sm_90", "sm_90");
	expect("9.0", "9.0");
	expect("needs-setup", "needs-setup");
	expect("--", "");
	expect("", "");
	expect("\"quoted\" \\ name\n", "quoted____name");
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	big[62] = '-';
	gd_k8s_label_value(big, out, sizeof out);
	if (strlen(out) != 62 || !gd_k8s_label_value_valid(out)) {
		printf("FAIL long value: '%s'\n", out);
		fails++;
	}
	if (gd_k8s_label_value_valid("a:b") || gd_k8s_label_value_valid("-a") ||
	    !gd_k8s_label_value_valid("")) {
		printf("FAIL validity check\n");
		fails++;
	}
	if (!fails)
		printf("ok: k8s label values\n");
	return fails != 0;
}
