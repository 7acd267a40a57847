/* rtld_local_app LIB...: dlopen each LIB with RTLD_NOW | RTLD_LOCAL (as
 * CPython's import and ctypes.CDLL do) and run its gd_rt_calls()
 * (tests/trace/rt_calls.c). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
		int (*fn)(void) = NULL;
		void *p = h ? dlsym(h, "gd_rt_calls") : NULL;

		if (!p) {
			printf("cannot load %s: %s\n", argv[i], dlerror());
			return 1;
		}
		memcpy(&fn, &p, sizeof fn);
		fn();
	}
	return 0;
}
