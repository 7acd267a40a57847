/* binscan/: what is inside binaries. Readers are pure functions over
 * mapped bytes (ELF64, Windows PE32/PE32+, clang offload bundles incl.
 * compressed CCOB, AMDGPU code objects, NVIDIA fatbins, zip archives); every
 * read is bounds-checked through the gd_bs_rd* helpers below, never by pointer
 * arithmetic past the buffer. gd_bs_scan_path() drives them over user paths
 * (files, dirs, wheels); fit.c and ldresolve.c judge the result against a GPU
 * and the machine's loader. The library never prints. */
#ifndef GD_BINSCAN_H
#define GD_BINSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "../core/ctx.h"

/* ---- checked little-endian reads: 0 ok, -1 out of range ---- */
static inline int gd_bs_in(size_t n, uint64_t off, uint64_t len)
{
	return off <= n && len <= n - off;
}
int gd_bs_rd16(const uint8_t *b, size_t n, uint64_t off, uint16_t *v);
int gd_bs_rd32(const uint8_t *b, size_t n, uint64_t off, uint32_t *v);
int gd_bs_rd64(const uint8_t *b, size_t n, uint64_t off, uint64_t *v);
/* NUL-terminated string at off inside [0, n): *s points into b. */
int gd_bs_str(const uint8_t *b, size_t n, uint64_t off, const char **s);

/* ---- what a scan finds ---- */
enum gd_bs_kind { GD_BS_AMDGCN, GD_BS_SASS, GD_BS_PTX };
const char *gd_bs_kind_name(enum gd_bs_kind k); /* "amdgcn", "sass", "ptx" */

struct gd_bs_target {
	enum gd_bs_kind kind;
	char target[32]; /* "gfx1030", "gfx10-3-generic", "sm_90a", "compute_90"
			  */
	char features[32];   /* AMD target-id features: "xnack-",
				"sramecc+:xnack-" */
	char container[24];  /* "offload-bundle", "ccob-zstd", "code-object",
				"fatbin" */
	unsigned co_version; /* AMD code object version (2..6), 0 unknown */
	unsigned ptx_major, ptx_minor; /* PTX ISA of a PTX entry */
	int compressed; /* stored compressed (fatbin entry / CCOB) */
	unsigned count; /* code objects with this exact target */
};

struct gd_bs_symver {
	char lib[128]; /* verneed file: "libamdhip64.so.6" */
	char ver[64];  /* "ROCR_1", "hip_6.0" */
	char *sym;     /* owned: "hsa_amd_enable_logging", "" for a bare version
			  need */
};

struct gd_bs_dyn {
	char soname[128];
	char runpath[1024];
	char rpath[1024];
	GD_VEC(char *) needed;
	GD_VEC(struct gd_bs_symver) symvers; /* undefined versioned symbols */
	size_t n_symvers_total;		     /* before the cap */
	size_t
	    n_delay; /* PE: the last n_delay of needed are delay-load imports */
};

/* One needed library, resolved as ld.so would. */
struct gd_bs_need {
	char soname[128];
	int found;
	char path[1024]; /* where it was found */
	char how[24];	/* "RPATH", "LD_LIBRARY_PATH", "RUNPATH", "ld.so.cache",
			   "default", "archive" */
	char note[256]; /* "needs HIP 7, installed: libamdhip64.so.5 (...)" */
	unsigned missing_syms; /* versioned symbols the found library lacks */
	char missing_first[160];
};

enum gd_bs_fit {
	GD_FIT_NONE = 0, /* no GPU code in the file (host-only) */
	GD_FIT_YES,	 /* has code for the GPU */
	GD_FIT_PTX,	 /* only through PTX JIT */
	GD_FIT_NO,	 /* no code for the GPU */
	GD_FIT_NOGPU,	 /* no GPU to compare with */
};

struct gd_bs_file {
	char
	    path[1024]; /* "x.whl!torch/lib/libtorch_cuda.so" inside archives */
	char format[32]; /* "elf", "amdgpu-code-object", "cubin",
			    "offload-bundle", "ccob", "fatbin", "zip" */
	char error[256]; /* one line, "" when read fine */
	uint64_t size;
	uint16_t machine; /* ELF e_machine, 0 when not an ELF */
	GD_VEC(struct gd_bs_target) targets;
	int has_dyn;
	struct gd_bs_dyn dyn;
	/* filled by gd_bs_judge */
	GD_VEC(struct gd_bs_need) needs;
	enum gd_bs_fit fit;
	int runtime_ok; /* every needed library found with its symbols */
	char detail[384];
	uint16_t pe_machine; /* PE COFF Machine (0x8664 x64), 0 when not a PE */
};

typedef GD_VEC(struct gd_bs_file) gd_bs_files;

/* Add a target (merged with an equal one, count++); NULL when out of memory. */
struct gd_bs_target *gd_bs_add_target(struct gd_bs_file *f,
				      enum gd_bs_kind kind, const char *target,
				      const char *features,
				      const char *container);
void gd_bs_file_free(struct gd_bs_file *f);
void gd_bs_files_free(gd_bs_files *v);

/* ---- readers (each: bytes in, targets/facts out; -1 + err on bad input) ----
 */

/* ELF64 little-endian. */
struct gd_elf_shdr {
	uint32_t name, type;
	uint64_t flags, addr, offset, size;
	uint32_t link, info;
	uint64_t entsize;
};
struct gd_elf {
	const uint8_t *b;
	size_t n;
	uint16_t type, machine, shnum, shstrndx, phnum;
	uint32_t flags;
	uint8_t osabi, abiversion;
	uint64_t shoff, phoff;
};
#define GD_EM_CUDA 190
#define GD_EM_AMDGPU 224
int gd_elf_open(struct gd_elf *e, const uint8_t *b, size_t n, char *err,
		size_t errcap);
int gd_elf_shdr(const struct gd_elf *e, unsigned i, struct gd_elf_shdr *s);
const char *gd_elf_shname(const struct gd_elf *e, const struct gd_elf_shdr *s);
int gd_elf_find(const struct gd_elf *e, const char *name,
		struct gd_elf_shdr *s);
/* Section contents inside the buffer (NOBITS: none). */
int gd_elf_bytes(const struct gd_elf *e, const struct gd_elf_shdr *s,
		 const uint8_t **p, size_t *len);
/* Dynamic facts: DT_NEEDED, DT_SONAME, DT_RUNPATH/RPATH, verneed symbols
 * (at most max_symvers kept). Returns 0 when the file has a dynamic section,
 * 1 when it has none, -1 on malformed data. */
int gd_elf_dynamic(const struct gd_elf *e, struct gd_bs_dyn *d,
		   size_t max_symvers, char *err, size_t errcap);
void gd_bs_dyn_free(struct gd_bs_dyn *d);
/* GNU symbol versioning, pointers into the file's bytes. verneed: the
 * versions the file needs, with the file each comes from (at most cap);
 * verdef: the versions the file defines, the base entry (its own name)
 * left out. Each returns how many it wrote; 0 when the section is absent
 * or malformed from the start. */
struct gd_elf_vn {
	uint16_t idx;
	const char *file, *ver;
};
size_t gd_elf_verneed(const struct gd_elf *e, struct gd_elf_vn *out,
		      size_t cap);
size_t gd_elf_verdef(const struct gd_elf *e, const char **names, size_t cap);
/* Mark which needs (sorted by sym, then ver) the library defines: found[i]
 * set to 1. A need with sym "" asks for the version alone (verdef).
 * Returns -1 when the library has no symbol version info. */
int gd_elf_mark_defined(const struct gd_elf *e,
			const struct gd_bs_symver *const *need, size_t n,
			unsigned char *found);

/* AMDGPU code object: target name and target-id features from e_flags. */
int gd_amdgpu_co_target(const uint8_t *b, size_t n, char *gfx, size_t gcap,
			char *features, size_t fcap, unsigned *co_version);
const char *gd_amdgpu_mach_name(unsigned mach);

/* Clang offload bundle (uncompressed, "__CLANG_OFFLOAD_BUNDLE__") or
 * compressed ("CCOB" v1..v3, zlib/zstd) at the start of b. *used gets the
 * bytes it spans (0 when unknown). Adds amdgcn/nvptx device entries. */
int gd_offload_bundle_scan(const uint8_t *b, size_t n, struct gd_bs_file *f,
			   uint64_t *used, char *err, size_t errcap);
/* Walk a section (.hip_fatbin) holding several bundles back to back. */
int gd_offload_bundles_scan(const uint8_t *b, size_t n, struct gd_bs_file *f,
			    char *err, size_t errcap);

/* NVIDIA fatbin containers (0xBA55ED50) back to back in b; the _fd form
 * reads the n bytes at off of a file with pread (headers only). */
int gd_nvfatbin_scan(const uint8_t *b, size_t n, struct gd_bs_file *f,
		     char *err, size_t errcap);
int gd_nvfatbin_scan_fd(int fd, uint64_t off, uint64_t n, struct gd_bs_file *f,
			char *err, size_t errcap);

/* Zip: call fn for each member whose bytes could be read (stored in place,
 * or inflated under the caps). fn returns <0 to stop. An archive whose
 * members overlap or repeat (the "better zip bomb": many central-directory
 * entries over one local header) is refused as a whole; inflated bytes are
 * capped per member (max_member) and per archive (gd_zip_total_cap). */
struct gd_zip_member {
	const char *name;
	const uint8_t *data;
	size_t len;
	int inflated; /* data is a temporary buffer */
};
/* Every member name of the archive, indexed so that a lookup costs
 * log(n): an archive of 100,000 members whose libraries each name 20
 * others must not cost 100,000^2 string compares. */
struct gd_zip_names {
	const char **v;	   /* sorted by strcmp */
	const char **base; /* sorted by basename, case-insensitively */
	size_t n;
};
int gd_zip_names_init(struct gd_zip_names *ix, const char *const *names,
		      size_t n);
void gd_zip_names_free(struct gd_zip_names *ix);
int gd_zip_names_has(const struct gd_zip_names *ix, const char *name);
/* How many names have basename `base` (case-insensitively); they are
 * ix->base[*first ...]. */
size_t gd_zip_names_base(const struct gd_zip_names *ix, const char *base,
			 size_t *first);
typedef int (*gd_zip_fn)(void *arg, const struct gd_zip_member *m,
			 const struct gd_zip_names *names,
			 const char *skip_why);
#define GD_ZIP_MAX_MEMBER (1024ull * 1024 * 1024) /* inflated size cap */
#define GD_ZIP_MAX_RATIO 1032u /* deflate cannot exceed ~1032:1 */
#define GD_ZIP_MAX_ENTRIES 200000u
#define GD_ZIP_MAX_TOTAL                                                       \
	(32ull << 30)	       /* inflated bytes per archive, at most          \
				*/
#define GD_ZIP_TOTAL_RATIO 64u /* ... and at most 64 x the archive's size */
/* Inflated bytes one archive of n bytes may produce in all: 64 x its size
 * (shared libraries deflate 3-5:1, code objects ~10:1), never less than
 * one member's cap nor more than GD_ZIP_MAX_TOTAL. */
uint64_t gd_zip_total_cap(size_t n, uint64_t max_member);
int gd_zip_walk(const uint8_t *b, size_t n, uint64_t max_member,
		int (*want)(const char *name), gd_zip_fn fn, void *arg,
		char *err, size_t errcap);

/* Inflate with an output cap (zlib/raw deflate); CCOB prefix decoders. */
#define GD_BS_MAX_DECOMP (256ull * 1024 * 1024)

/* ---- driver ---- */
struct gd_bs_opts {
	size_t max_files; /* directory walk cap */
	unsigned max_depth;
	uint64_t max_member; /* zip member inflate cap */
};
#define GD_BS_OPTS_DEFAULT                                                     \
	{                                                                      \
		100000, 32, GD_ZIP_MAX_MEMBER                                  \
	}

/* Scan one user path (file, directory, archive), appending one entry per
 * binary. A path that cannot be read becomes an entry with error set.
 * explicit_path: the user named it (a non-binary is then an error; inside
 * a directory it is skipped). */
int gd_bs_scan_path(gd_ctx *ctx, const char *path, const struct gd_bs_opts *o,
		    gd_bs_files *out);
/* One file: explicit_path as above. */
int gd_bs_scan_file(const char *path, int explicit_path,
		    const struct gd_bs_opts *o, gd_bs_files *out);
/* One open regular file (fd stays the caller's), named path in the
 * entries; size is what the caller's fstat said. The file is mapped; when
 * it shrinks while being read (SIGBUS on a page past its new end) the
 * entry says "file changed while being read" instead of the process dying.
 * A size of 0 (procfs, sysfs) is read, not believed. */
int gd_bs_scan_fd(const char *path, int fd, uint64_t size,
		  const struct gd_bs_opts *o, gd_bs_files *out);
/* Internal (scan.c): the bytes of one mapped file, zip or not. */
int gd_bs_scan_mapped(const char *path, const uint8_t *b, size_t n, int fd,
		      const struct gd_bs_opts *o, gd_bs_files *out);
/* Internal (scan_guard_posix.c / scan_guard_win32.c): gd_bs_scan_mapped
 * on a map of fd, or GD_BS_MAP_FAULT when the map faulted under it (the
 * file shrank: SIGBUS on POSIX; Windows refuses to truncate a mapped file). */
#define GD_BS_MAP_FAULT (-2)
int gd_bs_scan_guarded(const char *path, const uint8_t *b, size_t n, int fd,
		       const struct gd_bs_opts *o, gd_bs_files *out);
/* Scan bytes already in memory (fuzzing, tests, zip members). fd >= 0:
 * the same bytes as an open file, for pread walks of large sections. */
int gd_bs_scan_bytes(const uint8_t *b, size_t n, struct gd_bs_file *f);
int gd_bs_scan_bytes_fd(const uint8_t *b, size_t n, int fd,
			struct gd_bs_file *f);

/* ---- judgement ---- */
struct gd_bs_gpu {
	char name[48];		     /* "gfx1010" / "sm_90" as given */
	int amd;		     /* else NVIDIA */
	char gfx[24];		     /* "gfx90a" */
	int xnack, sramecc;	     /* -1 unknown/any, 0 off, 1 on */
	unsigned sm_major, sm_minor; /* 9, 0 */
	unsigned ptx_max_major,
	    ptx_max_minor; /* driver's PTX JIT ceiling, 0 unknown */
};
/* "gfx1010 gfx90a:xnack-" (targets joined by sep, with their features). */
void gd_bs_targets_str(const struct gd_bs_target *t, size_t n, const char *sep,
		       char *out, size_t cap);
/* "gfx1030", "gfx90a:xnack+", "sm_90", "sm_86", "90" -> gpu; -1 on junk. */
int gd_bs_gpu_parse(const char *s, struct gd_bs_gpu *g);
/* PTX ISA the driver of a given version (e.g. "580.95.05") can JIT. */
int gd_bs_ptx_ceiling(const char *driver_version, unsigned *major,
		      unsigned *minor);

/* Does one target run on the GPU? GD_FIT_YES / GD_FIT_PTX / GD_FIT_NO,
 * why explains a near miss. */
enum gd_bs_fit gd_bs_target_fits(const struct gd_bs_target *t,
				 const struct gd_bs_gpu *g, char *why,
				 size_t cap);
/* What judging needs besides the file: the GPUs and the loader cache
 * (read once through ctx->fs, "/etc/ld.so.cache"). */
struct gd_bs_env {
	const struct gd_bs_gpu *gpus;
	size_t n_gpus;
	char *ldcache; /* the raw cache file, NULL when absent */
	size_t ldcache_len;
	size_t ldcache_hdr; /* offset of the "glibc-ld.so.cache1.1" header */
	unsigned ldcache_n;
	/* PE: directories searched for imported DLLs after the file's own
	 * (scan --dll-path); set after gd_bs_env_init, not owned. */
	const char *const *dll_dirs;
	size_t n_dll_dirs;
	/* ELF: the files judged are the machine's own (under ctx->fs), so
	 * $ORIGIN expands to a path under the root too (ldclosure.c) */
	int in_root;
	/* ELF: DT_RPATH of the objects that loaded this one (ld.so searches
	 * the loader chain's RPATHs when the object has no RUNPATH); set per
	 * call by ldclosure.c, not owned */
	const char *rpath_extra;
	/* ELF: sonames the root library dlopens at run time (kb data), each
	 * resolved as its dlopen would be and followed like a DT_NEEDED;
	 * NULL-terminated, not owned */
	const char *const *root_dlopens;
};
void gd_bs_env_init(gd_ctx *ctx, struct gd_bs_env *env,
		    const struct gd_bs_gpu *gpus, size_t n);
void gd_bs_env_free(struct gd_bs_env *env);
/* Use buf (malloc'd, taken over) as the raw /etc/ld.so.cache; a buffer
 * without the "glibc-ld.so.cache1.1" header is dropped. */
void gd_bs_env_set_ldcache(struct gd_bs_env *env, char *buf, size_t len);

/* Fit against the GPUs and resolve the runtime needs; fills f->needs,
 * f->fit, f->runtime_ok, f->detail. */
void gd_bs_judge(gd_ctx *ctx, const struct gd_bs_env *env,
		 struct gd_bs_file *f);
/* 1 when the file fits (GPU code or none, runtime found), else 0. */
int gd_bs_file_ok(const struct gd_bs_file *f);

/* Resolve one soname as ld.so would for file f (DT_RPATH unless RUNPATH,
 * LD_LIBRARY_PATH, DT_RUNPATH, ld.so.cache, default dirs). */
void gd_ldresolve(gd_ctx *ctx, const struct gd_bs_env *env,
		  const struct gd_bs_file *f, const char *soname,
		  struct gd_bs_need *need);
/* Versioned symbol needs of f that none of its found libraries meets, and
 * version needs its verneed file lacks: counted on that need
 * (missing_syms, missing_first). Call after every need is resolved. */
void gd_ldcheck_symbols(gd_ctx *ctx, struct gd_bs_file *f);

/* ---- the whole DT_NEEDED closure of a machine's library (ldclosure.c) ----
 * What ld.so would do loading path: every DT_NEEDED, breadth first, each
 * resolved by gd_ldresolve (with the loader chain's DT_RPATHs), then every
 * DT_VERNEED entry checked against the DT_VERDEF of the library it names
 * (glibc's _dl_check_map_versions). The first problem is kept, as ld.so
 * stops at it: a missing library before a wrong one before a version. */
enum gd_ld_status {
	GD_LD_OK = 0,
	GD_LD_UNKNOWN,	     /* not judged: empty (a capture's stub) or
				unreadable file */
	GD_LD_MISSING,	     /* a needed library is nowhere */
	GD_LD_WRONG_CLASS,   /* only a 32-bit (or 64-bit) file of the name */
	GD_LD_WRONG_MACHINE, /* only a file for another CPU */
	GD_LD_VERSION,	     /* a needed symbol version is not defined */
	GD_LD_BAD_ELF,	     /* not a loadable ELF at all */
};
/* "ok", "unknown", "missing", "wrong_class", "wrong_machine", "version",
 * "bad_elf" */
const char *gd_ld_status_name(enum gd_ld_status s);

#define GD_LD_MAX_DEPTH 24    /* levels of DT_NEEDED followed */
#define GD_LD_MAX_OBJECTS 400 /* objects read per closure */

struct gd_ld_result {
	enum gd_ld_status status;
	char chain[768];     /* "libGLX_nvidia.so.0 -> libGLdispatch.so.0" */
	char soname[128];    /* the library at fault (missing, wrong, or the
				one lacking the version) */
	char needed_by[512]; /* the object that needs it */
	char path[512];	     /* the file found ("" when missing) */
	char version[64];    /* GD_LD_VERSION: the version needed */
	char provides[64];   /* ... the highest of its family defined, "" */
	char how[24];	     /* how path was found: "LD_LIBRARY_PATH",
				"RUNPATH", "ld.so.cache", "default", ... */
	char detail[256];    /* "32-bit (ELFCLASS32), i386", why unknown, or
				"installed instead: ..." */
	unsigned objects;    /* objects read */
	int truncated;	     /* a bound was reached: the rest not judged */
};

/* path: a library on the machine (under ctx->fs). env from gd_bs_env_init
 * with in_root set. Never fails: out->status says what was found. */
void gd_ld_closure(gd_ctx *ctx, const struct gd_bs_env *env, const char *path,
		   struct gd_ld_result *out);
/* Same, appending the path of every object read to files (for gather,
 * which stores them, and for tests that copy a closure). */
void gd_ld_closure_files(gd_ctx *ctx, const struct gd_bs_env *env,
			 const char *path, struct gd_ld_result *out,
			 gd_strvec *files);
/* For gather: the ELF stub of a library of the machine (under ctx->fs):
 * a valid ELF64 with only what gd_ld_closure reads (header fields,
 * DT_NEEDED, DT_SONAME, DT_RUNPATH/RPATH, version needs and definitions),
 * or the first 64 bytes of a file that is no 64-bit ELF. *buf malloc'ed
 * (NULL and 0 for an empty file). 0, or -errno / -1. */
int gd_elf_stub(gd_ctx *ctx, const char *path, char **buf, size_t *len);
/* Highest version in defs[0..n) of need's family ("GLIBCXX_3.4.30" ->
 * the greatest "GLIBCXX_x.y.z"), or NULL. */
const char *gd_ld_family_max(const char *need, const char *const *defs,
			     size_t n);

/* ---- PE32 / PE32+ (Windows .dll, .pyd, .exe): pe.c, dllresolve.c ---- */
#define GD_PE_DIR_EXPORT 0
#define GD_PE_DIR_IMPORT 1
#define GD_PE_DIR_RESOURCE 2
#define GD_PE_DIR_DELAY_IMPORT 13
#define GD_PE_MAX_IMPORTS 4096u /* descriptors read before giving up */
#define GD_PE_MACHINE_AMD64 0x8664
#define GD_PE_MACHINE_I386 0x14c
#define GD_PE_MACHINE_ARM64 0xaa64
struct gd_pe_sect {
	char name[64]; /* "/4" names resolved through the COFF string table */
	uint32_t vsize, va, rawsize, rawoff, flags;
};
struct gd_pe {
	const uint8_t *b;
	size_t n;
	uint64_t pe_off;     /* "PE\0\0" */
	uint64_t sect_off;   /* section table */
	uint64_t dir_off;    /* data directories */
	uint64_t strtab_off; /* COFF string table, strtab_len 0 when none */
	uint64_t image_base;
	uint32_t size_of_headers, n_dirs, strtab_len;
	uint16_t machine, nsect, opt_size,
	    magic; /* magic 0x10b PE32, 0x20b PE32+ */
};
int gd_pe_open(struct gd_pe *p, const uint8_t *b, size_t n, char *err,
	       size_t errcap);
int gd_pe_section(const struct gd_pe *p, unsigned i, struct gd_pe_sect *s);
int gd_pe_find(const struct gd_pe *p, const char *name, struct gd_pe_sect *s);
/* The section's bytes in the file (VirtualSize when smaller than the raw,
 * FileAlignment-padded size); -1 when outside the file or empty. */
int gd_pe_sect_bytes(const struct gd_pe *p, const struct gd_pe_sect *s,
		     const uint8_t **d, size_t *len);
int gd_pe_dir(const struct gd_pe *p, unsigned i, uint32_t *rva, uint32_t *size);
/* File offset of an RVA and the bytes of its section from there on. */
int gd_pe_rva(const struct gd_pe *p, uint64_t rva, uint64_t *off,
	      uint64_t *avail);
/* Imported DLL names (import directory, then delay-load directory; case-
 * insensitively unique) into d->needed, d->n_delay; the export directory's
 * DLL name into d->soname. 0 ok, -1 + err on malformed tables. */
int gd_pe_imports(const struct gd_pe *p, struct gd_bs_dyn *d, char *err,
		  size_t errcap);
/* The whole PE file: format "pe", imports, and the GPU code in .hip_fat /
 * .hip_fatbin (offload bundles) and .nv_fatb / .nv_fatbin (fatbins). fd as
 * for gd_bs_scan_bytes_fd. */
int gd_pe_scan(const uint8_t *b, size_t n, int fd, struct gd_bs_file *f);
const char *gd_pe_machine_name(uint16_t machine); /* "x86-64", "i386", ... */
static inline int gd_bs_is_pe(const struct gd_bs_file *f)
{
	return f->pe_machine != 0;
}

/* A DLL every Windows has (KERNEL32.dll, api-ms-win-*, ucrtbase, ...),
 * case-insensitive: 1 yes. */
int gd_dll_is_system(const char *name);
/* Resolve one imported DLL of PE file f: its own directory, env->dll_dirs,
 * then the system list; a missing HIP/CUDA DLL gets a note naming the other
 * version found ("needs amdhip64_7.dll; found amdhip64_6.dll in DIR ..."). */
void gd_dllresolve(gd_ctx *ctx, const struct gd_bs_env *env,
		   const struct gd_bs_file *f, const char *dll, int delay,
		   struct gd_bs_need *need);
/* Imports of a PE archive member met by other members (same directory, or
 * a top-level "*.libs/" directory as delvewheel writes): added to f->needs
 * with how "archive". */
void gd_dll_archive_needs(struct gd_bs_file *f, const char *member,
			  const struct gd_zip_names *names);

#endif
