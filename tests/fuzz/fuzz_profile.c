/* libFuzzer target: the profile parser, validator and formatter. Whatever
 * parses must validate or fail cleanly, and a valid profile must survive a
 * format -> parse round trip unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_profile p, q;
	char err[256];
	char **env;
	char *base[] = {"PATH=/usr/bin", "LD_LIBRARY_PATH=/usr/lib", NULL};

	gd_profile_init(&p);
	gd_profile_init(&q);
	if (gd_profile_parse((const char *)data, size, &p, err, sizeof err) ==
		0 &&
	    gd_profile_validate(&p, err, sizeof err) == 0) {
		char *a = gd_profile_format(&p), *b = NULL;

		if (a &&
		    gd_profile_parse(a, strlen(a), &q, err, sizeof err) == 0)
			b = gd_profile_format(&q);
		if (a && (!b || strcmp(a, b)))
			abort(); /* the round trip must be exact */
		free(a);
		free(b);
		env = gd_profile_apply(&p, base);
		gd_env_free(env);
		gd_profile_summary(&p, err, sizeof err);
	}
	gd_profile_free(&p);
	gd_profile_free(&q);
	return 0;
}
