/* Windows facts and verdicts as text and JSON (render_windows.h). */
#include "render_windows.h"

#include <string.h>

#include "core/json.h"
#include "discover/vendor.h"
#include "render_gpu.h"
#include "view.h"

static json_t *text_or_null(const gd_text *t)
{
	return gd_known(t) ? gd_json_str(t->v) : json_null();
}

json_t *gd_render_win_adapter_json(const struct gd_gpu *g)
{
	json_t *o = json_object();

	json_object_set_new(o, "class_key", gd_json_str(g->win.class_key));
	json_object_set_new(o, "matching_device_id",
			    gd_json_str(g->win.matching_id));
	json_object_set_new(o, "driver_version",
			    text_or_null(&g->win.driver_version));
	json_object_set_new(o, "driver_user_version",
			    text_or_null(&g->win.driver_user));
	json_object_set_new(o, "driver_user_version_source",
			    gd_json_str(gd_known(&g->win.driver_user)
					    ? g->win.driver_user.src
					    : g->win.driver_user.why));
	json_object_set_new(o, "provider", gd_json_str(g->win.provider));
	json_object_set_new(o, "inf_path", gd_json_str(g->win.inf_path));
	/* no PCI id in the registry: what told the vendor */
	json_object_set_new(o, "vendor_from",
			    g->win.vendor_from[0]
				? gd_json_str(g->win.vendor_from)
				: json_null());
	return o;
}

static const char *level_name(enum gd_win_level l)
{
	return l == GD_WIN_OK ? "ok" : l == GD_WIN_WARN ? "warn" : "bad";
}

static json_t *lines_json(const struct gd_win_line *l, int n, int with_level)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "code",
				    gd_json_str(gd_code_name(l[i].code)));
		if (with_level)
			json_object_set_new(
			    o, "level", gd_json_str(level_name(l[i].level)));
		json_object_set_new(o, "text", gd_json_str(l[i].text));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *gd_render_win_verdict_json(const struct gd_win_verdict *v)
{
	json_t *o = json_object();

	/* status and headline: the verdict contract shared with Linux
	 * (docs/schema/common.json); usable, backend, label, reason,
	 * frameworks and workaround come from the brief's fields
	 * (gd_brief_verdict_json), so brief and report agree */
	json_object_set_new(o, "status", gd_json_str(gd_win_verdict_status(v)));
	json_object_set_new(o, "headline", gd_json_str(v->summary));
	json_object_set_new(o, "summary", gd_json_str(v->summary));
	json_object_set_new(o, "facts", lines_json(v->facts, v->n_facts, 1));
	json_object_set_new(o, "steps", lines_json(v->steps, v->n_steps, 0));
	json_object_set_new(
	    o, "python", v->python[0] ? gd_json_str(v->python) : json_null());
	return o;
}

static json_t *names_json(const char (*n)[32], int count)
{
	json_t *a = json_array();

	for (int i = 0; i < count; i++)
		json_array_append_new(a, gd_json_str(n[i]));
	return a;
}

static json_t *sdk_json(const struct gd_win_sdk *s)
{
	json_t *o = json_object(), *t = json_array();

	json_object_set_new(o, "version", gd_json_str(s->version));
	json_object_set_new(o, "root", gd_json_str(s->root));
	json_object_set_new(
	    o, "hip_major",
	    json_integer(s->runtime_major ? s->runtime_major : s->major));
	json_object_set_new(o, "runtime", gd_json_str(s->runtime));
	json_object_set_new(o, "runtime_file_version",
			    s->runtime_ver[0] ? gd_json_str(s->runtime_ver)
					      : json_null());
	json_object_set_new(o, "comgr", gd_json_str(s->comgr));
	json_object_set_new(o, "hipblas", gd_json_str(s->hipblas));
	json_object_set_new(o, "rocblas", json_boolean(s->has_rocblas));
	for (int i = 0; i < s->n_tensile; i++)
		json_array_append_new(t, gd_json_str(s->tensile[i]));
	json_object_set_new(o, "rocblas_targets", t);
	json_object_set_new(o, "env_var",
			    s->env_var[0] ? gd_json_str(s->env_var)
					  : json_null());
	return o;
}

static json_t *str_or_null(const char *s)
{
	return s[0] ? gd_json_str(s) : json_null();
}

/* The application folders that keep their own HIP runtime DLL. */
static json_t *apps_json(const struct gd_win_inventory *wi)
{
	json_t *a = json_array();

	for (int i = 0; i < wi->n_apps; i++) {
		const struct gd_win_app_rt *r = &wi->apps[i];
		json_t *o = json_object();

		json_object_set_new(o, "folder", gd_json_str(r->dir));
		json_object_set_new(o, "dll", gd_json_str(r->dll));
		json_object_set_new(o, "file_version", str_or_null(r->ver));
		json_object_set_new(o, "in_system32",
				    json_boolean(r->in_sys32));
		json_object_set_new(o, "system32_file_version",
				    str_or_null(r->sys_ver));
		json_object_set_new(o, "exe", str_or_null(r->exe));
		json_object_set_new(o, "importer", str_or_null(r->importer));
		json_array_append_new(a, o);
	}
	return a;
}

/* Imports of the apps' HIP backends that Windows finds nowhere. */
static json_t *missing_json(const struct gd_win_inventory *wi)
{
	json_t *a = json_array();

	for (int i = 0; i < wi->n_app_missing; i++) {
		const struct gd_win_app_missing *m = &wi->app_missing[i];
		json_t *o = json_object();

		json_object_set_new(o, "folder", gd_json_str(m->dir));
		json_object_set_new(o, "importer", gd_json_str(m->importer));
		json_object_set_new(o, "dll", gd_json_str(m->dll));
		json_object_set_new(o, "exe", str_or_null(m->exe));
		json_object_set_new(o, "sdk_bin", str_or_null(m->sdk));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *gd_render_win_inventory_json(const struct gd_win_inventory *wi)
{
	json_t *o = json_object(), *sdks = json_array(), *nv = json_object(),
	       *cv;

	json_object_set_new(o, "driver_hip_runtimes",
			    names_json(wi->sys_runtimes, wi->n_sys_runtimes));
	cv = json_array();
	for (int i = 0; i < wi->n_sys_runtimes; i++)
		json_array_append_new(cv,
				      wi->sys_runtime_ver[i][0]
					  ? gd_json_str(wi->sys_runtime_ver[i])
					  : json_null());
	json_object_set_new(o, "driver_hip_runtime_file_versions", cv);
	json_object_set_new(o, "driver_hip_major",
			    json_integer(wi->driver_hip_major));
	json_object_set_new(o, "driver_comgr",
			    names_json(wi->sys_comgr, wi->n_sys_comgr));
	for (int i = 0; i < wi->n_sdks; i++)
		json_array_append_new(sdks, sdk_json(&wi->sdks[i]));
	json_object_set_new(o, "hip_sdks", sdks);
	json_object_set_new(o, "hip_path",
			    wi->hip_path[0] ? gd_json_str(wi->hip_path)
					    : json_null());
	json_object_set_new(
	    o, "hip_path_sdk",
	    wi->hip_path_sdk >= 0
		? gd_json_str(wi->sdks[wi->hip_path_sdk].version)
		: json_null());
	json_object_set_new(o, "app_hip_runtimes", apps_json(wi));
	json_object_set_new(o, "app_scan_cut", json_boolean(wi->app_scan_cut));
	json_object_set_new(o, "app_missing_imports", missing_json(wi));
	/* null: System32 was not captured (a registry-only capture) */
	json_object_set_new(nv, "nvcuda_dll",
			    wi->sys32_listed ? json_boolean(wi->has_nvcuda)
					     : json_null());
	json_object_set_new(nv, "nvml_dll",
			    wi->sys32_listed ? json_boolean(wi->has_nvml)
					     : json_null());
	json_object_set_new(nv, "cuda_path",
			    wi->cuda_path[0] ? gd_json_str(wi->cuda_path)
					     : json_null());
	cv = json_array();
	for (int i = 0; i < wi->n_cuda_versions; i++)
		json_array_append_new(cv, gd_json_str(wi->cuda_versions[i]));
	json_object_set_new(nv, "cuda_toolkits", cv);
	json_object_set_new(o, "nvidia", nv);
	return o;
}

static const char *mark(struct gd_cli *cli, enum gd_win_level l)
{
	(void)cli;
	return l == GD_WIN_OK ? "ok " : l == GD_WIN_WARN ? "!  " : "x  ";
}

void gd_render_win_gpu_text(struct gd_cli *cli, FILE *f, const struct gd_gpu *g,
			    const struct gd_win_verdict *v)
{
	char name[200], mem[32] = "";

	gd_render_gpu_name(g, name, sizeof name);
	if (gd_known(&g->vram_total))
		gd_render_bytes(g->vram_total.v, mem, sizeof mem);
	if (g->pci.device_id)
		fprintf(f, "%s%s%s [%04x:%04x]%s%s\n", gd_c_bold(cli), name,
			gd_c_off(cli), g->pci.vendor_id, g->pci.device_id,
			mem[0] ? ", " : "", mem);
	else /* known by name only */
		fprintf(f, "%s%s%s [no PCI id in the registry]%s%s\n",
			gd_c_bold(cli), name, gd_c_off(cli), mem[0] ? ", " : "",
			mem);
	if (g->win.vendor_from[0])
		fprintf(f, "  vendor   %s, from %s\n",
			gd_vendor_ops(g->vendor)->title, g->win.vendor_from);
	fprintf(f, "  driver   %s%s%s%s\n",
		gd_known(&g->win.driver_version) ? g->win.driver_version.v
						 : "unknown",
		!gd_known(&g->win.driver_user) ? ""
		: g->vendor == GD_VENDOR_AMD   ? " (AMD Software "
					       : " (NVIDIA ",
		gd_known(&g->win.driver_user) ? g->win.driver_user.v : "",
		gd_known(&g->win.driver_user) ? ")" : "");
	if (g->gfx[0])
		fprintf(f, "  target   %s, %s\n", g->gfx, g->gfx_source);
	fprintf(f, "  verdict  %s%s%s\n",
		v->usable ? gd_c_green(cli) : gd_c_yellow(cli), v->summary,
		gd_c_off(cli));
	for (int i = 0; i < v->n_facts; i++)
		fprintf(f, "    %s%s\n", mark(cli, v->facts[i].level),
			v->facts[i].text);
	if (v->n_steps)
		fprintf(f, "  next steps\n");
	for (int i = 0; i < v->n_steps; i++)
		fprintf(f, "    %d. %s\n", i + 1, v->steps[i].text);
	if (v->python[0])
		fprintf(f, "  python   %s\n", v->python);
}

void gd_render_win_inventory_text(struct gd_cli *cli, FILE *f,
				  const struct gd_win_inventory *wi)
{
	fprintf(f, "%sWindows software%s\n", gd_c_bold(cli), gd_c_off(cli));
	fprintf(f, "  driver HIP   ");
	for (int i = 0; i < wi->n_sys_runtimes; i++)
		fprintf(f, "%s%s%s%s", i ? ", " : "", wi->sys_runtimes[i],
			wi->sys_runtime_ver[i][0] ? " " : "",
			wi->sys_runtime_ver[i]);
	fprintf(f, "%s\n",
		wi->n_sys_runtimes ? " (System32)"
		: wi->sys32_listed ? "none in System32"
				   : "not captured (no System32 listing)");
	for (int i = 0; i < wi->n_sdks; i++) {
		const struct gd_win_sdk *s = &wi->sdks[i];

		fprintf(f,
			"  HIP SDK %-4s %s: %s, comgr %s, hipBLAS %s, rocBLAS "
			"%s%s\n",
			s->version, s->root,
			s->runtime[0] ? s->runtime : "no runtime",
			s->comgr[0] ? s->comgr : "missing",
			s->hipblas[0] ? s->hipblas : "missing",
			s->has_rocblas ? "present" : "missing",
			i == wi->hip_path_sdk ? " (HIP_PATH)" : "");
	}
	if (!wi->n_sdks)
		fprintf(
		    f, wi->sys32_listed
			   ? "  HIP SDK      none under "
			     "%%ProgramFiles%%\\AMD\\ROCm\n"
			   : "  HIP SDK      not captured (no file listing)\n");
	for (int i = 0; i < wi->n_apps; i++)
		fprintf(f, "  app HIP      %s: %s%s%s (%s)\n", wi->apps[i].dir,
			wi->apps[i].dll, wi->apps[i].ver[0] ? " " : "",
			wi->apps[i].ver,
			wi->apps[i].exe[0] ? wi->apps[i].exe
					   : wi->apps[i].importer);
	for (int i = 0; i < wi->n_app_missing; i++)
		fprintf(f, "  app HIP      %s: %s imports %s, found nowhere\n",
			wi->app_missing[i].dir, wi->app_missing[i].importer,
			wi->app_missing[i].dll);
	for (int i = 0; i < wi->n_app_unread; i++)
		fprintf(f, "  app HIP      %s: %s %s, its imports unknown\n",
			wi->app_unread[i].dir, wi->app_unread[i].dll,
			wi->app_unread[i].why);
	if (wi->app_scan_cut)
		fprintf(f, "  app HIP      (not every application folder was "
			   "looked at: the folder limit was reached)\n");
	if (wi->has_nvcuda || wi->cuda_path[0])
		fprintf(
		    f,
		    "  NVIDIA       nvcuda.dll %s, nvml.dll %s, CUDA_PATH %s\n",
		    wi->has_nvcuda ? "present" : "missing",
		    wi->has_nvml ? "present" : "missing",
		    wi->cuda_path[0] ? wi->cuda_path : "unset");
}
