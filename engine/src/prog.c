/* prog.c — user functions over tensors: a scalar register program run elementwise.
 *
 * MiniTorch's Module 3 makes tensor_map(fn), tensor_zip(fn) and tensor_reduce(fn) fast with
 * Numba, which compiles fn to machine code. Here fn arrives as a small register program (the
 * language compiles a `def` into one; minitorch.h describes the instruction set) and runs the
 * way numexpr runs an expression, over blocks of elements (cpu/prog_fast.c's BLOCK), with one
 * difference inside a block: numexpr runs each instruction over the whole block and keeps every
 * intermediate value in a block-sized buffer; here the block goes by chunks of a few vectors,
 * each chunk through every instruction, and a value stays in vector registers for the next
 * instruction (the fast kernels' `prog`, cpu/fast_prog.h). Either way a function of any number of
 * operations reads each input and writes the output once: one pass over memory, where the same
 * expression written with tensor ops makes a pass per op. The chunks also keep the reads of memory
 * going while the arithmetic runs, so the engine benchmark's fused 4-op map runs well ahead of
 * numexpr's way (`make bench-engine` times the two, alternated).
 *
 * Backends. `simple` evaluates the program one element at a time (cpu/simple.c: mt_prog_eval's
 * reference meaning, with cpu/scalar.h's functions). `fast` runs the blocks (cpu/prog_fast.c), in
 * parallel over blocks with OpenMP for large tensors; exp, log, sigmoid and tanh in a user function
 * are the fast backend's own vector routines, the built-in maps' (cpu/fast.h), so a built-in op and
 * the same op written as a function give the same bits. `cuda` compiles the program as CUDA C
 * (mt_prog_cuda_source, cuda/prog_source.c) with NVRTC into one kernel, cached by its text
 * (cuda/nvrtc.cu): Numba's cuda.jit for the course's functions.
 *
 * Registers. The program is in SSA form (each register written once); before a run each
 * register that must outlive the next instruction gets one of at most MT_PROG_MAX_LIVE chunk
 * buffers, reused once the register's last reader has run (a linear scan over the
 * instructions). An instruction never writes the buffer of a register it reads.
 *
 * This file is the front door: it checks a program, plans its registers, checks the operands
 * and makes the output, and hands the run to the tensor's backend through its table's
 * prog_elementwise and prog_reduce (internal.h). */
#include "internal.h"

#include "prog_eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REGS MT_PROG_MAX_REGS

static const char *const op_names[] = {
    [MT_P_CONST] = "const",     [MT_P_NEG] = "neg",       [MT_P_ABS] = "abs",
    [MT_P_SQRT] = "sqrt",       [MT_P_EXP] = "exp",       [MT_P_LOG] = "log",
    [MT_P_SIGMOID] = "sigmoid", [MT_P_TANH] = "tanh",     [MT_P_RELU] = "relu",
    [MT_P_NOT] = "not",         [MT_P_ADD] = "add",       [MT_P_SUB] = "sub",
    [MT_P_MUL] = "mul",         [MT_P_DIV] = "div",       [MT_P_POW] = "pow",
    [MT_P_MIN] = "min",         [MT_P_MAX] = "max",       [MT_P_LT] = "lt",
    [MT_P_LE] = "le",           [MT_P_GT] = "gt",         [MT_P_GE] = "ge",
    [MT_P_EQ] = "eq",           [MT_P_NE] = "ne",         [MT_P_AND] = "and",
    [MT_P_OR] = "or",           [MT_P_SELECT] = "select",
};
_Static_assert(sizeof op_names / sizeof op_names[0] == MT_P_COUNT, "one name per program op");

const char *mt_prog_op_name(enum mt_prog_op op)
{
    return (unsigned)op < MT_P_COUNT ? op_names[op] : "unknown";
}

/* ---- checking and planning -------------------------------------------------------------- */

/* The operand the fast kernels take as in's immediate (MT_FAST_IMM), or -1: a binary op's first
 * constant operand (konst[r]: r is a constant), pow's excepted. Such a read needs no buffer. */
int mt_prog_imm_operand(const struct mt_prog_insn *in, const bool *konst)
{
    if (in->op < MT_P_ADD || in->op > MT_P_OR || in->op == MT_P_POW) return -1;
    return konst[in->a] ? 0 : konst[in->b] ? 1 : -1;
}

/* konst[r]: register r is a constant; last[r]: the last instruction that reads r other than as
 * its immediate (p->ninsn for the result, -1 for none). */
void mt_prog_last_reads(const struct mt_prog *p, bool *konst, int *last)
{
    for (int r = 0; r < p->nargs + p->ninsn; r++) konst[r] = false, last[r] = -1;
    for (int i = 0; i < p->ninsn; i++) konst[p->insn[i].dst] = p->insn[i].op == MT_P_CONST;
    for (int i = 0; i < p->ninsn; i++) {
        const int imm = mt_prog_imm_operand(&p->insn[i], konst);
        for (int k = 0; k < mt_prog_arity(p->insn[i].op); k++)
            if (k != imm) last[mt_prog_operand(&p->insn[i], k)] = i;
    }
    last[p->result] = p->ninsn; /* alive to the end */
}

/* Each register's buffer (slot[r], r >= nargs; -1 for one that needs none) by a linear scan, and
 * the number of buffers. Returns -1 when more than MT_PROG_MAX_LIVE values are alive at once.
 * slot has nargs + ninsn entries; p has passed the SSA checks. A constant needs a buffer only
 * where it is read other than as an immediate, or is the result. With pin, each such constant
 * has a buffer of its own for the whole program, filled once when a thread starts (run_blocks);
 * without, a step writes it at its definition and its buffer is freed after its last read, as
 * any value's: the plan for programs with more constants than buffers (an unrolled loop's
 * counters). */
int mt_prog_plan_slots(const struct mt_prog *p, bool pin, int *slot)
{
    const int nreg = p->nargs + p->ninsn;
    int last[MAX_REGS];
    bool konst[MAX_REGS];
    mt_prog_last_reads(p, konst, last);
    for (int r = 0; r < nreg; r++) slot[r] = -1;
    bool used[MT_PROG_MAX_LIVE] = {false};
    int nslots = 0;
    if (pin)
        for (int i = 0; i < p->ninsn; i++) {
            if (p->insn[i].op != MT_P_CONST || last[p->insn[i].dst] < 0) continue;
            if (nslots == MT_PROG_MAX_LIVE) return -1;
            slot[p->insn[i].dst] = nslots;
            used[nslots++] = true;
        }
    for (int i = 0; i < p->ninsn; i++) {
        const struct mt_prog_insn *in = &p->insn[i];
        if (in->op == MT_P_CONST && (pin || last[in->dst] < 0)) continue;
        int s = 0;
        while (s < MT_PROG_MAX_LIVE && used[s]) s++;
        if (s == MT_PROG_MAX_LIVE) return -1;
        used[s] = true;
        slot[in->dst] = s;
        if (s + 1 > nslots) nslots = s + 1;
        /* operands whose last reader this is, and a value nobody reads, free their buffers
         * after the write (so dst never shares a buffer with an operand) */
        for (int k = 0; k < mt_prog_arity(in->op); k++) {
            int r = mt_prog_operand(in, k);
            if (r >= p->nargs && last[r] == i && slot[r] >= 0 && !(pin && konst[r]))
                used[slot[r]] = false;
        }
        if (last[in->dst] < 0) used[s] = false;
    }
    return nslots;
}

enum mt_status mt_prog_check(struct mt_ctx *ctx, const struct mt_prog *p)
{
    if (!p || !p->name) return mt_fail(ctx, MT_ERR_INVALID, "a program needs a name");
    const char *name = p->name;
    if (p->nargs < 1 || p->nargs > 2)
        return mt_fail(ctx, MT_ERR_INVALID, "%s: a program takes 1 or 2 arguments", name);
    if (p->ninsn < 0 || p->ninsn > MT_PROG_MAX_INSNS || (p->ninsn > 0 && !p->insn))
        return mt_fail(ctx, MT_ERR_INVALID, "%s: %d operations, at most %d are allowed", name,
                       p->ninsn, MT_PROG_MAX_INSNS);
    const int nreg = p->nargs + p->ninsn;
    bool written[MAX_REGS];
    for (int r = 0; r < nreg; r++) written[r] = r < p->nargs;
    for (int i = 0; i < p->ninsn; i++) {
        const struct mt_prog_insn *in = &p->insn[i];
        if ((unsigned)in->op >= MT_P_COUNT)
            return mt_fail(ctx, MT_ERR_INVALID, "%s: instruction %d has an unknown op", name, i);
        for (int k = 0; k < mt_prog_arity(in->op); k++) {
            int r = mt_prog_operand(in, k);
            if (r < 0 || r >= nreg || !written[r])
                return mt_fail(ctx, MT_ERR_INVALID,
                               "%s: instruction %d (%s) reads register %d before it is written",
                               name, i, op_names[in->op], r);
        }
        if (in->dst < p->nargs || in->dst >= nreg || written[in->dst])
            return mt_fail(ctx, MT_ERR_INVALID,
                           "%s: instruction %d (%s) writes register %d, which is an argument or "
                           "already written",
                           name, i, op_names[in->op], in->dst);
        written[in->dst] = true;
    }
    if (p->result < 0 || p->result >= nreg || !written[p->result])
        return mt_fail(ctx, MT_ERR_INVALID, "%s: the result register %d is never written", name,
                       p->result);
    int slot[MAX_REGS];
    if (mt_prog_plan_slots(p, true, slot) < 0 && mt_prog_plan_slots(p, false, slot) < 0)
        return mt_fail(ctx, MT_ERR_INVALID,
                       "%s: more than %d values are needed at once; split the function", name,
                       MT_PROG_MAX_LIVE);
    return MT_OK;
}

float mt_prog_eval(const struct mt_prog *p, const float *args)
{
    return mt_prog_eval_inline(p, args);
}

/* ---- the front door ------------------------------------------------------------------------ */

/* The program's operations on values (constants are not operations): diagnostics' FLOPs per
 * element and the ops a fused pass stands for. */
static int prog_ops(const struct mt_prog *p)
{
    int n = 0;
    for (int i = 0; i < p->ninsn; i++) n += p->insn[i].op != MT_P_CONST;
    return n;
}

/* The checks every entry shares: a valid program of the right arity, the operands' backends. */
static enum mt_status enter(struct mt_ctx *ctx, const char *what, const struct mt_prog *p,
                            int nargs, const struct mt_tensor *a, const struct mt_tensor *b)
{
    enum mt_status st = mt_prog_check(ctx, p);
    if (st != MT_OK) return st;
    ctx->ops_run[a->backend]++;
    if (p->nargs != nargs)
        return mt_fail(ctx, MT_ERR_INVALID, "%s needs a function of %d argument%s; %s takes %d",
                       what, nargs, nargs == 1 ? "" : "s", p->name, p->nargs);
    if (b && a->backend != b->backend)
        return mt_fail(ctx, MT_ERR_BACKEND,
                       "%s(%s): the operands are on different backends (%s and %s); move one "
                       "with to(\"%s\")",
                       what, p->name, mt_backend_name(a->backend), mt_backend_name(b->backend),
                       mt_backend_name(a->backend));
    return mt_backend_check(ctx, a->backend);
}

static void diag_fill(struct mt_diag *d, const char *op, const struct mt_tensor *const *ins,
                      int nin, const struct mt_tensor *out)
{
    memset(d, 0, sizeof *d);
    d->op = op;
    d->backend = out->backend;
    d->nin = nin;
    for (int i = 0; i < nin; i++) {
        d->in_ndim[i] = ins[i]->ndim;
        memcpy(d->in_shape[i], ins[i]->shape, sizeof ins[i]->shape);
        memcpy(d->in_strides[i], ins[i]->strides, sizeof ins[i]->strides);
    }
    d->out_ndim = out->ndim;
    memcpy(d->out_shape, out->shape, sizeof out->shape);
    memcpy(d->out_strides, out->strides, sizeof out->strides);
    d->threads = 1;
    d->vec_width = 1;
}

/* Checks or makes out for the elementwise entries; *made says a new one was made. */
static enum mt_status elementwise_out(struct mt_ctx *ctx, const char *what, const struct mt_prog *p,
                                      int ndim, const int64_t *shape, enum mt_backend be,
                                      struct mt_tensor **out, bool *made)
{
    char s1[160], s2[160];
    *made = false;
    if (!*out) {
        enum mt_status st = mt_empty(ctx, be, ndim, shape, out);
        *made = st == MT_OK;
        return st;
    }
    const struct mt_tensor *o = *out;
    if (o->backend != be)
        return mt_fail(ctx, MT_ERR_BACKEND, "%s(%s): the output is on %s, the inputs on %s", what,
                       p->name, mt_backend_name(o->backend), mt_backend_name(be));
    if (o->ndim != ndim || memcmp(o->shape, shape, sizeof(int64_t) * (size_t)ndim) != 0)
        return mt_fail(ctx, MT_ERR_SHAPE, "%s(%s): the output has shape %s, the result %s", what,
                       p->name, mt_shape_str(o->ndim, o->shape, s1, sizeof s1),
                       mt_shape_str(ndim, shape, s2, sizeof s2));
    return mt_check_out(ctx, what, o);
}

/* map and zip after the checks: out has its final shape. */
static enum mt_status elementwise(struct mt_ctx *ctx, const char *what, const struct mt_prog *p,
                                  const struct mt_tensor *a, const struct mt_tensor *b,
                                  struct mt_tensor *out)
{
    const struct mt_tensor *ins[2] = {a, b};
    const int nin = b ? 2 : 1;
    struct mt_diag d;
    const int64_t t0 = ctx->diag ? mt_now_ns() : 0;
    if (ctx->diag) diag_fill(&d, what, ins, nin, out);
    if (out->size == 0) return MT_OK;
    struct mt_diag *dp = ctx->diag ? &d : NULL;
    enum mt_status st =
        mt_backend_ops_of(a->backend)->prog_elementwise(ctx, what, p, out, a, b, dp);
    if (st != MT_OK) return st;
    if (ctx->diag) {
        d.ns = d.ns_min = d.ns_max = mt_now_ns() - t0;
        d.runs = 1;
        d.bytes = 4.0 * (double)(a->size + (b ? b->size : 0) + out->size);
        d.flops = (double)prog_ops(p) * (double)out->size;
        d.prog_insns = prog_ops(p);
        snprintf(d.prog_name, sizeof d.prog_name, "%s", p->name);
        ctx->diag(ctx->diag_user, &d);
    }
    return MT_OK;
}

/* The end of every entry: a failure releases an output made here; a new result of inputs that
 * require grad gets a history that backward refuses to pass (the function has no derivative). */
static enum mt_status finish(struct mt_ctx *ctx, enum mt_status st, const char *what,
                             const struct mt_prog *p, const struct mt_tensor *a,
                             const struct mt_tensor *b, struct mt_tensor **out, bool made)
{
    if (st != MT_OK) {
        if (made) {
            mt_tensor_release(*out);
            *out = NULL;
        }
        return st;
    }
    if (!made) return MT_OK;
    char name[96];
    snprintf(name, sizeof name, "%s(%s)", what, p->name);
    return mt_record_forward_only(ctx, out, a, b, name);
}

enum mt_status mt_map_prog(struct mt_ctx *ctx, const struct mt_prog *p, const struct mt_tensor *a,
                           struct mt_tensor **out)
{
    enum mt_status st = enter(ctx, "map", p, 1, a, NULL);
    if (st != MT_OK) return st;
    if (*out && mt_overlaps(*out, a, true)) { /* a copy of a is read instead (alias.c) */
        struct mt_tensor *c = NULL;
        st = mt_unalias(ctx, *out, &a, true, &c);
        if (st == MT_OK) st = mt_map_prog(ctx, p, a, out);
        mt_tensor_release(c);
        return st;
    }
    int ndim = a->ndim;
    int64_t shape[MT_MAX_DIMS];
    memcpy(shape, a->shape, sizeof shape);
    if (*out) { /* a must broadcast to out's shape (MiniTorch's map into a larger out) */
        char s1[160], s2[160];
        st = mt_shape_broadcast(ctx, a->ndim, a->shape, (*out)->ndim, (*out)->shape, &ndim, shape);
        if (st == MT_OK && (ndim != (*out)->ndim ||
                            memcmp(shape, (*out)->shape, sizeof(int64_t) * (size_t)ndim) != 0))
            st = mt_fail(ctx, MT_ERR_SHAPE,
                         "map(%s): shape %s does not broadcast to the output's %s", p->name,
                         mt_shape_str(a->ndim, a->shape, s1, sizeof s1),
                         mt_shape_str((*out)->ndim, (*out)->shape, s2, sizeof s2));
        if (st != MT_OK) return st;
    }
    bool made;
    st = elementwise_out(ctx, "map", p, ndim, shape, a->backend, out, &made);
    if (st == MT_OK && !made) mt_written(*out);
    if (st == MT_OK) st = elementwise(ctx, "map", p, a, NULL, *out);
    return finish(ctx, st, "map", p, a, NULL, out, made);
}

enum mt_status mt_zip_prog(struct mt_ctx *ctx, const struct mt_prog *p, const struct mt_tensor *a,
                           const struct mt_tensor *b, struct mt_tensor **out)
{
    enum mt_status st = enter(ctx, "zip", p, 2, a, b);
    if (st != MT_OK) return st;
    if (*out && (mt_overlaps(*out, a, true) || mt_overlaps(*out, b, true))) {
        struct mt_tensor *ca = NULL, *cb = NULL; /* copies are read instead (alias.c) */
        st = mt_unalias(ctx, *out, &a, true, &ca);
        if (st == MT_OK) st = mt_unalias(ctx, *out, &b, true, &cb);
        if (st == MT_OK) st = mt_zip_prog(ctx, p, a, b, out);
        mt_tensor_release(ca);
        mt_tensor_release(cb);
        return st;
    }
    int ndim;
    int64_t shape[MT_MAX_DIMS];
    st = mt_shape_broadcast(ctx, a->ndim, a->shape, b->ndim, b->shape, &ndim, shape);
    if (st != MT_OK) return st;
    bool made;
    st = elementwise_out(ctx, "zip", p, ndim, shape, a->backend, out, &made);
    if (st == MT_OK && !made) mt_written(*out);
    if (st == MT_OK) st = elementwise(ctx, "zip", p, a, b, *out);
    return finish(ctx, st, "zip", p, a, b, out, made);
}

enum mt_status mt_reduce_prog(struct mt_ctx *ctx, const struct mt_prog *p,
                              const struct mt_tensor *a, int dim, float start,
                              struct mt_tensor **out)
{
    enum mt_status st = enter(ctx, "reduce", p, 2, a, NULL);
    if (st != MT_OK) return st;
    if (*out && mt_overlaps(*out, a, false)) { /* a copy of a is read instead (alias.c) */
        struct mt_tensor *c = NULL;
        st = mt_unalias(ctx, *out, &a, false, &c);
        if (st == MT_OK) st = mt_reduce_prog(ctx, p, a, dim, start, out);
        mt_tensor_release(c);
        return st;
    }
    const int d0 = dim < 0 ? dim + a->ndim : dim;
    if (d0 < 0 || d0 >= a->ndim)
        return mt_fail(ctx, MT_ERR_INDEX, "reduce(%s): dim %d is out of range for %d dims", p->name,
                       dim, a->ndim);
    int64_t shape[MT_MAX_DIMS];
    memcpy(shape, a->shape, sizeof shape);
    shape[d0] = 1;
    bool made;
    st = elementwise_out(ctx, "reduce", p, a->ndim, shape, a->backend, out, &made);
    if (st != MT_OK) return st;
    if (!made) mt_written(*out);
    struct mt_tensor *o = *out;
    struct mt_diag dg;
    const int64_t t0 = ctx->diag ? mt_now_ns() : 0;
    if (ctx->diag) diag_fill(&dg, "reduce", &a, 1, o);
    struct mt_diag *dp = ctx->diag ? &dg : NULL;
    st = mt_backend_ops_of(a->backend)->prog_reduce(ctx, p, o, a, d0, start, dp);
    if (st != MT_OK) return finish(ctx, st, "reduce", p, a, NULL, out, made);
    if (ctx->diag) {
        dg.ns = dg.ns_min = dg.ns_max = mt_now_ns() - t0;
        dg.runs = 1;
        dg.bytes = 4.0 * (double)(a->size + o->size);
        dg.flops = (double)prog_ops(p) * (double)a->size;
        dg.prog_insns = prog_ops(p);
        snprintf(dg.prog_name, sizeof dg.prog_name, "%s", p->name);
        ctx->diag(ctx->diag_user, &dg);
    }
    return finish(ctx, MT_OK, "reduce", p, a, NULL, out, made);
}
