/* kb/: an AMD GPU's target from its marketing name, for adapters known
 * by name only (a Windows display class key without a PCI id, hipInfo's
 * or DxDiag's name): targets[].products[].name lists the models of each
 * target ("AMD Radeon RX 5700 XT / 5700 / 5600 XT", "Polaris 10/20:
 * Radeon RX 470/480/570/580/590"). A name is matched by its first model
 * ("5700 XT", "580", "W5700", "780M", "8060S"): exact, and only when one
 * target lists it. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "kb.h"
#include "kb_internal.h"
#include "kb_keys.h"

/* Words that make a different model of the same number; the key holds
 * them without the space, as names are written either way. */
static const char *const tails[] = {"XTX", "XT", "GRE", "XL", "OEM", "X"};

/* The model at s (3+ digits, with letters glued on either side and a
 * separate XT/XTX/GRE/XL/OEM word after), into key; the end of what was
 * read, or NULL when s holds no model. */
static const char *model(const char *s, char *key, size_t cap)
{
	const char *d = s, *b, *e;
	size_t n;

	for (;; d++) {
		if (!*d)
			return NULL;
		if (isdigit((unsigned char)*d) &&
		    (d == s || !isdigit((unsigned char)d[-1])) &&
		    strspn(d, "0123456789") >= 3)
			break;
	}
	for (b = d; b > s && isupper((unsigned char)b[-1]); b--)
		;
	if (d - b == 2 && !strncmp(b, "RX", 2))
		b = d; /* "RX5700" is the 5700 */
	e = d + strspn(d, "0123456789");
	while (isalpha((unsigned char)*e))
		e++;
	n = (size_t)(e - b);
	gd_fmt(key, cap, "%.*s", (int)n, b);
	if (*e == ' ')
		for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
			size_t t = strlen(tails[i]);

			if (!strncasecmp(e + 1, tails[i], t) &&
			    !isalnum((unsigned char)e[1 + t])) {
				gd_fmt(key + strlen(key), cap - strlen(key),
				       "%s", tails[i]); /* "5700XT" too */
				e += 1 + t;
				break;
			}
		}
	return e;
}

/* Does the product name list the model key? */
static int lists(const char *product, const char *key)
{
	char k[48];

	for (const char *s = product; (s = model(s, k, sizeof k));)
		if (!strcasecmp(k, key))
			return 1;
	return 0;
}

const char *gd_kb_gfx_for_name(const gd_kb *kb, const char *name)
{
	const json_t *targets = gd_kb_get(kb, GD_KBK_TARGETS), *t, *p;
	const char *hit = NULL;
	char key[48];
	size_t i, j;

	if (!name || !model(name, key, sizeof key))
		return NULL;
	json_array_foreach(targets, i, t)
	{
		const char *gfx = json_string_value(json_object_get(t, "gfx"));

		json_array_foreach(json_object_get(t, GD_KBK_PRODUCTS), j, p)
		{
			const char *pn =
			    json_string_value(json_object_get(p, "name"));

			if (!gfx || !pn || !lists(pn, key))
				continue;
			if (hit && strcmp(hit, gfx))
				return NULL; /* two targets: not told */
			hit = gfx;
		}
	}
	return hit;
}
