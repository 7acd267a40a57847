/* Python environments and frameworks on Windows as JSON and text
 * (render_windows.h). */
#include <string.h>

#include "core/json.h"
#include "render_windows.h"

static json_t *str_or_null(const char *s)
{
	return s && s[0] ? gd_json_str(s) : json_null();
}

static json_t *dll_json(const struct gd_winpy_dll *d)
{
	json_t *o = json_object(), *a = json_array();

	json_object_set_new(o, "file", gd_json_str(d->rel));
	json_object_set_new(o, "read", json_boolean(d->read));
	json_object_set_new(o, "error", str_or_null(d->read ? "" : d->error));
	for (int i = 0; i < d->n_imp; i++) {
		json_t *im = json_object();

		json_object_set_new(im, "dll", gd_json_str(d->imp[i].dll));
		json_object_set_new(im, "found_in", str_or_null(d->imp[i].dir));
		json_object_set_new(im, "how", str_or_null(d->imp[i].how));
		json_array_append_new(a, im);
	}
	json_object_set_new(o, "imports", a);
	return o;
}

static json_t *fw_json(const struct gd_win_python *py,
		       const struct gd_winpy_fw *fw)
{
	json_t *o = json_object(), *dirs = json_array(), *dlls = json_array();

	json_object_set_new(o, "name", gd_json_str(fw->name));
	json_object_set_new(o, "distribution", str_or_null(fw->dist));
	json_object_set_new(o, "version", str_or_null(fw->version));
	json_object_set_new(o, "build", gd_json_str(fw->build));
	json_object_set_new(o, "cuda", str_or_null(fw->cuda));
	json_object_set_new(o, "hip", str_or_null(fw->hip));
	json_object_set_new(o, "hip_major", json_integer(fw->hip_major));
	json_object_set_new(o, "environment",
			    gd_json_str(py->envs[fw->env].prefix));
	json_object_set_new(o, "site_packages", gd_json_str(fw->site));
	for (int i = 0; i < fw->n_dll_dirs; i++) {
		json_t *d = json_object();

		json_object_set_new(d, "dir", gd_json_str(fw->dll_dirs[i]));
		json_object_set_new(d, "by", gd_json_str(fw->dll_dir_why[i]));
		json_array_append_new(dirs, d);
	}
	json_object_set_new(o, "dll_directories", dirs);
	for (int i = 0; i < fw->n_dlls; i++)
		json_array_append_new(dlls, dll_json(&fw->dlls[i]));
	json_object_set_new(o, "dlls", dlls);
	json_object_set_new(o, "dlls_not_listed", json_integer(fw->more_dlls));
	return o;
}

json_t *gd_render_win_python_json(const struct gd_win_python *py)
{
	json_t *o = json_object(), *envs = json_array(), *fws = json_array();

	for (int i = 0; i < py->n_envs; i++) {
		const struct gd_winpy_env *e = &py->envs[i];
		json_t *j = json_object();

		json_object_set_new(j, "kind", gd_json_str(e->kind));
		json_object_set_new(j, "prefix", gd_json_str(e->prefix));
		json_object_set_new(j, "app_dir", gd_json_str(e->app_dir));
		json_object_set_new(j, "version", str_or_null(e->version));
		json_array_append_new(envs, j);
	}
	for (int i = 0; i < py->n_fw; i++)
		json_array_append_new(fws, fw_json(py, &py->fw[i]));
	json_object_set_new(o, "environments", envs);
	json_object_set_new(o, "frameworks", fws);
	return o;
}

static void dll_text(FILE *f, const struct gd_winpy_dll *d)
{
	fprintf(f, "      %s", d->rel);
	if (!d->read) {
		fprintf(f, " (%s: imports unknown)\n", d->error);
		return;
	}
	fprintf(f, " imports");
	for (int i = 0; i < d->n_imp; i++)
		fprintf(f, "%s %s -> %s", i ? ";" : "", d->imp[i].dll,
			d->imp[i].dir[0] ? d->imp[i].dir : "NOT FOUND");
	fprintf(f, "%s\n", d->n_imp ? "" : " only Windows DLLs");
}

void gd_render_win_python_text(struct gd_cli *cli, FILE *f,
			       const struct gd_win_python *py)
{
	fprintf(f, "%sPython (Windows)%s\n", gd_c_bold(cli), gd_c_off(cli));
	if (!py->n_envs)
		fprintf(f, "  no Python environment found\n");
	for (int i = 0; i < py->n_envs; i++) {
		const struct gd_winpy_env *e = &py->envs[i];

		fprintf(f, "  %-10s %s%s%s\n", e->kind, e->prefix,
			e->version[0] ? ", Python " : "", e->version);
		for (int k = 0; k < py->n_fw; k++) {
			const struct gd_winpy_fw *fw = &py->fw[k];

			if (fw->env != i)
				continue;
			fprintf(f, "    %s %s: %s build%s%s%s%s\n",
				fw->dist[0] ? fw->dist : fw->name,
				fw->version[0] ? fw->version : "(unknown)",
				fw->build, fw->cuda[0] ? ", CUDA " : "",
				fw->cuda, fw->hip[0] ? ", HIP " : "", fw->hip);
			for (int d = 0; d < fw->n_dlls; d++)
				dll_text(f, &fw->dlls[d]);
		}
	}
}
