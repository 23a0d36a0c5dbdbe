/* fast_prog.h — the fast backend's user-function kernel (struct mt_fast_prog, fast.h), part of
 * fast.h's kernel bodies: compiled once per table, in the including file's instruction set, and
 * once more for AVX-512 (fast_prog_avx512.c).
 *
 * A chunk of FK_NV vectors (8 of AVX2's or SSE's 16 registers, 16 of AVX-512's 32) goes
 * through every step; the step's value is v[0..FK_NV), which the compiler keeps in registers
 * (every loop over them is unrolled, so each v[r] is a register, never memory). An operand is
 * v (the previous step's value), a binary op's constant broadcast from the step (MT_FAST_IMM),
 * or a chunk of a source in L1 (an argument, a kept value, a constant's buffer for the other
 * ops: filled once, or written by a constant's step where the program has too many to pin). exp,
 * log, sigmoid, tanh and pow leave the registers for a call per chunk (fk_step_out_of_line):
 * inline, their register needs made the compiler keep v in memory for every op.
 *
 * What a step costs an element (a chain of 2 to 8 multiplications on 32K floats in L2, one
 * thread): least in AVX-512's chunks of 256 floats, more run numexpr's way (an instruction at
 * a time over blocks of 2,048, through L1), a little more again in AVX2's chunks of 64; hence
 * AVX-512's chunks for programs of several steps (mt_fast_prog_kernel).
 *
 * Each lane does what the scalar definition does (minitorch.h's enum mt_prog_op, one IEEE
 * operation or a selection), and exp, log, sigmoid and tanh are the AVX2 or the generic table's
 * maps, the built-ins' routines: a user function gives the bits the same ops give as built-ins.
 * The last partial chunk runs through the same code from zero-padded copies, so an element's
 * value never depends on where its chunk began. */
#ifndef MINITORCH_CPU_FAST_PROG_H
#define MINITORCH_CPU_FAST_PROG_H

#if defined(__AVX512F__)
typedef __m512 fk_vf;
#define FK_W 16
#define FK_NV 16 /* vectors a chunk: 16 of the 32 registers */
#elif defined(__AVX__)
typedef __m256 fk_vf;
#define FK_W 8
#elif defined(__SSE2__)
typedef __m128 fk_vf;
#define FK_W 4
#else
typedef float fk_vf __attribute__((vector_size(16)));
#define FK_W 4
#endif
typedef int32_t fk_vi __attribute__((vector_size(FK_W * 4)));
#ifndef FK_NV
#define FK_NV 8 /* vectors a chunk: half of the 16 registers */
#endif
#define FK_CH (FK_NV * FK_W) /* elements a chunk */
_Static_assert(FK_CH <= MT_FAST_CHUNK, "a chunk fits the chunk buffers");

static inline fk_vf fk_ld(const float *p)
{
    fk_vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline fk_vf fk_sel(fk_vi m, fk_vf t, fk_vf f) /* m ? t : f, lane by lane */
{
    return (fk_vf)((m & (fk_vi)t) | (~m & (fk_vi)f));
}

static inline fk_vf fk_bool(fk_vi m) /* 1.0 where m, else 0.0 */
{
    const fk_vf one = (fk_vf){0} + 1.0f;
    return (fk_vf)(m & (fk_vi)one);
}

static inline fk_vf fk_sqrt_v(fk_vf x)
{
#if defined(__AVX512F__)
    return _mm512_sqrt_ps(x);
#elif defined(__AVX__)
    return _mm256_sqrt_ps(x);
#elif defined(__SSE2__)
    return _mm_sqrt_ps(x);
#else
    float t[FK_W];
    memcpy(t, &x, sizeof t);
    for (int l = 0; l < FK_W; l++) t[l] = mt_s_sqrt(t[l]);
    memcpy(&x, t, sizeof t);
    return x;
#endif
}

/* d = op(a[, b]) over a chunk, for the ops kept out of fk_prog_chunk's registers: the
 * table's own maps (the built-in exp() and the rest, run on the chunk; FK_PROG_MAP, which the
 * AVX-512 build points to the AVX2 table's), and pow */
#ifndef FK_PROG_MAP
#define FK_PROG_MAP fk_map
#endif
__attribute__((noinline)) static void fk_step_out_of_line(enum mt_prog_op op, const float *a,
                                                          const float *b, float *d)
{
    switch (op) {
    case MT_P_EXP: FK_PROG_MAP(MT_MAP_EXP, FK_CH, a, d); return;
    case MT_P_LOG: FK_PROG_MAP(MT_MAP_LOG, FK_CH, a, d); return;
    case MT_P_SIGMOID: FK_PROG_MAP(MT_MAP_SIGMOID, FK_CH, a, d); return;
    case MT_P_TANH: FK_PROG_MAP(MT_MAP_TANH, FK_CH, a, d); return;
    default: /* MT_P_POW */
        for (int i = 0; i < FK_CH; i++) d[i] = powf(a[i], b[i]);
        return;
    }
}

/* operand p of vector r: v[r] when chained (p NULL), else loaded */
#define FK_OPND(p, r) ((p) ? fk_ld((p) + (r)*FK_W) : v[r])
#define FK_EACH _Pragma("GCC unroll 16") for (int r = 0; r < FK_NV; r++)
#define FK_UN(E)                                                                                   \
    FK_EACH                                                                                        \
    {                                                                                              \
        const fk_vf x = FK_OPND(pa, r);                                                            \
        v[r] = (E);                                                                                \
    }                                                                                              \
    break
/* A binary op, one loop for each kind of its two operands (chained, in memory, the step's
 * immediate; never two immediates), so that the kinds are tested once a step, not once a
 * vector. A constant as an immediate is one broadcast a step where a constant's buffer is a
 * load a vector: f(x) = (x * 1.5 + 0.5) * x - 2 loads 5 vectors for each it stores with
 * buffers, and runs faster on data in L2 with immediates, as measured in
 * bench/results/engine-user-functions-2026-11-25.txt
 */
#define FK_KIND(s) ((s) == MT_FAST_CHAINED ? 0 : (s) == MT_FAST_IMM ? 2 : 1)
#define FK_LD(p) fk_ld((p) + r * FK_W)
#define FK_BIN_AS(X, Y, E)                                                                         \
    FK_EACH                                                                                        \
    {                                                                                              \
        const fk_vf x = (X), y = (Y);                                                              \
        v[r] = (E);                                                                                \
    }                                                                                              \
    break
#define FK_BIN(E)                                                                                  \
    switch (FK_KIND(st->src[0]) * 3 + FK_KIND(st->src[1])) {                                       \
    case 0: FK_BIN_AS(v[r], v[r], E);                                                              \
    case 1: FK_BIN_AS(v[r], FK_LD(pb), E);                                                         \
    case 2: FK_BIN_AS(v[r], imm, E);                                                               \
    case 3: FK_BIN_AS(FK_LD(pa), v[r], E);                                                         \
    case 4: FK_BIN_AS(FK_LD(pa), FK_LD(pb), E);                                                    \
    case 5: FK_BIN_AS(FK_LD(pa), imm, E);                                                          \
    case 6: FK_BIN_AS(imm, v[r], E);                                                               \
    default: FK_BIN_AS(imm, FK_LD(pb), E);                                                         \
    }                                                                                              \
    break

/* One chunk: src[2 + k] is source k's chunk (src[2], src[3] the arguments' FK_CH elements),
 * src[0] and src[1] NULL (an immediate or a chained operand: src indices are stored plus two,
 * so that finding an operand is one load, no branch); out where the result's elements go. */
__attribute__((always_inline)) static inline void
fk_prog_chunk(const struct mt_fast_prog *fp, const float *const *src, float *out, bool nt)
{
    const fk_vf zero = (fk_vf){0};
    const fk_vi sign = (fk_vi){0} + INT32_MIN;
    /* the first step has no chained operand, but the compiler cannot know that (and warns):
     * zeroing the registers costs a few instructions a chunk */
    fk_vf v[FK_NV];
    FK_EACH v[r] = zero;
    for (int s = 0; s < fp->nsteps; s++) {
        const struct mt_fast_step *st = &fp->step[s];
        const float *pa = src[st->src[0] + 2], *pb = src[st->src[1] + 2], *pc = src[st->src[2] + 2];
        const fk_vf imm = st->imm - zero; /* not zero + imm: 0.0 + -0.0 is 0.0 */
        switch ((enum mt_prog_op)st->op) {
        case MT_P_NEG: FK_UN((fk_vf)((fk_vi)x ^ sign));
        case MT_P_ABS: FK_UN((fk_vf)((fk_vi)x & ~sign));
        case MT_P_SQRT: FK_UN(fk_sqrt_v(x));
        case MT_P_EXP:
        case MT_P_LOG:
        case MT_P_SIGMOID:
        case MT_P_TANH:
        case MT_P_POW: {
            /* out of line, through memory: these need many registers, or call libm (which
             * may use all of them); kept inline, they made the compiler keep v in memory for
             * every op */
            _Alignas(64) float m[2][FK_CH];
            FK_EACH memcpy(m[0] + r * FK_W, &v[r], sizeof v[r]);
            fk_step_out_of_line((enum mt_prog_op)st->op, pa ? pa : m[0], pb ? pb : m[0], m[1]);
            FK_EACH v[r] = fk_ld(m[1] + r * FK_W);
            break;
        }
        case MT_P_RELU: FK_UN(fk_sel(x > zero, x, zero)); /* NaN gives 0, as x > 0 ? x : 0 */
        case MT_P_NOT: FK_UN(fk_bool(x == zero));
        case MT_P_ADD: FK_BIN(x + y);
        case MT_P_SUB: FK_BIN(x - y);
        case MT_P_MUL: FK_BIN(x * y);
        case MT_P_DIV: FK_BIN(x / y);
        case MT_P_MIN: FK_BIN(fk_sel(y < x, y, x));
        case MT_P_MAX: FK_BIN(fk_sel(y > x, y, x));
        case MT_P_LT: FK_BIN(fk_bool(x < y));
        case MT_P_LE: FK_BIN(fk_bool(x <= y));
        case MT_P_GT: FK_BIN(fk_bool(x > y));
        case MT_P_GE: FK_BIN(fk_bool(x >= y));
        case MT_P_EQ: FK_BIN(fk_bool(x == y));
        case MT_P_NE: FK_BIN(fk_bool(x != y));
        case MT_P_AND: FK_BIN(fk_sel(x != zero, y, x));
        case MT_P_OR: FK_BIN(fk_sel(x != zero, x, y));
        case MT_P_SELECT:
            FK_EACH
            {
                const fk_vf x = FK_OPND(pa, r), y = FK_OPND(pb, r), z = FK_OPND(pc, r);
                v[r] = fk_sel(x != zero, y, z);
            }
            break;
        case MT_P_CONST: FK_EACH v[r] = imm; break; /* one plan_slots could not pin */
        default: break;
        }
        if (st->keep >= 0) {
            float *k = (float *)src[st->keep + 2];
            FK_EACH memcpy(k + r * FK_W, &v[r], sizeof v[r]);
        }
    }
    if (fp->result != MT_FAST_CHAINED) {
        const float *p = src[fp->result + 2];
        FK_EACH v[r] = fk_ld(p + r * FK_W);
    }
#if defined(__AVX512F__)
    if (nt) {
        FK_EACH _mm512_stream_ps(out + r * FK_W, v[r]);
        return;
    }
#elif defined(__AVX__)
    if (nt) {
        FK_EACH _mm256_stream_ps(out + r * FK_W, v[r]);
        return;
    }
#elif defined(__SSE2__)
    if (nt) {
        FK_EACH _mm_stream_ps(out + r * FK_W, v[r]);
        return;
    }
#endif
    (void)nt;
    FK_EACH memcpy(out + r * FK_W, &v[r], sizeof v[r]);
}
#undef FK_BIN
#undef FK_BIN_AS
#undef FK_LD
#undef FK_KIND
#undef FK_UN

static void fk_prog(const struct mt_fast_prog *fp, int64_t n, const float *const *args, float *bufs,
                    float *out, bool nt)
{
    const float *src[4 + MT_PROG_MAX_LIVE];
    src[0] = src[1] = NULL;
    for (int k = 0; k < fp->nbufs; k++) src[4 + k] = bufs + (int64_t)k * MT_FAST_CHUNK;
    nt = nt && (uintptr_t)out % (FK_W * sizeof(float)) == 0;
    _Alignas(64) float pad[3][FK_CH];
    for (int64_t i = 0; i < n; i += FK_CH) {
        const int64_t m = n - i < FK_CH ? n - i : FK_CH;
        if (m == FK_CH) {
            src[2] = args[0] + i;
            src[3] = args[1] ? args[1] + i : NULL;
            fk_prog_chunk(fp, src, out + i, nt);
        } else { /* the last, partial chunk: through zero-padded copies */
            memset(pad, 0, sizeof pad);
            for (int a = 0; a < 2; a++)
                if (args[a]) memcpy(pad[a], args[a] + i, (size_t)m * sizeof(float));
            src[2] = pad[0];
            src[3] = pad[1];
            fk_prog_chunk(fp, src, pad[2], false);
            memcpy(out + i, pad[2], (size_t)m * sizeof(float));
        }
    }
}
#undef FK_EACH
#undef FK_OPND

#endif
