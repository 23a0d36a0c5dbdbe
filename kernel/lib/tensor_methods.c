/* tensor_methods.c — tensors in the language: creation builtins, operators, indexing, methods and
 * properties (see tensor_methods.h).
 *
 * Semantics are MiniTorch's (reference §3), PyTorch's where MiniTorch is silent: a number next
 * to a tensor becomes a shape-(1,) tensor on that tensor's backend and broadcasts; `a > b` is
 * LT(b, a); sum/mean/max/all keep the reduced dim and without one give shape (1,); view needs a
 * contiguous tensor; backward without a gradient needs one element. Every engine call is
 * preceded by a look at the cancel flag (the session clears it before a request), and a
 * status the engine returns becomes the exception mt_status_ename names.
 *
 * Ownership: engine calls hand back new references; each function here releases what it made
 * on every path, so an error in the middle of an expression leaks nothing. */
#include "lib/tensor_methods.h"

#include "lib/storage.h"

#include "lib/modules.h"

#include "lang/dict.h"
#include "lang/interp.h"
#include "lang/ndarray.h"
#include "lib/magics.h"
#include "render/chart.h"
#include "render/render.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct mt_ctx *ctx_of(struct dsl_interp *in) { return in->session->ctx; }

int dsl_engine_raise(struct dsl_interp *in, enum mt_status st)
{
    if (st == MT_ERR_CANCELLED) return dsl_raise(in, "KeyboardInterrupt", "interrupted");
    const char *msg = mt_ctx_error(ctx_of(in));
    if (!msg || !*msg) msg = mt_status_str(st);
    return dsl_raise(in, mt_status_ename(st), "%s", msg);
}

int dsl_engine_wait(struct dsl_interp *in)
{
    enum mt_status st = mt_ctx_wait(ctx_of(in));
    return st == MT_OK ? 0 : dsl_engine_raise(in, st);
}

/* Called before every engine op: an interrupt between two ops ends the cell at once. */
static int poll_cancel(struct dsl_interp *in)
{
    if (mt_cancel_requested()) return dsl_raise(in, "KeyboardInterrupt", "interrupted");
    return 0;
}

/* Takes an engine result: on success *out owns *t. t is passed by address so that
 * `wrap(in, op(..., &r), &r, out)` reads r after op has set it. */
static int wrap(struct dsl_interp *in, enum mt_status st, struct mt_tensor **t,
                struct dsl_value *out)
{
    if (st != MT_OK) {
        mt_tensor_release(*t); /* engine outputs stay NULL on failure; this is a safety net */
        return dsl_engine_raise(in, st);
    }
    *out = dsl_tensor(*t);
    return 0;
}

double dsl_float32_value(float f)
{
    if (!isfinite(f)) return (double)f;
    char buf[32];
    render_float32_repr(f, buf, sizeof buf);
    return strtod(buf, NULL);
}

static char *shape_text(const struct mt_tensor *t, char *buf, size_t len)
{
    return mt_shape_str(t->ndim, t->shape, buf, len);
}

#define SHAPE_BUF (MT_MAX_DIMS * 24 + 8)

/* v as a tensor: a new reference to a tensor, or a number as a shape-(1,) tensor on backend b.
 * TypeError naming `what` otherwise. */
static int as_tensor(struct dsl_interp *in, struct dsl_value v, enum mt_backend b, const char *what,
                     struct mt_tensor **out)
{
    *out = NULL;
    if (v.kind == DSL_TENSOR) {
        *out = mt_tensor_retain(v.as.t);
        return 0;
    }
    if (!dsl_is_number(v))
        return dsl_raise(in, "TypeError", "%s must be a tensor or a number, not %s", what,
                         dsl_type_name(v));
    int64_t one = 1;
    enum mt_status st = mt_full(ctx_of(in), b, 1, &one, (float)dsl_as_double(v), out);
    return st ? dsl_engine_raise(in, st) : 0;
}

/* ---- operators -------------------------------------------------------------------------- */

typedef enum mt_status (*zip_fn)(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                                 struct mt_tensor **out);
typedef enum mt_status (*map_fn)(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);

static bool tensor_or_number(struct dsl_value v)
{
    return v.kind == DSL_TENSOR || dsl_is_number(v);
}

/* Both operands as tensors on the backend of the tensor among them; two tensors on different
 * backends meet on the left one's, as MiniTorch's _ensure_tensor moves the right operand
 * (here a differentiable move, mt_to, that leaves the right tensor where it was). */
static int operands(struct dsl_interp *in, struct dsl_value a, struct dsl_value b,
                    struct mt_tensor **ta, struct mt_tensor **tb)
{
    enum mt_backend be = a.kind == DSL_TENSOR ? a.as.t->backend : b.as.t->backend;
    *tb = NULL;
    if (as_tensor(in, a, be, "left operand", ta) != 0) return -1;
    if (as_tensor(in, b, be, "right operand", tb) != 0) {
        mt_tensor_release(*ta);
        *ta = NULL;
        return -1;
    }
    if ((*tb)->backend != be) {
        struct mt_tensor *moved = NULL;
        enum mt_status st = mt_to(ctx_of(in), *tb, be, &moved);
        mt_tensor_release(*tb);
        *tb = moved;
        if (st != MT_OK) return dsl_engine_raise(in, st);
    }
    return poll_cancel(in);
}

int dsl_tensor_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                      struct dsl_value b, struct dsl_value *out)
{
    zip_fn fn = op == DSL_T_PLUS    ? mt_add
                : op == DSL_T_MINUS ? mt_sub
                : op == DSL_T_STAR  ? mt_mul
                : op == DSL_T_SLASH ? mt_div
                : op == DSL_T_AT    ? mt_matmul
                                    : NULL;
    /* @ needs two tensors: a number has no rows or columns (numpy refuses it too) */
    bool number_ok = op != DSL_T_AT;
    if (!fn || !(a.kind == DSL_TENSOR || (number_ok && dsl_is_number(a))) ||
        !(b.kind == DSL_TENSOR || (number_ok && dsl_is_number(b))))
        return dsl_raise(in, "TypeError", "unsupported operand type(s) for %s: '%s' and '%s'",
                         dsl_op_symbol(op), dsl_type_name(a), dsl_type_name(b));
    struct mt_tensor *ta, *tb, *r = NULL;
    if (operands(in, a, b, &ta, &tb) != 0) {
        mt_tensor_release(ta);
        mt_tensor_release(tb);
        return -1;
    }
    enum mt_status st = fn(ctx_of(in), ta, tb, &r);
    mt_tensor_release(ta);
    mt_tensor_release(tb);
    return wrap(in, st, &r, out);
}

/* 1 - x, or x + y: the comparisons MiniTorch lacks, built from its LT and EQ so that NaN
 * compares false everywhere (a != NaN is 1 - EQ = 1, as IEEE says). */
static enum mt_status combine(struct mt_ctx *ctx, enum dsl_tok op, struct mt_tensor *a,
                              struct mt_tensor *b, struct mt_tensor **out)
{
    struct mt_tensor *x = NULL, *y = NULL;
    enum mt_status st;
    switch (op) {
    case DSL_T_NE:
        st = mt_eq(ctx, a, b, &x);
        if (!st) {
            int64_t one = 1;
            st = mt_full(ctx, x->backend, 1, &one, 1.0f, &y);
        }
        if (!st) st = mt_sub(ctx, y, x, out);
        break;
    case DSL_T_LE: /* a < b or a == b: never both */
    case DSL_T_GE:
        st = op == DSL_T_LE ? mt_lt(ctx, a, b, &x) : mt_lt(ctx, b, a, &x);
        if (!st) st = mt_eq(ctx, a, b, &y);
        if (!st) st = mt_add(ctx, x, y, out);
        break;
    default: st = MT_ERR_INVALID; break;
    }
    mt_tensor_release(x);
    mt_tensor_release(y);
    return st;
}

int dsl_tensor_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                       struct dsl_value b, struct dsl_value *out)
{
    if (!tensor_or_number(a) || !tensor_or_number(b)) {
        if (op == DSL_T_EQ || op == DSL_T_NE) {
            bool eq = dsl_value_equal(a, b);
            *out = dsl_bool(op == DSL_T_EQ ? eq : !eq);
            return 0;
        }
        return dsl_raise(in, "TypeError", "'%s' not supported between instances of '%s' and '%s'",
                         dsl_op_symbol(op), dsl_type_name(a), dsl_type_name(b));
    }
    struct mt_tensor *ta, *tb, *r = NULL;
    if (operands(in, a, b, &ta, &tb) != 0) {
        mt_tensor_release(ta);
        mt_tensor_release(tb);
        return -1;
    }
    struct mt_ctx *ctx = ctx_of(in);
    enum mt_status st;
    switch (op) {
    case DSL_T_LT: st = mt_lt(ctx, ta, tb, &r); break;
    case DSL_T_GT: st = mt_lt(ctx, tb, ta, &r); break; /* MiniTorch: a > b is LT(b, a) */
    case DSL_T_EQ: st = mt_eq(ctx, ta, tb, &r); break;
    default: st = combine(ctx, op, ta, tb, &r); break;
    }
    mt_tensor_release(ta);
    mt_tensor_release(tb);
    return wrap(in, st, &r, out);
}

int dsl_tensor_unary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value v,
                     struct dsl_value *out)
{
    if (op == DSL_T_PLUS) {
        *out = dsl_value_retain(v);
        return 0;
    }
    if (poll_cancel(in) != 0) return -1;
    struct mt_tensor *r = NULL;
    return wrap(in, mt_neg(ctx_of(in), v.as.t, &r), &r, out);
}

/* minitorch.conv1d(input, weight) and conv2d (ndim 3 or 4): MiniTorch's Conv1dFun.apply and
 * Conv2dFun.apply on the engine's convolution, differentiable in both. Two tensors on one
 * backend: a weight on another is not moved (which of the two moves is the user's choice). */
static int conv(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret, int ndim)
{
    const char *name = ndim == 3 ? "conv1d" : "conv2d";
    for (int i = 0; i < 2; i++)
        if (a->slot[i].kind != DSL_TENSOR)
            return dsl_raise(in, "TypeError",
                             "%s() takes two tensors (input, weight); its %s is %s", name,
                             i ? "weight" : "input", dsl_type_name(a->slot[i]));
    struct mt_tensor *r = NULL;
    enum mt_status st =
        (ndim == 3 ? mt_conv1d : mt_conv2d)(ctx_of(in), a->slot[0].as.t, a->slot[1].as.t, &r);
    return wrap(in, st, &r, ret);
}

int dsl_bi_conv1d(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return conv(in, a, ret, 3);
}

int dsl_bi_conv2d(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return conv(in, a, ret, 4);
}

int dsl_tensor_abs(struct dsl_interp *in, struct dsl_value v, struct dsl_value *out)
{
    if (poll_cancel(in) != 0) return -1;
    struct mt_tensor *r = NULL;
    return wrap(in, mt_abs(ctx_of(in), v.as.t, &r), &r, out);
}

/* The value of a one-element tensor. */
static int only_element(struct dsl_interp *in, const struct mt_tensor *t, const char *what,
                        float *x)
{
    if (t->size != 1)
        return dsl_raise(in, "ValueError",
                         "%s: only one-element tensors can be converted to a number (this one "
                         "has %lld elements)",
                         what, (long long)t->size);
    int64_t zero[MT_MAX_DIMS] = {0};
    enum mt_status st = mt_tensor_get(ctx_of(in), t, t->ndim, zero, x);
    return st ? dsl_engine_raise(in, st) : 0;
}

int dsl_tensor_truth(struct dsl_interp *in, struct dsl_value v, bool *out)
{
    if (v.as.t->size != 1)
        return dsl_raise(in, "ValueError",
                         "the truth value of a tensor with %lld elements is ambiguous; reduce it "
                         "to one element first, e.g. (a == b).all() or x.sum()",
                         (long long)v.as.t->size);
    float x = 0.0f;
    if (only_element(in, v.as.t, "truth value", &x) != 0) return -1;
    *out = x != 0.0f;
    return 0;
}

/* ---- indexing --------------------------------------------------------------------------- */

/* The full index of t from the subscript values (ints, or one list of ints). */
static int read_index(struct dsl_interp *in, const struct mt_tensor *t, const struct dsl_value *ix,
                      size_t n, int64_t *index)
{
    if (n == 1 && ix[0].kind == DSL_LIST) {
        n = ix[0].as.l->len;
        ix = ix[0].as.l->items;
    }
    char shape[SHAPE_BUF];
    shape_text(t, shape, sizeof shape);
    if (n > (size_t)t->ndim)
        return dsl_raise(in, "IndexError", "too many indices for a tensor of shape %s: %zu given",
                         shape, n);
    if (n < (size_t)t->ndim)
        return dsl_raise(in, "IndexError",
                         "a tensor of shape %s needs %d indices (one per dim), %zu given", shape,
                         t->ndim, n);
    for (size_t i = 0; i < n; i++) {
        if (!dsl_is_intlike(ix[i]))
            return dsl_raise(in, "TypeError", "tensor indices must be integers, not %s",
                             dsl_type_name(ix[i]));
        int64_t k = dsl_as_int(ix[i]), len = t->shape[i];
        if (k < -len || k >= len)
            return dsl_raise(in, "IndexError",
                             "index %lld is out of bounds for dim %zu with size %lld", (long long)k,
                             i, (long long)len);
        index[i] = k < 0 ? k + len : k;
    }
    return 0;
}

int dsl_tensor_getitem(struct dsl_interp *in, struct dsl_value t, const struct dsl_value *ix,
                       size_t n, struct dsl_value *out)
{
    int64_t index[MT_MAX_DIMS];
    if (read_index(in, t.as.t, ix, n, index) != 0) return -1;
    float x = 0.0f;
    enum mt_status st = mt_tensor_get(ctx_of(in), t.as.t, t.as.t->ndim, index, &x);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *out = dsl_float(dsl_float32_value(x));
    return 0;
}

int dsl_tensor_setitem(struct dsl_interp *in, struct dsl_value t, const struct dsl_value *ix,
                       size_t n, struct dsl_value v)
{
    int64_t index[MT_MAX_DIMS];
    if (read_index(in, t.as.t, ix, n, index) != 0) return -1;
    float x;
    if (dsl_is_number(v))
        x = (float)dsl_as_double(v);
    else if (v.kind == DSL_TENSOR) {
        if (only_element(in, v.as.t, "tensor item assignment", &x) != 0) return -1;
    } else
        return dsl_raise(in, "TypeError", "can only assign a number to a tensor element, not %s",
                         dsl_type_name(v));
    enum mt_status st = mt_tensor_set(ctx_of(in), t.as.t, t.as.t->ndim, index, x);
    return st ? dsl_engine_raise(in, st) : 0;
}

/* ---- shapes and arguments --------------------------------------------------------------- */

/* Reads sizes given as ints or as one list of ints (`zeros(2, 3)`, `zeros([2, 3])`,
 * `x.view(y.shape)`). min: the smallest size allowed. */
static int read_dims(struct dsl_interp *in, const char *fn, const char *what,
                     const struct dsl_value *v, size_t n, int64_t min, int64_t *dims, int *ndim)
{
    if (n == 1 && v[0].kind == DSL_LIST) {
        n = v[0].as.l->len;
        v = v[0].as.l->items;
    }
    if (n == 0) return dsl_raise(in, "ValueError", "%s() needs at least one %s", fn, what);
    if (n > MT_MAX_DIMS)
        return dsl_raise(in, "ValueError", "%s(): %zu dims given; tensors have at most %d", fn, n,
                         MT_MAX_DIMS);
    for (size_t i = 0; i < n; i++) {
        if (!dsl_is_intlike(v[i]))
            return dsl_raise(in, "TypeError", "%s(): %ss must be integers, not %s", fn, what,
                             dsl_type_name(v[i]));
        dims[i] = dsl_as_int(v[i]);
        if (dims[i] < min)
            return dsl_raise(in, "ValueError", "%s(): %s %lld is negative", fn, what,
                             (long long)dims[i]);
    }
    *ndim = (int)n;
    return 0;
}

int dsl_backend_arg(struct dsl_interp *in, const struct dsl_args *a, int slot, const char *fn,
                    enum mt_backend *out)
{
    struct mt_ctx *ctx = ctx_of(in);
    *out = mt_ctx_backend(ctx);
    if (!a->has[slot] || a->slot[slot].kind == DSL_NONE) return 0;
    enum mt_status st;
    if (dsl_backend_object(a->slot[slot], out)) { /* minitorch.FastTensorBackend */
        st = mt_backend_check(ctx, *out);
        return st ? dsl_engine_raise(in, st) : 0;
    }
    if (a->slot[slot].kind != DSL_STR)
        return dsl_raise(in, "TypeError",
                         "%s(): backend must be \"simple\", \"fast\" or \"cuda\", not %s", fn,
                         dsl_type_name(a->slot[slot]));
    st = mt_backend_parse(ctx, a->slot[slot].as.s->data, out);
    if (!st) st = mt_backend_check(ctx, *out);
    return st ? dsl_engine_raise(in, st) : 0;
}

/* Marks a new tensor as a leaf needing gradients when slot `slot` is truthy. */
static int requires_grad_arg(struct dsl_interp *in, const struct dsl_args *a, int slot,
                             struct mt_tensor *t)
{
    if (!a->has[slot] || !dsl_value_truthy(a->slot[slot])) return 0;
    enum mt_status st = mt_tensor_requires_grad(t, true);
    return st ? dsl_engine_raise(in, st) : 0;
}

/* A dim argument: none → MT_ALL_DIMS; negative counts from the end; IndexError outside. */
static int dim_arg(struct dsl_interp *in, const struct mt_tensor *t, const struct dsl_args *a,
                   int slot, const char *fn, int *dim)
{
    *dim = MT_ALL_DIMS;
    if (!a->has[slot] || a->slot[slot].kind == DSL_NONE) return 0;
    struct dsl_value v = a->slot[slot];
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError", "%s(): dim must be an integer, not %s", fn,
                         dsl_type_name(v));
    int64_t d = dsl_as_int(v);
    if (d < -t->ndim || d >= t->ndim)
        return dsl_raise(in, "IndexError",
                         "%s(): dim %lld is out of range for a tensor with %d dims (expected "
                         "-%d to %d)",
                         fn, (long long)d, t->ndim, t->ndim, t->ndim - 1);
    *dim = (int)(d < 0 ? d + t->ndim : d);
    return 0;
}

/* ---- creation builtins ------------------------------------------------------------------ */

/* "[1][0]": the subscripts leading to an item of tensor()'s data. */
static void path_text(const int64_t *path, int depth, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < depth && used < len; i++) {
        int w = snprintf(buf + used, len - used, "[%lld]", (long long)path[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

struct fill {
    const int64_t *shape;
    int ndim;
    float *data;
    size_t k;
    int64_t path[MT_MAX_DIMS];
};

/* Copies the numbers of nested list v (at depth) into f->data, checking it is rectangular.
 * Recursion depth is at most MT_MAX_DIMS. */
static int fill_data(struct dsl_interp *in, struct fill *f, struct dsl_value v, int depth)
{
    char here[MT_MAX_DIMS * 24 + 1], first[MT_MAX_DIMS * 4 + 1];
    int64_t zeros[MT_MAX_DIMS] = {0};
    if (depth == f->ndim) {
        if (dsl_is_number(v)) {
            f->data[f->k++] = (float)dsl_as_double(v);
            if ((f->k & 0xFFFF) == 0) return poll_cancel(in);
            return 0;
        }
        path_text(f->path, depth, here, sizeof here);
        path_text(zeros, depth, first, sizeof first);
        if (v.kind == DSL_LIST)
            return dsl_raise(in, "ValueError",
                             "tensor(): ragged nested list: data%s is a list but data%s is a "
                             "number",
                             here, first);
        return dsl_raise(
            in, "TypeError", "tensor(): data%s is a %s, not a number%s", here, dsl_type_name(v),
            v.kind == DSL_TENSOR ? " (x.item() gives a one-element tensor's value)" : "");
    }
    if (v.kind != DSL_LIST || (int64_t)v.as.l->len != f->shape[depth]) {
        path_text(f->path, depth, here, sizeof here);
        path_text(zeros, depth, first, sizeof first);
        if (v.kind != DSL_LIST)
            return dsl_raise(in, "ValueError",
                             "tensor(): ragged nested list: data%s is a %s but data%s is a list",
                             here, dsl_type_name(v), first);
        return dsl_raise(in, "ValueError",
                         "tensor(): ragged nested list: data%s has %zu items but data%s has %lld",
                         here, v.as.l->len, first, (long long)f->shape[depth]);
    }
    for (size_t i = 0; i < v.as.l->len; i++) {
        f->path[depth] = (int64_t)i;
        if (fill_data(in, f, v.as.l->items[i], depth + 1) != 0) return -1;
    }
    return 0;
}

/* MiniTorch's Tensor(v) of a TensorData v: a new tensor (no history) over v's memory, on the
 * backend asked for (simple and fast share it; cuda holds a copy). */
static int tensor_over_data(struct dsl_interp *in, const struct dsl_args *a, struct mt_tensor *view,
                            struct dsl_value *ret)
{
    enum mt_backend be = view->backend;
    if (a->has[2] && a->slot[2].kind != DSL_NONE && dsl_backend_arg(in, a, 2, "tensor", &be) != 0)
        return -1;
    struct mt_tensor *t = NULL, *moved = NULL;
    enum mt_status st =
        mt_as_strided(ctx_of(in), view, view->ndim, view->shape, view->strides, 0, &t);
    if (st == MT_OK && be != t->backend) {
        st = mt_to(ctx_of(in), t, be, &moved);
        mt_tensor_release(t);
        t = moved;
    }
    if (st != MT_OK) return dsl_engine_raise(in, st);
    if (requires_grad_arg(in, a, 1, t) != 0) {
        mt_tensor_release(t);
        return -1;
    }
    *ret = dsl_tensor(t);
    return 0;
}

int dsl_bi_tensor(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value data = a->slot[0];
    struct mt_tensor *view;
    if (dsl_tensor_data_view(data, &view)) return tensor_over_data(in, a, view, ret);
    int64_t shape[MT_MAX_DIMS];
    int ndim = 0;
    /* the shape follows the first items; fill_data checks the rest agree */
    for (struct dsl_value v = data; v.kind == DSL_LIST;) {
        if (ndim == MT_MAX_DIMS)
            return dsl_raise(in, "ValueError",
                             "tensor(): lists nested more than %d deep (tensors have at most %d "
                             "dims)",
                             MT_MAX_DIMS, MT_MAX_DIMS);
        shape[ndim++] = (int64_t)v.as.l->len;
        if (v.as.l->len == 0) break;
        v = v.as.l->items[0];
    }
    enum mt_backend be;
    if (dsl_backend_arg(in, a, 2, "tensor", &be) != 0) return -1;
    struct fill f = {.shape = shape, .ndim = ndim};
    if (ndim == 0) { /* a number: shape (1,) */
        if (!dsl_is_number(data))
            return dsl_raise(in, "TypeError", "tensor(): data must be a number or a list, not %s",
                             dsl_type_name(data));
        shape[ndim++] = 1;
        f.ndim = 0; /* fill_data takes data itself as the one number */
    }
    /* the size, against the memory left to tensors before anything is allocated */
    struct mt_ctx *ctx = ctx_of(in);
    size_t limit = mt_ctx_mem_limit(ctx), used = mt_ctx_mem_used(ctx);
    size_t n = 1, left = limit > used ? limit - used : 0;
    for (int i = 0; i < ndim; i++)
        if (__builtin_mul_overflow(n, (size_t)shape[i], &n) || n > left / sizeof(float))
            return dsl_raise(in, "MemoryError",
                             "tensor(): the data is too large for the tensor memory left (%zu "
                             "bytes)",
                             left);
    f.data = malloc((n ? n : 1) * sizeof(float));
    if (!f.data) return dsl_raise_status(in, DSL_V_NOMEM);
    struct mt_tensor *t = NULL;
    int r = fill_data(in, &f, data, 0);
    if (r == 0) {
        enum mt_status st = mt_from_data(ctx, be, ndim, shape, f.data, &t);
        r = st ? dsl_engine_raise(in, st) : requires_grad_arg(in, a, 1, t);
    }
    free(f.data);
    if (r != 0) {
        mt_tensor_release(t);
        return -1;
    }
    *ret = dsl_tensor(t);
    return 0;
}

typedef enum mt_status (*create_fn)(struct mt_ctx *ctx, enum mt_backend b, int ndim,
                                    const int64_t *shape, struct mt_tensor **out);

/* zeros/ones/rand(*shape, requires_grad=false, backend=none) */
static int create(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                  const char *fn, create_fn make)
{
    int64_t shape[MT_MAX_DIMS];
    int ndim = 0;
    enum mt_backend be;
    if (read_dims(in, fn, "size", a->rest, a->nrest, 0, shape, &ndim) != 0 ||
        dsl_backend_arg(in, a, 1, fn, &be) != 0 || poll_cancel(in) != 0)
        return -1;
    struct mt_tensor *t = NULL;
    enum mt_status st = make(ctx_of(in), be, ndim, shape, &t);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    if (requires_grad_arg(in, a, 0, t) != 0) {
        mt_tensor_release(t);
        return -1;
    }
    *ret = dsl_tensor(t);
    return 0;
}

int dsl_bi_zeros(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return create(in, a, ret, "zeros", mt_zeros);
}

int dsl_bi_ones(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return create(in, a, ret, "ones", mt_ones);
}

int dsl_bi_rand(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return create(in, a, ret, "rand", mt_rand);
}

int dsl_seed_value(struct dsl_interp *in, struct dsl_value v, const char *fn, const char *what)
{
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError", "%s(): %s must be an integer, not %s", fn, what,
                         dsl_type_name(v));
    /* Python's random.seed(n) uses abs(n) */
    int64_t n = dsl_as_int(v);
    uint64_t u = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
    mt_seed(ctx_of(in), u);
    return 0;
}

int dsl_bi_seed(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (dsl_seed_value(in, a->slot[0], "seed", "n") != 0) return -1;
    *ret = dsl_none();
    return 0;
}

/* ---- methods ---------------------------------------------------------------------------- */

static struct mt_tensor *self_of(const struct dsl_args *a) { return a->self.as.t; }

static int unary_method(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                        map_fn fn)
{
    if (poll_cancel(in) != 0) return -1;
    struct mt_tensor *r = NULL;
    return wrap(in, fn(ctx_of(in), self_of(a), &r), &r, ret);
}

#define UNARY_METHOD(name)                                                                         \
    static int m_##name(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)    \
    {                                                                                              \
        return unary_method(in, a, ret, mt_##name);                                                \
    }
UNARY_METHOD(relu)
UNARY_METHOD(sigmoid)
UNARY_METHOD(log)
UNARY_METHOD(exp)
UNARY_METHOD(neg)
UNARY_METHOD(inv)
UNARY_METHOD(abs)
UNARY_METHOD(sqrt)
UNARY_METHOD(tanh)
UNARY_METHOD(contiguous)
UNARY_METHOD(detach)
#undef UNARY_METHOD

typedef enum mt_status (*reduce_fn)(struct mt_ctx *ctx, struct mt_tensor *a, int dim,
                                    struct mt_tensor **out);

static int reduce_method(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                         const char *name, reduce_fn fn)
{
    int dim;
    if (dim_arg(in, self_of(a), a, 0, name, &dim) != 0 || poll_cancel(in) != 0) return -1;
    struct mt_tensor *r = NULL;
    return wrap(in, fn(ctx_of(in), self_of(a), dim, &r), &r, ret);
}

#define REDUCE_METHOD(name)                                                                        \
    static int m_##name(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)    \
    {                                                                                              \
        return reduce_method(in, a, ret, #name, mt_##name);                                        \
    }
REDUCE_METHOD(sum)
REDUCE_METHOD(mean)
REDUCE_METHOD(max)
REDUCE_METHOD(all)
#undef REDUCE_METHOD

static int m_is_close(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct mt_tensor *other = NULL, *r = NULL;
    if (as_tensor(in, a->slot[0], self_of(a)->backend, "is_close(): other", &other) != 0) return -1;
    if (poll_cancel(in) != 0) {
        mt_tensor_release(other);
        return -1;
    }
    enum mt_status st = mt_is_close(ctx_of(in), self_of(a), other, &r);
    mt_tensor_release(other);
    return wrap(in, st, &r, ret);
}

static int m_view(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t shape[MT_MAX_DIMS];
    int ndim;
    if (read_dims(in, "view", "size", a->rest, a->nrest, -1, shape, &ndim) != 0) return -1;
    struct mt_tensor *r = NULL;
    return wrap(in, mt_view(ctx_of(in), self_of(a), ndim, shape, &r), &r, ret);
}

static int m_permute(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t order[MT_MAX_DIMS];
    int n;
    if (read_dims(in, "permute", "dim", a->rest, a->nrest, INT64_MIN, order, &n) != 0) return -1;
    struct mt_tensor *t = self_of(a);
    for (int i = 0; i < n; i++)
        if (order[i] < 0 && order[i] >= -t->ndim) order[i] += t->ndim; /* as PyTorch */
    struct mt_tensor *r = NULL;
    return wrap(in, mt_permute(ctx_of(in), t, n, order, &r), &r, ret);
}

static int m_is_contiguous(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_bool(mt_tensor_is_contiguous(self_of(a)));
    return 0;
}

static int m_item(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    float x = 0.0f;
    if (only_element(in, self_of(a), "item()", &x) != 0) return -1;
    *ret = dsl_float(dsl_float32_value(x));
    return 0;
}

static int m_backward(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct mt_tensor *t = self_of(a), *g = NULL;
    struct mt_ctx *ctx = ctx_of(in);
    enum mt_status st = MT_OK;
    if (a->has[0] && a->slot[0].kind != DSL_NONE) {
        struct dsl_value v = a->slot[0];
        if (v.kind == DSL_TENSOR)
            g = mt_tensor_retain(v.as.t);
        else if (dsl_is_number(v)) /* a number stands for a gradient of t's shape */
            st = mt_full(ctx, t->backend, t->ndim, t->shape, (float)dsl_as_double(v), &g);
        else
            return dsl_raise(in, "TypeError",
                             "backward(): grad must be a tensor, a number or none, not %s",
                             dsl_type_name(v));
    }
    if (!st && poll_cancel(in) != 0) {
        mt_tensor_release(g);
        return -1;
    }
    if (!st) st = mt_backward(ctx, t, g);
    mt_tensor_release(g);
    if (st) return dsl_engine_raise(in, st);
    *ret = dsl_none();
    return 0;
}

static int m_zero_grad(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    mt_zero_grad(self_of(a));
    *ret = dsl_none();
    return 0;
}

static int m_requires_grad_(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    bool on = !a->has[0] || dsl_value_truthy(a->slot[0]);
    enum mt_status st = mt_tensor_requires_grad(self_of(a), on);
    if (st) return dsl_engine_raise(in, st);
    *ret = dsl_value_retain(a->self); /* PyTorch returns the tensor, for chaining */
    return 0;
}

static int m_to(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    enum mt_backend be;
    if (dsl_backend_arg(in, a, 0, "to", &be) != 0 || poll_cancel(in) != 0) return -1;
    struct mt_tensor *r = NULL;
    return wrap(in, mt_to(ctx_of(in), self_of(a), be, &r), &r, ret);
}

/* t.to_cuda_(): MiniTorch moves a tensor's own storage to the GPU, so every name for it now
 * holds a cuda tensor. */
static int m_to_cuda_(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    enum mt_status st = mt_move(ctx_of(in), self_of(a), MT_BACKEND_CUDA);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *ret = dsl_none();
    return 0;
}

/* t.zeros(shape=None): MiniTorch's zeros on t's backend, of t's shape by default; the course's
 * ops make their outputs with it (out = a.zeros(c_shape)). */
/* MiniTorch's t._ensure_tensor(b): a number as a tensor of one value on t's backend (what
 * Module 4's max passes Max.apply for its dim), a tensor as itself. */
static int m_ensure_tensor(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value b = a->slot[0];
    if (b.kind == DSL_TENSOR) {
        *ret = dsl_value_retain(b);
        return 0;
    }
    if (!dsl_is_number(b))
        return dsl_raise(in, "TypeError", "_ensure_tensor(): a number or a tensor, not %s",
                         dsl_type_name(b));
    const int64_t one = 1;
    struct mt_tensor *r = NULL;
    enum mt_status st =
        mt_full(ctx_of(in), self_of(a)->backend, 1, &one, (float)dsl_as_double(b), &r);
    return wrap(in, st, &r, ret);
}

static int m_zeros(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct mt_tensor *t = self_of(a);
    int64_t shape[MT_MAX_DIMS];
    int ndim = t->ndim;
    memcpy(shape, t->shape, sizeof shape);
    if (a->has[0] && a->slot[0].kind != DSL_NONE &&
        read_dims(in, "zeros", "size", &a->slot[0], 1, 0, shape, &ndim) != 0)
        return -1;
    struct mt_tensor *r = NULL;
    enum mt_status st = mt_zeros(ctx_of(in), t->backend, ndim, shape, &r);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *ret = dsl_tensor(r);
    return 0;
}

/* The nested list of dims [d, ndim) starting at element *k of vals. Depth <= MT_MAX_DIMS. */
static int nested_list(struct dsl_interp *in, const struct mt_tensor *t, const float *vals, int d,
                       size_t *k, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new((size_t)t->shape[d]);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_JSON;
    struct dsl_value lv = {.kind = DSL_LIST, .as.l = l};
    for (int64_t i = 0; i < t->shape[d]; i++) {
        struct dsl_value item;
        if (d == t->ndim - 1) {
            item = dsl_float(dsl_float32_value(vals[(*k)++]));
            if ((*k & 0xFFFF) == 0 && poll_cancel(in) != 0) {
                dsl_value_release(lv);
                return -1;
            }
        } else if (nested_list(in, t, vals, d + 1, k, &item) != 0) {
            dsl_value_release(lv);
            return -1;
        }
        int st = dsl_list_push(l, item);
        if (st != 0) {
            dsl_value_release(lv);
            return dsl_raise_status(in, st);
        }
    }
    *out = lv;
    return 0;
}

/* heatmap(t, title=none): a picture of a small matrix or vector (render/chart.h). */
#define HEATMAP_MAX_CELLS 10000
int dsl_bi_heatmap(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    char shape[160], title[200];
    if (a->slot[0].kind != DSL_TENSOR)
        return dsl_raise(in, "TypeError", "heatmap() draws a tensor, not %s",
                         dsl_type_name(a->slot[0]));
    if (a->has[1] && a->slot[1].kind != DSL_STR && a->slot[1].kind != DSL_NONE)
        return dsl_raise(in, "TypeError", "heatmap(): title must be a string, not %s",
                         dsl_type_name(a->slot[1]));
    const struct mt_tensor *t = a->slot[0].as.t;
    mt_shape_str(t->ndim, t->shape, shape, sizeof shape);
    if (t->ndim > 2)
        return dsl_raise(in, "ShapeError",
                         "heatmap() draws 1-D and 2-D tensors; this one has shape %s (view, "
                         "permute or sum it down to two dims first)",
                         shape);
    const int64_t rows = t->ndim == 2 ? t->shape[0] : 1, cols = t->shape[t->ndim - 1];
    if (rows * cols == 0 || rows * cols > HEATMAP_MAX_CELLS)
        return dsl_raise(in, "ValueError",
                         "heatmap() draws 1 to %d cells; a tensor of shape %s has %lld",
                         HEATMAP_MAX_CELLS, shape, (long long)(rows * cols));
    float *vals = malloc((size_t)(rows * cols) * sizeof *vals);
    if (!vals) return dsl_raise_status(in, DSL_V_NOMEM);
    enum mt_status st = mt_tensor_copy_out(t, vals);
    if (st != MT_OK) {
        free(vals);
        return dsl_engine_raise(in, st);
    }
    if (a->has[1] && a->slot[1].kind == DSL_STR)
        snprintf(title, sizeof title, "%s", a->slot[1].as.s->data);
    else
        snprintf(title, sizeof title, "tensor of shape %s", shape);
    struct chart_heatmap c = {.title = title,
                              .row_title = t->ndim == 2 ? "dim 0" : NULL,
                              .col_title = t->ndim == 2 ? "dim 1" : "dim 0",
                              .rows = (size_t)rows,
                              .cols = (size_t)cols,
                              .values = vals};
    json_t *bundle = chart_heatmap_bundle(dsl_plot_renderer(in->session), &c);
    free(vals);
    if (!bundle) return dsl_raise_status(in, DSL_V_NOMEM);
    dsl_display(in, bundle, NULL, false);
    json_decref(bundle);
    *ret = dsl_none();
    return 0;
}

/* line_chart(x, series, title=none, x_title="x", y_title=none): lines of numbers a program
 * computed (a function over a range), drawn as compare's and timing's are (render/chart.h). */
#define LINE_CHART_MAX_POINTS 2000
#define LINE_CHART_MAX_SERIES 8

/* The numbers of a list or tuple of n numbers (n = 0: any length from 1 to the maximum), into
 * out; what is wrong with it, or NULL. */
static const char *chart_numbers(struct dsl_value v, size_t *n, double *out)
{
    if (v.kind != DSL_LIST) return "must be a list or tuple of numbers";
    if (v.as.l->len == 0 || v.as.l->len > LINE_CHART_MAX_POINTS)
        return "must hold 1 to 2000 numbers";
    if (*n && v.as.l->len != *n) return "must hold as many numbers as x";
    for (size_t i = 0; i < v.as.l->len; i++) {
        if (!dsl_is_number(v.as.l->items[i])) return "must be a list or tuple of numbers";
        out[i] = dsl_as_double(v.as.l->items[i]);
    }
    *n = v.as.l->len;
    return NULL;
}

int dsl_bi_line_chart(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const char *text[3] = {NULL, "x", NULL}; /* title, x_title, y_title: none, none */
    static const char *const param[3] = {"title", "x_title", "y_title"};
    for (int k = 0; k < 3; k++) {
        struct dsl_value v = a->slot[2 + k];
        if (!a->has[2 + k] || v.kind == DSL_NONE) continue;
        if (v.kind != DSL_STR)
            return dsl_raise(in, "TypeError", "line_chart(): %s must be a string, not %s", param[k],
                             dsl_type_name(v));
        text[k] = v.as.s->data;
    }
    struct dsl_value series = a->slot[1];
    if (series.kind != DSL_DICT || series.as.d->len == 0 ||
        series.as.d->len > LINE_CHART_MAX_SERIES)
        return dsl_raise(in, "TypeError",
                         "line_chart(): series must be a dict of 1 to %d lines, each a name and "
                         "its y values ({\"relu\": ys}), not %s",
                         LINE_CHART_MAX_SERIES, dsl_type_name(series));
    size_t n = 0, ns = 0;
    const char *names[LINE_CHART_MAX_SERIES];
    double *x = malloc(sizeof *x * LINE_CHART_MAX_POINTS * (1 + LINE_CHART_MAX_SERIES));
    if (!x) return dsl_raise_status(in, DSL_V_NOMEM);
    double *y = x + LINE_CHART_MAX_POINTS;
    const char *bad = chart_numbers(a->slot[0], &n, x);
    if (bad) {
        free(x);
        return dsl_raise(in, a->slot[0].kind == DSL_LIST ? "ValueError" : "TypeError",
                         "line_chart(): x %s", bad);
    }
    const struct dsl_dict *d = series.as.d;
    for (size_t i = 0; i < d->n; i++) {
        const struct dsl_dict_entry *e = &d->entries[i];
        if (!e->live) continue;
        if (e->key.kind != DSL_STR) {
            free(x);
            return dsl_raise(in, "TypeError",
                             "line_chart(): a line's name must be a string, "
                             "not %s",
                             dsl_type_name(e->key));
        }
        names[ns] = e->key.as.s->data;
        bad = chart_numbers(e->value, &n, y + ns * n);
        if (bad) {
            free(x);
            return dsl_raise(in, e->value.kind == DSL_LIST ? "ValueError" : "TypeError",
                             "line_chart(): series[\"%s\"] %s", names[ns], bad);
        }
        ns++;
    }
    struct chart_lines c = {.title = text[0],
                            .x_title = text[1],
                            .y_title = text[2],
                            .series_title = ns > 1 ? "" : NULL,
                            .nseries = ns,
                            .npoints = n,
                            .series = names,
                            .x = x,
                            .y = y,
                            .dense = n > 20};
    json_t *bundle = chart_lines_bundle(dsl_plot_renderer(in->session), &c);
    free(x);
    if (!bundle) return dsl_raise_status(in, DSL_V_NOMEM);
    dsl_display(in, bundle, NULL, false);
    json_decref(bundle);
    *ret = dsl_none();
    return 0;
}

static int m_tolist(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct mt_tensor *t = self_of(a);
    if ((uint64_t)t->size > DSL_MAX_LIST_LEN) return dsl_raise_status(in, DSL_V_TOOBIG);
    float *vals = malloc((size_t)(t->size ? t->size : 1) * sizeof *vals);
    if (!vals) return dsl_raise_status(in, DSL_V_NOMEM);
    enum mt_status st = mt_tensor_copy_out(t, vals);
    if (st != MT_OK) {
        free(vals);
        return dsl_engine_raise(in, st);
    }
    size_t k = 0;
    int r = nested_list(in, t, vals, 0, &k, ret);
    free(vals);
    return r;
}

/* MiniTorch's to_numpy: a float64 array of the values in the tensor's shape. */
static int m_to_numpy(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value l;
    if (m_tolist(in, a, &l) != 0) return -1;
    if (l.kind != DSL_LIST) return *ret = l, 0; /* a tensor of no dimensions: its number */
    int r = dsl_ndarray_from(in, l, DSL_DT_FLOAT64, ret);
    dsl_value_release(l);
    return r;
}

/* ---- properties ------------------------------------------------------------------------- */

/* A tuple-style list of n ints. */
int dsl_int_tuple(struct dsl_interp *in, const int64_t *v, int n, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new((size_t)n);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    for (int i = 0; i < n; i++) dsl_list_push(l, dsl_int(v[i])); /* room reserved: cannot fail */
    out->kind = DSL_LIST;
    out->as.l = l;
    return 0;
}

static int p_shape(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_int_tuple(in, self_of(a)->shape, self_of(a)->ndim, ret);
}

static int p_strides(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_int_tuple(in, self_of(a)->strides, self_of(a)->ndim, ret);
}

static int p_size(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_int(self_of(a)->size);
    return 0;
}

static int p_dims(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_int(self_of(a)->ndim);
    return 0;
}

static int p_grad(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    struct mt_tensor *g = self_of(a)->grad;
    *ret = g ? dsl_tensor(mt_tensor_retain(g)) : dsl_none();
    return 0;
}

/* t.requires_grad(): a method, as in MiniTorch (whose Tensor answers whether it has a history),
 * so that MiniTorch's `if v.requires_grad():` runs as written. */
static int m_requires_grad(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_bool(self_of(a)->requires_grad);
    return 0;
}

static int p_backend(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const char *name = mt_backend_name(self_of(a)->backend);
    int st = dsl_str_value(name, strlen(name), ret);
    return st ? dsl_raise_status(in, st) : 0;
}

/* ---- the tables ------------------------------------------------------------------------- */

static const char *const dim_params[] = {"dim", NULL};
static const char *const other_params[] = {"other", NULL};
static const char *const grad_params[] = {"grad", NULL};
static const char *const flag_params[] = {"requires_grad", NULL};
static const char *const backend_params[] = {"backend", NULL};
static const char *const shape_params[] = {"shape", NULL};

const struct dsl_builtin dsl_tensor_methods[] = {
    {"_ensure_tensor", "tensor._ensure_tensor(b)", 1, 1, other_params, m_ensure_tensor,
     "MiniTorch's helper: a number b as a tensor of one value on this tensor's backend, a tensor "
     "as itself."},
    {"abs", "tensor.abs()", 0, 0, NULL, m_abs,
     "Elementwise absolute value |x|, a new tensor. Gradient: sign(x) (0 at x = 0)."},
    {"all", "tensor.all(dim=none)", 0, 1, dim_params, m_all,
     "The product of the elements along dim (1.0 when all are non-zero for 0/1 tensors), "
     "keeping dim with size 1; without dim, over every element into shape (1,). Use "
     "a.is_close(b).all() to test that two tensors agree."},
    {"backward", "tensor.backward(grad=none)", 0, 1, grad_params, m_backward,
     "Backpropagates from this tensor: every leaf with requires_grad gets its gradient added "
     "to .grad. Without grad the tensor must have one element (its gradient is 1); otherwise "
     "grad is a tensor of this shape (or a number filling it)."},
    {"contiguous", "tensor.contiguous()", 0, 0, NULL, m_contiguous,
     "A row-major copy (this tensor itself when already contiguous); needed before view() "
     "on a permuted tensor. Gradients flow through it."},
    {"detach", "tensor.detach()", 0, 0, NULL, m_detach,
     "The same values (shared storage) without autodiff history and with requires_grad "
     "false."},
    {"exp", "tensor.exp()", 0, 0, NULL, m_exp,
     "Elementwise e**x, a new tensor (MiniTorch's Exp). Gradient: e**x."},
    {"inv", "tensor.inv()", 0, 0, NULL, m_inv,
     "Elementwise 1/x, a new tensor (MiniTorch's Inv; inf at 0). Gradient: -1/x**2."},
    {"is_close", "tensor.is_close(other)", 1, 1, other_params, m_is_close,
     "1.0 where |x - other| < 1e-2, else 0.0 (MiniTorch's tolerance), broadcasting; other may "
     "be a number. No gradient."},
    {"is_contiguous", "tensor.is_contiguous()", 0, 0, NULL, m_is_contiguous,
     "true when the elements are laid out row-major (view() needs that)."},
    {"item", "tensor.item()", 0, 0, NULL, m_item,
     "The value of a one-element tensor as a float; ValueError for other sizes."},
    {"log", "tensor.log()", 0, 0, NULL, m_log,
     "Elementwise natural logarithm, a new tensor (MiniTorch's Log; -inf at 0, nan below). "
     "Gradient: 1/x."},
    {"max", "tensor.max(dim=none)", 0, 1, dim_params, m_max,
     "The largest element along dim, keeping dim with size 1; without dim, of every element "
     "into shape (1,). The gradient goes to every element equal to the max."},
    {"mean", "tensor.mean(dim=none)", 0, 1, dim_params, m_mean,
     "The mean along dim, keeping dim with size 1; without dim, of every element into shape "
     "(1,)."},
    {"neg", "tensor.neg()", 0, 0, NULL, m_neg,
     "Elementwise -x, a new tensor; the same as the unary minus -t. Gradient: -1."},
    {"permute", "tensor.permute(*order)", 1, -1, NULL, m_permute,
     "The same storage with the dims reordered: x.permute(1, 0) transposes a matrix. The "
     "result is usually not contiguous."},
    {"relu", "tensor.relu()", 0, 0, NULL, m_relu,
     "Elementwise max(x, 0), a new tensor (MiniTorch's ReLU). Gradient: 1 where x > 0, else 0."},
    {"requires_grad", "tensor.requires_grad()", 0, 0, NULL, m_requires_grad,
     "Whether gradients flow to this tensor (a leaf marked with requires_grad_(True), or a "
     "tensor computed from one): MiniTorch's method."},
    {"requires_grad_", "tensor.requires_grad_(requires_grad=true)", 0, 1, flag_params,
     m_requires_grad_,
     "Marks this leaf tensor as needing gradients (or not) and returns it; "
     "x.requires_grad() then says true."},
    {"sigmoid", "tensor.sigmoid()", 0, 0, NULL, m_sigmoid,
     "Elementwise 1 / (1 + e**-x), a new tensor with values in [0, 1] (MiniTorch's Sigmoid). "
     "Gradient: s * (1 - s) where s is the result."},
    {"sqrt", "tensor.sqrt()", 0, 0, NULL, m_sqrt,
     "Elementwise square root, a new tensor (nan below 0). Gradient: 0.5 / sqrt(x)."},
    {"sum", "tensor.sum(dim=none)", 0, 1, dim_params, m_sum,
     "The sum along dim, keeping dim with size 1 (MiniTorch); without dim, of every element "
     "into shape (1,)."},
    {"tanh", "tensor.tanh()", 0, 0, NULL, m_tanh,
     "Elementwise hyperbolic tangent, a new tensor with values in [-1, 1]. Gradient: "
     "1 - tanh(x)**2."},
    {"to", "tensor.to(backend)", 1, 1, backend_params, m_to,
     "The same values on another backend: \"simple\", \"fast\" or \"cuda\" (simple and fast "
     "share memory, so nothing is copied between them)."},
    {"to_cuda_", "tensor.to_cuda_()", 0, 0, NULL, m_to_cuda_,
     "Moves this tensor itself to the GPU (MiniTorch's to_cuda_()): every name for it then "
     "holds a cuda tensor, its gradient too. Only a tensor without autodiff history moves; "
     ".to(\"cuda\") gives a copy instead. RuntimeError where no GPU is."},
    {"to_numpy", "tensor.to_numpy()", 0, 0, NULL, m_to_numpy,
     "MiniTorch's array of the values: a numpy float64 array of the tensor's shape (a copy; "
     "tensor(t.to_numpy()) gives the values back)."},
    {"tuple", "tensor.tuple()", 0, 0, NULL, dsl_tensor_tuple,
     "(storage, shape, strides), as MiniTorch's t.tuple(): what the course's kernels take for "
     "one tensor (f(*out.tuple(), *a.tuple())). The storage is the tensor's memory, read and "
     "written in place; help(t.tuple()[0]) says more."},
    {"tolist", "tensor.tolist()", 0, 0, NULL, m_tolist,
     "The elements as nested lists of floats, shown as JSON (NaN and Infinity spelled as "
     "json.loads reads them) with enough digits to give back the same float32 values."},
    {"view", "tensor.view(*shape)", 1, -1, NULL, m_view,
     "The same storage seen with another shape of the same size (one size may be -1). The "
     "tensor must be contiguous: call contiguous() first after permute()."},
    {"zero_grad", "tensor.zero_grad()", 0, 0, NULL, m_zero_grad,
     "Forgets the accumulated gradient (grad becomes none)."},
    {"zero_grad_", "tensor.zero_grad_()", 0, 0, NULL, m_zero_grad,
     "MiniTorch's name for zero_grad(): grad becomes none."},
    {"zeros", "tensor.zeros(shape=none)", 0, 1, shape_params, m_zeros,
     "A new tensor of zeros on this tensor's backend, of its shape or of `shape` (MiniTorch's "
     "t.zeros(shape)): what the course's ops make their outputs with."},
};
const size_t dsl_tensor_method_count = sizeof dsl_tensor_methods / sizeof dsl_tensor_methods[0];

const struct dsl_builtin dsl_tensor_props[] = {
    {"_tensor", "tensor._tensor", 0, 0, NULL, dsl_tensor_data_prop,
     "The tensor's TensorData, as MiniTorch's t._tensor: _storage (its memory, read and "
     "written in place), shape, strides, tuple(), index(idx)."},
    {"backend", "tensor.backend", 0, 0, NULL, p_backend,
     "The backend ops on this tensor run on: \"simple\", \"fast\" or \"cuda\"."},
    {"dims", "tensor.dims", 0, 0, NULL, p_dims,
     "The number of dims, an int: len(x.shape) (PyTorch's x.dim())."},
    {"grad", "tensor.grad", 0, 0, NULL, p_grad,
     "The gradient accumulated by backward() for a leaf with requires_grad, or none. "
     "Assigning none forgets it."},
    {"shape", "tensor.shape", 0, 0, NULL, p_shape,
     "The sizes of the dims, shown as a tuple: (2, 3). len(x.shape) and x.shape[0] work as on "
     "a list."},
    {"size", "tensor.size", 0, 0, NULL, p_size, "The number of elements (an int, as MiniTorch)."},
    {"strides", "tensor.strides", 0, 0, NULL, p_strides,
     "Elements to step in storage for one step along each dim, as a tuple."},
};
const size_t dsl_tensor_prop_count = sizeof dsl_tensor_props / sizeof dsl_tensor_props[0];

const struct dsl_builtin *dsl_tensor_attr_find(const char *name, bool *is_prop)
{
    for (size_t i = 0; i < dsl_tensor_method_count; i++)
        if (strcmp(dsl_tensor_methods[i].name, name) == 0) {
            if (is_prop) *is_prop = false;
            return &dsl_tensor_methods[i];
        }
    for (size_t i = 0; i < dsl_tensor_prop_count; i++)
        if (strcmp(dsl_tensor_props[i].name, name) == 0) {
            if (is_prop) *is_prop = true;
            return &dsl_tensor_props[i];
        }
    return NULL;
}

int dsl_tensor_help(struct render_buf *b)
{
    render_buf_puts(b, dsl_kind_doc(DSL_TENSOR));
    render_buf_puts(b, "\n\nMethods (help(x.name) tells more):\n");
    for (size_t i = 0; i < dsl_tensor_method_count; i++)
        render_buf_printf(b, "  %s\n", dsl_tensor_methods[i].signature);
    render_buf_puts(b, "\nProperties:\n");
    for (size_t i = 0; i < dsl_tensor_prop_count; i++)
        render_buf_printf(b, "  %-22s %s\n", dsl_tensor_props[i].signature,
                          dsl_tensor_props[i].doc);
    return b->nomem || b->over ? -1 : 0;
}

/* The attribute closest to a misspelt name, or NULL. */
static const char *suggest_attr(const char *name)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (int table = 0; table < 2; table++) {
        const struct dsl_builtin *rows = table ? dsl_tensor_props : dsl_tensor_methods;
        size_t n = table ? dsl_tensor_prop_count : dsl_tensor_method_count;
        for (size_t i = 0; i < n; i++) {
            size_t d = dsl_edit_distance(name, rows[i].name);
            size_t allowed = strlen(name) <= 4 ? 1 : 2; /* short names: one typo at most */
            if (d <= allowed && d < best_d) {
                best = rows[i].name;
                best_d = d;
            }
        }
    }
    return best;
}

static int no_attribute(struct dsl_interp *in, const char *name)
{
    const char *hint = suggest_attr(name);
    if (hint)
        return dsl_raise(in, "AttributeError",
                         "'tensor' object has no attribute '%s', did you mean '%s'?", name, hint);
    return dsl_raise(in, "AttributeError",
                     "'tensor' object has no attribute '%s' (help(x) lists them)", name);
}

int dsl_tensor_getattr(struct dsl_interp *in, struct dsl_value t, const char *name,
                       struct dsl_value *out)
{
    bool prop = false;
    const struct dsl_builtin *fn = dsl_tensor_attr_find(name, &prop);
    if (!fn) return no_attribute(in, name);
    if (prop) {
        struct dsl_args args;
        memset(&args, 0, sizeof args);
        args.self = t;
        return fn->fn(in, &args, out);
    }
    int st = dsl_method_value(fn, t, out);
    return st ? dsl_raise_status(in, st) : 0;
}

int dsl_tensor_setattr(struct dsl_interp *in, struct dsl_value t, const char *name,
                       struct dsl_value v)
{
    if (strcmp(name, "requires_grad") == 0) /* MiniTorch's is a method: one name, one meaning */
        return dsl_raise(in, "AttributeError",
                         "'tensor' object attribute 'requires_grad' is a method (x.requires_grad() "
                         "says whether it requires grad): set it with x.requires_grad_(%s)",
                         v.kind == DSL_BOOL && !v.as.b ? "False" : "True");
    if (strcmp(name, "grad") == 0) {
        if (v.kind != DSL_NONE)
            return dsl_raise(in, "TypeError",
                             "grad can only be set to none (backward() computes it)");
        mt_zero_grad(t.as.t);
        return 0;
    }
    bool prop = false;
    if (!dsl_tensor_attr_find(name, &prop)) return no_attribute(in, name);
    if (prop)
        return dsl_raise(in, "AttributeError", "property '%s' of 'tensor' object has no setter",
                         name);
    return dsl_raise(in, "AttributeError", "'tensor' object attribute '%s' is read-only", name);
}
