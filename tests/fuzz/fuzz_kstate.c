/* libFuzzer: the kernel-state parsers (discover/kparse.c) on any bytes:
 * /proc/cmdline words, modprobe.d files, and the lookups over what they
 * filled. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "discover/discover.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gd_kstate k;
	const struct gd_kopt *o;

	memset(&k, 0, sizeof k);
	gd_cmdline_parse((const char *)data, size, &k.cmd);
	gd_modprobe_parse((const char *)data, size, "/etc/modprobe.d/f.conf",
			  &k.modprobe);
	for (size_t i = 0; i < k.cmd.n; i++) {
		o = gd_kstate_asked(&k, k.cmd.v[i].module, k.cmd.v[i].param);
		if (!o || strlen(o->module) >= sizeof o->module ||
		    strlen(o->value) >= sizeof o->value)
			__builtin_trap();
		gd_kparam_same(o->value, k.cmd.v[i].value);
	}
	for (size_t i = 0; i < k.modprobe.n; i++)
		if (!gd_kstate_asked(&k, k.modprobe.v[i].module,
				     k.modprobe.v[i].param))
			__builtin_trap();
	for (size_t i = 0; i < k.modprobe.n_black; i++)
		if (!gd_kstate_blacklisted(&k, k.modprobe.black[i].module))
			__builtin_trap();
	if (k.cmd.n > GD_KOPT_MAX || k.modprobe.n_black > GD_KBL_MAX)
		__builtin_trap();
	return 0;
}
