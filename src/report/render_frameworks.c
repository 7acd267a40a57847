/* Frameworks as text and JSON (see render_frameworks.h). */
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "render_frameworks.h"

static json_t *str_or_null(const char *s)
{
	return s && s[0] ? gd_json_str(s) : json_null();
}

static json_t *fw_json(const struct gd_framework *fw)
{
	json_t *o = json_object(), *ts = json_array(), *ls = json_array();

	json_object_set_new(o, "name", gd_json_str(fw->name));
	json_object_set_new(o, "version", str_or_null(fw->version));
	json_object_set_new(o, "site", gd_json_str(fw->site));
	json_object_set_new(o, "build", gd_json_str(fw->build));
	json_object_set_new(o, "cuda_version", str_or_null(fw->cuda_version));
	json_object_set_new(o, "hip_version", str_or_null(fw->hip_version));
	json_object_set_new(o, "bundled_hip_major",
			    fw->bundled_hip_major
				? json_integer(fw->bundled_hip_major)
				: json_null());
	json_object_set_new(o, "backends", str_or_null(fw->backends));
	json_object_set_new(o, "rocblas_gfx", str_or_null(fw->rocblas_gfx));
	for (size_t i = 0; i < fw->targets.n; i++) {
		const struct gd_bs_target *t = &fw->targets.v[i];
		json_t *j = json_object();

		json_object_set_new(j, "kind",
				    gd_json_str(gd_bs_kind_name(t->kind)));
		json_object_set_new(j, "target", gd_json_str(t->target));
		json_object_set_new(j, "features", gd_json_str(t->features));
		json_object_set_new(j, "count", json_integer(t->count));
		json_array_append_new(ts, j);
	}
	json_object_set_new(o, "targets", ts);
	for (size_t i = 0; i < fw->libs.n; i++) {
		const struct gd_fw_lib *l = &fw->libs.v[i];
		json_t *j = json_object();

		json_object_set_new(j, "name", gd_json_str(l->name));
		json_object_set_new(j, "path", gd_json_str(l->path));
		json_object_set_new(j, "targets",
				    json_integer((json_int_t)l->n_targets));
		json_object_set_new(j, "missing", str_or_null(l->missing));
		json_object_set_new(j, "error", str_or_null(l->error));
		json_array_append_new(ls, j);
	}
	json_object_set_new(o, "libs", ls);
	json_object_set_new(o, "rocm_mismatch", str_or_null(fw->rocm_mismatch));
	json_object_set_new(o, "rocm_note", str_or_null(fw->rocm_note));
	json_object_set_new(o, "no_code", str_or_null(fw->no_code));
	json_object_set_new(
	    o, "fits", fw->fits < 0 ? json_null() : json_boolean(fw->fits));
	return o;
}

json_t *gd_render_frameworks_json(const struct gd_frameworks *fws)
{
	json_t *o = json_object(), *envs = json_array(), *arr = json_array();

	for (size_t i = 0; i < fws->envs.n; i++)
		json_array_append_new(envs, gd_json_str(fws->envs.v[i]));
	json_object_set_new(o, "environments", envs);
	json_object_set_new(o, "system_hip_major",
			    fws->system_hip_major
				? json_integer(fws->system_hip_major)
				: json_null());
	for (size_t i = 0; i < fws->fw.n; i++)
		json_array_append_new(arr, fw_json(&fws->fw.v[i]));
	json_object_set_new(o, "frameworks", arr);
	return o;
}

void gd_render_frameworks_text(struct gd_cli *cli, FILE *f,
			       const struct gd_frameworks *fws)
{
	char tl[512];

	if (!fws->fw.n) {
		if (!fws->envs.n)
			fprintf(f, "  %sno Python environment found%s\n",
				gd_c_dim(cli), gd_c_off(cli));
		else
			fprintf(f,
				"  %sno ML frameworks found in %zu Python "
				"environment%s%s\n",
				gd_c_dim(cli), fws->envs.n,
				fws->envs.n == 1 ? "" : "s", gd_c_off(cli));
		return;
	}
	for (size_t i = 0; i < fws->fw.n; i++) {
		const struct gd_framework *fw = &fws->fw.v[i];

		fprintf(f, "  %s%s%s %s (%s", gd_c_bold(cli), fw->name,
			gd_c_off(cli), fw->version[0] ? fw->version : "?",
			fw->build);
		if (fw->cuda_version[0])
			fprintf(f, ", CUDA %s", fw->cuda_version);
		if (fw->hip_version[0])
			fprintf(f, ", HIP %s", fw->hip_version);
		fprintf(f, ")  %s%s%s\n", gd_c_dim(cli), fw->site,
			gd_c_off(cli));
		gd_bs_targets_str(fw->targets.v, fw->targets.n, " ", tl,
				  sizeof tl);
		if (tl[0])
			fprintf(f, "    targets: %s\n", tl);
		if (fw->backends[0])
			fprintf(f, "    backends: %s\n", fw->backends);
		if (fw->rocblas_gfx[0])
			fprintf(f, "    bundled rocBLAS: %s\n",
				fw->rocblas_gfx);
		for (size_t k = 0; k < fw->libs.n; k++)
			if (fw->libs.v[k].missing[0])
				fprintf(f, "    %s%s needs missing %s%s\n",
					gd_c_red(cli), fw->libs.v[k].name,
					fw->libs.v[k].missing, gd_c_off(cli));
		if (fw->rocm_mismatch[0])
			fprintf(f, "    %s%s%s\n", gd_c_red(cli),
				fw->rocm_mismatch, gd_c_off(cli));
		if (fw->rocm_note[0])
			fprintf(f, "    %s%s%s\n", gd_c_yellow(cli),
				fw->rocm_note, gd_c_off(cli));
		if (fw->no_code[0])
			fprintf(f, "    %s%s%s\n", gd_c_red(cli), fw->no_code,
				gd_c_off(cli));
	}
}
