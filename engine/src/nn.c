/* nn.c — MiniTorch's Linear layer and SGD, the pieces the training loop is made of.
 *
 * Parameters are ordinary leaf tensors with requires_grad set. The optimiser updates them in
 * place, so a model keeps the same tensors across steps (and the language's variables that name
 * them stay valid); the update itself is a raw op and records no history. */
#include "internal.h"

enum mt_status mt_linear_init(struct mt_ctx *ctx, enum mt_backend b, int64_t in, int64_t out,
                              struct mt_linear *l)
{
    int64_t wshape[] = {in, out};
    struct mt_tensor *r = NULL, *half = NULL, *w = NULL, *bias = NULL;
    int64_t one = 1;
    *l = (struct mt_linear){NULL, NULL};
    enum mt_status st = mt_rand(ctx, b, 2, wshape, &r);
    if (st == MT_OK) st = mt_full(ctx, b, 1, &one, 0.5f, &half);
    if (st == MT_OK) st = mt_zip(ctx, MT_ZIP_SUB, r, half, &w);
    if (st == MT_OK) st = mt_full(ctx, b, 1, &out, 0.1f, &bias);
    mt_tensor_release(r);
    mt_tensor_release(half);
    if (st != MT_OK) {
        mt_tensor_release(w);
        mt_tensor_release(bias);
        return st;
    }
    mt_tensor_requires_grad(w, true);
    mt_tensor_requires_grad(bias, true);
    l->weight = w;
    l->bias = bias;
    return MT_OK;
}

enum mt_status mt_linear_forward(struct mt_ctx *ctx, const struct mt_linear *l, struct mt_tensor *x,
                                 struct mt_tensor **out)
{
    struct mt_tensor *xw = NULL;
    enum mt_status st = mt_matmul(ctx, x, l->weight, &xw);
    if (st == MT_OK) st = mt_add(ctx, xw, l->bias, out);
    mt_tensor_release(xw);
    return st;
}

void mt_linear_free(struct mt_linear *l)
{
    mt_tensor_release(l->weight);
    mt_tensor_release(l->bias);
    *l = (struct mt_linear){NULL, NULL};
}

enum mt_status mt_sgd_step(struct mt_ctx *ctx, struct mt_tensor *const *params, int n, float rate)
{
    int64_t one = 1;
    struct mt_tensor *lr = NULL;
    enum mt_status st = MT_OK;
    for (int i = 0; i < n && st == MT_OK; i++) {
        struct mt_tensor *p = params[i], *step = NULL;
        if (!p->grad) continue;
        if (!lr || lr->backend != p->backend) {
            mt_tensor_release(lr);
            lr = NULL;
            if ((st = mt_full(ctx, p->backend, 1, &one, rate, &lr)) != MT_OK) break;
        }
        /* p = p - lr * grad, written into p itself: each element reads only its own value */
        st = mt_zip(ctx, MT_ZIP_MUL, p->grad, lr, &step);
        if (st == MT_OK) st = mt_zip(ctx, MT_ZIP_SUB, p, step, &p);
        mt_tensor_release(step);
    }
    mt_tensor_release(lr);
    return st;
}

void mt_sgd_zero_grad(struct mt_tensor *const *params, int n)
{
    for (int i = 0; i < n; i++) mt_zero_grad(params[i]);
}
