/* prog_helpers.h — random user-function programs for the engine's tests (test_prog.c, and
 * test_cuda.c on a GPU): SSA programs over every op of minitorch.h's enum mt_prog_op. */
#ifndef TESTS_ENGINE_PROG_HELPERS_H
#define TESTS_ENGINE_PROG_HELPERS_H

#include "minitorch/minitorch.h"

#include "test.h"

#include <stdbool.h>

static inline bool transcendental(enum mt_prog_op op)
{
    return op == MT_P_EXP || op == MT_P_LOG || op == MT_P_SIGMOID || op == MT_P_TANH;
}

/* A random SSA program of nargs arguments and n instructions: each operand is one of the last
 * few registers, so that few values are alive at once and chains are long. */
static inline void random_prog(uint64_t *rng, int nargs, int n, bool allow_transcendental,
                               struct mt_prog_insn *insn, struct mt_prog *p)
{
    for (int i = 0; i < n; i++) {
        struct mt_prog_insn *in = &insn[i];
        enum mt_prog_op op;
        do op = (enum mt_prog_op)test_rand_below(rng, MT_P_COUNT);
        while (!allow_transcendental && transcendental(op));
        const int have = nargs + i;
        const int window = have < 6 ? have : 6;
        in->op = op;
        in->dst = have;
        in->a = have - 1 - test_rand_below(rng, window);
        in->b = have - 1 - test_rand_below(rng, window);
        in->c = have - 1 - test_rand_below(rng, window);
        in->imm = test_rand_float(rng);
    }
    *p = (struct mt_prog){
        .name = "random", .nargs = nargs, .ninsn = n, .insn = insn, .result = nargs + n - 1};
}

#endif
