/* libFuzzer: GNU symbol versioning (gd_elf_verneed, gd_elf_verdef, the
 * family maximum) and the DT_NEEDED closure walker (gd_ld_closure) on
 * the input written as the one library of an otherwise empty root, so
 * every needed name is missing or is the input itself ("lib.so"); and
 * gather's ELF stub of it (gd_elf_stub), read back by the same readers.
 * Seeds: corpus/fuzz_elf_ver/README.md. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binscan/binscan.h"
#include "core/ctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gd_ctx *fuzz_ctx(char *lib, size_t cap)
{
	static gd_ctx ctx;
	static int ready;
	static char root[] = "/tmp/gd-fuzz-elfver-XXXXXX";
	static char *envp[] = {"PATH=/usr/bin", "LD_LIBRARY_PATH=/", NULL};

	if (!ready) {
		if (!mkdtemp(root) || gd_ctx_init(&ctx, root, envp) < 0)
			abort();
		ready = 1;
	}
	snprintf(lib, cap, "%s/lib.so", root);
	return &ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char lib[128];
	gd_ctx *ctx = fuzz_ctx(lib, sizeof lib);
	struct gd_elf e;
	struct gd_bs_env env;
	struct gd_ld_result r;
	char *stub = NULL;
	size_t slen = 0;
	int fd;

	if (!gd_elf_open(&e, data, size, NULL, 0)) {
		struct gd_elf_vn vn[64];
		const char *defs[64];
		size_t nn = gd_elf_verneed(&e, vn, 64);
		size_t nd = gd_elf_verdef(&e, defs, 64);

		for (size_t i = 0; i < nn; i++)
			gd_ld_family_max(vn[i].ver, defs, nd);
	}
	fd = open(lib, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	memset(&env, 0, sizeof env);
	gd_ld_closure(ctx, &env, "/lib.so", &r);
	if (gd_elf_stub(ctx, "/lib.so", &stub, &slen) == 0 && stub &&
	    !gd_elf_open(&e, (const uint8_t *)stub, slen, NULL, 0)) {
		struct gd_elf_vn vn[64];
		const char *defs[64];

		gd_elf_verneed(&e, vn, 64);
		gd_elf_verdef(&e, defs, 64);
	}
	free(stub);
	return 0;
}
