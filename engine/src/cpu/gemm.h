/* gemm.h — the fast backend's single-precision matrix-multiply core (internal to the engine).
 *
 * mt_cpu_gemm is a packed, register-blocked GEMM in the style of BLIS/OpenBLAS (Goto's
 * algorithm): B is packed in KC x NC panels of NR-wide micro-panels, A in MC x KC blocks of
 * MR-high micro-panels, and a micro-kernel keeps an MR x NR tile of C in vector registers.
 * The instruction set (AVX-512F, AVX2+FMA or portable C) is picked at run time on the CPU
 * that runs it, so a binary built on one machine runs on another; see gemm.c for the loops
 * and the measured blocking, gemm_ukernel.h for the micro-kernel. mt_matmul (ops) calls this
 * for every 2-D slice of a batched matmul; strided operands need no copy first. */
#ifndef MINITORCH_CPU_GEMM_H
#define MINITORCH_CPU_GEMM_H

#include <stdint.h>

/* C (M,N) = A (M,K) @ B (K,N), single precision, C overwritten (not accumulated).
 * Element (i,k) of A is A[i*rsa + k*csa]; (k,j) of B is B[k*rsb + j*csb]; (i,j) of C is
 * C[i*rsc + j*csc]. Any strides (including 0 for broadcast and transposed views) are allowed:
 * packing absorbs them. K == 0 gives C = 0. Runs on up to `nthreads` OpenMP threads (1 = serial,
 * the caller decides; small problems should still be run serially by the caller's choice
 * of nthreads — but you also fall back to serial when M*N*K is too small for a parallel region
 * to pay, threshold measured and documented).
 * Returns 0 (MT_OK), or MT_ERR_NOMEM when a packing buffer cannot be allocated, or
 * MT_ERR_CANCELLED when mt_cancel_requested() became true (poll it at least once per packed
 * block, i.e. every ~1 ms of work; C is then partially written).
 * Deterministic: each element of C is computed by one thread in a fixed order that does not
 * depend on nthreads, so results are bit-identical for 1 and 2 threads.
 *
 * (The serial threshold is MT_GEMM_SERIAL_MNK in gemm.c, with the measurement behind it.
 * Different ISAs sum in different orders, so results are bit-identical only for one ISA.
 * C must not overlap A or B, and distinct (i,j) must address distinct elements of C.
 * The packing buffers are kept for the next call, per calling thread, and freed when that
 * thread exits: at most about 4 MiB + 150 KiB per thread used.) */
int mt_cpu_gemm(int nthreads, int64_t M, int64_t N, int64_t K, const float *A, int64_t rsa,
                int64_t csa, const float *B, int64_t rsb, int64_t csb, float *C, int64_t rsc,
                int64_t csc);

/* mt_cpu_gemm on one thread for a B with unit column stride that its caller has just written
 * and that feeds few rows of A (an im2col block times a convolution's weight): B is read in
 * place at every size, not packed, where the ISA has that route; the same sums (and bits) as
 * mt_cpu_gemm's. */
int mt_cpu_gemm_unpacked(int64_t M, int64_t N, int64_t K, const float *A, int64_t rsa, int64_t csa,
                         const float *B, int64_t rsb, float *C, int64_t rsc, int64_t csc);

/* The ISA the gemm uses on this CPU right now ("avx512", "avx2" or "scalar"). Static string.
 * (Also "avx512emu" while a test forces it, see below.) */
const char *mt_cpu_gemm_isa(void);

/* For tests and benchmarks: use `isa` from now on instead of the automatic choice.
 *
 * The automatic choice is the best ISA the CPU supports (__builtin_cpu_supports, which also
 * checks that the OS saves the vector registers; AVX2 rather than AVX-512 where a 512-bit FMA is
 * no faster than a 256-bit one, see gemm.c), replaced by the environment variable
 * MT_GEMM_ISA=scalar|avx2|avx512 when that is set (to any ISA the CPU runs). It is made once and
 * cached. mt_cpu_gemm_force_isa takes the same names and overrides both; NULL or "" returns to the
 * automatic choice. A name the CPU cannot run, or an unknown name, gives the best available ISA,
 * never a crash. "avx512emu" is a test stand-in for machines without AVX-512: the AVX-512
 * path's blocking and tile shape (12 x 32) with the same micro-kernel source instantiated on
 * AVX2 vectors, so the driver and the template are exercised with that geometry here.
 * A call already running keeps the ISA it started with. */
void mt_cpu_gemm_force_isa(const char *isa);

#endif
