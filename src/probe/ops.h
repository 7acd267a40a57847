/* probe/ops: the one table of probe ops (clinfo's habit: one table drives
 * the child, `probe --only`, the text matrix, the JSON, `probe --help`
 * and docs/probe.md, which a unit test holds to it). Backends name ops
 * by these ids, never by string. */
#ifndef GD_PROBE_OPS_H
#define GD_PROBE_OPS_H

#include <stddef.h>
#include <stdint.h>

/* Table order is display order (rows of the text matrix). */
enum gd_op {
	GD_OP_INIT,
	GD_OP_ALLOC_DEVICE,
	GD_OP_ALLOC_PINNED,
	GD_OP_ALLOC_NONCOHERENT,
	GD_OP_ALLOC_EXT_FLAGS,
	GD_OP_COPY_H2D,
	GD_OP_COPY_D2H,
	GD_OP_COPY_H2D_ASYNC,
	GD_OP_KERNEL_VECTOR_ADD,
	GD_OP_GEMM_FP32,
	GD_OP_GEMM_FP16_EX_V1,
	GD_OP_GEMM_FP16,
	GD_OP_GEMM_BF16,
	GD_OP_GEMM_FP32_ROCBLAS,
	GD_OP_CONV_FWD,
	GD_OP_CONTEXT_CYCLE,
	GD_OP_BENCH,
	/* rows the parent adds, never begun by a backend */
	GD_OP_EXIT,
	GD_OP_RESTART,
	GD_OP_NOT_RUN,
	GD_OP_COUNT
};

/* Backends, as bits of gd_op_info.backends. */
enum {
	GD_OPB_CUDA = 1,
	GD_OPB_HIP = 2,
	GD_OPB_VULKAN = 4,
	GD_OPB_OPENCL = 8,
	GD_OPB_LEVEL_ZERO = 16,
	GD_OPB_ALL = 31,
};

/* A set of ops: bit (1 << id). 0 means "no selection" (all). */
typedef uint32_t gd_opset;
#define GD_OPSET(op) ((gd_opset)1 << (op))

struct gd_op_info {
	enum gd_op id;
	const char *name;  /* stable: JSON "op", --only, docs */
	const char *title; /* what is checked, one line */
	int quick;	   /* in the `--quick` set (what `check` runs) */
	int bench;	   /* runs only with --bench */
	int parent;	   /* a row the parent adds (exit, restart, ...) */
	unsigned backends; /* GD_OPB_*: which backends report it */
	gd_opset needs;	   /* ops whose work it builds on; --only adds them */
};

/* The whole table, GD_OP_COUNT entries, indexed by id. */
const struct gd_op_info *gd_ops(void);
const struct gd_op_info *gd_op(enum gd_op id);
const char *gd_op_name(enum gd_op id);
/* By name; -1 when unknown. */
int gd_op_find(const char *name);
/* "gemm_fp32,conv_fwd" -> set, with what those ops need and init added.
 * Returns 0, or -1 with the unknown (or parent-only) name in bad. */
int gd_op_parse_list(const char *list, gd_opset *out, char *bad, size_t cap);
/* The names a user may pass to --only, ", "-separated, for messages. */
void gd_op_names(char *buf, size_t cap, const char *sep);
/* The backend bit for "cuda", ...; 0 when not a table backend. */
unsigned gd_op_backend_bit(const char *backend);

#endif
