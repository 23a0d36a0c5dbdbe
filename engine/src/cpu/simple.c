/* simple.c — the `simple` backend: MiniTorch's SimpleOps, serial and plain.
 *
 * This is the readable reference that teaches the algorithm, and the slow twin every fast path
 * is tested against. Each kernel walks the output's elements in order: the ordinal becomes an
 * index (to_index), the index is mapped into each broadcast input (broadcast_index) and then to
 * a storage position (index_to_position). No fast paths, no threads, no SIMD. */
#include "../internal.h"

#include "../prog_eval.h"
#include "scalar.h"

#include <string.h>

#include <math.h>

static const mt_scalar_map_fn map_fns[] = MT_SCALAR_MAP_TABLE;
static const mt_scalar_zip_fn zip_fns[] = MT_SCALAR_ZIP_TABLE;
_Static_assert(sizeof map_fns / sizeof map_fns[0] == MT_MAP_COUNT, "one function per map op");
_Static_assert(sizeof zip_fns / sizeof zip_fns[0] == MT_ZIP_COUNT, "one function per zip op");

float mt_map_scalar(enum mt_map_op op, float x)
{
    return (unsigned)op < MT_MAP_COUNT ? map_fns[op](x) : NAN;
}
float mt_zip_scalar(enum mt_zip_op op, float x, float y)
{
    return (unsigned)op < MT_ZIP_COUNT ? zip_fns[op](x, y) : NAN;
}
float mt_reduce_start_value(enum mt_reduce_op op) { return mt_reduce_start(op); }

/* Poll the cancel flag once per this many output elements. */
#define POLL_EVERY 65536

static enum mt_status simple_map(struct mt_ctx *ctx, enum mt_map_op op, struct mt_tensor *out,
                                 const struct mt_tensor *a, struct mt_diag *d)
{
    (void)ctx;
    mt_scalar_map_fn fn = map_fns[op];
    const float *in = mt_data(a);
    float *o = mt_data(out);
    int64_t out_index[MT_MAX_DIMS], in_index[MT_MAX_DIMS];
    for (int64_t i = 0; i < out->size; i++) {
        if (i % POLL_EVERY == 0 && mt_cancel_requested()) return MT_ERR_CANCELLED;
        mt_to_index(i, out->ndim, out->shape, out_index);
        mt_broadcast_index(out_index, out->ndim, a->ndim, a->shape, in_index);
        o[mt_index_to_position(out->ndim, out_index, out->strides)] =
            fn(in[mt_index_to_position(a->ndim, in_index, a->strides)]);
    }
    d->path = "strided";
    return MT_OK;
}

static enum mt_status simple_zip(struct mt_ctx *ctx, enum mt_zip_op op, struct mt_tensor *out,
                                 const struct mt_tensor *a, const struct mt_tensor *b,
                                 struct mt_diag *d)
{
    (void)ctx;
    mt_scalar_zip_fn fn = zip_fns[op];
    const float *pa = mt_data(a), *pb = mt_data(b);
    float *o = mt_data(out);
    int64_t out_index[MT_MAX_DIMS], a_index[MT_MAX_DIMS], b_index[MT_MAX_DIMS];
    for (int64_t i = 0; i < out->size; i++) {
        if (i % POLL_EVERY == 0 && mt_cancel_requested()) return MT_ERR_CANCELLED;
        mt_to_index(i, out->ndim, out->shape, out_index);
        mt_broadcast_index(out_index, out->ndim, a->ndim, a->shape, a_index);
        mt_broadcast_index(out_index, out->ndim, b->ndim, b->shape, b_index);
        o[mt_index_to_position(out->ndim, out_index, out->strides)] =
            fn(pa[mt_index_to_position(a->ndim, a_index, a->strides)],
               pb[mt_index_to_position(b->ndim, b_index, b->strides)]);
    }
    d->path = "strided";
    return MT_OK;
}

static float reduce_step(enum mt_reduce_op op, float acc, float x)
{
    switch (op) {
    case MT_RED_PROD: return acc * x;
    case MT_RED_MAX: return mt_s_max(acc, x);
    default: return acc + x; /* sum, mean */
    }
}

static enum mt_status simple_reduce(struct mt_ctx *ctx, enum mt_reduce_op op, struct mt_tensor *out,
                                    const struct mt_tensor *a, int dim, struct mt_diag *d)
{
    (void)ctx;
    const float *in = mt_data(a);
    float *o = mt_data(out);
    int64_t n = a->shape[dim];
    int64_t index[MT_MAX_DIMS];
    for (int64_t i = 0; i < out->size; i++) {
        if (i % (POLL_EVERY / (n > 0 ? n : 1) + 1) == 0 && mt_cancel_requested())
            return MT_ERR_CANCELLED;
        mt_to_index(i, out->ndim, out->shape, index);
        int64_t pos_out = mt_index_to_position(out->ndim, index, out->strides);
        int64_t pos_in = mt_index_to_position(a->ndim, index, a->strides); /* index[dim] = 0 */
        float acc = mt_reduce_start(op);
        for (int64_t j = 0; j < n; j++)
            acc = reduce_step(op, acc, in[pos_in + j * a->strides[dim]]);
        if (op == MT_RED_MEAN) acc = n > 0 ? acc / (float)n : NAN;
        o[pos_out] = acc;
    }
    d->path = "strided";
    return MT_OK;
}

/* out (..., M, N) = a (..., M, K) @ b (..., K, N): for every output cell, a dot product. */
static enum mt_status simple_matmul(struct mt_ctx *ctx, struct mt_tensor *out,
                                    const struct mt_tensor *a, const struct mt_tensor *b,
                                    struct mt_diag *d)
{
    (void)ctx;
    int nd = out->ndim;
    int64_t M = out->shape[nd - 2], N = out->shape[nd - 1], K = a->shape[nd - 1];
    const float *pa = mt_data(a), *pb = mt_data(b);
    float *o = mt_data(out);
    int64_t index[MT_MAX_DIMS];
    int64_t batches = out->size / (M * N);
    for (int64_t bi = 0; bi < batches; bi++) {
        if (mt_cancel_requested()) return MT_ERR_CANCELLED;
        /* the batch index; a's and b's batch strides are 0 where they broadcast */
        mt_to_index(bi, nd - 2, out->shape, index);
        index[nd - 2] = index[nd - 1] = 0;
        const float *ab = pa + mt_index_to_position(nd, index, a->strides);
        const float *bb = pb + mt_index_to_position(nd, index, b->strides);
        float *ob = o + mt_index_to_position(nd, index, out->strides);
        for (int64_t i = 0; i < M; i++) {
            if (mt_cancel_requested()) return MT_ERR_CANCELLED;
            for (int64_t j = 0; j < N; j++) {
                float acc = 0.0f;
                for (int64_t k = 0; k < K; k++)
                    acc += ab[i * a->strides[nd - 2] + k * a->strides[nd - 1]] *
                           bb[k * b->strides[nd - 2] + j * b->strides[nd - 1]];
                ob[i * out->strides[nd - 2] + j * out->strides[nd - 1]] = acc;
            }
        }
    }
    d->path = "strided";
    return MT_OK;
}

/* MiniTorch's convolution (mt_conv_raw), as its _tensor_conv2d computes it: for every output
 * cell, the sum over the input channels and the kernel's cells of the input cell the kernel's
 * cell lands on (none past the input's edges) times the weight. */
static enum mt_status simple_conv(struct mt_ctx *ctx, struct mt_tensor *out,
                                  const struct mt_tensor *input, const struct mt_tensor *weight,
                                  bool reverse, struct mt_diag *d)
{
    (void)ctx;
    const int64_t *so = out->strides, *si = input->strides, *sw = weight->strides;
    const int64_t C = input->shape[1], H = input->shape[2], W = input->shape[3];
    const int64_t KH = weight->shape[2], KW = weight->shape[3];
    const float *in = mt_data(input), *w = mt_data(weight);
    float *o = mt_data(out);
    int64_t index[4];
    for (int64_t i = 0; i < out->size; i++) {
        if (i % 1024 == 0 && mt_cancel_requested()) return MT_ERR_CANCELLED;
        mt_to_index(i, 4, out->shape, index);
        const int64_t b = index[0], oc = index[1], y = index[2], x = index[3];
        float acc = 0.0f;
        for (int64_t c = 0; c < C; c++)
            for (int64_t ky = 0; ky < KH; ky++) {
                const int64_t iy = reverse ? y - ky : y + ky;
                if (iy < 0 || iy >= H) continue;
                for (int64_t kx = 0; kx < KW; kx++) {
                    const int64_t ix = reverse ? x - kx : x + kx;
                    if (ix < 0 || ix >= W) continue;
                    acc += in[b * si[0] + c * si[1] + iy * si[2] + ix * si[3]] *
                           w[oc * sw[0] + c * sw[1] + ky * sw[2] + kx * sw[3]];
                }
            }
        o[mt_index_to_position(4, index, so)] = acc;
    }
    d->path = "strided";
    return MT_OK;
}

/* ---- user functions: the reference, one element at a time (mt_prog_eval's meaning) ---- */

static enum mt_status simple_prog_elementwise(struct mt_ctx *ctx, const char *what,
                                              const struct mt_prog *p, struct mt_tensor *out,
                                              const struct mt_tensor *a, const struct mt_tensor *b,
                                              struct mt_diag *d)
{
    const struct mt_tensor *ins[2] = {a, b};
    const int nin = b ? 2 : 1;
    /* each operand's strides expanded to out's shape (0 on broadcast dims); es[2]: out's */
    const float *src[2] = {NULL, NULL};
    int64_t es[3][MT_MAX_DIMS];
    for (int i = 0; i < nin; i++) {
        src[i] = mt_data(ins[i]);
        mt_expand_strides(ins[i], out->ndim, out->shape, es[i]);
    }
    float *dst = mt_data(out);
    mt_expand_strides(out, out->ndim, out->shape, es[2]);
    int64_t idx[MT_MAX_DIMS];
    mt_to_index(0, out->ndim, out->shape, idx);
    int64_t pos[3] = {0, 0, 0};
    for (int64_t e = 0; e < out->size; e++) {
        if (mt_cancel_requested()) return mt_prog_fail(ctx, MT_ERR_CANCELLED, what, p);
        float args[2];
        for (int i = 0; i < nin; i++) args[i] = src[i][pos[i]];
        dst[pos[2]] = mt_prog_eval_inline(p, args);
        /* advance all three positions by one element of out */
        for (int dd = out->ndim - 1; dd >= 0; dd--) {
            if (++idx[dd] < out->shape[dd]) {
                for (int i = 0; i < 3; i++)
                    if (i < nin || i == 2) pos[i] += es[i][dd];
                break;
            }
            for (int i = 0; i < 3; i++)
                if (i < nin || i == 2) pos[i] -= (out->shape[dd] - 1) * es[i][dd];
            idx[dd] = 0;
        }
    }
    if (d) d->path = "user function, one element at a time";
    return MT_OK;
}

static enum mt_status simple_prog_reduce(struct mt_ctx *ctx, const struct mt_prog *p,
                                         struct mt_tensor *out, const struct mt_tensor *a, int dim,
                                         float start, struct mt_diag *d)
{
    /* one output at a time, one element at a time; base: a's strides with the reduced dim's 0,
     * walked in out's order to each output's first element */
    const float *data = mt_data(a);
    const int64_t len = a->shape[dim], stride = a->strides[dim];
    int64_t base[MT_MAX_DIMS], idx[MT_MAX_DIMS], oidx[MT_MAX_DIMS];
    memcpy(base, a->strides, sizeof base);
    base[dim] = 0;
    mt_to_index(0, out->ndim, out->shape, idx);
    int64_t pos = 0;
    for (int64_t e = 0; e < out->size; e++) {
        float args[2] = {start, 0.0f};
        for (int64_t k = 0; k < len; k++) {
            if ((k & 4095) == 0 && mt_cancel_requested())
                return mt_prog_fail(ctx, MT_ERR_CANCELLED, "reduce", p);
            args[1] = data[pos + k * stride];
            args[0] = mt_prog_eval_inline(p, args);
        }
        mt_to_index(e, out->ndim, out->shape, oidx);
        mt_data(out)[mt_index_to_position(out->ndim, oidx, out->strides)] = args[0];
        for (int dd = out->ndim - 1; dd >= 0; dd--) {
            if (++idx[dd] < out->shape[dd]) {
                pos += base[dd];
                break;
            }
            pos -= (out->shape[dd] - 1) * base[dd];
            idx[dd] = 0;
        }
    }
    if (d) d->path = "user function, one element at a time";
    return MT_OK;
}

/* Storage on the host (cpu/host.c, shared with fast); no tiny-op shortcuts, no fused epoch: the
 * reference runs every op through the front door's checks and autodiff. */
const struct mt_backend_ops mt_simple_ops = {
    MT_HOST_MEMORY_OPS,
    .repeatable = true,
    .map = simple_map,
    .zip = simple_zip,
    .reduce = simple_reduce,
    .matmul = simple_matmul,
    .conv = simple_conv,
    .prog_elementwise = simple_prog_elementwise,
    .prog_reduce = simple_prog_reduce,
};
