/* explain: a fix that speaks to the program at hand. The kb's fix for "no
 * code for this GPU" is written for the frameworks users meet it in
 * (PyTorch wheels, ollama): for any other program (gpu-burn built for
 * sm_80 on an H100, a HIP program built for another gfx) the fix is to
 * rebuild that program for this GPU, or to get a build that has it. */
#include <string.h>

#include "core/util.h"
#include "discover/vendor.h"
#include "doctor/explain.h"

/* The "no code for this GPU" family: the signatures, and the runtimes'
 * own error codes (a log that names only the code), whose failing code is
 * the program's own kernels. 'N' NVIDIA, 'A' AMD, '?' either (llama.cpp's
 * ROCm build says "CUDA error: invalid device function"). */
static const struct {
	const char *id;
	char vendor;
} no_code[] = {
    {"cuda-no-kernel-image", 'N'},
    {"hip-no-binary", 'A'},
    {"hip-shared-object-init", 'A'},
    {"hip-invalid-device-function", '?'},
    {"cudaErrorNoKernelImageForDevice", 'N'},
    {"cudaErrorInvalidKernelImage", 'N'},
    {"cudaErrorInvalidDeviceFunction", 'N'},
    {"cudaErrorSharedObjectInitFailed", 'N'},
    {"CUDA_ERROR_NO_BINARY_FOR_GPU", 'N'},
    {"CUDA_ERROR_INVALID_IMAGE", 'N'},
    {"CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", 'N'},
    {"hipErrorNoBinaryForGpu", 'A'},
    {"hipErrorInvalidDeviceFunction", 'A'},
    {"hipErrorSharedObjectInitFailed", 'A'},
    {"hipErrorInvalidImage", 'A'},
};

static char no_code_vendor(const char *id)
{
	for (size_t i = 0; i < sizeof no_code / sizeof *no_code; i++)
		if (!strcmp(id, no_code[i].id))
			return no_code[i].vendor;
	return 0;
}

/* In the first or last 256 KiB: where a traceback or a banner is. */
static int has(const char *b, size_t n, const char *w)
{
	const size_t win = 256u * 1024;

	if (n <= 2 * win)
		return memmem(b, n, w, strlen(w)) != NULL;
	return memmem(b, win, w, strlen(w)) ||
	       memmem(b + n - win, win, w, strlen(w));
}

/* The frameworks whose own builds the kb's advice is about. */
static const char *const marks[] = {
    "torch", "Torch",	"tensorflow",	"TensorFlow",  "jax",	      "ollama",
    "llama", "ggml",	"ctranslate2",	"CTranslate2", "onnxruntime", "vllm",
    "comfy", "ComfyUI", "transformers", "diffusers"};

static int names_framework(const char *log, size_t len)
{
	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
		if (has(log, len, marks[i]))
			return 1;
	return 0;
}

static const struct gd_gpu *first_of(const struct gd_machine *m,
				     enum gd_vendor v)
{
	for (size_t i = 0; m && i < m->n_gpus; i++)
		if (m->gpus[i].vendor == v)
			return &m->gpus[i];
	return NULL;
}

static void nvidia_fix(const char *prog, const char *t, const char *why,
		       char *out, size_t cap)
{
	const char *cc = t && !strncmp(t, "sm_", 3) ? t + 3 : NULL;

	if (cc)
		gd_fmt(out, cap,
		       "%s has no code for this GPU (%s)%s: rebuild it for %s "
		       "(nvcc -gencode arch=compute_%s,code=sm_%s, or "
		       "CMAKE_CUDA_ARCHITECTURES=%s; add code=compute_%s so "
		       "newer GPUs can JIT its PTX), or get a build that "
		       "includes %s; 'gpudoctor scan' on the binary lists the "
		       "architectures it carries.",
		       prog, t, why, t, cc, cc, cc, cc, t);
	else
		gd_fmt(out, cap,
		       "%s has no code for this GPU's compute capability%s: "
		       "rebuild it with -gencode for that sm_XY (or "
		       "CMAKE_CUDA_ARCHITECTURES), or get a build that "
		       "includes it; 'gpudoctor scan' on the binary lists the "
		       "architectures it carries.",
		       prog, why);
}

static void amd_fix(const char *prog, const char *t, const char *why, char *out,
		    size_t cap)
{
	if (t && !strncmp(t, "gfx", 3))
		gd_fmt(out, cap,
		       "%s has no code for this GPU (%s)%s: rebuild it with "
		       "--offload-arch=%s (hipcc) or GPU_TARGETS=%s (CMake), "
		       "or get a build that includes %s; 'gpudoctor scan' on "
		       "the binary lists the targets it carries.",
		       prog, t, why, t, t, t);
	else
		gd_fmt(out, cap,
		       "%s has no code for this GPU's gfx target%s: rebuild it "
		       "with --offload-arch for that target, or get a build "
		       "that includes it; 'gpudoctor scan' on the binary lists "
		       "the targets it carries.",
		       prog, why);
}

/* An interpreter runs GPU code that is not its own (a Python package's
 * extension): the fix is not to rebuild python3. */
static int interpreter(const char *p)
{
	static const char *const names[] = {
	    "python", "pypy", "java", "node", "ruby", "perl", "Rscript",
	    "julia",  "sh",   "bash", "dash", "zsh",  "env",  "uv"};

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		size_t n = strlen(names[i]);

		/* python, python3, python3.12 */
		if (!strncmp(p, names[i], n) &&
		    (!p[n] || strspn(p + n, "0123456789.") == strlen(p + n)))
			return 1;
	}
	return 0;
}

/* Which vendor's fix: 'A' AMD, 'N' NVIDIA; '?' by the log's own words,
 * then by the GPUs here. */
static int amd_side(char v, const char *log, size_t len,
		    const struct gd_machine *m)
{
	if (v != '?')
		return v == 'A';
	if (has(log, len, "HIP error") || has(log, len, "hipError") ||
	    has(log, len, "ROCm error"))
		return 1;
	if (first_of(m, GD_VENDOR_NVIDIA))
		return 0;
	if (first_of(m, GD_VENDOR_AMD))
		return 1;
	return !has(log, len, "CUDA error") && !has(log, len, "cudaError");
}

int gd_explain_program_fix(const char *sig_id, const char *log, size_t len,
			   const char *program, const struct gd_machine *m,
			   char *out, size_t cap)
{
	char v = no_code_vendor(sig_id);
	int amd;
	const struct gd_gpu *g;
	const char *t;
	char prog[200];

	out[0] = '\0';
	if (!v || names_framework(log, len) ||
	    (program && names_framework(program, strlen(program))))
		return 0;
	if (program && interpreter(program))
		program = NULL;
	amd = amd_side(v, log, len, m);
	g = first_of(m, amd ? GD_VENDOR_AMD : GD_VENDOR_NVIDIA);
	t = g ? gd_gpu_code_target(g) : NULL;
	gd_fmt(prog, sizeof prog, "%s%s%s", program ? "'" : "",
	       program ? program : "The program", program ? "'" : "");
	if (amd)
		amd_fix(prog, t && t[0] ? t : NULL,
			g ? "" : " (the GPU is not on this machine)", out, cap);
	else
		nvidia_fix(prog, t && t[0] ? t : NULL,
			   g ? "" : " (the GPU is not on this machine)", out,
			   cap);
	return 1;
}
