/* ndarray.c — numpy's array as a style of list: dtypes and casts, making arrays, stores,
 * attributes and methods, and numpy's printing (see ndarray.h). */
#include "lang/ndarray.h"

#include "lang/interp.h"
#include "lang/native.h"
#include "lang/operators.h"

#include <minitorch/minitorch.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dtype_names[] = {
    [DSL_DT_NONE] = "",           [DSL_DT_INT32] = "int32",     [DSL_DT_INT64] = "int64",
    [DSL_DT_FLOAT32] = "float32", [DSL_DT_FLOAT64] = "float64", [DSL_DT_BOOL] = "bool",
};

const char *dsl_dtype_name(enum dsl_dtype dt) { return dt <= DSL_DT_BOOL ? dtype_names[dt] : ""; }

enum dsl_dtype dsl_dtype_named(const char *name)
{
    for (int d = DSL_DT_INT32; d <= DSL_DT_BOOL; d++)
        if (strcmp(name, dtype_names[d]) == 0) return (enum dsl_dtype)d;
    return DSL_DT_NONE;
}

static bool float_dtype(enum dsl_dtype dt) { return dt == DSL_DT_FLOAT32 || dt == DSL_DT_FLOAT64; }

/* The zero of dtype dt: what numpy.zeros holds. */
static struct dsl_value zero_of(enum dsl_dtype dt)
{
    return float_dtype(dt) ? dsl_float(0.0) : dt == DSL_DT_BOOL ? dsl_bool(false) : dsl_int(0);
}

static bool has_rows(const struct dsl_list *a) { return a->len && dsl_is_ndarray(a->items[0]); }

/* ---- casts ------------------------------------------------------------------------------ */

int dsl_ndarray_cast(struct dsl_interp *in, enum dsl_dtype dt, struct dsl_value v,
                     struct dsl_value *out)
{
    if (dt == DSL_DT_BOOL && (dsl_is_number(v) || v.kind == DSL_NONE)) { /* numpy's truth */
        *out =
            dsl_bool(v.kind != DSL_NONE && (v.kind == DSL_FLOAT ? v.as.f != 0.0 : dsl_as_int(v)));
        return 0;
    }
    if (!dsl_is_number(v)) {
        if ((v.kind == DSL_LIST || v.kind == DSL_TENSOR) && float_dtype(dt))
            return dsl_raise(in, "ValueError", "setting an array element with a sequence.");
        if (v.kind == DSL_NONE && float_dtype(dt)) return *out = dsl_float(NAN), 0; /* numpy's */
        if (v.kind == DSL_STR)
            return dsl_raise(in, "NotImplementedError",
                             "numpy arrays hold numbers here: convert the string with %s() first",
                             float_dtype(dt) ? "float" : "int");
        return dsl_raise(in, "TypeError", "%s argument must be a string, %sa real number, not '%s'",
                         float_dtype(dt) ? "float()" : "int()",
                         float_dtype(dt) ? "" : "a bytes-like object or ", dsl_type_name(v));
    }
    if (float_dtype(dt)) {
        double d = dsl_as_double(v);
        *out = dsl_float(dt == DSL_DT_FLOAT32 ? (double)(float)d : d);
        return 0;
    }
    int64_t n;
    if (v.kind == DSL_FLOAT) { /* numpy takes int(x) of a float */
        double d = v.as.f;
        if (isnan(d)) return dsl_raise(in, "ValueError", "cannot convert float NaN to integer");
        if (isinf(d))
            return dsl_raise(in, "OverflowError", "cannot convert float infinity to integer");
        if (d >= 9223372036854775808.0 || d < -9223372036854775808.0)
            return dsl_raise(in, "OverflowError", "Python int too large to convert to C long");
        n = (int64_t)d;
    } else {
        n = dsl_as_int(v);
    }
    if (dt == DSL_DT_INT32 && (n > INT32_MAX || n < INT32_MIN))
        return dsl_raise(in, "OverflowError", "Python integer %lld out of bounds for int32",
                         (long long)n);
    *out = dsl_int(n);
    return 0;
}

struct dsl_value dsl_ndarray_int(enum dsl_dtype dt, int64_t v)
{
    if (dt == DSL_DT_BOOL) return dsl_bool(v != 0);
    return dsl_int(dt == DSL_DT_INT32 ? (int64_t)(int32_t)(uint32_t)(uint64_t)v : v);
}

/* ---- shapes and making arrays ------------------------------------------------------------ */

int dsl_ndarray_shape(struct dsl_value v, int64_t *shape)
{
    int nd = 0;
    while (dsl_is_ndarray(v) && nd < DSL_ND_MAX_DIMS) {
        shape[nd++] = (int64_t)v.as.l->len;
        if (!v.as.l->len) break;
        v = v.as.l->items[0];
    }
    return nd;
}

/* A shape as Python writes a tuple, "(2, 3)", or as numpy's errors of reshape and broadcasting
 * do, "(2,3)". */
static void shape_text_sep(char *out, size_t cap, const int64_t *shape, int nd, const char *sep)
{
    size_t n = 0;
    out[n++] = '(';
    out[n] = '\0';
    for (int k = 0; k < nd && n + 24 < cap; k++) /* numpy names reshape's -1 "newaxis" */
        n += (size_t)(shape[k] < 0 ? snprintf(out + n, cap - n, "%snewaxis", k ? sep : "")
                                   : snprintf(out + n, cap - n, "%s%lld", k ? sep : "",
                                              (long long)shape[k]));
    snprintf(out + n, cap - n, nd == 1 ? ",)" : ")");
}

static void shape_text(char *out, size_t cap, const int64_t *shape, int nd)
{
    shape_text_sep(out, cap, shape, nd, ", ");
}

/* The number of elements of a shape: 0 with *size, or -1 after raising (a negative or, past
 * what one list may hold, too large a shape; a zero before the last dimension, which nested
 * rows cannot show). */
static int shape_size(struct dsl_interp *in, const int64_t *shape, int nd, int64_t *size)
{
    uint64_t n = 1;
    for (int k = 0; k < nd; k++) {
        if (shape[k] < 0) return dsl_raise(in, "ValueError", "negative dimensions are not allowed");
        if (shape[k] == 0 && k + 1 < nd)
            return dsl_raise(in, "NotImplementedError",
                             "an empty array has its zero in the last dimension here (shape "
                             "(2, 0), not (0, 2)): an n-d array is rows of rows");
        if (__builtin_mul_overflow(n, (uint64_t)shape[k], &n) || n > DSL_MAX_LIST_LEN)
            return dsl_raise_size(in, "numpy array", n > DSL_MAX_LIST_LEN ? n : UINT64_MAX);
    }
    *size = (int64_t)n;
    return 0;
}

/* A new array of shape[0..nd) whose elements are flat[*pos...] (retained), or zeros of dtype dt
 * where flat is NULL. DSL_V_OK or DSL_V_NOMEM (nothing made). */
static int build(enum dsl_dtype dt, const int64_t *shape, int nd, const struct dsl_value *flat,
                 size_t *pos, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new((size_t)shape[0]);
    if (!l) return DSL_V_NOMEM;
    l->style = DSL_LIST_NDARRAY;
    l->dtype = (unsigned char)dt;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (int64_t i = 0; i < shape[0]; i++) {
        struct dsl_value item;
        if (nd > 1) {
            int st = build(dt, shape + 1, nd - 1, flat, pos, &item);
            if (st != DSL_V_OK) {
                dsl_value_release(*out);
                return st;
            }
            dsl_value_adopt(item);
        } else {
            item = flat ? dsl_value_retain(flat[(*pos)++]) : zero_of(dt);
        }
        dsl_list_push(l, item);
    }
    return DSL_V_OK;
}

int dsl_ndarray_zeros(struct dsl_interp *in, enum dsl_dtype dt, const int64_t *shape, int ndim,
                      struct dsl_value *out)
{
    int64_t size;
    if (ndim < 1) return dsl_raise(in, "NotImplementedError", "0-d arrays are not supported here");
    if (ndim > DSL_ND_MAX_DIMS)
        return dsl_raise(in, "ValueError",
                         "maximum supported dimension for an ndarray is %d, "
                         "found %d",
                         DSL_ND_MAX_DIMS, ndim);
    if (shape_size(in, shape, ndim, &size) != 0) return -1;
    int st = build(dt, shape, ndim, NULL, NULL, out);
    return st == DSL_V_OK ? 0 : dsl_raise_status(in, st);
}

/* The elements of ndarray v, in order, appended to flat (borrowed). */
static void leaves(struct dsl_value v, struct dsl_value *flat, size_t *n)
{
    for (size_t i = 0; i < v.as.l->len; i++) {
        struct dsl_value x = v.as.l->items[i];
        if (dsl_is_ndarray(x))
            leaves(x, flat, n);
        else
            flat[(*n)++] = x;
    }
}

/* The elements of ndarray v as a new array of borrowed values; NULL after raising. */
static struct dsl_value *flat_copy(struct dsl_interp *in, struct dsl_value v, size_t *n)
{
    int64_t shape[DSL_ND_MAX_DIMS], size = 1;
    int nd = dsl_ndarray_shape(v, shape);
    for (int k = 0; k < nd; k++) size *= shape[k];
    struct dsl_value *flat = malloc(((size_t)size + 1) * sizeof *flat);
    if (!flat) return dsl_raise_status(in, DSL_V_NOMEM), NULL;
    *n = 0;
    leaves(v, flat, n);
    return flat;
}

/* Checks that src is evenly nested to shape[0..nd) with numbers at the bottom, appending them
 * cast (dt) or as they are (DSL_DT_NONE) to flat. 0 or -1 after raising. */
static int gather(struct dsl_interp *in, struct dsl_value src, const int64_t *shape, int nd,
                  int depth, enum dsl_dtype dt, struct dsl_value *flat, size_t *n)
{
    if (depth == nd) {
        if (src.kind == DSL_LIST) goto uneven;
        if (!dsl_is_number(src))
            return dsl_raise(in, "NotImplementedError",
                             "numpy arrays hold numbers here (int or float), not %s",
                             dsl_type_name(src));
        if (dt == DSL_DT_NONE) return flat[(*n)++] = src, 0;
        return dsl_ndarray_cast(in, dt, src, &flat[(*n)++]) != 0 ? (*n)--, -1 : 0;
    }
    if (src.kind != DSL_LIST || (int64_t)src.as.l->len != shape[depth]) goto uneven;
    for (size_t i = 0; i < src.as.l->len; i++)
        if (gather(in, src.as.l->items[i], shape, nd, depth + 1, dt, flat, n) != 0) return -1;
    return 0;
uneven:;
    char text[DSL_ND_MAX_DIMS * 24];
    shape_text(text, sizeof text, shape, depth);
    return dsl_raise(in, "ValueError",
                     "setting an array element with a sequence. The requested array has an "
                     "inhomogeneous shape after %d dimensions. The detected shape was %s + "
                     "inhomogeneous part.",
                     depth, text);
}

int dsl_ndarray_from(struct dsl_interp *in, struct dsl_value src, enum dsl_dtype dt,
                     struct dsl_value *out)
{
    int64_t shape[DSL_ND_MAX_DIMS], size = 0;
    int nd = 0;
    for (struct dsl_value x = src; x.kind == DSL_LIST; x = x.as.l->items[0]) {
        if (nd == DSL_ND_MAX_DIMS)
            return dsl_raise(in, "ValueError", "an array has at most %d dimensions here",
                             DSL_ND_MAX_DIMS);
        shape[nd++] = (int64_t)x.as.l->len;
        if (!x.as.l->len) break;
    }
    if (nd == 0)
        return dsl_raise(in, "NotImplementedError",
                         "numpy.array makes arrays of lists, tuples or arrays of numbers here "
                         "(0-d arrays, of one %s, are not supported)",
                         dsl_type_name(src));
    if (shape_size(in, shape, nd, &size) != 0) return -1;
    struct dsl_value *flat = malloc(((size_t)size + 1) * sizeof *flat);
    if (!flat) return dsl_raise_status(in, DSL_V_NOMEM);
    size_t n = 0;
    int r = gather(in, src, shape, nd, 0, dt, flat, &n);
    bool any_float = false, all_bool = n > 0;
    for (size_t i = 0; r == 0 && i < n; i++)
        any_float |= flat[i].kind == DSL_FLOAT, all_bool &= flat[i].kind == DSL_BOOL;
    if (r == 0 && dt == DSL_DT_NONE) {
        dt = all_bool ? DSL_DT_BOOL : any_float || n == 0 ? DSL_DT_FLOAT64 : DSL_DT_INT64;
        for (size_t i = 0; r == 0 && i < n; i++) r = dsl_ndarray_cast(in, dt, flat[i], &flat[i]);
    }
    size_t pos = 0;
    if (r == 0) {
        int st = build(dt, shape, nd, flat, &pos, out);
        if (st != DSL_V_OK) r = dsl_raise_status(in, st);
    }
    free(flat); /* the cast numbers are scalars: nothing to release */
    return r;
}

/* ---- stores ----------------------------------------------------------------------------- */

static int assign_into(struct dsl_interp *in, struct dsl_list *row, struct dsl_value v);

int dsl_ndarray_setitem(struct dsl_interp *in, struct dsl_list *a, int64_t i, struct dsl_value v)
{
    if (has_rows(a)) return assign_into(in, a->items[i].as.l, v);
    struct dsl_value x;
    if (dsl_ndarray_cast(in, (enum dsl_dtype)a->dtype, v, &x) != 0) return -1;
    a->items[i] = x; /* numbers replace numbers: nothing to release or adopt */
    return 0;
}

/* The items of sequence v held (a snapshot: a[:] = a[::-1] reads a before writing it) in a new
 * array of *n retained values; NULL after raising. */
static struct dsl_value *snapshot(struct dsl_interp *in, struct dsl_value v, size_t *n)
{
    *n = v.as.l->len;
    struct dsl_value *items = malloc((*n + 1) * sizeof *items);
    if (!items) return dsl_raise_status(in, DSL_V_NOMEM), NULL;
    for (size_t k = 0; k < *n; k++) items[k] = dsl_value_retain(v.as.l->items[k]);
    return items;
}

int dsl_ndarray_setslice(struct dsl_interp *in, struct dsl_list *a, int64_t start, int64_t step,
                         int64_t count, struct dsl_value v)
{
    if (v.kind != DSL_LIST) {
        for (int64_t i = 0, k = start; i < count; i++, k += step)
            if (dsl_ndarray_setitem(in, a, k, v) != 0) return -1;
        return 0;
    }
    size_t n;
    struct dsl_value *items = snapshot(in, v, &n);
    if (!items) return -1;
    int r = 0;
    if (n != 1 && (int64_t)n != count)
        r = dsl_raise(in, "ValueError",
                      "could not broadcast input array from shape (%zu,) into shape (%lld,)", n,
                      (long long)count);
    for (int64_t i = 0, k = start; r == 0 && i < count; i++, k += step)
        r = dsl_ndarray_setitem(in, a, k, items[n == 1 ? 0 : i]);
    for (size_t k = 0; k < n; k++) dsl_value_release(items[k]);
    free(items);
    return r;
}

/* row[:] = v, for a row of an n-d array (or a whole array: fill). */
static int assign_into(struct dsl_interp *in, struct dsl_list *row, struct dsl_value v)
{
    return dsl_ndarray_setslice(in, row, 0, 1, (int64_t)row->len, v);
}

/* An index of axis `axis` of length n: 0 with *i in range, or -1 after numpy's IndexError. */
static int axis_index(struct dsl_interp *in, int64_t n, int axis, struct dsl_value ix, int64_t *i)
{
    if (!dsl_is_intlike(ix))
        return dsl_raise(in, "IndexError",
                         "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
                         "and integer or boolean arrays are valid indices");
    int64_t k = dsl_as_int(ix);
    if (k < -n || k >= n)
        return dsl_raise(in, "IndexError", "index %lld is out of bounds for axis %d with size %lld",
                         (long long)k, axis, (long long)n);
    *i = k < 0 ? k + n : k;
    return 0;
}

int dsl_ndarray_index(struct dsl_interp *in, struct dsl_value a, struct dsl_value ix, int64_t *i)
{
    return axis_index(in, (int64_t)a.as.l->len, 0, ix, i);
}

int dsl_ndarray_at(struct dsl_interp *in, struct dsl_value a, const struct dsl_value *ix, size_t n,
                   struct dsl_list **row, int64_t *i)
{
    int64_t shape[DSL_ND_MAX_DIMS];
    int nd = dsl_ndarray_shape(a, shape);
    if ((int)n > nd)
        return dsl_raise(in, "IndexError",
                         "too many indices for array: array is %d-dimensional, but %zu were "
                         "indexed",
                         nd, n);
    for (size_t k = 0;; k++) {
        if (axis_index(in, (int64_t)a.as.l->len, (int)k, ix[k], i) != 0) return -1;
        if (k + 1 == n) return *row = a.as.l, 0;
        a = a.as.l->items[*i];
    }
}

/* ---- attributes and methods ---------------------------------------------------------------- */

static int64_t size_of(const int64_t *shape, int nd)
{
    int64_t n = 1;
    for (int k = 0; k < nd; k++) n *= shape[k];
    return n;
}

/* A new array of v's elements in the given shape (its size): 0 or -1 after raising. */
static int remade(struct dsl_interp *in, struct dsl_value v, enum dsl_dtype dt,
                  const int64_t *shape, int nd, struct dsl_value *out)
{
    size_t n;
    struct dsl_value *flat = flat_copy(in, v, &n);
    if (!flat) return -1;
    int r = 0;
    if (dt != (enum dsl_dtype)v.as.l->dtype)
        for (size_t i = 0; r == 0 && i < n; i++) r = dsl_ndarray_cast(in, dt, flat[i], &flat[i]);
    size_t pos = 0;
    int st = r == 0 ? build(dt, shape, nd, flat, &pos, out) : DSL_V_OK;
    if (st != DSL_V_OK) r = dsl_raise_status(in, st);
    free(flat);
    return r;
}

/* The new shape reshape(...) asks for, its one negative dimension (numpy's unknown) worked out
 * from size. *nd dimensions; 0 or -1 after raising. */
static int wanted_shape(struct dsl_interp *in, const struct dsl_args *a, int64_t size,
                        int64_t *shape, int *nd)
{
    const struct dsl_value *dims = a->rest;
    size_t n = a->nrest;
    if (n == 1 && dims[0].kind == DSL_LIST) dims = dims[0].as.l->items, n = a->rest[0].as.l->len;
    if (n == 0 || n > DSL_ND_MAX_DIMS)
        return dsl_raise(in, n ? "ValueError" : "NotImplementedError",
                         "an array has 1 to %d dimensions here", DSL_ND_MAX_DIMS);
    int unknown = -1;
    int64_t known = 1;
    for (size_t k = 0; k < n; k++) {
        if (!dsl_is_intlike(dims[k]))
            return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                             dsl_type_name(dims[k]));
        shape[k] = dsl_as_int(dims[k]);
        if (shape[k] < 0) {
            if (unknown >= 0)
                return dsl_raise(in, "ValueError", "can only specify one unknown dimension");
            unknown = (int)k;
        } else if (__builtin_mul_overflow(known, shape[k], &known)) {
            known = INT64_MAX;
        }
    }
    *nd = (int)n;
    if (unknown >= 0 && known > 0 && size % known == 0) return shape[unknown] = size / known, 0;
    if (unknown >= 0 || known != size) {
        char text[DSL_ND_MAX_DIMS * 24];
        shape_text_sep(text, sizeof text, shape, *nd, ",");
        return dsl_raise(in, "ValueError", "cannot reshape array of size %lld into shape %s",
                         (long long)size, text);
    }
    return 0;
}

static int m_reshape(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t have[DSL_ND_MAX_DIMS], shape[DSL_ND_MAX_DIMS], dummy;
    int nd = 0, hnd = dsl_ndarray_shape(a->self, have);
    if (wanted_shape(in, a, size_of(have, hnd), shape, &nd) != 0) return -1;
    if (shape_size(in, shape, nd, &dummy) != 0) return -1;
    return remade(in, a->self, (enum dsl_dtype)a->self.as.l->dtype, shape, nd, ret);
}

static int m_flatten(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t have[DSL_ND_MAX_DIMS];
    int64_t size = size_of(have, dsl_ndarray_shape(a->self, have));
    return remade(in, a->self, (enum dsl_dtype)a->self.as.l->dtype, &size, 1, ret);
}

static int m_copy(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t shape[DSL_ND_MAX_DIMS] = {0}; /* filled by dsl_ndarray_shape: some compilers miss it */
    int nd = dsl_ndarray_shape(a->self, shape);
    return remade(in, a->self, (enum dsl_dtype)a->self.as.l->dtype, shape, nd, ret);
}

enum dsl_dtype dsl_dtype_of(struct dsl_interp *in, struct dsl_value d)
{
    enum dsl_dtype dt = DSL_DT_NONE;
    if (d.kind == DSL_STR) dt = dsl_dtype_named(d.as.s->data);
    if (d.kind == DSL_CLASS && strcmp(d.as.cls->name, "int") == 0) dt = DSL_DT_INT64;
    if (d.kind == DSL_CLASS && strcmp(d.as.cls->name, "float") == 0) dt = DSL_DT_FLOAT64;
    if (d.kind == DSL_CLASS && strcmp(d.as.cls->name, "bool") == 0) dt = DSL_DT_BOOL;
    if (dt == DSL_DT_NONE && d.kind == DSL_STR)
        dsl_raise(in, "TypeError",
                  "numpy here knows the dtypes int32, int64, float32, float64 and bool (and "
                  "int, float), not '%s'",
                  d.as.s->data);
    else if (dt == DSL_DT_NONE)
        dsl_raise(in, "TypeError",
                  "numpy here knows the dtypes int32, int64, float32, float64 and bool (and "
                  "int, float), not %s",
                  dsl_type_name(d));
    return dt;
}

static int m_astype(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    enum dsl_dtype dt = dsl_dtype_of(in, a->slot[0]);
    if (dt == DSL_DT_NONE) return -1;
    int64_t shape[DSL_ND_MAX_DIMS];
    int nd = dsl_ndarray_shape(a->self, shape);
    return remade(in, a->self, dt, shape, nd, ret);
}

static int m_fill(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    *ret = dsl_none();
    if (!dsl_is_number(a->slot[0]))
        return dsl_raise(in, "NotImplementedError", "fill takes a number here, not %s",
                         dsl_type_name(a->slot[0]));
    return assign_into(in, a->self.as.l, a->slot[0]);
}

/* A nested plain list of the elements of ndarray v. DSL_V_OK or DSL_V_NOMEM. */
static int as_list(struct dsl_value v, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new(v.as.l->len);
    if (!l) return DSL_V_NOMEM;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (size_t i = 0; i < v.as.l->len; i++) {
        struct dsl_value x = v.as.l->items[i], y = x;
        if (dsl_is_ndarray(x)) {
            if (as_list(x, &y) != DSL_V_OK) {
                dsl_value_release(*out);
                return DSL_V_NOMEM;
            }
            dsl_value_adopt(y);
        }
        dsl_list_push(l, y);
    }
    return DSL_V_OK;
}

static int m_tolist(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int st = as_list(a->self, ret);
    return st == DSL_V_OK ? 0 : dsl_raise_status(in, st);
}

/* all() (want true) or any() (want false) of the elements' truth. */
static int truth_of_all(struct dsl_interp *in, const struct dsl_args *a, bool want,
                        struct dsl_value *ret)
{
    size_t n;
    struct dsl_value *flat = flat_copy(in, a->self, &n);
    if (!flat) return -1;
    bool res = want;
    for (size_t i = 0; i < n && res == want; i++)
        if (dsl_value_truthy(flat[i]) != want) res = !want;
    free(flat);
    *ret = dsl_bool(res);
    return 0;
}

static int m_all(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return truth_of_all(in, a, true, ret);
}

static int m_any(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return truth_of_all(in, a, false, ret);
}

/* ---- whole-array reductions: sum, max, min, mean ------------------------------------------ */

/* The sum of x[0..n) as numpy's add.reduce adds a contiguous run of floats: pairwise (eight
 * running sums up to 128 values, then the halves split at a multiple of 8), so that a.sum()
 * gives numpy's bits; f32: every addition rounded to float32, as numpy adds float32s. */
static double pairwise(const double *x, size_t n, bool f32)
{
#define RND(v) (f32 ? (double)(float)(v) : (v))
    if (n < 8) {
        double r = 0.0;
        for (size_t i = 0; i < n; i++) r = RND(r + x[i]);
        return r;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; j++) r[j] = x[j];
        size_t i = 8;
        for (; i < n - n % 8; i += 8)
            for (int j = 0; j < 8; j++) r[j] = RND(r[j] + x[i + j]);
        double res = RND(RND(RND(r[0] + r[1]) + RND(r[2] + r[3])) +
                         RND(RND(r[4] + r[5]) + RND(r[6] + r[7])));
        for (; i < n; i++) res = RND(res + x[i]);
        return res;
    }
    size_t half = n / 2;
    half -= half % 8;
    return RND(pairwise(x, half, f32) + pairwise(x + half, n - half, f32));
#undef RND
}

enum fold { FOLD_SUM, FOLD_MAX, FOLD_MIN, FOLD_MEAN };

/* a.sum(), a.max(), a.min(), a.mean() of ndarray a over all its elements, as numpy's with no
 * axis: an int array's sum, max and min an int (the sum wraps at 64 bits, as numpy's int64),
 * its mean a float; a float array's a float (float32's rounded as numpy's float32). */
static int fold_all(struct dsl_interp *in, const struct dsl_args *a, enum fold op,
                    struct dsl_value *ret)
{
    static const char *const names[] = {"sum", "max", "min", "mean"};
    if (a->has[0] && a->slot[0].kind != DSL_NONE)
        return dsl_raise(in, "NotImplementedError",
                         "%s(axis=...): numpy's arrays here %s all their elements only (for a "
                         "reduction along a dim, use a tensor: t.%s(dim))",
                         names[op], op == FOLD_MEAN ? "average" : "reduce", names[op]);
    const int dt = a->self.as.l->dtype;
    const bool floats = dt == DSL_DT_FLOAT32 || dt == DSL_DT_FLOAT64, f32 = dt == DSL_DT_FLOAT32;
    size_t n;
    struct dsl_value *flat = flat_copy(in, a->self, &n);
    if (!flat) return -1;
    int r = 0;
    if ((op == FOLD_MAX || op == FOLD_MIN) && n == 0) {
        r = dsl_raise(in, "ValueError",
                      "zero-size array to reduction operation %s which has no identity",
                      op == FOLD_MAX ? "maximum" : "minimum");
    } else if (op == FOLD_SUM && !floats) {
        uint64_t sum = 0; /* wraps as numpy's int64 */
        for (size_t i = 0; i < n; i++) sum += (uint64_t)dsl_as_int(flat[i]);
        *ret = dsl_int((int64_t)sum);
    } else if (op == FOLD_MAX || op == FOLD_MIN) {
        size_t best = 0; /* numpy's max and min of floats: NaN wins */
        for (size_t i = 1; i < n; i++) {
            if (floats && isnan(dsl_as_double(flat[best]))) break;
            bool nan = floats && isnan(dsl_as_double(flat[i]));
            bool more = floats ? dsl_as_double(flat[i]) > dsl_as_double(flat[best])
                               : dsl_as_int(flat[i]) > dsl_as_int(flat[best]);
            bool less = floats ? dsl_as_double(flat[i]) < dsl_as_double(flat[best])
                               : dsl_as_int(flat[i]) < dsl_as_int(flat[best]);
            if (nan || (op == FOLD_MAX ? more : less)) best = i;
        }
        *ret = floats              ? dsl_float(dsl_as_double(flat[best]))
               : dt == DSL_DT_BOOL ? dsl_bool(dsl_as_int(flat[best]) != 0)
                                   : dsl_int(dsl_as_int(flat[best]));
    } else { /* a float sum, or a mean: numpy's mean of ints adds them as float64 */
        double *x = malloc((n + 1) * sizeof *x);
        if (!x) {
            r = dsl_raise_status(in, DSL_V_NOMEM);
        } else {
            for (size_t i = 0; i < n; i++) x[i] = dsl_as_double(flat[i]);
            double sum = pairwise(x, n, f32);
            double v = op == FOLD_SUM ? sum : n ? sum / (double)n : NAN;
            *ret = dsl_float(f32 ? (double)(float)v : v);
            free(x);
        }
    }
    free(flat);
    return r;
}

static int m_sum(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return fold_all(in, a, FOLD_SUM, ret);
}

static int m_max(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return fold_all(in, a, FOLD_MAX, ret);
}

static int m_min(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return fold_all(in, a, FOLD_MIN, ret);
}

static int m_mean(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return fold_all(in, a, FOLD_MEAN, ret);
}

static const char *const axis_params[] = {"axis", NULL};
static const char *const value_params[] = {"value", NULL};
static const char *const dtype_params[] = {"dtype", NULL};

const struct dsl_builtin dsl_ndarray_methods[] = {
    {"all", "a.all()", 0, 0, NULL, m_all, "Whether every element of a is true (nonzero)."},
    {"any", "a.any()", 0, 0, NULL, m_any, "Whether some element of a is true (nonzero)."},
    {"astype", "a.astype(dtype)", 1, 1, dtype_params, m_astype,
     "A new array of a's elements cast to dtype (numpy's casts: a float to an int truncates)."},
    {"copy", "a.copy()", 0, 0, NULL, m_copy, "A new array of a's shape, dtype and elements."},
    {"fill", "a.fill(value)", 1, 1, value_params, m_fill,
     "Sets every element of a to the number value, cast to a's dtype."},
    {"flatten", "a.flatten()", 0, 0, NULL, m_flatten,
     "A new one-dimensional array of a's elements, row after row."},
    {"max", "a.max(axis=None)", 0, 1, axis_params, m_max,
     "The largest element of a (NaN if any is NaN), as numpy's with no axis."},
    {"mean", "a.mean(axis=None)", 0, 1, axis_params, m_mean,
     "The mean of a's elements, as numpy's with no axis: a float (float32's rounded to "
     "float32), NaN for an empty array."},
    {"min", "a.min(axis=None)", 0, 1, axis_params, m_min,
     "The smallest element of a (NaN if any is NaN), as numpy's with no axis."},
    {"reshape", "a.reshape(shape)", 1, -1, NULL, m_reshape,
     "A new array of a's elements in the given shape (a tuple, or ints; one may be -1, "
     "worked out from the size). numpy's is a view of a; this one is a copy."},
    {"sum", "a.sum(axis=None)", 0, 1, axis_params, m_sum,
     "The sum of a's elements, as numpy's with no axis and to its last bit (numpy's pairwise "
     "order): an int for an int or bool array (wrapping at 64 bits), else a float."},
    {"tolist", "a.tolist()", 0, 0, NULL, m_tolist,
     "a's elements as nested lists of Python ints or floats."},
};
const size_t dsl_ndarray_method_count = sizeof dsl_ndarray_methods / sizeof dsl_ndarray_methods[0];
const char *const dsl_ndarray_attrs[] = {"dtype", "ndim", "shape", "size", NULL};

int dsl_ndarray_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                        struct dsl_value *out)
{
    int64_t shape[DSL_ND_MAX_DIMS];
    int nd = dsl_ndarray_shape(v, shape);
    if (strcmp(name, "ndim") == 0) return *out = dsl_int(nd), 0;
    if (strcmp(name, "size") == 0) return *out = dsl_int(size_of(shape, nd)), 0;
    if (strcmp(name, "dtype") == 0) {
        const char *d = dsl_dtype_name((enum dsl_dtype)v.as.l->dtype);
        int st = dsl_str_value(d, strlen(d), out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    if (strcmp(name, "shape") == 0) {
        struct dsl_list *l = dsl_list_new((size_t)nd);
        if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
        l->style = DSL_LIST_TUPLE;
        for (int k = 0; k < nd; k++) dsl_list_push(l, dsl_int(shape[k]));
        *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
        return 0;
    }
    for (size_t i = 0; i < dsl_ndarray_method_count; i++)
        if (strcmp(dsl_ndarray_methods[i].name, name) == 0) {
            int st = dsl_method_value(&dsl_ndarray_methods[i], v, out);
            return st ? dsl_raise_status(in, st) : 0;
        }
    return dsl_raise(in, "AttributeError", "'numpy.ndarray' object has no attribute '%s'", name);
}

/* The part of v (an array, or an element past the last dimension) that ix[k..n) picks, as a new
 * value: an element itself, an array copied (see dsl_ndarray_select). 0 or -1 after raising. */
static int select_from(struct dsl_interp *in, struct dsl_value v, const struct dsl_value *ix,
                       const bool *slice, size_t n, size_t k, struct dsl_value *out)
{
    if (k == n || !dsl_is_ndarray(v)) {
        if (!dsl_is_ndarray(v)) return *out = v, 0;
        int64_t shape[DSL_ND_MAX_DIMS];
        int nd = dsl_ndarray_shape(v, shape);
        return remade(in, v, (enum dsl_dtype)v.as.l->dtype, shape, nd, out);
    }
    int64_t len = (int64_t)v.as.l->len, i = 0;
    if (!slice[k]) {
        if (axis_index(in, len, (int)k, ix[k], &i) != 0) return -1;
        return select_from(in, v.as.l->items[i], ix, slice, n, k + 1, out);
    }
    int64_t start, step, count;
    if (dsl_slice_span(in, ix[k].as.l->items, len, &start, &step, &count) != 0) return -1;
    struct dsl_list *l = dsl_list_new((size_t)count);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_NDARRAY;
    l->dtype = v.as.l->dtype;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (i = 0; i < count; i++) {
        struct dsl_value item;
        if (select_from(in, v.as.l->items[start + i * step], ix, slice, n, k + 1, &item) != 0) {
            dsl_value_release(*out);
            return -1;
        }
        dsl_value_adopt(item);
        dsl_list_push(l, item);
    }
    return 0;
}

int dsl_ndarray_select(struct dsl_interp *in, struct dsl_value a, const struct dsl_value *ix,
                       const bool *slice, size_t n, struct dsl_value *out)
{
    int64_t shape[DSL_ND_MAX_DIMS], want[DSL_ND_MAX_DIMS], size;
    int nd = dsl_ndarray_shape(a, shape), wn = 0;
    if ((int)n > nd)
        return dsl_raise(in, "IndexError",
                         "too many indices for array: array is %d-dimensional, but %zu were "
                         "indexed",
                         nd, n);
    /* the result's shape first: an empty slice before another dimension is a shape that rows
     * of rows cannot show (shape_size says so) */
    for (size_t k = 0; k < n; k++) {
        int64_t start, step;
        if (slice[k] &&
            dsl_slice_span(in, ix[k].as.l->items, shape[k], &start, &step, &want[wn++]) != 0)
            return -1;
    }
    for (int k = (int)n; k < nd; k++) want[wn++] = shape[k];
    if (shape_size(in, want, wn, &size) != 0) return -1;
    return select_from(in, a, ix, slice, n, 0, out);
}

/* ---- numpy's printing ----------------------------------------------------------------------
 *
 * As numpy's array2string with its default options: floats in "maxprec" mode with precision 8
 * (each element its fewest digits that read back, padded to the widest on both sides of the
 * point), scientific for all when the largest magnitude is 1e8 or more, or the smallest nonzero
 * one below 1e-4 or a thousandth of the largest; ints padded to the widest; lines wrapped at 75
 * columns; more than 1000 elements summarised to the first and last 3 of each dimension. */

enum { NP_PRECISION = 8, NP_EDGE = 3, NP_THRESHOLD = 1000, NP_LINE = 75 };

/* x with the fewest digits that read back (as a float32 for f32, whose shortest digits numpy
 * prints: 0.6, not 0.60000002), at most precision after the point, positional or scientific,
 * trailing zeros dropped but the point kept ("1.", "1.5e-05"). */
static void np_digits(double x, int precision, bool sci, bool f32, char *out, size_t cap)
{
    int k = 0;
    for (; k < precision; k++) {
        snprintf(out, cap, sci ? "%.*e" : "%.*f", k, x);
        if (f32 ? strtof(out, NULL) == (float)x : strtod(out, NULL) == x) break;
    }
    snprintf(out, cap, sci ? "%.*e" : "%.*f", k, x);
    char *e = sci ? strchr(out, 'e') : out + strlen(out);
    char *dot = strchr(out, '.');
    if (!dot) { /* "%.0f" writes no point; numpy writes "1." */
        memmove(e + 1, e, strlen(e) + 1);
        *e = '.';
        return;
    }
    char *end = e;
    while (end > dot + 1 && end[-1] == '0') end--;
    memmove(end, e, strlen(e) + 1);
}

void dsl_np_format_double(double x, int precision, char *out, size_t cap)
{
    if (isnan(x) || isinf(x)) {
        snprintf(out, cap, isnan(x) ? "nan" : x < 0 ? "-inf" : "inf");
        return;
    }
    double m = fabs(x);
    np_digits(x, precision, m != 0.0 && (m >= 1e8 || m < 1e-4), false, out, cap);
}

struct np_fmt {
    bool bools, floats, f32, exp, finite, neginf, nonfinite;
    double lo, hi;                                  /* nonzero magnitudes, for exp */
    int pad_left, pad_right, prec, exp_size, width; /* width: ints' */
};

/* What one shown element adds to the format: pass 0 the magnitudes, pass 1 the widths. */
static void measure(struct np_fmt *f, struct dsl_value x, int pass)
{
    char s[64];
    if (f->bools) return;
    if (!f->floats) {
        int n = (int)dsl_int_text(dsl_as_int(x), s);
        if (n > f->width) f->width = n;
        return;
    }
    double d = x.as.f;
    if (isnan(d) || isinf(d)) {
        f->nonfinite = true;
        f->neginf |= isinf(d) && d < 0;
        return;
    }
    if (pass == 0) {
        double m = fabs(d);
        if (m != 0.0 && (!f->finite || m < f->lo)) f->lo = m;
        if (m != 0.0 && (!f->finite || m > f->hi)) f->hi = m;
        if (m != 0.0) f->finite = true;
        return;
    }
    np_digits(d, NP_PRECISION, f->exp, f->f32, s, sizeof s);
    char *dot = strchr(s, '.'), *e = strchr(s, 'e');
    int left = (int)(dot - s), frac = (int)((e ? e : s + strlen(s)) - dot - 1);
    if (left > f->pad_left) f->pad_left = left;
    if (frac > f->pad_right) f->pad_right = frac;
    if (e && (int)strlen(e + 2) > f->exp_size) f->exp_size = (int)strlen(e + 2);
}

/* Calls measure for each element printing shows (summarize: the first and last NP_EDGE of each
 * dimension). */
static void walk(struct dsl_value v, bool summarize, struct np_fmt *f, int pass)
{
    size_t n = v.as.l->len;
    for (size_t i = 0; i < n; i++) {
        if (summarize && n > 2 * NP_EDGE && i == NP_EDGE) i = n - NP_EDGE;
        struct dsl_value x = v.as.l->items[i];
        if (dsl_is_ndarray(x))
            walk(x, summarize, f, pass);
        else
            measure(f, x, pass);
    }
}

static void np_fmt_init(struct np_fmt *f, struct dsl_value v, bool summarize)
{
    *f = (struct np_fmt){.floats = float_dtype((enum dsl_dtype)v.as.l->dtype),
                         .f32 = v.as.l->dtype == DSL_DT_FLOAT32,
                         .bools = v.as.l->dtype == DSL_DT_BOOL};
    walk(v, summarize, f, 0);
    f->exp = f->finite && (f->hi >= 1e8 || f->lo < 1e-4 || f->hi / f->lo > 1000.0);
    walk(v, summarize, f, 1);
    if (f->exp) {
        f->prec = f->pad_right;
        if (f->exp_size < 2) f->exp_size = 2;
        f->pad_right = f->exp_size + 2 + f->prec;
    }
    if (f->nonfinite) { /* "nan", "inf", "-inf" fit the width */
        int offset = f->pad_right + 1;
        if (3 - offset > f->pad_left) f->pad_left = 3 - offset;
        if (3 + f->neginf - offset > f->pad_left) f->pad_left = 3 + f->neginf - offset;
    }
}

/* One element as the format writes it, into s; its length. */
static int element_text(const struct np_fmt *f, struct dsl_value x, char *s, size_t cap)
{
    if (f->bools) return snprintf(s, cap, "%s", dsl_as_int(x) ? " True" : "False");
    if (!f->floats) return snprintf(s, cap, "%*lld", f->width, (long long)dsl_as_int(x));
    double d = x.as.f;
    int width = f->pad_left + 1 + f->pad_right;
    if (isnan(d) || isinf(d))
        return snprintf(s, cap, "%*s", width, isnan(d) ? "nan" : d < 0 ? "-inf" : "inf");
    char t[64];
    if (f->exp) {
        snprintf(t, sizeof t, "%.*e", f->prec, d);
        char *e = strchr(t, 'e');
        int exp = atoi(e + 1);
        *e = '\0';
        char *dot = strchr(t, '.');
        int left = dot ? (int)(dot - t) : (int)strlen(t);
        return snprintf(s, cap, "%*s%s%se%c%0*d", f->pad_left - left, "", t, dot ? "" : ".",
                        exp < 0 ? '-' : '+', f->exp_size, exp < 0 ? -exp : exp);
    }
    np_digits(d, NP_PRECISION, false, f->f32, t, sizeof t);
    const char *dot = strchr(t, '.');
    int left = (int)(dot - t), frac = (int)strlen(dot + 1);
    return snprintf(s, cap, "%*s%s%*s", f->pad_left - left, "", t, f->pad_right - frac, "");
}

struct np_out {
    struct render_buf *b;
    const struct np_fmt *f;
    const char *sep; /* ", " (repr) or " " (str) */
    bool summarize;
};

static void spaces(struct render_buf *b, int n)
{
    for (int i = 0; i < n; i++) render_buf_putc(b, ' ');
}

/* Drops the spaces that end b, as numpy's line.rstrip() before a new line. */
static void rstrip(struct render_buf *b)
{
    while (b->len && b->data[b->len - 1] == ' ') b->data[--b->len] = '\0';
}

/* A word of a row, wrapped to a new line (of indent spaces) where it would pass width. */
static void put_word(const struct np_out *o, const char *w, int *col, int indent, int width)
{
    int n = (int)strlen(w);
    if (*col + n > width && *col > indent) {
        rstrip(o->b);
        render_buf_putc(o->b, '\n');
        spaces(o->b, indent);
        *col = indent;
    }
    render_buf_puts(o->b, w);
    *col += n;
}

/* numpy's _formatArray: v written at column indent - 1 (its '['), rows below it indented by
 * indent, no line past width. */
static void format_rows(const struct np_out *o, struct dsl_value v, int indent, int width,
                        int axes_left)
{
    size_t n = v.as.l->len;
    bool summary = o->summarize && n > 2 * NP_EDGE;
    render_buf_putc(o->b, '[');
    if (axes_left == 1) {
        int col = indent, elem_width = width - 1; /* room for the ',' or ']' after */
        char w[96];
        for (size_t i = 0; i < n; i++) {
            if (mt_cancel_requested()) return;
            if (summary && i == NP_EDGE) {
                put_word(o, "...", &col, indent, elem_width);
                render_buf_puts(o->b, o->sep);
                col += (int)strlen(o->sep);
                i = n - NP_EDGE;
            }
            element_text(o->f, v.as.l->items[i], w, sizeof w);
            put_word(o, w, &col, indent, elem_width);
            if (i + 1 < n) {
                render_buf_puts(o->b, o->sep);
                col += (int)strlen(o->sep);
            }
        }
    } else {
        char line_sep[40];
        int k = snprintf(line_sep, sizeof line_sep, "%s", o->sep[0] == ',' ? "," : "");
        for (int j = 0; j < axes_left - 1 && k + 1 < (int)sizeof line_sep; j++)
            line_sep[k++] = '\n', line_sep[k] = '\0';
        for (size_t i = 0; i < n; i++) {
            if (i) spaces(o->b, indent);
            if (summary && i == NP_EDGE) {
                render_buf_puts(o->b, "...");
                render_buf_puts(o->b, line_sep);
                spaces(o->b, indent);
                i = n - NP_EDGE;
            }
            format_rows(o, v.as.l->items[i], indent + 1, width - 1, axes_left - 1);
            if (i + 1 < n) render_buf_puts(o->b, line_sep);
        }
    }
    render_buf_putc(o->b, ']');
}

void dsl_ndarray_text(struct render_buf *b, struct dsl_value v, bool repr)
{
    int64_t shape[DSL_ND_MAX_DIMS];
    int nd = dsl_ndarray_shape(v, shape);
    int64_t size = size_of(shape, nd);
    enum dsl_dtype dt = (enum dsl_dtype)v.as.l->dtype;
    bool show_dtype = dt == DSL_DT_INT32 || dt == DSL_DT_FLOAT32 || size == 0;
    if (size == 0) {
        if (!repr) {
            render_buf_puts(b, "[]");
            return;
        }
        render_buf_puts(b, "array([], ");
        if (nd > 1) {
            char text[DSL_ND_MAX_DIMS * 24];
            shape_text(text, sizeof text, shape, nd);
            render_buf_printf(b, "shape=%s, ", text);
        }
        render_buf_printf(b, "dtype=%s)", dsl_dtype_name(dt));
        return;
    }
    struct np_fmt f;
    bool summarize = size > NP_THRESHOLD;
    np_fmt_init(&f, v, summarize);
    struct np_out o = {.b = b, .f = &f, .sep = repr ? ", " : " ", .summarize = summarize};
    size_t start = b->len;
    if (repr) render_buf_puts(b, "array(");
    int prefix = repr ? 6 : 0;
    format_rows(&o, v, prefix + 1, NP_LINE - (repr ? 1 : 0), nd);
    if (!repr) return;
    char extras[DSL_ND_MAX_DIMS * 24 + 40], text[DSL_ND_MAX_DIMS * 24];
    size_t en = 0;
    extras[0] = '\0';
    if (summarize) { /* numpy 2 names the shape of an array it summarises */
        shape_text(text, sizeof text, shape, nd);
        en += (size_t)snprintf(extras + en, sizeof extras - en, "shape=%s", text);
    }
    if (show_dtype)
        en += (size_t)snprintf(extras + en, sizeof extras - en, "%sdtype=%s", en ? ", " : "",
                               dsl_dtype_name(dt));
    if (!en) {
        render_buf_putc(b, ')');
        return;
    }
    render_buf_putc(b, ',');
    const char *nl = b->data ? strrchr(b->data + start, '\n') : NULL;
    size_t last = nl ? b->len - (size_t)(nl + 1 - b->data) : b->len - start;
    if (last + en + 2 > NP_LINE) { /* the extras and their ')' on a line of their own */
        render_buf_putc(b, '\n');
        spaces(b, prefix);
    } else {
        render_buf_putc(b, ' ');
    }
    render_buf_printf(b, "%s)", extras);
}

/* ---- comparisons and truth ------------------------------------------------------------------ */

/* ---- elementwise operations: broadcasting, comparisons, arithmetic --------------------------- */

/* One operand of an elementwise operation: an array (a list made one), or a number as a 0-d
 * operand. A Python int or float is numpy 2's "weak" scalar, which takes the array's dtype. */
struct side {
    struct dsl_value arr; /* held: the array, or none for a number */
    struct dsl_value num; /* the number, for a 0-d side */
    struct dsl_value *flat;
    int64_t shape[DSL_ND_MAX_DIMS];
    int nd;
    enum dsl_dtype dt;
    bool weak;
};

/* v as a side; `what` names the operation in the error for other values. 0 or -1 after
 * raising, with nothing held. */
static int side_of(struct dsl_interp *in, struct dsl_value v, const char *what, struct side *s)
{
    *s = (struct side){.arr = dsl_none(), .num = v};
    if (dsl_is_number(v)) {
        s->flat = &s->num;
        s->weak = v.kind != DSL_BOOL; /* a Python bool is numpy's bool */
        s->dt = v.kind == DSL_BOOL    ? DSL_DT_BOOL
                : v.kind == DSL_FLOAT ? DSL_DT_FLOAT64
                                      : DSL_DT_INT64;
        return 0;
    }
    if (v.kind != DSL_LIST)
        return dsl_raise(in, "NotImplementedError",
                         "numpy arrays are %s numbers, lists or arrays here, not %s", what,
                         dsl_type_name(v));
    if (dsl_is_ndarray(v))
        s->arr = dsl_value_retain(v);
    else if (dsl_ndarray_from(in, v, DSL_DT_NONE, &s->arr) != 0)
        return -1;
    s->dt = (enum dsl_dtype)s->arr.as.l->dtype;
    s->nd = dsl_ndarray_shape(s->arr, s->shape);
    size_t n;
    s->flat = flat_copy(in, s->arr, &n);
    if (!s->flat) dsl_value_release(s->arr);
    return s->flat ? 0 : -1;
}

static void side_free(struct side *s)
{
    if (s->flat != &s->num) free(s->flat);
    dsl_value_release(s->arr);
}

/* The elements of x and y paired by numpy's broadcasting (shapes aligned at their last
 * dimension; a dimension of 1 stretches to the other's), into px and py (borrowed, *size of
 * each, malloc'd), with the result's shape. 0, or -1 after numpy's ValueError. */
static int broadcast(struct dsl_interp *in, const struct side *x, const struct side *y,
                     int64_t *shape, int *nd, struct dsl_value **px, struct dsl_value **py,
                     int64_t *size)
{
    int n = x->nd > y->nd ? x->nd : y->nd;
    int64_t sx[DSL_ND_MAX_DIMS], sy[DSL_ND_MAX_DIMS], idx[DSL_ND_MAX_DIMS] = {0};
    int64_t stride_x = 1, stride_y = 1;
    for (int k = n - 1; k >= 0; k--) {
        int kx = k - (n - x->nd), ky = k - (n - y->nd);
        int64_t dx = kx >= 0 ? x->shape[kx] : 1, dy = ky >= 0 ? y->shape[ky] : 1;
        if (dx != dy && dx != 1 && dy != 1) {
            char t1[DSL_ND_MAX_DIMS * 24], t2[DSL_ND_MAX_DIMS * 24];
            shape_text_sep(t1, sizeof t1, x->shape, x->nd, ","); /* numpy's, as reshape's */
            shape_text_sep(t2, sizeof t2, y->shape, y->nd, ",");
            return dsl_raise(in, "ValueError",
                             "operands could not be broadcast together with shapes %s %s ", t1, t2);
        }
        shape[k] = dx == 1 ? dy : dx;
        sx[k] = dx == 1 ? 0 : stride_x, sy[k] = dy == 1 ? 0 : stride_y;
        stride_x *= dx, stride_y *= dy;
    }
    *nd = n;
    if (shape_size(in, shape, n, size) != 0) return -1;
    *px = malloc(((size_t)*size + 1) * sizeof **px);
    *py = malloc(((size_t)*size + 1) * sizeof **py);
    if (!*px || !*py) {
        free(*px), free(*py);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    int64_t ox = 0, oy = 0;
    for (int64_t i = 0; i < *size; i++) {
        (*px)[i] = x->flat[ox], (*py)[i] = y->flat[oy];
        for (int k = n - 1; k >= 0; k--) { /* the next index, the last dimension fastest */
            ox += sx[k], oy += sy[k];
            if (++idx[k] < shape[k]) break;
            ox -= sx[k] * shape[k], oy -= sy[k] * shape[k], idx[k] = 0;
        }
    }
    return 0;
}

/* a and b as broadcast pairs (broadcast), their sides filled; 0 or -1 with nothing held. */
static int pair_up(struct dsl_interp *in, struct dsl_value a, struct dsl_value b, const char *what,
                   struct side *x, struct side *y, int64_t *shape, int *nd, struct dsl_value **px,
                   struct dsl_value **py, int64_t *size)
{
    if (side_of(in, a, what, x) != 0) return -1;
    if (side_of(in, b, what, y) != 0) {
        side_free(x);
        return -1;
    }
    if (broadcast(in, x, y, shape, nd, px, py, size) == 0) return 0;
    side_free(x);
    side_free(y);
    return -1;
}

/* A new array of the given shape whose elements are vals[0..) (numbers: nothing to release).
 * 0 or -1 after raising. */
static int result_of(struct dsl_interp *in, enum dsl_dtype dt, const int64_t *shape, int nd,
                     struct dsl_value *vals, struct dsl_value *out)
{
    size_t pos = 0;
    int st = build(dt, shape, nd, vals, &pos, out);
    return st == DSL_V_OK ? 0 : dsl_raise_status(in, st);
}

int dsl_ndarray_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                        struct dsl_value b, struct dsl_value *out)
{
    struct side x, y;
    int64_t shape[DSL_ND_MAX_DIMS], size;
    int nd;
    struct dsl_value *px, *py;
    if (pair_up(in, a, b, "compared with", &x, &y, shape, &nd, &px, &py, &size) != 0) return -1;
    int r = 0;
    for (int64_t i = 0; r == 0 && i < size; i++) {
        bool res = false;
        r = op == DSL_T_EQ || op == DSL_T_NE ? dsl_equal(in, px[i], py[i], &res)
                                             : dsl_compare(in, op, px[i], py[i], &res);
        px[i] = dsl_bool(op == DSL_T_NE ? !res : res);
    }
    if (r == 0) r = result_of(in, DSL_DT_BOOL, shape, nd, px, out);
    free(px), free(py);
    side_free(&x), side_free(&y);
    return r;
}

/* The dtype of an operation's result from its operands' (numpy's promotion, NEP 50: a weak
 * Python int takes an int or bool... array's dtype but lifts bool to int64; a weak float keeps
 * a float dtype and lifts the others to float64). */
static enum dsl_dtype promoted(const struct side *x, const struct side *y)
{
    if (x->weak || y->weak) {
        const struct side *s = x->weak ? x : y, *arr = x->weak ? y : x;
        if (arr->weak) return s->dt;
        if (s->dt == DSL_DT_FLOAT64) return float_dtype(arr->dt) ? arr->dt : DSL_DT_FLOAT64;
        return arr->dt == DSL_DT_BOOL ? DSL_DT_INT64 : arr->dt;
    }
    enum dsl_dtype p = x->dt, q = y->dt;
    if (p == q || q == DSL_DT_BOOL) return p;
    if (p == DSL_DT_BOOL) return q;
    if (float_dtype(p) != float_dtype(q) || (float_dtype(p) && float_dtype(q)))
        return DSL_DT_FLOAT64; /* int32 or int64 with float32 too: float32 holds neither */
    return DSL_DT_INT64;
}

/* x op y of two ints of an int dtype, wrapping as numpy's machine ints do (int32's afterwards,
 * by dsl_ndarray_int); dividing by zero gives 0, as numpy's (which also warns). */
static int int_op(struct dsl_interp *in, enum dsl_tok op, int64_t x, int64_t y, int64_t *r)
{
    uint64_t a = (uint64_t)x, b = (uint64_t)y;
    switch (op) {
    case DSL_T_PLUS: *r = (int64_t)(a + b); return 0;
    case DSL_T_MINUS: *r = (int64_t)(a - b); return 0;
    case DSL_T_STAR: *r = (int64_t)(a * b); return 0;
    case DSL_T_DSLASH: *r = y ? dsl_int_floordiv(x, y, NULL) : 0; return 0;
    case DSL_T_PERCENT:
        *r = 0;
        if (y) dsl_int_floordiv(x, y, r);
        return 0;
    default: { /* ** by squaring, wrapping */
        if (y < 0)
            return dsl_raise(in, "ValueError",
                             "Integers to negative integer powers are not "
                             "allowed.");
        uint64_t p = 1;
        for (; b; b >>= 1, a *= a)
            if (b & 1) p *= a;
        *r = (int64_t)p;
        return 0;
    }
    }
}

/* x op y of two floats of dtype dt: IEEE's, so dividing by zero gives inf or nan as numpy's
 * (which also warns); float32's rounded to float32, ** by float32's own powf. */
static double float_op(enum dsl_tok op, enum dsl_dtype dt, double x, double y)
{
    double r, mod;
    switch (op) {
    case DSL_T_PLUS: r = x + y; break;
    case DSL_T_MINUS: r = x - y; break;
    case DSL_T_STAR: r = x * y; break;
    case DSL_T_SLASH: r = x / y; break;
    case DSL_T_DSLASH: r = y == 0.0 ? x / y : dsl_float_floordiv(x, y, &mod); break;
    case DSL_T_PERCENT:
        if (y == 0.0) {
            r = fmod(x, y);
        } else {
            dsl_float_floordiv(x, y, &mod);
            r = mod;
        }
        break;
    default: r = dt == DSL_DT_FLOAT32 ? (double)powf((float)x, (float)y) : pow(x, y); break;
    }
    return dt == DSL_DT_FLOAT32 ? (double)(float)r : r;
}

/* What numpy refuses of bools: - and unary - (its own TypeErrors); //, % and ** make int8,
 * which the arrays here do not have. */
static int bool_refused(struct dsl_interp *in, enum dsl_tok op, bool unary)
{
    if (op == DSL_T_MINUS)
        return dsl_raise(in, "TypeError",
                         unary ? "The numpy boolean negative, the `-` operator, is not supported, "
                                 "use the `~` operator or the logical_not function instead."
                               : "numpy boolean subtract, the `-` operator, is not supported, "
                                 "use the bitwise_xor, the `^` operator, or the logical_xor "
                                 "function instead.");
    return dsl_raise(in, "NotImplementedError",
                     "'%s' of two bool arrays makes numpy's int8, which arrays here do not have: "
                     "convert one with astype(int) first",
                     dsl_op_symbol(op));
}

/* Whether op is one of the arithmetic operators arrays take here. */
static bool arith_op(enum dsl_tok op)
{
    return op == DSL_T_PLUS || op == DSL_T_MINUS || op == DSL_T_STAR || op == DSL_T_SLASH ||
           op == DSL_T_DSLASH || op == DSL_T_PERCENT || op == DSL_T_DSTAR;
}

/* Computes vals[i] = px[i] op py[i] in dtype dt (the operands cast to it first, as numpy casts
 * a weak scalar to the array's dtype, with its OverflowError for an int out of int32's range),
 * each result as dt holds it. 0 or -1 after raising. */
static int compute(struct dsl_interp *in, enum dsl_tok op, enum dsl_dtype dt,
                   const struct dsl_value *px, const struct dsl_value *py, int64_t size,
                   struct dsl_value *vals)
{
    for (int64_t i = 0; i < size; i++) {
        struct dsl_value x = dsl_none(), y = dsl_none(); /* set by the casts; gcc cannot tell */
        if (dsl_ndarray_cast(in, dt, px[i], &x) != 0 || dsl_ndarray_cast(in, dt, py[i], &y) != 0)
            return -1;
        if (dt == DSL_DT_BOOL) { /* + is or, * is and, as numpy's bools */
            vals[i] = dsl_bool(op == DSL_T_PLUS ? x.as.b || y.as.b : x.as.b && y.as.b);
        } else if (float_dtype(dt)) {
            vals[i] = dsl_float(float_op(op, dt, x.as.f, y.as.f));
        } else {
            int64_t r;
            if (int_op(in, op, dsl_as_int(x), dsl_as_int(y), &r) != 0) return -1;
            vals[i] = dsl_ndarray_int(dt, r);
        }
    }
    return 0;
}

int dsl_ndarray_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                       struct dsl_value b, struct dsl_value *out)
{
    if (!arith_op(op))
        return dsl_raise(in, "NotImplementedError",
                         "'%s' of '%s' and '%s': numpy arrays take + - * / // %% ** and "
                         "comparisons here, not numpy's bitwise operators or @",
                         dsl_op_symbol(op), dsl_type_name(a), dsl_type_name(b));
    struct side x, y;
    int64_t shape[DSL_ND_MAX_DIMS], size;
    int nd;
    struct dsl_value *px, *py;
    if (pair_up(in, a, b, "computed with", &x, &y, shape, &nd, &px, &py, &size) != 0) return -1;
    enum dsl_dtype dt = promoted(&x, &y);
    int r = 0;
    if (dt == DSL_DT_BOOL && op != DSL_T_PLUS && op != DSL_T_STAR && op != DSL_T_SLASH)
        r = bool_refused(in, op, false);
    if (op == DSL_T_SLASH && !float_dtype(dt)) dt = DSL_DT_FLOAT64; /* true division */
    if (r == 0) r = compute(in, op, dt, px, py, size, px);
    if (r == 0) r = result_of(in, dt, shape, nd, px, out);
    free(px), free(py);
    side_free(&x), side_free(&y);
    return r;
}

/* The elements of src (flat, numbers) stored into ndarray a in order, cast to a's dtype. */
static int store_flat(struct dsl_interp *in, struct dsl_list *a, const struct dsl_value *src,
                      size_t *pos)
{
    for (size_t i = 0; i < a->len; i++) {
        if (dsl_is_ndarray(a->items[i])) {
            if (store_flat(in, a->items[i].as.l, src, pos) != 0) return -1;
        } else if (dsl_ndarray_setitem(in, a, (int64_t)i, src[(*pos)++]) != 0) {
            return -1;
        }
    }
    return 0;
}

/* The kind of a dtype as numpy's "same_kind" casting ranks them: bool, int, float. */
static int kind_of(enum dsl_dtype dt) { return dt == DSL_DT_BOOL ? 0 : float_dtype(dt) ? 2 : 1; }

int dsl_ndarray_inplace(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                        struct dsl_value b, struct dsl_value *out)
{
    struct dsl_value r;
    if (dsl_ndarray_binary(in, op, a, b, &r) != 0) return -1;
    int64_t want[DSL_ND_MAX_DIMS], have[DSL_ND_MAX_DIMS];
    int wn = dsl_ndarray_shape(a, want), hn = dsl_ndarray_shape(r, have);
    enum dsl_dtype to = (enum dsl_dtype)a.as.l->dtype, from = (enum dsl_dtype)r.as.l->dtype;
    int k = 0;
    if (hn != wn || memcmp(have, want, sizeof *have * (size_t)wn) != 0) {
        char t1[DSL_ND_MAX_DIMS * 24], t2[DSL_ND_MAX_DIMS * 24];
        shape_text_sep(t1, sizeof t1, want, wn, ",");
        shape_text_sep(t2, sizeof t2, have, hn, ",");
        k = dsl_raise(in, "ValueError",
                      "non-broadcastable output operand with shape %s doesn't match the "
                      "broadcast shape %s",
                      t1, t2);
    } else if (kind_of(from) > kind_of(to)) { /* numpy's UFuncTypeError, a TypeError */
        static const char *const ufunc[] = {[DSL_T_PLUS] = "add",
                                            [DSL_T_MINUS] = "subtract",
                                            [DSL_T_STAR] = "multiply",
                                            [DSL_T_SLASH] = "divide",
                                            [DSL_T_DSLASH] = "floor_divide",
                                            [DSL_T_PERCENT] = "remainder",
                                            [DSL_T_DSTAR] = "power"};
        k = dsl_raise(in, "TypeError",
                      "Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') with "
                      "casting rule 'same_kind'",
                      ufunc[op], dsl_dtype_name(from), dsl_dtype_name(to));
    } else {
        size_t n, pos = 0;
        struct dsl_value *flat = flat_copy(in, r, &n);
        k = flat ? store_flat(in, a.as.l, flat, &pos) : -1;
        free(flat);
    }
    dsl_value_release(r);
    if (k == 0) *out = dsl_value_retain(a);
    return k;
}

int dsl_ndarray_unary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value v,
                      struct dsl_value *out)
{
    enum dsl_dtype dt = (enum dsl_dtype)v.as.l->dtype;
    if (dt == DSL_DT_BOOL && op == DSL_T_MINUS) return bool_refused(in, op, true);
    if (dt == DSL_DT_BOOL && op == DSL_T_PLUS)
        return dsl_raise(in, "TypeError",
                         "ufunc 'positive' did not contain a loop with signature matching types "
                         "<class 'numpy.dtypes.BoolDType'> -> None");
    if (float_dtype(dt) && op == DSL_T_TILDE)
        return dsl_raise(in, "TypeError",
                         "ufunc 'invert' not supported for the input types, and the inputs "
                         "could not be safely coerced to any supported types according to the "
                         "casting rule ''safe''");
    int64_t shape[DSL_ND_MAX_DIMS];
    int nd = dsl_ndarray_shape(v, shape);
    size_t n;
    struct dsl_value *flat = flat_copy(in, v, &n);
    if (!flat) return -1;
    for (size_t i = 0; i < n; i++) {
        struct dsl_value x = flat[i];
        if (op == DSL_T_PLUS) continue;
        if (dt == DSL_DT_BOOL) /* ~ */
            flat[i] = dsl_bool(!x.as.b);
        else if (float_dtype(dt))
            flat[i] = dsl_float(-x.as.f);
        else /* - wraps, as numpy's: -INT64_MIN is INT64_MIN */
            flat[i] =
                dsl_ndarray_int(dt, op == DSL_T_MINUS ? (int64_t)(0 - (uint64_t)x.as.i) : ~x.as.i);
    }
    int r = result_of(in, dt, shape, nd, flat, out);
    free(flat);
    return r;
}

int dsl_ndarray_truth(struct dsl_interp *in, struct dsl_value v, bool *out)
{
    int64_t shape[DSL_ND_MAX_DIMS];
    int64_t size = size_of(shape, dsl_ndarray_shape(v, shape));
    if (size == 0)
        return dsl_raise(in, "ValueError",
                         "The truth value of an empty array is ambiguous. Use "
                         "`array.size > 0` to check that an array is not empty.");
    if (size > 1)
        return dsl_raise(in, "ValueError",
                         "The truth value of an array with more than one element "
                         "is ambiguous. Use a.any() or a.all()");
    while (dsl_is_ndarray(v)) v = v.as.l->items[0];
    *out = dsl_value_truthy(v);
    return 0;
}
