/* gd_win_python_collect (win_python.h): environments, then frameworks in
 * each; their DLLs' imports are resolved in win_pydll.c. */
#include "win_python.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/wincap.h"
#include "core/winreg.h"
#include "inv_int.h"
#include "win_pyint.h"

int gd_winpy_list(gd_ctx *ctx, const char *winpath, gd_strvec *out)
{
	char p[1024];

	memset(out, 0, sizeof *out);
	if (gd_win_resolve(ctx, winpath, p, sizeof p) < 0)
		return -1;
	return gd_fs_list(&ctx->fs, p, out);
}

int gd_winpy_exists(gd_ctx *ctx, const char *winpath)
{
	char p[1024];

	return gd_win_resolve(ctx, winpath, p, sizeof p) == 0 &&
	       gd_fs_exists(&ctx->fs, p);
}

/* Without the trailing backslash the installer writes ("...\Python313\"). */
static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n > 3 && (s[n - 1] == '\\' || s[n - 1] == '/'))
		s[--n] = '\0';
}

static void add_env(gd_ctx *ctx, struct gd_win_python *py, const char *kind,
		    const char *prefix, const char *app, const char *ver)
{
	struct gd_winpy_env *e;
	char site[256];

	if (py->n_envs >= GD_WINPY_MAX_ENVS || !prefix || !*prefix)
		return;
	e = &py->envs[py->n_envs];
	memset(e, 0, sizeof *e);
	gd_strlcpy(e->prefix, prefix, sizeof e->prefix);
	chomp(e->prefix);
	for (int i = 0; i < py->n_envs; i++)
		if (!strcasecmp(py->envs[i].prefix, e->prefix))
			return; /* the registry and the folder name one */
	gd_fmt(site, sizeof site, "%s\\Lib\\site-packages", e->prefix);
	if (!gd_winpy_exists(ctx, site))
		return;
	gd_strlcpy(e->kind, kind, sizeof e->kind);
	gd_strlcpy(e->app_dir, app && *app ? app : e->prefix,
		   sizeof e->app_dir);
	chomp(e->app_dir);
	gd_strlcpy(e->version, ver ? ver : "", sizeof e->version);
	py->n_envs++;
}

/* PEP 514: HKCU, then HKLM, \SOFTWARE\Python\PythonCore\<tag>\InstallPath,
 * default value = the install folder. */
static void envs_registry(gd_ctx *ctx, struct gd_win_python *py)
{
	static const char *const keys[] = {
	    "HKCU\\SOFTWARE\\Python\\PythonCore",
	    "HKLM\\SOFTWARE\\Python\\PythonCore",
	    "HKLM\\SOFTWARE\\WOW6432Node\\Python\\PythonCore"};
	char dir[256];

	for (size_t i = 0; ctx->reg && i < sizeof keys / sizeof *keys; i++) {
		const gd_reg_key *k = gd_reg_find(ctx->reg, keys[i]);

		for (size_t s = 0; k && s < k->nsub; s++) {
			const gd_reg_key *ip =
			    gd_reg_sub(k->sub[s], "InstallPath");

			if (ip && gd_reg_str(ip, "", dir, sizeof dir) == 0)
				add_env(ctx, py, "PythonCore", dir, dir,
					k->sub[s]->name);
		}
	}
}

/* "Python313" -> "3.13" */
static void version_of_folder(const char *name, char *out, size_t cap)
{
	unsigned d = 0;

	out[0] = '\0';
	if (!strncasecmp(name, "Python3", 7) && sscanf(name + 7, "%u", &d) == 1)
		gd_fmt(out, cap, "3.%u", d);
}

/* python.org's per-user installer: %LOCALAPPDATA%\Programs\Python\PythonXY */
static void envs_user(gd_ctx *ctx, struct gd_win_python *py)
{
	const char *la = gd_win_getenv(ctx, "LOCALAPPDATA");
	char dir[256], p[256], v[16];
	gd_strvec ents;

	if (!la)
		return;
	gd_fmt(dir, sizeof dir, "%s\\Programs\\Python", la);
	if (gd_winpy_list(ctx, dir, &ents) < 0)
		return;
	for (size_t i = 0; i < ents.n; i++) {
		if (strncasecmp(ents.v[i], "Python3", 7))
			continue;
		gd_fmt(p, sizeof p, "%s\\%s", dir, ents.v[i]);
		version_of_folder(ents.v[i], v, sizeof v);
		add_env(ctx, py, "python.org", p, p, v);
	}
	gd_strvec_free(&ents);
}

/* One "key = value" line of pyvenv.cfg (len bytes at l) into home / ver. */
static void cfg_line(const char *l, size_t len, char *home, size_t hcap,
		     char *ver, size_t vcap)
{
	char k[32], v[256];
	const char *eq = memchr(l, '=', len);
	size_t kn, vn;
	unsigned a, b;

	if (!eq)
		return;
	kn = (size_t)(eq - l);
	vn = len - kn - 1;
	if (kn >= sizeof k || vn >= sizeof v)
		return;
	memcpy(k, l, kn);
	k[kn] = '\0';
	memcpy(v, eq + 1, vn);
	v[vn] = '\0';
	if (!strcmp(gd_trim(k), "home"))
		gd_strlcpy(home, gd_trim(v), hcap);
	else if ((!strcmp(gd_trim(k), "version_info") ||
		  !strcmp(gd_trim(k), "version")) &&
		 sscanf(gd_trim(v), "%u.%u", &a, &b) == 2)
		gd_fmt(ver, vcap, "%u.%u", a, b);
}

void gd_winpy_cfg_parse(const char *buf, size_t len, char *home, size_t hcap,
			char *ver, size_t vcap)
{
	size_t i = 0;

	if (hcap)
		home[0] = '\0';
	if (vcap)
		ver[0] = '\0';
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;

		cfg_line(buf + i, n && buf[i + n - 1] == '\r' ? n - 1 : n, home,
			 hcap, ver, vcap);
		i += n + 1;
	}
}

/* pyvenv.cfg (gd_winpy_cfg_parse): home is the interpreter's folder
 * (venv\Scripts\python.exe starts that python.exe). */
static void envs_venv(gd_ctx *ctx, struct gd_win_python *py)
{
	const char *venv = gd_win_getenv(ctx, "VIRTUAL_ENV");
	char wp[256], p[1024], home[200] = "", ver[16] = "", *txt = NULL;
	size_t len;

	if (!venv)
		return;
	gd_fmt(wp, sizeof wp, "%s\\pyvenv.cfg", venv);
	if (gd_win_resolve(ctx, wp, p, sizeof p) == 0 &&
	    gd_fs_read_alloc(&ctx->fs, p, 64 * 1024, &txt, &len) == 0) {
		gd_winpy_cfg_parse(txt, len, home, sizeof home, ver,
				   sizeof ver);
		free(txt);
	}
	add_env(ctx, py, "venv", venv, home, ver);
}

/* conda: CONDA_PREFIX, and the envs of the usual install folders in the
 * user's profile. The version from the pythonXY.dll beside python.exe. */
static void conda_one(gd_ctx *ctx, struct gd_win_python *py, const char *p)
{
	char v[16] = "";
	gd_strvec ents;
	unsigned d;

	if (gd_winpy_list(ctx, p, &ents) < 0)
		return;
	for (size_t i = 0; i < ents.n && !v[0]; i++)
		if (!strncasecmp(ents.v[i], "python3", 7) &&
		    gd_endswith(ents.v[i], ".dll") &&
		    sscanf(ents.v[i] + 7, "%u", &d) == 1)
			gd_fmt(v, sizeof v, "3.%u", d);
	gd_strvec_free(&ents);
	add_env(ctx, py, "conda", p, p, v);
}

static void envs_conda(gd_ctx *ctx, struct gd_win_python *py)
{
	static const char *const roots[] = {".conda", "miniconda3", "anaconda3",
					    "miniforge3"};
	const char *cp = gd_win_getenv(ctx, "CONDA_PREFIX");
	const char *up = gd_win_getenv(ctx, "USERPROFILE");
	char dir[256], p[256];
	gd_strvec ents;

	if (cp)
		conda_one(ctx, py, cp);
	for (size_t r = 0; up && r < sizeof roots / sizeof *roots; r++) {
		gd_fmt(dir, sizeof dir, "%s\\%s", up, roots[r]);
		if (r)
			conda_one(ctx, py, dir);
		gd_fmt(dir, sizeof dir, "%s\\%s\\envs", up, roots[r]);
		if (gd_winpy_list(ctx, dir, &ents) < 0)
			continue;
		for (size_t i = 0; i < ents.n; i++) {
			gd_fmt(p, sizeof p, "%s\\%s", dir, ents.v[i]);
			conda_one(ctx, py, p);
		}
		gd_strvec_free(&ents);
	}
}

/* The first of names whose .dist-info is in ents: its version, and the
 * distribution name (dashes, as pip shows it). */
static void dist(const gd_strvec *ents, const char *const *names,
		 struct gd_winpy_fw *fw)
{
	char v[64];

	for (size_t i = 0; names[i]; i++) {
		const char *one[] = {names[i], NULL};

		v[0] = '\0';
		gd_fw_dist_version(ents, one, v, sizeof v);
		if (!v[0])
			continue;
		if (fw->version[0]) { /* two wheels, one package folder */
			if (!fw->also[0])
				gd_fmt(fw->also, sizeof fw->also, "%s %s",
				       names[i], v);
			continue;
		}
		gd_strlcpy(fw->version, v, sizeof fw->version);
		gd_strlcpy(fw->dist, names[i], sizeof fw->dist);
	}
	for (char *c = fw->dist; *c; c++)
		*c = *c == '_' ? '-' : *c;
	for (char *c = fw->also; *c; c++)
		*c = *c == '_' ? '-' : *c;
}

static void torch_version(gd_ctx *ctx, struct gd_winpy_fw *fw)
{
	char wp[300], p[1024], v[64], *txt = NULL;
	size_t len;

	gd_fmt(wp, sizeof wp, "%s\\torch\\version.py", fw->site);
	if (gd_win_resolve(ctx, wp, p, sizeof p) < 0 ||
	    gd_fs_read_alloc(&ctx->fs, p, 64 * 1024, &txt, &len) < 0)
		return;
	gd_fw_py_assign(txt, "__version__", v, sizeof v);
	if (v[0])
		gd_strlcpy(fw->version, v, sizeof fw->version);
	gd_fw_py_assign(txt, "cuda", fw->cuda, sizeof fw->cuda);
	gd_fw_py_assign(txt, "hip", fw->hip, sizeof fw->hip);
	free(txt);
}

static const struct {
	const char *folder, *name;
	const char *dists[5];
} known[] = {
    {"torch", "torch", {"torch", NULL}},
    {"ctranslate2", "ctranslate2", {"ctranslate2", NULL}},
    {"onnxruntime",
     "onnxruntime",
     {"onnxruntime_directml", "onnxruntime_gpu", "onnxruntime_rocm",
      "onnxruntime", NULL}},
    {"llama_cpp", "llama_cpp", {"llama_cpp_python", NULL}},
};

static void scan_site(gd_ctx *ctx, struct gd_win_python *py, int env)
{
	char site[256];
	gd_strvec ents;

	gd_fmt(site, sizeof site, "%s\\Lib\\site-packages",
	       py->envs[env].prefix);
	if (gd_winpy_list(ctx, site, &ents) < 0)
		return;
	for (size_t k = 0; k < sizeof known / sizeof *known; k++) {
		struct gd_winpy_fw *fw;
		int has = 0;

		for (size_t i = 0; i < ents.n; i++)
			has |= !strcasecmp(ents.v[i], known[k].folder);
		if (!has || py->n_fw >= GD_WINPY_MAX_FW)
			continue;
		fw = &py->fw[py->n_fw++];
		memset(fw, 0, sizeof *fw);
		fw->env = env;
		gd_strlcpy(fw->name, known[k].name, sizeof fw->name);
		gd_strlcpy(fw->site, site, sizeof fw->site);
		dist(&ents, known[k].dists, fw);
		if (!strcmp(fw->name, "torch"))
			torch_version(ctx, fw);
		gd_winpy_fw_dlls(ctx, &py->envs[env], &ents, fw);
	}
	gd_strvec_free(&ents);
}

void gd_win_python_collect(gd_ctx *ctx, struct gd_win_python *py)
{
	memset(py, 0, sizeof *py);
	envs_venv(ctx, py);
	envs_conda(ctx, py);
	envs_registry(ctx, py);
	envs_user(ctx, py);
	for (int i = 0; i < py->n_envs; i++)
		scan_site(ctx, py, i);
}
