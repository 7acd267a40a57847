/* errstrings: print the error texts the GPU runtimes themselves give for
 * their codes, as "api<TAB>code<TAB>text" lines, for tools/gen_errcodes.py
 * (tools/errcodes/README.md). Run on a machine that has the runtimes:
 *   cc -O2 -o errstrings tools/errstrings.c -ldl && ./errstrings > out.tsv
 * Each library is opened by its soname; one that is absent is skipped with a
 * note on stderr. Only the string functions are called: no GPU is needed,
 * no runtime is initialised. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef const char *(*str_fn)(int);
typedef int (*cu_str_fn)(int, const char **);

static void *open_any(const char *const *names)
{
	for (; *names; names++) {
		void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);

		if (h)
			return h;
	}
	return NULL;
}

static void clean(const char *api, int code, const char *s)
{
	printf("%s\t%d\t", api, code);
	for (; *s; s++)
		putchar(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
	putchar('\n');
}

/* fn(code) for code in [lo, hi]; texts equal to the one of an unused code
 * (the runtime's "unrecognized error code") are skipped. */
static void dump_plain(const char *api, const char *const *libs,
		       const char *sym, int lo, int hi, int unused)
{
	void *h = open_any(libs);
	str_fn fn;
	const char *none;

	if (!h || !(fn = (str_fn)(long)dlsym(h, sym))) {
		fprintf(stderr, "errstrings: %s: %s not found\n", api, sym);
		return;
	}
	none = fn(unused);
	for (int c = lo; c <= hi; c++) {
		const char *s = fn(c);

		if (s && *s && (!none || strcmp(s, none) || c == unused))
			clean(api, c, s);
	}
}

/* cuGetErrorString / hsa_status_string: status out-parameter. */
static void dump_out(const char *api, const char *const *libs, const char *sym,
		     int lo, int hi)
{
	void *h = open_any(libs);
	cu_str_fn fn;

	if (!h || !(fn = (cu_str_fn)(long)dlsym(h, sym))) {
		fprintf(stderr, "errstrings: %s: %s not found\n", api, sym);
		return;
	}
	for (int c = lo; c <= hi; c++) {
		const char *s = NULL;

		if (fn(c, &s) == 0 && s && *s)
			clean(api, c, s);
	}
}

int main(void)
{
	static const char *const cudart[] = {"libcudart.so", "libcudart.so.13",
					     "libcudart.so.12", NULL};
	static const char *const cu[] = {"libcuda.so.1", NULL};
	static const char *const cublas[] = {"libcublas.so", "libcublas.so.13",
					     "libcublas.so.12", NULL};
	static const char *const cudnn[] = {"libcudnn.so", "libcudnn.so.9",
					    "libcudnn_graph.so.9", NULL};
	static const char *const nccl[] = {"libnccl.so", "libnccl.so.2", NULL};
	static const char *const nvrtc[] = {"libnvrtc.so", "libnvrtc.so.13",
					    "libnvrtc.so.12", NULL};
	static const char *const hip[] = {"libamdhip64.so", "libamdhip64.so.5",
					  "libamdhip64.so.6", NULL};
	static const char *const hsa[] = {"libhsa-runtime64.so.1", NULL};

	dump_plain("cudart", cudart, "cudaGetErrorString", 0, 1100, 12345);
	dump_out("cu", cu, "cuGetErrorString", 0, 1100);
	dump_plain("cublas", cublas, "cublasGetStatusString", 0, 20, 12345);
	dump_plain("cudnn", cudnn, "cudnnGetErrorString", 0, 6000, 12345);
	dump_plain("nccl", nccl, "ncclGetErrorString", 0, 20, 12345);
	dump_plain("nvrtc", nvrtc, "nvrtcGetErrorString", 0, 20, 12345);
	dump_plain("hip", hip, "hipGetErrorString", 0, 1100, 12345);
	dump_out("hsa", hsa, "hsa_status_string", 0, 0x3000);
	return 0;
}
