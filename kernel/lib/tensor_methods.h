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
 *    dsl_tensor_props (x.shape). Both tables use the builtin row (builtins.h), so binding,
 *    help(), inspect and completion after "x." read them exactly as they read builtins; a
 *    method's tensor arrives in args->self.
 *
 * Engine statuses become exceptions named by mt_status_ename (ShapeError, IndexError, ...) with
 * the engine's message (mt_ctx_error); an interrupt (MT_ERR_CANCELLED) becomes
 * KeyboardInterrupt. The caller locates the error at the expression.
 *
 * Elements read back as floats are the shortest decimal that names the same float32
 * (render_float32_repr), so `tensor([0.1])[0]` is 0.1 and tolist() text round-trips. */
#ifndef KERNEL_LIB_TENSOR_METHODS_H
#define KERNEL_LIB_TENSOR_METHODS_H

#include "lang/lexer.h"
#include "lang/values.h"
#include "lib/builtins.h"

#include "minitorch/minitorch.h"

#include <stdbool.h>
#include <stddef.h>

struct dsl_interp;

/* Methods and properties of tensors, sorted by name. A property row has min = max = 0 and its
 * fn returns the value. */
extern const struct dsl_builtin dsl_tensor_methods[];
extern const size_t dsl_tensor_method_count;
extern const struct dsl_builtin dsl_tensor_props[];
extern const size_t dsl_tensor_prop_count;

/* The method or property called name (*is_prop tells which), or NULL. */
const struct dsl_builtin *dsl_tensor_attr_find(const char *name, bool *is_prop);

/* Appends help for a tensor value: the type's doc and every method and property. */
int dsl_tensor_help(struct render_buf *b);

/* Seeds the session's generator as Python's random.seed(v) does (abs of an integer); a TypeError
 * naming fn's parameter `what` for anything else. 0 or -1. */
int dsl_seed_value(struct dsl_interp *in, struct dsl_value v, const char *fn, const char *what);

/* Raises the exception an engine status stands for; returns -1. */
int dsl_engine_raise(struct dsl_interp *in, enum mt_status st);
/* The backend named by argument slot `slot` of builtin `fn` ("simple", "fast", "cuda"; checked
 * to be available), or the session's default when absent or none: 0, or -1 after raising. */
int dsl_backend_arg(struct dsl_interp *in, const struct dsl_args *a, int slot, const char *fn,
                    enum mt_backend *out);

/* The float a tensor element reads back as (see above). */
double dsl_float32_value(float f);

/* Operator `op` (DSL_T_PLUS, MINUS, STAR, SLASH, AT) where a or b (borrowed) is a tensor: 0 with
 * a new tensor in *out, or -1 after raising. */
int dsl_tensor_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                      struct dsl_value b, struct dsl_value *out);
/* Comparison `op` (DSL_T_LT, GT, EQ, NE, LE, GE) where a or b is a tensor. The other operand
 * must be a tensor or a number, except for == and != which compare anything else by identity
 * (false / true) as Python does. 0 with a new value in *out, or -1. */
int dsl_tensor_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                       struct dsl_value b, struct dsl_value *out);
/* Unary `op` (DSL_T_MINUS, DSL_T_PLUS) on tensor v. */
int dsl_tensor_unary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value v,
                     struct dsl_value *out);
/* abs(v) of tensor v: elementwise |x|. */
int dsl_tensor_abs(struct dsl_interp *in, struct dsl_value v, struct dsl_value *out);
/* Python truth of a tensor: its one element != 0; ValueError for other sizes. */
int dsl_tensor_truth(struct dsl_interp *in, struct dsl_value v, bool *out);

/* t[ix...]: every dim indexed (or one list holding the indices) gives a float. */
int dsl_tensor_getitem(struct dsl_interp *in, struct dsl_value t, const struct dsl_value *ix,
                       size_t n, struct dsl_value *out);
/* t[ix...] = v, v a number or a one-element tensor. */
int dsl_tensor_setitem(struct dsl_interp *in, struct dsl_value t, const struct dsl_value *ix,
                       size_t n, struct dsl_value v);
/* t.name: a property's value or a bound method; AttributeError (with a suggestion) otherwise. */
int dsl_tensor_getattr(struct dsl_interp *in, struct dsl_value t, const char *name,
                       struct dsl_value *out);
/* t.name = v: requires_grad (a bool) and grad (none only) are writable. */
int dsl_tensor_setattr(struct dsl_interp *in, struct dsl_value t, const char *name,
                       struct dsl_value v);

/* Builtins (rows in builtins.c). */
int dsl_bi_tensor(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_zeros(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_ones(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_rand(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_seed(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* compare() and timing() (compare.c). */
int dsl_bi_heatmap(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_compare(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_timing(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

#endif
