/* bench.h — what every benchmark program in bench/ shares: the comparison qsort needs for
 * medians (the clock is the engine's mt_now_s); and the user function of the fusion benchmark,
 * which the CPU's (ops_bench.c) and the GPU's (gpu_bench.c) both run. */
#ifndef MINITORCH_BENCH_H
#define MINITORCH_BENCH_H

#include "minitorch/minitorch.h"

/* qsort order for doubles, ascending */
static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* f(x) = (x * 1.5 + 0.5) * x - 2: four operations, as a user function's program (a `def` the
 * language compiles gives the same instructions) */
static const struct mt_prog_insn bench_fused_insn[] = {
    {.op = MT_P_CONST, .dst = 1, .imm = 1.5f},  {.op = MT_P_MUL, .dst = 2, .a = 0, .b = 1},
    {.op = MT_P_CONST, .dst = 3, .imm = 0.5f},  {.op = MT_P_ADD, .dst = 4, .a = 2, .b = 3},
    {.op = MT_P_MUL, .dst = 5, .a = 4, .b = 0}, {.op = MT_P_CONST, .dst = 6, .imm = 2.0f},
    {.op = MT_P_SUB, .dst = 7, .a = 5, .b = 6},
};
static const struct mt_prog bench_fused_prog = {
    .name = "f", .nargs = 1, .ninsn = 7, .insn = bench_fused_insn, .result = 7};

#endif
