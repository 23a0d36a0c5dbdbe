/* datamodel.h — Python's special methods on instances of user classes, as the operators, truth,
 * indexing, iteration and `in` call them (internal to kernel/lang; the builtins the library
 * defines reach them through interp.h).
 *
 * Each follows CPython's rules: a special method is looked up on the class, never the instance
 * (classes.h: dsl_class_special); a binary operator tries a.__op__(b), then b.__rop__(a) (first,
 * when b's class derives from a's and overrides it), either answering NotImplemented to pass;
 * `a op= b` tries __iop__ first; a comparison tries the reflected one (__lt__ against __gt__)
 * and == falls back to identity; truth asks __bool__, then __len__; iteration asks __iter__ (and
 * __next__ of what it returns), else __getitem__ from 0 until IndexError; `in` asks
 * __contains__, else iterates. Errors are CPython's, word for word. */
#ifndef KERNEL_LANG_DATAMODEL_H
#define KERNEL_LANG_DATAMODEL_H

#include "lang/interp.h"
#include "lang/lexer.h"
#include "lang/native.h"

/* NotImplemented: a static value, which methods return to let the other operand answer. */
struct dsl_value dsl_not_implemented(void);
bool dsl_is_not_implemented(struct dsl_value v);

/* a op b (an arithmetic or bitwise operator: + - * / // % ** @ & | ^ << >>) where a or b is an
 * instance: 1 with a new value, 0 when no method answers (the caller raises the built-in
 * types' TypeError), -1 after raising. */
int dsl_instance_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                        struct dsl_value b, struct dsl_value *out);
/* a op= b (op the operator, DSL_T_PLUS ...) for an instance a: __iop__, else the binary; as
 * dsl_instance_binary returns. */
int dsl_instance_inplace(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                         struct dsl_value b, struct dsl_value *out);
/* -v, +v and ~v (op DSL_T_MINUS, DSL_T_PLUS, DSL_T_TILDE) of an instance: __neg__, __pos__,
 * __invert__. */
int dsl_instance_unary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value v,
                       struct dsl_value *out);
/* a op b (DSL_T_EQ, NE, LT, LE, GT, GE) where a or b is an instance, as a value (a method may
 * return anything: MiniTorch's Scalar.__lt__ returns a Scalar). 0 or -1. */
int dsl_instance_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                         struct dsl_value b, struct dsl_value *out);

/* v[key], v[key] = x, del v[key] of an instance (all borrowed): 0 (a new value) or -1. */
int dsl_instance_getitem(struct dsl_interp *in, struct dsl_value v, struct dsl_value key,
                         struct dsl_value *out);
int dsl_instance_setitem(struct dsl_interp *in, struct dsl_value v, struct dsl_value key,
                         struct dsl_value x);
int dsl_instance_delitem(struct dsl_interp *in, struct dsl_value v, struct dsl_value key);
/* item in v for an instance v: 0 with *res, or -1. */
int dsl_instance_contains(struct dsl_interp *in, struct dsl_value item, struct dsl_value v,
                          bool *res);
/* Whether an instance can be iterated (its class has __iter__ or __getitem__). */
bool dsl_instance_iterable(struct dsl_value v);
/* dsl_iter_init and dsl_iter_next's part for an instance (interp.h's struct dsl_iter). */
int dsl_instance_iter(struct dsl_interp *in, struct dsl_value v, struct dsl_iter *it);
int dsl_instance_next(struct dsl_interp *in, struct dsl_iter *it, struct dsl_value *out);

/* The generator a generator function's call or a generator expression gives: an iterator over
 * the list of its values (borrowed), which it holds, and what its body returned (borrowed; none
 * for nothing): the value of the StopIteration its end raises, once. 0 or -1. */
int dsl_generator_over(struct dsl_interp *in, struct dsl_value values, struct dsl_value returned,
                       struct dsl_value *out);

/* The builtins iter(x) (an instance's __iter__, or an iterator over a list, range, string,
 * dict...) and next(it[, default]) (its __next__; the default at StopIteration). */
int dsl_bi_iter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_next(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

#endif
