/* train.c — MiniTorch's training loop (project/run_fast_tensor.py) in C: shuffle, batches,
 * batch-mean binary cross-entropy, backward, SGD; see minitorch.h for the contract.
 *
 * Two step implementations that compute the same floats:
 *
 * - ops_step: the loop a student writes in the language, op by op, through autodiff. It is the
 *   reference, and the path for every backend.
 * - fused_step: the same arithmetic on buffers allocated once. Why it gives the same bits:
 *   every elementwise op is one IEEE operation per element (this file is compiled with
 *   -ffp-contract=off, so no multiply-add is fused behind our back), written in the order
 *   autodiff.c's backward performs them; sigmoid and log call the fast backend's own kernel
 *   table; sums use fast's rules (mt_fast_sum_contig, and column sums in row order as its
 *   column reduce); and the products go through mt_cpu_gemm with the strides the autodiff
 *   views have (x @ W, h^T @ g, g @ W^T), whose per-element sum is one FMA chain in k order
 *   whatever the path (checked in tests/engine/test_gemm.c). tests/engine/test_train.c compares
 *   the two paths bit for bit, and tests/lang/train.mt compares train() with the loop written
 *   by hand.
 *   What it saves is everything around the arithmetic: a batch of the ops path builds ~40
 *   tensors and graph nodes; this one allocates nothing.
 *
 * Interrupts: the cancel flag is polled between batches. A step that the flag stops part-way
 * (a large product polls it inside) is dropped before the update, so the parameters only ever
 * hold whole steps. */
#include "internal.h"

#include "cpu/fast.h"
#include "cpu/gemm.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LAYERS 8
/* Points evaluated per forward pass in mt_trainer_correct: bounds the buffers for big sets. */
#define EVAL_ROWS 1024

struct layer_buf {
    int64_t in, out;
    float *z, *h, *gz; /* rows x out: pre-activation, activation, gradient of z */
    float *gh;         /* rows x in: gradient of this layer's input (layers > 0) */
    float *gw, *gb;    /* in x out and out: the parameters' gradients */
};

struct mt_trainer {
    struct mt_ctx *ctx;
    int nl;
    struct mt_linear layers[MAX_LAYERS]; /* references to the model's own tensors */
    struct mt_tensor *X, *y;             /* the data, as given (ops path) */
    float *xd, *yd;                      /* the data, contiguous copies (fused path) */
    int64_t n, in, batch, rows;          /* rows: the buffers' height, max(batch, EVAL_ROWS) */
    float rate;
    bool fused, have_grads;
    int64_t *perm;
    float *xb, *yb;                    /* the batch (rows x in, rows) */
    float *t2, *t3, *prob, *lg, *loss; /* loss terms, rows each */
    struct layer_buf L[MAX_LAYERS];
};

static void *alloc_floats(int64_t n) { return malloc((size_t)(n > 0 ? n : 1) * sizeof(float)); }

void mt_trainer_free(struct mt_trainer *t)
{
    if (!t) return;
    for (int l = 0; l < t->nl; l++) {
        mt_tensor_release(t->layers[l].weight);
        mt_tensor_release(t->layers[l].bias);
        struct layer_buf *b = &t->L[l];
        free(b->z);
        free(b->h);
        free(b->gz);
        free(b->gh);
        free(b->gw);
        free(b->gb);
    }
    mt_tensor_release(t->X);
    mt_tensor_release(t->y);
    free(t->xd);
    free(t->yd);
    free(t->perm);
    free(t->xb);
    free(t->yb);
    free(t->t2);
    free(t->t3);
    free(t->prob);
    free(t->lg);
    free(t->loss);
    free(t);
}

const char *mt_trainer_path(const struct mt_trainer *t)
{
    return t->fused ? "fused step" : "autodiff ops";
}

static bool fused_possible(const struct mt_trainer *t)
{
    if (t->X->backend != MT_BACKEND_FAST) return false;
    /* the step must sum as fast's matmul does: FMA chains (the direct path exists exactly for
     * the ISAs whose kernels sum that way) */
    const char *isa = mt_cpu_gemm_isa();
    if (strcmp(isa, "avx2") != 0 && strcmp(isa, "avx512") != 0 && strcmp(isa, "avx512emu") != 0)
        return false;
    for (int l = 0; l < t->nl; l++)
        if (t->layers[l].weight->backend != MT_BACKEND_FAST ||
            !mt_tensor_is_contiguous(t->layers[l].weight) ||
            !mt_tensor_is_contiguous(t->layers[l].bias))
            return false;
    return true;
}

enum mt_status mt_trainer_new(struct mt_ctx *ctx, const struct mt_linear *layers, int nlayers,
                              struct mt_tensor *X, struct mt_tensor *y, int64_t batch, float rate,
                              bool ops_only, struct mt_trainer **out)
{
    char s1[160], s2[160];
    *out = NULL;
    if (nlayers < 1 || nlayers > MAX_LAYERS)
        return mt_fail(ctx, MT_ERR_INVALID, "train: a network of 1 to %d layers, not %d",
                       MAX_LAYERS, nlayers);
    if (X->ndim != 2 || y->ndim != 1 || y->shape[0] != X->shape[0] || X->shape[0] < 1)
        return mt_fail(ctx, MT_ERR_SHAPE,
                       "train: the points must be (n, in) and the labels (n,), n >= 1; got %s "
                       "and %s",
                       mt_shape_str(X->ndim, X->shape, s1, sizeof s1),
                       mt_shape_str(y->ndim, y->shape, s2, sizeof s2));
    if (batch < 1) return mt_fail(ctx, MT_ERR_INVALID, "train: batch must be at least 1");
    int64_t in = X->shape[1];
    for (int l = 0; l < nlayers; l++) {
        const struct mt_tensor *w = layers[l].weight, *b = layers[l].bias;
        if (w->ndim != 2 || b->ndim != 1 || b->shape[0] != w->shape[1] || w->shape[0] != in)
            return mt_fail(ctx, MT_ERR_SHAPE,
                           "train: layer %d takes %lld inputs but its weight is %s", l + 1,
                           (long long)in, mt_shape_str(w->ndim, w->shape, s1, sizeof s1));
        if (w->backend != X->backend || b->backend != X->backend)
            return mt_fail(ctx, MT_ERR_BACKEND,
                           "train: the model is on %s and the data on %s: move one with .to()",
                           mt_backend_name(w->backend), mt_backend_name(X->backend));
        in = w->shape[1];
    }
    if (in != 1)
        return mt_fail(ctx, MT_ERR_SHAPE,
                       "train: the network must end in one output (a probability), not %lld",
                       (long long)in);
    if (y->backend != X->backend)
        return mt_fail(ctx, MT_ERR_BACKEND, "train: the points are on %s and the labels on %s",
                       mt_backend_name(X->backend), mt_backend_name(y->backend));

    struct mt_trainer *t = calloc(1, sizeof *t);
    if (!t) return mt_fail(ctx, MT_ERR_NOMEM, "train: out of memory");
    t->ctx = ctx;
    t->nl = nlayers;
    for (int l = 0; l < nlayers; l++) {
        t->layers[l].weight = mt_tensor_retain(layers[l].weight);
        t->layers[l].bias = mt_tensor_retain(layers[l].bias);
    }
    t->X = mt_tensor_retain(X);
    t->y = mt_tensor_retain(y);
    t->n = X->shape[0];
    t->in = X->shape[1];
    t->batch = batch < t->n ? batch : t->n;
    t->rows = t->batch > EVAL_ROWS ? t->batch : EVAL_ROWS;
    if (t->rows > t->n) t->rows = t->n;
    t->rate = rate;
    t->fused = !ops_only && fused_possible(t);
    t->perm = malloc((size_t)t->n * sizeof *t->perm);
    t->xd = alloc_floats(t->n * t->in);
    t->yd = alloc_floats(t->n);
    bool ok = t->perm && t->xd && t->yd;
    if (ok) {
        mt_tensor_copy_out(X, t->xd);
        mt_tensor_copy_out(y, t->yd);
    }
    if (ok && t->fused) {
        int64_t r = t->rows;
        t->xb = alloc_floats(r * t->in);
        t->yb = alloc_floats(r);
        t->t2 = alloc_floats(r);
        t->t3 = alloc_floats(r);
        t->prob = alloc_floats(r);
        t->lg = alloc_floats(r);
        t->loss = alloc_floats(r);
        ok = t->xb && t->yb && t->t2 && t->t3 && t->prob && t->lg && t->loss;
        for (int l = 0; l < nlayers && ok; l++) {
            struct layer_buf *b = &t->L[l];
            b->in = layers[l].weight->shape[0];
            b->out = layers[l].weight->shape[1];
            b->z = alloc_floats(r * b->out);
            b->h = alloc_floats(r * b->out);
            b->gz = alloc_floats(r * b->out);
            b->gh = l > 0 ? alloc_floats(r * b->in) : NULL;
            b->gw = alloc_floats(b->in * b->out);
            b->gb = alloc_floats(b->out);
            ok = b->z && b->h && b->gz && (l == 0 || b->gh) && b->gw && b->gb;
        }
    }
    if (!ok) {
        mt_trainer_free(t);
        return mt_fail(ctx, MT_ERR_NOMEM, "train: out of memory for the training buffers");
    }
    *out = t;
    return MT_OK;
}

/* ---- the fused step ----------------------------------------------------------------------- */

/* The elementwise pieces, on restrict pointers so that the compiler vectorises them. */
static void add_bias(float *restrict z, int64_t rows, int64_t n, const float *restrict bias)
{
    for (int64_t i = 0; i < rows; i++, z += n) /* x @ W + bias */
        for (int64_t j = 0; j < n; j++) z[j] = z[j] + bias[j];
}

/* Column sums in row order (fast's reduce over dim 0 of a (rows, n) tensor, n > 1). */
static void col_sums(const float *restrict g, int64_t rows, int64_t n, float *restrict out)
{
    for (int64_t j = 0; j < n; j++) out[j] = 0.0f;
    for (int64_t i = 0; i < rows; i++, g += n)
        for (int64_t j = 0; j < n; j++) out[j] = out[j] + g[j];
}

static void relu_back(const float *restrict z, const float *restrict g, int64_t n,
                      float *restrict out)
{
    for (int64_t i = 0; i < n; i++) {
        const float gi = g[i]; /* loaded unconditionally: a select, not a branch per element */
        out[i] = z[i] > 0.0f ? gi : 0.0f;
    }
}

static void sgd_update(float *restrict p, const float *restrict g, int64_t n, float rate)
{
    for (int64_t i = 0; i < n; i++) {
        float s = g[i] * rate;
        p[i] = p[i] - s;
    }
}

/* The network on rows x (bs, in), into each layer's z and h. */
static enum mt_status fused_forward(struct mt_trainer *t, int64_t bs, const float *x)
{
    const struct mt_fast_kernels *k = mt_fast_active();
    const float *h = x;
    for (int l = 0; l < t->nl; l++) {
        struct layer_buf *b = &t->L[l];
        const float *W = mt_data(t->layers[l].weight), *bias = mt_data(t->layers[l].bias);
        int st = mt_cpu_gemm(t->ctx->threads, bs, b->out, b->in, h, b->in, 1, W, b->out, 1, b->z,
                             b->out, 1);
        if (st != MT_OK) return (enum mt_status)st;
        add_bias(b->z, bs, b->out, bias);
        k->map(l + 1 < t->nl ? MT_MAP_RELU : MT_MAP_SIGMOID, bs * b->out, b->z, b->h);
        h = b->h;
    }
    return MT_OK;
}

/* One step on the batch in xb/yb; *batch_loss = loss.sum(). Nothing is updated unless every
 * gradient was computed. */
static enum mt_status fused_step(struct mt_trainer *t, int64_t bs, float *batch_loss)
{
    const struct mt_fast_kernels *k = mt_fast_active();
    enum mt_status st = fused_forward(t, bs, t->xb);
    if (st != MT_OK) return st;
    struct layer_buf *last = &t->L[t->nl - 1];
    const float *out = last->h, *y = t->yb;
    /* prob = out * y + (out - 1) * (y - 1); loss = -log(prob) */
    for (int64_t i = 0; i < bs; i++) {
        t->t2[i] = out[i] - 1.0f;
        t->t3[i] = y[i] - 1.0f;
        float a = out[i] * y[i], b = t->t2[i] * t->t3[i];
        t->prob[i] = a + b;
    }
    k->map(MT_MAP_LOG, bs, t->prob, t->lg);
    for (int64_t i = 0; i < bs; i++) t->loss[i] = -t->lg[i];
    *batch_loss = mt_fast_sum_contig(bs, t->loss);

    /* Backward, in autodiff.c's order: sum -> ones; div by bs -> 1/bs; neg; log: g / prob;
     * add: to both products; out gets g*y (out * y) plus g*(y-1) (through out - 1); sigmoid:
     * g * -(s * (s - 1)). */
    const float g_div = 1.0f / (float)bs, g_log = -g_div;
    for (int64_t i = 0; i < bs; i++) {
        float g_prob = g_log / t->prob[i];
        float g_a = g_prob * y[i], g_b = g_prob * t->t3[i];
        float g_out = g_a + g_b;
        float s = out[i], u = s - 1.0f, v = s * u, w = -v;
        last->gz[i] = g_out * w;
    }
    for (int l = t->nl - 1; l >= 0; l--) {
        struct layer_buf *b = &t->L[l];
        const float *hin = l > 0 ? t->L[l - 1].h : t->xb;
        /* bias: g summed over the batch (fast's reduce over dim 0) */
        if (b->out == 1)
            b->gb[0] = mt_fast_sum_contig(bs, b->gz);
        else
            col_sums(b->gz, bs, b->out, b->gb);
        /* weight: h^T @ g */
        int gs = mt_cpu_gemm(t->ctx->threads, b->in, b->out, bs, hin, 1, b->in, b->gz, b->out, 1,
                             b->gw, b->out, 1);
        if (gs != MT_OK) return (enum mt_status)gs;
        if (l == 0) break;
        /* the layer's input: g @ W^T, then back through the ReLU before it */
        gs = mt_cpu_gemm(t->ctx->threads, bs, b->in, b->out, b->gz, b->out, 1,
                         mt_data(t->layers[l].weight), 1, b->out, b->gh, b->in, 1);
        if (gs != MT_OK) return (enum mt_status)gs;
        relu_back(t->L[l - 1].z, b->gh, bs * b->in, t->L[l - 1].gz);
    }
    /* SGD: p = p - grad * rate, parameter by parameter (weight, bias; layer by layer) */
    for (int l = 0; l < t->nl; l++) {
        const struct layer_buf *b = &t->L[l];
        sgd_update(mt_data(t->layers[l].weight), b->gw, b->in * b->out, t->rate);
        sgd_update(mt_data(t->layers[l].bias), b->gb, b->out, t->rate);
    }
    t->have_grads = true;
    return MT_OK;
}

/* ---- the ops step (the loop as written in the language) ----------------------------------- */

static enum mt_status model_ops(struct mt_trainer *t, struct mt_tensor *x, struct mt_tensor **out)
{
    struct mt_ctx *ctx = t->ctx;
    struct mt_tensor *h = mt_tensor_retain(x);
    enum mt_status st = MT_OK;
    for (int l = 0; l < t->nl && st == MT_OK; l++) {
        struct mt_tensor *z = NULL, *a = NULL;
        st = mt_linear_forward(ctx, &t->layers[l], h, &z);
        if (st == MT_OK) st = l + 1 < t->nl ? mt_relu(ctx, z, &a) : mt_sigmoid(ctx, z, &a);
        mt_tensor_release(z);
        mt_tensor_release(h);
        h = a;
    }
    if (st != MT_OK) {
        mt_tensor_release(h);
        return st;
    }
    *out = h;
    return MT_OK;
}

static enum mt_status ops_step(struct mt_trainer *t, struct mt_tensor *xb, struct mt_tensor *yb,
                               float *batch_loss)
{
    struct mt_ctx *ctx = t->ctx;
    enum mt_backend be = xb->backend;
    int64_t bs = yb->shape[0], one_shape = 1;
    struct mt_tensor *params[2 * MAX_LAYERS];
    for (int l = 0; l < t->nl; l++) {
        params[2 * l] = t->layers[l].weight;
        params[2 * l + 1] = t->layers[l].bias;
    }
    mt_sgd_zero_grad(params, 2 * t->nl);
    struct mt_tensor *m = NULL, *out = NULL, *one = NULL, *nb = NULL, *a = NULL, *t2 = NULL,
                     *t3 = NULL, *b = NULL, *prob = NULL, *lg = NULL, *loss = NULL, *d = NULL,
                     *s = NULL, *v = NULL, *ls = NULL;
    enum mt_status st = model_ops(t, xb, &m);
    if (st == MT_OK) st = mt_view(ctx, m, 1, &bs, &out);
    if (st == MT_OK) st = mt_full(ctx, be, 1, &one_shape, 1.0f, &one);
    if (st == MT_OK) st = mt_full(ctx, be, 1, &one_shape, (float)bs, &nb);
    if (st == MT_OK) st = mt_mul(ctx, out, yb, &a);
    if (st == MT_OK) st = mt_sub(ctx, out, one, &t2);
    if (st == MT_OK) st = mt_sub(ctx, yb, one, &t3);
    if (st == MT_OK) st = mt_mul(ctx, t2, t3, &b);
    if (st == MT_OK) st = mt_add(ctx, a, b, &prob);
    if (st == MT_OK) st = mt_log(ctx, prob, &lg);
    if (st == MT_OK) st = mt_neg(ctx, lg, &loss);
    if (st == MT_OK) st = mt_div(ctx, loss, nb, &d);
    if (st == MT_OK) st = mt_sum(ctx, d, MT_ALL_DIMS, &s);
    if (st == MT_OK) st = mt_view(ctx, s, 1, &one_shape, &v);
    if (st == MT_OK) st = mt_backward(ctx, v, NULL);
    if (st == MT_OK) st = mt_sgd_step(ctx, params, 2 * t->nl, t->rate);
    if (st == MT_OK) st = mt_sum(ctx, loss, MT_ALL_DIMS, &ls);
    if (st == MT_OK) *batch_loss = mt_data(ls)[0];
    struct mt_tensor *all[] = {m, out, one, nb, a, t2, t3, b, prob, lg, loss, d, s, v, ls};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) mt_tensor_release(all[i]);
    return st;
}

/* ---- the loop --------------------------------------------------------------------------- */

enum mt_status mt_trainer_epoch(struct mt_trainer *t, double *loss)
{
    struct mt_ctx *ctx = t->ctx;
    enum mt_status st = MT_OK;
    *loss = 0.0;
    for (int64_t i = 0; i < t->n; i++) t->perm[i] = i;
    mt_shuffle(ctx, t->perm, t->n);
    for (int64_t b0 = 0; b0 < t->n && st == MT_OK; b0 += t->batch) {
        if (mt_cancel_requested())
            return mt_fail(ctx, MT_ERR_CANCELLED, "training was interrupted");
        int64_t bs = t->n - b0 < t->batch ? t->n - b0 : t->batch;
        float bl = 0.0f;
        if (t->fused) {
            for (int64_t i = 0; i < bs; i++) {
                int64_t p = t->perm[b0 + i];
                memcpy(t->xb + i * t->in, t->xd + p * t->in, (size_t)t->in * sizeof(float));
                t->yb[i] = t->yd[p];
            }
            st = fused_step(t, bs, &bl);
        } else {
            struct mt_tensor *xb = NULL, *yb = NULL;
            float *xs = alloc_floats(bs * t->in), *ys = alloc_floats(bs);
            if (!xs || !ys) st = mt_fail(ctx, MT_ERR_NOMEM, "train: out of memory for a batch");
            for (int64_t i = 0; i < bs && st == MT_OK; i++) {
                int64_t p = t->perm[b0 + i];
                memcpy(xs + i * t->in, t->xd + p * t->in, (size_t)t->in * sizeof(float));
                ys[i] = t->yd[p];
            }
            int64_t xshape[2] = {bs, t->in};
            if (st == MT_OK) st = mt_from_data(ctx, t->X->backend, 2, xshape, xs, &xb);
            if (st == MT_OK) st = mt_from_data(ctx, t->y->backend, 1, &bs, ys, &yb);
            if (st == MT_OK) st = ops_step(t, xb, yb, &bl);
            mt_tensor_release(xb);
            mt_tensor_release(yb);
            free(xs);
            free(ys);
        }
        if (st == MT_OK) *loss += (double)bl;
    }
    if (st == MT_ERR_CANCELLED) return mt_fail(ctx, st, "training was interrupted");
    return st;
}

enum mt_status mt_trainer_correct(struct mt_trainer *t, int64_t *correct)
{
    *correct = 0;
    if (t->fused) {
        for (int64_t r0 = 0; r0 < t->n; r0 += t->rows) {
            int64_t m = t->n - r0 < t->rows ? t->n - r0 : t->rows;
            enum mt_status st = fused_forward(t, m, t->xd + r0 * t->in);
            if (st != MT_OK) return st;
            const float *p = t->L[t->nl - 1].h;
            for (int64_t i = 0; i < m; i++)
                *correct += (p[i] > 0.5f ? 1.0f : 0.0f) == t->yd[r0 + i];
        }
        return MT_OK;
    }
    struct mt_tensor *p = NULL;
    enum mt_status st = model_ops(t, t->X, &p);
    if (st != MT_OK) return st;
    float *v = alloc_floats(t->n);
    if (!v) {
        mt_tensor_release(p);
        return mt_fail(t->ctx, MT_ERR_NOMEM, "train: out of memory");
    }
    mt_tensor_copy_out(p, v);
    for (int64_t i = 0; i < t->n; i++) *correct += (v[i] > 0.5f ? 1.0f : 0.0f) == t->yd[i];
    free(v);
    mt_tensor_release(p);
    return MT_OK;
}

enum mt_status mt_trainer_sync(struct mt_trainer *t)
{
    if (!t->fused || !t->have_grads) return MT_OK;
    for (int l = 0; l < t->nl; l++) {
        struct mt_tensor *ps[2] = {t->layers[l].weight, t->layers[l].bias};
        const float *gs[2] = {t->L[l].gw, t->L[l].gb};
        for (int i = 0; i < 2; i++) {
            struct mt_tensor *g = NULL;
            enum mt_status st =
                mt_from_data(t->ctx, ps[i]->backend, ps[i]->ndim, ps[i]->shape, gs[i], &g);
            if (st != MT_OK) return st;
            mt_tensor_release(ps[i]->grad);
            ps[i]->grad = g;
        }
    }
    return MT_OK;
}
