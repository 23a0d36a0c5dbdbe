/* gemm_avx2.c — the AVX2+FMA micro-kernels of mt_cpu_gemm (see gemm.h, gemm_ukernel.h).
 *
 * This file alone is compiled with -mavx2 -mfma (CMakeLists.txt), so it may only be entered
 * after gemm.c has checked __builtin_cpu_supports("avx2") and ("fma").
 *
 * 6 x 16 is the tile BLIS and OpenBLAS use for Haswell/Zen: 12 ymm accumulators, 2 for the B
 * row and 1 broadcast fill 15 of the 16 registers; per k, 12 FMAs (6 cycles on two FMA pipes)
 * against 2 vector loads and 6 broadcasts, and 12 independent chains cover the 4-cycle FMA
 * latency (2 pipes x 4 cycles = 8 needed). bench/gemm_bench.c times it alone on L1-resident
 * panels (KC = 256) against the machine's FMA peak probe. */
#include "gemm_kernels.h"

#if defined(__x86_64__)
#if !defined(__AVX2__) || !defined(__FMA__)
#error "gemm_avx2.c must be compiled with -mavx2 -mfma (see CMakeLists.txt)"
#endif

#include <immintrin.h>
#include <stdbool.h>

#define UK_VEC __m256
#define UK_VW 8
#define UK_ZERO() _mm256_setzero_ps()
#define UK_LOAD(p) _mm256_load_ps(p)
#define UK_LOADU(p) _mm256_loadu_ps(p)
#define UK_STOREU(p, v) _mm256_storeu_ps((p), (v))
#define UK_BCAST(p) _mm256_broadcast_ss(p)
#define UK_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define UK_ADD(a, b) _mm256_add_ps((a), (b))
#define UK_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#define UK_NAME mt_gemm_ukernel_avx2_6x16
#define UK_MR 6
#define UK_NV 2
#include "gemm_ukernel.h"

/* The same template with the AVX-512 tile (12 x 32 = 12 rows of 4 ymm): a test stand-in. */
#define UK_VEC __m256
#define UK_VW 8
#define UK_ZERO() _mm256_setzero_ps()
#define UK_LOAD(p) _mm256_load_ps(p)
#define UK_LOADU(p) _mm256_loadu_ps(p)
#define UK_STOREU(p, v) _mm256_storeu_ps((p), (v))
#define UK_BCAST(p) _mm256_broadcast_ss(p)
#define UK_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define UK_ADD(a, b) _mm256_add_ps((a), (b))
#define UK_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#define UK_NAME mt_gemm_ukernel_avx2_12x32
#define UK_MR 12
#define UK_NV 4
#include "gemm_ukernel.h"

/* ---- packing ----------------------------------------------------------------------------- */

/* The two packing layouts of the AVX2 tile for the common row-major operands. The portable
 * loops in gemm.c do one scalar store per float for A (the compiler cannot vectorise the
 * transpose); here 8 columns of 6 rows are transposed in registers and stored as 48 contiguous
 * floats with 16 stores. */
void mt_gemm_pack_a6_avx2(int64_t kc, const float *src, int64_t rsa, float *dst)
{
    const float *r0 = src, *r1 = src + rsa, *r2 = src + 2 * rsa, *r3 = src + 3 * rsa,
                *r4 = src + 4 * rsa, *r5 = src + 5 * rsa;
    int64_t k = 0;
    for (; k + 8 <= kc; k += 8) {
        __m256 a0 = _mm256_loadu_ps(r0 + k), a1 = _mm256_loadu_ps(r1 + k);
        __m256 a2 = _mm256_loadu_ps(r2 + k), a3 = _mm256_loadu_ps(r3 + k);
        __m256 a4 = _mm256_loadu_ps(r4 + k), a5 = _mm256_loadu_ps(r5 + k);
        /* Per 128-bit lane (columns 0-3 low, 4-7 high): */
        __m256 t0 = _mm256_unpacklo_ps(a0, a1); /* a0[0] a1[0] a0[1] a1[1] */
        __m256 t1 = _mm256_unpackhi_ps(a0, a1); /* a0[2] a1[2] a0[3] a1[3] */
        __m256 t2 = _mm256_unpacklo_ps(a2, a3);
        __m256 t3 = _mm256_unpackhi_ps(a2, a3);
        __m256 t4 = _mm256_unpacklo_ps(a4, a5); /* a4[0] a5[0] a4[1] a5[1]: rows 4-5, col 0, 1 */
        __m256 t5 = _mm256_unpackhi_ps(a4, a5); /* cols 2, 3 */
        __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44); /* a0[0] a1[0] a2[0] a3[0]: rows 0-3, col 0 */
        __m256 u1 = _mm256_shuffle_ps(t0, t2, 0xEE); /* col 1 */
        __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44); /* col 2 */
        __m256 u3 = _mm256_shuffle_ps(t1, t3, 0xEE); /* col 3 */
        float *d = dst + k * 6;
        for (int h = 0; h < 2; h++, d += 24) { /* low lane: columns 0-3, high lane: 4-7 */
            __m128 v0 = h ? _mm256_extractf128_ps(u0, 1) : _mm256_castps256_ps128(u0);
            __m128 v1 = h ? _mm256_extractf128_ps(u1, 1) : _mm256_castps256_ps128(u1);
            __m128 v2 = h ? _mm256_extractf128_ps(u2, 1) : _mm256_castps256_ps128(u2);
            __m128 v3 = h ? _mm256_extractf128_ps(u3, 1) : _mm256_castps256_ps128(u3);
            __m128d w4 =
                _mm_castps_pd(h ? _mm256_extractf128_ps(t4, 1) : _mm256_castps256_ps128(t4));
            __m128d w5 =
                _mm_castps_pd(h ? _mm256_extractf128_ps(t5, 1) : _mm256_castps256_ps128(t5));
            _mm_storeu_ps(d + 0, v0);
            _mm_store_sd((double *)(d + 4), w4);
            _mm_storeu_ps(d + 6, v1);
            _mm_storeh_pd((double *)(d + 10), w4);
            _mm_storeu_ps(d + 12, v2);
            _mm_store_sd((double *)(d + 16), w5);
            _mm_storeu_ps(d + 18, v3);
            _mm_storeh_pd((double *)(d + 22), w5);
        }
    }
    for (; k < kc; k++) {
        float *d = dst + k * 6;
        d[0] = r0[k];
        d[1] = r1[k];
        d[2] = r2[k];
        d[3] = r3[k];
        d[4] = r4[k];
        d[5] = r5[k];
    }
}

void mt_gemm_pack_b16_avx2(int64_t kc, const float *src, int64_t rsb, float *dst)
{
    for (int64_t k = 0; k < kc; k++) {
        _mm256_store_ps(dst + k * 16, _mm256_loadu_ps(src + k * rsb));
        _mm256_store_ps(dst + k * 16 + 8, _mm256_loadu_ps(src + k * rsb + 8));
    }
}

/* ---- small products without packing ------------------------------------------------------ */

/* One tile of the direct product: rows i < MR (constant), columns j < n <= 16 of
 * C = A @ B over k in [0, kc), B row-major (row k at b + k*rsb). The same per-element chain as
 * the packed micro-kernel: acc = 0, then acc = fma(a_ik, b_kj, acc) for k in order; then C is
 * written, or C + acc when `accumulate` (a later KC block). Columns past n are masked off in
 * the loads, so nothing outside B is read. */
#if defined(__clang__)
#define DT_UNROLL _Pragma("unroll")
#else
#define DT_UNROLL _Pragma("GCC unroll 16")
#endif
#define DIRECT_TILE(MR)                                                                            \
    static void direct_tile_##MR(int64_t kc, const float *a, int64_t rsa, int64_t csa,             \
                                 const float *b, int64_t rsb, int n, float *c, int64_t rsc,        \
                                 int64_t csc, int accumulate)                                      \
    {                                                                                              \
        __m256 acc0[MR], acc1[MR];                                                                 \
        DT_UNROLL for (int i = 0; i < MR; i++) acc0[i] = acc1[i] = _mm256_setzero_ps();            \
        const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);                            \
        const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane),                         \
                      m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - 8), lane);                     \
        if (n == 16) {                                                                             \
            for (int64_t k = 0; k < kc; k++, b += rsb, a += csa) {                                 \
                __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);                       \
                DT_UNROLL for (int i = 0; i < MR; i++)                                             \
                {                                                                                  \
                    __m256 av = _mm256_broadcast_ss(a + i * rsa);                                  \
                    acc0[i] = _mm256_fmadd_ps(av, b0, acc0[i]);                                    \
                    acc1[i] = _mm256_fmadd_ps(av, b1, acc1[i]);                                    \
                }                                                                                  \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t k = 0; k < kc; k++, b += rsb, a += csa) {                                 \
                __m256 b0 = _mm256_maskload_ps(b, m0), b1 = _mm256_maskload_ps(b + 8, m1);         \
                DT_UNROLL for (int i = 0; i < MR; i++)                                             \
                {                                                                                  \
                    __m256 av = _mm256_broadcast_ss(a + i * rsa);                                  \
                    acc0[i] = _mm256_fmadd_ps(av, b0, acc0[i]);                                    \
                    acc1[i] = _mm256_fmadd_ps(av, b1, acc1[i]);                                    \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        if (n == 16 && csc == 1) {                                                                 \
            DT_UNROLL for (int i = 0; i < MR; i++)                                                 \
            {                                                                                      \
                float *p = c + i * rsc;                                                            \
                __m256 r0 = acc0[i], r1 = acc1[i];                                                 \
                if (accumulate) {                                                                  \
                    r0 = _mm256_add_ps(_mm256_loadu_ps(p), r0);                                    \
                    r1 = _mm256_add_ps(_mm256_loadu_ps(p + 8), r1);                                \
                }                                                                                  \
                _mm256_storeu_ps(p, r0);                                                           \
                _mm256_storeu_ps(p + 8, r1);                                                       \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        _Alignas(32) float t[16];                                                                  \
        DT_UNROLL for (int i = 0; i < MR; i++)                                                     \
        {                                                                                          \
            _mm256_store_ps(t, acc0[i]);                                                           \
            _mm256_store_ps(t + 8, acc1[i]);                                                       \
            for (int j = 0; j < n; j++) {                                                          \
                float *p = c + i * rsc + j * csc;                                                  \
                *p = accumulate ? *p + t[j] : t[j];                                                \
            }                                                                                      \
        }                                                                                          \
    }

/* The same for a narrow edge (n <= 8 columns): one vector per row, and up to 12 rows a tile
 * (12 accumulators, one B vector and a broadcast: 14 of 16 registers), so that the edge of a
 * product with few rows (N = 100 ends in 4 columns; M = 10 is one tile) still has enough
 * independent chains to cover the FMA latency. */
#define DIRECT_TILE8(MR)                                                                           \
    static void direct_tile8_##MR(int64_t kc, const float *a, int64_t rsa, int64_t csa,            \
                                  const float *b, int64_t rsb, int n, float *c, int64_t rsc,       \
                                  int64_t csc, int accumulate)                                     \
    {                                                                                              \
        __m256 acc[MR];                                                                            \
        DT_UNROLL for (int i = 0; i < MR; i++) acc[i] = _mm256_setzero_ps();                       \
        const __m256i m0 =                                                                         \
            _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));   \
        for (int64_t k = 0; k < kc; k++, b += rsb, a += csa) {                                     \
            __m256 b0 = _mm256_maskload_ps(b, m0);                                                 \
            DT_UNROLL for (int i = 0; i < MR; i++) acc[i] =                                        \
                _mm256_fmadd_ps(_mm256_broadcast_ss(a + i * rsa), b0, acc[i]);                     \
        }                                                                                          \
        _Alignas(32) float t[8];                                                                   \
        DT_UNROLL for (int i = 0; i < MR; i++)                                                     \
        {                                                                                          \
            _mm256_store_ps(t, acc[i]);                                                            \
            for (int j = 0; j < n; j++) {                                                          \
                float *p = c + i * rsc + j * csc;                                                  \
                *p = accumulate ? *p + t[j] : t[j];                                                \
            }                                                                                      \
        }                                                                                          \
    }

DIRECT_TILE8(1)
DIRECT_TILE8(2)
DIRECT_TILE8(3)
DIRECT_TILE8(4)
DIRECT_TILE8(5)
DIRECT_TILE8(6)
DIRECT_TILE8(7)
DIRECT_TILE8(8)
DIRECT_TILE8(9)
DIRECT_TILE8(10)
DIRECT_TILE8(11)
DIRECT_TILE8(12)
DIRECT_TILE(1)
DIRECT_TILE(2)
DIRECT_TILE(3)
DIRECT_TILE(4)
DIRECT_TILE(5)
DIRECT_TILE(6)

/* The full 6 x 16 tiles of a row-major C, in one loop with the tile inlined: no call, no masks,
 * no scratch. At the training step's sizes (K = 10 for a weight gradient, 1 or 2 for the first
 * layer) a tile is a few dozen cycles of FMAs, too few to carry a call and mask set-up each. */
static void direct_full_6x16(int64_t M6, int64_t N16, int64_t kc, const float *A, int64_t rsa,
                             int64_t csa, const float *B, int64_t rsb, float *C, int64_t rsc,
                             int accumulate)
{
    for (int64_t j0 = 0; j0 < N16; j0 += 16)
        for (int64_t i0 = 0; i0 < M6; i0 += 6) {
            const float *a = A + i0 * rsa, *b = B + j0;
            float *c = C + i0 * rsc + j0;
            __m256 acc0[6], acc1[6];
            DT_UNROLL for (int i = 0; i < 6; i++) acc0[i] = acc1[i] = _mm256_setzero_ps();
            for (int64_t k = 0; k < kc; k++, b += rsb, a += csa) {
                const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
                DT_UNROLL for (int i = 0; i < 6; i++)
                {
                    const __m256 av = _mm256_broadcast_ss(a + i * rsa);
                    acc0[i] = _mm256_fmadd_ps(av, b0, acc0[i]);
                    acc1[i] = _mm256_fmadd_ps(av, b1, acc1[i]);
                }
            }
            DT_UNROLL for (int i = 0; i < 6; i++)
            {
                __m256 r0 = acc0[i], r1 = acc1[i];
                if (accumulate) {
                    r0 = _mm256_add_ps(_mm256_loadu_ps(c + i * rsc), r0);
                    r1 = _mm256_add_ps(_mm256_loadu_ps(c + i * rsc + 8), r1);
                }
                _mm256_storeu_ps(c + i * rsc, r0);
                _mm256_storeu_ps(c + i * rsc + 8, r1);
            }
        }
}

/* w[0..8) as the rows of an 8 x 8 block, transposed in place: pairs, quads, then 128-bit
 * halves. */
static inline void transpose8(__m256 *w)
{
    const __m256 t0 = _mm256_unpacklo_ps(w[0], w[1]), t1 = _mm256_unpackhi_ps(w[0], w[1]);
    const __m256 t2 = _mm256_unpacklo_ps(w[2], w[3]), t3 = _mm256_unpackhi_ps(w[2], w[3]);
    const __m256 t4 = _mm256_unpacklo_ps(w[4], w[5]), t5 = _mm256_unpackhi_ps(w[4], w[5]);
    const __m256 t6 = _mm256_unpacklo_ps(w[6], w[7]), t7 = _mm256_unpackhi_ps(w[6], w[7]);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    w[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    w[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    w[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    w[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    w[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    w[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    w[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    w[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

/* C (M x 1) = A @ B for one KC block, B a column (element k at B[k*rsb]): the last layer of a
 * network (out = h @ w, and its weight gradient h^T @ g). Each element is still one FMA chain
 * over k in order, in a vector lane. With A's rows adjacent (rsa == 1, A = h^T) A's k-th
 * column is a load; with A's columns adjacent (csa == 1, A = h) eight rows are loaded and
 * transposed in registers, eight k at a time. Returns false for other layouts (the tiles take
 * them). */
static bool direct_column(int64_t M, int64_t kc, const float *A, int64_t rsa, int64_t csa,
                          const float *B, int64_t rsb, float *C, int64_t rsc, int accumulate)
{
    if (rsa == 1) {
        const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        for (int64_t i0 = 0; i0 < M; i0 += 32) { /* four vectors: four chains at a time */
            const int64_t rows = M - i0 < 32 ? M - i0 : 32;
            __m256i mask[4];
            __m256 acc[4];
            DT_UNROLL for (int v = 0; v < 4; v++)
            {
                mask[v] = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(rows - 8 * v)), lane);
                acc[v] = _mm256_setzero_ps();
            }
            const float *a = A + i0;
            for (int64_t k = 0; k < kc; k++, a += csa) {
                const __m256 bk = _mm256_broadcast_ss(B + k * rsb);
                DT_UNROLL for (int v = 0; v < 4; v++) acc[v] =
                    _mm256_fmadd_ps(_mm256_maskload_ps(a + 8 * v, mask[v]), bk, acc[v]);
            }
            _Alignas(32) float t[32];
            DT_UNROLL for (int v = 0; v < 4; v++) _mm256_store_ps(t + 8 * v, acc[v]);
            for (int64_t i = 0; i < rows; i++) {
                float *p = C + (i0 + i) * rsc;
                *p = accumulate ? *p + t[i] : t[i];
            }
        }
        return true;
    }
    if (csa == 1) {
        for (int64_t i0 = 0; i0 < M; i0 += 8) {
            const int rows = M - i0 < 8 ? (int)(M - i0) : 8;
            const float *a[8]; /* rows past M repeat the last one (computed, not stored) */
            DT_UNROLL for (int r = 0; r < 8; r++) a[r] = A + (i0 + (r < rows ? r : rows - 1)) * rsa;
            __m256 acc = _mm256_setzero_ps();
            int64_t k = 0;
            for (; k + 8 <= kc; k += 8) { /* 8 x 8 of A transposed: lane r is row i0 + r */
                __m256 col[8];
                DT_UNROLL for (int r = 0; r < 8; r++) col[r] = _mm256_loadu_ps(a[r] + k);
                transpose8(col);
                DT_UNROLL for (int q = 0; q < 8; q++) acc =
                    _mm256_fmadd_ps(col[q], _mm256_broadcast_ss(B + (k + q) * rsb), acc);
            }
            for (; k < kc; k++) {
                const __m256 ak = _mm256_setr_ps(a[0][k], a[1][k], a[2][k], a[3][k], a[4][k],
                                                 a[5][k], a[6][k], a[7][k]);
                acc = _mm256_fmadd_ps(ak, _mm256_broadcast_ss(B + k * rsb), acc);
            }
            _Alignas(32) float t[8];
            _mm256_store_ps(t, acc);
            for (int r = 0; r < rows; r++) {
                float *p = C + (i0 + r) * rsc;
                *p = accumulate ? *p + t[r] : t[r];
            }
        }
        return true;
    }
    return false;
}

void mt_gemm_direct_avx2(int64_t M, int64_t N, int64_t K, int64_t kc, const float *A, int64_t rsa,
                         int64_t csa, const float *B, int64_t rsb, float *C, int64_t rsc,
                         int64_t csc)
{
    typedef void (*tile_fn)(int64_t, const float *, int64_t, int64_t, const float *, int64_t, int,
                            float *, int64_t, int64_t, int);
    static const tile_fn tiles[7] = {NULL,          direct_tile_1, direct_tile_2, direct_tile_3,
                                     direct_tile_4, direct_tile_5, direct_tile_6};
    static const tile_fn tiles8[13] = {NULL,           direct_tile8_1,  direct_tile8_2,
                                       direct_tile8_3, direct_tile8_4,  direct_tile8_5,
                                       direct_tile8_6, direct_tile8_7,  direct_tile8_8,
                                       direct_tile8_9, direct_tile8_10, direct_tile8_11,
                                       direct_tile8_12};
    for (int64_t pc = 0; pc < K; pc += kc) {
        const int64_t kcur = K - pc < kc ? K - pc : kc;
        const float *a = A + pc * csa, *b = B + pc * rsb;
        const int acc = pc > 0;
        if (N == 1 && direct_column(M, kcur, a, rsa, csa, b, rsb, C, rsc, acc)) continue;
        /* full tiles; then the last M % 6 rows beside them; then the last N % 16 columns */
        const int64_t M6 = csc == 1 ? M - M % 6 : 0, N16 = N - N % 16;
        direct_full_6x16(M6, N16, kcur, a, rsa, csa, b, rsb, C, rsc, acc);
        for (int64_t j0 = 0; j0 < N16; j0 += 16)
            for (int64_t i0 = M6; i0 < M; i0 += 6) {
                const int m = M - i0 < 6 ? (int)(M - i0) : 6;
                tiles[m](kcur, a + i0 * rsa, rsa, csa, b + j0, rsb, 16, C + i0 * rsc + j0 * csc,
                         rsc, csc, acc);
            }
        if (N16 == N) continue;
        const int n = (int)(N - N16);
        const int rows = n <= 8 ? 12 : 6;
        for (int64_t i0 = 0; i0 < M; i0 += rows) {
            const int m = M - i0 < rows ? (int)(M - i0) : rows;
            (n <= 8 ? tiles8 : tiles)[m](kcur, a + i0 * rsa, rsa, csa, b + N16, rsb, n,
                                         C + i0 * rsc + N16 * csc, rsc, csc, acc);
        }
    }
}

#else
/* Not x86-64: gemm.c uses the portable kernel only; keep the translation unit non-empty. */
typedef int mt_gemm_avx2_unused;
#endif
