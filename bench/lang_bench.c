/* lang_bench.c — what one tensor op costs through the language, beside the op alone in C.
 *
 * Usage: mt_lang_bench [--reps N]
 *
 * Runs cells of the form `for i in range(N): c = a OP b` in a session (the interpreter's loop,
 * name lookups, the op's dispatch, a fresh output tensor and releasing the previous one) and the
 * same loop without the op (`c = a`), and prints the difference per iteration: the per-op cost a
 * student pays in a cell (the op alone from C is in mt_ops_bench's "tiny op" rows). Medians and
 * min-max over the repetitions; the machine is shared and noisy. */
#include "bench.h"
#include "lang/dsl.h"
#include "minitorch/minitorch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LOOP 200000

static double run_cell(struct dsl_session *s, const char *code)
{
    struct dsl_output out = {0};
    struct dsl_error err = {0};
    json_t *result = NULL;
    double t0 = mt_now_s();
    if (dsl_execute(s, code, &out, &result, &err) != 0) {
        fprintf(stderr, "cell failed: %s: %s\n", err.ename, err.evalue);
        exit(1);
    }
    double t = mt_now_s() - t0;
    json_decref(result);
    return t;
}

int main(int argc, char **argv)
{
    int reps = 7;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--reps N]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1 || reps > 1000) reps = 7;
    struct dsl_session *s = dsl_session_new();
    if (!s) return 1;
    static const struct {
        const char *name, *setup;
    } shapes[] = {{"10x100", "a = rand(10, 100)\nb = rand(10, 100)\n"},
                  {"1", "a = rand(1)\nb = rand(1)\n"}};
    static const char *const ops[] = {"+", "*"};
    printf("per-op cost through the language (ns per op; median [min .. max] of %d runs of %d "
           "iterations, the empty loop subtracted)\n",
           reps, LOOP);
    printf("%-8s %-4s %10s %22s\n", "shape", "op", "ns/op", "[min .. max]");
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++) {
            char cell[256], empty[256];
            snprintf(cell, sizeof cell, "%sfor i in range(%d):\n    c = a %s b\n", shapes[si].setup,
                     LOOP, ops[oi]);
            snprintf(empty, sizeof empty, "%sfor i in range(%d):\n    c = a\n", shapes[si].setup,
                     LOOP);
            double t[1000];
            run_cell(s, cell); /* warm-up */
            for (int r = 0; r < reps; r++) t[r] = (run_cell(s, cell) - run_cell(s, empty)) / LOOP;
            qsort(t, (size_t)reps, sizeof t[0], cmp_double);
            printf("%-8s %-4s %10.0f   [%6.0f .. %6.0f]\n", shapes[si].name, ops[oi],
                   t[reps / 2] * 1e9, t[0] * 1e9, t[reps - 1] * 1e9);
        }
    }
    dsl_session_free(s);
    return 0;
}
