/* fast.h — the inner loops of the `fast` backend, compiled once per instruction set.
 *
 * fast.c owns the loop nests (broadcasting, strides, threads, cancellation); what runs on one
 * contiguous row is a small table of kernels, `struct mt_fast_kernels`. The default build has
 * no -march flag, so the same loop source below is compiled twice: in fast.c for the x86-64
 * baseline (SSE2: the compiler vectorises it 4 lanes wide) and in fast_avx2.c with -mavx2
 * -mfma (8 lanes, plus vector exp/log/tanh/sigmoid that libm cannot give). fast.c picks a
 * table at run time with __builtin_cpu_supports, so one binary runs on any x86-64 CPU.
 *
 * A translation unit that defines MT_FAST_KERNEL_BODIES before including this header gets the
 * loops as static functions (fk_*) to put in its table; everyone else sees the table only.
 *
 * Determinism. Every element of a map or zip goes through the same code whatever its position,
 * so a result never depends on how the work was split between threads (a tail shorter than a
 * vector goes through the vector code too). Row reductions sum into 32 partial accumulators
 * whatever the vector width, so both tables give bit-identical sums; column reductions keep
 * the serial order of the simple backend exactly. */
#ifndef MINITORCH_CPU_FAST_H
#define MINITORCH_CPU_FAST_H

#include "minitorch/minitorch.h"

#include <stdint.h>

/* A user function's program as the fast kernels run it (prog.c translates struct mt_prog into
 * it). The elements go by chunks of 8 vectors (64 floats with AVX2, 32 with SSE; 16 vectors,
 * 256 floats, in the AVX-512 build), each chunk through every step of the program: a step's value
 * stays in vector registers for the next step and goes to a chunk buffer (in L1) only when a later
 * step reads it, so a chain of operations costs one load of its inputs and one store of its result,
 * however long. */
#define MT_FAST_CHUNK 256    /* floats a chunk buffer holds (AVX-512: 16 vectors of 16) */
#define MT_FAST_CHAINED (-1) /* an operand that is the previous step's value, in registers */
#define MT_FAST_IMM (-2)     /* an operand that is the step's imm, broadcast to a register */
struct mt_fast_step {
    uint8_t op;    /* enum mt_prog_op, never MT_P_CONST (constants are filled chunk buffers) */
    int8_t src[3]; /* operands a, b, c (as the op reads them): MT_FAST_CHAINED, MT_FAST_IMM (one
                    * operand at most, of a binary op from add to or) or a source, 0 and 1 the
                    * arguments, 2 + k chunk buffer k */
    int8_t keep;   /* 2 + k: the value is also stored to chunk buffer k; -1: not */
    float imm;     /* the MT_FAST_IMM operand's value */
};
struct mt_fast_prog {
    const struct mt_fast_step *step;
    int nsteps;
    int result; /* MT_FAST_CHAINED (the last step's value) or a source */
    int nbufs;  /* chunk buffers, at most MT_PROG_MAX_LIVE */
};

struct mt_fast_kernels {
    const char *isa; /* "avx2", "generic" */
    int width;       /* float32 lanes of the vectors the loops run on */
    /* true where `map` computes op with a vector routine rather than a call per element */
    bool map_vector[MT_MAP_COUNT];
    /* out[i] = op(a[i]), i < n. out may be a (in place), no other overlap. */
    void (*map)(enum mt_map_op op, int64_t n, const float *a, float *out);
    /* out[i] = op(a[i * sa], b[i * sb]) with sa, sb in {0, 1} (0: a broadcast scalar). */
    void (*zip)(enum mt_zip_op op, int64_t n, const float *a, int64_t sa, const float *b,
                int64_t sb, float *out);
    /* The reduction of a[0..n) (sum for mean) in the fixed 32-accumulator order, n >= 1.
     * For max it returns NaN where that order could differ from the serial one (a NaN or an
     * infinity in the row, or a maximum of zero, whose sign depends on the order): the caller
     * then redoes the row serially. */
    float (*red_row)(enum mt_reduce_op op, int64_t n, const float *a);
    /* acc[j] = op(acc[j], a[r * rs + j]) for r = 0..rows-1 in order, j < ncols: each column
     * in the serial order, vectorised across columns. */
    void (*red_cols)(enum mt_reduce_op op, int64_t rows, int64_t ncols, const float *a, int64_t rs,
                     float *acc);
    /* acc[i] = op(acc[i], rows[i][k]) for k = 0..len-1 in order, i < nrows (sum, prod, max;
     * max as acc > x ? acc : x): each contiguous row folded serially, vectorised across rows
     * by transposing blocks of them in registers. For user folds over a contiguous dim (prog.c),
     * which must keep each output's order. */
    void (*fold_rows)(enum mt_reduce_op op, int64_t nrows, const float *const *rows, int64_t len,
                      float *acc);
    /* map and zip with non-temporal stores (and an sfence before returning), for outputs too
     * big for the caches: the same values as map and zip, without the read of every output
     * line that an ordinary store first does (a quarter of a+b's memory traffic). */
    void (*map_nt)(enum mt_map_op op, int64_t n, const float *a, float *out);
    void (*zip_nt)(enum mt_zip_op op, int64_t n, const float *a, int64_t sa, const float *b,
                   int64_t sb, float *out);
    /* The SGD step on columns [c0, c1) of W (in x out, row-major): w = w - g * rate, the product
     * and the difference each rounded (as the ops p - grad * rate), with the new columns also
     * written transposed into WT (out x in). For the fused training step (fast_train.c), which
     * keeps W^T beside W; blocks are transposed in registers. */
    void (*sgd_t)(float *W, float *WT, const float *G, int64_t in, int64_t out, int64_t c0,
                  int64_t c1, float rate);
    /* A user function over n elements (struct mt_fast_prog, below): out[i] = f(args[0][i],
     * args[1][i]). bufs: the program's chunk buffers, MT_FAST_CHUNK floats each, those of
     * constants filled with the constant. out may be args[0] or args[1] (in place), no other
     * overlap. nt: non-temporal stores, where out's alignment allows them, with no fence: the
     * caller issues one sfence after its last call (a fence after every block of 2,048 floats
     * stalled the stream; the fused 4-op map is timed without it in
     * bench/results/engine-user-functions-2026-11-25.txt)
     */
    void (*prog)(const struct mt_fast_prog *fp, int64_t n, const float *const *args, float *bufs,
                 float *out, bool nt);
};

extern const struct mt_fast_kernels mt_fast_kernels_generic; /* fast.c */
#if defined(__x86_64__)
extern const struct mt_fast_kernels mt_fast_kernels_avx2; /* fast_avx2.c */
#endif

/* The table the fast backend's ops run on (chosen once per process, see fast.c). */
const struct mt_fast_kernels *mt_fast_active(void);
/* The user-function kernel to run fp with table k, and its vector width: k->prog, or where fp
 * has two steps or more, k is the AVX2 table and the CPU has AVX-512F, the same kernel built
 * for AVX-512 (fast_prog_avx512.c; MT_FAST_ISA=avx2 keeps AVX2's). */
typedef void (*mt_fast_prog_fn)(const struct mt_fast_prog *fp, int64_t n, const float *const *args,
                                float *bufs, float *out, bool nt);
mt_fast_prog_fn mt_fast_prog_kernel(const struct mt_fast_kernels *k, const struct mt_fast_prog *fp,
                                    int *width);
#if defined(__x86_64__)
void mt_fast_prog_avx512(const struct mt_fast_prog *fp, int64_t n, const float *const *args,
                         float *bufs, float *out, bool nt);
#endif
/* The fast backend's runners of user functions (prog_fast.c): map and zip of p over out (b NULL
 * for map), and reduce along dim, p checked, out allocated with its final shape and not empty
 * (reduce: any size); d (may be NULL) gets the path, threads and vector width. */
enum mt_status mt_fast_prog_elementwise(struct mt_ctx *ctx, const char *what,
                                        const struct mt_prog *p, struct mt_tensor *out,
                                        const struct mt_tensor *a, const struct mt_tensor *b,
                                        struct mt_diag *d);
enum mt_status mt_fast_prog_reduce(struct mt_ctx *ctx, const struct mt_prog *p,
                                   struct mt_tensor *out, const struct mt_tensor *a, int dim,
                                   float start, struct mt_diag *d);
/* The float the fast backend's sum gives for a contiguous row of n >= 1 floats (t.sum() of a
 * contiguous 1-D t, or a (n, 1) t summed over dim 0): the same path and order as its reduce,
 * for code that must reproduce it bit for bit (the training step, fast_train.c). */
float mt_fast_sum_contig(int64_t n, const float *a);
/* The fast backend's fused training (fast_train.c): its table's train entries (internal.h). */
struct mt_mlp;
struct mt_train_state;
bool mt_fast_train_fits(const struct mt_mlp *m);
enum mt_status mt_fast_train_new(struct mt_ctx *ctx, const struct mt_mlp *m,
                                 struct mt_train_state **state);
void mt_fast_train_free(struct mt_train_state *state);
enum mt_status mt_fast_train_epoch(struct mt_ctx *ctx, const struct mt_mlp *m,
                                   struct mt_train_state *state, const int64_t *perm, double *loss);
enum mt_status mt_fast_train_correct(struct mt_ctx *ctx, const struct mt_mlp *m,
                                     struct mt_train_state *state, int64_t *correct);

/* Elements a row reduction folds in one red_row call: rows longer than this are reduced block
 * by block and the block results folded in order, so that a long row can be split between
 * threads at block boundaries without changing the result. */
#define MT_FAST_ROW_BLOCK 8192

/* Outputs of at least this many bytes are written with non-temporal stores (map_nt, zip_nt):
 * past the caches, where an ordinary store would first read the line. */
#define MT_FAST_NT_BYTES ((int64_t)16 << 20)

#ifdef MT_FAST_KERNEL_BODIES

#include "scalar.h"

#include <math.h>
#include <string.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

/* The vectorised loop unrolled 4 times: a row of a few thousand floats is bound by loads and
 * stores, and the loop's own compare and branch cost 15-20% of a 1,000-float add (measured on
 * the tiny-op benchmark's shape). */
#define FK_UNROLL _Pragma("GCC unroll 4")

/* Scalar op applied over a contiguous row; the loop bodies are simple enough for the
 * compiler's vectoriser (no calls except to libm in the generic table). */
#define FK_MAP_LOOP(F)                                                                             \
    FK_UNROLL for (int64_t i = 0; i < n; i++) out[i] = F(a[i]);                                    \
    return

/* sqrtf may set errno, which stops the vectoriser; the instruction gives the same IEEE
 * result. */
static void fk_sqrt(int64_t n, const float *a, float *out)
{
    int64_t i = 0;
#if defined(__AVX__)
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, _mm256_sqrt_ps(_mm256_loadu_ps(a + i)));
#endif
#if defined(__SSE2__)
    for (; i + 4 <= n; i += 4) _mm_storeu_ps(out + i, _mm_sqrt_ps(_mm_loadu_ps(a + i)));
    for (; i < n; i++) _mm_store_ss(out + i, _mm_sqrt_ss(_mm_load_ss(a + i)));
#else
    for (; i < n; i++) out[i] = mt_s_sqrt(a[i]);
#endif
}

static void fk_map(enum mt_map_op op, int64_t n, const float *a, float *out)
{
    switch (op) {
    case MT_MAP_NEG: FK_MAP_LOOP(mt_s_neg);
    case MT_MAP_ID:
        if (out != a) memmove(out, a, (size_t)n * sizeof *a);
        return;
    case MT_MAP_INV: FK_MAP_LOOP(mt_s_inv);
    case MT_MAP_RELU: FK_MAP_LOOP(mt_s_relu);
    case MT_MAP_ABS: FK_MAP_LOOP(mt_s_abs);
    case MT_MAP_SQRT: fk_sqrt(n, a, out); return;
#ifdef MT_FAST_VMATH
    /* vector versions from the including file (fast_avx2.c) */
    case MT_MAP_SIGMOID: mt_fast_vsigmoid(n, a, out); return;
    case MT_MAP_LOG: mt_fast_vlog(n, a, out); return;
    case MT_MAP_EXP: mt_fast_vexp(n, a, out); return;
    case MT_MAP_TANH: mt_fast_vtanh(n, a, out); return;
#else
    case MT_MAP_SIGMOID: FK_MAP_LOOP(mt_s_sigmoid);
    case MT_MAP_LOG: FK_MAP_LOOP(mt_s_log);
    case MT_MAP_EXP: FK_MAP_LOOP(mt_s_exp);
    case MT_MAP_TANH: FK_MAP_LOOP(mt_s_tanh);
#endif
    default: return;
    }
}

/* Three loops per op: both operands rows, or one a broadcast scalar held in a register. */
#define FK_ZIP_LOOP(F)                                                                             \
    if (sa && sb) {                                                                                \
        FK_UNROLL for (int64_t i = 0; i < n; i++) out[i] = F(a[i], b[i]);                          \
    } else if (sa) {                                                                               \
        const float bv = *b;                                                                       \
        FK_UNROLL for (int64_t i = 0; i < n; i++) out[i] = F(a[i], bv);                            \
    } else if (sb) {                                                                               \
        const float av = *a;                                                                       \
        FK_UNROLL for (int64_t i = 0; i < n; i++) out[i] = F(av, b[i]);                            \
    } else {                                                                                       \
        const float v = F(*a, *b);                                                                 \
        for (int64_t i = 0; i < n; i++) out[i] = v;                                                \
    }                                                                                              \
    return

static void fk_zip(enum mt_zip_op op, int64_t n, const float *a, int64_t sa, const float *b,
                   int64_t sb, float *out)
{
    switch (op) {
    case MT_ZIP_ADD: FK_ZIP_LOOP(mt_s_add);
    case MT_ZIP_SUB: FK_ZIP_LOOP(mt_s_sub);
    case MT_ZIP_MUL: FK_ZIP_LOOP(mt_s_mul);
    case MT_ZIP_DIV: FK_ZIP_LOOP(mt_s_div);
    case MT_ZIP_LT: FK_ZIP_LOOP(mt_s_lt);
    case MT_ZIP_GT: FK_ZIP_LOOP(mt_s_gt);
    case MT_ZIP_EQ: FK_ZIP_LOOP(mt_s_eq);
    case MT_ZIP_IS_CLOSE: FK_ZIP_LOOP(mt_s_is_close);
    case MT_ZIP_MAX: FK_ZIP_LOOP(mt_s_max);
    case MT_ZIP_RELU_BACK: FK_ZIP_LOOP(mt_s_relu_back);
    case MT_ZIP_LOG_BACK: FK_ZIP_LOOP(mt_s_log_back);
    case MT_ZIP_INV_BACK: FK_ZIP_LOOP(mt_s_inv_back);
    default: return;
    }
}

#define FK_ACC 32 /* partial accumulators of a row reduction (4 AVX2 or 8 SSE registers) */

static inline float fk_add(float x, float y) { return x + y; }
static inline float fk_mul(float x, float y) { return x * y; }

/* acc[k] collects elements k, k+32, k+64, ...; the tail goes to acc[0..rest); then a fixed
 * pairwise tree. Independent of the vector width, and more accurate than one running sum. */
#define FK_ROW(F, START)                                                                           \
    do {                                                                                           \
        float acc[FK_ACC];                                                                         \
        for (int k = 0; k < FK_ACC; k++) acc[k] = (START);                                         \
        int64_t i = 0;                                                                             \
        for (; i + FK_ACC <= n; i += FK_ACC)                                                       \
            for (int k = 0; k < FK_ACC; k++) acc[k] = F(acc[k], a[i + k]);                         \
        for (int k = 0; i + k < n; k++) acc[k] = F(acc[k], a[i + k]);                              \
        for (int w = FK_ACC / 2; w > 0; w /= 2)                                                    \
            for (int k = 0; k < w; k++) acc[k] = F(acc[k], acc[k + w]);                            \
        r = acc[0];                                                                                \
    } while (0)

static float fk_red_row(enum mt_reduce_op op, int64_t n, const float *a)
{
    float r;
    switch (op) {
    case MT_RED_PROD: FK_ROW(fk_mul, 1.0f); return r;
    case MT_RED_MAX: {
        FK_ROW(mt_s_max, -INFINITY);
        /* x - x is 0 unless x is NaN or infinite: one more sum says whether the row had any */
        float chk = 0.0f;
        float c[FK_ACC] = {0};
        int64_t i = 0;
        for (; i + FK_ACC <= n; i += FK_ACC)
            for (int k = 0; k < FK_ACC; k++) c[k] += a[i + k] - a[i + k];
        for (; i < n; i++) chk += a[i] - a[i];
        for (int k = 0; k < FK_ACC; k++) chk += c[k];
        return (chk != 0.0f || r == 0.0f) ? NAN : r;
    }
    default: FK_ROW(fk_add, 0.0f); return r;
    }
}

/* Four rows per pass over the accumulators (a quarter of the loads and stores of acc), each
 * column still folded row after row. */
#define FK_COLS(F)                                                                                 \
    do {                                                                                           \
        int64_t r = 0;                                                                             \
        for (; r + 4 <= rows; r += 4) {                                                            \
            const float *p0 = a + r * rs, *p1 = p0 + rs, *p2 = p1 + rs, *p3 = p2 + rs;             \
            for (int64_t j = 0; j < ncols; j++)                                                    \
                acc[j] = F(F(F(F(acc[j], p0[j]), p1[j]), p2[j]), p3[j]);                           \
        }                                                                                          \
        for (; r < rows; r++) {                                                                    \
            const float *p0 = a + r * rs;                                                          \
            for (int64_t j = 0; j < ncols; j++) acc[j] = F(acc[j], p0[j]);                         \
        }                                                                                          \
    } while (0)

static void fk_red_cols(enum mt_reduce_op op, int64_t rows, int64_t ncols, const float *a,
                        int64_t rs, float *restrict acc)
{
    switch (op) {
    case MT_RED_PROD: FK_COLS(fk_mul); return;
    case MT_RED_MAX: FK_COLS(mt_s_max); return;
    default: FK_COLS(fk_add); return;
    }
}

/* fold_rows. The vector ops are the scalar ones lane by lane: MAXPS(acc, x) is acc > x ? acc : x,
 * mt_s_max exactly, NaNs and signed zeros included. Each step of a fold waits for the previous
 * one's result, so two groups of rows go side by side (two dependency chains); what is left
 * goes in smaller groups, then row by row. */
#define FK_FOLD_TAIL(F, i0, i1, k0)                                                                \
    for (int64_t r = (i0); r < (i1); r++)                                                          \
        for (int64_t s = (k0); s < len; s++) acc[r] = F(acc[r], rows[r][s]);
#if defined(__SSE2__)
/* rows[i..i+4) at column k, transposed: t[c] holds column k + c of the four rows */
static inline void fk_load_4x4(const float *const *rows, int64_t i, int64_t k, __m128 t[4])
{
    t[0] = _mm_loadu_ps(rows[i] + k), t[1] = _mm_loadu_ps(rows[i + 1] + k);
    t[2] = _mm_loadu_ps(rows[i + 2] + k), t[3] = _mm_loadu_ps(rows[i + 3] + k);
    _MM_TRANSPOSE4_PS(t[0], t[1], t[2], t[3]);
}
/* groups of G x W rows (W lanes of VEC, G = 1, 2), W steps at a time, LOAD_T giving the block
 * of W rows transposed. The second group runs FK_FOLD_SKEW columns ahead of the first: rows a
 * power of two apart share their L1 sets, and side by side at the same column the 16 rows of
 * two AVX groups, 4,096 floats apart, competed for the 8 ways of one set, so that a line read
 * in halves by two transposes was evicted in between and read again. Skewed, the fold of rows
 * in L2 runs near the speed of rows that are not a power of two apart, and a skew of 16 or 64
 * is no better; the measurements are in
 * bench/results/engine-user-functions-2026-11-25.txt
 */
#define FK_FOLD_SKEW 32
/* Each row's lines are asked for this many floats ahead (into L2): too many rows at once for
 * the hardware prefetcher. The same reduce over 4096 x 4096 floats: 27.0-28.5 GB/s without,
 * 29.8-32.9 with 512 (256: 28.3-32.1, 768: 27.9-31.0), alternated runs; rows already in L2
 * pay for it (64 x 4096: 40-41 against 46-48). */
#define FK_FOLD_PREFETCH 512
/* a prefetch of p + n floats (into L2), maybe past the row's end: an address, not a pointer
 * into it (a prefetch never faults) */
#define FK_PREFETCH_AHEAD(p, n)                                                                    \
    __builtin_prefetch((const void *)((uintptr_t)(p) + (n) * sizeof(float)), 0, 2)
#define FK_FOLD_GROUPS(W, VEC, LOADU, STOREU, LOAD_T, G, VOP, F)                                   \
    for (; i + (W) * (G) <= nrows; i += (W) * (G)) {                                               \
        VEC a[G], t[G][W];                                                                         \
        for (int g = 0; g < (G); g++) a[g] = LOADU(acc + i + (W)*g);                               \
        const int64_t skew = (G) > 1 && len >= FK_FOLD_SKEW + (W) ? FK_FOLD_SKEW : 0;              \
        for (int64_t k = 0; k < skew; k += (W)) { /* the second group's first columns, alone */    \
            LOAD_T(rows, i + (W), k, t[(G)-1]);                                                    \
            for (int c = 0; c < (W); c++) a[(G)-1] = VOP(a[(G)-1], t[(G)-1][c]);                   \
        }                                                                                          \
        int64_t k = 0;                                                                             \
        for (; k + skew + (W) <= len; k += (W)) {                                                  \
            if (k % 16 == 0) /* a cache line of each row */                                        \
                for (int g = 0; g < (G); g++)                                                      \
                    for (int r = 0; r < (W); r++)                                                  \
                        FK_PREFETCH_AHEAD(rows[i + (W)*g + r] + k + skew * g, FK_FOLD_PREFETCH);   \
            for (int g = 0; g < (G); g++) LOAD_T(rows, i + (W)*g, k + skew * g, t[g]);             \
            for (int c = 0; c < (W); c++)                                                          \
                for (int g = 0; g < (G); g++) a[g] = VOP(a[g], t[g][c]);                           \
        }                                                                                          \
        for (; k + (W) <= len; k += (W)) { /* the first group's last columns, alone */             \
            LOAD_T(rows, i, k, t[0]);                                                              \
            for (int c = 0; c < (W); c++) a[0] = VOP(a[0], t[0][c]);                               \
        }                                                                                          \
        for (int g = 0; g < (G); g++) STOREU(acc + i + (W)*g, a[g]);                               \
        FK_FOLD_TAIL(F, i, i + (W) * (G), k) /* both groups stopped at the same column */          \
    }
#define FK_FOLD_SSE(G, VOP, F)                                                                     \
    FK_FOLD_GROUPS(4, __m128, _mm_loadu_ps, _mm_storeu_ps, fk_load_4x4, G, VOP, F)
#endif
#if defined(__AVX__)
/* t = w transposed (8 x 8): pairs, then quads, then the 128-bit halves */
static inline void fk_transpose_8x8(const __m256 w[8], __m256 t[8])
{
    __m256 t0 = _mm256_unpacklo_ps(w[0], w[1]), t1 = _mm256_unpackhi_ps(w[0], w[1]);
    __m256 t2 = _mm256_unpacklo_ps(w[2], w[3]), t3 = _mm256_unpackhi_ps(w[2], w[3]);
    __m256 t4 = _mm256_unpacklo_ps(w[4], w[5]), t5 = _mm256_unpackhi_ps(w[4], w[5]);
    __m256 t6 = _mm256_unpacklo_ps(w[6], w[7]), t7 = _mm256_unpackhi_ps(w[6], w[7]);
    __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    t[0] = _mm256_permute2f128_ps(u0, u4, 0x20), t[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    t[2] = _mm256_permute2f128_ps(u2, u6, 0x20), t[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    t[4] = _mm256_permute2f128_ps(u0, u4, 0x31), t[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    t[6] = _mm256_permute2f128_ps(u2, u6, 0x31), t[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}
/* rows[i..i+8) at column k, transposed: t[c] holds column k + c of the eight rows */
static inline void fk_load_8x8(const float *const *rows, int64_t i, int64_t k, __m256 t[8])
{
    __m256 w[8];
    for (int r = 0; r < 8; r++) w[r] = _mm256_loadu_ps(rows[i + r] + k);
    fk_transpose_8x8(w, t);
}
#define FK_FOLD_AVX(G, VOP, F)                                                                     \
    FK_FOLD_GROUPS(8, __m256, _mm256_loadu_ps, _mm256_storeu_ps, fk_load_8x8, G, VOP, F)
#define FK_FOLD(OP, F)                                                                             \
    do {                                                                                           \
        int64_t i = 0;                                                                             \
        FK_FOLD_AVX(2, _mm256_##OP##_ps, F)                                                        \
        FK_FOLD_AVX(1, _mm256_##OP##_ps, F)                                                        \
        FK_FOLD_SSE(1, _mm_##OP##_ps, F)                                                           \
        FK_FOLD_TAIL(F, i, nrows, 0)                                                               \
    } while (0)
#elif defined(__SSE2__)
#define FK_FOLD(OP, F)                                                                             \
    do {                                                                                           \
        int64_t i = 0;                                                                             \
        FK_FOLD_SSE(2, _mm_##OP##_ps, F)                                                           \
        FK_FOLD_SSE(1, _mm_##OP##_ps, F)                                                           \
        FK_FOLD_TAIL(F, i, nrows, 0)                                                               \
    } while (0)
#else
#define FK_FOLD(OP, F) FK_FOLD_TAIL(F, 0, nrows, 0)
#endif

static void fk_fold_rows(enum mt_reduce_op op, int64_t nrows, const float *const *rows, int64_t len,
                         float *restrict acc)
{
    switch (op) {
    case MT_RED_PROD: FK_FOLD(mul, fk_mul); return;
    case MT_RED_MAX: FK_FOLD(max, mt_s_max); return;
    default: FK_FOLD(add, fk_add); return;
    }
}

/* One element of the SGD step (see sgd_t), and the column remainder of a block row. */
static inline void fk_sgd_one(float *W, float *WT, const float *G, int64_t in, int64_t out,
                              int64_t i, int64_t j, float rate)
{
    float s = G[i * out + j] * rate;
    W[i * out + j] = W[i * out + j] - s;
    WT[j * in + i] = W[i * out + j];
}

/* A block of 4 rows x 4 columns (SSE, 4 x 4 transpose): the blocks that the 8 x 8 ones leave
 * at the edges (N = 100 is 12 x 8 + 4). */
#if defined(__SSE2__)
static inline void fk_sgd_4x4(float *W, float *WT, const float *G, int64_t in, int64_t out,
                              int64_t i, int64_t j, __m128 r)
{
    __m128 w[4];
    for (int k = 0; k < 4; k++) {
        float *p = W + (i + k) * out + j;
        __m128 step = _mm_mul_ps(_mm_loadu_ps(G + (i + k) * out + j), r);
        w[k] = _mm_sub_ps(_mm_loadu_ps(p), step);
        _mm_storeu_ps(p, w[k]);
    }
    _MM_TRANSPOSE4_PS(w[0], w[1], w[2], w[3]);
    for (int k = 0; k < 4; k++) _mm_storeu_ps(WT + (j + k) * in + i, w[k]);
}
#endif

static void fk_sgd_t(float *W, float *WT, const float *G, int64_t in, int64_t out, int64_t c0,
                     int64_t c1, float rate)
{
    int64_t i = 0;
#if defined(__SSE2__)
    const __m128 r4 = _mm_set1_ps(rate);
#endif
#if defined(__AVX__)
    const __m256 r = _mm256_set1_ps(rate);
    for (; i + 8 <= in; i += 8) {
        int64_t j = c0;
        for (; j + 8 <= c1; j += 8) {
            __m256 w[8];
            for (int k = 0; k < 8; k++) {
                float *p = W + (i + k) * out + j;
                __m256 step = _mm256_mul_ps(_mm256_loadu_ps(G + (i + k) * out + j), r);
                w[k] = _mm256_sub_ps(_mm256_loadu_ps(p), step);
                _mm256_storeu_ps(p, w[k]);
            }
            __m256 wt[8];
            fk_transpose_8x8(w, wt);
            float *d = WT + j * in + i;
            for (int k = 0; k < 8; k++) _mm256_storeu_ps(d + k * in, wt[k]);
        }
        for (; j + 4 <= c1; j += 4) {
            fk_sgd_4x4(W, WT, G, in, out, i, j, r4);
            fk_sgd_4x4(W, WT, G, in, out, i + 4, j, r4);
        }
        for (; j < c1; j++)
            for (int64_t k = i; k < i + 8; k++) fk_sgd_one(W, WT, G, in, out, k, j, rate);
    }
#endif
#if defined(__SSE2__)
    for (; i + 4 <= in; i += 4) {
        int64_t j = c0;
        for (; j + 4 <= c1; j += 4) fk_sgd_4x4(W, WT, G, in, out, i, j, r4);
        for (; j < c1; j++)
            for (int64_t k = i; k < i + 4; k++) fk_sgd_one(W, WT, G, in, out, k, j, rate);
    }
#endif
    for (; i < in; i++)
        for (int64_t j = c0; j < c1; j++) fk_sgd_one(W, WT, G, in, out, i, j, rate);
}

#include "fast_prog.h"

#define FK_TABLE_FUNCS                                                                             \
    .map = fk_map, .zip = fk_zip, .red_row = fk_red_row, .red_cols = fk_red_cols,                  \
    .fold_rows = fk_fold_rows, .sgd_t = fk_sgd_t, .prog = fk_prog

#endif /* MT_FAST_KERNEL_BODIES */

#endif
