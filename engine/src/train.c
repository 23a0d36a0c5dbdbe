/* train.c — MiniTorch's training loop (project/run_fast_tensor.py) in C: shuffle, batches,
 * batch-mean binary cross-entropy, backward, SGD; see minitorch.h for the contract.
 *
 * Two step implementations that compute the same floats:
 *
 * - ops_step: the loop a student writes in the language, op by op, through autodiff. It is the
 *   reference, and the path for every backend.
 * - the fused step (fused_epoch, fused_step_part): the same arithmetic on buffers allocated
 *   once. Why it gives the same bits:
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
 *   tensors and graph nodes; this one allocates nothing. Each hidden weight W is also kept
 *   transposed (updated with it), so that g @ W^T multiplies a row-major operand. Layers of
 *   256 or more units split their columns between the context's threads.
 *
 * Interrupts: the cancel flag is polled between batches. A step that the flag stops part-way
 * (a large product polls it inside) is dropped before the update, so the parameters only ever
 * hold whole steps. */
#include "internal.h"

#include "cpu/fast.h"
#include "cpu/gemm.h"
#include "cuda/plugin.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif

#define MAX_LAYERS 8
/* Points evaluated per forward pass in mt_trainer_correct: bounds the buffers for big sets. */
#define EVAL_ROWS 1024

struct layer_buf {
    int64_t in, out;
    float *z, *h, *gz; /* rows x out: pre-activation, activation, gradient of z */
    float *gh;         /* rows x in: gradient of this layer's input (layers > 0) */
    float *gw, *gb;    /* in x out and out: the parameters' gradients */
    float *wt;         /* out x in: the weight transposed (layers > 0), kept equal to it */
};

#define MAX_THREADS 8

/* A thread's own buffers: its copy of the batch, and the last layer and loss, which every
 * thread computes for itself (they are tiny; sharing them would cost a barrier). */
struct thread_buf {
    float *xb, *yb;                    /* rows x in, rows */
    float *zl, *hl, *gzl;              /* the last layer's z, output and gradient (rows) */
    float *t2, *t3, *prob, *lg, *loss; /* loss terms, rows each */
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
    int nt; /* threads of the fused step */
    struct thread_buf tb[MAX_THREADS];
    struct layer_buf L[MAX_LAYERS];
    /* the cuda backend's fused epoch (cuda/train_step.h): one launch per epoch */
    bool cuda_fused;
    struct mt_cuda_mlp mlp;               /* its view of the model, data and gradients */
    struct mt_tensor *xc, *yc;            /* the data, contiguous on the device */
    struct mt_tensor *cg[2 * MAX_LAYERS]; /* the last step's gradients: weight, bias, ... */
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
        free(b->wt);
    }
    mt_tensor_release(t->X);
    mt_tensor_release(t->y);
    mt_tensor_release(t->xc);
    mt_tensor_release(t->yc);
    for (int i = 0; i < 2 * MAX_LAYERS; i++) mt_tensor_release(t->cg[i]);
    free(t->xd);
    free(t->yd);
    free(t->perm);
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread_buf *b = &t->tb[i];
        float *bufs[] = {b->xb, b->yb, b->zl, b->hl, b->gzl, b->t2, b->t3, b->prob, b->lg, b->loss};
        for (size_t j = 0; j < sizeof bufs / sizeof bufs[0]; j++) free(bufs[j]);
    }
    free(t);
}

const char *mt_trainer_path(const struct mt_trainer *t)
{
    return t->fused ? "fused step" : t->cuda_fused ? "fused kernel" : "autodiff ops";
}

static bool fused_possible(const struct mt_trainer *t)
{
    if (!mt_backend_ops_of(t->X->backend)->train_fused_host) return false;
    /* the step must sum as fast's matmul does: FMA chains (the direct path exists exactly for
     * the ISAs whose kernels sum that way) */
    const char *isa = mt_cpu_gemm_isa();
    if (strcmp(isa, "avx2") != 0 && strcmp(isa, "avx512") != 0 && strcmp(isa, "avx512emu") != 0)
        return false;
    for (int l = 0; l < t->nl; l++)
        if (t->layers[l].weight->backend != t->X->backend ||
            !mt_tensor_is_contiguous(t->layers[l].weight) ||
            !mt_tensor_is_contiguous(t->layers[l].bias))
            return false;
    return true;
}

/* The backend's own fused epoch (the table's train_epoch: cuda's), when the data's backend has
 * one, the model is contiguous, and the backend says the model fits (cuda: the activations of a
 * batch fit one block's shared memory, cuda/train_step.h): the data copied contiguous and
 * gradient buffers made on the backend. Leaves t->cuda_fused false (the ops path) otherwise; a
 * failure making the buffers is an error. */
static enum mt_status cuda_fused_setup(struct mt_trainer *t)
{
    struct mt_ctx *ctx = t->ctx;
    const enum mt_backend be = t->X->backend;
    const struct mt_backend_ops *ops = mt_backend_ops_of(be);
    if (!ops->train_epoch || t->nl > MT_CUDA_MLP_MAX) return MT_OK;
    struct mt_cuda_mlp *m = &t->mlp;
    *m = (struct mt_cuda_mlp){.nl = t->nl, .n = t->n, .batch = t->batch, .rate = t->rate};
    m->width[0] = t->in;
    for (int l = 0; l < t->nl; l++) {
        const struct mt_linear *ly = &t->layers[l];
        if (!mt_tensor_is_contiguous(ly->weight) || !mt_tensor_is_contiguous(ly->bias))
            return MT_OK;
        m->width[l + 1] = ly->weight->shape[1];
        m->w[l] = mt_data(ly->weight);
        m->b[l] = mt_data(ly->bias);
    }
    if (!ops->train_fits(m)) return MT_OK;
    enum mt_status st = mt_copy_raw(ctx, t->X, &t->xc);
    if (st == MT_OK) st = mt_copy_raw(ctx, t->y, &t->yc);
    for (int l = 0; l < t->nl && st == MT_OK; l++) {
        const struct mt_linear *ly = &t->layers[l];
        st = mt_empty(ctx, be, 2, ly->weight->shape, &t->cg[2 * l]);
        if (st == MT_OK) st = mt_empty(ctx, be, 1, ly->bias->shape, &t->cg[2 * l + 1]);
        if (st == MT_OK) m->gw[l] = mt_data(t->cg[2 * l]), m->gb[l] = mt_data(t->cg[2 * l + 1]);
    }
    if (st != MT_OK) return st;
    m->x = mt_data(t->xc);
    m->y = mt_data(t->yc);
    t->cuda_fused = true;
    return MT_OK;
}

/* Threads for the fused step: the context's, when the hidden layers are wide enough that
 * halving their products pays for the barriers (five per batch); else one. At the course's
 * widths (hidden 100, 128) one thread finishes an epoch sooner than two, at hidden 500 two do
 * (a sweep of 200 epochs, split, 50 points, batch 10). An empty barrier is cheap, but a thread
 * that finds the other core busy (a shared machine) sleeps in the barrier and wakes tens of
 * microseconds later. */
#define FUSED_PAR_MIN_WIDTH 256
static int fused_threads(const struct mt_ctx *ctx, const struct mt_linear *layers, int nlayers)
{
    int64_t widest = 0;
    for (int l = 0; l + 1 < nlayers; l++)
        if (layers[l].weight->shape[1] > widest) widest = layers[l].weight->shape[1];
#ifdef MT_HAVE_OPENMP
    int nt = ctx->threads < MAX_THREADS ? ctx->threads : MAX_THREADS;
    return widest >= FUSED_PAR_MIN_WIDTH && nt > 1 ? nt : 1;
#else
    (void)ctx, (void)widest;
    return 1;
#endif
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
        enum mt_status st = mt_tensor_copy_out(X, t->xd);
        if (st == MT_OK) st = mt_tensor_copy_out(y, t->yd);
        if (st != MT_OK) {
            mt_trainer_free(t);
            return st; /* a copy from the GPU failed: its message is in ctx */
        }
    }
    if (ok && t->fused) {
        int64_t r = t->rows;
        t->nt = fused_threads(ctx, layers, nlayers);
        for (int i = 0; i < t->nt && ok; i++) {
            struct thread_buf *b = &t->tb[i];
            float **bufs[] = {&b->yb, &b->zl,   &b->hl, &b->gzl, &b->t2,
                              &b->t3, &b->prob, &b->lg, &b->loss};
            b->xb = alloc_floats(r * t->in);
            ok = b->xb != NULL;
            for (size_t j = 0; j < sizeof bufs / sizeof bufs[0] && ok; j++)
                ok = (*bufs[j] = alloc_floats(r)) != NULL;
        }
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
            b->wt = l > 0 ? alloc_floats(b->in * b->out) : NULL;
            ok = b->z && b->h && b->gz && (l == 0 || (b->gh && b->wt)) && b->gw && b->gb;
            if (ok && b->wt) {
                const float *W = mt_data(layers[l].weight);
                for (int64_t i = 0; i < b->in; i++)
                    for (int64_t j = 0; j < b->out; j++) b->wt[j * b->in + i] = W[i * b->out + j];
            }
        }
    }
    if (!ok) {
        mt_trainer_free(t);
        return mt_fail(ctx, MT_ERR_NOMEM, "train: out of memory for the training buffers");
    }
    if (!ops_only) {
        enum mt_status st = cuda_fused_setup(t);
        if (st != MT_OK) {
            mt_trainer_free(t);
            return st;
        }
    }
    *out = t;
    return MT_OK;
}

/* ---- the fused step ----------------------------------------------------------------------- */

/* The elementwise pieces. Adding the bias, the column sums and the ReLU's backward run on fast's
 * kernel table (zip, red_cols: its AVX2 loops where the CPU has them, per element the same IEEE
 * operation as the ops); the SGD update below is on restrict pointers, for the vectoriser. */
/* z = z + bias on n columns of rows with row stride rs (the table's zip, a row at a time) */
static void add_bias(const struct mt_fast_kernels *k, float *z, int64_t rows, int64_t n, int64_t rs,
                     const float *bias)
{
    if (n == 1 && rs == 1) /* one column (the last layer): one call, the bias broadcast */
        k->zip(MT_ZIP_ADD, rows, z, 1, bias, 0, z);
    else
        for (int64_t i = 0; i < rows; i++, z += rs) k->zip(MT_ZIP_ADD, n, z, 1, bias, 1, z);
}

/* Column sums in row order (fast's reduce over dim 0 of a (rows, n) tensor, n > 1): n columns
 * of rows with row stride rs. */
static void col_sums(const struct mt_fast_kernels *k, const float *g, int64_t rows, int64_t n,
                     int64_t rs, float *out)
{
    for (int64_t j = 0; j < n; j++) out[j] = 0.0f;
    k->red_cols(MT_RED_SUM, rows, n, g, rs, out);
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
        add_bias(k, b->z, bs, b->out, b->out, bias);
        k->map(l + 1 < t->nl ? MT_MAP_RELU : MT_MAP_SIGMOID, bs * b->out, b->z, b->h);
        h = b->h;
    }
    return MT_OK;
}

/* Columns [*c0, *c1) of n that thread `tid` of `nt` owns: whole 8-float vectors except the
 * last thread's tail, so that the products' tiles stay full. */
static void part(int64_t n, int tid, int nt, int64_t *c0, int64_t *c1)
{
    *c0 = (n * tid / nt) & ~(int64_t)7;
    *c1 = tid == nt - 1 ? n : (n * (tid + 1) / nt) & ~(int64_t)7;
}

/* A barrier of the step's team; nothing on one thread (no call into the OpenMP runtime: on
 * one thread the step runs outside any parallel region). */
#ifdef MT_HAVE_OPENMP
#define BARRIER(nt)                                                                                \
    do {                                                                                           \
        if ((nt) > 1) {                                                                            \
            _Pragma("omp barrier")                                                                 \
        }                                                                                          \
    } while (0)
#else
#define BARRIER(nt) ((void)(nt))
#endif

/* What the threads of one epoch share. */
struct step_run {
    int64_t b0, bs;   /* the batch: perm[b0 .. b0 + bs) */
    atomic_int err;   /* first failure of any thread (MT_OK: none) */
    float batch_loss; /* written by thread 0 */
};

static void fail_once(struct step_run *r, int st)
{
    int ok = MT_OK;
    if (st != MT_OK) atomic_compare_exchange_strong(&r->err, &ok, st);
}

/* Thread tid's part of one step (all nt threads call it; with nt = 1 it is the whole step).
 * Hidden layers are split by columns: each thread computes its columns of z and h, of the
 * weight gradients and of the updates, and of the gradient flowing into the layer below (the
 * same partition, so a thread's columns of g_z below are its own). The last layer (one output)
 * and the loss are tiny: every thread computes them in its own buffers, and thread 0 alone
 * writes the last layer's gradients and update. A barrier stands wherever a thread reads what
 * another wrote: after each hidden layer's forward, before each g @ W^T (which needs every
 * column of g), and before the update (which overwrites W and W^T that others may still read).
 * Nothing is updated after a failure in any thread. */
static void fused_step_part(struct mt_trainer *t, struct step_run *r, int tid, int nt)
{
    const struct mt_fast_kernels *k = mt_fast_active();
    struct thread_buf *tb = &t->tb[tid];
    const int last = t->nl - 1;
    const int64_t bs = r->bs;
    for (int64_t i = 0; i < bs; i++) { /* the batch, gathered by every thread for itself */
        int64_t p = t->perm[r->b0 + i];
        for (int64_t c = 0; c < t->in; c++) tb->xb[i * t->in + c] = t->xd[p * t->in + c];
        tb->yb[i] = t->yd[p];
    }
    /* forward: hidden layers by columns */
    const float *hin = tb->xb;
    for (int l = 0; l < last; l++) {
        struct layer_buf *b = &t->L[l];
        int64_t c0, c1;
        part(b->out, tid, nt, &c0, &c1);
        const float *W = mt_data(t->layers[l].weight), *bias = mt_data(t->layers[l].bias);
        if (c1 > c0 && atomic_load(&r->err) == MT_OK) {
            fail_once(r, mt_cpu_gemm(1, bs, c1 - c0, b->in, hin, b->in, 1, W + c0, b->out, 1,
                                     b->z + c0, b->out, 1));
            add_bias(k, b->z + c0, bs, c1 - c0, b->out, bias + c0);
            if (c1 - c0 == b->out) /* all the columns: one call over the block */
                k->map(MT_MAP_RELU, bs * b->out, b->z, b->h);
            else
                for (int64_t i = 0; i < bs; i++)
                    k->map(MT_MAP_RELU, c1 - c0, b->z + i * b->out + c0, b->h + i * b->out + c0);
        }
        BARRIER(nt);
        hin = b->h;
    }
    /* the last layer and the loss, in this thread's buffers */
    struct layer_buf *lb = &t->L[last];
    const float *WL = mt_data(t->layers[last].weight), *bL = mt_data(t->layers[last].bias);
    if (atomic_load(&r->err) == MT_OK)
        fail_once(r, mt_cpu_gemm(1, bs, 1, lb->in, hin, lb->in, 1, WL, 1, 1, tb->zl, 1, 1));
    add_bias(k, tb->zl, bs, 1, 1, bL);
    k->map(MT_MAP_SIGMOID, bs, tb->zl, tb->hl);
    const float *out = tb->hl, *y = tb->yb;
    /* prob = out * y + (out - 1) * (y - 1); loss = -log(prob) */
    for (int64_t i = 0; i < bs; i++) {
        tb->t2[i] = out[i] - 1.0f;
        tb->t3[i] = y[i] - 1.0f;
        float a = out[i] * y[i], b = tb->t2[i] * tb->t3[i];
        tb->prob[i] = a + b;
    }
    k->map(MT_MAP_LOG, bs, tb->prob, tb->lg);
    for (int64_t i = 0; i < bs; i++) tb->loss[i] = -tb->lg[i];
    if (tid == 0) r->batch_loss = mt_fast_sum_contig(bs, tb->loss);
    /* Backward, in autodiff.c's order: sum -> ones; div by bs -> 1/bs; neg; log: g / prob;
     * add: to both products; out gets g*y (out * y) plus g*(y-1) (through out - 1); sigmoid:
     * g * -(s * (s - 1)). */
    const float g_div = 1.0f / (float)bs, g_log = -g_div;
    for (int64_t i = 0; i < bs; i++) {
        float g_prob = g_log / tb->prob[i];
        float g_a = g_prob * y[i], g_b = g_prob * tb->t3[i];
        float g_out = g_a + g_b;
        float s = out[i], u = s - 1.0f, v = s * u, w = -v;
        tb->gzl[i] = g_out * w;
    }
    for (int l = last; l >= 0; l--) {
        struct layer_buf *b = &t->L[l];
        const float *gz = l == last ? tb->gzl : b->gz;
        const float *h_in = l > 0 ? t->L[l - 1].h : tb->xb;
        int64_t c0 = 0, c1 = b->out;
        if (l < last) part(b->out, tid, nt, &c0, &c1);
        const bool mine = (l < last || tid == 0) && c1 > c0;
        /* bias: g summed over the batch (fast's reduce over dim 0) */
        if (mine && b->out == 1)
            b->gb[0] = mt_fast_sum_contig(bs, gz);
        else if (mine)
            col_sums(k, gz + c0, bs, c1 - c0, b->out, b->gb + c0);
        if (l < last && l > 0) BARRIER(nt); /* every column of g before g @ W^T */
        /* The layer's input: g @ W^T (W^T kept row-major in wt), this thread's columns, then
         * back through the ReLU before it. Before the weight's update, which overwrites W^T. */
        if (l > 0) {
            int64_t d0, d1;
            part(b->in, tid, nt, &d0, &d1);
            if (d1 > d0 && atomic_load(&r->err) == MT_OK) {
                fail_once(r, mt_cpu_gemm(1, bs, d1 - d0, b->out, gz, b->out, 1, b->wt + d0, b->in,
                                         1, b->gh + d0, b->in, 1));
                for (int64_t i = 0; i < bs; i++) /* g if z > 0 else 0 */
                    k->zip(MT_ZIP_RELU_BACK, d1 - d0, t->L[l - 1].z + i * b->in + d0, 1,
                           b->gh + i * b->in + d0, 1, t->L[l - 1].gz + i * b->in + d0);
            }
        }
        if (!mine || atomic_load(&r->err) != MT_OK) continue;
        /* weight: h^T @ g */
        fail_once(r, mt_cpu_gemm(1, b->in, c1 - c0, bs, h_in, 1, b->in, gz + c0, b->out, 1,
                                 b->gw + c0, b->out, 1));
    }
    BARRIER(nt); /* every product read W^T and every gradient is in: update */
    if (atomic_load(&r->err) != MT_OK) return;
    /* SGD: p = p - grad * rate, each parameter's own elements by the thread that owns them */
    for (int l = 0; l <= last; l++) {
        const struct layer_buf *b = &t->L[l];
        float *W = mt_data(t->layers[l].weight), *bias = mt_data(t->layers[l].bias);
        int64_t c0 = 0, c1 = b->out;
        if (l < last)
            part(b->out, tid, nt, &c0, &c1);
        else if (tid != 0)
            continue;
        if (c1 <= c0) continue;
        if (b->wt)
            mt_fast_active()->sgd_t(W, b->wt, b->gw, b->in, b->out, c0, c1, t->rate);
        else
            for (int64_t i = 0; i < b->in; i++)
                sgd_update(W + i * b->out + c0, b->gw + i * b->out + c0, c1 - c0, t->rate);
        sgd_update(bias + c0, b->gb + c0, c1 - c0, t->rate);
    }
}

/* One epoch of fused steps on t->nt threads (one parallel region for the whole epoch: waking
 * the workers once, not per batch). The cancel flag is read by thread 0 between batches and
 * shared through the barrier, so all threads stop at the same batch. */
static enum mt_status fused_epoch(struct mt_trainer *t, double *loss)
{
    struct step_run r = {.b0 = 0};
    atomic_init(&r.err, MT_OK);
    volatile int stop = 0;
    double total = 0.0;
    if (t->nt == 1) {
        for (int64_t b0 = 0; b0 < t->n && !stop; b0 += t->batch) {
            stop = mt_cancel_requested();
            if (stop) break;
            r.b0 = b0;
            r.bs = t->n - b0 < t->batch ? t->n - b0 : t->batch;
            fused_step_part(t, &r, 0, 1);
            if (atomic_load(&r.err) != MT_OK) break;
            total += (double)r.batch_loss;
        }
    }
#ifdef MT_HAVE_OPENMP
    else {
#pragma omp parallel num_threads(t->nt)
        {
            int tid = omp_get_thread_num(), team = omp_get_num_threads();
            for (int64_t b0 = 0; b0 < t->n; b0 += t->batch) {
#pragma omp single
                {
                    stop = mt_cancel_requested() || atomic_load(&r.err) != MT_OK;
                    r.b0 = b0;
                    r.bs = t->n - b0 < t->batch ? t->n - b0 : t->batch;
                } /* the implied barrier publishes stop and the batch */
                if (stop) break;
                fused_step_part(t, &r, tid, team);
                BARRIER(team);
                if (tid == 0 && atomic_load(&r.err) == MT_OK) total += (double)r.batch_loss;
            }
        }
    }
#endif
    *loss = total;
    int err = atomic_load(&r.err);
    if (err != MT_OK) return (enum mt_status)err;
    if (stop) return MT_ERR_CANCELLED;
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
    int64_t first = 0; /* read through the tensor API: on cuda, ls is in device memory */
    if (st == MT_OK) st = mt_tensor_get(ctx, ls, 1, &first, batch_loss);
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
    if (t->fused || t->cuda_fused) /* their steps write the parameters in place */
        for (int l = 0; l < t->nl; l++) {
            mt_written(t->layers[l].weight);
            mt_written(t->layers[l].bias);
        }
    if (t->fused) {
        st = fused_epoch(t, loss);
        if (st == MT_ERR_CANCELLED) return mt_fail(ctx, st, "training was interrupted");
        if (st == MT_ERR_NOMEM) return mt_fail(ctx, st, "train: out of memory in a product");
        return st;
    }
    if (t->cuda_fused) { /* the interrupt is polled before the launch: an epoch is one kernel */
        if (mt_cancel_requested())
            return mt_fail(ctx, MT_ERR_CANCELLED, "training was interrupted");
        st = mt_backend_ops_of(t->X->backend)->train_epoch(ctx, &t->mlp, t->perm, loss);
        if (st == MT_OK) t->have_grads = true;
        return st;
    }
    for (int64_t b0 = 0; b0 < t->n && st == MT_OK; b0 += t->batch) {
        if (mt_cancel_requested())
            return mt_fail(ctx, MT_ERR_CANCELLED, "training was interrupted");
        int64_t bs = t->n - b0 < t->batch ? t->n - b0 : t->batch;
        float bl = 0.0f;
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
    st = mt_tensor_copy_out(p, v);
    for (int64_t i = 0; i < t->n && st == MT_OK; i++)
        *correct += (v[i] > 0.5f ? 1.0f : 0.0f) == t->yd[i];
    free(v);
    mt_tensor_release(p);
    return st;
}

enum mt_status mt_trainer_sync(struct mt_trainer *t)
{
    if (t->cuda_fused && t->have_grads) { /* copies of the device buffers the kernel wrote */
        for (int i = 0; i < 2 * t->nl; i++) {
            struct mt_tensor *p = i % 2 ? t->layers[i / 2].bias : t->layers[i / 2].weight,
                             *g = NULL;
            enum mt_status st = mt_copy_raw(t->ctx, t->cg[i], &g);
            if (st != MT_OK) return st;
            mt_tensor_release(p->grad);
            p->grad = g;
        }
        return MT_OK;
    }
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
