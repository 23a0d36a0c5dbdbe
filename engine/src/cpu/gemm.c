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
 * Threads. The threads share the packed B panel (each packs a slice of its micro-panels, then a
 * barrier) and split C into a grid of rectangles of whole tiles (gemm_grid: rows for square
 * products, columns when M is short); each thread packs its own A blocks for its rows and
 * computes its rectangle with no further synchronisation. That is two barriers per (jc, pc)
 * step: 16 for n = 2048. Fewer barriers matter on the shared 2-core machines this runs on: a
 * barrier waits for the slowest thread, and a thread descheduled by another process costs a
 * time slice per barrier (a first design with shared A blocks and a barrier per MC block ran
 * 20-40x slower whenever another process was busy).
 * K is never split: each element of C is summed by one thread, KC block after KC block in
 * order, each block inside one micro-kernel call, and KC depends only on K and the ISA, so the
 * result is bit-identical for any thread count (MC, NC and the grid only decide who computes a
 * tile and when, never how).
 *
 * Cancellation. Thread 0 polls mt_cancel_requested() before each B panel and publishes the
 * answer in a slot that all threads read after the barrier, so they all leave at the same step
 * (a thread leaving alone would hang the others in the next barrier); while computing, each
 * thread also polls once per B micro-panel (about 10 us of work) and skips the rest of its
 * rectangle, which the next step's decision or the final status reports. */
#include "gemm.h"
#include "gemm_kernels.h"

#include "minitorch/minitorch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif

/* All threads of the team wait here (an orphaned barrier: called from inside the parallel
 * region of mt_cpu_gemm). */
static void gemm_barrier(void)
{
#ifdef MT_HAVE_OPENMP
#pragma omp barrier
#endif
}

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
};

/* Blocking (why these numbers):
 * - KC: the packed B micro-panel (KC x NR floats) stays in L1 while MC/MR A micro-panels stream
 *   past it: 256 x 16 x 4 B = 16 KiB of a 32 KiB L1 for AVX2; 192 x 32 x 4 B = 24 KiB for
 *   AVX-512 (32-48 KiB L1 on Skylake-SP .. Sapphire Rapids, Zen 4).
 * - MC: the packed A block (MC x KC) stays in L2: AVX2 MC=... (measured, see below);
 *   AVX-512 240 x 192 x 4 B = 180 KiB of a 1-2 MiB L2.
 * - NC: the packed B panel (KC x NC) sits in L3 and bounds the packing buffer: 4080 x 256 x 4 B
 *   = 4 MiB. BLIS uses the same NC for Haswell/Zen.
 * Measured on the development machine (AMD EPYC Zen 3, 32 KiB L1d, 512 KiB L2 per core) with
 * bench/gemm_bench.c; see the numbers at GEMM_AVX2 below. */
static const struct gemm_isa gemm_isas[GEMM_ISA_COUNT] = {
    [GEMM_SCALAR] = {"scalar", 4, 8, 128, 256, 2048, mt_gemm_ukernel_scalar_4x8, NULL, NULL},
#if defined(__x86_64__)
    [GEMM_AVX2] = {"avx2", 6, 16, 144, 256, 4080, mt_gemm_ukernel_avx2_6x16,
                   mt_gemm_pack_a6_avx2, mt_gemm_pack_b16_avx2},
    [GEMM_AVX512] = {"avx512", 12, 32, 240, 192, 3072, mt_gemm_ukernel_avx512_12x32, NULL, NULL},
    [GEMM_AVX512EMU] = {"avx512emu", 12, 32, 240, 192, 3072, mt_gemm_ukernel_avx2_12x32, NULL,
                        NULL},
#else
    [GEMM_AVX2] = {"avx2", 0, 0, 0, 0, 0, NULL, NULL, NULL},
    [GEMM_AVX512] = {"avx512", 0, 0, 0, 0, 0, NULL, NULL, NULL},
    [GEMM_AVX512EMU] = {"avx512emu", 0, 0, 0, 0, 0, NULL, NULL, NULL},
#endif
};

/* Below this many multiply-adds (M*N*K) one thread does the whole product. Measured with
 * bench/gemm_bench.c on the development machine: ... */
#ifndef MT_GEMM_SERIAL_MNK
#define MT_GEMM_SERIAL_MNK (64.0 * 64.0 * 64.0)
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

static enum gemm_isa_id gemm_isa_best(void)
{
    if (gemm_isa_supported(GEMM_AVX512)) return GEMM_AVX512;
    if (gemm_isa_supported(GEMM_AVX2)) return GEMM_AVX2;
    return GEMM_SCALAR;
}

/* `name` if the CPU runs it (and, unless `any`, it is not above the best one), else the best. */
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
    int64_t mc, kc, nc; /* this call's block sizes (KC balanced, see mt_cpu_gemm) */
    const float *A;
    int64_t rsa, csa;
    const float *B;
    int64_t rsb, csb;
    float *C;
    int64_t rsc, csc;
    float *ap; /* packed A blocks, one per thread, ap_len floats apart (mc x kc) */
    int64_t ap_len;
    float *bp;          /* packed B panel (kc x nc), shared */
    int stop[2];        /* thread 0's cancel decision for (jc, pc) step s, in slot s & 1 */
    atomic_int skipped; /* a thread saw the cancel flag and skipped part of its tiles */
};

/* The threads as a tm x tn grid over C's tiles (tm * tn = nt): the factorisation that gives the
 * fewest tiles to the busiest thread, rows first on ties (a row split packs each A row once; a
 * column split has every thread of a row pack the same A rows). A function of the shape and
 * nt only; it decides who computes a tile, never how. */
static void gemm_grid(const struct gemm_job *g, int nt, int *tm, int *tn)
{
    const int64_t mtiles = ceil_div(g->M, g->isa->mr);
    const int64_t ntiles = ceil_div(min64(g->N, g->nc), g->isa->nr);
    int64_t best = -1;
    for (int m = nt; m >= 1; m--) {
        if (nt % m) continue;
        int64_t busiest = ceil_div(mtiles, m) * ceil_div(ntiles, nt / m);
        if (best < 0 || busiest < best) {
            best = busiest;
            *tm = m;
            *tn = nt / m;
        }
    }
}

/* Thread `tid` of `nt`: every thread runs the same (jc, pc) loop and meets the same barriers,
 * two per step: before the shared B panel is overwritten and after it is packed. Between them
 * each thread works alone on its rectangle of C, packing its own A blocks. */
static void gemm_thread(struct gemm_job *g, int tid, int nt)
{
    const struct gemm_isa *isa = g->isa;
    const int mr = isa->mr, nr = isa->nr;
    const mt_gemm_ukernel_fn kern = isa->kern;
    _Alignas(64) float tile[GEMM_MAX_MR * GEMM_MAX_NR];
    float *ap = g->ap + tid * g->ap_len;
    int tm = 1, tn = 1;
    gemm_grid(g, nt, &tm, &tn);
    /* This thread's rows: a contiguous range of whole MR tiles. */
    const int ti = tid / tn, tj = tid % tn;
    const int64_t mtiles = ceil_div(g->M, mr);
    const int64_t r0 = mtiles * ti / tm * mr, r1 = min64(g->M, mtiles * (ti + 1) / tm * mr);
    /* Its MC blocks, balanced (150 rows run as 2 x 78, not 144 + 6); at most g->mc. */
    const int64_t mc = r1 > r0 ? round_up(ceil_div(r1 - r0, ceil_div(r1 - r0, g->mc)), mr) : mr;
    int64_t step = 0; /* (jc, pc) steps so far: the same count on every thread */

    for (int64_t jc = 0; jc < g->N; jc += g->nc) {
        const int64_t ncur = min64(g->nc, g->N - jc);
        const int64_t njr = ceil_div(ncur, nr);
        /* This thread's columns of the panel: whole NR micro-panels. */
        const int64_t q0 = njr * tj / tn, q1 = njr * (tj + 1) / tn;
        for (int64_t pc = 0; pc < g->K; pc += g->kc, step++) {
            const int64_t kcur = min64(g->kc, g->K - pc);
            if (nt > 1 && step > 0) gemm_barrier(); /* all done with the previous B panel */
            if (tid == 0)
                g->stop[step & 1] = mt_cancel_requested() ||
                                    atomic_load_explicit(&g->skipped, memory_order_relaxed);
            for (int64_t q = njr * tid / nt; q < njr * (tid + 1) / nt; q++)
            {
                const float *src = g->B + pc * g->rsb + (jc + q * nr) * g->csb;
                const int64_t n = min64(nr, ncur - q * nr);
                if (n == nr && g->csb == 1 && isa->pack_b_rows)
                    isa->pack_b_rows(kcur, src, g->rsb, g->bp + q * nr * kcur);
                else
                    pack_b(nr, kcur, n, src, g->rsb, g->csb, g->bp + q * nr * kcur);
            }
            /* B panel complete. stop[step & 1] is written again two steps later, after every
             * thread has passed the next barrier, so all threads read the same decision. */
            if (nt > 1) gemm_barrier();
            if (g->stop[step & 1]) return;

            for (int64_t ic = r0; ic < r1; ic += mc) {
                const int64_t mcur = min64(mc, r1 - ic);
                const int64_t nir = ceil_div(mcur, mr);
                if (q0 >= q1) break;
                for (int64_t p = 0; p < nir; p++)
                {
                    const float *src = g->A + (ic + p * mr) * g->rsa + pc * g->csa;
                    const int64_t m = min64(mr, mcur - p * mr);
                    if (m == mr && g->csa == 1 && isa->pack_a_rows)
                        isa->pack_a_rows(kcur, src, g->rsa, ap + p * mr * kcur);
                    else
                        pack_a(mr, kcur, m, src, g->rsa, g->csa, ap + p * mr * kcur);
                }
                for (int64_t jr = q0; jr < q1; jr++) {
                    /* ~10 us of work per poll (KC x NR x MC multiply-adds). */
                    if (mt_cancel_requested()) {
                        atomic_store_explicit(&g->skipped, 1, memory_order_relaxed);
                        ic = r1;
                        break;
                    }
                    const int64_t j0 = jc + jr * nr;
                    const int64_t n = min64(nr, g->N - j0);
                    const float *bpan = g->bp + jr * nr * kcur;
                    for (int64_t ir = 0; ir < nir; ir++) {
                        const int64_t i0 = ic + ir * mr;
                        const int64_t m = min64(mr, g->M - i0);
                        const float *apan = ap + ir * mr * kcur;
                        float *c = g->C + i0 * g->rsc + j0 * g->csc;
                        if (m == mr && n == nr && g->csc == 1) {
                            kern(kcur, apan, bpan, c, g->rsc, pc > 0);
                            continue;
                        }
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

/* The packing buffers (2 A blocks + the B panel: up to 4.3 MiB for AVX2) are kept per calling
 * thread between calls, freed at its exit. Allocating them per call cost a third of the time
 * at n = 256: glibc serves blocks this size with fresh mmap'd pages (or trims and regrows the
 * heap), and every call then page-faults its buffers in again (measured 45 -> 75 GFLOP/s). Only
 * the calling thread allocates; the OpenMP workers use its buffers. */
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

int mt_cpu_gemm(int nthreads, int64_t M, int64_t N, int64_t K, const float *A, int64_t rsa,
                int64_t csa, const float *B, int64_t rsb, int64_t csb, float *C, int64_t rsc,
                int64_t csc)
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
        int64_t t = M;
        M = N;
        N = t;
        const float *p = A;
        A = B;
        B = p;
        t = rsa;
        int64_t t2 = csa;
        rsa = csb;
        csa = rsb;
        rsb = t2;
        csb = t;
        rsc = csc;
        csc = 1;
    }

    struct gemm_job g = {.isa = gemm_isa_current(),
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
    const struct gemm_isa *isa = g.isa;
    /* Balanced blocks: K = 300 runs as 2 x 150 rather than 256 + 44 (a short last block pays
     * the C update and loop overheads on little work). KC depends on K and the ISA only. */
    /* TUNING-ONLY */ struct gemm_isa tmp = *isa;
    if (getenv("T_MC")) tmp.mc = atoi(getenv("T_MC"));
    if (getenv("T_KC")) tmp.kc = atoi(getenv("T_KC"));
    if (getenv("T_NC")) tmp.nc = atoi(getenv("T_NC"));
    isa = &tmp;
    g.kc = ceil_div(K, ceil_div(K, isa->kc));
    g.mc = min64(isa->mc, round_up(M, isa->mr));
    g.nc = round_up(ceil_div(N, ceil_div(N, isa->nc)), isa->nr);

    /* No more threads than tiles of C (each would get an A buffer and nothing to do). */
    const int64_t tiles = ceil_div(M, isa->mr) * ceil_div(min64(N, g.nc), isa->nr);
    int nt = nthreads < 1 ? 1 : nthreads;
    if (nt > tiles) nt = (int)tiles;
    if ((double)M * (double)N * (double)K < MT_GEMM_SERIAL_MNK) nt = 1;
#ifndef MT_HAVE_OPENMP
    nt = 1;
#endif

    /* One buffer: the B panel, then an A block per thread, each a multiple of 16 floats (64
     * bytes) so that every one starts aligned. */
    const int64_t b_len = round_up(g.nc * g.kc, 16);
    g.ap_len = round_up(g.mc * g.kc, 16);
    bool owned;
    float *buf = scratch_get((size_t)(b_len + nt * g.ap_len) * sizeof(float), &owned);
    if (!buf) return MT_ERR_NOMEM;
    g.bp = buf;
    g.ap = buf + b_len;
    atomic_init(&g.skipped, 0);

#ifdef MT_HAVE_OPENMP
    if (nt > 1) {
#pragma omp parallel num_threads(nt)
        gemm_thread(&g, omp_get_thread_num(), omp_get_num_threads());
    } else
#endif
        gemm_thread(&g, 0, 1);

    if (owned) free(buf);
    if (g.stop[0] || g.stop[1] || atomic_load_explicit(&g.skipped, memory_order_relaxed))
        return MT_ERR_CANCELLED;
    return MT_OK;
}
