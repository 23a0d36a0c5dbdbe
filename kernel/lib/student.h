/* student.h — the student backend: MiniTorch's TensorBackend(ops) for a class of ops of the
 * student's own (see student.c; internal to kernel/lib). */
#ifndef KERNEL_LIB_STUDENT_H
#define KERNEL_LIB_STUDENT_H

#include "lang/native.h"
#include "lang/values.h"

#include "minitorch/minitorch.h"

#include <stdbool.h>
#include <stdint.h>

struct dsl_interp;

/* TensorBackend(ops) for ops, a class deriving from minitorch.TensorOps (borrowed): makes it the
 * session's student backend and gives that backend's value in *ret. 0, or -1 after raising. */
int dsl_student_backend(struct dsl_interp *in, struct dsl_value ops, struct dsl_value *ret);

/* An engine op the student backend hands to the student's code (set in the session while that
 * code runs): njit kernels it calls keep a copy (dsl_student_op_keep) to be timed against the
 * built-in op on the same shapes and strides. */
struct dsl_student_op {
    enum { DSL_SOP_MAP, DSL_SOP_ZIP, DSL_SOP_REDUCE, DSL_SOP_MATMUL } kind;
    int op;        /* its enum mt_map_op, mt_zip_op or mt_reduce_op */
    int dim;       /* a reduce's */
    char what[32]; /* "map(relu)" */
    int nin;       /* inputs: 1 or 2 */
    int ndim[2];
    int64_t shape[2][MT_MAX_DIMS], strides[2][MT_MAX_DIMS];
};

/* The op the student's code is running for, if any, copied into *o. */
bool dsl_student_op_keep(const struct dsl_interp *in, struct dsl_student_op *o);

/* The built-in op of o on the fast backend, on zero-filled tensors of o's shapes and strides:
 * the median of 5 timed runs after one, in ns; -1 when it could not run (out of memory, an
 * interrupt), with nothing raised. */
double dsl_student_op_builtin_ns(struct mt_ctx *ctx, const struct dsl_student_op *o);

/* Whether row is one of the engine scalar functions the student backend hands to a class's map,
 * zip and reduce; *nargs 1 with its enum mt_map_op in *op, or 2 with its enum mt_zip_op. */
bool dsl_student_scalar(const struct dsl_builtin *row, int *nargs, int *op);

/* Before a check: the class's map, zip, reduce and matrix_multiply make the backend's functions
 * again at their next use, from the code as it is now (a kernel fixed since TensorBackend ran);
 * and where the session's variable of the class's name now holds another class of ops (its cell
 * run again), the backend takes that one, which *note (n bytes, "" otherwise) then says. */
void dsl_student_refresh(struct dsl_interp *in, char *note, size_t n);

/* The student backend as tables name it: "student (FastOps)", or for a class of CUDA kernels
 * (its `cuda` attribute true) "student (CudaOps, simulated)" or "(CudaOps, GPU)"; "student"
 * when it has no class yet. Into buf, returned. */
const char *dsl_student_label(struct dsl_interp *in, char *buf, size_t n);

#endif
