/* ops.c — the raw ops' front door: argument checks, result shapes, outputs, diagnostics.
 *
 * Every map/zip/reduce/matmul enters here, is checked once (backends, broadcastable shapes,
 * dims, inner sizes), gets its output allocated, and is handed to the tensor's backend through
 * its kernel table. Backends can then stay pure loops. When the diagnostics hook is set, the
 * op is timed and described (shapes, bytes, FLOPs; the backend adds the path it took). */
#include "internal.h"

#include <string.h>

static const char *const map_names[] = {
    [MT_MAP_NEG] = "neg",   [MT_MAP_ID] = "id",           [MT_MAP_INV] = "inv",
    [MT_MAP_RELU] = "relu", [MT_MAP_SIGMOID] = "sigmoid", [MT_MAP_LOG] = "log",
    [MT_MAP_EXP] = "exp",   [MT_MAP_ABS] = "abs",         [MT_MAP_SQRT] = "sqrt",
    [MT_MAP_TANH] = "tanh",
};
_Static_assert(sizeof map_names / sizeof map_names[0] == MT_MAP_COUNT, "one name per map op");

static const char *const zip_names[] = {
    [MT_ZIP_ADD] = "add",
    [MT_ZIP_SUB] = "sub",
    [MT_ZIP_MUL] = "mul",
    [MT_ZIP_DIV] = "div",
    [MT_ZIP_LT] = "lt",
    [MT_ZIP_GT] = "gt",
    [MT_ZIP_EQ] = "eq",
    [MT_ZIP_IS_CLOSE] = "is_close",
    [MT_ZIP_MAX] = "max",
    [MT_ZIP_RELU_BACK] = "relu_back",
    [MT_ZIP_LOG_BACK] = "log_back",
    [MT_ZIP_INV_BACK] = "inv_back",
};
_Static_assert(sizeof zip_names / sizeof zip_names[0] == MT_ZIP_COUNT, "one name per zip op");

static const char *const reduce_names[] = {
    [MT_RED_SUM] = "sum",
    [MT_RED_PROD] = "prod",
    [MT_RED_MAX] = "max",
    [MT_RED_MEAN] = "mean",
};
_Static_assert(sizeof reduce_names / sizeof reduce_names[0] == MT_RED_COUNT,
               "one name per reduce op");

const char *mt_map_name(enum mt_map_op op)
{
    return (unsigned)op < MT_MAP_COUNT ? map_names[op] : "unknown";
}
const char *mt_zip_name(enum mt_zip_op op)
{
    return (unsigned)op < MT_ZIP_COUNT ? zip_names[op] : "unknown";
}
const char *mt_reduce_name(enum mt_reduce_op op)
{
    return (unsigned)op < MT_RED_COUNT ? reduce_names[op] : "unknown";
}

/* All tensors of one op on one backend that can run here. */
static enum mt_status same_backend(struct mt_ctx *ctx, const char *op, const struct mt_tensor *a,
                                   const struct mt_tensor *b)
{
    if (b && a->backend != b->backend)
        return mt_fail(ctx, MT_ERR_BACKEND,
                       "%s: the operands are on different backends (%s and %s); move one with "
                       "to(\"%s\")",
                       op, mt_backend_name(a->backend), mt_backend_name(b->backend),
                       mt_backend_name(a->backend));
    return mt_backend_check(ctx, a->backend);
}

static void diag_begin(struct mt_diag *d, const char *op, const struct mt_tensor *a,
                       const struct mt_tensor *b)
{
    memset(d, 0, sizeof *d);
    d->op = op;
    d->backend = a->backend;
    d->nin = b ? 2 : 1;
    d->in_ndim[0] = a->ndim;
    memcpy(d->in_shape[0], a->shape, sizeof a->shape);
    memcpy(d->in_strides[0], a->strides, sizeof a->strides);
    if (b) {
        d->in_ndim[1] = b->ndim;
        memcpy(d->in_shape[1], b->shape, sizeof b->shape);
        memcpy(d->in_strides[1], b->strides, sizeof b->strides);
    }
    d->path = "";
    d->threads = 1;
    d->vec_width = 1;
}

/* With the diagnostics hook set, a short op on a CPU backend runs again: up to DIAG_RUNS runs
 * in all, while they total under DIAG_REPEAT_NS, and the time reported is their median, with
 * the fastest and the slowest. One-time costs of a first call (fresh pages, waking threads)
 * or a neighbour's burst then do not decide the figure, at a cost of 20 ms per op at most.
 * Running again is safe where the output shares no storage with an input (the front doors have
 * made sure it overlaps none, alias.c, but map and zip may write in place, x = f(x), which a
 * second run would apply twice): every backend's op writes all of its output. A backend whose
 * table says it is not repeatable runs once (internal.h). */
#define DIAG_RUNS 5
#define DIAG_REPEAT_NS 20000000

struct diag_runs {
    int64_t ns[DIAG_RUNS];
    int n;
    int64_t t, total;
    bool again; /* whether the op may run again */
};

static void diag_runs_start(struct diag_runs *r, const struct mt_tensor *out,
                            const struct mt_tensor *a, const struct mt_tensor *b)
{
    r->again = mt_backend_ops_of(out->backend)->repeatable && out->storage != a->storage &&
               (!b || out->storage != b->storage);
    r->n = 0;
    r->total = 0;
    r->t = mt_now_ns();
}

/* Records the run that just ended; true when the op should run again. */
static bool diag_again(struct diag_runs *r)
{
    int64_t now = mt_now_ns();
    r->ns[r->n++] = now - r->t;
    r->total += now - r->t;
    r->t = now;
    return r->again && r->n < DIAG_RUNS && r->total < DIAG_REPEAT_NS;
}

static void diag_end(struct mt_ctx *ctx, struct mt_diag *d, const struct mt_tensor *out,
                     double bytes, double flops, struct diag_runs *r)
{
    for (int i = 1; i < r->n; i++) /* a few runs: insertion sort */
        for (int j = i; j > 0 && r->ns[j] < r->ns[j - 1]; j--) {
            int64_t t = r->ns[j];
            r->ns[j] = r->ns[j - 1];
            r->ns[j - 1] = t;
        }
    d->runs = r->n;
    d->ns = r->n % 2 ? r->ns[r->n / 2] : (r->ns[r->n / 2 - 1] + r->ns[r->n / 2]) / 2;
    d->ns_min = r->ns[0];
    d->ns_max = r->ns[r->n - 1];
    d->out_ndim = out->ndim;
    memcpy(d->out_shape, out->shape, sizeof out->shape);
    memcpy(d->out_strides, out->strides, sizeof out->strides);
    d->bytes = bytes;
    d->flops = flops;
    ctx->diag(ctx->diag_user, d);
}

/* A loop, not memcmp: shapes have a few dims, and a tiny op counts every call it makes. */
static inline bool same_shape(int na, const int64_t *a, int nb, const int64_t *b)
{
    if (na != nb) return false;
    for (int i = 0; i < na; i++)
        if (a[i] != b[i]) return false;
    return true;
}

/* prepare_out's errors and allocation, out of line. */
static enum mt_status prepare_out_slow(struct mt_ctx *ctx, const char *op, enum mt_backend b,
                                       int ndim, const int64_t *shape, struct mt_tensor **out,
                                       bool *made)
{
    if (*out) {
        struct mt_tensor *o = *out;
        char s1[160], s2[160];
        if (o->backend != b)
            return mt_fail(ctx, MT_ERR_BACKEND, "%s: the output is on %s, the inputs on %s", op,
                           mt_backend_name(o->backend), mt_backend_name(b));
        if (!same_shape(o->ndim, o->shape, ndim, shape))
            return mt_fail(ctx, MT_ERR_SHAPE, "%s: the output has shape %s, the result %s", op,
                           mt_shape_str(o->ndim, o->shape, s1, sizeof s1),
                           mt_shape_str(ndim, shape, s2, sizeof s2));
        return MT_OK;
    }
    enum mt_status st = mt_empty(ctx, b, ndim, shape, out);
    *made = st == MT_OK;
    return st;
}

/* Either checks a caller-provided output against `shape` or allocates a new one. The check of
 * a fitting output is inline: it is the whole front door of a tiny op written into `out`. */
static inline enum mt_status prepare_out(struct mt_ctx *ctx, const char *op, enum mt_backend b,
                                         int ndim, const int64_t *shape, struct mt_tensor **out,
                                         bool *made)
{
    *made = false;
    if (*out && (*out)->backend == b && same_shape((*out)->ndim, (*out)->shape, ndim, shape))
        return mt_check_out(ctx, op, *out);
    return prepare_out_slow(ctx, op, b, ndim, shape, out, made);
}

/* Undoes prepare_out after a failed kernel. */
static enum mt_status fail_out(enum mt_status st, struct mt_tensor **out, bool made)
{
    if (made) {
        mt_tensor_release(*out);
        *out = NULL;
    }
    return st;
}

/* The kernel call of one raw op: the table entry and its arguments. */
enum raw_kind { RAW_MAP, RAW_ZIP, RAW_REDUCE, RAW_MATMUL, RAW_CONV };
struct raw_call {
    enum raw_kind kind;
    int op;                /* the map, zip or reduce op; conv's reverse flag */
    int dim;               /* reduce's */
    struct mt_tensor *out; /* what the kernel writes: the output, or matmul's and conv's view */
    const struct mt_tensor *a, *b;
};

static inline enum mt_status raw_kernel(struct mt_ctx *ctx, const struct mt_backend_ops *ops,
                                        const struct raw_call *c, struct mt_diag *d)
{
    switch (c->kind) {
    case RAW_MAP: return ops->map(ctx, (enum mt_map_op)c->op, c->out, c->a, d);
    case RAW_ZIP: return ops->zip(ctx, (enum mt_zip_op)c->op, c->out, c->a, c->b, d);
    case RAW_REDUCE: return ops->reduce(ctx, (enum mt_reduce_op)c->op, c->out, c->a, c->dim, d);
    case RAW_MATMUL: return ops->matmul(ctx, c->out, c->a, c->b, d);
    case RAW_CONV: /* a host backend without its own: the reference loops (mt_conv_raw) */
        return (ops->conv ? ops->conv : mt_simple_ops.conv)(ctx, c->out, c->a, c->b, c->op != 0, d);
    }
    return MT_ERR_INVALID; /* not reached: every kind is above */
}

/* The end of every raw op's front door, its output ready (made: new, else the caller's, now
 * written): the kernel of a's backend (none for an empty output); with the diagnostics hook set,
 * run again while diag_again says so, then described with its bytes and flops. After a failed
 * kernel a new output is released. Inline: at a constant kind the switch folds away. */
static inline enum mt_status run_raw(struct mt_ctx *ctx, const char *name, const struct raw_call *c,
                                     const struct mt_tensor *a, const struct mt_tensor *b,
                                     struct mt_tensor **out, bool made, double bytes, double flops)
{
    const struct mt_backend_ops *ops = mt_backend_ops_of(a->backend);
    struct mt_diag d; /* the kernels' to fill: never NULL (internal.h), read only with the hook */
    enum mt_status st;
    if (!ctx->diag) {
        if (!made) mt_written(*out);
        st = (*out)->size ? raw_kernel(ctx, ops, c, &d) : MT_OK;
        return st == MT_OK ? MT_OK : fail_out(st, out, made);
    }
    struct diag_runs runs;
    diag_begin(&d, name, a, b);
    diag_runs_start(&runs, *out, a, b);
    if (!made) mt_written(*out);
    do st = (*out)->size ? raw_kernel(ctx, ops, c, &d) : MT_OK;
    while (st == MT_OK && diag_again(&runs));
    if (st != MT_OK) return fail_out(st, out, made);
    diag_end(ctx, &d, *out, bytes, flops, &runs);
    return MT_OK;
}

enum mt_status mt_map(struct mt_ctx *ctx, enum mt_map_op op, const struct mt_tensor *a,
                      struct mt_tensor **out)
{
    if ((unsigned)op >= MT_MAP_COUNT) return mt_fail(ctx, MT_ERR_INVALID, "unknown map op");
    ctx->ops_run[a->backend]++;
    if (*out && mt_overlaps(*out, a, true)) { /* a copy of a is read instead (alias.c) */
        struct mt_tensor *c = NULL;
        enum mt_status st = mt_unalias(ctx, *out, &a, true, &c);
        if (st == MT_OK) st = mt_map(ctx, op, a, out);
        mt_tensor_release(c);
        return st;
    }
    if (*out && !ctx->diag && (*out)->backend == a->backend) {
        const struct mt_backend_ops *ops = mt_backend_ops_of(a->backend);
        if (ops->map_small && ops->map_small(op, *out, a, NULL)) {
            mt_written(*out);
            return MT_OK; /* the tiny op (see internal.h) */
        }
    }
    const char *name = map_names[op];
    enum mt_status st = same_backend(ctx, name, a, NULL);
    if (st != MT_OK) return st;
    if (*out) { /* a must broadcast to out's shape (MiniTorch's map into a larger out) */
        int n;
        if ((*out)->backend != a->backend)
            return mt_fail(ctx, MT_ERR_BACKEND, "%s: the output is on %s, the input on %s", name,
                           mt_backend_name((*out)->backend), mt_backend_name(a->backend));
        int64_t shape[MT_MAX_DIMS];
        char s1[160], s2[160];
        st = mt_shape_broadcast(ctx, a->ndim, a->shape, (*out)->ndim, (*out)->shape, &n, shape);
        if (st == MT_OK && !same_shape(n, shape, (*out)->ndim, (*out)->shape))
            st = mt_fail(ctx, MT_ERR_SHAPE, "%s: shape %s does not broadcast to the output's %s",
                         name, mt_shape_str(a->ndim, a->shape, s1, sizeof s1),
                         mt_shape_str((*out)->ndim, (*out)->shape, s2, sizeof s2));
        if (st == MT_OK) st = mt_check_out(ctx, name, *out);
        if (st != MT_OK) return st;
    }
    bool made = false;
    if (!*out && (st = prepare_out(ctx, name, a->backend, a->ndim, a->shape, out, &made)) != MT_OK)
        return st;
    const struct raw_call c = {.kind = RAW_MAP, .op = op, .out = *out, .a = a};
    return run_raw(ctx, name, &c, a, NULL, out, made, 4.0 * (double)(a->size + (*out)->size),
                   (double)(*out)->size);
}

enum mt_status mt_zip(struct mt_ctx *ctx, enum mt_zip_op op, const struct mt_tensor *a,
                      const struct mt_tensor *b, struct mt_tensor **out)
{
    if ((unsigned)op >= MT_ZIP_COUNT) return mt_fail(ctx, MT_ERR_INVALID, "unknown zip op");
    ctx->ops_run[a->backend]++;
    if (*out && (mt_overlaps(*out, a, true) || mt_overlaps(*out, b, true))) {
        struct mt_tensor *ca = NULL, *cb = NULL; /* copies are read instead (alias.c) */
        enum mt_status st = mt_unalias(ctx, *out, &a, true, &ca);
        if (st == MT_OK) st = mt_unalias(ctx, *out, &b, true, &cb);
        if (st == MT_OK) st = mt_zip(ctx, op, a, b, out);
        mt_tensor_release(ca);
        mt_tensor_release(cb);
        return st;
    }
    if (*out && !ctx->diag && a->backend == b->backend && (*out)->backend == a->backend) {
        const struct mt_backend_ops *ops = mt_backend_ops_of(a->backend);
        if (ops->zip_small && ops->zip_small(op, *out, a, b, NULL)) {
            mt_written(*out);
            return MT_OK; /* the tiny op (see internal.h) */
        }
    }
    const char *name = zip_names[op];
    enum mt_status st = same_backend(ctx, name, a, b);
    if (st != MT_OK) return st;
    int n = a->ndim;
    int64_t shape[MT_MAX_DIMS];
    const int64_t *res = a->shape; /* equal shapes (the common case) need no broadcasting */
    if (!same_shape(a->ndim, a->shape, b->ndim, b->shape)) {
        st = mt_shape_broadcast(ctx, a->ndim, a->shape, b->ndim, b->shape, &n, shape);
        if (st != MT_OK) return st;
        res = shape;
    }
    bool made;
    st = prepare_out(ctx, name, a->backend, n, res, out, &made);
    if (st != MT_OK) return st;
    const struct raw_call c = {.kind = RAW_ZIP, .op = op, .out = *out, .a = a, .b = b};
    return run_raw(ctx, name, &c, a, b, out, made, 4.0 * (double)(a->size + b->size + (*out)->size),
                   (double)(*out)->size);
}

enum mt_status mt_reduce(struct mt_ctx *ctx, enum mt_reduce_op op, const struct mt_tensor *a,
                         int dim, struct mt_tensor **out)
{
    if ((unsigned)op >= MT_RED_COUNT) return mt_fail(ctx, MT_ERR_INVALID, "unknown reduce op");
    ctx->ops_run[a->backend]++;
    if (*out && mt_overlaps(*out, a, false)) { /* a copy of a is read instead (alias.c) */
        struct mt_tensor *c = NULL;
        enum mt_status st = mt_unalias(ctx, *out, &a, false, &c);
        if (st == MT_OK) st = mt_reduce(ctx, op, a, dim, out);
        mt_tensor_release(c);
        return st;
    }
    const char *name = reduce_names[op];
    enum mt_status st = same_backend(ctx, name, a, NULL);
    if (st != MT_OK) return st;
    if (dim == MT_ALL_DIMS) {
        /* MiniTorch: contiguous().view(size) then reduce dim 0 -> shape (1,) */
        struct mt_tensor *flat = NULL, *c = NULL;
        int64_t size = a->size;
        if (mt_tensor_is_contiguous(a))
            c = mt_tensor_retain((struct mt_tensor *)a);
        else
            st = mt_copy_raw(ctx, a, &c);
        if (st == MT_OK) st = mt_view_raw(ctx, c, 1, &size, &flat);
        mt_tensor_release(c);
        if (st == MT_OK) st = mt_reduce(ctx, op, flat, 0, out);
        mt_tensor_release(flat);
        return st;
    }
    int d0 = dim < 0 ? dim + a->ndim : dim;
    if (d0 < 0 || d0 >= a->ndim)
        return mt_fail(ctx, MT_ERR_INDEX, "%s: dim %d is out of range for a %d-dim tensor", name,
                       dim, a->ndim);
    int64_t shape[MT_MAX_DIMS];
    memcpy(shape, a->shape, sizeof shape);
    shape[d0] = 1;
    bool made;
    st = prepare_out(ctx, name, a->backend, a->ndim, shape, out, &made);
    if (st != MT_OK) return st;
    const struct raw_call c = {.kind = RAW_REDUCE, .op = op, .dim = d0, .out = *out, .a = a};
    return run_raw(ctx, name, &c, a, NULL, out, made, 4.0 * (double)(a->size + (*out)->size),
                   (double)a->size);
}

enum mt_status mt_matmul_raw(struct mt_ctx *ctx, const struct mt_tensor *a,
                             const struct mt_tensor *b, struct mt_tensor **out)
{
    ctx->ops_run[a->backend]++;
    char s1[160], s2[160];
    if (*out && (mt_overlaps(*out, a, false) || mt_overlaps(*out, b, false))) {
        struct mt_tensor *ca = NULL, *cb = NULL; /* copies are read instead (alias.c) */
        enum mt_status st = mt_unalias(ctx, *out, &a, false, &ca);
        if (st == MT_OK) st = mt_unalias(ctx, *out, &b, false, &cb);
        if (st == MT_OK) st = mt_matmul_raw(ctx, a, b, out);
        mt_tensor_release(ca);
        mt_tensor_release(cb);
        return st;
    }
    enum mt_status st = same_backend(ctx, "matmul", a, b);
    if (st != MT_OK) return st;
    if (a->ndim < 2 || b->ndim < 2)
        return mt_fail(ctx, MT_ERR_SHAPE, "matmul needs 2-D or batched operands, got %s @ %s",
                       mt_shape_str(a->ndim, a->shape, s1, sizeof s1),
                       mt_shape_str(b->ndim, b->shape, s2, sizeof s2));
    int64_t M = a->shape[a->ndim - 2], K = a->shape[a->ndim - 1];
    int64_t K2 = b->shape[b->ndim - 2], N = b->shape[b->ndim - 1];
    if (K != K2)
        return mt_fail(ctx, MT_ERR_SHAPE,
                       "matmul: inner sizes differ: %s @ %s (%lld columns against %lld rows)",
                       mt_shape_str(a->ndim, a->shape, s1, sizeof s1),
                       mt_shape_str(b->ndim, b->shape, s2, sizeof s2), (long long)K, (long long)K2);
    /* batch dims broadcast; 2-D operands are lifted to (1, M, K) */
    int nb;
    int64_t batch[MT_MAX_DIMS];
    int64_t one = 1;
    const int64_t *ba = a->ndim > 2 ? a->shape : &one, *bb = b->ndim > 2 ? b->shape : &one;
    st = mt_shape_broadcast(ctx, a->ndim > 2 ? a->ndim - 2 : 1, ba, b->ndim > 2 ? b->ndim - 2 : 1,
                            bb, &nb, batch);
    if (st != MT_OK) {
        return mt_fail(ctx, MT_ERR_SHAPE, "matmul: the batch dims of %s and %s do not broadcast",
                       mt_shape_str(a->ndim, a->shape, s1, sizeof s1),
                       mt_shape_str(b->ndim, b->shape, s2, sizeof s2));
    }
    if (nb + 2 > MT_MAX_DIMS)
        return mt_fail(ctx, MT_ERR_SHAPE, "matmul result would have more than %d dims",
                       MT_MAX_DIMS);
    bool two_d = a->ndim == 2 && b->ndim == 2;
    int nout = two_d ? 2 : nb + 2;
    int64_t shape[MT_MAX_DIMS];
    if (!two_d) memcpy(shape, batch, (size_t)nb * sizeof *batch);
    shape[nout - 2] = M;
    shape[nout - 1] = N;
    bool made;
    st = prepare_out(ctx, "matmul", a->backend, nout, shape, out, &made);
    if (st != MT_OK) return st;
    /* The kernels see three tensors of one rank nb+2, batch dims broadcast by stride 0. */
    int n3 = nb + 2;
    int64_t full[MT_MAX_DIMS];
    memcpy(full, batch, (size_t)nb * sizeof *batch);
    struct mt_tensor A = *a, B = *b, C = **out;
    full[nb] = M;
    full[nb + 1] = K;
    mt_expand_strides(a, n3, full, A.strides);
    memcpy(A.shape, full, sizeof full);
    A.ndim = n3;
    full[nb] = K;
    full[nb + 1] = N;
    mt_expand_strides(b, n3, full, B.strides);
    memcpy(B.shape, full, sizeof full);
    B.ndim = n3;
    full[nb] = M;
    full[nb + 1] = N;
    mt_expand_strides(*out, n3, full, C.strides);
    memcpy(C.shape, full, sizeof full);
    C.ndim = n3;
    /* A batch dim of size 1 in a or b now has stride 0 (broadcast); an M, K or N of size 1
     * may get stride 0 too, which is harmless: a dim of size 1 is never stepped. */
    const struct raw_call c = {.kind = RAW_MATMUL, .out = &C, .a = &A, .b = &B};
    double bsz = (double)((*out)->size / (M * N > 0 ? M * N : 1));
    return run_raw(ctx, "matmul", &c, a, b, out, made,
                   4.0 * (double)(a->size + b->size + (*out)->size),
                   2.0 * bsz * (double)M * (double)N * (double)K);
}

/* The 4-D view conv's kernels read of a 1-D convolution's 3-D tensor t: (t0, t1, 1, t2). */
static struct mt_tensor conv_view4(const struct mt_tensor *t)
{
    struct mt_tensor v = *t;
    if (t->ndim == 3) {
        v.ndim = 4;
        v.shape[3] = t->shape[2];
        v.strides[3] = t->strides[2];
        v.shape[2] = 1;
        v.strides[2] = 0;
    }
    return v;
}

/* mt_conv_raw on a backend whose memory is not the host's and that has no convolution of its
 * own: the operands copied to the host, simple's loops, the result copied into *out. */
static enum mt_status conv_through_host(struct mt_ctx *ctx, const struct mt_tensor *input,
                                        const struct mt_tensor *weight, bool reverse,
                                        struct mt_tensor **out)
{
    struct mt_tensor *hi = NULL, *hw = NULL, *ho = NULL, *back = NULL;
    enum mt_status st =
        mt_to_raw(ctx, (struct mt_tensor *)input, MT_BACKEND_SIMPLE, &hi); /* read only */
    if (st == MT_OK) st = mt_to_raw(ctx, (struct mt_tensor *)weight, MT_BACKEND_SIMPLE, &hw);
    if (st == MT_OK && *out)
        st = mt_empty(ctx, MT_BACKEND_SIMPLE, (*out)->ndim, (*out)->shape, &ho);
    if (st == MT_OK) st = mt_conv_raw(ctx, hi, hw, reverse, &ho);
    if (st == MT_OK) st = mt_to_raw(ctx, ho, input->backend, &back);
    if (st == MT_OK && *out)
        st = mt_map(ctx, MT_MAP_ID, back, out);
    else if (st == MT_OK)
        *out = mt_tensor_retain(back);
    mt_tensor_release(hi);
    mt_tensor_release(hw);
    mt_tensor_release(ho);
    mt_tensor_release(back);
    return st;
}

enum mt_status mt_conv_raw(struct mt_ctx *ctx, const struct mt_tensor *input,
                           const struct mt_tensor *weight, bool reverse, struct mt_tensor **out)
{
    ctx->ops_run[input->backend]++;
    char s1[160], s2[160], s3[160];
    const char *name = input->ndim == 4 ? "conv2d" : "conv1d";
    if (*out && (mt_overlaps(*out, input, false) || mt_overlaps(*out, weight, false))) {
        struct mt_tensor *ci = NULL, *cw = NULL; /* copies are read instead (alias.c) */
        enum mt_status st = mt_unalias(ctx, *out, &input, false, &ci);
        if (st == MT_OK) st = mt_unalias(ctx, *out, &weight, false, &cw);
        if (st == MT_OK) st = mt_conv_raw(ctx, input, weight, reverse, out);
        mt_tensor_release(ci);
        mt_tensor_release(cw);
        return st;
    }
    enum mt_status st = same_backend(ctx, name, input, weight);
    if (st != MT_OK) return st;
    if ((input->ndim != 3 && input->ndim != 4) || weight->ndim != input->ndim)
        return mt_fail(ctx, MT_ERR_SHAPE,
                       "a convolution takes input (batch, in_channels, w) and weight "
                       "(out_channels, in_channels, kw), or (batch, in_channels, h, w) and "
                       "(out_channels, in_channels, kh, kw); got input %s and weight %s",
                       mt_shape_str(input->ndim, input->shape, s1, sizeof s1),
                       mt_shape_str(weight->ndim, weight->shape, s2, sizeof s2));
    if (input->shape[1] != weight->shape[1])
        return mt_fail(
            ctx, MT_ERR_SHAPE, "%s: input %s has %lld channels, weight %s takes %lld (its dim 1)",
            name, mt_shape_str(input->ndim, input->shape, s1, sizeof s1),
            (long long)input->shape[1], mt_shape_str(weight->ndim, weight->shape, s2, sizeof s2),
            (long long)weight->shape[1]);
    int64_t shape[MT_MAX_DIMS];
    memcpy(shape, input->shape, sizeof shape);
    shape[1] = weight->shape[0];
    if (*out) { /* its spatial sizes are the caller's; batch and channels must fit */
        if ((*out)->ndim != input->ndim || (*out)->shape[0] != shape[0] ||
            (*out)->shape[1] != shape[1])
            return mt_fail(ctx, MT_ERR_SHAPE,
                           "%s: the output has shape %s; input %s and weight %s give (%lld, "
                           "%lld, ...)",
                           name, mt_shape_str((*out)->ndim, (*out)->shape, s3, sizeof s3),
                           mt_shape_str(input->ndim, input->shape, s1, sizeof s1),
                           mt_shape_str(weight->ndim, weight->shape, s2, sizeof s2),
                           (long long)shape[0], (long long)shape[1]);
        memcpy(shape, (*out)->shape, sizeof shape);
    }
    if (!mt_backend_ops_of(input->backend)->conv && !mt_backend_ops_of(input->backend)->host)
        return conv_through_host(ctx, input, weight, reverse, out);
    bool made;
    st = prepare_out(ctx, name, input->backend, input->ndim, shape, out, &made);
    if (st != MT_OK) return st;
    struct mt_tensor I = conv_view4(input), W = conv_view4(weight), O = conv_view4(*out);
    const struct raw_call c = {.kind = RAW_CONV, .op = reverse, .out = &O, .a = &I, .b = &W};
    /* each output cell sums in_channels * kh * kw products (none when the weight is empty) */
    double macs =
        weight->size ? (double)(*out)->size * (double)(weight->size / weight->shape[0]) : 0.0;
    return run_raw(ctx, name, &c, input, weight, out, made,
                   4.0 * (double)(input->size + weight->size + (*out)->size), 2.0 * macs);
}
