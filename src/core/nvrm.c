/* The NVIDIA kernel module's version line, shared by discover/ (the
 * driver bound to a GPU) and inventory/ (the driver the CUDA libraries need).
 */
#include "nvrm.h"

#include <ctype.h>
#include <string.h>

static int is_version_token(const char *s, size_t n)
{
	int dots = 0;

	if (!n || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.')
			dots++;
		else if (!isdigit((unsigned char)s[i]))
			return 0;
	}
	return dots >= 1;
}

/* NVIDIA's kernel module (docs/discover.md) prints "NVRM version: NVIDIA UNIX
 * <arch> Kernel Module  <ver>  <date>"; the open module "NVIDIA UNIX Open
 * Kernel Module for <arch>  <ver>  Release Build ...". The version is the
 * first dotted number after "Kernel Module". */
int gd_nvrm_version_parse(const char *buf, char *ver, size_t cap)
{
	const char *p = buf ? strstr(buf, "Kernel Module") : NULL;
	const char *eol;

	if (cap)
		ver[0] = '\0';
	if (!p)
		return -1;
	eol = strchr(p, '\n');
	if (!eol)
		eol = p + strlen(p);
	p += 13;
	while (p < eol) {
		size_t n;

		while (p < eol && isspace((unsigned char)*p))
			p++;
		n = 0;
		while (p + n < eol && !isspace((unsigned char)p[n]))
			n++;
		if (is_version_token(p, n) && n < cap) {
			memcpy(ver, p, n);
			ver[n] = '\0';
			return 0;
		}
		p += n;
	}
	return -1;
}
