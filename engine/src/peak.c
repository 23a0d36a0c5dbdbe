/* peak.c — what this machine can do, measured: the FMA rate and the read bandwidth.
 *
 * The FMA probe runs 12 independent chains of vector FMAs on registers per thread (enough to
 * keep 2 FMA pipes busy through a 4-5 cycle latency) with the instruction set the GEMM uses;
 * the read probe sums 64 MiB with 16 partial sums per thread. mt_machine_peak measures both
 * once per process, at its first call, on all threads: the language's diagnostics then say
 * what share of the machine an op reached. The benchmarks call the probes directly. */
#include "internal.h"

#include "cpu/gemm.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static volatile float probe_sink; /* keeps the chains' results alive */

#if defined(__x86_64__)
/* 12 chains x 8 lanes x 2 flops per iteration; only this function uses AVX2+FMA, and it is
 * called after __builtin_cpu_supports. Returns flops done. */
__attribute__((target("avx2,fma"))) static double probe_avx2(long iters)
{
    __m256 x = _mm256_set1_ps(0.999999f), y = _mm256_set1_ps(1e-7f);
    /* Distinct starting values: identical chains would be merged by the compiler (CSE). */
    __m256 c0 = _mm256_set1_ps(0.0f), c1 = _mm256_set1_ps(1.0f), c2 = _mm256_set1_ps(2.0f),
           c3 = _mm256_set1_ps(3.0f), c4 = _mm256_set1_ps(4.0f), c5 = _mm256_set1_ps(5.0f),
           c6 = _mm256_set1_ps(6.0f), c7 = _mm256_set1_ps(7.0f), c8 = _mm256_set1_ps(8.0f),
           c9 = _mm256_set1_ps(9.0f), c10 = _mm256_set1_ps(10.0f), c11 = _mm256_set1_ps(11.0f);
    for (long i = 0; i < iters; i++) {
        c0 = _mm256_fmadd_ps(c0, x, y);
        c1 = _mm256_fmadd_ps(c1, x, y);
        c2 = _mm256_fmadd_ps(c2, x, y);
        c3 = _mm256_fmadd_ps(c3, x, y);
        c4 = _mm256_fmadd_ps(c4, x, y);
        c5 = _mm256_fmadd_ps(c5, x, y);
        c6 = _mm256_fmadd_ps(c6, x, y);
        c7 = _mm256_fmadd_ps(c7, x, y);
        c8 = _mm256_fmadd_ps(c8, x, y);
        c9 = _mm256_fmadd_ps(c9, x, y);
        c10 = _mm256_fmadd_ps(c10, x, y);
        c11 = _mm256_fmadd_ps(c11, x, y);
    }
    __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)),
                             _mm256_add_ps(_mm256_add_ps(c4, c5), _mm256_add_ps(c6, c7)));
    s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(c8, c9), _mm256_add_ps(c10, c11)));
    float out[8];
    _mm256_storeu_ps(out, s);
    probe_sink = out[0];
    return (double)iters * 12 * 8 * 2;
}

__attribute__((target("avx512f"))) static double probe_avx512(long iters)
{
    __m512 x = _mm512_set1_ps(0.999999f), y = _mm512_set1_ps(1e-7f);
    /* Distinct starting values: identical chains would be merged by the compiler (CSE). */
    __m512 c0 = _mm512_set1_ps(0.0f), c1 = _mm512_set1_ps(1.0f), c2 = _mm512_set1_ps(2.0f),
           c3 = _mm512_set1_ps(3.0f), c4 = _mm512_set1_ps(4.0f), c5 = _mm512_set1_ps(5.0f),
           c6 = _mm512_set1_ps(6.0f), c7 = _mm512_set1_ps(7.0f), c8 = _mm512_set1_ps(8.0f),
           c9 = _mm512_set1_ps(9.0f), c10 = _mm512_set1_ps(10.0f), c11 = _mm512_set1_ps(11.0f);
    for (long i = 0; i < iters; i++) {
        c0 = _mm512_fmadd_ps(c0, x, y);
        c1 = _mm512_fmadd_ps(c1, x, y);
        c2 = _mm512_fmadd_ps(c2, x, y);
        c3 = _mm512_fmadd_ps(c3, x, y);
        c4 = _mm512_fmadd_ps(c4, x, y);
        c5 = _mm512_fmadd_ps(c5, x, y);
        c6 = _mm512_fmadd_ps(c6, x, y);
        c7 = _mm512_fmadd_ps(c7, x, y);
        c8 = _mm512_fmadd_ps(c8, x, y);
        c9 = _mm512_fmadd_ps(c9, x, y);
        c10 = _mm512_fmadd_ps(c10, x, y);
        c11 = _mm512_fmadd_ps(c11, x, y);
    }
    __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
                             _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7)));
    s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(c8, c9), _mm512_add_ps(c10, c11)));
    probe_sink = _mm512_reduce_add_ps(s);
    return (double)iters * 12 * 16 * 2;
}
#endif

/* Flops of one probe run with the gemm's ISA (0 where there is no vector probe). */
static double probe_once(const char *isa, long iters)
{
#if defined(__x86_64__)
    if (strcmp(isa, "avx512") == 0) return probe_avx512(iters);
    if (strcmp(isa, "avx2") == 0) return probe_avx2(iters);
#endif
    (void)isa;
    (void)iters;
    return 0.0;
}

double mt_probe_fma_gflops(const char *isa, int nt, int runs)
{
    const long iters = 20 * 1000 * 1000; /* ~0.1 s per thread at 100 GFLOP/s */
    double g[7];
    for (int r = 0; r < runs; r++) {
        double flops = 0.0, t0 = mt_now_s();
#ifdef MT_HAVE_OPENMP
#pragma omp parallel num_threads(nt) reduction(+ : flops)
        flops += probe_once(isa, iters);
#else
        (void)nt;
        flops = probe_once(isa, iters);
#endif
        g[r] = flops / (mt_now_s() - t0) * 1e-9;
    }
    qsort(g, (size_t)runs, sizeof g[0], cmp_double);
    return g[runs / 2];
}

double mt_probe_read_gbps(int nt, int runs)
{
    const int64_t n = (int64_t)16 << 20; /* 64 MiB of float32: far past the caches */
    /* huge pages, as the engine asks for big tensors (cpu/host.c): with 4 KiB pages the probe
     * would read well below what the engine's own ops reach */
    float *a = aligned_alloc((size_t)2 << 20, (size_t)n * sizeof *a);
    if (!a) return 0.0;
#ifdef MADV_HUGEPAGE
    madvise(a, (size_t)n * sizeof *a, MADV_HUGEPAGE);
#endif
    for (int64_t i = 0; i < n; i++) a[i] = 1.0f;
    double best = 0.0;
    for (int r = 0; r < runs; r++) {
        float total = 0.0f;
        double t0 = mt_now_s();
#ifdef MT_HAVE_OPENMP
#pragma omp parallel num_threads(nt) reduction(+ : total)
#endif
        {
            int64_t lo = 0, hi = n;
#ifdef MT_HAVE_OPENMP
            int k = omp_get_num_threads(), id = omp_get_thread_num();
            lo = n * id / k;
            hi = n * (id + 1) / k;
#endif
            float acc[16] = {0};
            int64_t i = lo;
            for (; i + 16 <= hi; i += 16)
                for (int j = 0; j < 16; j++) acc[j] += a[i + j];
            for (; i < hi; i++) acc[0] += a[i];
            for (int j = 0; j < 16; j++) total += acc[j];
        }
        double gbps = (double)n * sizeof *a / (mt_now_s() - t0) * 1e-9;
        probe_sink = total;
        if (gbps > best) best = gbps;
    }
    (void)nt;
    free(a);
    return best;
}

static double peak_read, peak_fma;
static pthread_once_t peak_once = PTHREAD_ONCE_INIT;

static void measure_peaks(void)
{
    int nt = 1;
#ifdef MT_HAVE_OPENMP
    nt = omp_get_max_threads();
#endif
    /* a read of 64 MiB takes a few ms: the best of 7 outlasts a neighbour's burst on a
     * shared machine (3 read 8-25 GB/s under a parallel build where ops reached 28) */
    peak_read = mt_probe_read_gbps(nt, 7);
    peak_fma = mt_probe_fma_gflops(mt_cpu_gemm_isa(), nt, 1);
}

void mt_machine_peak(double *read_gbps, double *fma_gflops)
{
    pthread_once(&peak_once, measure_peaks);
    *read_gbps = peak_read;
    *fma_gflops = peak_fma;
}
