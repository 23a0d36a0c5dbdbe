/* prog_eval.h — user functions' programs inside the engine (internal): their meaning, one
 * element at a time, and what prog.c's planning gives the backends that run them.
 *
 * The meaning is the reference every runner of a program agrees with: mt_prog_eval (the simple
 * backend, and the fast backend's few-output reduce) and the host stand-in of the cuda
 * backend's library (tests/engine/cuda_standin.c), which is compiled without the rest of the
 * engine and uses only the inline functions here. Ops as minitorch.h's enum mt_prog_op describes
 * them, with cpu/scalar.h's functions. */
#ifndef MINITORCH_PROG_EVAL_H
#define MINITORCH_PROG_EVAL_H

#include "cpu/scalar.h"
#include "internal.h"

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

/* The register an instruction reads as its operand k (0: a, 1: b, 2: c). */
static inline int mt_prog_operand(const struct mt_prog_insn *in, int k)
{
    return k == 0 ? in->a : k == 1 ? in->b : in->c;
}

/* ---- planning (prog.c), for the runners of checked programs ---- */

/* The operand the fast kernels take as in's immediate (MT_FAST_IMM), or -1 (konst[r]: register
 * r is a constant). */
int mt_prog_imm_operand(const struct mt_prog_insn *in, const bool *konst);
/* konst[r]: register r is a constant; last[r]: the last instruction that reads r other than as
 * its immediate (p->ninsn for the result, -1 for none). */
void mt_prog_last_reads(const struct mt_prog *p, bool *konst, int *last);
/* Each register's chunk buffer (slot[r]; -1 for none) with constants pinned or not, and the
 * number of buffers; -1 when more than MT_PROG_MAX_LIVE values are alive at once. */
int mt_prog_plan_slots(const struct mt_prog *p, bool pin, int *slot);
/* A runner's failure as the user sees it: MT_ERR_CANCELLED "what(name): interrupted",
 * MT_ERR_NOMEM "out of memory for the block buffers"; other statuses returned as they are.
 * Inline, as mt_prog_eval_inline: the stand-in compiles the simple backend without prog.c. */
static inline enum mt_status mt_prog_fail(struct mt_ctx *ctx, enum mt_status st, const char *what,
                                          const struct mt_prog *p)
{
    if (st == MT_ERR_CANCELLED) return mt_fail(ctx, st, "%s(%s): interrupted", what, p->name);
    if (st == MT_ERR_NOMEM)
        return mt_fail(ctx, st, "%s(%s): out of memory for the block buffers", what, p->name);
    return st;
}

#endif
