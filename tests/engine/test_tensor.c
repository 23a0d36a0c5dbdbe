/* test_tensor.c — the engine's tensor core: index math, broadcasting (MiniTorch's cases),
 * views, element access, errors, the memory limit, the random generator and autodiff basics
 * (a custom Function's history among them).
 * Expected values come from the definitions (row-major order, Python's random module, hand
 * derivatives), not from the implementation. */
#include "minitorch/minitorch.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct mt_ctx *ctx;

static bool shape_is(const struct mt_tensor *t, int ndim, const int64_t *shape)
{
    return t->ndim == ndim && memcmp(t->shape, shape, (size_t)ndim * sizeof *shape) == 0;
}

static void test_index_math(void)
{
    int64_t shape[] = {2, 3, 4}, strides[3], idx[3];
    CHECK_INT(mt_strides_from_shape(3, shape, strides), 24);
    CHECK_INT(strides[0], 12);
    CHECK_INT(strides[1], 4);
    CHECK_INT(strides[2], 1);
    /* every ordinal round-trips through to_index and index_to_position for row-major strides */
    for (int64_t i = 0; i < 24; i++) {
        mt_to_index(i, 3, shape, idx);
        CHECK_INT(mt_index_to_position(3, idx, strides), i);
    }
    mt_to_index(23, 3, shape, idx);
    CHECK(idx[0] == 1 && idx[1] == 2 && idx[2] == 3);
    /* broadcast_index: (2,3,4) index into (3,1) -> (i1, 0) */
    int64_t small[] = {3, 1}, big[] = {1, 2, 3}, out[2];
    mt_broadcast_index(big, 3, 2, small, out);
    CHECK(out[0] == 2 && out[1] == 0);
}

/* MiniTorch's test_shape_broadcast cases */
static void test_broadcast_rules(void)
{
    struct {
        int na;
        int64_t a[4];
        int nb;
        int64_t b[4];
        int nout; /* 0: must fail */
        int64_t out[4];
    } cases[] = {
        {1, {1}, 2, {5, 5}, 2, {5, 5}},
        {3, {1, 5, 5}, 2, {5, 5}, 3, {1, 5, 5}},
        {4, {5, 1, 5, 1}, 4, {1, 5, 1, 5}, 4, {5, 5, 5, 5}},
        {2, {2, 5}, 1, {5}, 2, {2, 5}},
        {2, {5, 2}, 1, {5}, 0, {0}},
        {4, {5, 7, 5, 1}, 4, {1, 5, 1, 5}, 0, {0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n = -1;
        int64_t out[MT_MAX_DIMS];
        enum mt_status st =
            mt_shape_broadcast(ctx, cases[i].na, cases[i].a, cases[i].nb, cases[i].b, &n, out);
        if (cases[i].nout == 0) {
            CHECK_INT(st, MT_ERR_SHAPE);
            CHECK_STR(mt_status_ename(st), "ShapeError");
        } else {
            CHECK_INT(st, MT_OK);
            CHECK_INT(n, cases[i].nout);
            CHECK(memcmp(out, cases[i].out, (size_t)n * sizeof *out) == 0);
        }
    }
    int64_t a[] = {5, 2}, b[] = {5};
    int n;
    int64_t out[MT_MAX_DIMS];
    mt_shape_broadcast(ctx, 2, a, 1, b, &n, out);
    CHECK(strstr(mt_ctx_error(ctx), "(5, 2)") && strstr(mt_ctx_error(ctx), "(5,)"));
}

static void test_views(void)
{
    float data[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[] = {2, 3}, order[] = {1, 0}, vshape[] = {3, 2}, infer[] = {-1};
    struct mt_tensor *t = NULL, *p = NULL, *v = NULL, *c = NULL, *f = NULL;
    CHECK_INT(mt_from_data(ctx, MT_BACKEND_SIMPLE, 2, shape, data, &t), MT_OK);
    CHECK(mt_tensor_is_contiguous(t));
    CHECK_INT(mt_permute(ctx, t, 2, order, &p), MT_OK);
    CHECK(shape_is(p, 2, vshape));
    CHECK(!mt_tensor_is_contiguous(p));
    CHECK(p->storage == t->storage); /* a view shares storage */
    float x;
    int64_t idx[] = {2, 1};
    CHECK_INT(mt_tensor_get(ctx, p, 2, idx, &x), MT_OK);
    CHECK(x == 6.0f); /* p[2,1] = t[1,2] */
    /* view of a non-contiguous tensor is an error telling what to do */
    CHECK_INT(mt_view(ctx, p, 2, shape, &v), MT_ERR_SHAPE);
    CHECK(v == NULL);
    CHECK(strstr(mt_ctx_error(ctx), "contiguous()") != NULL);
    CHECK_INT(mt_contiguous(ctx, p, &c), MT_OK);
    CHECK(mt_tensor_is_contiguous(c));
    float out[6];
    mt_tensor_copy_out(c, out);
    float expect[6] = {1, 4, 2, 5, 3, 6};
    CHECK(memcmp(out, expect, sizeof out) == 0);
    CHECK_INT(mt_view(ctx, c, 1, infer, &f), MT_OK);
    CHECK_INT(f->shape[0], 6);
    int64_t bad[] = {4};
    struct mt_tensor *none = NULL;
    CHECK_INT(mt_view(ctx, c, 1, bad, &none), MT_ERR_SHAPE);
    int64_t dup[] = {0, 0};
    CHECK_INT(mt_permute(ctx, t, 2, dup, &none), MT_ERR_INDEX);
    /* index errors and negative indices */
    int64_t neg[] = {-1, -1}, oob[] = {2, 0};
    CHECK_INT(mt_tensor_get(ctx, t, 2, neg, &x), MT_OK);
    CHECK(x == 6.0f);
    CHECK_INT(mt_tensor_get(ctx, t, 2, oob, &x), MT_ERR_INDEX);
    CHECK_INT(mt_tensor_get(ctx, t, 1, oob, &x), MT_ERR_INDEX);
    CHECK_INT(mt_tensor_set(ctx, t, 2, neg, 9.0f), MT_OK);
    CHECK(mt_tensor_data(t)[5] == 9.0f);
    /* as_strided must stay inside the storage */
    int64_t s1[] = {3}, st1[] = {2};
    struct mt_tensor *sl = NULL;
    CHECK_INT(mt_as_strided(ctx, t, 1, s1, st1, 1, &sl), MT_OK); /* elements 1, 3, 5 */
    mt_tensor_copy_out(sl, out);
    CHECK(out[0] == 2 && out[1] == 4 && out[2] == 9);
    CHECK_INT(mt_as_strided(ctx, t, 1, s1, st1, 2, &none), MT_ERR_INDEX);
    mt_tensor_release(sl);
    mt_tensor_release(f);
    mt_tensor_release(c);
    mt_tensor_release(p);
    mt_tensor_release(t);
}

/* Sizes, strides and offsets whose products or sums pass int64 (or any storage) are refused
 * with the right error instead of wrapping into a small, accepted geometry. */
static void test_geometry_overflow(void)
{
    struct mt_tensor *t = NULL, *none = NULL, *v = NULL;
    int64_t n16[] = {16};
    CHECK_INT(mt_zeros(ctx, MT_BACKEND_SIMPLE, 1, n16, &t), MT_OK);
    /* (2^60 + 1) * 16 wraps to 16 */
    int64_t wraps[] = {((int64_t)1 << 60) + 1, 16};
    CHECK_INT(mt_view(ctx, t, 2, wraps, &none), MT_ERR_SHAPE);
    CHECK(none == NULL);
    CHECK(strstr(mt_ctx_error(ctx), "cannot view a tensor of shape (16,) (16 elements) as "
                                    "(1152921504606846977, 16)") != NULL);
    /* 2^62 * 4 wraps to 0: not "ambiguous next to a size 0", just too many elements */
    int64_t infer[] = {(int64_t)1 << 62, 4, -1};
    CHECK_INT(mt_view(ctx, t, 3, infer, &none), MT_ERR_SHAPE);
    CHECK(strstr(mt_ctx_error(ctx), "ambiguous") == NULL);
    CHECK(strstr(mt_ctx_error(ctx), "cannot view") != NULL);
    int64_t zero_infer[] = {0, -1}; /* a real 0 still is */
    CHECK_INT(mt_view(ctx, t, 2, zero_infer, &none), MT_ERR_SHAPE);
    CHECK(strstr(mt_ctx_error(ctx), "ambiguous") != NULL);
    int64_t good[] = {2, -1, 4};
    CHECK_INT(mt_view(ctx, t, 3, good, &v), MT_OK);
    CHECK(v->shape[1] == 2 && v->size == 16);
    mt_tensor_release(v);
    /* a size 0 does not excuse sizes whose row-major strides pass int64 */
    int64_t empty_huge[] = {0, (int64_t)1 << 40, (int64_t)1 << 40};
    CHECK_INT(mt_zeros(ctx, MT_BACKEND_SIMPLE, 3, empty_huge, &none), MT_ERR_NOMEM);
    CHECK(none == NULL);
    /* as_strided: 4 * 2^62 wraps to 0; two spans of -2^63 add up to 0; an offset that
     * overflows */
    int64_t s5[] = {5}, big[] = {(int64_t)1 << 62};
    CHECK_INT(mt_as_strided(ctx, t, 1, s5, big, 0, &none), MT_ERR_INDEX);
    int64_t s33[] = {3, 3}, big2[] = {(int64_t)1 << 62, (int64_t)1 << 62};
    CHECK_INT(mt_as_strided(ctx, t, 2, s33, big2, 0, &none), MT_ERR_INDEX);
    /* A dim of size 1 never steps: a stride longer than the storage there (x[::3] of two
     * elements, or -2^48, with which the fast GEMM's pointer, stepped once past the last k,
     * wrapped the address: fuzz_engine found it) is kept as 0; up to the storage's size it is
     * kept as given. */
    int64_t s13[] = {1, 3}, big_one[] = {(int64_t)1 << 62, 1};
    CHECK_INT(mt_as_strided(ctx, t, 2, s13, big_one, 0, &v), MT_OK);
    CHECK(v->strides[0] == 0 && v->strides[1] == 1);
    mt_tensor_release(v);
    int64_t s131[] = {1, 3, 1}, far[] = {-((int64_t)1 << 48), 1, 1}, past[] = {17, 1, 1};
    CHECK_INT(mt_as_strided(ctx, t, 3, s131, far, 0, &v), MT_OK);
    CHECK(v->strides[0] == 0);
    mt_tensor_release(v);
    CHECK_INT(mt_as_strided(ctx, t, 3, s131, past, 0, &v), MT_OK);
    CHECK(v->strides[0] == 0);
    mt_tensor_release(v);
    past[0] = 16; /* as long as the storage: kept */
    CHECK_INT(mt_as_strided(ctx, t, 3, s131, past, 0, &v), MT_OK);
    CHECK(v->strides[0] == 16);
    mt_tensor_release(v);
    int64_t s3[] = {3}, st17[] = {17}; /* a dim that steps: out of the storage */
    CHECK_INT(mt_as_strided(ctx, t, 1, s3, st17, 0, &none), MT_ERR_INDEX);
    int64_t s1[] = {1}, st1[] = {1};
    CHECK_INT(mt_as_strided(ctx, t, 1, s1, st1, 1, &v), MT_OK);
    CHECK_INT(mt_as_strided(ctx, v, 1, s1, st1, INT64_MAX, &none), MT_ERR_INDEX);
    CHECK(none == NULL);
    mt_tensor_release(v);
    /* an empty view reaches nothing: any stride within bounds, any offset from 0 (an empty
     * slice past the end), kept at most at the end */
    int64_t s02[] = {0, 2}, st02[] = {5, 7};
    CHECK_INT(mt_as_strided(ctx, t, 2, s02, st02, 16, &v), MT_OK);
    CHECK(v->size == 0);
    mt_tensor_release(v);
    CHECK_INT(mt_as_strided(ctx, t, 2, s02, st02, 17, &v), MT_OK);
    CHECK(v->size == 0 && v->offset == 16);
    mt_tensor_release(v);
    CHECK_INT(mt_as_strided(ctx, t, 2, s02, st02, -1, &none), MT_ERR_INDEX);
    CHECK(none == NULL);
    mt_tensor_release(t);
}

static void test_memory_limit(void)
{
    size_t before = mt_ctx_mem_used(ctx);
    mt_ctx_set_mem_limit(ctx, 1 << 20); /* 1 MiB */
    int64_t big[] = {1024, 1024};
    struct mt_tensor *t = NULL;
    CHECK_INT(mt_zeros(ctx, MT_BACKEND_FAST, 2, big, &t), MT_ERR_NOMEM);
    CHECK(t == NULL);
    CHECK_STR(mt_status_ename(MT_ERR_NOMEM), "MemoryError");
    CHECK(strstr(mt_ctx_error(ctx), "(1024, 1024)") != NULL);
    CHECK(strstr(mt_ctx_error(ctx), "4.00 MiB") != NULL);
    int64_t small[] = {100};
    CHECK_INT(mt_zeros(ctx, MT_BACKEND_FAST, 1, small, &t), MT_OK);
    CHECK(mt_ctx_mem_used(ctx) == before + 400);
    mt_tensor_release(t);
    CHECK(mt_ctx_mem_used(ctx) == before);
    mt_ctx_set_mem_limit(ctx, 0); /* default again */
    CHECK(mt_ctx_mem_limit(ctx) > (size_t)1 << 20);
    int64_t huge[] = {(int64_t)1 << 40, (int64_t)1 << 20};
    CHECK_INT(mt_empty(ctx, MT_BACKEND_FAST, 2, huge, &t), MT_ERR_NOMEM);
}

/* The first draws of Python's `random.seed(3); [random.random() for _ in range(3)]`
 * (CPython 3.11), printed with repr. */
static void test_random_matches_python(void)
{
    const double py[] = {0.23796462709189137, 0.5442292252959519, 0.36995516654807925};
    mt_seed(ctx, 3);
    for (int i = 0; i < 3; i++) CHECK(mt_random(ctx) == py[i]);
    int64_t shape[] = {3};
    struct mt_tensor *t = NULL;
    mt_seed(ctx, 3);
    CHECK_INT(mt_rand(ctx, MT_BACKEND_SIMPLE, 1, shape, &t), MT_OK);
    for (int i = 0; i < 3; i++) CHECK(mt_tensor_data(t)[i] == (float)py[i]);
    mt_tensor_release(t);
}

static void test_backend_errors(void)
{
    enum mt_backend b;
    CHECK_INT(mt_backend_parse(ctx, "fast", &b), MT_OK);
    CHECK_INT(b, MT_BACKEND_FAST);
    CHECK_INT(mt_backend_parse(ctx, "gpu", &b), MT_ERR_INVALID);
    CHECK(strstr(mt_ctx_error(ctx), "simple") != NULL);
    int64_t shape[] = {2};
    struct mt_tensor *a = NULL, *c = NULL, *r = NULL;
    CHECK_INT(mt_ones(ctx, MT_BACKEND_SIMPLE, 1, shape, &a), MT_OK);
    CHECK_INT(mt_ones(ctx, MT_BACKEND_FAST, 1, shape, &c), MT_OK);
    CHECK_INT(mt_add(ctx, a, c, &r), MT_ERR_BACKEND);
    CHECK(strstr(mt_ctx_error(ctx), "simple") && strstr(mt_ctx_error(ctx), "fast"));
    CHECK_INT(mt_to(ctx, a, MT_BACKEND_CUDA, &r), MT_ERR_BACKEND);
    CHECK(r == NULL);
    mt_tensor_release(a);
    mt_tensor_release(c);
}

/* d/dx sum(sigmoid(x * w + b)) against the hand derivative, with w (1,3) broadcast over x (2,3)
 * so its gradient is summed over dim 0. */
static void test_backward_broadcast(void)
{
    float xd[6] = {0.5f, -1.0f, 2.0f, 0.0f, 1.5f, -0.5f}, wd[3] = {1.0f, -2.0f, 0.5f};
    int64_t xs[] = {2, 3}, ws[] = {1, 3}, one = 1;
    struct mt_tensor *x = NULL, *w = NULL, *b = NULL, *m = NULL, *s = NULL, *y = NULL, *l = NULL;
    mt_from_data(ctx, MT_BACKEND_SIMPLE, 2, xs, xd, &x);
    mt_from_data(ctx, MT_BACKEND_SIMPLE, 2, ws, wd, &w);
    mt_full(ctx, MT_BACKEND_SIMPLE, 1, &one, 0.25f, &b);
    mt_tensor_requires_grad(x, true);
    mt_tensor_requires_grad(w, true);
    mt_tensor_requires_grad(b, true);
    CHECK_INT(mt_mul(ctx, x, w, &m), MT_OK);
    CHECK_INT(mt_add(ctx, m, b, &s), MT_OK);
    CHECK_INT(mt_sigmoid(ctx, s, &y), MT_OK);
    CHECK_INT(mt_sum(ctx, y, MT_ALL_DIMS, &l), MT_OK);
    CHECK_INT(mt_backward(ctx, l, NULL), MT_OK);
    CHECK(x->grad && w->grad && b->grad);
    CHECK(shape_is(w->grad, 2, ws));
    double gw[3] = {0}, gb = 0;
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 3; j++) {
            double z = (double)xd[i * 3 + j] * wd[j] + 0.25, sg = 1 / (1 + exp(-z));
            double dz = sg * (1 - sg);
            CHECK(fabs(mt_tensor_data(x->grad)[i * 3 + j] - dz * wd[j]) < 1e-6);
            gw[j] += dz * xd[i * 3 + j];
            gb += dz;
        }
    }
    for (int j = 0; j < 3; j++) CHECK(fabs(mt_tensor_data(w->grad)[j] - gw[j]) < 1e-6);
    CHECK(fabs(mt_tensor_data(b->grad)[0] - gb) < 1e-6);
    /* a second backward accumulates; zero_grad drops */
    CHECK_INT(mt_backward(ctx, l, NULL), MT_OK);
    CHECK(fabs(mt_tensor_data(b->grad)[0] - 2 * gb) < 1e-5);
    mt_zero_grad(b);
    CHECK(b->grad == NULL);
    /* backward on a non-scalar needs a gradient */
    CHECK_INT(mt_backward(ctx, y, NULL), MT_ERR_GRAD);
    CHECK(strstr(mt_ctx_error(ctx), "(2, 3)") != NULL);
    struct mt_tensor *d = NULL;
    CHECK_INT(mt_detach(ctx, y, &d), MT_OK);
    CHECK(!d->requires_grad && d->node == NULL);
    CHECK_INT(mt_backward(ctx, d, NULL), MT_ERR_GRAD);
    struct mt_tensor *all[] = {d, l, y, s, m, b, w, x};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) mt_tensor_release(all[i]);
}

/* A custom Function (mt_record_custom): y = x * w with w (1, 3) broadcast over x (2, 3), its
 * backward given here; the gradients it returns are summed over the broadcast dim as the
 * engine's own are, its data released once with the graph, and a backward inside it refused. */
struct custom_mul {
    struct mt_tensor *x, *w; /* detached inputs, owned */
    int released, calls;
    bool nested; /* the backward tries mt_backward itself */
};

static enum mt_status custom_mul_backward(void *data, struct mt_ctx *c, struct mt_tensor *g,
                                          int nin, struct mt_tensor **grads)
{
    struct custom_mul *m = data;
    m->calls++;
    CHECK_INT(nin, 2);
    if (m->nested) {
        CHECK_INT(mt_backward(c, g, NULL), MT_ERR_GRAD);
        CHECK(strstr(mt_ctx_error(c), "inside a Function's backward") != NULL);
        return MT_ERR_GRAD;
    }
    enum mt_status st = mt_zip(c, MT_ZIP_MUL, g, m->w, &grads[0]);
    if (st == MT_OK) st = mt_zip(c, MT_ZIP_MUL, g, m->x, &grads[1]);
    return st;
}

static void custom_mul_release(void *data)
{
    struct custom_mul *m = data;
    m->released++;
    mt_tensor_release(m->x);
    mt_tensor_release(m->w);
    m->x = m->w = NULL;
}

static void test_custom_function(void)
{
    float xd[6] = {0.5f, -1.0f, 2.0f, 0.0f, 1.5f, -0.5f}, wd[3] = {1.0f, -2.0f, 0.5f};
    int64_t xs[] = {2, 3}, ws[] = {1, 3}, one = 1;
    for (int nested = 0; nested < 2; nested++) {
        struct mt_tensor *x = NULL, *w = NULL, *y = NULL, *l = NULL;
        struct custom_mul m = {0};
        m.nested = nested;
        mt_from_data(ctx, MT_BACKEND_SIMPLE, 2, xs, xd, &x);
        mt_from_data(ctx, MT_BACKEND_SIMPLE, 2, ws, wd, &w);
        mt_tensor_requires_grad(x, true);
        mt_tensor_requires_grad(w, true);
        CHECK_INT(mt_detach(ctx, x, &m.x), MT_OK);
        CHECK_INT(mt_detach(ctx, w, &m.w), MT_OK);
        CHECK_INT(mt_zip(ctx, MT_ZIP_MUL, m.x, m.w, &y), MT_OK);
        struct mt_tensor *in[2] = {x, w};
        const struct mt_custom_fn fn = {custom_mul_backward, custom_mul_release, &m};
        CHECK_INT(mt_record_custom(ctx, &y, 2, in, &fn), MT_OK);
        CHECK(y->requires_grad && m.released == 0);
        CHECK_INT(mt_sum(ctx, y, MT_ALL_DIMS, &l), MT_OK);
        CHECK_INT(mt_backward(ctx, l, NULL), nested ? MT_ERR_GRAD : MT_OK);
        CHECK_INT(m.calls, 1);
        if (!nested) { /* d/dx = w broadcast; d/dw[j] = x[0][j] + x[1][j] */
            CHECK(x->grad && shape_is(x->grad, 2, xs) && w->grad && shape_is(w->grad, 2, ws));
            for (int i = 0; i < 6; i++) CHECK(mt_tensor_data(x->grad)[i] == wd[i % 3]);
            for (int j = 0; j < 3; j++) CHECK(mt_tensor_data(w->grad)[j] == xd[j] + xd[3 + j]);
        } else {
            CHECK(x->grad == NULL && w->grad == NULL);
            CHECK(strstr(mt_ctx_error(ctx), "custom Function") != NULL);
        }
        mt_tensor_release(l);
        CHECK_INT(m.released, 0);
        mt_tensor_release(y);
        CHECK_INT(m.released, 1);
        mt_tensor_release(w);
        mt_tensor_release(x);
    }
    /* nothing requires grad: nothing recorded, the data released at once; bad counts refused */
    struct mt_tensor *a = NULL, *b = NULL;
    mt_full(ctx, MT_BACKEND_SIMPLE, 1, &one, 2.0f, &a);
    mt_full(ctx, MT_BACKEND_SIMPLE, 1, &one, 3.0f, &b);
    struct custom_mul m = {0};
    const struct mt_custom_fn fn = {custom_mul_backward, custom_mul_release, &m};
    struct mt_tensor *in[MT_CUSTOM_MAX_IN + 1] = {a, a, a, a, a};
    CHECK_INT(mt_record_custom(ctx, &b, 1, in, &fn), MT_OK);
    CHECK(b && b->node == NULL && !b->requires_grad && m.released == 1);
    mt_tensor_requires_grad(a, true);
    CHECK_INT(mt_record_custom(ctx, &b, MT_CUSTOM_MAX_IN + 1, in, &fn), MT_ERR_INVALID);
    CHECK(b == NULL && m.released == 2);
    mt_tensor_release(a);
}

/* A chain as long as a careless loop (x = x + 1, 200k times) backpropagates and frees without
 * recursion. */
static void test_deep_chain(void)
{
    int64_t one = 1;
    struct mt_tensor *x = NULL, *c = NULL, *y;
    mt_zeros(ctx, MT_BACKEND_SIMPLE, 1, &one, &x);
    mt_ones(ctx, MT_BACKEND_SIMPLE, 1, &one, &c);
    mt_tensor_requires_grad(x, true);
    y = mt_tensor_retain(x);
    for (int i = 0; i < 200000; i++) {
        struct mt_tensor *n = NULL;
        if (mt_add(ctx, y, c, &n) != MT_OK) break;
        mt_tensor_release(y);
        y = n;
    }
    CHECK(mt_tensor_data(y)[0] == 200000.0f);
    CHECK_INT(mt_backward(ctx, y, NULL), MT_OK);
    CHECK(x->grad && mt_tensor_data(x->grad)[0] == 1.0f);
    mt_tensor_release(y);
    mt_tensor_release(c);
    mt_tensor_release(x);
}

/* Linear's initialisation draws like MiniTorch (weights = random.random() - 0.5, row-major;
 * bias 0.1); values from `random.seed(1); [random.random() for _ in range(6)]` in CPython.
 * One SGD step moves each parameter by -rate * grad. */
static void test_linear_sgd(void)
{
    const double py[] = {0.13436424411240122, 0.8474337369372327,  0.763774618976614,
                         0.2550690257394217,  0.49543508709194095, 0.4494910647887381};
    struct mt_linear l;
    mt_seed(ctx, 1);
    CHECK_INT(mt_linear_init(ctx, MT_BACKEND_SIMPLE, 2, 3, &l), MT_OK);
    int64_t ws[] = {2, 3}, bs[] = {3}, xs[] = {1, 2};
    CHECK(shape_is(l.weight, 2, ws) && shape_is(l.bias, 1, bs));
    for (int i = 0; i < 6; i++) CHECK(mt_tensor_data(l.weight)[i] == (float)py[i] - 0.5f);
    for (int i = 0; i < 3; i++) CHECK(mt_tensor_data(l.bias)[i] == 0.1f);
    CHECK(l.weight->requires_grad && l.bias->requires_grad);
    float xd[2] = {1.0f, 2.0f};
    struct mt_tensor *x = NULL, *y = NULL, *s = NULL;
    mt_from_data(ctx, MT_BACKEND_SIMPLE, 2, xs, xd, &x);
    CHECK_INT(mt_linear_forward(ctx, &l, x, &y), MT_OK);
    for (int j = 0; j < 3; j++) {
        float w0 = mt_tensor_data(l.weight)[j], w1 = mt_tensor_data(l.weight)[3 + j];
        CHECK(fabsf(mt_tensor_data(y)[j] - (w0 + 2 * w1 + 0.1f)) < 1e-6f);
    }
    CHECK_INT(mt_sum(ctx, y, MT_ALL_DIMS, &s), MT_OK);
    CHECK_INT(mt_backward(ctx, s, NULL), MT_OK);
    float w_before[6];
    memcpy(w_before, mt_tensor_data(l.weight), sizeof w_before);
    struct mt_tensor *params[] = {l.weight, l.bias};
    CHECK_INT(mt_sgd_step(ctx, params, 2, 0.5f), MT_OK);
    /* dsum/dW[i][j] = x[i], dsum/db = 1 */
    for (int i = 0; i < 6; i++)
        CHECK(fabsf(mt_tensor_data(l.weight)[i] - (w_before[i] - 0.5f * xd[i / 3])) < 1e-6f);
    CHECK(fabsf(mt_tensor_data(l.bias)[0] - (0.1f - 0.5f)) < 1e-6f);
    mt_sgd_zero_grad(params, 2);
    CHECK(l.weight->grad == NULL && l.bias->grad == NULL);
    mt_tensor_release(s);
    mt_tensor_release(y);
    mt_tensor_release(x);
    mt_linear_free(&l);
}

int main(void)
{
    ctx = mt_ctx_new();
    RUN_TEST(test_index_math);
    RUN_TEST(test_broadcast_rules);
    RUN_TEST(test_views);
    RUN_TEST(test_geometry_overflow);
    RUN_TEST(test_memory_limit);
    RUN_TEST(test_random_matches_python);
    RUN_TEST(test_backend_errors);
    RUN_TEST(test_backward_broadcast);
    RUN_TEST(test_custom_function);
    RUN_TEST(test_deep_chain);
    RUN_TEST(test_linear_sgd);
    CHECK_INT(mt_ctx_mem_used(ctx), 0);
    mt_ctx_free(ctx);
    return TEST_SUMMARY();
}
