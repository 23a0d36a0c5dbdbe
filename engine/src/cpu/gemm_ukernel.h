/* gemm_ukernel.h — the GEMM micro-kernel, written once and instantiated per ISA.
 *
 * Not an ordinary header: each gemm_<isa>.c defines the macros below and includes it, once per
 * kernel, so the AVX-512 kernel (which a machine without AVX-512 cannot run) is the same source
 * as the AVX2 kernel that the tests and benchmarks exercise everywhere; only the vector type
 * and seven one-instruction macros differ. The contract is mt_gemm_ukernel_fn's (gemm_kernels.h).
 *
 * The tile: MR rows of C, each NV vectors of VW floats (NR = NV*VW columns), held in MR*NV
 * accumulator registers. Per k the kernel loads NV vectors of the packed B row and, for each of
 * the MR rows, broadcasts one element of the packed A column and issues NV FMAs. Each
 * accumulator is one chain over k in increasing order, so every element of C is summed in a
 * fixed order (the determinism mt_cpu_gemm promises). The loops have constant bounds and are
 * unrolled by pragma so that the compiler keeps `acc` in registers (checked in the assembly:
 * no spills for the AVX2 6x16 and AVX-512 12x32 instantiations).
 *
 * Macros the includer defines (they are #undef'd at the end):
 *   UK_NAME        function name            UK_MR, UK_NV, UK_VW   tile shape
 *   UK_VEC         vector type              UK_ZERO()             all-zero vector
 *   UK_LOAD(p)     aligned load             UK_LOADU(p), UK_STOREU(p, v)   unaligned
 *   UK_BCAST(p)    broadcast *p             UK_FMA(a, b, c)       a*b + c, one rounding
 *   UK_ADD(a, b)   a + b
 *   UK_PREFETCH(p) optional: prefetch the line at p into L1 (may be empty) */
#include <stdint.h>

#if defined(__clang__)
#define UK_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define UK_UNROLL _Pragma("GCC unroll 32")
#else
#define UK_UNROLL
#endif

void UK_NAME(int64_t kc, const float *restrict a, const float *restrict b, float *restrict c,
             int64_t rsc, int accumulate)
{
    UK_VEC acc[UK_MR][UK_NV];
    UK_UNROLL
    for (int i = 0; i < UK_MR; i++) {
        UK_UNROLL
        for (int v = 0; v < UK_NV; v++) acc[i][v] = UK_ZERO();
    }
    /* C is touched only after the k loop: asking for its lines now hides that miss behind
     * kc iterations of arithmetic. */
    UK_UNROLL
    for (int i = 0; i < UK_MR; i++) {
        UK_PREFETCH(c + i * rsc);
        UK_PREFETCH(c + i * rsc + UK_NV * UK_VW - 1);
    }
    /* Unrolled 4 deep by the compiler: fewer loop-counter updates between the FMAs. */
#if defined(__clang__)
#pragma unroll 4
#elif defined(__GNUC__)
#pragma GCC unroll 4
#endif
    for (int64_t k = 0; k < kc; k++) {
        UK_VEC bv[UK_NV];
        UK_UNROLL
        for (int v = 0; v < UK_NV; v++) bv[v] = UK_LOAD(b + v * UK_VW);
        UK_UNROLL
        for (int i = 0; i < UK_MR; i++) {
            UK_VEC av = UK_BCAST(a + i);
            UK_UNROLL
            for (int v = 0; v < UK_NV; v++) acc[i][v] = UK_FMA(av, bv[v], acc[i][v]);
        }
        a += UK_MR;
        b += UK_NV * UK_VW;
    }
    UK_UNROLL
    for (int i = 0; i < UK_MR; i++) {
        UK_UNROLL
        for (int v = 0; v < UK_NV; v++) {
            float *p = c + i * rsc + v * UK_VW;
            UK_VEC r = acc[i][v];
            if (accumulate) r = UK_ADD(UK_LOADU(p), r);
            UK_STOREU(p, r);
        }
    }
}

#undef UK_UNROLL
#undef UK_NAME
#undef UK_MR
#undef UK_NV
#undef UK_VW
#undef UK_VEC
#undef UK_ZERO
#undef UK_LOAD
#undef UK_LOADU
#undef UK_STOREU
#undef UK_BCAST
#undef UK_FMA
#undef UK_ADD
#undef UK_PREFETCH
