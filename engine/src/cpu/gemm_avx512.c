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
 * The development machine has no AVX-512, so this kernel is correct by construction: it is the
 * template of gemm_ukernel.h, exercised on AVX2 with this very tile shape and blocking
 * (mt_gemm_ukernel_avx2_12x32, ISA "avx512emu" in the tests), with only the seven vector macros
 * below mapped to their one-to-one _mm512 counterparts. */
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

#else
/* Not x86-64: gemm.c uses the portable kernel only; keep the translation unit non-empty. */
typedef int mt_gemm_avx512_unused;
#endif
