/* iterables.h — Python's builtins over iterables (lib/iterables.c), and the one rule that tells
 * them from MiniTorch's tensor forms of map, zip and reduce. */
#ifndef KERNEL_LIB_ITERABLES_H
#define KERNEL_LIB_ITERABLES_H

#include "lang/native.h"

struct dsl_interp;

/* map, zip and reduce: a call whose arguments are bound to a varargs row (the data in
 * args->rest, keywords in the row's slots) runs `tensor_row` (MiniTorch's tensor form, its
 * arguments bound again to that row) or `python` (Python's form) by the rule documented in
 * iterables.c. 0 with a new value in *ret, or -1. */
int dsl_iter_dispatch(struct dsl_interp *in, const struct dsl_args *a,
                      const struct dsl_builtin *tensor_row, dsl_builtin_fn python,
                      struct dsl_value *ret);

/* Python's forms: map(fn, *iterables), zip(*iterables), reduce(fn, iterable[, initial]). */
int dsl_py_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_py_zip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_py_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* enumerate(iterable, start=0), filter(fn, iterable), sorted(iterable, *, key=none,
 * reverse=false), reversed(seq), any(iterable), all(iterable), min/max(*args, key=none,
 * default=...). */
int dsl_bi_enumerate(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_filter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_sorted(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_reversed(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_any(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_all(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_min(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_max(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

#endif
