/* The kernel state beneath the GPUs as JSON (docs/json.md "kernel"):
 * module parameters in force, what the command line and modprobe.d ask
 * for, Secure Boot, TTM limits; and one GPU's firmware versions. */
#include <string.h>

#include "core/json.h"
#include "render_gpu.h"

static json_t *opt_json(const struct gd_kopt *o)
{
	json_t *j = json_object();

	json_object_set_new(j, "module", gd_json_str(o->module));
	if (o->param[0]) {
		json_object_set_new(j, "param", gd_json_str(o->param));
		json_object_set_new(j, "value", gd_json_str(o->value));
	}
	json_object_set_new(j, "source", gd_json_str(o->src));
	return j;
}

static json_t *asked_json(const struct gd_kopts *o)
{
	json_t *j = json_object(), *opts = json_array(), *bl = json_array();

	for (size_t i = 0; i < o->n; i++)
		json_array_append_new(opts, opt_json(&o->v[i]));
	for (size_t i = 0; i < o->n_black; i++)
		json_array_append_new(bl, opt_json(&o->black[i]));
	json_object_set_new(j, "options", opts);
	json_object_set_new(j, "blacklist", bl);
	return j;
}

static json_t *modules_json(const struct gd_kstate *k)
{
	json_t *j = json_object();

	for (int m = 0; m < GD_KMOD_N; m++) {
		const struct gd_kmodule *km = &k->mod[m];
		json_t *mod = json_object(), *p = json_object();

		for (size_t i = 0; i < km->n; i++)
			json_object_set_new(p, km->p[i].name,
					    gd_json_str(km->p[i].value));
		json_object_set_new(mod, "loaded", json_boolean(km->loaded));
		json_object_set_new(mod, "parameters", p);
		json_object_set_new(j, gd_kmod_name((enum gd_kmod)m), mod);
	}
	return j;
}

static void put_num_or_null(json_t *o, const char *key, const gd_num *n)
{
	json_object_set_new(
	    o, key, gd_known(n) ? json_integer((json_int_t)n->v) : json_null());
}

void gd_render_kstate_json(json_t *kernel, const struct gd_kstate *k)
{
	json_t *ttm = json_object();

	json_object_set_new(kernel, "cmdline",
			    gd_known(&k->cmdline) ? gd_json_str(k->cmdline_full)
						  : json_null());
	json_object_set_new(kernel, "cmdline_asks", asked_json(&k->cmd));
	json_object_set_new(kernel, "modprobe_d", asked_json(&k->modprobe));
	json_object_set_new(kernel, "modules", modules_json(k));
	json_object_set_new(kernel, "secure_boot",
			    k->secure_boot < 0 ? json_null()
					       : json_boolean(k->secure_boot));
	put_num_or_null(kernel, "mem_total_bytes", &k->mem_total);
	json_object_set_new(
	    ttm, "module",
	    gd_known(&k->ttm_pages_limit)
		? gd_json_str(gd_kmod_name((enum gd_kmod)k->ttm_module))
		: json_null());
	put_num_or_null(ttm, "pages_limit", &k->ttm_pages_limit);
	put_num_or_null(ttm, "page_pool_size", &k->ttm_page_pool_size);
	json_object_set_new(kernel, "ttm", ttm);
	json_object_set_new(kernel, "nvidia_module_file",
			    k->nvidia_ko[0] ? gd_json_str(k->nvidia_ko)
					    : json_null());
}

json_t *gd_render_fw_json(const struct gd_fw *fw)
{
	json_t *j;

	if (!fw->n)
		return json_null();
	j = json_object();
	for (size_t i = 0; i < fw->n; i++)
		json_object_set_new(j, fw->v[i].name,
				    gd_json_str(fw->v[i].value));
	return j;
}
