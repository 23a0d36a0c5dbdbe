/* prog_eval.h — the meaning of a user function's program, one element at a time (internal).
 *
 * The reference every runner of a program agrees with: prog.c's mt_prog_eval (the simple
 * backend, and reduce's few-output path) and the host stand-in of the cuda backend's library
 * (tests/engine/cuda_standin.c), which is compiled without the rest of the engine. Ops as
 * minitorch.h's enum mt_prog_op describes them, with cpu/scalar.h's functions. */
#ifndef MINITORCH_PROG_EVAL_H
#define MINITORCH_PROG_EVAL_H

#include "cpu/scalar.h"

#include "minitorch/minitorch.h"

#include <math.h>

#define MT_PROG_MAX_REGS (MT_PROG_MAX_INSNS + 2) /* arguments and one register per instruction */

/* Registers an op reads: a; a, b; a, b, c. */
static inline int mt_prog_arity(enum mt_prog_op op)
{
    if (op == MT_P_CONST) return 0;
    if (op <= MT_P_NOT) return 1;
    if (op == MT_P_SELECT) return 3;
    return 2;
}

static inline float mt_prog_scalar_op(const struct mt_prog_insn *in, float a, float b, float c)
{
    switch (in->op) {
    case MT_P_CONST: return in->imm;
    case MT_P_NEG: return mt_s_neg(a);
    case MT_P_ABS: return mt_s_abs(a);
    case MT_P_SQRT: return mt_s_sqrt(a);
    case MT_P_EXP: return mt_s_exp(a);
    case MT_P_LOG: return mt_s_log(a);
    case MT_P_SIGMOID: return mt_s_sigmoid(a);
    case MT_P_TANH: return mt_s_tanh(a);
    case MT_P_RELU: return mt_s_relu(a);
    case MT_P_NOT: return a == 0.0f ? 1.0f : 0.0f;
    case MT_P_ADD: return mt_s_add(a, b);
    case MT_P_SUB: return mt_s_sub(a, b);
    case MT_P_MUL: return mt_s_mul(a, b);
    case MT_P_DIV: return mt_s_div(a, b);
    case MT_P_POW: return powf(a, b);
    case MT_P_MIN: return b < a ? b : a;
    case MT_P_MAX: return b > a ? b : a;
    case MT_P_LT: return mt_s_lt(a, b);
    case MT_P_LE: return a <= b ? 1.0f : 0.0f;
    case MT_P_GT: return mt_s_gt(a, b);
    case MT_P_GE: return a >= b ? 1.0f : 0.0f;
    case MT_P_EQ: return mt_s_eq(a, b);
    case MT_P_NE: return a != b ? 1.0f : 0.0f;
    case MT_P_AND: return a != 0.0f ? b : a;
    case MT_P_OR: return a != 0.0f ? a : b;
    case MT_P_SELECT: return a != 0.0f ? b : c;
    default: return NAN;
    }
}

static inline float mt_prog_eval_inline(const struct mt_prog *p, const float *args)
{
    float v[MT_PROG_MAX_REGS];
    for (int r = 0; r < p->nargs; r++) v[r] = args[r];
    for (int i = 0; i < p->ninsn; i++) {
        const struct mt_prog_insn *in = &p->insn[i];
        const int n = mt_prog_arity(in->op);
        v[in->dst] = mt_prog_scalar_op(in, n > 0 ? v[in->a] : 0.0f, n > 1 ? v[in->b] : 0.0f,
                                       n > 2 ? v[in->c] : 0.0f);
    }
    return v[p->result];
}

#endif
