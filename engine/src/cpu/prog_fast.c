/* prog_fast.c — the fast backend's runner of user functions (prog.c describes programs and
 * checks them; this file runs a checked one): map and zip over blocks of BLOCK elements, reduce
 * over blocks of outputs, in parallel over blocks with OpenMP; the blocks go through the fast
 * kernels' program kernel (fast.h's struct mt_fast_prog, cpu/fast_prog.h).
 *
 * Reduce. acc = start, then acc = fn(acc, x) along the dim, in order, for a block of outputs at
 * a time (the outputs are independent; each one's order is serial, as MiniTorch's): a program
 * call per step of the fold, vectorised across the block's outputs. With few outputs that call
 * costs more than it does, so each output is folded by itself (serial_block): the part of fn
 * that does not read acc (x * x in acc + x * x) in vector chunks over a piece of the dim, the
 * rest element by element, or as a fold kernel where it is one add, mul or max. */
#include "../internal.h"

#include "../prog_eval.h"
#include "fast.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

/* Elements per block: what a thread takes at a time (and gathers, for strided inputs), and the
 * unit of the cancel checks. */
#define BLOCK 2048
#define PAR_MIN_ELEMS ((int64_t)1 << 16) /* below this, one thread (as the fast backend's maps) */
/* reduce: the most outputs a thread folds one at a time (serial_block) where the chain is a fold
 * kernel's, and where it goes element by element; more take the blocks (fn no fold kernel's).
 * The blocks call the program once per step of the fold however few outputs the block has, so
 * their speed falls with the number of outputs; one output at a time runs at the same speed
 * whatever their number, faster through a fold kernel's chain (acc + x * x) than element by
 * element (acc * 0.5 + x), so the fold kernel's limit is the higher one. The fold rows of
 * `make bench-engine` time both ways. */
#define SERIAL_FOLD_MAX 32
#define SERIAL_ELEMENTS_MAX 4
/* Reduce blocks: outputs side by side in the input (a dim other than the last reduced) take
 * RED_SIDE_BLOCK at a time, read in place (a block is one thread's: 1,024 keeps sum(0) of a
 * 2,048-wide matrix on two threads); others are gathered through a tile of TILE steps of
 * RED_BLOCK outputs (16 KiB, in L1). For sum(1) of 4096 x 4096, blocks of many outputs and
 * few steps (1,024 x 16, 256 x 16) ran several times slower than 64 x 64 or 128 x 32: a step
 * then gathers from more rows than L1 keeps lines of. The tile is filled by 4 x 4 SSE
 * transposes, and the next tile's lines are prefetched while this one is folded. */
#define RED_BLOCK 64
#define RED_SIDE_BLOCK 1024
#define TILE 64
#define MAX_REGS MT_PROG_MAX_REGS

/* A tensor read or written in out's row-major element order: its strides expanded to out's
 * shape (0 on broadcast dims), or `direct` when element o is simply data[o]. */
struct operand {
    float *data;
    int64_t es[MT_MAX_DIMS];
    bool direct;
};

static void operand_init(struct operand *o, const struct mt_tensor *t, const struct mt_tensor *out)
{
    o->data = mt_data(t);
    o->direct = mt_tensor_is_contiguous(t) && t->ndim == out->ndim &&
                memcmp(t->shape, out->shape, sizeof(int64_t) * (size_t)t->ndim) == 0;
    mt_expand_strides(t, out->ndim, out->shape, o->es);
}

/* The position of out's element o0 in the operand, and the index of o0, for the odometer. */
static int64_t start_at(const struct operand *o, int ndim, const int64_t *shape, int64_t o0,
                        int64_t *idx)
{
    mt_to_index(o0, ndim, shape, idx);
    int64_t pos = 0;
    for (int d = 0; d < ndim; d++) pos += idx[d] * o->es[d];
    return pos;
}

/* The next element in row-major order: the index and position advanced by one. */
static inline int64_t step(const struct operand *o, int ndim, const int64_t *shape, int64_t *idx,
                           int64_t pos)
{
    for (int d = ndim - 1; d >= 0; d--) {
        if (++idx[d] < shape[d]) return pos + o->es[d];
        pos -= (shape[d] - 1) * o->es[d];
        idx[d] = 0;
    }
    return pos;
}

/* Elements o0 .. o0+n of out go by runs along out's last dim: the length of the run at idx (to
 * the row's end, at most `left`), and past a run of len, the next row's position (the odometer
 * carried once a row, not once an element). */
static inline int64_t run_len(int ndim, const int64_t *shape, const int64_t *idx, int64_t left)
{
    const int64_t rest = shape[ndim - 1] - idx[ndim - 1];
    return rest < left ? rest : left;
}

static inline int64_t next_run(const struct operand *o, int ndim, const int64_t *shape,
                               int64_t *idx, int64_t pos, int64_t len)
{
    idx[ndim - 1] += len - 1;
    return step(o, ndim, shape, idx, pos + (len - 1) * o->es[ndim - 1]);
}

/* The operand's elements for out's o0 .. o0+n: read in place where they are one contiguous run,
 * else copied to dst a run at a time (a broadcast run is one value repeated): per element, the
 * odometer made a user zip with a broadcast row 6-7x slower than the built-in op. */
static const float *gather(const struct operand *o, int ndim, const int64_t *shape, int64_t o0,
                           int64_t n, float *dst)
{
    if (ndim == 0) return o->data; /* one element */
    int64_t idx[MT_MAX_DIMS];
    int64_t pos = start_at(o, ndim, shape, o0, idx);
    const int64_t s = o->es[ndim - 1];
    if (s == 1 && run_len(ndim, shape, idx, n) == n) return o->data + pos;
    for (int64_t i = 0; i < n;) {
        const int64_t len = run_len(ndim, shape, idx, n - i);
        const float *src = o->data + pos;
        float *d = dst + i;
        if (s == 1) {
            memcpy(d, src, (size_t)len * sizeof(float));
        } else if (s == 0) { /* a broadcast column: a plain fill, which vectorises */
            const float v = *src;
            for (int64_t k = 0; k < len; k++) d[k] = v;
        } else {
            for (int64_t k = 0; k < len; k++) d[k] = src[k * s];
        }
        i += len;
        if (i < n) pos = next_run(o, ndim, shape, idx, pos, len);
    }
    return dst;
}

static void scatter(const struct operand *o, int ndim, const int64_t *shape, int64_t o0, int64_t n,
                    const float *src)
{
    if (ndim == 0) {
        o->data[0] = src[0];
        return;
    }
    int64_t idx[MT_MAX_DIMS];
    int64_t pos = start_at(o, ndim, shape, o0, idx);
    const int64_t s = o->es[ndim - 1];
    for (int64_t i = 0; i < n;) {
        const int64_t len = run_len(ndim, shape, idx, n - i);
        float *d = o->data + pos;
        if (s == 1)
            memcpy(d, src + i, (size_t)len * sizeof(float));
        else
            for (int64_t k = 0; k < len; k++) d[k * s] = src[i + k];
        i += len;
        if (i < n) pos = next_run(o, ndim, shape, idx, pos, len);
    }
}

/* One run of a program over a tensor's elements (map and zip) or over a reduction's outputs. */
struct job {
    const struct mt_prog *p;
    const struct mt_fast_kernels *k;
    mt_fast_prog_fn run;    /* the kernel that runs fp (mt_fast_prog_kernel) */
    int width;              /* its vector width */
    struct mt_fast_prog fp; /* p as k->prog runs it (compile_steps) */
    struct mt_fast_step steps[MT_PROG_MAX_INSNS];
    int nslots;                       /* chunk buffers a thread needs */
    int nconst;                       /* constants: their buffers and values */
    int const_slot[MT_PROG_MAX_LIVE]; /* (plan_slots gives each a buffer of its own) */
    float const_val[MT_PROG_MAX_LIVE];
    int nin;
    struct operand in[2]; /* map, zip: the inputs in out's order; reduce: in[1] is unused */
    struct operand out;
    bool out_final; /* out is direct and shares no storage with the inputs: the program may
                     * write into it */
    bool stream;    /* ... with non-temporal stores (a big output, as the fast backend's) */
    int64_t block;  /* elements (outputs) per block: BLOCK; reduce: RED_BLOCK, RED_SIDE_BLOCK, 1 */
    int ndim;
    int64_t shape[MT_MAX_DIMS]; /* out's */
    int64_t size;
    /* reduce */
    const float *red_data;   /* the reduced tensor's first element */
    struct operand red_base; /* its strides, with the reduced dim's as 0 (out has size 1 there) */
    int64_t red_len, red_stride;
    float start;
    int fold;           /* an enum mt_reduce_op when the program is that op's fold step, else -1 */
    int map;            /* map, zip: an enum mt_map_op when the program is that map (map_op) */
    atomic_int stopped; /* the cancel flag was seen: blocks after it are skipped */
    /* few outputs (serial_block): fn as g(x), then the chain */
    const struct split *split;
};

/* p as the fast kernels run it (fast.h's struct mt_fast_prog): a step per operation, in
 * order; an operand that is the previous step's value is read from registers, a binary op's
 * constant is the step's immediate (imm_operand), any other operand is read from its source (an
 * argument, or the chunk buffer plan_slots gave its register), and a value is stored to its
 * buffer only when a step after the next one, or the end, reads it. Constants are steps only
 * where plan_slots could not pin them: a pinned one has a buffer of its own, filled once per
 * thread (run_blocks). */
static void compile_steps(struct job *j, const struct mt_prog *p)
{
    int slot[MAX_REGS], last[MAX_REGS];
    bool konst[MAX_REGS];
    bool pin = true;
    j->nslots = mt_prog_plan_slots(p, true, slot);
    if (j->nslots < 0) {
        pin = false;
        j->nslots = mt_prog_plan_slots(p, false, slot);
    }
    mt_prog_last_reads(p, konst, last);
    int made_by[MAX_REGS]; /* the instruction that wrote each register */
    for (int i = 0; i < p->ninsn; i++) made_by[p->insn[i].dst] = i;
#define SOURCE(r) ((r) < p->nargs ? (r) : 2 + slot[(r)])
#define IS_STEP(in) ((in)->op != MT_P_CONST || (!pin && slot[(in)->dst] >= 0))
    int n = 0, chained = -1; /* the register whose value the registers hold */
    j->nconst = 0;
    for (int i = 0; i < p->ninsn; i++) {
        const struct mt_prog_insn *in = &p->insn[i];
        if (!IS_STEP(in)) {
            if (in->op == MT_P_CONST && slot[in->dst] >= 0) {
                j->const_slot[j->nconst] = slot[in->dst];
                j->const_val[j->nconst++] = in->imm;
            }
            continue;
        }
        struct mt_fast_step *st = &j->steps[n++];
        *st = (struct mt_fast_step){.op = (uint8_t)in->op, .imm = in->imm};
        const int imm = mt_prog_imm_operand(in, konst);
        for (int k = 0; k < 3; k++) {
            const int r = mt_prog_operand(in, k);
            if (k == imm) {
                st->src[k] = MT_FAST_IMM;
                st->imm = p->insn[made_by[r]].imm;
            } else if (k >= mt_prog_arity(in->op) || r == chained) {
                st->src[k] = MT_FAST_CHAINED;
            } else {
                st->src[k] = (int8_t)SOURCE(r);
            }
        }
        int next = i + 1; /* the next step's instruction */
        while (next < p->ninsn && !IS_STEP(&p->insn[next])) next++;
        st->keep = (int8_t)(last[in->dst] > next ? 2 + slot[in->dst] : -1);
        chained = in->dst;
    }
    j->fp = (struct mt_fast_prog){
        .step = j->steps,
        .nsteps = n,
        .result = p->result == chained ? MT_FAST_CHAINED : SOURCE(p->result),
        .nbufs = j->nslots,
    };
#undef IS_STEP
#undef SOURCE
}

/* map / zip: out's elements o0 .. o0+n (buf: run_blocks's buffers). */
static bool elementwise_block(const struct job *j, int64_t o0, int64_t n, float *buf)
{
    float *bufs = buf, *argbuf = buf + (int64_t)j->nslots * MT_FAST_CHUNK,
          *res = argbuf + 2 * BLOCK;
    const float *args[2] = {NULL, NULL};
    for (int a = 0; a < j->nin; a++) {
        if (j->in[a].direct) {
            args[a] = j->in[a].data + o0;
        } else {
            args[a] = gather(&j->in[a], j->ndim, j->shape, o0, n, argbuf + a * BLOCK);
        }
    }
    float *dst = j->out_final ? j->out.data + o0 : res;
    const bool nt = j->out_final && j->stream;
    if (j->map >= 0)
        (nt ? j->k->map_nt : j->k->map)((enum mt_map_op)j->map, n, args[0], dst);
    else
        j->run(&j->fp, n, args, bufs, dst, nt);
    if (j->out_final) return true;
    if (j->out.direct)
        memcpy(j->out.data + o0, res, (size_t)n * sizeof(float));
    else
        scatter(&j->out, j->ndim, j->shape, o0, n, res);
    return true;
}

/* The built-in map a program is, or -1: one step of exp, log, sigmoid or tanh on its argument.
 * The block runs as that map (the same routine, so the same bits), not through the program's
 * chunks, where these ops leave the registers for a call per chunk and `exp(x)` as a function
 * ran well behind the built-in exp (the 'exp as a user function' rows of `make bench-engine`
 * are this path). */
static int map_op(const struct job *j)
{
    static const int maps[MT_P_COUNT] = {[MT_P_EXP] = MT_MAP_EXP + 1,
                                         [MT_P_LOG] = MT_MAP_LOG + 1,
                                         [MT_P_SIGMOID] = MT_MAP_SIGMOID + 1,
                                         [MT_P_TANH] = MT_MAP_TANH + 1};
    const struct mt_fast_step *st = &j->steps[0];
    if (j->fp.nsteps != 1 || j->fp.result != MT_FAST_CHAINED || st->src[0] != 0) return -1;
    return maps[st->op] - 1;
}

/* tile[k * n + i] = src[base[i] + k * stride] for outputs i < n, steps k < m: the next m
 * elements of each output's row, step-major. A contiguous dim (stride 1) goes through 4 x 4
 * transposes in SSE registers (x86-64's baseline), four rows and four steps at a time. */
static void fill_tile(const float *src, const int64_t *base, int64_t n, int64_t m, int64_t stride,
                      int64_t steps, float *restrict tile)
{
    int64_t i = 0;
#if defined(__SSE2__)
    if (stride == 1)
        for (; i + 4 <= n; i += 4) {
            const float *r0 = src + base[i], *r1 = src + base[i + 1], *r2 = src + base[i + 2],
                        *r3 = src + base[i + 3];
            /* the rows are far apart, too many streams for the hardware prefetcher: ask for
             * every cache line of their part of the next tile now */
            for (int64_t l = 0; l < steps; l += 16) {
                __builtin_prefetch(r0 + steps + l), __builtin_prefetch(r1 + steps + l);
                __builtin_prefetch(r2 + steps + l), __builtin_prefetch(r3 + steps + l);
            }
            int64_t k = 0;
            for (; k + 4 <= m; k += 4) {
                __m128 a = _mm_loadu_ps(r0 + k), b = _mm_loadu_ps(r1 + k), c = _mm_loadu_ps(r2 + k),
                       d = _mm_loadu_ps(r3 + k);
                _MM_TRANSPOSE4_PS(a, b, c, d);
                _mm_storeu_ps(tile + k * n + i, a);
                _mm_storeu_ps(tile + (k + 1) * n + i, b);
                _mm_storeu_ps(tile + (k + 2) * n + i, c);
                _mm_storeu_ps(tile + (k + 3) * n + i, d);
            }
            for (; k < m; k++) {
                tile[k * n + i] = r0[k], tile[k * n + i + 1] = r1[k];
                tile[k * n + i + 2] = r2[k], tile[k * n + i + 3] = r3[k];
            }
        }
#endif
    for (; i < n; i++) {
        const float *row = src + base[i];
        __builtin_prefetch(row + steps * stride);
        for (int64_t k = 0; k < m; k++) tile[k * n + i] = row[k * stride];
    }
}

/* The built-in reduction whose column kernel (mt_fast_kernels.red_cols) folds exactly as this
 * program does, or -1: a fold `def f(acc, x)` that is one add or mul (either order: IEEE
 * addition and multiplication commute bit for bit), or the kernel's max, acc if acc > x else x
 * (written max(x, acc), or `a if a > b else b` / `a if b < a else b`; max(acc, x) is x if
 * x > acc else acc, which differs at equal zeros and NaNs). red_cols (or fold_rows, for rows
 * that are contiguous) runs the same serial fold vectorised across outputs, with no program
 * dispatch per step: sum(1) of 4096 x 4096 as `add` took 5.7 ms through the program, one call
 * per step of 64 outputs. */
static int fold_op(const struct mt_prog *p)
{
    if (p->nargs != 2 || p->ninsn < 1 || p->ninsn > 2 || p->insn[p->ninsn - 1].dst != p->result)
        return -1;
    const struct mt_prog_insn *in = &p->insn[0];
    const bool ab = in->a == 0 && in->b == 1, ba = in->a == 1 && in->b == 0;
    if (p->ninsn == 2) {
        const struct mt_prog_insn *sel = &p->insn[1];
        const bool acc_gt_x = (in->op == MT_P_GT && ab) || (in->op == MT_P_LT && ba);
        return acc_gt_x && sel->op == MT_P_SELECT && sel->a == in->dst && sel->b == 0 && sel->c == 1
                   ? MT_RED_MAX
                   : -1;
    }
    if (in->op == MT_P_ADD && (ab || ba)) return MT_RED_SUM;
    if (in->op == MT_P_MUL && (ab || ba)) return MT_RED_PROD;
    if (in->op == MT_P_MAX && ba) return MT_RED_MAX;
    return -1;
}

/* reduce: outputs o0 .. o0+n, each folded along the dim. The accumulator is two buffers used
 * in turn (each step reads one and writes the other: no copy, no aliasing); the step's elements
 * are read in place when the block's outputs sit side by side in a (sum(0) of a row-major
 * matrix), else gathered. */
static bool reduce_block(const struct job *j, int64_t o0, int64_t n, float *buf)
{
    float *bufs = buf, *acc = buf + (int64_t)j->nslots * MT_FAST_CHUNK, *tile = acc + BLOCK;
    int64_t base[BLOCK], idx[MT_MAX_DIMS];
    int64_t pos = start_at(&j->red_base, j->ndim, j->shape, o0, idx);
    bool side_by_side = true;
    for (int64_t i = 0; i < n; i++) {
        base[i] = pos;
        side_by_side = side_by_side && pos == base[0] + i;
        pos = step(&j->red_base, j->ndim, j->shape, idx, pos);
        acc[i] = j->start;
    }
    /* `steps` at a time: each output's next elements (one cache line of a contiguous dim)
     * copied into the tile, step-major, then that many steps of the program on it (a block of
     * RED_SIDE_BLOCK outputs that is not side by side after all takes fewer steps per tile) */
    const int64_t steps = n <= RED_BLOCK ? TILE : TILE * RED_BLOCK / n;
    if (j->fold >= 0 && side_by_side) {
        j->k->red_cols((enum mt_reduce_op)j->fold, j->red_len, n, j->red_data + base[0],
                       j->red_stride, acc);
    } else if (j->fold >= 0 && j->red_stride == 1) { /* each output's elements: one row */
        const float *rows[BLOCK];
        for (int64_t i = 0; i < n; i++) rows[i] = j->red_data + base[i];
        j->k->fold_rows((enum mt_reduce_op)j->fold, n, rows, j->red_len, acc);
    } else {
        for (int64_t e0 = 0; e0 < j->red_len; e0 += steps) {
            const int64_t m = j->red_len - e0 < steps ? j->red_len - e0 : steps;
            const float *src = j->red_data + e0 * j->red_stride;
            if (!side_by_side) fill_tile(src, base, n, m, j->red_stride, steps, tile);
            if (j->fold >= 0) { /* strided rows: the tile holds the steps */
                j->k->red_cols((enum mt_reduce_op)j->fold, m, n, tile, n, acc);
                continue;
            }
            for (int64_t k = 0; k < m; k++) { /* acc = f(acc, x) in place */
                const float *xs = side_by_side ? src + k * j->red_stride + base[0] : tile + k * n;
                const float *args[2] = {acc, xs};
                j->run(&j->fp, n, args, bufs, acc, false);
            }
        }
    }
    if (j->out.direct)
        memcpy(j->out.data + o0, acc, (size_t)n * sizeof(float));
    else
        scatter(&j->out, j->ndim, j->shape, o0, n, acc);
    return true;
}

/* The threads for `work` elements: all the context has, for enough work. */
static int threads_for(const struct mt_ctx *ctx, int64_t work)
{
#ifdef MT_HAVE_OPENMP
    return work >= PAR_MIN_ELEMS && ctx->threads > 1 ? ctx->threads : 1;
#else
    (void)ctx, (void)work;
    return 1;
#endif
}

/* ---- reduce with few outputs --------------------------------------------------------------- */

/* fn(acc, x) for a fold that runs one output at a time: g, the operations that do not depend on
 * acc, and the chain, those that do (fed by acc and one value of g's). g runs over a block of
 * x at a time in vector chunks; only the chain has to go element by element, in order. For
 * acc + x * x, g is x * x and the chain one add: a fold kernel's. */
struct split {
    bool pre;                   /* g is more than x itself; else the chain is the whole fn */
    struct mt_prog g, chain;    /* g(x); chain(acc, v), v = g(x) */
    int fold;                   /* the chain as a fold kernel's op (fold_op), or -1 */
    struct mt_prog_insn insn[]; /* theirs: fn's count each */
};

static void set_operand(struct mt_prog_insn *in, int k, int r)
{
    if (k == 0)
        in->a = r;
    else if (k == 1)
        in->b = r;
    else
        in->c = r;
}

/* q: p's instructions marked in keep, renumbered (SSA, as mt_prog_check wants): p's register
 * args[k] becomes argument k, each kept instruction's the next after them. The constants come
 * first (chain_run sets them once), the rest in p's order; operands an op does not read are 0. */
static void sub_prog(const struct mt_prog *p, const bool *keep, int nargs, const int *args,
                     int result, struct mt_prog *q, struct mt_prog_insn *qi)
{
    int map[MAX_REGS];
    for (int k = 0; k < nargs; k++) map[args[k]] = k;
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < p->ninsn; i++) {
            if (!keep[i] || (p->insn[i].op == MT_P_CONST) != (pass == 0)) continue;
            struct mt_prog_insn in = p->insn[i];
            for (int k = 0; k < 3; k++)
                set_operand(&in, k, k < mt_prog_arity(in.op) ? map[mt_prog_operand(&in, k)] : 0);
            in.dst = nargs + n;
            map[p->insn[i].dst] = in.dst;
            qi[n++] = in;
        }
    *q = (struct mt_prog){
        .name = p->name, .nargs = nargs, .ninsn = n, .insn = qi, .result = map[result]};
}

/* p (a fold, fn(acc, x)) split into g and the chain, where the chain reads one value of g's
 * that is not x itself (else pre is false and the chain is p); NULL when out of memory. */
static struct split *split_fold(const struct mt_prog *p)
{
    struct split *sp = malloc(sizeof *sp + 2 * (size_t)p->ninsn * sizeof(struct mt_prog_insn));
    if (!sp) return NULL;
    struct mt_prog_insn *g_insn = sp->insn, *chain_insn = sp->insn + p->ninsn;
    bool dep[MAX_REGS] = {false}, konst[MAX_REGS] = {false}, chain_reads[MAX_REGS] = {false};
    bool keep[MT_PROG_MAX_INSNS];
    for (int i = 0; i < p->ninsn; i++) keep[i] = true;
    dep[0] = true; /* acc */
    int v = -1;    /* the value of g's the chain reads */
    bool one = true;
    for (int i = 0; i < p->ninsn; i++) {
        const struct mt_prog_insn *in = &p->insn[i];
        konst[in->dst] = in->op == MT_P_CONST;
        for (int k = 0; k < mt_prog_arity(in->op); k++) dep[in->dst] |= dep[mt_prog_operand(in, k)];
        if (!dep[in->dst]) continue;
        for (int k = 0; k < mt_prog_arity(in->op); k++) {
            const int r = mt_prog_operand(in, k);
            chain_reads[r] = true;
            if (dep[r] || konst[r]) continue;
            if (v >= 0 && v != r) one = false;
            v = r;
        }
    }
    sp->pre = one && v >= p->nargs && dep[p->result];
    if (!sp->pre) {
        sub_prog(p, keep, 2, (const int[]){0, 1}, p->result, &sp->chain, chain_insn);
        sp->fold = -1; /* fold_op(p) < 0, or the blocks would take it */
        return sp;
    }
    bool need[MAX_REGS] = {false}; /* what v is computed from */
    need[v] = true;
    for (int i = p->ninsn - 1; i >= 0; i--) {
        const struct mt_prog_insn *in = &p->insn[i];
        keep[i] = need[in->dst];
        if (keep[i])
            for (int k = 0; k < mt_prog_arity(in->op); k++) need[mt_prog_operand(in, k)] = true;
    }
    sub_prog(p, keep, 1, (const int[]){1}, v, &sp->g, g_insn);
    for (int i = 0; i < p->ninsn; i++)
        keep[i] = dep[p->insn[i].dst] || (konst[p->insn[i].dst] && chain_reads[p->insn[i].dst]);
    sub_prog(p, keep, 2, (const int[]){0, v}, p->result, &sp->chain, chain_insn);
    sp->fold = fold_op(&sp->chain);
    return sp;
}

/* The chain (sub_prog's: constants first, unread operands 0) over v[0 .. m) from acc, element
 * by element: mt_prog_eval's meaning, with the constants set once. */
static float chain_run(const struct mt_prog *c, float acc, const float *v, int64_t m)
{
    float r[MAX_REGS];
    int first = 0;
    for (; first < c->ninsn && c->insn[first].op == MT_P_CONST; first++)
        r[c->insn[first].dst] = c->insn[first].imm;
    for (int64_t e = 0; e < m; e++) {
        r[0] = acc;
        r[1] = v[e];
        for (int i = first; i < c->ninsn; i++) {
            const struct mt_prog_insn *in = &c->insn[i];
            r[in->dst] = mt_prog_scalar_op(in, r[in->a], r[in->b], r[in->c]);
        }
        acc = r[c->result];
    }
    return acc;
}

/* reduce, outputs o0 .. o0+n one at a time: acc = start, then for each piece of BLOCK elements
 * along the dim, in order, the piece (read in place from a contiguous dim, else gathered)
 * through g in vector chunks, then through the chain (a fold kernel's, where the chain is one
 * add, mul or max). */
static bool serial_block(const struct job *j, int64_t o0, int64_t n, float *buf)
{
    const struct split *sp = j->split;
    float *bufs = buf, *xs = buf + (int64_t)j->nslots * MT_FAST_CHUNK, *vs = xs + BLOCK;
    int64_t idx[MT_MAX_DIMS];
    for (int64_t o = o0; o < o0 + n; o++) {
        const float *row = j->red_data + start_at(&j->red_base, j->ndim, j->shape, o, idx);
        float acc = j->start;
        for (int64_t e0 = 0; e0 < j->red_len; e0 += BLOCK) {
            if (e0 > 0 && mt_cancel_requested()) return false;
            const int64_t m = j->red_len - e0 < BLOCK ? j->red_len - e0 : BLOCK;
            const float *x = row + e0 * j->red_stride;
            if (j->red_stride != 1) {
                for (int64_t i = 0; i < m; i++) xs[i] = x[i * j->red_stride];
                x = xs;
            }
            const float *v = x;
            if (sp->pre) {
                j->run(&j->fp, m, (const float *const[]){x, NULL}, bufs, vs, false);
                v = vs;
            }
            if (j->fold >= 0)
                j->k->fold_rows((enum mt_reduce_op)j->fold, 1, &v, m, &acc);
            else
                acc = chain_run(&sp->chain, acc, v, m);
        }
        j->out.data[start_at(&j->out, j->ndim, j->shape, o, idx)] = acc;
    }
    return true;
}

/* The split for serial_block where one output at a time beats the blocks (few outputs of len
 * elements, fn no fold kernel's), else NULL; NULL and *st set when out of memory. */
static struct split *serial_split(struct mt_ctx *ctx, const struct mt_prog *p, int64_t nout,
                                  int64_t len, enum mt_status *st)
{
    const int64_t threads = threads_for(ctx, nout * len);
    if (fold_op(p) >= 0 || nout > SERIAL_FOLD_MAX * threads) return NULL;
    struct split *sp = split_fold(p);
    if (!sp) {
        *st = mt_fail(ctx, MT_ERR_NOMEM, "reduce(%s): out of memory", p->name);
        return NULL;
    }
    if (nout > (sp->fold >= 0 ? SERIAL_FOLD_MAX : SERIAL_ELEMENTS_MAX) * threads) {
        free(sp);
        return NULL;
    }
    return sp;
}

/* Runs every block of j (elementwise or reduce) on nt threads; MT_ERR_CANCELLED when the cancel
 * flag stopped it, MT_ERR_NOMEM when a thread could not get its buffers. A block returns false
 * when it saw the cancel flag itself and stopped short. */
static enum mt_status run_blocks(struct mt_ctx *ctx, struct job *j, int nt,
                                 bool (*block)(const struct job *, int64_t, int64_t, float *))
{
    const int64_t bs = j->block;
    const int64_t nblocks = (j->size + bs - 1) / bs;
    /* a thread's memory: the chunk buffers, then the block's (elementwise_block: two gathered
     * arguments and the result; reduce_block: the accumulators and the tile) */
    const size_t bytes =
        ((size_t)j->nslots * MT_FAST_CHUNK + 3 * BLOCK + TILE * RED_BLOCK) * sizeof(float);
    atomic_int nomem;
    atomic_init(&nomem, 0);
    atomic_init(&j->stopped, 0);
    (void)ctx;
#ifdef MT_HAVE_OPENMP
#pragma omp parallel num_threads(nt) if (nt > 1)
#endif
    {
        float *buf = aligned_alloc(64, bytes);
        if (!buf)
            atomic_store(&nomem, 1);
        else
            for (int c = 0; c < j->nconst; c++)
                for (int e = 0; e < MT_FAST_CHUNK; e++)
                    buf[(int64_t)j->const_slot[c] * MT_FAST_CHUNK + e] = j->const_val[c];
#ifdef MT_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
        for (int64_t b = 0; b < nblocks; b++) {
            if (!buf || atomic_load_explicit(&j->stopped, memory_order_relaxed)) continue;
            if (mt_cancel_requested()) {
                atomic_store(&j->stopped, 1);
                continue;
            }
            const int64_t o0 = b * bs;
            if (!block(j, o0, j->size - o0 < bs ? j->size - o0 : bs, buf))
                atomic_store(&j->stopped, 1);
        }
#if defined(__SSE2__)
        /* the kernels' non-temporal stores are weakly ordered and leave the fence to us (fast.h,
         * struct mt_fast_kernels' prog): one a thread, before the join publishes out */
        _mm_sfence();
#endif
        free(buf);
    }
    (void)nt;
    if (atomic_load(&nomem)) return MT_ERR_NOMEM;
    return atomic_load(&j->stopped) ? MT_ERR_CANCELLED : MT_OK;
}

enum mt_status mt_fast_prog_elementwise(struct mt_ctx *ctx, const char *what,
                                        const struct mt_prog *p, struct mt_tensor *out,
                                        const struct mt_tensor *a, const struct mt_tensor *b,
                                        struct mt_diag *d)
{
    const struct mt_tensor *ins[2] = {a, b};
    const int nin = b ? 2 : 1;
    struct job *j = malloc(sizeof *j);
    if (!j) return mt_fail(ctx, MT_ERR_NOMEM, "%s(%s): out of memory", what, p->name);
    j->p = p;
    j->k = mt_fast_active();
    compile_steps(j, p);
    j->run = mt_fast_prog_kernel(j->k, &j->fp, &j->width);
    j->map = map_op(j);
    j->nin = nin;
    for (int i = 0; i < nin; i++) operand_init(&j->in[i], ins[i], out);
    operand_init(&j->out, out, out);
    j->out_final =
        j->out.direct && out->storage != a->storage && (!b || out->storage != b->storage);
    j->stream = out->size * (int64_t)sizeof(float) >= MT_FAST_NT_BYTES;
    j->block = BLOCK;
    j->ndim = out->ndim;
    memcpy(j->shape, out->shape, sizeof j->shape);
    j->size = out->size;
    const int nt = threads_for(ctx, out->size), width = j->width;
    enum mt_status st = run_blocks(ctx, j, nt, elementwise_block);
    free(j);
    if (st != MT_OK) return mt_prog_fail(ctx, st, what, p);
    if (d) {
        d->path = "user function, fused blocks";
        d->threads = nt;
        d->vec_width = width;
        d->chunk = BLOCK;
        d->nchunks = (out->size + BLOCK - 1) / BLOCK;
    }
    return MT_OK;
}

enum mt_status mt_fast_prog_reduce(struct mt_ctx *ctx, const struct mt_prog *p,
                                   struct mt_tensor *out, const struct mt_tensor *a, int dim,
                                   float start, struct mt_diag *d)
{
    const struct mt_tensor *o = out;
    const int d0 = dim;
    enum mt_status st = MT_OK;
    struct job *j = malloc(sizeof *j);
    if (!j) return mt_fail(ctx, MT_ERR_NOMEM, "reduce(%s): out of memory", p->name);
    int nt = 1;
    const char *path = "";
    struct split *sp = serial_split(ctx, p, o->size, a->shape[d0], &st);
    if (st == MT_OK) {
        j->p = p;
        j->k = mt_fast_active();
        j->out_final = j->stream = false; /* the fold writes its own buffers */
        j->ndim = o->ndim;
        memcpy(j->shape, o->shape, sizeof j->shape);
        j->size = o->size;
        operand_init(&j->out, o, o);
        j->red_data = mt_data(a);
        j->red_len = a->shape[d0];
        j->red_stride = a->strides[d0];
        j->start = start;
        j->red_base.data = NULL;
        j->red_base.direct = false;
        memcpy(j->red_base.es, a->strides, sizeof j->red_base.es);
        j->red_base.es[d0] = 0;
        if (sp) {
            j->split = sp;
            compile_steps(j, sp->pre ? &sp->g : p);
            j->run = mt_fast_prog_kernel(j->k, &j->fp, &j->width);
            j->fold = sp->fold;
            j->block = 1;
            nt = o->size > 1 ? threads_for(ctx, o->size * j->red_len) : 1;
            st = run_blocks(ctx, j, nt, serial_block);
            if (st != MT_OK) st = mt_prog_fail(ctx, st, "reduce", p);
            path = !sp->pre       ? "user function, one output at a time, element by element"
                   : j->fold >= 0 ? "user function, one output at a time: the part without acc "
                                    "in fused blocks, then a built-in fold kernel"
                                  : "user function, one output at a time: the part without acc "
                                    "in fused blocks, then element by element";
        } else {
            compile_steps(j, p);
            /* outputs side by side in a: the reduced dim is not the one out's last index runs
             * along (a's strides there are 1) */
            const int last = o->ndim - 1;
            j->block = d0 != last && a->strides[last] == 1 ? RED_SIDE_BLOCK : RED_BLOCK;
            /* the widest kernel where a block fills its chunks; a gathered block has RED_BLOCK
             * outputs, a quarter of an AVX-512 chunk, and takes the table's own */
            j->run = j->block >= MT_FAST_CHUNK ? mt_fast_prog_kernel(j->k, &j->fp, &j->width)
                                               : j->k->prog;
            j->fold = fold_op(p);
            nt = threads_for(ctx, o->size * j->red_len);
            st = run_blocks(ctx, j, nt, reduce_block);
            if (st != MT_OK) st = mt_prog_fail(ctx, st, "reduce", p);
            path = j->fold >= 0 ? "user function, fused blocks (a built-in fold kernel)"
                                : "user function, fused blocks";
        }
    }
    free(sp);
    free(j);
    if (st != MT_OK) return st;
    if (d) {
        d->path = path;
        d->threads = nt;
    }
    return MT_OK;
}
