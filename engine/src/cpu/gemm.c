/* gemm.c — the fast backend's float32 GEMM: Goto's algorithm around per-ISA micro-kernels.
 *
 * What: mt_cpu_gemm (gemm.h), C = A @ B for any strides, on 1..n OpenMP threads, with the ISA
 * chosen at run time. Why this shape: a naive triple loop reaches a few GFLOP/s because every
 * FMA waits on memory; the packed algorithm of BLIS/OpenBLAS moves each operand into the cache
 * level where it is reused and feeds the FMA units from registers:
 *
 *   for jc in N step NC:               B panel KC x NC       -> L3 (packed once per jc, pc)
 *     for pc in K step KC:             A block MC x KC       -> L2 (packed once per ic)
 *       pack B[pc:+KC, jc:+NC] into NR-wide micro-panels (row k of a micro-panel contiguous)
 *       for ic in M step MC:
 *         pack A[ic:+MC, pc:+KC] into MR-high micro-panels (column k contiguous)
 *         for jr in NC step NR:        B micro-panel KC x NR -> L1, reused for every ir
 *           for ir in MC step MR:      C tile MR x NR        -> registers (micro-kernel)
 *
 * Packing absorbs every stride (transposed and broadcast views included) and pads the edges
 * with zeros, so the micro-kernel always runs a full tile; a tile that sticks out of C, or a C
 * without unit column stride, is computed into a scratch tile and copied out.
 *
 * Threads. C is cut into a grid of rectangles of whole tiles, one per thread (gemm_grid:
 * columns for square products, rows when N is narrow), and each thread runs the loops above on
 * its rectangle with its own packing buffers: it packs exactly the B micro-panels and A rows it
 * reads, so threads share nothing and never wait for each other until the region ends. (A first
 * design shared the packed B panel and A block, with a barrier per MC block; on this shared
 * 2-core machine a barrier waits a scheduler time slice whenever the other core is busy with
 * another process, and that design fell to 15 GFLOP/s at n = 1024, where this one keeps 67-84
 * and numpy/OpenBLAS 48-68 beside a busy loop on the other core. Sharing nothing costs some
 * duplicated packing: each thread of a column split packs all of A, ~2% of the time at n = 128
 * and less above.)
 * K is never split: each element of C is summed by one thread, KC block after KC block in
 * order, each block inside one micro-kernel call, and KC depends only on K and the ISA, so the
 * result is bit-identical for any thread count (MC, NC, the grid and whether a tile is an edge
 * tile only decide who computes a tile and when, never how).
 *
 * Cancellation. Each thread polls mt_cancel_requested() once per B micro-panel of each A block
 * (about 10 us of work) and leaves its rectangle when the flag is up; the call then returns
 * MT_ERR_CANCELLED with C partly written. No thread waits for another, so leaving alone is
 * safe. */
#include "gemm.h"
#include "gemm_kernels.h"

#include "minitorch/minitorch.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

/* ---- the portable micro-kernel --------------------------------------------------------- */

/* 4 x 8 scalars: the compiler turns each row into two SSE2 vectors on x86-64 (8 accumulators,
 * 2 B vectors and a broadcast: 11 of the 16 xmm registers), or into NEON on other CPUs. No FMA
 * contraction is asked for, so it is the plain multiply-then-add of C. */
#define UK_VEC float
#define UK_VW 1
#define UK_ZERO() 0.0f
#define UK_LOAD(p) (*(p))
#define UK_LOADU(p) (*(p))
#define UK_STOREU(p, v) (*(p) = (v))
#define UK_BCAST(p) (*(p))
#define UK_FMA(a, b, c) ((c) + (a) * (b))
#define UK_ADD(a, b) ((a) + (b))
#define UK_PREFETCH(p) ((void)(p))
#define UK_NAME mt_gemm_ukernel_scalar_4x8
#define UK_MR 4
#define UK_NV 8
#include "gemm_ukernel.h"

/* ---- ISAs and their blocking ----------------------------------------------------------- */

enum gemm_isa_id { GEMM_SCALAR, GEMM_AVX2, GEMM_AVX512, GEMM_AVX512EMU, GEMM_ISA_COUNT };

#define GEMM_MAX_MR 12 /* largest tile in the table below (scratch tile size) */
#define GEMM_MAX_NR 32

struct gemm_isa {
    const char *name;        /* as MT_GEMM_ISA and mt_cpu_gemm_isa spell it */
    int mr, nr;              /* micro-tile */
    int mc, kc, nc;          /* block sizes: multiples of mr, -, nr */
    mt_gemm_ukernel_fn kern; /* NULL where this build has no such kernel */
    /* Optional ISA packers for full micro-panels of a row-major A (csa == 1) and B (csb == 1);
     * NULL: the portable loops below. */
    void (*pack_a_rows)(int64_t kc, const float *src, int64_t rsa, float *dst);
    void (*pack_b_rows)(int64_t kc, const float *src, int64_t rsb, float *dst);
    /* Small products without packing, summing exactly as `kern` does (an FMA chain per KC
     * block); NULL where the kernel sums otherwise. All AVX-512F CPUs also have AVX2 + FMA. */
    void (*direct)(int64_t M, int64_t N, int64_t K, int64_t kc, const float *A, int64_t rsa,
                   int64_t csa, const float *B, int64_t rsb, float *C, int64_t rsc, int64_t csc);
};

/* Blocking (why these numbers):
 * - KC: the packed B micro-panel (KC x NR floats) stays in L1 while MC/MR A micro-panels stream
 *   past it: 256 x 16 x 4 B = 16 KiB of a 32 KiB L1 for AVX2; 192 x 32 x 4 B = 24 KiB for
 *   AVX-512 (32-48 KiB L1 on Skylake-SP .. Sapphire Rapids, Zen 4).
 * - MC: the packed A block (MC x KC) stays in L2: AVX2 144 x 256 x 4 B = 144 KiB of 512 KiB;
 *   AVX-512 240 x 192 x 4 B = 180 KiB of a 1-2 MiB L2.
 * - NC: the packed B panel (KC x NC) sits in L3 and bounds the packing buffer: 4080 x 256 x 4 B
 *   = 4 MiB. AVX2's three are BLIS's values for Haswell/Zen.
 * AVX2's were swept on a Zen 3 core (32 KiB L1d, 512 KiB L2), in GFLOP per second of the
 * thread's CPU time (robust to other load on a shared machine), 1 thread, n = 512/1024/2048:
 * every MC in 72..240 with KC 256 and every KC in 192..512 fell within the run-to-run spread;
 * the micro-kernel and the packing set the speed, not the blocking. AVX-512's follow from the
 * cache sizes above, not from such a sweep. */
static const struct gemm_isa gemm_isas[GEMM_ISA_COUNT] = {
    [GEMM_SCALAR] = {"scalar", 4, 8, 128, 256, 2048, mt_gemm_ukernel_scalar_4x8, NULL, NULL, NULL},
#if defined(__x86_64__)
    [GEMM_AVX2] = {"avx2", 6, 16, 144, 256, 4080, mt_gemm_ukernel_avx2_6x16, mt_gemm_pack_a6_avx2,
                   mt_gemm_pack_b16_avx2, mt_gemm_direct_avx2},
    [GEMM_AVX512] = {"avx512", 12, 32, 240, 192, 3072, mt_gemm_ukernel_avx512_12x32, NULL, NULL,
                     mt_gemm_direct_avx512},
    [GEMM_AVX512EMU] = {"avx512emu", 12, 32, 240, 192, 3072, mt_gemm_ukernel_avx2_12x32, NULL, NULL,
                        mt_gemm_direct_avx2},
#else
    [GEMM_AVX2] = {"avx2", 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL},
    [GEMM_AVX512] = {"avx512", 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL},
    [GEMM_AVX512EMU] = {"avx512emu", 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL},
#endif
};
_Static_assert(sizeof gemm_isas / sizeof gemm_isas[0] == GEMM_ISA_COUNT, "one row per ISA");

/* Below this many multiply-adds (M*N*K) one thread does the whole product: waking the second
 * thread, its duplicated packing and its cold caches cost about what half the work saves.
 * bench/gemm_bench.c built with this set to 0 times square products on 1 thread and on 2: on
 * two idle cores a second thread gains nothing up to n = 96 (and takes a core from whoever
 * else is running), and pays from n = 112 on; 1e6 is about 100^3. Beside a busy loop on the
 * other core, 2 threads lose to 1 up to n ~ 1024: callers should ask only for threads the
 * machine has free. */
/* At most this many multiply-adds (M*N*K) run through the ISA's `direct` routine when it has
 * one: no packing, B read in place. Packing a 100 x 100 B costs about what the product itself
 * does at this size (the training step's 10 x 100 x 100). bench/gemm_bench.c times both
 * routes. */
#ifndef MT_GEMM_DIRECT_MNK
#define MT_GEMM_DIRECT_MNK (64.0 * 64.0 * 64.0)
#endif

#ifndef MT_GEMM_SERIAL_MNK
#define MT_GEMM_SERIAL_MNK 1.0e6
#endif

/* ---- run-time ISA choice --------------------------------------------------------------- */

static bool gemm_isa_supported(enum gemm_isa_id id)
{
    if (id == GEMM_SCALAR) return true;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    /* Cheap after the first call; __builtin_cpu_supports also checks that the OS saves the
     * ymm/zmm state (XGETBV), not only the CPUID bits. */
    __builtin_cpu_init();
    switch (id) {
    case GEMM_AVX2:
    case GEMM_AVX512EMU: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case GEMM_AVX512: return __builtin_cpu_supports("avx512f");
    default: return false;
    }
#else
    return false;
#endif
}

/* Whether a 512-bit FMA is no wider in throughput than a 256-bit one here: AMD's Zen 4 (family
 * 0x19; Zen 3, the same family, has no AVX-512) splits each zmm operation into two 256-bit
 * halves, so its FMA peak is AVX2's, and the AVX2 kernels then win on what they waste less: at
 * the training step's 100 columns a zmm tile computes 3 x 32 + a masked 16 lanes for 100, ymm
 * tiles 6 x 16 + 8. On Zen 4 the FMA peak probe reads the same with either ISA, and the AVX2
 * kernels ran square GEMMs (n = 1024) and the fused training step faster than the AVX-512
 * ones. Zen 5 (family 0x1a) and Intel's AVX-512 cores have full-width units and keep
 * AVX-512. */
static bool avx512_half_rate(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return false;
    const bool amd = b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163; /* "AuthenticAMD" */
    if (!amd || !__get_cpuid(1, &a, &b, &c, &d)) return false;
    const unsigned family = ((a >> 8) & 0xf) + ((a >> 8 & 0xf) == 0xf ? (a >> 20) & 0xff : 0);
    return family == 0x19;
#else
    return false;
#endif
}

static enum gemm_isa_id gemm_isa_best(void)
{
    if (gemm_isa_supported(GEMM_AVX512) && !avx512_half_rate()) return GEMM_AVX512;
    if (gemm_isa_supported(GEMM_AVX2)) return GEMM_AVX2;
    return GEMM_SCALAR;
}

/* The ISA called `name` if this CPU can run it, else (unknown name, NULL, or an ISA the CPU
 * lacks) the best one it can. */
static enum gemm_isa_id gemm_isa_parse(const char *name)
{
    enum gemm_isa_id best = gemm_isa_best();
    if (!name || !*name) return best;
    for (int id = 0; id < GEMM_ISA_COUNT; id++)
        if (strcmp(name, gemm_isas[id].name) == 0 && gemm_isa_supported((enum gemm_isa_id)id))
            return (enum gemm_isa_id)id;
    return best;
}

/* The cached choice (-1: not made yet). Relaxed atomics: racing first calls compute the same
 * value, and a forced value is set by a test between calls. */
static atomic_int gemm_isa_cached = -1;

static const struct gemm_isa *gemm_isa_current(void)
{
    int id = atomic_load_explicit(&gemm_isa_cached, memory_order_relaxed);
    if (id < 0) {
        id = (int)gemm_isa_parse(getenv("MT_GEMM_ISA"));
        atomic_store_explicit(&gemm_isa_cached, id, memory_order_relaxed);
    }
    return &gemm_isas[id];
}

const char *mt_cpu_gemm_isa(void) { return gemm_isa_current()->name; }

void mt_cpu_gemm_force_isa(const char *isa)
{
    int id = (isa && *isa) ? (int)gemm_isa_parse(isa) : -1;
    atomic_store_explicit(&gemm_isa_cached, id, memory_order_relaxed);
}

/* ---- packing ----------------------------------------------------------------------------- */

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }
static inline void swap64(int64_t *a, int64_t *b)
{
    int64_t t = *a;
    *a = *b;
    *b = t;
}

/* Micro-panel of B: rows pc..pc+kc of columns j0..j0+nr (n <= nr of them real, the rest zero)
 * into dst[k*nr + j]. Inlined with constant nr so that the unit-stride copy vectorises. */
static inline void pack_b_panel(int nr, int64_t kc, int64_t n, const float *restrict src,
                                int64_t rsb, int64_t csb, float *restrict dst)
{
    if (n == nr && csb == 1) {
        for (int64_t k = 0; k < kc; k++)
            for (int j = 0; j < nr; j++) dst[k * nr + j] = src[k * rsb + j];
    } else if (rsb == 1) {
        /* B^T views: read along k (contiguous), write strided. */
        for (int64_t j = 0; j < n; j++)
            for (int64_t k = 0; k < kc; k++) dst[k * nr + j] = src[j * csb + k];
        for (int64_t k = 0; k < kc; k++)
            for (int64_t j = n; j < nr; j++) dst[k * nr + j] = 0.0f;
    } else {
        for (int64_t k = 0; k < kc; k++) {
            for (int64_t j = 0; j < n; j++) dst[k * nr + j] = src[k * rsb + j * csb];
            for (int64_t j = n; j < nr; j++) dst[k * nr + j] = 0.0f;
        }
    }
}

/* Micro-panel of A: columns pc..pc+kc of rows i0..i0+mr (m <= mr real) into dst[k*mr + i]. */
static inline void pack_a_panel(int mr, int64_t kc, int64_t m, const float *restrict src,
                                int64_t rsa, int64_t csa, float *restrict dst)
{
    if (m == mr && csa == 1) {
        /* Row-major A: one row at a time, read sequentially, written with stride mr. */
        for (int i = 0; i < mr; i++)
            for (int64_t k = 0; k < kc; k++) dst[k * mr + i] = src[i * rsa + k];
    } else if (m == mr && rsa == 1) {
        for (int64_t k = 0; k < kc; k++)
            for (int i = 0; i < mr; i++) dst[k * mr + i] = src[k * csa + i];
    } else {
        for (int64_t k = 0; k < kc; k++) {
            for (int64_t i = 0; i < m; i++) dst[k * mr + i] = src[i * rsa + k * csa];
            for (int64_t i = m; i < mr; i++) dst[k * mr + i] = 0.0f;
        }
    }
}

/* Dispatch to a copy of the packers specialised for each tile size in the table. */
static void pack_b(int nr, int64_t kc, int64_t n, const float *src, int64_t rsb, int64_t csb,
                   float *dst)
{
    switch (nr) {
    case 8: pack_b_panel(8, kc, n, src, rsb, csb, dst); break;
    case 16: pack_b_panel(16, kc, n, src, rsb, csb, dst); break;
    case 32: pack_b_panel(32, kc, n, src, rsb, csb, dst); break;
    default: pack_b_panel(nr, kc, n, src, rsb, csb, dst); break;
    }
}

static void pack_a(int mr, int64_t kc, int64_t m, const float *src, int64_t rsa, int64_t csa,
                   float *dst)
{
    switch (mr) {
    case 4: pack_a_panel(4, kc, m, src, rsa, csa, dst); break;
    case 6: pack_a_panel(6, kc, m, src, rsa, csa, dst); break;
    case 12: pack_a_panel(12, kc, m, src, rsa, csa, dst); break;
    default: pack_a_panel(mr, kc, m, src, rsa, csa, dst); break;
    }
}

/* ---- the blocked product ---------------------------------------------------------------- */

struct gemm_job {
    const struct gemm_isa *isa;
    int64_t M, N, K;
    int64_t kc; /* this call's KC (balanced, see mt_cpu_gemm) */
    const float *A;
    int64_t rsa, csa;
    const float *B;
    int64_t rsb, csb;
    float *C;
    int64_t rsc, csc;
    int tm, tn;         /* C is cut into tm x tn rectangles of whole tiles, one per thread */
    float *buf;         /* packing buffers: rectangle r's at buf + r * (a_len + b_len) */
    int64_t a_len;      /* floats for one packed A block (mc x kc), a multiple of 16 */
    int64_t b_len;      /* floats for one packed B panel (kc x nc), a multiple of 16 */
    atomic_int skipped; /* a thread saw the cancel flag and left its rectangle unfinished */
};

/* The largest MC (NC) the table allows for `len` rows (columns), balanced: 150 rows run as 2 x
 * 78 rather than 144 + 6 (a thin last block pays the packing and loop overheads on little
 * work); a multiple of `unit`, never above `max`. */
static int64_t gemm_block(int64_t len, int64_t max, int unit)
{
    return round_up(ceil_div(len, ceil_div(len, max)), unit);
}

/* The threads' grid: tm * tn = nt rectangles with the fewest tiles in the largest. Columns
 * first on ties: then each thread's B panel, which every one of its A blocks streams past, is
 * 1/tn of the width (measured a few percent faster than rows at n = 512..2048 on 2 threads; for
 * square C both splits duplicate the same amount of packing, of A or of B). */
static void gemm_grid(int64_t mtiles, int64_t ntiles, int nt, int *tm, int *tn)
{
    int64_t best = -1;
    for (int n = nt; n >= 1; n--) {
        if (nt % n) continue;
        int64_t busiest = ceil_div(mtiles, nt / n) * ceil_div(ntiles, n);
        if (best < 0 || busiest < best) {
            best = busiest;
            *tm = nt / n;
            *tn = n;
        }
    }
}

/* Rectangle r of the grid: C[r0:r1, c0:c1] = A[r0:r1, :] @ B[:, c0:c1] with Goto's loops and
 * r's own packing buffers. No thread reads what another wrote, so the threads never wait for
 * each other. Returns early, leaving `skipped` set, when the cancel flag rises. */
static void gemm_rect(struct gemm_job *g, int r)
{
    const struct gemm_isa *isa = g->isa;
    const int mr = isa->mr, nr = isa->nr;
    const mt_gemm_ukernel_fn kern = isa->kern;
    const int64_t mtiles = ceil_div(g->M, mr), ntiles = ceil_div(g->N, nr);
    const int ti = r / g->tn, tj = r % g->tn;
    const int64_t r0 = mtiles * ti / g->tm * mr, r1 = min64(g->M, mtiles * (ti + 1) / g->tm * mr);
    const int64_t c0 = ntiles * tj / g->tn * nr, c1 = min64(g->N, ntiles * (tj + 1) / g->tn * nr);
    if (r0 >= r1 || c0 >= c1) return;
    const int64_t mc = gemm_block(r1 - r0, isa->mc, mr), nc = gemm_block(c1 - c0, isa->nc, nr);
    float *ap = g->buf + r * (g->a_len + g->b_len), *bp = ap + g->a_len;
    _Alignas(64) float tile[GEMM_MAX_MR * GEMM_MAX_NR];

    for (int64_t jc = c0; jc < c1; jc += nc) {
        const int64_t ncur = min64(nc, c1 - jc), njr = ceil_div(ncur, nr);
        for (int64_t pc = 0; pc < g->K; pc += g->kc) {
            const int64_t kcur = min64(g->kc, g->K - pc);
            for (int64_t q = 0; q < njr; q++) {
                const float *src = g->B + pc * g->rsb + (jc + q * nr) * g->csb;
                const int64_t n = min64(nr, ncur - q * nr);
                if (n == nr && g->csb == 1 && isa->pack_b_rows)
                    isa->pack_b_rows(kcur, src, g->rsb, bp + q * nr * kcur);
                else
                    pack_b(nr, kcur, n, src, g->rsb, g->csb, bp + q * nr * kcur);
            }
            for (int64_t ic = r0; ic < r1; ic += mc) {
                const int64_t mcur = min64(mc, r1 - ic), nir = ceil_div(mcur, mr);
                for (int64_t p = 0; p < nir; p++) {
                    const float *src = g->A + (ic + p * mr) * g->rsa + pc * g->csa;
                    const int64_t m = min64(mr, mcur - p * mr);
                    if (m == mr && g->csa == 1 && isa->pack_a_rows)
                        isa->pack_a_rows(kcur, src, g->rsa, ap + p * mr * kcur);
                    else
                        pack_a(mr, kcur, m, src, g->rsa, g->csa, ap + p * mr * kcur);
                }
                for (int64_t jr = 0; jr < njr; jr++) {
                    /* A poll per MC x KC x NR multiply-adds: ~10 us (AVX2, full blocks). */
                    if (mt_cancel_requested()) {
                        atomic_store_explicit(&g->skipped, 1, memory_order_relaxed);
                        return;
                    }
                    const int64_t j0 = jc + jr * nr, n = min64(nr, c1 - j0);
                    const float *bpan = bp + jr * nr * kcur;
                    for (int64_t ir = 0; ir < nir; ir++) {
                        const int64_t i0 = ic + ir * mr, m = min64(mr, r1 - i0);
                        const float *apan = ap + ir * mr * kcur;
                        float *c = g->C + i0 * g->rsc + j0 * g->csc;
                        if (m == mr && n == nr && g->csc == 1) {
                            kern(kcur, apan, bpan, c, g->rsc, pc > 0);
                            continue;
                        }
                        /* Edge tile or strided C: the same sums, through the scratch tile. */
                        kern(kcur, apan, bpan, tile, nr, 0);
                        for (int64_t i = 0; i < m; i++)
                            for (int64_t j = 0; j < n; j++) {
                                float *cij = c + i * g->rsc + j * g->csc;
                                *cij = pc > 0 ? *cij + tile[i * nr + j] : tile[i * nr + j];
                            }
                    }
                }
            }
        }
    }
}

/* ---- packing buffers ------------------------------------------------------------------- */

/* The packing buffers (the B panel and an A block per thread: at most 4 MiB + 144 KiB per
 * thread for AVX2) are kept per calling thread between calls, freed at its exit. Allocating them
 * per call cost a third of the time at n = 256: glibc serves blocks this size with fresh mmap'd
 * pages (or trims and regrows the heap), and every call then page-faults its buffers in again.
 * Only the calling thread allocates; the OpenMP workers use its buffers. */
struct gemm_scratch {
    float *buf;   /* 64-byte aligned */
    size_t bytes; /* its size */
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static bool scratch_key_ok;

static void scratch_free(void *p)
{
    struct gemm_scratch *s = p;
    free(s->buf);
    free(s);
}

static void scratch_key_init(void)
{
    scratch_key_ok = pthread_key_create(&scratch_key, scratch_free) == 0;
}

/* A buffer of at least `bytes` (a multiple of 64), or NULL when out of memory. `*owned` says
 * that the caller must free it (no per-thread cache could be kept). */
static float *scratch_get(size_t bytes, bool *owned)
{
    pthread_once(&scratch_once, scratch_key_init);
    *owned = false;
    struct gemm_scratch *s = scratch_key_ok ? pthread_getspecific(scratch_key) : NULL;
    if (s && s->bytes >= bytes) return s->buf;
    float *buf = aligned_alloc(64, bytes);
    if (!buf) return NULL;
    if (!scratch_key_ok) {
        *owned = true;
        return buf;
    }
    if (!s) {
        s = malloc(sizeof *s);
        if (!s || pthread_setspecific(scratch_key, s) != 0) {
            free(s);
            *owned = true;
            return buf;
        }
    } else {
        free(s->buf);
    }
    s->buf = buf;
    s->bytes = bytes;
    return buf;
}

/* mt_cpu_gemm and mt_cpu_gemm_unpacked: products of at most direct_mnk multiply-adds take
 * the ISA's direct route. */
static int gemm(int nthreads, int64_t M, int64_t N, int64_t K, const float *A, int64_t rsa,
                int64_t csa, const float *B, int64_t rsb, int64_t csb, float *C, int64_t rsc,
                int64_t csc, double direct_mnk)
{
    if (M <= 0 || N <= 0) return MT_OK;
    if (K <= 0) {
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) C[i * rsc + j * csc] = 0.0f;
        return MT_OK;
    }
    /* A column-major C is the row-major C^T = B^T A^T: swap so that the micro-kernel writes C
     * in place instead of through the scratch tile. Only the shape decides, so the summation
     * order (and determinism) is unchanged. */
    if (csc != 1 && rsc == 1) {
        const float *p = A;
        A = B;
        B = p;
        swap64(&M, &N);
        swap64(&rsa, &csb); /* A' = B^T: (j,k) at B[j*csb + k*rsb] */
        swap64(&csa, &rsb); /* B' = A^T: (k,i) at A[k*csa + i*rsa] */
        swap64(&rsc, &csc);
    }

    const struct gemm_isa *isa = gemm_isa_current();
    if (isa->direct && (double)M * (double)N * (double)K <= direct_mnk) {
        const int64_t kc = gemm_block(K, isa->kc, 1);
        if (csb == 1) {
            isa->direct(M, N, K, kc, A, rsa, csa, B, rsb, C, rsc, csc);
            return MT_OK;
        }
        /* B has no unit column stride (a transposed view, W^T in a backward pass). Either
         * C^T = B^T @ A^T, whose right operand A^T is row-major when rsa == 1 (else A^T is
         * copied, M*K floats), or B copied row-major (K*N floats): the smaller copy. Every
         * product is the same a*b, in the same k order, so the sums are the same. */
        if (rsa == 1) {
            isa->direct(N, M, K, kc, B, csb, rsb, A, csa, C, csc, rsc);
            return MT_OK;
        }
        bool owned;
        const bool pack_at = M <= N;
        float *p = scratch_get((size_t)round_up(K * (pack_at ? M : N), 16) * sizeof(float), &owned);
        if (!p) return MT_ERR_NOMEM;
        if (pack_at) {
            for (int64_t k = 0; k < K; k++)
                for (int64_t i = 0; i < M; i++) p[k * M + i] = A[i * rsa + k * csa];
            isa->direct(N, M, K, kc, B, csb, rsb, p, M, C, csc, rsc);
        } else {
            for (int64_t k = 0; k < K; k++)
                for (int64_t j = 0; j < N; j++) p[k * N + j] = B[k * rsb + j * csb];
            isa->direct(M, N, K, kc, A, rsa, csa, p, N, C, rsc, csc);
        }
        if (owned) free(p);
        return MT_OK;
    }
    struct gemm_job g = {.isa = isa,
                         .M = M,
                         .N = N,
                         .K = K,
                         .A = A,
                         .rsa = rsa,
                         .csa = csa,
                         .B = B,
                         .rsb = rsb,
                         .csb = csb,
                         .C = C,
                         .rsc = rsc,
                         .csc = csc};
    /* Balanced KC: K = 300 runs as 2 x 150 rather than 256 + 44. It depends on K and the ISA
     * only: the one blocking choice that changes the order of the sums. */
    g.kc = gemm_block(K, isa->kc, 1);

    int nt = nthreads < 1 ? 1 : nthreads;
    if ((double)M * (double)N * (double)K < MT_GEMM_SERIAL_MNK) nt = 1;
#ifndef MT_HAVE_OPENMP
    nt = 1;
#endif
    const int64_t mtiles = ceil_div(M, isa->mr), ntiles = ceil_div(N, isa->nr);
    if (nt > mtiles * ntiles) nt = (int)(mtiles * ntiles); /* no empty rectangles */
    g.tm = g.tn = 1;
    gemm_grid(mtiles, ntiles, nt, &g.tm, &g.tn);

    /* One allocation: per rectangle an A block and a B panel, sized for the largest rectangle,
     * each a multiple of 16 floats so that every one starts 64-byte aligned. */
    g.a_len = round_up(min64(isa->mc, ceil_div(mtiles, g.tm) * isa->mr) * g.kc, 16);
    g.b_len = round_up(min64(isa->nc, ceil_div(ntiles, g.tn) * isa->nr) * g.kc, 16);
    bool owned;
    g.buf = scratch_get((size_t)(nt * (g.a_len + g.b_len)) * sizeof(float), &owned);
    if (!g.buf) return MT_ERR_NOMEM;
    atomic_init(&g.skipped, 0);

#ifdef MT_HAVE_OPENMP
    if (nt > 1) {
        /* The team may be smaller than asked (nested regions, thread limits): each thread then
         * takes several rectangles, still each with its own buffers. */
#pragma omp parallel num_threads(nt)
        for (int r = omp_get_thread_num(); r < nt; r += omp_get_num_threads()) gemm_rect(&g, r);
    } else
#endif
        gemm_rect(&g, 0);

    if (owned) free(g.buf);
    return atomic_load_explicit(&g.skipped, memory_order_relaxed) ? MT_ERR_CANCELLED : MT_OK;
}

int mt_cpu_gemm(int nthreads, int64_t M, int64_t N, int64_t K, const float *A, int64_t rsa,
                int64_t csa, const float *B, int64_t rsb, int64_t csb, float *C, int64_t rsc,
                int64_t csc)
{
    return gemm(nthreads, M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, csc, MT_GEMM_DIRECT_MNK);
}

int mt_cpu_gemm_unpacked(int64_t M, int64_t N, int64_t K, const float *A, int64_t rsa, int64_t csa,
                         const float *B, int64_t rsb, float *C, int64_t rsc, int64_t csc)
{
    return gemm(1, M, N, K, A, rsa, csa, B, rsb, 1, C, rsc, csc, INFINITY);
}
