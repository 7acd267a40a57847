/* What `env` and `run` apply on Windows (verdict_windows.h): the HIP SDK
 * that matches the driver, never a blind HIP_PATH [docs/windows.md §F:
 * setup_rocm_path()]. HIP_PATH is set to that
 * SDK (with the trailing backslash the installer writes), its bin goes
 * first on PATH for programs (hipInfo, llama.cpp builds), and Python
 * programs get the os.add_dll_directory line, since Python >= 3.8 does not
 * search PATH for DLLs. */
#include <stdio.h>
#include <string.h>

#include "app_fields.h"
#include "verdict_windows.h"

/* r"..." when that is exact (no quote, no control character, not ending in
 * a backslash); otherwise '...' with escapes, so no folder name can end
 * the literal early or break the line it is pasted into. */
void gd_win_py_literal(const char *s, char *buf, size_t cap)
{
	size_t n = strlen(s), o = 0;
	int raw = n && s[n - 1] != '\\' && !strchr(s, '"');

	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		raw &= *c >= 0x20 && *c != 0x7f;
	if (raw) {
		gd_fmt(buf, cap, "r\"%s\"", s);
		return;
	}
	if (cap < 8) {
		if (cap)
			buf[0] = '\0';
		return;
	}
	buf[o++] = '\'';
	for (const unsigned char *c = (const unsigned char *)s;
	     *c && o + 6 < cap; c++) {
		if (*c == '\\' || *c == '\'') {
			buf[o++] = '\\';
			buf[o++] = (char)*c;
		} else if (*c < 0x20 || *c == 0x7f) {
			o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", *c);
		} else {
			buf[o++] = (char)*c;
		}
	}
	buf[o++] = '\'';
	buf[o] = '\0';
}

void gd_win_python_line(const char *dir, char *buf, size_t cap)
{
	char lit[600];

	gd_win_py_literal(dir, lit, sizeof lit);
	gd_fmt(buf, cap, "os.add_dll_directory(%s)", lit);
}

int gd_win_profile(const struct gd_win_inventory *wi,
		   const struct gd_win_verdict *v, struct gd_profile *p)
{
	const struct gd_win_sdk *s;
	char val[256], note[600], line[700];

	if (v->sdk < 0 || v->sdk >= wi->n_sdks)
		return -1;
	s = &wi->sdks[v->sdk];
	gd_fmt(p->name, sizeof p->name, "windows-hip-sdk-%s", s->version);
	gd_strlcpy(p->strategy, "windows-hip-sdk", sizeof p->strategy);
	gd_fmt(val, sizeof val, "%s\\", s->root);
	if (gd_profile_add(p, GD_PROF_SET, "HIP_PATH", val) < 0)
		return -1;
	gd_fmt(val, sizeof val, "%s\\bin", s->root);
	if (gd_profile_add(p, GD_PROF_PREPEND, "PATH", val) < 0)
		return -1;
	if (wi->hip_path_sdk >= 0 && wi->hip_path_sdk != v->sdk) {
		const struct gd_win_sdk *h = &wi->sdks[wi->hip_path_sdk];

		if (wi->driver_hip_major)
			gd_fmt(note, sizeof note,
			       "HIP_PATH named HIP SDK %s (HIP %d); the "
			       "driver's runtime is HIP %d, so HIP_PATH is set "
			       "to SDK %s",
			       h->version,
			       h->runtime_major ? h->runtime_major : h->major,
			       wi->driver_hip_major, s->version);
		else /* no runtime in System32: the SDK's own bin holds it */
			gd_fmt(note, sizeof note,
			       "HIP_PATH named HIP SDK %s; the check chose SDK "
			       "%s (no HIP runtime in System32: its bin holds "
			       "its own), so HIP_PATH is set to it",
			       h->version, s->version);
		gd_profile_add_note(p, note);
	}
	gd_win_python_line(val, line, sizeof line);
	gd_fmt(note, sizeof note,
	       "Python >= 3.8 ignores PATH for DLLs: in the app, before "
	       "importing the framework, import os; %s",
	       line);
	return gd_profile_add_note(p, note);
}

void gd_win_workaround(const struct gd_win_inventory *wi,
		       const struct gd_win_verdict *v, struct gd_workaround *w)
{
	const struct gd_win_sdk *s;
	char val[256];

	memset(w, 0, sizeof *w);
	if (v->sdk < 0 || v->sdk >= wi->n_sdks)
		return;
	s = &wi->sdks[v->sdk];
	gd_fmt(val, sizeof val, "%s\\", s->root);
	gd_wa_add_env(w, "HIP_PATH", val);
	gd_fmt(val, sizeof val, "%s\\bin", s->root);
	gd_wa_add_path(w, val);
	gd_wa_add_dll_dir(w, val);
	gd_fmt(w->note, sizeof w->note,
	       "HIP SDK %s: %s; Python >= 3.8 finds its DLLs only through "
	       "os.add_dll_directory",
	       s->version,
	       wi->driver_hip_major ? "its HIP runtime is the driver's"
				    : "its bin holds the HIP runtime its "
				      "programs load");
}
