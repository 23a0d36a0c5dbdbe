/* train_bench.c — MiniTorch's Task 3.5 training (train.c) against numpy and PyTorch, one run.
 *
 * Usage: mt_train_bench [--python PYTHON] [--reps N] [--epochs E] [--seeds S]
 *
 * For each configuration (dataset, hidden, points; batch 10, rate 0.05 — MiniTorch's
 * run_fast_tensor.py) it trains a fresh mlp(2, hidden, 1) for E epochs (default 500, with the
 * evaluation every 10 epochs that MiniTorch does) N times (default 7) and prints the median time
 * per epoch and the min-max spread, for the fused step and the autodiff-ops step on `fast`, the
 * ops step on `simple`, and — with --python — the same loop in numpy and in PyTorch
 * (bench/train_peers.py, run right after ours with the same seeds' shapes; PyTorch when it is
 * importable). Then the accuracy after 500 epochs on simple, split and xor, hidden 100, for
 * seeds 1..5 (the issue asks >= 48/50), and how often >= 48 is reached over seeds 1..S (default
 * 100) — with --python beside the same loop in float64 on the same random stream
 * (train_peers.py --accuracy): what MiniTorch's own arithmetic reaches from the same start. Times
 * are wall clock with the context's default threads (every CPU): the fused step uses them from 256
 * hidden units (cpu/fast_train.c), the ops' products from 10^6 multiply-adds (gemm.c), so hidden
 * 100 runs on one thread and hidden 500 on all. */
#include "bench.h"
#include "minitorch/minitorch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef MT_SOURCE_DIR
#define MT_SOURCE_DIR "."
#endif

static void die(struct mt_ctx *ctx, enum mt_status st)
{
    fprintf(stderr, "mt_train_bench: %s\n", ctx ? mt_ctx_error(ctx) : mt_status_str(st));
    exit(1);
}

/* Trains once; returns seconds per epoch, *correct after the last evaluation. */
static double train_once(enum mt_backend be, bool ops, enum mt_dataset d, int64_t n, int64_t hidden,
                         int epochs, uint64_t seed, int64_t *correct, double *last_loss)
{
    struct mt_ctx *ctx = mt_ctx_new();
    struct mt_tensor *X = NULL, *y = NULL;
    struct mt_linear layers[3];
    mt_seed(ctx, seed);
    enum mt_status st = mt_dataset_make(ctx, be, d, n, &X, &y);
    int64_t sizes[4] = {2, hidden, hidden, 1};
    for (int l = 0; l < 3 && st == MT_OK; l++)
        st = mt_linear_init(ctx, be, sizes[l], sizes[l + 1], &layers[l]);
    struct mt_trainer *t = NULL;
    if (st == MT_OK) st = mt_trainer_new(ctx, layers, 3, X, y, 10, 0.05f, ops, &t);
    if (st != MT_OK) die(ctx, st);
    double t0 = mt_now_s(), loss = 0;
    for (int e = 0; e < epochs; e++) {
        if ((st = mt_trainer_epoch(t, &loss)) != MT_OK) die(ctx, st);
        if (e % 10 == 0 && (st = mt_trainer_correct(t, correct)) != MT_OK) die(ctx, st);
    }
    double per = (mt_now_s() - t0) / epochs;
    if ((st = mt_trainer_correct(t, correct)) != MT_OK) die(ctx, st);
    *last_loss = loss;
    mt_trainer_free(t);
    for (int l = 0; l < 3; l++) mt_linear_free(&layers[l]);
    mt_tensor_release(X);
    mt_tensor_release(y);
    mt_ctx_free(ctx);
    return per;
}

static void print_time(const char *what, double *s, int n)
{
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double med = s[n / 2];
    if (med < 1e-3)
        printf("  %-22s %10.1f us/epoch  (%.1f-%.1f)\n", what, med * 1e6, s[0] * 1e6,
               s[n - 1] * 1e6);
    else
        printf("  %-22s %10.3f ms/epoch  (%.3f-%.3f)\n", what, med * 1e3, s[0] * 1e3,
               s[n - 1] * 1e3);
}

int main(int argc, char **argv)
{
    const char *python = NULL;
    int reps = 7, epochs = 500, seeds = 100;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--python") == 0 && i + 1 < argc)
            python = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--epochs") == 0 && i + 1 < argc)
            epochs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc)
            seeds = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: mt_train_bench [--python PYTHON] [--reps N] [--epochs E] "
                            "[--seeds S]\n");
            return 2;
        }
    }
    if (reps < 1 || reps > 101 || epochs < 10 || seeds < 5 || seeds > 1000) {
        fprintf(stderr, "mt_train_bench: --reps 1..101, --epochs >= 10, --seeds 5..1000\n");
        return 2;
    }
    static const struct {
        enum mt_dataset d;
        int64_t hidden, n;
    } cfg[] = {
        {MT_DATASET_SPLIT, 100, 50}, {MT_DATASET_SIMPLE, 10, 50}, {MT_DATASET_SPLIT, 500, 1000}};
    struct mt_ctx *probe = mt_ctx_new();
    if (!probe) die(NULL, MT_ERR_NOMEM);
    printf("mt_train_bench: MiniTorch Task 3.5 (batch 10, rate 0.05, %d epochs, eval every 10),\n"
           "median time per epoch over %d runs (min-max), %d threads (hidden 100 and 10 run on "
           "one)\n",
           epochs, reps, mt_ctx_threads(probe));
    mt_ctx_free(probe);
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
        int ep = cfg[c].n >= 1000 ? epochs / 10 : epochs; /* the big run: fewer epochs */
        printf("\n%s, hidden %lld, %lld points, %d epochs:\n", mt_dataset_name(cfg[c].d),
               (long long)cfg[c].hidden, (long long)cfg[c].n, ep);
        double s[101];
        int64_t correct = 0;
        double loss = 0;
        struct {
            const char *name;
            enum mt_backend be;
            bool ops;
            int reps;
        } runs[] = {{"fast, fused step", MT_BACKEND_FAST, false, reps},
                    {"fast, autodiff ops", MT_BACKEND_FAST, true, reps},
                    {"simple, autodiff ops", MT_BACKEND_SIMPLE, true, 1}};
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
            int rr = runs[r].reps;
            int e = runs[r].be == MT_BACKEND_SIMPLE && cfg[c].hidden >= 500 ? 10 : ep;
            for (int k = 0; k < rr; k++)
                s[k] = train_once(runs[r].be, runs[r].ops, cfg[c].d, cfg[c].n, cfg[c].hidden, e, 1,
                                  &correct, &loss);
            print_time(runs[r].name, s, rr);
        }
        if (python) {
            char cmd[1024];
            snprintf(cmd, sizeof cmd,
                     "%s %s/bench/train_peers.py --dataset %s --hidden %lld --points %lld "
                     "--epochs %d --reps %d",
                     python, MT_SOURCE_DIR, mt_dataset_name(cfg[c].d), (long long)cfg[c].hidden,
                     (long long)cfg[c].n, ep, reps);
            fflush(stdout);
            if (system(cmd) != 0) printf("  (peers failed: %s)\n", cmd);
        }
    }
    printf("\naccuracy after 500 epochs, hidden 100, 50 points, fast fused step (seeds 1-5):\n");
    static const enum mt_dataset acc_sets[] = {MT_DATASET_SIMPLE, MT_DATASET_SPLIT, MT_DATASET_XOR};
    enum { NSETS = sizeof acc_sets / sizeof acc_sets[0] };
    int64_t *counts = malloc((size_t)(NSETS * seeds) * sizeof *counts);
    if (!counts) die(NULL, MT_ERR_NOMEM);
    for (size_t i = 0; i < NSETS; i++) {
        printf("  %-7s", mt_dataset_name(acc_sets[i]));
        for (int seed = 1; seed <= seeds; seed++) {
            double loss = 0;
            int64_t *c = &counts[i * (size_t)seeds + (size_t)(seed - 1)];
            train_once(MT_BACKEND_FAST, false, acc_sets[i], 50, 100, 500, (uint64_t)seed, c, &loss);
            if (seed <= 5) printf("  %lld/50 (loss %.3f)", (long long)*c, loss);
        }
        printf("\n");
    }
    printf("\nhow often >= 48/50 over seeds 1-%d (ours: the fast fused step, float32; numpy "
           "float64:\nthe same loop, data, start and batch order in MiniTorch's precision):\n",
           seeds);
    for (size_t i = 0; i < NSETS; i++) {
        const int64_t *c = &counts[i * (size_t)seeds];
        int64_t sorted[1000];
        int good = 0;
        for (int s = 0; s < seeds; s++) good += c[s] >= 48, sorted[s] = c[s];
        for (int s = 1; s < seeds; s++) /* insertion sort, for the min and the median */
            for (int j = s; j > 0 && sorted[j - 1] > sorted[j]; j--) {
                int64_t x = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = x;
            }
        printf("  %-7s  ours:          >= 48 in %3d of %d (min %lld, median %lld)\n",
               mt_dataset_name(acc_sets[i]), good, seeds, (long long)sorted[0],
               (long long)sorted[seeds / 2]);
        if (!python) continue;
        char cmd[8192];
        int len = snprintf(cmd, sizeof cmd,
                           "%s %s/bench/train_peers.py --accuracy --dataset %s --hidden 100 "
                           "--points 50 --epochs 500 --seeds %d --ours ",
                           python, MT_SOURCE_DIR, mt_dataset_name(acc_sets[i]), seeds);
        for (int s = 0; s < seeds && len > 0 && (size_t)len < sizeof cmd - 8; s++)
            len += snprintf(cmd + len, sizeof cmd - (size_t)len, "%s%lld", s ? "," : "",
                            (long long)c[s]);
        fflush(stdout);
        if (system(cmd) != 0) printf("  (reference failed: %s)\n", cmd);
    }
    free(counts);
    return 0;
}
