/* explain: a fix that speaks to the program at hand. The kb's fix for "no
 * code for this GPU" is written for the frameworks users meet it in
 * (PyTorch wheels, ollama): for any other program (gpu-burn built for
 * sm_80 on an H100, a HIP program built for another gfx) the fix is to
 * rebuild that program for this GPU, or to get a build that has it. */
#include <string.h>

#include "core/util.h"
#include "discover/vendor.h"
#include "doctor/explain.h"

/* Signatures whose failing code is the program's own kernels. */
static int no_code_signature(const char *id)
{
	static const char *const ids[] = {"cuda-no-kernel-image",
					  "hip-no-binary",
					  "hip-invalid-device-function"};

	for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
		if (!strcmp(id, ids[i]))
			return 1;
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
static int names_framework(const char *log, size_t len)
{
	static const char *const marks[] = {
	    "torch",	   "Torch",	  "tensorflow",	  "TensorFlow",
	    "jax",	   "ollama",	  "llama",	  "ggml",
	    "ctranslate2", "CTranslate2", "onnxruntime",  "vllm",
	    "comfy",	   "ComfyUI",	  "transformers", "diffusers"};

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

int gd_explain_program_fix(const char *sig_id, const char *log, size_t len,
			   const char *program, const struct gd_machine *m,
			   char *out, size_t cap)
{
	int amd = strncmp(sig_id, "hip-", 4) == 0;
	const struct gd_gpu *g =
	    first_of(m, amd ? GD_VENDOR_AMD : GD_VENDOR_NVIDIA);
	const char *t = g ? gd_gpu_code_target(g) : NULL;
	char prog[200];

	out[0] = '\0';
	if (!no_code_signature(sig_id) || names_framework(log, len))
		return 0;
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
