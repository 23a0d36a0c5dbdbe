/* test_alias.c — outputs that overlap their inputs, and values written after autodiff saved them
 * (engine/src/alias.c, autodiff.c's version check).
 *
 * An op given an `out` that views the storage an input views must give what it gives with the
 * input copied first (numpy's semantics): each case below is checked against plain C loops over
 * a copy of the values taken before the op. The values are small integers, so every sum and
 * product is exact in float32 whatever order a backend adds in. Sizes of 64 x 64 pass the user
 * functions' block of 2,048 elements, so the fast backend's blocks see the overlap too.
 *
 * backward must refuse a graph one of whose saved values was written in place after it was
 * recorded (PyTorch: "one of the variables needed for gradient computation has been modified
 * by an inplace operation"), and leave every .grad as it was; values no backward reads (add's
 * inputs) may change, and an SGD step between graphs is the ordinary training loop. An output
 * that repeats elements (stride 0) is refused. */
#include "minitorch/minitorch.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define N 64
#define NN (N * N)

static const enum mt_backend backends[] = {MT_BACKEND_SIMPLE, MT_BACKEND_FAST};

static float start_value(int64_t k) { return (float)(k % 11 - 5); }

/* x: (N, N) row-major holding start_value(k) at position k; x0 the same values on the host. */
static struct mt_tensor *fresh(struct mt_ctx *ctx, enum mt_backend b, float *x0)
{
    for (int64_t k = 0; k < NN; k++) x0[k] = start_value(k);
    int64_t shape[2] = {N, N};
    struct mt_tensor *x = NULL;
    CHECK_INT(mt_from_data(ctx, b, 2, shape, x0, &x), MT_OK);
    return x;
}

/* x's storage, position by position, against want[0..NN). */
static bool storage_is(const struct mt_tensor *x, const float *want)
{
    float got[NN];
    CHECK_INT(mt_tensor_copy_out(x, got), MT_OK);
    for (int64_t k = 0; k < NN; k++)
        if (got[k] != want[k]) {
            fprintf(stderr, "  position %lld: got %g, want %g\n", (long long)k, got[k], want[k]);
            return false;
        }
    return true;
}

static struct mt_tensor *strided(struct mt_ctx *ctx, struct mt_tensor *x, int ndim,
                                 const int64_t *shape, const int64_t *strides, int64_t offset)
{
    struct mt_tensor *v = NULL;
    CHECK_INT(mt_as_strided(ctx, x, ndim, shape, strides, offset, &v), MT_OK);
    return v;
}

static struct mt_tensor *transposed(struct mt_ctx *ctx, struct mt_tensor *x)
{
    int64_t order[2] = {1, 0};
    struct mt_tensor *t = NULL;
    CHECK_INT(mt_permute(ctx, x, 2, order, &t), MT_OK);
    return t;
}

/* The user functions the cases run: x * 2 + 1, x + y, and the fold acc + x. */
static const struct mt_prog_insn affine_insn[] = {
    {.op = MT_P_CONST, .dst = 1, .imm = 2.0f},
    {.op = MT_P_MUL, .dst = 2, .a = 0, .b = 1},
    {.op = MT_P_CONST, .dst = 3, .imm = 1.0f},
    {.op = MT_P_ADD, .dst = 4, .a = 2, .b = 3},
};
static const struct mt_prog affine = {"affine", 1, 4, affine_insn, 4};
static const struct mt_prog_insn add_insn[] = {{.op = MT_P_ADD, .dst = 2, .a = 0, .b = 1}};
static const struct mt_prog add2 = {"add2", 2, 1, add_insn, 2};

/* Elementwise: out = x, the input a transposed, shifted, reversed or broadcast view of x. */
static void test_elementwise_out_overlaps_input(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    static float x0[NN], want[NN];
    for (size_t bi = 0; bi < sizeof backends / sizeof backends[0]; bi++) {
        const enum mt_backend b = backends[bi];
        for (int use_prog = 0; use_prog < 2; use_prog++) {
            for (int c = 0; c < 5; c++) {
                struct mt_tensor *x = fresh(ctx, b, x0), *in = NULL, *out = mt_tensor_retain(x);
                const int64_t flat = NN - 1, one = 1, minus = -1, nn = NN;
                const int64_t row[2] = {1, N}, row_strides[2] = {N, 1};
                switch (c) {
                case 0: /* in = x^T: out[i][j] = f(x0[j][i]) */
                    in = transposed(ctx, x);
                    for (int i = 0; i < N; i++)
                        for (int j = 0; j < N; j++) want[i * N + j] = x0[j * N + i];
                    break;
                case 1: /* out one position after in: out[k + 1] = f(x0[k]) */
                    in = strided(ctx, x, 1, &flat, &one, 0);
                    mt_tensor_release(out);
                    out = strided(ctx, x, 1, &flat, &one, 1);
                    want[0] = x0[0];
                    for (int64_t k = 0; k < flat; k++) want[k + 1] = x0[k];
                    break;
                case 2: /* out one position before in: out[k] = f(x0[k + 1]) */
                    in = strided(ctx, x, 1, &flat, &one, 1);
                    mt_tensor_release(out);
                    out = strided(ctx, x, 1, &flat, &one, 0);
                    for (int64_t k = 0; k < flat; k++) want[k] = x0[k + 1];
                    want[flat] = x0[flat];
                    break;
                case 3: /* in = x reversed: out[k] = f(x0[NN - 1 - k]) */
                    in = strided(ctx, x, 1, &nn, &minus, NN - 1);
                    mt_tensor_release(out);
                    out = strided(ctx, x, 1, &nn, &one, 0);
                    for (int64_t k = 0; k < NN; k++) want[k] = x0[NN - 1 - k];
                    break;
                case 4: /* in = x's first row, broadcast down: out[i][j] = f(x0[0][j]) */
                    in = strided(ctx, x, 2, row, row_strides, 0);
                    for (int i = 0; i < N; i++)
                        for (int j = 0; j < N; j++) want[i * N + j] = x0[j];
                    break;
                }
                const bool skip_first = c == 1, skip_last = c == 2;
                for (int64_t k = skip_first; k < NN - skip_last; k++)
                    want[k] = use_prog ? want[k] * 2.0f + 1.0f : -want[k];
                CHECK_INT(use_prog ? mt_map_prog(ctx, &affine, in, &out)
                                   : mt_map(ctx, MT_MAP_NEG, in, &out),
                          MT_OK);
                if (!storage_is(x, want)) {
                    fprintf(stderr, "  map %s, backend %s, case %d\n", use_prog ? "prog" : "neg",
                            mt_backend_name(b), c);
                    CHECK(false);
                }
                mt_tensor_release(in);
                mt_tensor_release(out);
                mt_tensor_release(x);
            }
            /* zip: x = x^T + x, written into x */
            struct mt_tensor *x = fresh(ctx, b, x0), *t = transposed(ctx, x), *out = x;
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++) want[i * N + j] = x0[j * N + i] + x0[i * N + j];
            CHECK_INT(use_prog ? mt_zip_prog(ctx, &add2, t, x, &out)
                               : mt_zip(ctx, MT_ZIP_ADD, t, x, &out),
                      MT_OK);
            if (!storage_is(x, want)) {
                fprintf(stderr, "  zip %s, backend %s\n", use_prog ? "prog" : "add",
                        mt_backend_name(b));
                CHECK(false);
            }
            mt_tensor_release(t);
            mt_tensor_release(x);
            /* the input is out itself: in place, no copy needed, and the same answer */
            x = fresh(ctx, b, x0);
            out = x;
            for (int64_t k = 0; k < NN; k++) want[k] = use_prog ? x0[k] * 2.0f + 1.0f : -x0[k];
            CHECK_INT(use_prog ? mt_map_prog(ctx, &affine, x, &out)
                               : mt_map(ctx, MT_MAP_NEG, x, &out),
                      MT_OK);
            CHECK(out == x);
            CHECK(storage_is(x, want));
            mt_tensor_release(x);
        }
    }
    CHECK_INT(mt_ctx_mem_used(ctx), 0);
    mt_ctx_free(ctx);
}

/* Reductions and matmul read an input element after writing others: any overlap counts, even
 * with the same geometry. */
static void test_reduce_and_matmul_into_input(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    static float x0[NN], want[NN];
    for (size_t bi = 0; bi < sizeof backends / sizeof backends[0]; bi++) {
        const enum mt_backend b = backends[bi];
        for (int use_prog = 0; use_prog < 2; use_prog++) {
            /* row sums of x written along its last row (out (N, 1) with strides (1, 1)): the
             * last row's sum reads what the others wrote */
            struct mt_tensor *x = fresh(ctx, b, x0);
            const int64_t col[2] = {N, 1}, col_strides[2] = {1, 1};
            struct mt_tensor *out = strided(ctx, x, 2, col, col_strides, (N - 1) * N), *o = out;
            memcpy(want, x0, sizeof want);
            for (int i = 0; i < N; i++) {
                float s = 0.0f;
                for (int j = 0; j < N; j++) s += x0[i * N + j];
                want[(N - 1) * N + i] = s;
            }
            CHECK_INT(use_prog ? mt_reduce_prog(ctx, &add2, x, 1, 0.0f, &o)
                               : mt_reduce(ctx, MT_RED_SUM, x, 1, &o),
                      MT_OK);
            if (!storage_is(x, want)) {
                fprintf(stderr, "  reduce %s, backend %s\n", use_prog ? "prog" : "sum",
                        mt_backend_name(b));
                CHECK(false);
            }
            mt_tensor_release(out);
            mt_tensor_release(x);
        }
        /* x = x @ x^T, written into x (8 x 8 corner, so the sums stay small) */
        struct mt_tensor *x = fresh(ctx, b, x0);
        const int64_t sq[2] = {8, 8}, sq_strides[2] = {N, 1};
        struct mt_tensor *c = strided(ctx, x, 2, sq, sq_strides, 0), *t = transposed(ctx, c),
                         *o = c;
        memcpy(want, x0, sizeof want);
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                float s = 0.0f;
                for (int k = 0; k < 8; k++) s += x0[i * N + k] * x0[j * N + k];
                want[i * N + j] = s;
            }
        CHECK_INT(mt_matmul_raw(ctx, c, t, &o), MT_OK);
        if (!storage_is(x, want)) {
            fprintf(stderr, "  matmul, backend %s\n", mt_backend_name(b));
            CHECK(false);
        }
        mt_tensor_release(t);
        mt_tensor_release(c);
        mt_tensor_release(x);
    }
    CHECK_INT(mt_ctx_mem_used(ctx), 0);
    mt_ctx_free(ctx);
}

/* An output that reaches one position through several elements (stride 0) is refused: the
 * value left there would be whichever write came last, and threads would race for it. */
static void test_out_repeating_elements_refused(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    static float x0[NN];
    for (size_t bi = 0; bi < sizeof backends / sizeof backends[0]; bi++) {
        struct mt_tensor *x = fresh(ctx, backends[bi], x0), *y = fresh(ctx, backends[bi], x0);
        const int64_t shape[2] = {N, N}, bcast[2] = {0, 1}, col[2] = {N, 1}, col_bcast[2] = {0, 1};
        struct mt_tensor *rows = strided(ctx, x, 2, shape, bcast, 0), *o = rows;
        struct mt_tensor *sums = strided(ctx, x, 2, col, col_bcast, 0), *so = sums;
        CHECK_INT(mt_map(ctx, MT_MAP_NEG, y, &o), MT_ERR_INVALID);
        CHECK(strstr(mt_ctx_error(ctx), "repeats elements") != NULL);
        CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, y, y, &o), MT_ERR_INVALID);
        CHECK_INT(mt_matmul_raw(ctx, y, y, &o), MT_ERR_INVALID);
        CHECK_INT(mt_map_prog(ctx, &affine, y, &o), MT_ERR_INVALID);
        CHECK_INT(mt_zip_prog(ctx, &add2, y, y, &o), MT_ERR_INVALID);
        CHECK_INT(mt_reduce(ctx, MT_RED_SUM, y, 1, &so), MT_ERR_INVALID);
        CHECK_INT(mt_reduce_prog(ctx, &add2, y, 1, 0.0f, &so), MT_ERR_INVALID);
        CHECK(o == rows && so == sums);
        CHECK(storage_is(x, x0)); /* nothing written */
        mt_tensor_release(rows);
        mt_tensor_release(sums);
        mt_tensor_release(x);
        mt_tensor_release(y);
    }
    CHECK_INT(mt_ctx_mem_used(ctx), 0);
    mt_ctx_free(ctx);
}

static struct mt_tensor *leaf(struct mt_ctx *ctx, const float *v, int64_t n)
{
    struct mt_tensor *t = NULL;
    CHECK_INT(mt_from_data(ctx, MT_BACKEND_FAST, 1, &n, v, &t), MT_OK);
    CHECK_INT(mt_tensor_requires_grad(t, true), MT_OK);
    return t;
}

static float item(struct mt_tensor *t, int64_t i)
{
    float v = 0.0f;
    CHECK_INT(mt_tensor_get(t->ctx, t, 1, &i, &v), MT_OK);
    return v;
}

/* backward from sum(y), expecting status want; the error names the Function. */
static void backward_sum(struct mt_ctx *ctx, struct mt_tensor *y, enum mt_status want,
                         const char *fn)
{
    struct mt_tensor *s = NULL;
    CHECK_INT(mt_sum(ctx, y, MT_ALL_DIMS, &s), MT_OK);
    CHECK_INT(mt_backward(ctx, s, NULL), want);
    if (want != MT_OK) {
        CHECK(strstr(mt_ctx_error(ctx), "modified in place") != NULL);
        CHECK(strstr(mt_ctx_error(ctx), fn) != NULL);
    }
    mt_tensor_release(s);
}

static void test_backward_refuses_values_written_after_use(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    const float v[3] = {1.0f, 2.0f, 3.0f};
    const int64_t zero = 0;

    /* the case: y = x * x; x[0] = 100; y.sum().backward() gave x.grad[0] = 200 */
    struct mt_tensor *x = leaf(ctx, v, 3), *y = NULL;
    CHECK_INT(mt_mul(ctx, x, x, &y), MT_OK);
    CHECK_INT(mt_tensor_set(ctx, x, 1, &zero, 100.0f), MT_OK);
    backward_sum(ctx, y, MT_ERR_GRAD, "mul");
    CHECK(x->grad == NULL); /* nothing accumulated before the refusal */
    mt_tensor_release(y);
    y = NULL; /* a graph recorded after the write uses the new value */
    CHECK_INT(mt_mul(ctx, x, x, &y), MT_OK);
    backward_sum(ctx, y, MT_OK, NULL);
    CHECK(x->grad && item(x->grad, 0) == 200.0f && item(x->grad, 2) == 6.0f);
    mt_tensor_release(y);
    mt_tensor_release(x);

    /* a write through another view of the storage counts (views share the version) */
    x = leaf(ctx, v, 3);
    y = NULL;
    struct mt_tensor *alias = NULL, *e = NULL;
    CHECK_INT(mt_detach(ctx, x, &alias), MT_OK);
    CHECK_INT(mt_log(ctx, x, &y), MT_OK);
    CHECK_INT(mt_tensor_set(ctx, alias, 1, &zero, 5.0f), MT_OK);
    backward_sum(ctx, y, MT_ERR_GRAD, "log");
    mt_tensor_release(y);

    /* exp saves its result: writing the result in place (map into out=) is refused too */
    y = NULL;
    CHECK_INT(mt_exp(ctx, x, &y), MT_OK);
    CHECK_INT(mt_exp(ctx, y, &e), MT_OK);
    struct mt_tensor *yo = y;
    CHECK_INT(mt_map(ctx, MT_MAP_NEG, y, &yo), MT_OK);
    backward_sum(ctx, e, MT_ERR_GRAD, "exp");
    mt_tensor_release(e);
    mt_tensor_release(y);

    /* add's backward reads no value: writing its inputs afterwards is allowed (PyTorch too) */
    y = NULL;
    CHECK_INT(mt_add(ctx, x, x, &y), MT_OK);
    CHECK_INT(mt_tensor_set(ctx, alias, 1, &zero, 7.0f), MT_OK);
    backward_sum(ctx, y, MT_OK, NULL);
    CHECK(x->grad && item(x->grad, 0) == 2.0f);
    mt_tensor_release(y);
    mt_tensor_release(alias);
    mt_tensor_release(x);

    /* SGD: the step writes the parameter in place; a new graph then trains as before, and only
     * the consumed graph is refused */
    struct mt_tensor *w = leaf(ctx, v, 3), *old = NULL;
    x = NULL;
    CHECK_INT(mt_from_data(ctx, MT_BACKEND_FAST, 1, (const int64_t[]){3}, v, &x), MT_OK);
    for (int step = 0; step < 3; step++) {
        struct mt_tensor *p = NULL;
        CHECK_INT(mt_mul(ctx, w, x, &p), MT_OK);
        mt_sgd_zero_grad(&w, 1);
        backward_sum(ctx, p, MT_OK, NULL);
        CHECK_INT(mt_sgd_step(ctx, &w, 1, 0.5f), MT_OK);
        mt_tensor_release(old);
        old = p;
    }
    CHECK(item(w, 1) == 2.0f - 3 * 0.5f * 2.0f); /* w -= 0.5 * x, three times */
    backward_sum(ctx, old, MT_ERR_GRAD, "mul");
    mt_tensor_release(old);
    mt_tensor_release(x);
    mt_tensor_release(w);

    CHECK_INT(mt_ctx_mem_used(ctx), 0);
    mt_ctx_free(ctx);
}

int main(void)
{
    RUN_TEST(test_elementwise_out_overlaps_input);
    RUN_TEST(test_reduce_and_matmul_into_input);
    RUN_TEST(test_out_repeating_elements_refused);
    RUN_TEST(test_backward_refuses_values_written_after_use);
    return TEST_SUMMARY();
}
