/* student.h — the student backend: MiniTorch's TensorBackend(ops) for a class of ops of the
 * student's own (see student.c; internal to kernel/lib). */
#ifndef KERNEL_LIB_STUDENT_H
#define KERNEL_LIB_STUDENT_H

#include "lang/values.h"

struct dsl_interp;

/* TensorBackend(ops) for ops, a class deriving from minitorch.TensorOps (borrowed): makes it the
 * session's student backend and gives that backend's value in *ret. 0, or -1 after raising. */
int dsl_student_backend(struct dsl_interp *in, struct dsl_value ops, struct dsl_value *ret);

#endif
