/* ndarray.h — numpy's array, as a style of list (internal to the language and its numpy).
 *
 * An ndarray is a list of style DSL_LIST_NDARRAY with a dtype (values.h): its items are ints
 * (int32, int64), floats (float32, float64) or bools (bool), each within its dtype, since every
 * store casts as numpy casts (a float stored into an int32 array truncates; an int out of its range
 * is numpy's OverflowError). An n-dimensional array is an ndarray of ndarrays, one a row, all of
 * one dtype and one length per level: a[i] of a 2-d array is its row itself, which writes go
 * through to. So everything that takes a list (len, a[i], iteration, tuple(a), the compiler's
 * int arrays) takes an ndarray, while its type is numpy.ndarray, its repr numpy's, list
 * methods are not its methods, and .shape, .size, .dtype, .ndim, reshape, tolist... are.
 *
 * Arithmetic (+ - * / // % **, unary - and +, ~ of ints and bools) and comparisons are
 * elementwise, as numpy's, with numpy's broadcasting and numpy 2's result dtypes (a Python int
 * or float takes the array's dtype where it can: int32 + 1 is int32, float32 * 0.5 float32, an
 * int array / anything float64); a op= b writes into a, as numpy's does.
 *
 * What it is not: a[i] is a Python int or float (numpy's scalars print as np.float64(1.0)); a
 * slice, a[:, j], a[i, :], reshape and copy make new arrays (numpy's slices and reshapes are
 * views); dividing by zero gives numpy's inf, nan or 0 without its RuntimeWarning; bitwise
 * operators and @ are refused; inside lists (`in`, list ==) arrays compare as wholes. */
#ifndef KERNEL_LANG_NDARRAY_H
#define KERNEL_LANG_NDARRAY_H

#include "lang/interp.h"
#include "lang/lexer.h"
#include "lang/native.h"
#include "render/render.h"

/* What help() says of an array and of numpy.ndarray. */
#define DSL_NDARRAY_DOC                                                                            \
    "numpy.ndarray: numpy's array of numbers (int32, int64, float32 or float64), of one or more "  \
    "dimensions; make one with numpy.array or numpy.zeros. a[i], a[i] = x (cast to the dtype), "   \
    "a[:] = x, a[i, j], a[:, j], len, iteration; elementwise + - * / // % ** and comparisons, "    \
    "broadcast as numpy's; a.shape, a.size, a.ndim, a.dtype; methods reshape, tolist, copy, "      \
    "fill, astype, flatten."

/* Its methods, and the names of its other attributes (for dir). */
extern const struct dsl_builtin dsl_ndarray_methods[];
extern const size_t dsl_ndarray_method_count;
extern const char *const dsl_ndarray_attrs[];

/* The most dimensions an array has here (numpy's is 64). */
#define DSL_ND_MAX_DIMS 32

/* "int32", "int64", "float32", "float64"; "" for DSL_DT_NONE. Static. */
const char *dsl_dtype_name(enum dsl_dtype dt);
/* The dtype of that name, or DSL_DT_NONE. */
enum dsl_dtype dsl_dtype_named(const char *name);

/* The dtype value d names (numpy's dtypes are their names here; int, float and bool stand for
 * int64, float64 and bool): DSL_DT_NONE after raising TypeError. */
enum dsl_dtype dsl_dtype_of(struct dsl_interp *in, struct dsl_value d);

/* A Python number v as an element of dtype dt holds it (numpy's casts and errors): 0 with
 * *out, or -1 after raising. */
int dsl_ndarray_cast(struct dsl_interp *in, enum dsl_dtype dt, struct dsl_value v,
                     struct dsl_value *out);

/* An int that compiled code wrote into an int array, as dtype dt holds it: int32 keeps the
 * low 32 bits, as a store into numpy's int32 memory does. */
struct dsl_value dsl_ndarray_int(enum dsl_dtype dt, int64_t v);

/* The shape of ndarray v into shape[DSL_ND_MAX_DIMS]; returns its number of dimensions. */
int dsl_ndarray_shape(struct dsl_value v, int64_t *shape);

/* A new array of zeros of dtype dt and the given shape (each >= 0): 0 or -1 after raising. */
int dsl_ndarray_zeros(struct dsl_interp *in, enum dsl_dtype dt, const int64_t *shape, int ndim,
                      struct dsl_value *out);

/* numpy.array(src, dtype=dt): a new array of src's numbers (a number, or lists, tuples and
 * arrays of them, nested evenly), cast to dt, or for DSL_DT_NONE to int64 when all are ints and
 * float64 otherwise. 0 or -1 after raising. */
int dsl_ndarray_from(struct dsl_interp *in, struct dsl_value src, enum dsl_dtype dt,
                     struct dsl_value *out);

/* a[i] = v (i already in range): the cast number, or for a row of an n-d array v broadcast
 * into it. 0 or -1 after raising. */
int dsl_ndarray_setitem(struct dsl_interp *in, struct dsl_list *a, int64_t i, struct dsl_value v);

/* a[start:...:step] = v over count slots: a number fills them, a sequence of count items (or
 * one) is stored item by item, as numpy broadcasts. 0 or -1 after raising. */
int dsl_ndarray_setslice(struct dsl_interp *in, struct dsl_list *a, int64_t start, int64_t step,
                         int64_t count, struct dsl_value v);

/* a op b for a comparison op (== != < <= > >=) with an ndarray on either side: numpy's
 * elementwise bool array (the other side an array, a list or a number, broadcast as numpy
 * broadcasts). 0 or -1 after raising. */
int dsl_ndarray_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                        struct dsl_value b, struct dsl_value *out);

/* a op b for an arithmetic op (+ - * / // % **) with an ndarray on either side: a new array,
 * elementwise, broadcast, of numpy's result dtype (see the header comment); numpy's
 * NotImplementedError for other operators. 0 or -1 after raising. */
int dsl_ndarray_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                       struct dsl_value b, struct dsl_value *out);

/* a op= b for ndarray a: a op b written into a itself (numpy's in-place ufunc), a retained in
 * *out; numpy's errors for a result of another shape or of a higher kind (a float result into an
 * int array). 0 or -1 after raising. */
int dsl_ndarray_inplace(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                        struct dsl_value b, struct dsl_value *out);

/* op v for ndarray v, op - + or ~: a new array; numpy's TypeErrors for -v of bools, +v of
 * bools and ~v of floats. 0 or -1 after raising. */
int dsl_ndarray_unary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value v,
                      struct dsl_value *out);

/* a[ix[0], ..., ix[n-1]] where some of the indices are slices (slice[k]: ix[k] is then the
 * tuple of its three bounds, none where omitted): a new array (a copy; numpy's is a view) of
 * the elements the ints and slices pick, with one dimension per slice and per dimension past
 * n. 0 or -1 after numpy's IndexError. */
int dsl_ndarray_select(struct dsl_interp *in, struct dsl_value a, const struct dsl_value *ix,
                       const bool *slice, size_t n, struct dsl_value *out);

/* The truth of ndarray v: its one element's; numpy's ValueError for more or none. */
int dsl_ndarray_truth(struct dsl_interp *in, struct dsl_value v, bool *out);

/* a[ix] for an index of ndarray a: 0 with *i in range, or -1 after numpy's IndexError. */
int dsl_ndarray_index(struct dsl_interp *in, struct dsl_value a, struct dsl_value ix, int64_t *i);

/* a[ix[0], ..., ix[n-1]] (n >= 1): 0 with the element or row in (*row)->items[*i], or -1 after
 * numpy's IndexError. */
int dsl_ndarray_at(struct dsl_interp *in, struct dsl_value a, const struct dsl_value *ix, size_t n,
                   struct dsl_list **row, int64_t *i);

/* The attribute `name` of ndarray v (shape, size, ndim, dtype, or a method bound to v): 0, or
 * -1 after numpy's AttributeError. */
int dsl_ndarray_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                        struct dsl_value *out);

/* numpy's repr (`array([1., 2.])`) or str (`[1. 2.]`) of ndarray v, appended to b: its number
 * formats, padding, line wrapping at 75 columns and summary of more than 1000 elements. */
void dsl_ndarray_text(struct render_buf *b, struct dsl_value v, bool repr);

/* A double as numpy prints one alone: the fewest digits that read back, at most `precision`
 * after the point, trailing zeros dropped but the point kept ("1.", "0.333333"); scientific
 * from 1e8 up and below 1e-4 ("1.e+09", "2.9e-05"). */
void dsl_np_format_double(double x, int precision, char *out, size_t cap);

#endif
