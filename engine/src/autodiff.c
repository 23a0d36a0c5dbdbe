/* autodiff.c — MiniTorch's Functions: forward through the raw ops, backward by the chain rule.
 *
 * A differentiable op computes its result with the raw ops (ops.c) and, when an input requires
 * grad, attaches a node to the result: which Function, its inputs (owned references) and any
 * forward value the backward reuses. Values saved from the output itself are detached views:
 * the output owns the node, so a node owning the output would be a reference cycle.
 *
 * mt_backward orders the graph topologically (an iterative depth-first search, so a graph as
 * deep as a long training loop cannot overflow the stack), then walks it from the output: each
 * node's accumulated gradient goes through its Function's backward, and each input's share is
 * first summed back over the dims that were broadcast (MiniTorch's `expand`). Leaves that
 * require grad accumulate into ->grad. Gradients are computed with raw ops, so they carry no
 * history of their own. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

enum mt_fn {
    FN_NEG,
    FN_INV,
    FN_RELU,
    FN_SIGMOID,
    FN_LOG,
    FN_EXP,
    FN_ABS,
    FN_SQRT,
    FN_TANH,
    FN_ADD,
    FN_SUB,
    FN_MUL,
    FN_DIV,
    FN_LT,
    FN_GT,
    FN_EQ,
    FN_SUM,
    FN_MEAN,
    FN_MAX,
    FN_MATMUL,
    FN_CONV,
    FN_VIEW,
    FN_PERMUTE,
    FN_COPY,
    FN_TO,
    FN_FORWARD_ONLY, /* a user function's op: no derivative (n->what names it) */
    FN_CUSTOM,       /* a Function written outside the engine (n->custom) */
    FN_COUNT
};

static const char *const fn_names[] = {
    [FN_NEG] = "neg",
    [FN_INV] = "inv",
    [FN_RELU] = "relu",
    [FN_SIGMOID] = "sigmoid",
    [FN_LOG] = "log",
    [FN_EXP] = "exp",
    [FN_ABS] = "abs",
    [FN_SQRT] = "sqrt",
    [FN_TANH] = "tanh",
    [FN_ADD] = "add",
    [FN_SUB] = "sub",
    [FN_MUL] = "mul",
    [FN_DIV] = "div",
    [FN_LT] = "lt",
    [FN_GT] = "gt",
    [FN_EQ] = "eq",
    [FN_SUM] = "sum",
    [FN_MEAN] = "mean",
    [FN_MAX] = "max",
    [FN_MATMUL] = "matmul",
    [FN_CONV] = "conv",
    [FN_VIEW] = "view",
    [FN_PERMUTE] = "permute",
    [FN_COPY] = "contiguous",
    [FN_TO] = "to",
    [FN_FORWARD_ONLY] = "a user function",
    [FN_CUSTOM] = "a custom Function",
};
_Static_assert(sizeof fn_names / sizeof fn_names[0] == FN_COUNT, "one name per Function");

/* The values a Function's backward reads (node_backward): bit 0 in[0], bit 1 in[1], bit 2
 * saved. Writing one of them in place between the forward and backward would change the
 * gradient, so backward checks their versions (PyTorch's saved-tensor check). */
static unsigned values_read(int fn)
{
    switch ((enum mt_fn)fn) {
    case FN_INV:
    case FN_RELU:
    case FN_LOG:
    case FN_ABS: return 1u;
    case FN_EXP:
    case FN_SIGMOID:
    case FN_SQRT:
    case FN_TANH: return 4u;
    case FN_MUL:
    case FN_DIV:
    case FN_MATMUL:
    case FN_CONV: return 3u;
    case FN_MAX: return 5u;
    default: return 0u;
    }
}

/* ---- small helpers on raw ops ---- */

/* A (1,) tensor holding v on backend b. */
static enum mt_status scalar(struct mt_ctx *ctx, enum mt_backend b, float v, struct mt_tensor **out)
{
    int64_t one = 1;
    return mt_full(ctx, b, 1, &one, v, out);
}

static enum mt_status zip_new(struct mt_ctx *ctx, enum mt_zip_op op, const struct mt_tensor *a,
                              const struct mt_tensor *b, struct mt_tensor **out)
{
    *out = NULL;
    return mt_zip(ctx, op, a, b, out);
}

static enum mt_status map_new(struct mt_ctx *ctx, enum mt_map_op op, const struct mt_tensor *a,
                              struct mt_tensor **out)
{
    *out = NULL;
    return mt_map(ctx, op, a, out);
}

/* zip with a constant second operand */
static enum mt_status zip_const(struct mt_ctx *ctx, enum mt_zip_op op, const struct mt_tensor *a,
                                float v, struct mt_tensor **out)
{
    struct mt_tensor *c;
    enum mt_status st = scalar(ctx, a->backend, v, &c);
    if (st != MT_OK) return st;
    st = zip_new(ctx, op, a, c, out);
    mt_tensor_release(c);
    return st;
}

/* ---- recording ---- */

static bool needs_grad(const struct mt_tensor *a, const struct mt_tensor *b)
{
    return a->requires_grad || (b && b->requires_grad);
}

/* Attaches the history of `fn` to out when an input requires grad. `saved` (may be NULL) is
 * taken over by the node (released when not recorded). On failure out is released. */
static enum mt_status record(struct mt_ctx *ctx, int fn, struct mt_tensor **out,
                             struct mt_tensor *a, struct mt_tensor *b, struct mt_tensor *saved,
                             const struct mt_node *extra)
{
    if (!needs_grad(a, b)) {
        mt_tensor_release(saved);
        return MT_OK;
    }
    struct mt_node *n = calloc(1, sizeof *n);
    if (!n) {
        mt_tensor_release(saved);
        mt_tensor_release(*out);
        *out = NULL;
        return mt_fail(ctx, MT_ERR_NOMEM, "out of memory for the autodiff graph");
    }
    if (extra) *n = *extra;
    n->fn = fn;
    n->nin = b ? 2 : 1;
    n->in[0] = mt_tensor_retain(a);
    n->in[1] = b ? mt_tensor_retain(b) : NULL;
    n->saved = saved;
    const struct mt_tensor *kept[3] = {a, b, saved};
    for (int k = 0; k < 3; k++) n->version[k] = kept[k] ? kept[k]->storage->version : 0;
    n->visit = 0;
    n->gacc = NULL;
    (*out)->node = n;
    (*out)->requires_grad = true;
    return MT_OK;
}

enum mt_status mt_record_forward_only(struct mt_ctx *ctx, struct mt_tensor **out,
                                      const struct mt_tensor *a, const struct mt_tensor *b,
                                      const char *what)
{
    if (!needs_grad(a, b)) return MT_OK;
    struct mt_node extra = {.what = strdup(what)};
    if (!extra.what) {
        mt_tensor_release(*out);
        *out = NULL;
        return mt_fail(ctx, MT_ERR_NOMEM, "out of memory for the autodiff graph");
    }
    /* the node holds references to the inputs: they are counted, never written */
    enum mt_status st = record(ctx, FN_FORWARD_ONLY, out, (struct mt_tensor *)a,
                               (struct mt_tensor *)b, NULL, &extra);
    if (st != MT_OK) free(extra.what);
    return st;
}

enum mt_status mt_record_custom(struct mt_ctx *ctx, struct mt_tensor **out, int nin,
                                struct mt_tensor *const *in, const struct mt_custom_fn *fn)
{
    bool need = false;
    for (int i = 0; i < nin && i < MT_CUSTOM_MAX_IN; i++) need = need || in[i]->requires_grad;
    enum mt_status st = MT_OK;
    if (nin < 1 || nin > MT_CUSTOM_MAX_IN)
        st = mt_fail(ctx, MT_ERR_INVALID, "a custom Function takes 1 to %d tensors, not %d",
                     MT_CUSTOM_MAX_IN, nin);
    struct mt_node *n = st == MT_OK && need ? calloc(1, sizeof *n) : NULL;
    if (st == MT_OK && need && !n)
        st = mt_fail(ctx, MT_ERR_NOMEM, "out of memory for the autodiff graph");
    if (!n) {
        if (fn->release) fn->release(fn->data);
        if (st != MT_OK) {
            mt_tensor_release(*out);
            *out = NULL;
        }
        return st;
    }
    n->fn = FN_CUSTOM;
    n->nin = nin;
    for (int i = 0; i < nin; i++) n->in[i] = mt_tensor_retain(in[i]);
    n->custom = *fn;
    (*out)->node = n;
    (*out)->requires_grad = true;
    return MT_OK;
}

static enum mt_status unary(struct mt_ctx *ctx, int fn, enum mt_map_op op, bool keep_out,
                            struct mt_tensor *a, struct mt_tensor **out)
{
    struct mt_tensor *r = NULL, *saved = NULL;
    enum mt_status st = map_new(ctx, op, a, &r);
    if (st != MT_OK) return st;
    /* the output is saved as a detached alias (see the top comment) */
    if (keep_out && needs_grad(a, NULL) && (st = mt_detach(ctx, r, &saved)) != MT_OK) {
        mt_tensor_release(r);
        return st;
    }
    st = record(ctx, fn, &r, a, NULL, saved, NULL);
    if (st == MT_OK) *out = r;
    return st;
}

enum mt_status mt_neg(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out)
{
    return unary(ctx, FN_NEG, MT_MAP_NEG, false, a, out);
}
enum mt_status mt_inv(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out)
{
    return unary(ctx, FN_INV, MT_MAP_INV, false, a, out);
}
enum mt_status mt_relu(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out)
{
    return unary(ctx, FN_RELU, MT_MAP_RELU, false, a, out);
}
enum mt_status mt_sigmoid(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out)
{
    return unary(ctx, FN_SIGMOID, MT_MAP_SIGMOID, true, a, out);
}
enum mt_status mt_log(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out)
{
    return unary(ctx, FN_LOG, MT_MAP_LOG, false, a, out);
}
enum mt_status mt_exp(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out)
{
    return unary(ctx, FN_EXP, MT_MAP_EXP, true, a, out);
}
enum mt_status mt_abs(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out)
{
    return unary(ctx, FN_ABS, MT_MAP_ABS, false, a, out);
}
enum mt_status mt_sqrt(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out)
{
    return unary(ctx, FN_SQRT, MT_MAP_SQRT, true, a, out);
}
enum mt_status mt_tanh(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out)
{
    return unary(ctx, FN_TANH, MT_MAP_TANH, true, a, out);
}

/* fn < 0: not differentiable (the result never requires grad). */
static enum mt_status binary(struct mt_ctx *ctx, int fn, enum mt_zip_op op, struct mt_tensor *a,
                             struct mt_tensor *b, struct mt_tensor **out)
{
    struct mt_tensor *r = NULL;
    enum mt_status st = zip_new(ctx, op, a, b, &r);
    if (st != MT_OK) return st;
    if (fn >= 0) st = record(ctx, fn, &r, a, b, NULL, NULL);
    if (st == MT_OK) *out = r;
    return st;
}

enum mt_status mt_add(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                      struct mt_tensor **out)
{
    return binary(ctx, FN_ADD, MT_ZIP_ADD, a, b, out);
}
enum mt_status mt_sub(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                      struct mt_tensor **out)
{
    return binary(ctx, FN_SUB, MT_ZIP_SUB, a, b, out);
}
enum mt_status mt_mul(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                      struct mt_tensor **out)
{
    return binary(ctx, FN_MUL, MT_ZIP_MUL, a, b, out);
}
enum mt_status mt_div(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                      struct mt_tensor **out)
{
    return binary(ctx, FN_DIV, MT_ZIP_DIV, a, b, out);
}
enum mt_status mt_lt(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                     struct mt_tensor **out)
{
    return binary(ctx, FN_LT, MT_ZIP_LT, a, b, out);
}
enum mt_status mt_gt(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                     struct mt_tensor **out)
{
    return binary(ctx, FN_GT, MT_ZIP_GT, a, b, out);
}
enum mt_status mt_eq(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                     struct mt_tensor **out)
{
    return binary(ctx, FN_EQ, MT_ZIP_EQ, a, b, out);
}
enum mt_status mt_is_close(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                           struct mt_tensor **out)
{
    return binary(ctx, -1, MT_ZIP_IS_CLOSE, a, b, out);
}

static enum mt_status reduction(struct mt_ctx *ctx, int fn, enum mt_reduce_op op,
                                struct mt_tensor *a, int dim, struct mt_tensor **out)
{
    struct mt_tensor *r = NULL, *saved = NULL;
    enum mt_status st = mt_reduce(ctx, op, a, dim, &r);
    if (st != MT_OK || fn < 0) {
        if (st == MT_OK) *out = r;
        return st;
    }
    if (fn == FN_MAX && needs_grad(a, NULL) && (st = mt_detach(ctx, r, &saved)) != MT_OK) {
        mt_tensor_release(r);
        return st;
    }
    struct mt_node extra = {.dim =
                                dim == MT_ALL_DIMS ? MT_ALL_DIMS : (dim < 0 ? dim + a->ndim : dim)};
    st = record(ctx, fn, &r, a, NULL, saved, &extra);
    if (st == MT_OK) *out = r;
    return st;
}

enum mt_status mt_sum(struct mt_ctx *ctx, struct mt_tensor *a, int dim, struct mt_tensor **out)
{
    return reduction(ctx, FN_SUM, MT_RED_SUM, a, dim, out);
}
enum mt_status mt_mean(struct mt_ctx *ctx, struct mt_tensor *a, int dim, struct mt_tensor **out)
{
    return reduction(ctx, FN_MEAN, MT_RED_MEAN, a, dim, out);
}
enum mt_status mt_max(struct mt_ctx *ctx, struct mt_tensor *a, int dim, struct mt_tensor **out)
{
    return reduction(ctx, FN_MAX, MT_RED_MAX, a, dim, out);
}
enum mt_status mt_all(struct mt_ctx *ctx, struct mt_tensor *a, int dim, struct mt_tensor **out)
{
    return reduction(ctx, -1, MT_RED_PROD, a, dim, out);
}

enum mt_status mt_matmul(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                         struct mt_tensor **out)
{
    struct mt_tensor *r = NULL;
    enum mt_status st = mt_matmul_raw(ctx, a, b, &r);
    if (st == MT_OK) st = record(ctx, FN_MATMUL, &r, a, b, NULL, NULL);
    if (st == MT_OK) *out = r;
    return st;
}

/* Conv1dFun (ndim 3) and Conv2dFun (ndim 4): the shapes checked as MiniTorch's asserts would,
 * with the shapes named, then the raw convolution recorded. */
static enum mt_status conv(struct mt_ctx *ctx, int ndim, struct mt_tensor *input,
                           struct mt_tensor *weight, struct mt_tensor **out)
{
    const char *name = ndim == 3 ? "conv1d" : "conv2d";
    char s1[160], s2[160];
    mt_shape_str(input->ndim, input->shape, s1, sizeof s1);
    mt_shape_str(weight->ndim, weight->shape, s2, sizeof s2);
    if (input->ndim != ndim || weight->ndim != ndim)
        return mt_fail(ctx, MT_ERR_SHAPE,
                       ndim == 3 ? "conv1d takes input (batch, in_channels, w) and weight "
                                   "(out_channels, in_channels, kw); got input %s and weight %s"
                                 : "conv2d takes input (batch, in_channels, h, w) and weight "
                                   "(out_channels, in_channels, kh, kw); got input %s and weight "
                                   "%s",
                       s1, s2);
    for (int i = 2; i < ndim; i++)
        if (weight->shape[i] > input->shape[i])
            return mt_fail(ctx, MT_ERR_SHAPE, "%s: the kernel of weight %s is %s than input %s",
                           name, s2, i == ndim - 1 ? "wider" : "taller", s1);
    struct mt_tensor *r = NULL;
    enum mt_status st = mt_conv_raw(ctx, input, weight, false, &r);
    if (st == MT_OK) st = record(ctx, FN_CONV, &r, input, weight, NULL, NULL);
    if (st == MT_OK) *out = r;
    return st;
}

enum mt_status mt_conv1d(struct mt_ctx *ctx, struct mt_tensor *input, struct mt_tensor *weight,
                         struct mt_tensor **out)
{
    return conv(ctx, 3, input, weight, out);
}

enum mt_status mt_conv2d(struct mt_ctx *ctx, struct mt_tensor *input, struct mt_tensor *weight,
                         struct mt_tensor **out)
{
    return conv(ctx, 4, input, weight, out);
}

enum mt_status mt_view(struct mt_ctx *ctx, struct mt_tensor *t, int ndim, const int64_t *shape,
                       struct mt_tensor **out)
{
    struct mt_tensor *r = NULL;
    enum mt_status st = mt_view_raw(ctx, t, ndim, shape, &r);
    struct mt_node extra = {.ndim = t->ndim};
    memcpy(extra.shape, t->shape, sizeof t->shape);
    if (st == MT_OK) st = record(ctx, FN_VIEW, &r, t, NULL, NULL, &extra);
    if (st == MT_OK) *out = r;
    return st;
}

enum mt_status mt_permute(struct mt_ctx *ctx, struct mt_tensor *t, int ndim, const int64_t *order,
                          struct mt_tensor **out)
{
    struct mt_tensor *r = NULL;
    enum mt_status st = mt_permute_raw(ctx, t, ndim, order, &r);
    struct mt_node extra = {.ndim = ndim};
    if (st == MT_OK) /* store the inverse order: backward permutes g by it */
        for (int i = 0; i < ndim; i++) extra.shape[order[i] < 0 ? order[i] + ndim : order[i]] = i;
    if (st == MT_OK) st = record(ctx, FN_PERMUTE, &r, t, NULL, NULL, &extra);
    if (st == MT_OK) *out = r;
    return st;
}

enum mt_status mt_contiguous(struct mt_ctx *ctx, struct mt_tensor *t, struct mt_tensor **out)
{
    if (mt_tensor_is_contiguous(t)) {
        *out = mt_tensor_retain(t);
        return MT_OK;
    }
    struct mt_tensor *r = NULL;
    enum mt_status st = mt_copy_raw(ctx, t, &r);
    if (st == MT_OK) st = record(ctx, FN_COPY, &r, t, NULL, NULL, NULL);
    if (st == MT_OK) *out = r;
    return st;
}

enum mt_status mt_to(struct mt_ctx *ctx, struct mt_tensor *t, enum mt_backend b,
                     struct mt_tensor **out)
{
    enum mt_status st = mt_backend_check(ctx, b);
    if (st != MT_OK) return st;
    if (b == t->backend) {
        *out = mt_tensor_retain(t);
        return MT_OK;
    }
    struct mt_tensor *r = NULL;
    st = mt_to_raw(ctx, t, b, &r);
    struct mt_node extra = {.backend = t->backend};
    if (st == MT_OK) st = record(ctx, FN_TO, &r, t, NULL, NULL, &extra);
    if (st == MT_OK) *out = r;
    return st;
}

/* ---- backward ---- */

/* Brings a gradient g (of the op's output shape) to the shape of input t: broadcast up where t
 * is larger (Sum's g has size 1 in the reduced dim), then summed over the dims t broadcast
 * along (missing leading dims, or size 1 in t). Takes over g; returns a new reference. */
static enum mt_status expand(struct mt_ctx *ctx, struct mt_tensor *t, struct mt_tensor *g,
                             struct mt_tensor **out)
{
    enum mt_status st = MT_OK;
    int n;
    int64_t shape[MT_MAX_DIMS];
    if (g->ndim == t->ndim && memcmp(g->shape, t->shape, (size_t)t->ndim * sizeof *t->shape) == 0) {
        *out = g;
        return MT_OK;
    }
    st = mt_shape_broadcast(ctx, g->ndim, g->shape, t->ndim, t->shape, &n, shape);
    if (st != MT_OK) goto fail;
    if (n != g->ndim || memcmp(shape, g->shape, (size_t)n * sizeof *shape) != 0) {
        struct mt_tensor *big = NULL;
        if ((st = mt_empty(ctx, g->backend, n, shape, &big)) != MT_OK) goto fail;
        if ((st = mt_map(ctx, MT_MAP_ID, g, &big)) != MT_OK) {
            mt_tensor_release(big);
            goto fail;
        }
        mt_tensor_release(g);
        g = big;
    }
    int lead = n - t->ndim;
    for (int i = 0; i < n; i++) {
        if (shape[i] != 1 && (i < lead || t->shape[i - lead] == 1)) {
            struct mt_tensor *s = NULL;
            if ((st = mt_reduce(ctx, MT_RED_SUM, g, i, &s)) != MT_OK) goto fail;
            mt_tensor_release(g);
            g = s;
        }
    }
    if (g->ndim != t->ndim) {
        struct mt_tensor *v = NULL, *c = NULL;
        if ((st = mt_contiguous(ctx, g, &c)) != MT_OK) goto fail;
        st = mt_view_raw(ctx, c, t->ndim, t->shape, &v);
        mt_tensor_release(c);
        if (st != MT_OK) goto fail;
        mt_tensor_release(g);
        g = v;
    }
    *out = g;
    return MT_OK;
fail:
    mt_tensor_release(g);
    return st;
}

/* Swaps the last two dims (a view). */
static enum mt_status transpose(struct mt_ctx *ctx, struct mt_tensor *t, struct mt_tensor **out)
{
    int64_t order[MT_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) order[i] = i;
    order[t->ndim - 2] = t->ndim - 1;
    order[t->ndim - 1] = t->ndim - 2;
    return mt_permute_raw(ctx, t, t->ndim, order, out);
}

/* Computes the gradients of node n's inputs from g (its output's gradient). grads[i] stays
 * NULL for inputs that need none. */
static enum mt_status node_backward(struct mt_ctx *ctx, struct mt_node *n, struct mt_tensor *g,
                                    struct mt_tensor **grads)
{
    struct mt_tensor *a = n->in[0], *b = n->in[1], *t1 = NULL, *t2 = NULL;
    enum mt_status st = MT_OK;
    switch ((enum mt_fn)n->fn) {
    case FN_NEG: st = map_new(ctx, MT_MAP_NEG, g, &grads[0]); break;
    case FN_INV: st = zip_new(ctx, MT_ZIP_INV_BACK, a, g, &grads[0]); break;
    case FN_RELU: st = zip_new(ctx, MT_ZIP_RELU_BACK, a, g, &grads[0]); break;
    case FN_LOG: st = zip_new(ctx, MT_ZIP_LOG_BACK, a, g, &grads[0]); break;
    case FN_EXP: st = zip_new(ctx, MT_ZIP_MUL, g, n->saved, &grads[0]); break;
    case FN_SIGMOID: /* g * s * (1 - s) */
        if ((st = zip_const(ctx, MT_ZIP_SUB, n->saved, 1.0f, &t1)) == MT_OK &&
            (st = zip_new(ctx, MT_ZIP_MUL, n->saved, t1, &t2)) == MT_OK) {
            mt_tensor_release(t1);
            t1 = NULL;
            if ((st = map_new(ctx, MT_MAP_NEG, t2, &t1)) == MT_OK)
                st = zip_new(ctx, MT_ZIP_MUL, g, t1, &grads[0]);
        }
        break;
    case FN_ABS: /* g * sign(a) = g * ((a > 0) - (a < 0)) */
        if ((st = zip_const(ctx, MT_ZIP_GT, a, 0.0f, &t1)) == MT_OK &&
            (st = zip_const(ctx, MT_ZIP_LT, a, 0.0f, &t2)) == MT_OK) {
            struct mt_tensor *sgn = NULL;
            if ((st = zip_new(ctx, MT_ZIP_SUB, t1, t2, &sgn)) == MT_OK)
                st = zip_new(ctx, MT_ZIP_MUL, g, sgn, &grads[0]);
            mt_tensor_release(sgn);
        }
        break;
    case FN_SQRT: /* g * 0.5 / sqrt(a) */
        if ((st = zip_new(ctx, MT_ZIP_DIV, g, n->saved, &t1)) == MT_OK)
            st = zip_const(ctx, MT_ZIP_MUL, t1, 0.5f, &grads[0]);
        break;
    case FN_TANH: /* g * (1 - t^2) */
        if ((st = zip_new(ctx, MT_ZIP_MUL, n->saved, n->saved, &t1)) == MT_OK &&
            (st = zip_const(ctx, MT_ZIP_SUB, t1, 1.0f, &t2)) == MT_OK) {
            mt_tensor_release(t1);
            t1 = NULL;
            if ((st = map_new(ctx, MT_MAP_NEG, t2, &t1)) == MT_OK)
                st = zip_new(ctx, MT_ZIP_MUL, g, t1, &grads[0]);
        }
        break;
    case FN_ADD:
        grads[0] = mt_tensor_retain(g);
        grads[1] = mt_tensor_retain(g);
        break;
    case FN_SUB:
        grads[0] = mt_tensor_retain(g);
        st = map_new(ctx, MT_MAP_NEG, g, &grads[1]);
        break;
    case FN_MUL:
        if ((st = zip_new(ctx, MT_ZIP_MUL, g, b, &grads[0])) == MT_OK)
            st = zip_new(ctx, MT_ZIP_MUL, g, a, &grads[1]);
        break;
    case FN_DIV: /* (g / b, -g * a / b^2) */
        if ((st = zip_new(ctx, MT_ZIP_DIV, g, b, &grads[0])) == MT_OK &&
            (st = zip_new(ctx, MT_ZIP_MUL, grads[0], a, &t1)) == MT_OK &&
            (st = zip_new(ctx, MT_ZIP_DIV, t1, b, &t2)) == MT_OK)
            st = map_new(ctx, MT_MAP_NEG, t2, &grads[1]);
        break;
    case FN_LT:
    case FN_GT:
    case FN_EQ: /* MiniTorch: zero gradients for both inputs */
        if ((st = mt_zeros(ctx, a->backend, a->ndim, a->shape, &grads[0])) == MT_OK)
            st = mt_zeros(ctx, b->backend, b->ndim, b->shape, &grads[1]);
        break;
    case FN_SUM: grads[0] = mt_tensor_retain(g); break; /* expand broadcasts it up */
    case FN_MEAN: {
        int64_t cnt = n->dim == MT_ALL_DIMS ? a->size : a->shape[n->dim];
        st = zip_const(ctx, MT_ZIP_DIV, g, (float)cnt, &grads[0]);
        break;
    }
    case FN_MAX: /* g where a equals the max (ties all get it), 0 elsewhere; the saved max
                  * keeps the reduced dim (or is (1,)), so it broadcasts against a */
        if ((st = zip_new(ctx, MT_ZIP_EQ, a, n->saved, &t1)) == MT_OK)
            st = zip_new(ctx, MT_ZIP_MUL, t1, g, &grads[0]);
        break;
    case FN_MATMUL: { /* (g @ b^T, a^T @ g) */
        struct mt_tensor *bt = NULL, *at = NULL;
        if ((st = transpose(ctx, b, &bt)) == MT_OK &&
            (st = mt_matmul_raw(ctx, g, bt, &grads[0])) == MT_OK &&
            (st = transpose(ctx, a, &at)) == MT_OK)
            st = mt_matmul_raw(ctx, at, g, &grads[1]);
        mt_tensor_release(bt);
        mt_tensor_release(at);
        break;
    }
    case FN_CONV: { /* MiniTorch's backward: both gradients are convolutions */
        int64_t swap[MT_MAX_DIMS] = {1, 0, 2, 3}; /* batch and channels exchanged */
        int64_t shape[MT_MAX_DIMS];
        struct mt_tensor *ai = NULL, *gi = NULL, *bi = NULL, *gw = NULL;
        memcpy(shape, b->shape, sizeof shape); /* the weight's gradient, as (C, O, kh, kw) */
        shape[0] = b->shape[1];
        shape[1] = b->shape[0];
        if ((st = mt_permute_raw(ctx, a, a->ndim, swap, &ai)) == MT_OK &&
            (st = mt_permute_raw(ctx, g, g->ndim, swap, &gi)) == MT_OK &&
            (st = mt_empty(ctx, b->backend, b->ndim, shape, &gw)) == MT_OK &&
            (st = mt_conv_raw(ctx, ai, gi, false, &gw)) == MT_OK &&
            (st = mt_permute_raw(ctx, gw, gw->ndim, swap, &grads[1])) == MT_OK &&
            (st = mt_permute_raw(ctx, b, b->ndim, swap, &bi)) == MT_OK &&
            (st = mt_empty(ctx, a->backend, a->ndim, a->shape, &grads[0])) == MT_OK)
            st = mt_conv_raw(ctx, g, bi, true, &grads[0]);
        mt_tensor_release(ai);
        mt_tensor_release(gi);
        mt_tensor_release(bi);
        mt_tensor_release(gw);
        break;
    }
    case FN_VIEW:
        if ((st = mt_contiguous(ctx, g, &t1)) == MT_OK)
            st = mt_view_raw(ctx, t1, n->ndim, n->shape, &grads[0]);
        break;
    case FN_PERMUTE: st = mt_permute_raw(ctx, g, n->ndim, n->shape, &grads[0]); break;
    case FN_COPY: grads[0] = mt_tensor_retain(g); break;
    case FN_TO: st = mt_to_raw(ctx, g, n->backend, &grads[0]); break;
    case FN_FORWARD_ONLY:
        st = mt_fail(ctx, MT_ERR_GRAD,
                     "backward cannot pass through %s: user functions run forward only (as "
                     "MiniTorch's tensor_map, tensor_zip and tensor_reduce); write the "
                     "computation with tensor ops to differentiate it, or detach() its inputs",
                     n->what);
        break;
    case FN_CUSTOM:
        st = n->custom.backward(n->custom.data, ctx, g, n->nin, grads);
        if (st != MT_OK && st != MT_ERR_CANCELLED)
            mt_fail(ctx, st, "backward: a custom Function's backward failed");
        break;
    case FN_COUNT: break;
    }
    mt_tensor_release(t1);
    mt_tensor_release(t2);
    return st;
}

/* Adds g into *acc (taking over g). */
static enum mt_status accumulate(struct mt_ctx *ctx, struct mt_tensor **acc, struct mt_tensor *g)
{
    if (!*acc) {
        *acc = g;
        return MT_OK;
    }
    struct mt_tensor *sum = NULL;
    enum mt_status st = zip_new(ctx, MT_ZIP_ADD, *acc, g, &sum);
    mt_tensor_release(g);
    if (st != MT_OK) return st;
    mt_tensor_release(*acc);
    *acc = sum;
    return MT_OK;
}

/* Non-leaf tensors reachable from t that require grad, outputs before their inputs. */
static enum mt_status topo_order(struct mt_ctx *ctx, struct mt_tensor *t,
                                 struct mt_tensor ***order_out, size_t *count)
{
    unsigned pass = ++ctx->backward_pass;
    size_t cap = 64, n = 0, scap = 64, sn = 0;
    struct mt_tensor **order = malloc(cap * sizeof *order);
    struct {
        struct mt_tensor *t;
        int next; /* next input to visit */
    } *stack = malloc(scap * sizeof *stack);
    if (!order || !stack) goto nomem;
    t->node->visit = pass;
    stack[sn++].t = t;
    stack[sn - 1].next = 0;
    while (sn > 0) {
        struct mt_tensor *v = stack[sn - 1].t;
        struct mt_node *nd = v->node;
        if (stack[sn - 1].next < nd->nin) {
            struct mt_tensor *in = nd->in[stack[sn - 1].next++];
            if (in->requires_grad && in->node && in->node->visit != pass) {
                in->node->visit = pass;
                if (sn == scap) {
                    void *grown = realloc(stack, (scap *= 2) * sizeof *stack);
                    if (!grown) goto nomem;
                    stack = grown;
                }
                stack[sn].t = in;
                stack[sn++].next = 0;
            }
            continue;
        }
        /* post-order: all of v's inputs are placed; v goes after them */
        if (n == cap) {
            void *grown = realloc(order, (cap *= 2) * sizeof *order);
            if (!grown) goto nomem;
            order = grown;
        }
        order[n++] = v;
        sn--;
    }
    free(stack);
    /* reverse: outputs first */
    for (size_t i = 0; i < n / 2; i++) {
        struct mt_tensor *tmp = order[i];
        order[i] = order[n - 1 - i];
        order[n - 1 - i] = tmp;
    }
    *order_out = order;
    *count = n;
    return MT_OK;
nomem:
    free(order);
    free(stack);
    return mt_fail(ctx, MT_ERR_NOMEM, "out of memory ordering the autodiff graph");
}

/* MT_ERR_GRAD when a value that a node's backward reads was written in place after the node
 * was recorded: the gradient would be computed from the new value. The whole graph is checked
 * before any gradient is computed, so a refused backward leaves every .grad as it was. */
static enum mt_status check_versions(struct mt_ctx *ctx, struct mt_tensor *const *order,
                                     size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const struct mt_node *n = order[i]->node;
        const unsigned reads = values_read(n->fn);
        const struct mt_tensor *kept[3] = {n->in[0], n->in[1], n->saved};
        const char *role[3] = {n->nin > 1 ? "first input" : "input", "second input", "result"};
        for (int k = 0; k < 3; k++) {
            if (!(reads >> k & 1u) || kept[k]->storage->version == n->version[k]) continue;
            char sh[160];
            const char *name = fn_names[n->fn];
            return mt_fail(ctx, MT_ERR_GRAD,
                           "backward: one of the values needed for gradient computation has been "
                           "modified in place: the %s of %s (shape %s) is at version %llu, %s "
                           "used it at version %llu (an element assignment, a map into out=, an "
                           "optimizer step or a move to another backend wrote it); make that "
                           "write after backward(), or write a copy",
                           role[k], name,
                           mt_shape_str(kept[k]->ndim, kept[k]->shape, sh, sizeof sh),
                           (unsigned long long)kept[k]->storage->version, name,
                           (unsigned long long)n->version[k]);
        }
    }
    return MT_OK;
}

enum mt_status mt_backward(struct mt_ctx *ctx, struct mt_tensor *t, struct mt_tensor *grad)
{
    char s1[160], s2[160];
    /* a custom Function's backward runs inside the walk below, whose marks a second walk
     * would reuse */
    if (ctx->in_backward)
        return mt_fail(ctx, MT_ERR_GRAD,
                       "backward() cannot run inside a Function's backward: compute its "
                       "gradients with tensor operations");
    if (!t->requires_grad)
        return mt_fail(ctx, MT_ERR_GRAD,
                       "backward: this tensor does not require grad (no input had "
                       "requires_grad=true)");
    struct mt_tensor *g = NULL;
    enum mt_status st;
    if (!grad) {
        if (t->size != 1)
            return mt_fail(ctx, MT_ERR_GRAD,
                           "backward() without a gradient needs a tensor of one element; this "
                           "one has shape %s: pass a gradient of that shape",
                           mt_shape_str(t->ndim, t->shape, s1, sizeof s1));
        if ((st = mt_ones(ctx, t->backend, t->ndim, t->shape, &g)) != MT_OK) return st;
    } else {
        if (grad->ndim != t->ndim ||
            memcmp(grad->shape, t->shape, (size_t)t->ndim * sizeof *t->shape) != 0)
            return mt_fail(ctx, MT_ERR_SHAPE, "backward: the gradient has shape %s, the tensor %s",
                           mt_shape_str(grad->ndim, grad->shape, s1, sizeof s1),
                           mt_shape_str(t->ndim, t->shape, s2, sizeof s2));
        if (grad->backend != t->backend)
            return mt_fail(ctx, MT_ERR_BACKEND, "backward: the gradient is on %s, the tensor on %s",
                           mt_backend_name(grad->backend), mt_backend_name(t->backend));
        g = mt_tensor_retain(grad);
    }
    if (!t->node) { /* a leaf: its gradient is g itself */
        struct mt_tensor *c = NULL;
        st = mt_copy_raw(ctx, g, &c);
        mt_tensor_release(g);
        return st == MT_OK ? accumulate(ctx, &t->grad, c) : st;
    }
    struct mt_tensor **order = NULL;
    size_t count = 0;
    if ((st = topo_order(ctx, t, &order, &count)) != MT_OK ||
        (st = check_versions(ctx, order, count)) != MT_OK) {
        free(order);
        mt_tensor_release(g);
        return st;
    }
    t->node->gacc = g;
    ctx->in_backward = true;
    for (size_t i = 0; i < count && st == MT_OK; i++) {
        struct mt_tensor *v = order[i];
        struct mt_node *nd = v->node;
        struct mt_tensor *gv = nd->gacc;
        nd->gacc = NULL;
        if (!gv) continue; /* nothing flowed here (e.g. only through non-differentiable ops) */
        if (mt_cancel_requested()) st = MT_ERR_CANCELLED;
        struct mt_tensor *grads[MT_CUSTOM_MAX_IN] = {NULL};
        if (st == MT_OK) st = node_backward(ctx, nd, gv, grads);
        mt_tensor_release(gv);
        for (int k = 0; k < nd->nin; k++) {
            struct mt_tensor *in = nd->in[k], *e = NULL;
            if (!grads[k]) continue;
            if (st != MT_OK || !in->requires_grad) {
                mt_tensor_release(grads[k]);
                continue;
            }
            st = expand(ctx, in, grads[k], &e);
            if (st != MT_OK) continue;
            if (in->node) {
                st = accumulate(ctx, &in->node->gacc, e);
            } else {
                /* a leaf keeps its own contiguous copy, never a view of a graph value */
                struct mt_tensor *c = NULL;
                st = mt_copy_raw(ctx, e, &c);
                mt_tensor_release(e);
                if (st == MT_OK) st = accumulate(ctx, &in->grad, c);
            }
        }
    }
    ctx->in_backward = false;
    for (size_t i = 0; i < count; i++) { /* after an error, drop what was left pending */
        mt_tensor_release(order[i]->node->gacc);
        order[i]->node->gacc = NULL;
    }
    free(order);
    if (st == MT_ERR_CANCELLED) mt_fail(ctx, st, "backward was interrupted");
    return st;
}
