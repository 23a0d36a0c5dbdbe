/* gemm_kernels.h — the micro-kernels behind mt_cpu_gemm, one per ISA (internal to gemm*.c).
 *
 * Each kernel computes one MR x NR tile of C from packed operands; gemm.c owns the loops around
 * it, the packing and the choice of kernel. The kernels live in their own files because those
 * files alone are compiled with -mavx2 -mfma / -mavx512f (CMake, set_source_files_properties):
 * nothing else in the engine may contain instructions the CPU running it might lack, and gemm.c
 * calls them only after __builtin_cpu_supports said yes. */
#ifndef MINITORCH_CPU_GEMM_KERNELS_H
#define MINITORCH_CPU_GEMM_KERNELS_H

#include <stdint.h>

/* acc(i,j) = sum over k = 0..kc-1, in that order, of a[k*MR + i] * b[k*NR + j] (kc >= 1), then
 * c[i*rsc + j] = acc(i,j), or c[i*rsc + j] + acc(i,j) when `accumulate`, for the full tile
 * 0 <= i < MR, 0 <= j < NR. `a` is an MR-high packed micro-panel of A (column k at a + k*MR),
 * `b` an NR-wide packed micro-panel of B (row k at b + k*NR), 64-byte aligned. The sum for one
 * element never depends on the others, so edge tiles computed into a scratch tile and added to
 * C by the caller round exactly like tiles written in place. */
typedef void (*mt_gemm_ukernel_fn)(int64_t kc, const float *a, const float *b, float *c,
                                   int64_t rsc, int accumulate);

/* Portable C, 4 x 8 (gemm.c; SSE2 through the compiler's vectoriser on x86-64). */
void mt_gemm_ukernel_scalar_4x8(int64_t kc, const float *a, const float *b, float *c, int64_t rsc,
                                int accumulate);

#if defined(__x86_64__)
/* AVX2 + FMA, 6 x 16: 12 ymm accumulators (gemm_avx2.c). */
void mt_gemm_ukernel_avx2_6x16(int64_t kc, const float *a, const float *b, float *c, int64_t rsc,
                               int accumulate);
/* The AVX-512 tile shape (12 x 32) on ymm registers, for tests only (gemm_avx2.c): it spills,
 * but lets a machine without AVX-512 run the AVX-512 geometry through the same template. */
void mt_gemm_ukernel_avx2_12x32(int64_t kc, const float *a, const float *b, float *c, int64_t rsc,
                                int accumulate);
/* Packing for the 6 x 16 tile (gemm_avx2.c), for full micro-panels of row-major operands:
 * dst[k*6 + i] = src[i*rsa + k] (6 rows of A with unit column stride), and
 * dst[k*16 + j] = src[k*rsb + j] (16 columns of B with unit column stride; dst 32-byte aligned).
 */
void mt_gemm_pack_a6_avx2(int64_t kc, const float *src, int64_t rsa, float *dst);
void mt_gemm_pack_b16_avx2(int64_t kc, const float *src, int64_t rsb, float *dst);
/* Small products without packing (gemm_avx2.c): C (M,N) = A @ B with B row-major (row k at
 * B + k*rsb, unit column stride), A and C any strides, K summed in blocks of kc (each block
 * a chain from zero added to C after the first): per element the sums of the packed path with
 * the same kc, so the two paths give the same bits. */
void mt_gemm_direct_avx2(int64_t M, int64_t N, int64_t K, int64_t kc, const float *A, int64_t rsa,
                         int64_t csa, const float *B, int64_t rsb, float *C, int64_t rsc,
                         int64_t csc);
/* AVX-512F, 12 x 32: 24 zmm accumulators (gemm_avx512.c). */
void mt_gemm_ukernel_avx512_12x32(int64_t kc, const float *a, const float *b, float *c, int64_t rsc,
                                  int accumulate);
/* The direct product of mt_gemm_direct_avx2 on zmm registers, 12 x 32 tiles (gemm_avx512.c). */
void mt_gemm_direct_avx512(int64_t M, int64_t N, int64_t K, int64_t kc, const float *A, int64_t rsa,
                           int64_t csa, const float *B, int64_t rsb, float *C, int64_t rsc,
                           int64_t csc);
#endif

#endif
