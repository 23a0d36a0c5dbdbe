/* fast_train.c — the fast backend's fused training (its table's train entries, internal.h): the
 * step of train.c's ops path computed on buffers allocated once, giving the same floats.
 *
 * Why it gives the same bits: every elementwise op is one IEEE operation per element (this file
 * is compiled with -ffp-contract=off, so no multiply-add is fused behind our back), written in
 * the order autodiff.c's backward performs them; sigmoid and log call the fast backend's own
 * kernel table; sums use fast's rules (mt_fast_sum_contig, and column sums in row order as its
 * column reduce); and the products go through mt_cpu_gemm with the strides the autodiff views
 * have (x @ W, h^T @ g, g @ W^T), whose per-element sum is one FMA chain in k order whatever the
 * path (checked in tests/engine/test_gemm.c). tests/engine/test_train.c compares the two paths
 * bit for bit, and tests/scripts/train.mt compares train() with the loop written by hand.
 *
 * What it saves is everything around the arithmetic: a batch of the ops path builds ~40 tensors
 * and graph nodes; this one allocates nothing. Each hidden weight W is also kept transposed
 * (updated with it), so that g @ W^T multiplies a row-major operand. Layers of 256 or more
 * units split their columns between the context's threads.
 *
 * Interrupts: the cancel flag is polled between batches. A step that the flag stops part-way
 * (a large product polls it inside) is dropped before the update, so the parameters only ever
 * hold whole steps. */
#include "../internal.h"
#include "../mlp.h"

#include "fast.h"
#include "gemm.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif

/* Points evaluated per forward pass in mt_fast_train_correct: bounds the buffers for big sets. */
#define EVAL_ROWS 1024
#define MAX_THREADS 8

struct layer_buf {
    int64_t in, out;
    float *z, *h, *gz; /* rows x out: pre-activation, activation, gradient of z */
    float *gh;         /* rows x in: gradient of this layer's input (layers > 0) */
    float *gw, *gb;    /* in x out and out: the parameters' gradients (the mlp's, not ours) */
    float *wt;         /* out x in: the weight transposed (layers > 0), kept equal to it */
};

/* A thread's own buffers: its copy of the batch, and the last layer and loss, which every
 * thread computes for itself (they are tiny; sharing them would cost a barrier). */
struct thread_buf {
    float *xb, *yb;                    /* rows x in, rows */
    float *zl, *hl, *gzl;              /* the last layer's z, output and gradient (rows) */
    float *t2, *t3, *prob, *lg, *loss; /* loss terms, rows each */
};

struct mt_train_state {
    const struct mt_mlp *m; /* the model, data and gradients (train.c's) */
    const int64_t *perm;    /* the running epoch's batch order */
    int64_t rows;           /* the buffers' height: max(batch, EVAL_ROWS), at most n */
    int nt;                 /* threads of the step */
    struct thread_buf tb[MAX_THREADS];
    struct layer_buf L[MT_MLP_MAX];
};

static void *alloc_floats(int64_t n) { return malloc((size_t)(n > 0 ? n : 1) * sizeof(float)); }

/* The step must sum as fast's matmul does: FMA chains (the direct path exists exactly for the
 * ISAs whose kernels sum that way). */
bool mt_fast_train_fits(const struct mt_mlp *m)
{
    (void)m;
    const char *isa = mt_cpu_gemm_isa();
    return strcmp(isa, "avx2") == 0 || strcmp(isa, "avx512") == 0 || strcmp(isa, "avx512emu") == 0;
}

/* Threads for the fused step: the context's, when the hidden layers are wide enough that
 * halving their products pays for the barriers (five per batch); else one. At the course's
 * widths (hidden 100, 128) one thread finishes an epoch sooner than two, at hidden 500 two do
 * (a sweep of 200 epochs, split, 50 points, batch 10). An empty barrier is cheap, but a thread
 * that finds the other core busy (a shared machine) sleeps in the barrier and wakes tens of
 * microseconds later. */
#define FUSED_PAR_MIN_WIDTH 256
static int fused_threads(const struct mt_ctx *ctx, const struct mt_mlp *m)
{
    int64_t widest = 0;
    for (int l = 0; l + 1 < m->nl; l++)
        if (m->width[l + 1] > widest) widest = m->width[l + 1];
#ifdef MT_HAVE_OPENMP
    int nt = ctx->threads < MAX_THREADS ? ctx->threads : MAX_THREADS;
    return widest >= FUSED_PAR_MIN_WIDTH && nt > 1 ? nt : 1;
#else
    (void)ctx, (void)widest;
    return 1;
#endif
}

void mt_fast_train_free(struct mt_train_state *fs)
{
    if (!fs) return;
    for (int l = 0; l < MT_MLP_MAX; l++) {
        struct layer_buf *b = &fs->L[l];
        float *bufs[] = {b->z, b->h, b->gz, b->gh, b->wt};
        for (size_t j = 0; j < sizeof bufs / sizeof bufs[0]; j++) free(bufs[j]);
    }
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread_buf *b = &fs->tb[i];
        float *bufs[] = {b->xb, b->yb, b->zl, b->hl, b->gzl, b->t2, b->t3, b->prob, b->lg, b->loss};
        for (size_t j = 0; j < sizeof bufs / sizeof bufs[0]; j++) free(bufs[j]);
    }
    free(fs);
}

enum mt_status mt_fast_train_new(struct mt_ctx *ctx, const struct mt_mlp *m,
                                 struct mt_train_state **out)
{
    *out = NULL;
    struct mt_train_state *fs = calloc(1, sizeof *fs);
    bool ok = fs != NULL;
    if (ok) {
        fs->m = m;
        fs->rows = m->batch > EVAL_ROWS ? m->batch : EVAL_ROWS;
        if (fs->rows > m->n) fs->rows = m->n;
        fs->nt = fused_threads(ctx, m);
    }
    const int64_t r = ok ? fs->rows : 0;
    for (int i = 0; ok && i < fs->nt; i++) {
        struct thread_buf *b = &fs->tb[i];
        float **bufs[] = {&b->yb, &b->zl,   &b->hl, &b->gzl, &b->t2,
                          &b->t3, &b->prob, &b->lg, &b->loss};
        b->xb = alloc_floats(r * m->width[0]);
        ok = b->xb != NULL;
        for (size_t j = 0; j < sizeof bufs / sizeof bufs[0] && ok; j++)
            ok = (*bufs[j] = alloc_floats(r)) != NULL;
    }
    for (int l = 0; ok && l < m->nl; l++) {
        struct layer_buf *b = &fs->L[l];
        b->in = m->width[l];
        b->out = m->width[l + 1];
        b->z = alloc_floats(r * b->out);
        b->h = alloc_floats(r * b->out);
        b->gz = alloc_floats(r * b->out);
        b->gh = l > 0 ? alloc_floats(r * b->in) : NULL;
        b->gw = m->gw[l];
        b->gb = m->gb[l];
        b->wt = l > 0 ? alloc_floats(b->in * b->out) : NULL;
        ok = b->z && b->h && b->gz && (l == 0 || (b->gh && b->wt));
        if (ok && b->wt) {
            const float *W = m->w[l];
            for (int64_t i = 0; i < b->in; i++)
                for (int64_t j = 0; j < b->out; j++) b->wt[j * b->in + i] = W[i * b->out + j];
        }
    }
    if (!ok) {
        mt_fast_train_free(fs);
        return mt_fail(ctx, MT_ERR_NOMEM, "train: out of memory for the training buffers");
    }
    *out = fs;
    return MT_OK;
}

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
static enum mt_status fused_forward(struct mt_ctx *ctx, struct mt_train_state *fs, int64_t bs,
                                    const float *x)
{
    const struct mt_fast_kernels *k = mt_fast_active();
    const struct mt_mlp *m = fs->m;
    const float *h = x;
    for (int l = 0; l < m->nl; l++) {
        struct layer_buf *b = &fs->L[l];
        const float *W = m->w[l], *bias = m->b[l];
        int st = mt_cpu_gemm(ctx->threads, bs, b->out, b->in, h, b->in, 1, W, b->out, 1, b->z,
                             b->out, 1);
        if (st != MT_OK) return (enum mt_status)st;
        add_bias(k, b->z, bs, b->out, b->out, bias);
        k->map(l + 1 < m->nl ? MT_MAP_RELU : MT_MAP_SIGMOID, bs * b->out, b->z, b->h);
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
static void fused_step_part(struct mt_train_state *fs, struct step_run *r, int tid, int nt)
{
    const struct mt_fast_kernels *k = mt_fast_active();
    const struct mt_mlp *m = fs->m;
    struct thread_buf *tb = &fs->tb[tid];
    const int last = m->nl - 1;
    const int64_t bs = r->bs, in = m->width[0];
    for (int64_t i = 0; i < bs; i++) { /* the batch, gathered by every thread for itself */
        int64_t p = fs->perm[r->b0 + i];
        for (int64_t c = 0; c < in; c++) tb->xb[i * in + c] = m->x[p * in + c];
        tb->yb[i] = m->y[p];
    }
    /* forward: hidden layers by columns */
    const float *hin = tb->xb;
    for (int l = 0; l < last; l++) {
        struct layer_buf *b = &fs->L[l];
        int64_t c0, c1;
        part(b->out, tid, nt, &c0, &c1);
        const float *W = m->w[l], *bias = m->b[l];
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
    struct layer_buf *lb = &fs->L[last];
    const float *WL = m->w[last], *bL = m->b[last];
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
        struct layer_buf *b = &fs->L[l];
        const float *gz = l == last ? tb->gzl : b->gz;
        const float *h_in = l > 0 ? fs->L[l - 1].h : tb->xb;
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
                    k->zip(MT_ZIP_RELU_BACK, d1 - d0, fs->L[l - 1].z + i * b->in + d0, 1,
                           b->gh + i * b->in + d0, 1, fs->L[l - 1].gz + i * b->in + d0);
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
        const struct layer_buf *b = &fs->L[l];
        float *W = m->w[l], *bias = m->b[l];
        int64_t c0 = 0, c1 = b->out;
        if (l < last)
            part(b->out, tid, nt, &c0, &c1);
        else if (tid != 0)
            continue;
        if (c1 <= c0) continue;
        if (b->wt)
            k->sgd_t(W, b->wt, b->gw, b->in, b->out, c0, c1, m->rate);
        else
            for (int64_t i = 0; i < b->in; i++)
                sgd_update(W + i * b->out + c0, b->gw + i * b->out + c0, c1 - c0, m->rate);
        sgd_update(bias + c0, b->gb + c0, c1 - c0, m->rate);
    }
}

/* One epoch of fused steps on fs->nt threads (one parallel region for the whole epoch: waking
 * the workers once, not per batch). The cancel flag is read by thread 0 between batches and
 * shared through the barrier, so all threads stop at the same batch. */
static enum mt_status fused_epoch(struct mt_train_state *fs, double *loss)
{
    const struct mt_mlp *m = fs->m;
    struct step_run r = {.b0 = 0};
    atomic_init(&r.err, MT_OK);
    volatile int stop = 0;
    double total = 0.0;
    if (fs->nt == 1) {
        for (int64_t b0 = 0; b0 < m->n && !stop; b0 += m->batch) {
            stop = mt_cancel_requested();
            if (stop) break;
            r.b0 = b0;
            r.bs = m->n - b0 < m->batch ? m->n - b0 : m->batch;
            fused_step_part(fs, &r, 0, 1);
            if (atomic_load(&r.err) != MT_OK) break;
            total += (double)r.batch_loss;
        }
    }
#ifdef MT_HAVE_OPENMP
    else {
#pragma omp parallel num_threads(fs->nt)
        {
            int tid = omp_get_thread_num(), team = omp_get_num_threads();
            for (int64_t b0 = 0; b0 < m->n; b0 += m->batch) {
#pragma omp single
                {
                    stop = mt_cancel_requested() || atomic_load(&r.err) != MT_OK;
                    r.b0 = b0;
                    r.bs = m->n - b0 < m->batch ? m->n - b0 : m->batch;
                } /* the implied barrier publishes stop and the batch */
                if (stop) break;
                fused_step_part(fs, &r, tid, team);
                BARRIER(team);
                if (tid == 0 && atomic_load(&r.err) == MT_OK) total += (double)r.batch_loss;
            }
        }
    }
#endif
    *loss = total;
    int err = atomic_load(&r.err);
    if (err != MT_OK) return (enum mt_status)err;
    return stop ? MT_ERR_CANCELLED : MT_OK;
}

enum mt_status mt_fast_train_epoch(struct mt_ctx *ctx, const struct mt_mlp *m,
                                   struct mt_train_state *fs, const int64_t *perm, double *loss)
{
    (void)m; /* fs->m */
    fs->perm = perm;
    enum mt_status st = fused_epoch(fs, loss);
    if (st == MT_ERR_CANCELLED) return mt_fail(ctx, st, "training was interrupted");
    if (st == MT_ERR_NOMEM) return mt_fail(ctx, st, "train: out of memory in a product");
    return st;
}

/* The forward pass only, EVAL_ROWS points at a time, all threads in each product. */
enum mt_status mt_fast_train_correct(struct mt_ctx *ctx, const struct mt_mlp *m,
                                     struct mt_train_state *fs, int64_t *correct)
{
    *correct = 0;
    for (int64_t r0 = 0; r0 < m->n; r0 += fs->rows) {
        int64_t rows = m->n - r0 < fs->rows ? m->n - r0 : fs->rows;
        enum mt_status st = fused_forward(ctx, fs, rows, m->x + r0 * m->width[0]);
        if (st != MT_OK) return st;
        const float *p = fs->L[m->nl - 1].h;
        for (int64_t i = 0; i < rows; i++) *correct += (p[i] > 0.5f ? 1.0f : 0.0f) == m->y[r0 + i];
    }
    return MT_OK;
}
