/* test_train.c — the training loop (engine/src/train.c).
 *
 * The reference is the loop made of autodiff ops (the trainer's ops path, which is what a loop
 * written in the language runs): the fused step must give the same bits — every epoch's loss,
 * every correct count, the final weights and the last gradients — for several datasets, widths,
 * batch sizes (including a last batch smaller than the rest, batch 1 and batch >= 64, where the
 * fast backend's sums change path), and K > KC (hidden 300). The ops path itself is checked to
 * learn (MiniTorch's accuracy on split), on simple and on fast. Then interrupts and errors. */
#include "../../engine/src/cpu/gemm.h" /* internal header: which GEMM ISA runs */
#include "minitorch/minitorch.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* mlp(2, hidden, 1) as MiniTorch draws it, after `seed` and a dataset of n points. */
struct setup {
    struct mt_tensor *X, *y;
    struct mt_linear layers[3];
};

static void setup_make(struct mt_ctx *ctx, enum mt_backend b, enum mt_dataset d, int64_t n,
                       int64_t hidden, uint64_t seed, struct setup *s)
{
    mt_seed(ctx, seed);
    CHECK_INT(mt_dataset_make(ctx, b, d, n, &s->X, &s->y), MT_OK);
    int64_t sizes[4] = {2, hidden, hidden, 1};
    for (int l = 0; l < 3; l++)
        CHECK_INT(mt_linear_init(ctx, b, sizes[l], sizes[l + 1], &s->layers[l]), MT_OK);
}

static void setup_free(struct setup *s)
{
    mt_tensor_release(s->X);
    mt_tensor_release(s->y);
    for (int l = 0; l < 3; l++) mt_linear_free(&s->layers[l]);
}

static bool same_bits(const struct mt_tensor *a, const struct mt_tensor *b)
{
    if (!a || !b || a->size != b->size) return false;
    float *x = malloc((size_t)a->size * sizeof *x), *y = malloc((size_t)b->size * sizeof *y);
    if (!x || !y) abort();
    mt_tensor_copy_out(a, x);
    mt_tensor_copy_out(b, y);
    bool same = memcmp(x, y, (size_t)a->size * sizeof *x) == 0;
    free(x);
    free(y);
    return same;
}

/* Trains the same start twice (fused, then ops) from the same generator state and compares. */
static void check_fused_equals_ops(enum mt_dataset d, int64_t n, int64_t hidden, int64_t batch,
                                   float rate, int epochs)
{
    struct mt_ctx *ctx = mt_ctx_new();
    struct setup s[2];
    for (int k = 0; k < 2; k++) setup_make(ctx, MT_BACKEND_FAST, d, n, hidden, 11, &s[k]);
    double loss[2][64];
    int64_t correct[2][64];
    const char *path[2];
    for (int k = 0; k < 2; k++) {
        struct mt_trainer *t = NULL;
        mt_seed(ctx, 99); /* the shuffles */
        CHECK_INT(mt_trainer_new(ctx, s[k].layers, 3, s[k].X, s[k].y, batch, rate, k == 1, &t),
                  MT_OK);
        if (!t) return;
        path[k] = mt_trainer_path(t);
        for (int e = 0; e < epochs; e++) {
            CHECK_INT(mt_trainer_epoch(t, &loss[k][e]), MT_OK);
            CHECK_INT(mt_trainer_correct(t, &correct[k][e]), MT_OK);
        }
        CHECK_INT(mt_trainer_sync(t), MT_OK);
        mt_trainer_free(t);
    }
    CHECK_STR(path[1], "autodiff ops");
    bool fma = strcmp(mt_cpu_gemm_isa(), "scalar") != 0;
    CHECK_STR(path[0], fma ? "fused step" : "autodiff ops");
    int bad = 0;
    for (int e = 0; e < epochs; e++) {
        if ((loss[0][e] != loss[1][e] || correct[0][e] != correct[1][e]) && bad++ < 3)
            fprintf(stderr,
                    "%s n=%lld hidden=%lld batch=%lld epoch %d: fused %.9g/%lld, ops %.9g/%lld\n",
                    mt_dataset_name(d), (long long)n, (long long)hidden, (long long)batch, e,
                    loss[0][e], (long long)correct[0][e], loss[1][e], (long long)correct[1][e]);
    }
    CHECK(bad == 0);
    for (int l = 0; l < 3; l++) {
        CHECK(same_bits(s[0].layers[l].weight, s[1].layers[l].weight));
        CHECK(same_bits(s[0].layers[l].bias, s[1].layers[l].bias));
        CHECK(same_bits(s[0].layers[l].weight->grad, s[1].layers[l].weight->grad));
        CHECK(same_bits(s[0].layers[l].bias->grad, s[1].layers[l].bias->grad));
    }
    /* and it trained: the loss moved */
    CHECK(loss[0][epochs - 1] != loss[0][0]);
    for (int k = 0; k < 2; k++) setup_free(&s[k]);
    mt_ctx_free(ctx);
}

/* On every FMA ISA this CPU runs (the automatic choice differs between CPUs: AVX2 on Zen 4,
 * AVX-512 on Intel's AVX-512 cores), so that each direct path is checked wherever it can run. */
static void test_fused_equals_ops(void)
{
    static const char *isas[] = {"avx2", "avx512", "avx512emu"};
    int tested = 0;
    for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
        mt_cpu_gemm_force_isa(isas[i]);
        if (strcmp(mt_cpu_gemm_isa(), isas[i]) != 0) continue; /* not on this CPU */
        tested++;
        check_fused_equals_ops(MT_DATASET_SPLIT, 50, 100, 10, 0.05f, 20);
        check_fused_equals_ops(MT_DATASET_XOR, 53, 10, 10, 0.5f, 30); /* last batch of 3 */
        check_fused_equals_ops(MT_DATASET_SIMPLE, 20, 7, 1, 0.05f, 5);
        check_fused_equals_ops(MT_DATASET_CIRCLE, 150, 20, 70, 0.5f, 20); /* sums of >= 64 */
        check_fused_equals_ops(MT_DATASET_DIAG, 40, 300, 10, 0.05f, 3);   /* K = 300 > KC */
        check_fused_equals_ops(MT_DATASET_SPLIT, 600, 16, 300, 0.5f, 3);  /* batch 300 > KC */
    }
    mt_cpu_gemm_force_isa(NULL);
    if (tested == 0) /* no FMA ISA: the scalar gemm, where the fused step does not run */
        check_fused_equals_ops(MT_DATASET_SPLIT, 50, 100, 10, 0.05f, 20);
    printf("  fused step checked on %d FMA ISA(s) of this CPU\n", tested);
}

/* MiniTorch's Task 3.5 on the ops path, simple and fast: split, hidden 10, rate 0.5 — the loop
 * must learn (MiniTorch students report 48-50 of 50 with hidden 100 after 500 epochs; this is
 * a shorter run with a higher rate). */
static void test_learns(void)
{
    for (int be = 0; be < 2; be++) {
        struct mt_ctx *ctx = mt_ctx_new();
        struct setup s;
        setup_make(ctx, be ? MT_BACKEND_FAST : MT_BACKEND_SIMPLE, MT_DATASET_SIMPLE, 50, 10, 3, &s);
        struct mt_trainer *t = NULL;
        CHECK_INT(mt_trainer_new(ctx, s.layers, 3, s.X, s.y, 10, 0.5f, true, &t), MT_OK);
        double first = 0, loss = 0;
        int64_t correct = 0;
        for (int e = 0; e < 100; e++) {
            CHECK_INT(mt_trainer_epoch(t, &loss), MT_OK);
            if (e == 0) first = loss;
        }
        CHECK_INT(mt_trainer_correct(t, &correct), MT_OK);
        printf("  %s: loss %.4f -> %.4f, correct %lld/50\n", be ? "fast" : "simple", first, loss,
               (long long)correct);
        CHECK(loss < first / 4);
        CHECK(correct >= 48);
        mt_trainer_free(t);
        setup_free(&s);
        mt_ctx_free(ctx);
    }
}

/* An interrupt stops the epoch between batches; the model keeps every step taken, and the
 * trainer goes on once the flag is down. */
static void test_cancel(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    struct setup s;
    setup_make(ctx, MT_BACKEND_FAST, MT_DATASET_XOR, 50, 10, 5, &s);
    struct mt_trainer *t = NULL;
    CHECK_INT(mt_trainer_new(ctx, s.layers, 3, s.X, s.y, 10, 0.5f, false, &t), MT_OK);
    double loss = 0;
    CHECK_INT(mt_trainer_epoch(t, &loss), MT_OK);
    float w[20];
    mt_tensor_copy_out(s.layers[0].weight, w);
    mt_cancel_request();
    CHECK_INT(mt_trainer_epoch(t, &loss), MT_ERR_CANCELLED);
    CHECK(strstr(mt_ctx_error(ctx), "interrupted") != NULL);
    float w2[20];
    mt_tensor_copy_out(s.layers[0].weight, w2);
    CHECK(memcmp(w, w2, sizeof w) == 0); /* raised before the first batch: no step */
    mt_cancel_clear();
    CHECK_INT(mt_trainer_epoch(t, &loss), MT_OK);
    mt_trainer_free(t);
    setup_free(&s);
    mt_ctx_free(ctx);
}

static void test_errors(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    struct setup s;
    setup_make(ctx, MT_BACKEND_FAST, MT_DATASET_SIMPLE, 10, 4, 1, &s);
    struct mt_trainer *t = NULL;
    /* a network ending in 4 outputs: no probability */
    CHECK_INT(mt_trainer_new(ctx, s.layers, 2, s.X, s.y, 10, 0.1f, false, &t), MT_ERR_SHAPE);
    CHECK(strstr(mt_ctx_error(ctx), "one output") != NULL);
    CHECK(t == NULL);
    /* layers that do not chain */
    struct mt_linear swapped[2] = {s.layers[1], s.layers[0]};
    CHECK_INT(mt_trainer_new(ctx, swapped, 2, s.X, s.y, 10, 0.1f, false, &t), MT_ERR_SHAPE);
    /* labels of another length */
    CHECK_INT(mt_trainer_new(ctx, s.layers, 3, s.X, s.X, 10, 0.1f, false, &t), MT_ERR_SHAPE);
    CHECK_INT(mt_trainer_new(ctx, s.layers, 3, s.X, s.y, 0, 0.1f, false, &t), MT_ERR_INVALID);
    /* data on another backend than the model */
    struct mt_tensor *Xs = NULL;
    CHECK_INT(mt_to(ctx, s.X, MT_BACKEND_SIMPLE, &Xs), MT_OK);
    CHECK_INT(mt_trainer_new(ctx, s.layers, 3, Xs, s.y, 10, 0.1f, false, &t), MT_ERR_BACKEND);
    CHECK(strstr(mt_ctx_error(ctx), ".to()") != NULL);
    mt_tensor_release(Xs);
    setup_free(&s);
    mt_ctx_free(ctx);
}

int main(void)
{
    RUN_TEST(test_fused_equals_ops);
    RUN_TEST(test_learns);
    RUN_TEST(test_cancel);
    RUN_TEST(test_errors);
    return TEST_SUMMARY();
}
