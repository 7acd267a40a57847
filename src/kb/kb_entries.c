/* kb/: the typed entries of kb.h, filled from the JSON objects the lookups
 * of kb.c return (each parsed alone through the lazy index). The member
 * names come from kb_keys.h; the shapes are docs/kb.md's, checked by
 * kb_validate.c before any of this runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "kb_internal.h"
#include "kb_keys.h"

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static struct gd_kb_list list_of(const json_t *o, const char *key)
{
	struct gd_kb_list l = {json_object_get(o, key)};

	return l;
}

size_t gd_kb_list_n(struct gd_kb_list l)
{
	return json_array_size((const json_t *)l.a);
}

const char *gd_kb_list_at(struct gd_kb_list l, size_t i)
{
	const json_t *a = l.a;

	/* a bare string counts as a list of one (older "sources": "id") */
	if (json_is_string(a))
		return i ? NULL : json_string_value(a);
	return json_string_value(json_array_get(a, i));
}

int gd_kb_list_has(struct gd_kb_list l, const char *s)
{
	for (size_t i = 0; s && i < gd_kb_list_n(l); i++)
		if (gd_streq(gd_kb_list_at(l, i), s))
			return 1;
	return 0;
}

const char *gd_kb_date(const gd_kb *kb)
{
	return json_string_value(gd_kb_get(kb, GD_KBK_DATE));
}

int gd_kb_source_get(const gd_kb *kb, const char *id, struct gd_kb_source *out)
{
	const json_t *s = gd_kb_source(kb, id);

	memset(out, 0, sizeof *out);
	if (!s)
		return -1;
	out->id = id;
	out->title = str(s, GD_KBK_TITLE);
	out->url = str(s, GD_KBK_URL);
	return 0;
}

void gd_kb_source_urls(const gd_kb *kb, struct gd_kb_list ids, char *buf,
		       size_t cap)
{
	size_t used = 0;
	struct gd_kb_source s;

	if (!cap)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < gd_kb_list_n(ids); i++) {
		if (gd_kb_source_get(kb, gd_kb_list_at(ids, i), &s) < 0 ||
		    !s.url)
			continue; /* field reports and notes: no public page */
		gd_fmt(buf + used, cap - used, "%s%s", used ? " " : "", s.url);
		used += strlen(buf + used);
		if (used + 1 >= cap)
			break;
	}
}

static const char *const workloads[GD_KB_N_WORKLOADS] = {
    [GD_KB_WL_CTRANSLATE2] = "ctranslate2",
    [GD_KB_WL_PYTORCH] = "pytorch",
    [GD_KB_WL_LLAMACPP] = "llama.cpp",
};

const char *gd_kb_workload_name(enum gd_kb_workload w)
{
	return (unsigned)w < GD_KB_N_WORKLOADS ? workloads[w] : "?";
}

static void advice_of(const json_t *a, struct gd_kb_advice *out)
{
	memset(out, 0, sizeof *out);
	if (!a)
		return;
	out->present = 1;
	out->verdict = str(a, GD_KBK_VERDICT);
	out->backend = str(a, GD_KBK_BACKEND);
	out->text = str(a, GD_KBK_TEXT);
	out->install = str(a, GD_KBK_INSTALL);
	out->caveats = str(a, GD_KBK_CAVEATS);
	out->sources = list_of(a, GD_KBK_SOURCES);
}

static int target_of(const json_t *t, struct gd_kb_target *out)
{
	const json_t *rl, *ov, *apu, *ver, *adv;

	memset(out, 0, sizeof *out);
	out->apu = -1;
	out->version = -1;
	if (!t)
		return -1;
	out->gfx = str(t, GD_KBK_GFX);
	out->family = str(t, GD_KBK_FAMILY);
	ver = json_object_get(t, GD_KBK_GFX_VERSION);
	if (json_is_integer(ver))
		out->version = json_integer_value(ver);
	apu = json_object_get(t, GD_KBK_APU);
	if (json_is_boolean(apu))
		out->apu = json_is_true(apu);
	rl = json_object_get(t, GD_KBK_ROCM_LINUX);
	out->rocm_linux.status = str(rl, GD_KBK_STATUS);
	out->rocm_linux.since = str(rl, GD_KBK_SINCE);
	out->rocm_linux.note = str(rl, GD_KBK_NOTE);
	out->rocm_linux.sources = list_of(rl, GD_KBK_SOURCES);
	rl = json_object_get(t, GD_KBK_ROCM_WINDOWS);
	out->rocm_windows.status = str(rl, GD_KBK_STATUS);
	out->rocm_windows.since = str(rl, GD_KBK_SINCE);
	out->rocm_windows.note = str(rl, GD_KBK_NOTE);
	out->rocm_windows.sources = list_of(rl, GD_KBK_SOURCES);
	ov = json_object_get(t, GD_KBK_OVERRIDE);
	out->override.value = str(ov, GD_KBK_VALUE);
	out->override.caveat = str(ov, GD_KBK_CAVEAT);
	out->override.sources = list_of(ov, GD_KBK_SOURCES);
	out->issues = list_of(t, GD_KBK_ISSUES);
	out->sources = list_of(t, GD_KBK_SOURCES);
	adv = json_object_get(t, GD_KBK_ADVICE);
	for (int w = 0; w < GD_KB_N_WORKLOADS; w++)
		advice_of(json_object_get(adv, workloads[w]), &out->advice[w]);
	return 0;
}

int gd_kb_target_get(const gd_kb *kb, const char *gfx, struct gd_kb_target *out)
{
	return target_of(gd_kb_target(kb, gfx), out);
}

int gd_kb_target_for_pci_get(const gd_kb *kb, unsigned device_id,
			     struct gd_kb_target *out)
{
	return target_of(gd_kb_target_for_pci(kb, device_id), out);
}

int gd_kb_target_for_version_get(const gd_kb *kb, unsigned version,
				 struct gd_kb_target *out)
{
	return target_of(gd_kb_target_for_version(kb, version), out);
}

const char *gd_kb_product_name(const gd_kb *kb, unsigned device_id)
{
	return str(gd_kb_product_for_pci(kb, device_id), GD_KBK_NAME);
}

int gd_kb_issue_get(const gd_kb *kb, const char *id, struct gd_kb_issue *out)
{
	const json_t *is = gd_kb_issue(kb, id);

	memset(out, 0, sizeof *out);
	if (!is)
		return -1;
	out->id = str(is, GD_KBK_ID);
	out->title = str(is, GD_KBK_TITLE);
	out->url = str(is, GD_KBK_URL);
	out->status = str(is, GD_KBK_STATUS);
	out->summary = str(is, GD_KBK_SUMMARY);
	out->workaround = str(is, GD_KBK_WORKAROUND);
	out->targets = list_of(is, GD_KBK_TARGETS);
	out->sources = list_of(is, GD_KBK_SOURCES);
	return 0;
}

static int strategy_of(const json_t *s, struct gd_kb_strategy *out)
{
	memset(out, 0, sizeof *out);
	if (!json_is_object(s))
		return -1;
	out->id = str(s, GD_KBK_ID);
	out->kind = str(s, GD_KBK_KIND);
	out->vendor = str(s, GD_KBK_VENDOR);
	out->condition = str(s, GD_KBK_CONDITION);
	out->reason = str(s, GD_KBK_REASON);
	out->caveat = str(s, GD_KBK_CAVEAT);
	out->steps = str(s, GD_KBK_STEPS);
	out->kernel_param = str(s, GD_KBK_KERNEL_PARAM);
	out->firmware = str(s, GD_KBK_FIRMWARE_ID);
	out->order = (int)json_integer_value(json_object_get(s, GD_KBK_ORDER));
	out->recommended = json_is_true(json_object_get(s, GD_KBK_RECOMMENDED));
	out->has_targets = json_is_array(json_object_get(s, GD_KBK_TARGETS));
	out->targets = list_of(s, GD_KBK_TARGETS);
	out->unset = list_of(s, GD_KBK_UNSET);
	out->sources = list_of(s, GD_KBK_SOURCES);
	out->env = json_object_get(s, GD_KBK_ENV);
	return 0;
}

size_t gd_kb_strategy_count(const gd_kb *kb)
{
	return gd_kb_list_count(kb, GD_KB_IX_STRATEGIES, GD_KBK_STRATEGIES);
}

int gd_kb_strategy_at(const gd_kb *kb, size_t i, struct gd_kb_strategy *out)
{
	return strategy_of(
	    gd_kb_list_entry(kb, GD_KB_IX_STRATEGIES, GD_KBK_STRATEGIES, i),
	    out);
}

int gd_kb_strategy_get(const gd_kb *kb, const char *id,
		       struct gd_kb_strategy *out)
{
	return strategy_of(gd_kb_strategy(kb, id), out);
}

size_t gd_kb_env_n(const struct gd_kb_strategy *s)
{
	return json_is_object((const json_t *)s->env)
		   ? json_object_size((const json_t *)s->env)
		   : 0;
}

int gd_kb_env_at(const struct gd_kb_strategy *s, size_t i, const char **key,
		 const char **val)
{
	void *it = json_is_object((const json_t *)s->env)
		       ? json_object_iter((json_t *)s->env)
		       : NULL;

	while (it && i--)
		it = json_object_iter_next((json_t *)s->env, it);
	if (!it)
		return -1;
	*key = json_object_iter_key(it);
	*val = json_string_value(json_object_iter_value(it));
	return 0;
}

static int signature_of(const json_t *sg, struct gd_kb_signature *out)
{
	int c;

	memset(out, 0, sizeof *out);
	if (!json_is_object(sg))
		return -1;
	out->id = str(sg, GD_KBK_ID);
	out->regex = str(sg, GD_KBK_REGEX);
	out->unless = str(sg, GD_KBK_UNLESS);
	out->title = str(sg, GD_KBK_TITLE);
	out->meaning = str(sg, GD_KBK_MEANING);
	out->fix = str(sg, GD_KBK_FIX);
	out->example = str(sg, GD_KBK_EXAMPLE);
	out->check_name = str(sg, GD_KBK_CHECK);
	c = gd_kb_check_from_name(out->check_name);
	out->check = c < 0 ? GD_KB_CHECK_NONE : (enum gd_kb_check)c;
	c = gd_kb_decode_from_name(str(sg, GD_KBK_DECODE));
	out->decode = c < 0 ? GD_KB_DECODE_NONE : (enum gd_kb_decode)c;
	out->icase = json_is_true(json_object_get(sg, GD_KBK_ICASE));
	out->minor = json_is_true(json_object_get(sg, GD_KBK_MINOR));
	out->literals = list_of(sg, GD_KBK_LITERALS);
	out->causes = list_of(sg, GD_KBK_CAUSES);
	out->sources = list_of(sg, GD_KBK_SOURCES);
	return 0;
}

const char *gd_kb_cause_text(const gd_kb *kb, const char *code)
{
	return code ? str(gd_kb_get(kb, GD_KBK_CAUSES), code) : NULL;
}

size_t gd_kb_evidence_count(const gd_kb *kb)
{
	return json_array_size(gd_kb_get(kb, GD_KBK_EVIDENCE));
}

int gd_kb_evidence_at(const gd_kb *kb, size_t i, struct gd_kb_evidence *out)
{
	const json_t *e = json_array_get(gd_kb_get(kb, GD_KBK_EVIDENCE), i);

	memset(out, 0, sizeof *out);
	if (!json_is_object(e))
		return -1;
	out->id = str(e, GD_KBK_ID);
	out->cause = str(e, GD_KBK_CAUSE);
	out->text = str(e, GD_KBK_TEXT);
	out->signatures = list_of(e, GD_KBK_SIGNATURES);
	out->markers = list_of(e, GD_KBK_MARKERS);
	return out->id && out->cause && out->text ? 0 : -1;
}

const char *gd_kb_alternative_cause(const gd_kb *kb, const char *alt_id)
{
	const char *c;
	struct gd_kb_evidence e;

	if (!alt_id)
		return NULL;
	c = str(gd_kb_get(kb, GD_KBK_ALTERNATIVES), alt_id);
	for (size_t i = 0; !c && i < gd_kb_evidence_count(kb); i++)
		if (!gd_kb_evidence_at(kb, i, &e) && !strcmp(e.id, alt_id))
			c = e.cause;
	return c;
}

size_t gd_kb_signature_count(const gd_kb *kb)
{
	return gd_kb_list_count(kb, GD_KB_IX_SIGNATURES, GD_KBK_SIGNATURES);
}

int gd_kb_signature_at(const gd_kb *kb, size_t i, struct gd_kb_signature *out)
{
	return signature_of(
	    gd_kb_list_entry(kb, GD_KB_IX_SIGNATURES, GD_KBK_SIGNATURES, i),
	    out);
}

int gd_kb_signature_get(const gd_kb *kb, const char *id,
			struct gd_kb_signature *out)
{
	return signature_of(gd_kb_signature(kb, id), out);
}

int gd_kb_nvidia_gpu_get(const gd_kb *kb, unsigned device_id,
			 struct gd_kb_nvidia_gpu *out)
{
	const json_t *g = gd_kb_nvidia_for_pci(kb, device_id);

	memset(out, 0, sizeof *out);
	if (!g)
		return -1;
	out->name = str(g, GD_KBK_NAME);
	out->sm = str(g, GD_KBK_SM);
	return 0;
}

int gd_kb_cc_get(const gd_kb *kb, const char *sm, struct gd_kb_cc *out)
{
	const json_t *c = gd_kb_nvidia_cc(kb, sm);

	memset(out, 0, sizeof *out);
	if (!c)
		return -1;
	out->sm = str(c, GD_KBK_SM);
	out->cc = str(c, GD_KBK_CC);
	out->arch = str(c, GD_KBK_ARCH);
	out->min_cuda = str(c, GD_KBK_MIN_CUDA);
	out->last_cuda = str(c, GD_KBK_LAST_CUDA);
	out->note = str(c, GD_KBK_NOTE);
	out->pytorch_install = str(c, GD_KBK_PYTORCH_INSTALL);
	out->sources = list_of(c, GD_KBK_SOURCES);
	return 0;
}

size_t gd_kb_driver_mins(const gd_kb *kb, struct gd_kb_driver_min *out,
			 size_t cap)
{
	const json_t *tab =
	    json_object_get(gd_kb_get(kb, GD_KBK_NVIDIA), GD_KBK_DRIVER_MIN);
	const json_t *e;
	size_t i;

	json_array_foreach(tab, i, e)
	{
		if (i >= cap)
			continue;
		out[i].cuda = str(e, GD_KBK_CUDA);
		out[i].linux_min = str(e, GD_KBK_LINUX);
		out[i].windows_min = str(e, GD_KBK_WINDOWS);
	}
	return json_array_size(tab);
}

/* "0x1a03" -> 0x1a03; -1 (no id) when not a string. */
static unsigned long hex_of(const json_t *v)
{
	const char *s = json_string_value(v);

	return s ? strtoul(s, NULL, 16) : (unsigned long)-1;
}

static int has_hex(const json_t *ids, unsigned id)
{
	const json_t *e;
	size_t i;

	json_array_foreach(ids, i, e) if (hex_of(e) == id) return 1;
	return 0;
}

int gd_kb_nvidia_chip_get(const gd_kb *kb, const char *chip,
			  struct gd_kb_nvidia_chip *out)
{
	const json_t *e, *best = NULL, *pre;
	size_t i, j, best_len = 0;

	memset(out, 0, sizeof *out);
	json_array_foreach(gd_kb_get(kb, GD_KBK_NVIDIA_CHIPS), i, e)
	{
		json_array_foreach(json_object_get(e, GD_KBK_CHIPS), j, pre)
		{
			const char *p = json_string_value(pre);
			size_t n = p ? strlen(p) : 0;

			if (chip && n > best_len && !strncmp(chip, p, n)) {
				best = e;
				best_len = n;
				out->prefix = p;
			}
		}
	}
	if (!best)
		return -1;
	out->sm = str(best, GD_KBK_SM);
	out->cc = str(best, GD_KBK_CC);
	out->arch = str(best, GD_KBK_ARCH);
	out->last_cuda = str(best, GD_KBK_LAST_CUDA);
	out->last_driver = str(best, GD_KBK_LAST_DRIVER);
	out->note = str(best, GD_KBK_NOTE);
	out->sources = list_of(best, GD_KBK_SOURCES);
	return 0;
}

int gd_kb_not_gpu_get(const gd_kb *kb, unsigned vendor_id, unsigned device_id,
		      unsigned class_code, struct gd_kb_not_gpu *out)
{
	const json_t *e, *cls;
	size_t i;

	memset(out, 0, sizeof *out);
	json_array_foreach(gd_kb_get(kb, GD_KBK_PCI_NOT_GPU), i, e)
	{
		cls = json_object_get(e, GD_KBK_CLASS);
		if (hex_of(json_object_get(e, GD_KBK_VENDOR_ID)) != vendor_id)
			continue;
		if (!has_hex(json_object_get(e, GD_KBK_DEVICE_IDS),
			     device_id) &&
		    !(cls && class_code && hex_of(cls) == class_code >> 16))
			continue;
		out->kind = str(e, GD_KBK_KIND);
		out->name = str(e, GD_KBK_NAME);
		out->note = str(e, GD_KBK_NOTE);
		out->sources = list_of(e, GD_KBK_SOURCES);
		return 0;
	}
	return -1;
}

/* A chip that pci_name starts with, followed by a space, '/' or the end
 * ("Cape Verde PRO", not "Cape Verdes"). */
static int chip_match(const json_t *chips, const char *pci_name)
{
	const json_t *c;
	size_t i;

	json_array_foreach(chips, i, c)
	{
		const char *p = json_string_value(c);
		size_t n = p ? strlen(p) : 0;

		if (n && !strncmp(pci_name, p, n) &&
		    (pci_name[n] == ' ' || pci_name[n] == '/' || !pci_name[n]))
			return 1;
	}
	return 0;
}

int gd_kb_amd_no_kfd_get(const gd_kb *kb, unsigned device_id,
			 const char *pci_name, struct gd_kb_no_kfd *out)
{
	const json_t *list = gd_kb_get(kb, GD_KBK_AMD_NO_KFD), *e, *hit = NULL;
	size_t i;

	memset(out, 0, sizeof *out);
	json_array_foreach(
	    list, i, e) if (!hit && has_hex(json_object_get(e, GD_KBK_PCI_IDS),
					    device_id)) hit = e;
	/* the PCI id wins; the chip name covers ids the list lacks */
	json_array_foreach(
	    list, i,
	    e) if (!hit && pci_name && pci_name[0] &&
		   chip_match(json_object_get(e, GD_KBK_CHIPS), pci_name))
	{
		hit = e;
		out->by_chip = 1;
	}
	if (!hit)
		return -1;
	out->family = str(hit, GD_KBK_FAMILY);
	out->gfx = str(hit, GD_KBK_GFX);
	out->note = str(hit, GD_KBK_NOTE);
	out->sources = list_of(hit, GD_KBK_SOURCES);
	return 0;
}

/* '*' matches any run of characters; nothing else is special. */
static int glob_match(const char *pat, const char *s)
{
	for (; *pat; pat++, s++) {
		if (*pat == '*') {
			for (const char *t = s;; t++) {
				if (glob_match(pat + 1, t))
					return 1;
				if (!*t)
					return 0;
			}
		}
		if (*pat != *s)
			return 0;
	}
	return !*s;
}

int gd_kb_library_get(const gd_kb *kb, const char *soname,
		      struct gd_kb_library *out)
{
	const json_t *list = gd_kb_get(kb, GD_KBK_LIBRARIES), *e, *hit = NULL;
	size_t i;

	memset(out, 0, sizeof *out);
	if (!soname)
		return -1;
	/* an exact name wins over a pattern */
	json_array_foreach(list, i, e)
	{
		const char *k = str(e, GD_KBK_SONAME);

		if (!hit && k && !strcmp(k, soname))
			hit = e;
	}
	json_array_foreach(list, i, e)
	{
		const char *k = str(e, GD_KBK_SONAME);

		if (!hit && k && strchr(k, '*') && glob_match(k, soname))
			hit = e;
	}
	if (!hit)
		return -1;
	out->soname = str(hit, GD_KBK_SONAME);
	out->debian = str(hit, GD_KBK_DEBIAN);
	out->fedora = str(hit, GD_KBK_FEDORA);
	out->note = str(hit, GD_KBK_NOTE);
	out->dlopens = list_of(hit, GD_KBK_DLOPENS);
	out->sources = list_of(hit, GD_KBK_SOURCES);
	return 0;
}

static const json_t *workload(const gd_kb *kb, enum gd_kb_workload w,
			      const char *stack)
{
	if ((unsigned)w >= GD_KB_N_WORKLOADS || !stack)
		return NULL;
	return json_object_get(
	    json_object_get(gd_kb_get(kb, GD_KBK_WORKLOADS), workloads[w]),
	    stack);
}

int gd_kb_workload_get(const gd_kb *kb, enum gd_kb_workload w,
		       const char *stack, struct gd_kb_advice *out)
{
	advice_of(workload(kb, w, stack), out);
	return out->present ? 0 : -1;
}

const char *gd_kb_workload_install_for(const gd_kb *kb, enum gd_kb_workload w,
				       const char *stack, unsigned major)
{
	char key[16];

	gd_fmt(key, sizeof key, "%u", major);
	return str(
	    json_object_get(workload(kb, w, stack), GD_KBK_INSTALL_BY_MAJOR),
	    key);
}
