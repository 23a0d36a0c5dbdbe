/* fast_prog_avx512.c — the fast backend's user-function kernel (cpu/fast_prog.h) built for
 * AVX-512 (CMake gives this file -mavx512f; fast.c calls it only where the CPU has AVX-512F).
 *
 * Why a build of its own: a step of a program costs a dispatch per chunk (the step's switch,
 * its operands' addresses) besides its arithmetic, and the chunk is as long as the registers
 * allow: AVX2's 16 registers hold 8 vectors of 8 floats, AVX-512's 32 hold 16 of 16, four times
 * as many elements per dispatch. Its exp, log, sigmoid and tanh are the AVX2 table's (the
 * built-in maps' bits), as the AVX2 kernel's are. */
#if defined(__x86_64__)

#include "fast.h"
#include "scalar.h"

#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define FK_PROG_MAP(op, n, a, d) mt_fast_kernels_avx2.map(op, n, a, d)
#include "fast_prog.h"

void mt_fast_prog_avx512(const struct mt_fast_prog *fp, int64_t n, const float *const *args,
                         float *bufs, float *out, bool nt)
{
    fk_prog(fp, n, args, bufs, out, nt);
}

#else
/* Not x86-64: nothing to build. */
typedef int mt_fast_prog_avx512_unused;
#endif
