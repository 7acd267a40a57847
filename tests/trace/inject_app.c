/* Does what the CUDA driver does with CUDA_INJECTION64_PATH at cuInit
 * (CUPTI docs, injection): dlopen the path and call its
 * InitializeInjection. There is no NVIDIA driver in CI; this shows the
 * library is found, takes the entry point, and reports its CUDA route. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	const char *path = getenv("CUDA_INJECTION64_PATH");
	void *h, *sym;
	int (*init)(void);

	if (!path || !path[0]) {
		puts("no CUDA_INJECTION64_PATH");
		return 0;
	}
	h = dlopen(path, RTLD_NOW);
	sym = h ? dlsym(h, "InitializeInjection") : NULL;
	if (!sym) {
		printf("no InitializeInjection in %s\n", path);
		return 1;
	}
	memcpy(&init, &sym, sizeof sym);
	printf("InitializeInjection %d\n", init());
	return 0;
}
