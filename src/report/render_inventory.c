/* The inventory as JSON (docs/json-runtimes.md) and as the text "Compute
 * stack" block. One walk over the same structs for both. */
#include <string.h>

#include "core/json.h"
#include "render_inventory.h"

/* ---- JSON ---- */

static json_t *str_or_null(const char *s)
{
	return s && *s ? gd_json_str(s) : json_null();
}

/* A status-carrying text fact: value, or null + "<key>_unknown". */
static void set_text(json_t *o, const char *key, const gd_text *t)
{
	char k[64];

	if (gd_known(t)) {
		json_object_set_new(o, key, gd_json_str(t->v));
		if (t->src[0]) {
			gd_fmt(k, sizeof k, "%s_source", key);
			json_object_set_new(o, k, gd_json_str(t->src));
		}
		return;
	}
	json_object_set_new(o, key, json_null());
	gd_fmt(k, sizeof k, "%s_unknown", key);
	json_object_set_new(o, k, gd_json_str(t->why[0] ? t->why : "unknown"));
}

/* "a, b, c" -> ["a", "b", "c"] */
static json_t *found_by_json(const char *list)
{
	json_t *a = json_array();

	while (list && *list) {
		size_t n = strcspn(list, ",");
		char one[512];

		/* a name may come from a variable's value: mend, never drop */
		gd_fmt(one, sizeof one, "%.*s", (int)n, list);
		json_array_append_new(a, gd_json_str(one));
		list += n;
		while (*list == ',' || *list == ' ')
			list++;
	}
	return a;
}

static json_t *libs_json(const struct gd_lib *l, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "name", gd_json_str(l[i].name));
		json_object_set_new(o, "path", gd_json_str(l[i].path));
		json_object_set_new(o, "version", str_or_null(l[i].version));
		json_object_set_new(o, "so_major",
				    l[i].so_major ? json_integer(l[i].so_major)
						  : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *rocblas_json(const struct gd_rocblas_dir *d, int standalone)
{
	json_t *o = json_object(), *ts = json_array();

	if (standalone)
		json_object_set_new(o, "kind", gd_json_str("rocblas"));
	json_object_set_new(o, "path", gd_json_str(d->path));
	json_object_set_new(o, "found_by", found_by_json(d->found_by));
	json_object_set_new(o, "version", str_or_null(d->version));
	for (size_t i = 0; i < d->n_targets; i++) {
		const struct gd_rocblas_target *t = &d->targets[i];
		json_t *x = json_object();
		char name[32];

		gd_fmt(name, sizeof name, "%s%s%s", t->gfx,
		       t->xnack[0] ? ":xnack" : "", t->xnack);
		json_object_set_new(x, "target", gd_json_str(name));
		json_object_set_new(x, "gfx", gd_json_str(t->gfx));
		json_object_set_new(x, "xnack", str_or_null(t->xnack));
		json_object_set_new(x, "kind",
				    gd_json_str(gd_rocblas_kind_name(t->kind)));
		json_object_set_new(x, "tensile_catalog",
				    json_boolean(t->tensile_catalog));
		json_object_set_new(x, "tensile_code",
				    json_boolean(t->tensile_code));
		json_object_set_new(x, "fallback_kernels",
				    json_boolean(t->fallback_kernels));
		json_object_set_new(x, "note", str_or_null(t->note));
		json_array_append_new(ts, x);
	}
	json_object_set_new(o, "targets", ts);
	json_object_set_new(o, "error", str_or_null(d->error));
	return o;
}

/* A rocBLAS directory belongs to the install whose found_by names it. */
static int rocblas_owner(const struct gd_inventory *inv,
			 const struct gd_rocblas_dir *d)
{
	for (size_t i = 0; i < inv->n_rocm; i++) {
		const char *p = inv->rocm[i].path;
		size_t k = strlen(p);

		if (!strncmp(d->found_by, p, k) &&
		    (d->found_by[k] == ',' || !d->found_by[k]))
			return (int)i;
		if (!strncmp(d->path, inv->rocm[i].lib_dir,
			     strlen(inv->rocm[i].lib_dir)))
			return (int)i;
	}
	return -1;
}

static json_t *rocm_json(const struct gd_inventory *inv, size_t idx)
{
	const struct gd_rocm_install *r = &inv->rocm[idx];
	json_t *o = json_object(), *rb = json_array();

	json_object_set_new(o, "kind", gd_json_str("rocm"));
	json_object_set_new(o, "path", gd_json_str(r->path));
	json_object_set_new(o, "resolved", gd_json_str(r->resolved));
	json_object_set_new(o, "found_by", found_by_json(r->found_by));
	set_text(o, "version", &r->version);
	set_text(o, "hip_version", &r->hip_version);
	json_object_set_new(o, "hip_major",
			    r->hip_major ? json_integer(r->hip_major)
					 : json_null());
	json_object_set_new(o, "lib_dir", gd_json_str(r->lib_dir));
	json_object_set_new(o, "loader_pick", json_boolean(r->loader_pick));
	json_object_set_new(o, "hip_path_mismatch",
			    json_boolean(r->hip_path_mismatch));
	json_object_set_new(o, "libraries", libs_json(r->libs, r->n_libs));
	for (size_t i = 0; i < inv->n_rocblas; i++)
		if (rocblas_owner(inv, &inv->rocblas[i]) == (int)idx)
			json_array_append_new(
			    rb, rocblas_json(&inv->rocblas[i], 0));
	json_object_set_new(o, "rocblas", rb);
	json_object_set_new(o, "error", str_or_null(r->error));
	return o;
}

static json_t *check_json(const struct gd_cuda_check *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "lib", gd_json_str(c->lib));
	json_object_set_new(o, "path", gd_json_str(c->path));
	json_object_set_new(o, "cuda", str_or_null(c->cuda));
	json_object_set_new(o, "min_driver", str_or_null(c->min_driver));
	json_object_set_new(o, "full_driver", str_or_null(c->full_driver));
	json_object_set_new(o, "driver_ok",
			    c->driver_ok < 0 ? json_null()
					     : json_boolean(c->driver_ok));
	json_object_set_new(o, "why", gd_json_str(c->why));
	return o;
}

static json_t *cuda_driver_json(const struct gd_inventory *inv)
{
	json_t *o = json_object(), *ch = json_array(), *libs;

	json_object_set_new(o, "kind", gd_json_str("cuda-driver"));
	json_object_set_new(o, "path", str_or_null(inv->cuda_driver_from));
	set_text(o, "version", &inv->cuda_driver);
	set_text(o, "cuda_api", &inv->cuda_driver_api);
	libs = libs_json(inv->cuda_libs, inv->n_cuda_libs);
	json_object_set_new(o, "loader_libraries", libs);
	for (size_t i = 0; i < inv->n_cuda_checks; i++)
		json_array_append_new(ch, check_json(&inv->cuda_checks[i]));
	json_object_set_new(o, "checks", ch);
	return o;
}

static json_t *cuda_toolkit_json(const struct gd_cuda_toolkit *t)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind", gd_json_str("cuda-toolkit"));
	json_object_set_new(o, "path", gd_json_str(t->path));
	json_object_set_new(o, "found_by", found_by_json(t->found_by));
	set_text(o, "version", &t->version);
	json_object_set_new(o, "lib_dir", str_or_null(t->lib_dir));
	json_object_set_new(o, "libraries", libs_json(t->libs, t->n_libs));
	json_object_set_new(o, "error", str_or_null(t->error));
	return o;
}

static json_t *icd_json(const struct gd_icd *c, int vulkan)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind",
			    gd_json_str(vulkan ? "vulkan" : "opencl"));
	json_object_set_new(o, "path", str_or_null(c->manifest));
	json_object_set_new(o, "found_by", found_by_json(c->found_by));
	json_object_set_new(o, "driver", str_or_null(c->driver));
	json_object_set_new(o, "device_type",
			    gd_json_str(c->software ? "cpu" : "gpu"));
	json_object_set_new(o, "software", json_boolean(c->software));
	set_text(o, "library", &c->library);
	json_object_set_new(o, "library_found", json_boolean(c->library_found));
	json_object_set_new(o, "library_resolved",
			    str_or_null(c->library_resolved));
	if (vulkan) {
		set_text(o, "version", &c->api_version);
		json_object_set_new(o, "file_format_version",
				    str_or_null(c->file_format_version));
	} else {
		json_object_set_new(o, "version", json_null());
		json_object_set_new(
		    o, "version_unknown",
		    gd_json_str("OpenCL ICD files carry no version"));
	}
	json_object_set_new(o, "error", str_or_null(c->error));
	return o;
}

/* A runtime library that would not load (docs/json-runtimes.md,
 * "library_load"); libraries that load are not listed. */
static json_t *dep_json(const struct gd_dep_check *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind", gd_json_str("library_load"));
	json_object_set_new(o, "backend", gd_json_str(d->backend));
	json_object_set_new(o, "vendor", str_or_null(d->vendor));
	json_object_set_new(o, "what", gd_json_str(d->what));
	json_object_set_new(o, "name", gd_json_str(d->name));
	json_object_set_new(o, "library", gd_json_str(d->lib));
	json_object_set_new(o, "status",
			    gd_json_str(gd_dep_status_name(d->status)));
	json_object_set_new(o, "chain", gd_json_str(d->chain));
	json_object_set_new(o, "soname", gd_json_str(d->soname));
	json_object_set_new(o, "needed_by", str_or_null(d->needed_by));
	json_object_set_new(o, "path", str_or_null(d->path));
	json_object_set_new(o, "found_by", str_or_null(d->how));
	json_object_set_new(o, "version", str_or_null(d->version));
	json_object_set_new(o, "provides", str_or_null(d->provides));
	json_object_set_new(o, "detail", str_or_null(d->detail));
	json_object_set_new(o, "objects", json_integer(d->objects));
	json_object_set_new(o, "truncated", json_boolean(d->truncated));
	return o;
}

json_t *gd_render_runtimes_json(const struct gd_inventory *inv)
{
	json_t *a = json_array();

	for (size_t i = 0; i < inv->n_rocm; i++)
		json_array_append_new(a, rocm_json(inv, i));
	for (size_t i = 0; i < inv->n_rocblas; i++)
		if (rocblas_owner(inv, &inv->rocblas[i]) < 0)
			json_array_append_new(
			    a, rocblas_json(&inv->rocblas[i], 1));
	if (gd_known(&inv->cuda_driver) || inv->n_cuda || inv->n_cuda_libs)
		json_array_append_new(a, cuda_driver_json(inv));
	for (size_t i = 0; i < inv->n_cuda; i++)
		json_array_append_new(a, cuda_toolkit_json(&inv->cuda[i]));
	for (size_t i = 0; i < inv->n_vulkan; i++)
		json_array_append_new(a, icd_json(&inv->vulkan[i], 1));
	for (size_t i = 0; i < inv->n_opencl; i++)
		json_array_append_new(a, icd_json(&inv->opencl[i], 0));
	for (size_t i = 0; i < inv->n_deps; i++)
		if (gd_dep_broken(inv->deps[i].status))
			json_array_append_new(a, dep_json(&inv->deps[i]));
	return a;
}

/* ---- text ---- */

#define COL "  %-13s"

static void lead(FILE *f, const struct gd_cli *cli, const char *label)
{
	fprintf(f, "  %s%-13s%s", gd_c_bold(cli), label, gd_c_off(cli));
}

static void text_fact(struct gd_cli *cli, FILE *f, const char *prefix,
		      const gd_text *t)
{
	if (gd_known(t))
		fprintf(f, "%s%s", prefix, t->v);
	else
		fprintf(f, "%s%sunknown (%s)%s", prefix, gd_c_dim(cli),
			t->why[0] ? t->why : "no reason recorded",
			gd_c_off(cli));
}

static void text_libs(FILE *f, const struct gd_lib *l, size_t n)
{
	if (!n)
		return;
	fprintf(f, COL "libraries:", "");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %s%s%s", i ? "," : "", l[i].name,
			l[i].version[0] ? " " : "", l[i].version);
	fputc('\n', f);
}

static void text_rocm(struct gd_cli *cli, FILE *f,
		      const struct gd_rocm_install *r)
{
	lead(f, cli, "ROCm/HIP");
	fprintf(f, "%s  %s(found by: %s)%s\n", r->path, gd_c_dim(cli),
		r->found_by, gd_c_off(cli));
	fprintf(f, COL, "");
	text_fact(cli, f, "version ", &r->version);
	if (gd_known(&r->hip_version))
		fprintf(f, ", HIP runtime libamdhip64.so.%u (%s)", r->hip_major,
			r->hip_version.v);
	else
		text_fact(cli, f, ", HIP runtime ", &r->hip_version);
	fprintf(f, "%s\n", r->loader_pick ? ", the loader's pick" : "");
	text_libs(f, r->libs, r->n_libs);
	if (r->hip_path_mismatch)
		fprintf(f,
			COL
			"%s! HIP_PATH points here (HIP %u) but programs load "
			"another HIP major from the library path%s\n",
			"", gd_c_yellow(cli), r->hip_major, gd_c_off(cli));
	if (r->error[0])
		fprintf(f, COL "%s%s%s\n", "", gd_c_red(cli), r->error,
			gd_c_off(cli));
}

static void text_rocblas_kind(struct gd_cli *cli, FILE *f,
			      const struct gd_rocblas_dir *d,
			      enum gd_rocblas_kind k, const char *what)
{
	int any = 0;

	for (size_t i = 0; i < d->n_targets; i++) {
		const struct gd_rocblas_target *t = &d->targets[i];

		if (t->kind != k)
			continue;
		if (!any++)
			fprintf(f, COL "%s%s:%s", "",
				k >= GD_ROCBLAS_FALLBACK_ONLY ? gd_c_yellow(cli)
							      : "",
				what,
				k >= GD_ROCBLAS_FALLBACK_ONLY ? gd_c_off(cli)
							      : "");
		fprintf(f, " %s%s%s", t->gfx, t->xnack[0] ? ":xnack" : "",
			t->xnack);
	}
	if (any)
		fputc('\n', f);
}

static void text_rocblas(struct gd_cli *cli, FILE *f,
			 const struct gd_rocblas_dir *d)
{
	lead(f, cli, "rocBLAS");
	fprintf(f, "%s  %s(found by: %s)%s\n", d->path, gd_c_dim(cli),
		d->found_by, gd_c_off(cli));
	text_rocblas_kind(cli, f, d, GD_ROCBLAS_TENSILE_LAZY,
			  "Tensile kernels (lazy)");
	text_rocblas_kind(cli, f, d, GD_ROCBLAS_TENSILE_SINGLE,
			  "Tensile kernels");
	text_rocblas_kind(cli, f, d, GD_ROCBLAS_FALLBACK_ONLY,
			  "fallback only (GEMM on slow generic kernels)");
	text_rocblas_kind(cli, f, d, GD_ROCBLAS_INCOMPLETE, "unusable files");
	if (!d->n_targets)
		fprintf(f, COL "no kernels for any GPU target\n", "");
	if (d->error[0])
		fprintf(f, COL "%s%s%s\n", "", gd_c_red(cli), d->error,
			gd_c_off(cli));
}

static int same_check(const struct gd_cuda_check *a,
		      const struct gd_cuda_check *b)
{
	return a->driver_ok == b->driver_ok && !strcmp(a->cuda, b->cuda) &&
	       !strcmp(a->why, b->why);
}

/* Checks with the same answer share one line: "cudart, cublas (CUDA 13.0)". */
static void text_check(struct gd_cli *cli, FILE *f,
		       const struct gd_inventory *inv, size_t i)
{
	const struct gd_cuda_check *c = &inv->cuda_checks[i];
	const char *col = c->driver_ok > 0    ? gd_c_green(cli)
			  : c->driver_ok == 0 ? gd_c_red(cli)
					      : gd_c_dim(cli);

	for (size_t j = 0; j < i; j++)
		if (same_check(&inv->cuda_checks[j], c))
			return;
	fprintf(f, COL "%s", "", c->lib);
	for (size_t j = i + 1; j < inv->n_cuda_checks; j++)
		if (same_check(&inv->cuda_checks[j], c))
			fprintf(f, ", %s", inv->cuda_checks[j].lib);
	if (c->cuda[0])
		fprintf(f, " (CUDA %s)", c->cuda);
	fprintf(f, ": %s%s%s - %s\n", col,
		c->driver_ok > 0    ? "driver ok"
		: c->driver_ok == 0 ? "driver too old"
				    : "unknown",
		gd_c_off(cli), c->why);
}

static void text_cuda(struct gd_cli *cli, FILE *f,
		      const struct gd_inventory *inv)
{
	lead(f, cli, "CUDA driver");
	text_fact(cli, f, "", &inv->cuda_driver);
	if (gd_known(&inv->cuda_driver))
		text_fact(cli, f, ", CUDA up to ", &inv->cuda_driver_api);
	fputc('\n', f);
	for (size_t i = 0; i < inv->n_cuda; i++) {
		const struct gd_cuda_toolkit *t = &inv->cuda[i];

		lead(f, cli, "CUDA toolkit");
		fprintf(f, "%s  %s(found by: %s)%s\n", t->path, gd_c_dim(cli),
			t->found_by, gd_c_off(cli));
		fprintf(f, COL, "");
		text_fact(cli, f, "version ", &t->version);
		fputc('\n', f);
		text_libs(f, t->libs, t->n_libs);
	}
	for (size_t i = 0; i < inv->n_cuda_checks; i++)
		text_check(cli, f, inv, i);
}

static void text_icds(struct gd_cli *cli, FILE *f, const char *label,
		      const struct gd_icd *c, size_t n, int vulkan)
{
	lead(f, cli, label);
	if (!n)
		fprintf(f, "%snone found%s\n", gd_c_dim(cli), gd_c_off(cli));
	for (size_t i = 0; i < n; i++) {
		if (i)
			fprintf(f, COL, "");
		fprintf(f, "%-12s %s%s%s", c[i].driver[0] ? c[i].driver : "?",
			c[i].software ? gd_c_dim(cli) : "",
			c[i].software ? "CPU (software) " : "",
			c[i].software ? gd_c_off(cli) : "");
		if (vulkan && gd_known(&c[i].api_version))
			fprintf(f, "API %s  ", c[i].api_version.v);
		fprintf(f, "%s",
			c[i].manifest[0] ? c[i].manifest : c[i].found_by);
		if (c[i].error[0])
			fprintf(f, "  %s%s%s", gd_c_red(cli), c[i].error,
				gd_c_off(cli));
		else if (!c[i].library_found)
			fprintf(f, "  %slibrary not found%s", gd_c_red(cli),
				gd_c_off(cli));
		fputc('\n', f);
	}
}

void gd_render_inventory_text(struct gd_cli *cli, FILE *f,
			      const struct gd_inventory *inv)
{
	fprintf(f, "%sCompute stack%s\n", gd_c_bold(cli), gd_c_off(cli));
	if (!inv->n_rocm) {
		lead(f, cli, "ROCm/HIP");
		fprintf(f, "%snone found%s\n", gd_c_dim(cli), gd_c_off(cli));
	}
	for (size_t i = 0; i < inv->n_rocm; i++)
		text_rocm(cli, f, &inv->rocm[i]);
	for (size_t i = 0; i < inv->n_rocblas; i++)
		text_rocblas(cli, f, &inv->rocblas[i]);
	text_cuda(cli, f, inv);
	text_icds(cli, f, "Vulkan", inv->vulkan, inv->n_vulkan, 1);
	text_icds(cli, f, "OpenCL", inv->opencl, inv->n_opencl, 0);
}
