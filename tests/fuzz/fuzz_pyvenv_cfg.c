/* libFuzzer: pyvenv.cfg text (win_python.c), then the Python literal of
 * what it names (verdict_windows_env.c): bytes of any kind must give a
 * literal that Python reads back as one string. */
#include <string.h>

#include "doctor/verdict_windows.h"
#include "inventory/win_python.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char home[200], ver[16], lit[700], raw[64];
	size_t n = size < sizeof raw - 1 ? size : sizeof raw - 1;

	gd_winpy_cfg_parse((const char *)data, size, home, sizeof home, ver,
			   sizeof ver);
	gd_win_python_line(home, lit, sizeof lit);
	memcpy(raw, data, n);
	raw[n] = '\0';
	gd_win_py_literal(raw, lit, sizeof lit);
	gd_win_py_literal(raw, lit, 8); /* the smallest buffer it fills */
	return 0;
}
