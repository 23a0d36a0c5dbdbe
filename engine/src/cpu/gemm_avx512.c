/* gemm_avx512.c — the AVX-512F micro-kernel of mt_cpu_gemm (see gemm.h, gemm_ukernel.h).
 *
 * This file alone is compiled with -mavx512f (CMakeLists.txt), so it may only be entered after
 * gemm.c has checked __builtin_cpu_supports("avx512f").
 *
 * 12 x 32 (BLIS's skx sgemm tile, transposed for row-major C): 24 zmm accumulators, 2 for the
 * B row and 1 for the broadcast leave 5 of the 32 registers free (gcc and clang keep it all in
 * registers; checked in the assembly). Per k: 24 FMAs, 12 cycles on two 512-bit FMA units, against
 * 2 loads and 12 broadcasts (vbroadcastss from memory: load-port only), and 24 independent chains
 * cover the 4-cycle FMA latency (8 needed).
 *
 * A machine without AVX-512 cannot run this kernel, so it is correct by construction there too:
 * it is the template of gemm_ukernel.h, exercised on AVX2 with this very tile shape and
 * blocking (mt_gemm_ukernel_avx2_12x32, ISA "avx512emu" in the tests), with only the seven
 * vector macros below mapped to their one-to-one _mm512 counterparts. */
#include "gemm_kernels.h"

#if defined(__x86_64__)
#if !defined(__AVX512F__)
#error "gemm_avx512.c must be compiled with -mavx512f (see CMakeLists.txt)"
#endif

#include <immintrin.h>

#define UK_VEC __m512
#define UK_VW 16
#define UK_ZERO() _mm512_setzero_ps()
#define UK_LOAD(p) _mm512_load_ps(p)
#define UK_LOADU(p) _mm512_loadu_ps(p)
#define UK_STOREU(p, v) _mm512_storeu_ps((p), (v))
#define UK_BCAST(p) _mm512_set1_ps(*(p))
#define UK_FMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define UK_ADD(a, b) _mm512_add_ps((a), (b))
#define UK_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#define UK_NAME mt_gemm_ukernel_avx512_12x32
#define UK_MR 12
#define UK_NV 2
#include "gemm_ukernel.h"

/* ---- small products without packing ------------------------------------------------------ */

/* One tile of the direct product (the AVX2 file's direct_tile, a zmm wide): rows i < MR,
 * columns j < n <= 16 * NV of C = A @ B over k in [0, kc), B row-major (row k at b + k*rsb).
 * Per element the chain of the packed micro-kernel: acc = 0, acc = fma(a_ik, b_kj, acc) for k
 * in order, then C = acc, or C + acc when `accumulate` (a later KC block). Columns past n are
 * masked off in every load and store (AVX-512 masks do not fault), so nothing outside B or C is
 * touched and no scratch tile is needed for a row-major C. Up to 12 x 2 zmm accumulators: 24
 * chains, 2 B vectors and a broadcast in 27 of the 32 registers. */
#if defined(__clang__)
#define DT_UNROLL _Pragma("unroll")
#else
#define DT_UNROLL _Pragma("GCC unroll 16")
#endif
#define DIRECT_TILE(MR, NV)                                                                        \
    static void direct_tile_##MR##x##NV(int64_t kc, const float *a, int64_t rsa, int64_t csa,      \
                                        const float *b, int64_t rsb, int n, float *c, int64_t rsc, \
                                        int64_t csc, int accumulate)                               \
    {                                                                                              \
        __m512 acc[MR][NV];                                                                        \
        __mmask16 m[NV];                                                                           \
        DT_UNROLL for (int v = 0; v < NV; v++)                                                     \
        {                                                                                          \
            const int w = n - 16 * v;                                                              \
            m[v] = (__mmask16)(w >= 16 ? 0xFFFF : w > 0 ? (1u << w) - 1 : 0);                      \
            DT_UNROLL for (int i = 0; i < MR; i++) acc[i][v] = _mm512_setzero_ps();                \
        }                                                                                          \
        for (int64_t k = 0; k < kc; k++, b += rsb, a += csa) {                                     \
            __m512 bv[NV];                                                                         \
            DT_UNROLL for (int v = 0; v < NV; v++) bv[v] =                                         \
                _mm512_maskz_loadu_ps(m[v], b + 16 * v);                                           \
            DT_UNROLL for (int i = 0; i < MR; i++)                                                 \
            {                                                                                      \
                const __m512 av = _mm512_set1_ps(a[i * rsa]);                                      \
                DT_UNROLL for (int v = 0; v < NV; v++) acc[i][v] =                                 \
                    _mm512_fmadd_ps(av, bv[v], acc[i][v]);                                         \
            }                                                                                      \
        }                                                                                          \
        if (csc == 1) {                                                                            \
            DT_UNROLL for (int i = 0; i < MR; i++) DT_UNROLL for (int v = 0; v < NV; v++)          \
            {                                                                                      \
                float *p = c + i * rsc + 16 * v;                                                   \
                __m512 r = acc[i][v];                                                              \
                if (accumulate) r = _mm512_add_ps(_mm512_maskz_loadu_ps(m[v], p), r);              \
                _mm512_mask_storeu_ps(p, m[v], r);                                                 \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        _Alignas(64) float t[16 * NV];                                                             \
        DT_UNROLL for (int i = 0; i < MR; i++)                                                     \
        {                                                                                          \
            DT_UNROLL for (int v = 0; v < NV; v++) _mm512_store_ps(t + 16 * v, acc[i][v]);         \
            for (int j = 0; j < n; j++) {                                                          \
                float *p = c + i * rsc + j * csc;                                                  \
                *p = accumulate ? *p + t[j] : t[j];                                                \
            }                                                                                      \
        }                                                                                          \
    }

#define DIRECT_TILES(NV)                                                                           \
    DIRECT_TILE(1, NV)                                                                             \
    DIRECT_TILE(2, NV)                                                                             \
    DIRECT_TILE(3, NV)                                                                             \
    DIRECT_TILE(4, NV)                                                                             \
    DIRECT_TILE(5, NV)                                                                             \
    DIRECT_TILE(6, NV)                                                                             \
    DIRECT_TILE(7, NV)                                                                             \
    DIRECT_TILE(8, NV)                                                                             \
    DIRECT_TILE(9, NV)                                                                             \
    DIRECT_TILE(10, NV)                                                                            \
    DIRECT_TILE(11, NV)                                                                            \
    DIRECT_TILE(12, NV)
DIRECT_TILES(1)
DIRECT_TILES(2)

/* Narrow products (N <= 8: the last layer's column, its weight gradient) go to the AVX2
 * routine, whose column kernels transpose A in registers; every AVX-512F CPU has AVX2 and FMA,
 * and both routines sum each element as the same FMA chain, so mixing them changes no bit. */
void mt_gemm_direct_avx512(int64_t M, int64_t N, int64_t K, int64_t kc, const float *A, int64_t rsa,
                           int64_t csa, const float *B, int64_t rsb, float *C, int64_t rsc,
                           int64_t csc)
{
    if (N <= 8) {
        mt_gemm_direct_avx2(M, N, K, kc, A, rsa, csa, B, rsb, C, rsc, csc);
        return;
    }
    typedef void (*tile_fn)(int64_t, const float *, int64_t, int64_t, const float *, int64_t, int,
                            float *, int64_t, int64_t, int);
#define ROW(NV)                                                                                    \
    {                                                                                              \
        NULL, direct_tile_1x##NV, direct_tile_2x##NV, direct_tile_3x##NV, direct_tile_4x##NV,      \
            direct_tile_5x##NV, direct_tile_6x##NV, direct_tile_7x##NV, direct_tile_8x##NV,        \
            direct_tile_9x##NV, direct_tile_10x##NV, direct_tile_11x##NV, direct_tile_12x##NV      \
    }
    static const tile_fn tiles[2][13] = {ROW(1), ROW(2)};
#undef ROW
    for (int64_t pc = 0; pc < K; pc += kc) {
        const int64_t kcur = K - pc < kc ? K - pc : kc;
        const float *a = A + pc * csa, *b = B + pc * rsb;
        const int acc = pc > 0;
        for (int64_t j0 = 0; j0 < N; j0 += 32) {
            const int n = N - j0 < 32 ? (int)(N - j0) : 32;
            for (int64_t i0 = 0; i0 < M; i0 += 12) {
                const int m = M - i0 < 12 ? (int)(M - i0) : 12;
                tiles[n > 16][m](kcur, a + i0 * rsa, rsa, csa, b + j0, rsb, n,
                                 C + i0 * rsc + j0 * csc, rsc, csc, acc);
            }
        }
    }
}

#else
/* Not x86-64: gemm.c uses the portable kernel only; keep the translation unit non-empty. */
typedef int mt_gemm_avx512_unused;
#endif
