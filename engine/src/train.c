/* train.c — MiniTorch's training loop (project/run_fast_tensor.py) in C: shuffle, batches,
 * batch-mean binary cross-entropy, backward, SGD; see minitorch.h for the contract.
 *
 * Two ways to run a step that compute the same floats:
 *
 * - ops_step: the loop a student writes in the language, op by op, through autodiff. It is the
 *   reference, and the path for every backend.
 * - the backend's fused training (its table's train entries, internal.h; fast's in
 *   cpu/fast_train.c, cuda's in cuda/train_step.h): the same arithmetic without the graph,
 *   on buffers made once. This file gives it the model, data and gradient buffers as one
 *   struct mt_mlp (mlp.h), and the batch order; the backend keeps its own buffers.
 *
 * Interrupts: the cancel flag is polled between batches (before the epoch, for a fused epoch;
 * fast's polls between its batches too). The parameters only ever hold whole steps. */
#include "internal.h"
#include "mlp.h"

#include <stdlib.h>
#include <string.h>

struct mt_trainer {
    struct mt_ctx *ctx;
    int nl;
    struct mt_linear layers[MT_MLP_MAX]; /* references to the model's own tensors */
    struct mt_tensor *X, *y;             /* the data, as given (ops path) */
    float *xd, *yd;                      /* the data, contiguous host copies */
    int64_t n, in, batch;
    float rate;
    bool have_grads;
    int64_t *perm;
    /* the backend's fused training, when it runs this model (fused_setup) */
    bool fused;
    const struct mt_backend_ops *ops;     /* the data's backend's table */
    struct mt_mlp mlp;                    /* its view of the model, data and gradients */
    struct mt_train_state *state;         /* what it keeps (train_new), or NULL */
    struct mt_tensor *xc, *yc;            /* the data, contiguous on a device */
    struct mt_tensor *cg[2 * MT_MLP_MAX]; /* the last step's gradients: weight, bias, ... */
};

static void *alloc_floats(int64_t n) { return malloc((size_t)(n > 0 ? n : 1) * sizeof(float)); }

void mt_trainer_free(struct mt_trainer *t)
{
    if (!t) return;
    if (t->state) t->ops->train_free(t->state);
    for (int l = 0; l < t->nl; l++) {
        mt_tensor_release(t->layers[l].weight);
        mt_tensor_release(t->layers[l].bias);
    }
    mt_tensor_release(t->X);
    mt_tensor_release(t->y);
    mt_tensor_release(t->xc);
    mt_tensor_release(t->yc);
    for (int i = 0; i < 2 * MT_MLP_MAX; i++) mt_tensor_release(t->cg[i]);
    free(t->xd);
    free(t->yd);
    free(t->perm);
    free(t);
}

const char *mt_trainer_path(const struct mt_trainer *t)
{
    return t->fused ? t->ops->train_path : "autodiff ops";
}

/* The backend's fused training, when the data's backend has one, the model is contiguous, and
 * the backend says the model fits (fast: its products sum by FMA chains; cuda: the activations
 * of a batch fit one block's shared memory): the data contiguous in the backend's memory (a
 * host backend reads the host copies), gradient buffers made on the backend, and the buffers
 * the backend keeps. Leaves t->fused false (the ops path) otherwise; a failure making the
 * buffers is an error. */
static enum mt_status fused_setup(struct mt_trainer *t)
{
    struct mt_ctx *ctx = t->ctx;
    const enum mt_backend be = t->X->backend;
    const struct mt_backend_ops *ops = t->ops;
    if (!ops->train_epoch) return MT_OK;
    struct mt_mlp *m = &t->mlp;
    *m = (struct mt_mlp){.nl = t->nl, .n = t->n, .batch = t->batch, .rate = t->rate};
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
    enum mt_status st = MT_OK;
    if (!ops->host) {
        st = mt_copy_raw(ctx, t->X, &t->xc);
        if (st == MT_OK) st = mt_copy_raw(ctx, t->y, &t->yc);
    }
    for (int l = 0; l < t->nl && st == MT_OK; l++) {
        const struct mt_linear *ly = &t->layers[l];
        st = mt_empty(ctx, be, 2, ly->weight->shape, &t->cg[2 * l]);
        if (st == MT_OK) st = mt_empty(ctx, be, 1, ly->bias->shape, &t->cg[2 * l + 1]);
        if (st == MT_OK) m->gw[l] = mt_data(t->cg[2 * l]), m->gb[l] = mt_data(t->cg[2 * l + 1]);
    }
    if (st != MT_OK) return st;
    m->x = ops->host ? t->xd : mt_data(t->xc);
    m->y = ops->host ? t->yd : mt_data(t->yc);
    if (ops->train_new && (st = ops->train_new(ctx, m, &t->state)) != MT_OK) return st;
    t->fused = true;
    return MT_OK;
}

enum mt_status mt_trainer_new(struct mt_ctx *ctx, const struct mt_linear *layers, int nlayers,
                              struct mt_tensor *X, struct mt_tensor *y, int64_t batch, float rate,
                              bool ops_only, struct mt_trainer **out)
{
    char s1[160], s2[160];
    *out = NULL;
    if (nlayers < 1 || nlayers > MT_MLP_MAX)
        return mt_fail(ctx, MT_ERR_INVALID, "train: a network of 1 to %d layers, not %d",
                       MT_MLP_MAX, nlayers);
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
    t->rate = rate;
    t->ops = mt_backend_ops_of(X->backend);
    t->perm = malloc((size_t)t->n * sizeof *t->perm);
    t->xd = alloc_floats(t->n * t->in);
    t->yd = alloc_floats(t->n);
    if (!t->perm || !t->xd || !t->yd) {
        mt_trainer_free(t);
        return mt_fail(ctx, MT_ERR_NOMEM, "train: out of memory for the training buffers");
    }
    enum mt_status st = mt_tensor_copy_out(X, t->xd); /* from a GPU it may fail: message in ctx */
    if (st == MT_OK) st = mt_tensor_copy_out(y, t->yd);
    if (st == MT_OK && !ops_only) st = fused_setup(t);
    if (st != MT_OK) {
        mt_trainer_free(t);
        return st;
    }
    *out = t;
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
    struct mt_tensor *params[2 * MT_MLP_MAX];
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
    if (t->fused) { /* its steps write the parameters in place */
        for (int l = 0; l < t->nl; l++) {
            mt_written(t->layers[l].weight);
            mt_written(t->layers[l].bias);
        }
        if (mt_cancel_requested())
            return mt_fail(ctx, MT_ERR_CANCELLED, "training was interrupted");
        st = t->ops->train_epoch(ctx, &t->mlp, t->state, t->perm, loss);
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
    if (t->fused && t->ops->train_correct)
        return t->ops->train_correct(t->ctx, &t->mlp, t->state, correct);
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
    if (!t->fused || !t->have_grads) return MT_OK;
    for (int i = 0; i < 2 * t->nl; i++) { /* copies of the buffers the fused steps wrote */
        struct mt_tensor *p = i % 2 ? t->layers[i / 2].bias : t->layers[i / 2].weight, *g = NULL;
        enum mt_status st = mt_copy_raw(t->ctx, t->cg[i], &g);
        if (st != MT_OK) return st;
        mt_tensor_release(p->grad);
        p->grad = g;
    }
    return MT_OK;
}
