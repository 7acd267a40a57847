/* gd_reg_load_live on Windows: the keys a capture's registry/ exports
 * hold, read with RegEnumKeyExW/RegEnumValueW into the same tree, so a
 * live run and a replay are judged by the same code. */
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "plat_win32.h"
#include "wincap.h"

#define DEPTH_MAX 8

static void put_value(gd_reg *r, gd_reg_key *k, const wchar_t *name, DWORD type,
		      const BYTE *data, DWORD len)
{
	char n[512];

	if (gd_w32_utf8(name, n, sizeof n))
		return;
	if (type == REG_SZ || type == REG_EXPAND_SZ || type == REG_MULTI_SZ) {
		char *u = gd_w32_utf8_dup((const wchar_t *)data,
					  (int)(len / sizeof(wchar_t)));
		size_t ulen =
		    u ? (size_t)WideCharToMultiByte(
			    CP_UTF8, 0, (const wchar_t *)data,
			    (int)(len / sizeof(wchar_t)), NULL, 0, NULL, NULL)
		      : 0;

		if (u && type != REG_MULTI_SZ)
			ulen = strlen(u);
		if (u)
			gd_reg_set(r, k, n, type, u, ulen);
		free(u);
		return;
	}
	gd_reg_set(r, k, n, type, data, len);
}

static void copy_key(gd_reg *r, HKEY h, const char *path, int depth,
		     size_t *keys)
{
	static BYTE data[1 << 16];
	wchar_t name[512];
	gd_reg_key *k = gd_reg_mkkey(r, path);
	DWORD i, nlen, dlen, type;

	if (!k || ++*keys > GD_WIN_REG_MAX_KEYS)
		return;
	for (i = 0;; i++) {
		nlen = sizeof name / sizeof *name;
		dlen = sizeof data;
		LONG e =
		    RegEnumValueW(h, i, name, &nlen, NULL, &type, data, &dlen);

		if (e == ERROR_NO_MORE_ITEMS)
			break;
		if (e == ERROR_SUCCESS)
			put_value(r, k, name, type, data, dlen);
	}
	for (i = 0; depth < DEPTH_MAX; i++) {
		char sub[1024], u[512];
		HKEY hs;

		nlen = sizeof name / sizeof *name;
		if (RegEnumKeyExW(h, i, name, &nlen, NULL, NULL, NULL, NULL) !=
		    ERROR_SUCCESS)
			break;
		if (gd_w32_utf8(name, u, sizeof u))
			continue;
		if (RegOpenKeyExW(h, name, 0, KEY_READ, &hs) != ERROR_SUCCESS)
			continue; /* e.g. Properties under Enum: SYSTEM only */
		gd_fmt(sub, sizeof sub, "%s\\%s", path, u);
		copy_key(r, hs, sub, depth + 1, keys);
		RegCloseKey(hs);
	}
}

int gd_reg_load_live(gd_reg *r)
{
	for (size_t i = 0; i < gd_win_n_regroots; i++) {
		const struct gd_win_regroot *k = &gd_win_regroots[i];
		wchar_t *w = gd_w32_wide(k->path);
		HKEY hive = strcmp(k->hive, "HKEY_CURRENT_USER")
				? HKEY_LOCAL_MACHINE
				: HKEY_CURRENT_USER;
		size_t keys = 0;
		char full[512];
		HKEY h;

		if (!w)
			continue;
		/* KEY_WOW64_64KEY: the 64-bit view, named WOW6432Node or not,
		 * whatever this process is */
		if (RegOpenKeyExW(hive, w, 0, KEY_READ | KEY_WOW64_64KEY, &h) ==
		    ERROR_SUCCESS) {
			gd_fmt(full, sizeof full, "%s\\%s", k->hive, k->path);
			copy_key(r, h, full, 0, &keys);
			RegCloseKey(h);
		}
		free(w);
	}
	return 0;
}
