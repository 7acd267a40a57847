/* doctor/codes: the code table (codes.h). */
#include "codes.h"

#include <string.h>

static const struct {
	const char *code, *meaning;
} table[GD_N_CODES] = {
#define GD_CODE_ROW(e, code, meaning) [e] = {code, meaning},
    GD_CODES(GD_CODE_ROW)
#undef GD_CODE_ROW
};

const char *gd_code_name(enum gd_code c)
{
	return (unsigned)c < GD_N_CODES ? table[c].code : "unknown";
}

const char *gd_code_meaning(enum gd_code c)
{
	return (unsigned)c < GD_N_CODES ? table[c].meaning : "";
}

int gd_code_find(const char *name)
{
	for (int i = 0; name && i < GD_N_CODES; i++)
		if (!strcmp(table[i].code, name))
			return i;
	return -1;
}
