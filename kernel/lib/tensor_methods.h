/* tensor_methods.h — tensors in the language (internal to kernel/lib): builtins, operators,
 * methods.
 *
 * A tensor value wraps one reference to an engine tensor made with the session's `struct mt_ctx`
 * (interp.h). Everything the language does with tensors goes through here, so the evaluator only
 * asks "is either operand a tensor?" and hands over:
 *
 *  - operators `+ - * / @`, unary `-`, and `< > == != <= >=` (1.0/0.0 tensors), with numbers on
 *    either side becoming shape-(1,) tensors on the tensor's backend (MiniTorch's
 *    _ensure_tensor), so they broadcast;
 *  - `t[i, j]` (a float) and `t[i, j] = v`;
 *  - attributes: methods from dsl_tensor_methods (x.sum(0)) and properties from
 *    dsl_tensor_props (x.shape). Both tables use the builtin row (lang/native.h), so binding,
 *    help(), inspect and completion after "x." read them exactly as they read builtins; a
 *    method's tensor arrives in args->self.
 *
 * Engine statuses become exceptions named by mt_status_ename (ShapeError, IndexError, ...) with
 * the engine's message (mt_ctx_error); an interrupt (MT_ERR_CANCELLED) becomes
 * KeyboardInterrupt. The caller locates the error at the expression. The entry points the
 * evaluator calls (operators, indexing, attributes, the tables) are declared in lang/library.h.
 *
 * Elements read back as floats are the shortest decimal that names the same float32
 * (render_float32_repr), so `tensor([0.1])[0]` is 0.1 and tolist() text round-trips. */
#ifndef KERNEL_LIB_TENSOR_METHODS_H
#define KERNEL_LIB_TENSOR_METHODS_H

#include "lang/lexer.h"
#include "lang/library.h"
#include "lang/native.h"
#include "lang/values.h"

#include "minitorch/minitorch.h"

#include <stdbool.h>
#include <stddef.h>

struct dsl_interp;

/* Seeds the session's generator as Python's random.seed(v) does (abs of an integer); a TypeError
 * naming fn's parameter `what` for anything else. 0 or -1. */
int dsl_seed_value(struct dsl_interp *in, struct dsl_value v, const char *fn, const char *what);

/* Raises the exception an engine status stands for; returns -1. */
int dsl_engine_raise(struct dsl_interp *in, enum mt_status st);

/* A new tuple of the ints v[0..n) (a shape, strides) in *out: 0, or -1 after MemoryError. */
int dsl_int_tuple(struct dsl_interp *in, const int64_t *v, int n, struct dsl_value *out);
/* The backend named by argument slot `slot` of builtin `fn` ("simple", "fast", "cuda"; checked
 * to be available), or the session's default when absent or none: 0, or -1 after raising. */
int dsl_backend_arg(struct dsl_interp *in, const struct dsl_args *a, int slot, const char *fn,
                    enum mt_backend *out);

/* The float a tensor element reads back as (see above). */
double dsl_float32_value(float f);

/* abs(v) of tensor v: elementwise |x|. */
int dsl_tensor_abs(struct dsl_interp *in, struct dsl_value v, struct dsl_value *out);

/* minitorch.conv1d(input, weight), minitorch.conv2d(input, weight): the engine's convolutions
 * (mt_conv1d, mt_conv2d), rows of the minitorch module and of Conv1dFun and Conv2dFun. */
int dsl_bi_conv1d(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_conv2d(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* Builtins (rows in builtins.c). */
int dsl_bi_tensor(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_zeros(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_ones(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_rand(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_seed(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* heatmap() and line_chart(): charts of a tensor and of a program's numbers. */
int dsl_bi_heatmap(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_line_chart(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* compare() and timing() (compare.c). */
int dsl_bi_compare(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_timing(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

#endif
