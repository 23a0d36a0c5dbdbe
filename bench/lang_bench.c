/* lang_bench.c — what one tensor op costs through the language, beside the op alone in C;
 * and what a function call, a method call and an attribute read cost, beside CPython.
 *
 * Usage: mt_lang_bench [--reps N] [--python PY]
 *
 * Runs cells of the form `for i in range(N): c = a OP b` in a session (the interpreter's loop,
 * name lookups, the op's dispatch, a fresh output tensor and releasing the previous one) and the
 * same loop without the op (`c = a`), and prints the difference per iteration: the per-op cost a
 * student pays in a cell (the op alone from C is in mt_ops_bench's "tiny op" rows). Medians and
 * min-max over the repetitions; the machine is shared and noisy.
 *
 * The call rows time `y = f(i)`, `y = o.m(i)` and `y = o.a` the same way, for a plain function,
 * a method of a class instance and an instance attribute, and check the target: a method
 * call or an attribute read costs at most twice a plain function call. With --python the same
 * Python text runs under CPython's timeit, alternating with ours, for a side-by-side. */
#include "bench.h"
#include "lang/dsl.h"
#include "minitorch/minitorch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LOOP 200000

static const char call_setup[] = "def f(x):\n    return x\n"
                                 "class C:\n    def __init__(self):\n        self.a = 1\n"
                                 "    def m(self, x):\n        return x\n"
                                 "o = C()\n";
static const struct {
    const char *name, *stmt;
} call_rows[] = {{"function call f(i)", "y = f(i)"},
                 {"method call o.m(i)", "y = o.m(i)"},
                 {"attribute read o.a", "y = o.a"}};
#define NCALL (sizeof call_rows / sizeof call_rows[0])

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

/* CPython's time for `stmt` minus the empty loop, per iteration (seconds), or -1. */
static double python_cost(const char *python, const char *stmt)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "%s -c 'import timeit\n"
             "setup = %s\n"
             "n = %d\n"
             "loop = \"for i in range(n):\\n    %s\\n\"\n"
             "empty = \"for i in range(n):\\n    y = i\\n\"\n"
             "g = {\"n\": n}\n"
             "exec(setup, g)\n"
             "a = timeit.timeit(loop, number=1, globals=g)\n"
             "b = timeit.timeit(empty, number=1, globals=g)\n"
             "print((a - b) / n)'",
             python,
             "\"def f(x):\\n    return x\\nclass C:\\n    def __init__(self):\\n        "
             "self.a = 1\\n    def m(self, x):\\n        return x\\no = C()\\n\"",
             LOOP, stmt);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    double t = -1;
    if (fscanf(p, "%lf", &t) != 1) t = -1;
    pclose(p);
    return t;
}

/* The call rows: ours (and CPython's when python is set), alternating, medians into ours[]. */
static void call_costs(struct dsl_session *s, int reps, const char *python, double *ours)
{
    printf("\ncall cost through the language (ns per call; median [min .. max] of %d runs of %d "
           "iterations, the loop `y = i` subtracted)%s\n",
           reps, LOOP, python ? ", beside CPython's timeit of the same text" : "");
    printf("%-20s %10s %22s", "", "ns/call", "[min .. max]");
    if (python) printf(" %12s %22s %8s", "CPython ns", "[min .. max]", "ratio");
    printf("\n");
    run_cell(s, call_setup);
    for (size_t k = 0; k < NCALL; k++) {
        char cell[256], empty[256];
        snprintf(cell, sizeof cell, "for i in range(%d):\n    %s\n", LOOP, call_rows[k].stmt);
        snprintf(empty, sizeof empty, "for i in range(%d):\n    y = i\n", LOOP);
        double t[1000], py[1000];
        run_cell(s, cell); /* warm-up */
        for (int r = 0; r < reps; r++) {
            t[r] = (run_cell(s, cell) - run_cell(s, empty)) / LOOP;
            py[r] = python ? python_cost(python, call_rows[k].stmt) : 0;
        }
        qsort(t, (size_t)reps, sizeof t[0], cmp_double);
        qsort(py, (size_t)reps, sizeof py[0], cmp_double);
        ours[k] = t[reps / 2];
        printf("%-20s %10.0f   [%6.0f .. %6.0f]", call_rows[k].name, t[reps / 2] * 1e9, t[0] * 1e9,
               t[reps - 1] * 1e9);
        if (python)
            printf(" %12.0f   [%6.0f .. %6.0f] %7.2fx", py[reps / 2] * 1e9, py[0] * 1e9,
                   py[reps - 1] * 1e9, t[reps / 2] / py[reps / 2]);
        printf("\n");
    }
    for (size_t k = 1; k < NCALL; k++)
        printf("%s / function call: %.2fx\n", call_rows[k].name, ours[k] / ours[0]);
}

int main(int argc, char **argv)
{
    int reps = 7;
    const char *python = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--python") == 0 && i + 1 < argc)
            python = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--reps N] [--python PY]\n", argv[0]);
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
    double ours[NCALL];
    call_costs(s, reps, python, ours);
    dsl_session_free(s);
    /* the target: a method call or an attribute read at most 2x a function call */
    int bad = 0;
    for (size_t i = 1; i < NCALL; i++)
        if (ours[i] > 2.0 * ours[0]) {
            printf("TARGET MISSED: %s costs %.1fx a function call (target: at most 2x)\n",
                   call_rows[i].name, ours[i] / ours[0]);
            bad = 1;
        }
    if (!bad) printf("target met: method call and attribute read within 2x a function call\n");
    return bad;
}
