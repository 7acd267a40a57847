/* Pure parsers for the places a PCI device's ids can come from when its
 * sysfs `vendor` / `device` / `class` files are missing (a partial
 * capture, a copy that kept only some attributes):
 *  - uevent, written by the kernel's pci_uevent() (docs/discover.md,
 *    "PCI"): "PCI_CLASS=%04X" (the 24-bit class), "PCI_ID=%04X:%04X",
 *    "PCI_SUBSYS_ID=%04X:%04X", "PCI_SLOT_NAME=", "MODALIAS="; the driver
 *    core adds "DRIVER=<name>" while a driver is bound (dev_uevent()).
 *  - config, the configuration space (PCI Local Bus spec, type 0 header):
 *    bytes 0-1 vendor, 2-3 device (little-endian), 8 revision, 9-11 the
 *    class (prog-if, subclass, base class). */
#include <string.h>

#include "discover.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Hex digits [s, e) up to stop (or e); 0 with *v set, -1 otherwise. */
static int hex_span(const char *s, const char *e, char stop, int maxd,
		    const char **end, uint32_t *v)
{
	uint32_t x = 0;
	int n = 0;

	while (s < e && *s != stop) {
		int h = hexval(*s);

		if (h < 0 || ++n > maxd)
			return -1;
		x = x << 4 | (uint32_t)h;
		s++;
	}
	if (!n)
		return -1;
	*v = x;
	*end = s;
	return 0;
}

/* "VVVV:DDDD" in [s, e). */
static int id_pair(const char *s, const char *e, uint32_t *a, uint32_t *b)
{
	const char *p;

	if (hex_span(s, e, ':', 4, &p, a) < 0 || p >= e)
		return -1;
	return hex_span(p + 1, e, '\0', 4, &p, b) < 0 || p != e ? -1 : 0;
}

static void one_line(const char *s, const char *e, struct gd_pci_uevent *u)
{
	const char *p;
	size_t n;

	if (e - s > 7 && !memcmp(s, "PCI_ID=", 7)) {
		u->has_id = id_pair(s + 7, e, &u->vendor, &u->device) == 0;
	} else if (e - s > 14 && !memcmp(s, "PCI_SUBSYS_ID=", 14)) {
		u->has_subsys =
		    id_pair(s + 14, e, &u->sub_vendor, &u->sub_device) == 0;
	} else if (e - s > 10 && !memcmp(s, "PCI_CLASS=", 10)) {
		u->has_class =
		    hex_span(s + 10, e, '\0', 6, &p, &u->class_code) == 0 &&
		    p == e;
	} else if (e - s > 7 && !memcmp(s, "DRIVER=", 7)) {
		n = (size_t)(e - s - 7);
		if (n >= sizeof u->driver || memchr(s + 7, '/', n))
			return; /* a driver name is one path component */
		memcpy(u->driver, s + 7, n);
		u->driver[n] = '\0';
	}
}

int gd_pci_uevent_parse(const char *buf, size_t len, struct gd_pci_uevent *u)
{
	const char *s = buf, *end = buf + len;

	memset(u, 0, sizeof *u);
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));

		if (!e)
			e = end;
		if (!memchr(s, '\0', (size_t)(e - s)))
			one_line(s, e, u);
		s = e + 1;
	}
	return u->has_id || u->has_class || u->driver[0] ? 0 : -1;
}

int gd_pci_config_parse(const unsigned char *buf, size_t len,
			struct gd_pci_uevent *u)
{
	memset(u, 0, sizeof *u);
	if (len < 4)
		return -1;
	u->vendor = (uint32_t)buf[0] | (uint32_t)buf[1] << 8;
	u->device = (uint32_t)buf[2] | (uint32_t)buf[3] << 8;
	/* all ones: no device answered (the read of an absent function) */
	if (u->vendor == 0xffff || u->vendor == 0)
		return -1;
	u->has_id = 1;
	if (len >= 12) {
		u->revision = buf[8];
		u->has_revision = 1;
		u->class_code = (uint32_t)buf[9] | (uint32_t)buf[10] << 8 |
				(uint32_t)buf[11] << 16;
		u->has_class = 1;
	}
	return 0;
}
