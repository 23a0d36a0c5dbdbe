/* student.h — the student backend: MiniTorch's TensorBackend(ops) for a class of ops of the
 * student's own (see student.c; internal to kernel/lib). */
#ifndef KERNEL_LIB_STUDENT_H
#define KERNEL_LIB_STUDENT_H

#include "lang/native.h"
#include "lang/values.h"

#include <stdbool.h>

struct dsl_interp;

/* TensorBackend(ops) for ops, a class deriving from minitorch.TensorOps (borrowed): makes it the
 * session's student backend and gives that backend's value in *ret. 0, or -1 after raising. */
int dsl_student_backend(struct dsl_interp *in, struct dsl_value ops, struct dsl_value *ret);

/* Whether row is one of the engine scalar functions the student backend hands to a class's map,
 * zip and reduce; *nargs 1 with its enum mt_map_op in *op, or 2 with its enum mt_zip_op. */
bool dsl_student_scalar(const struct dsl_builtin *row, int *nargs, int *op);

#endif
