/* libFuzzer: the /etc/ld.so.cache reader (src/binscan/ldresolve.c): the
 * header search, entry walk and string offsets, through the two users of
 * the cache (the soname lookup and the "installed instead" note). The
 * root is an empty directory, so no candidate is ever usable and every
 * entry is walked. Seeds: corpus/fuzz_ldcache/README.md. */
#include <stdlib.h>
#include <string.h>

#include "binscan/binscan.h"
#include "core/ctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gd_ctx *fuzz_ctx(void)
{
	static gd_ctx ctx;
	static int ready;
	static char root[] = "/tmp/gd-fuzz-ldcache-XXXXXX";
	static char *envp[] = {"PATH=/usr/bin", NULL};

	if (!ready) {
		if (!mkdtemp(root) || gd_ctx_init(&ctx, root, envp) < 0)
			abort();
		ready = 1;
	}
	return &ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* one found in a real cache, one missing (the "installed instead"
	 * walk over every entry) */
	static const char *const sonames[] = {"libc.so.6", "libcudart.so.11"};
	static struct gd_bs_file f = {.path = "/usr/lib/x.so", .machine = 62};
	struct gd_bs_need need;
	struct gd_bs_env env;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	memset(&env, 0, sizeof env);
	gd_bs_env_set_ldcache(&env, buf, size);
	for (size_t i = 0; i < 2; i++)
		gd_ldresolve(fuzz_ctx(), &env, &f, sonames[i], &need);
	gd_bs_env_free(&env);
	return 0;
}
