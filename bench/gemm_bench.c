/* gemm_bench.c — GFLOP/s of the fast backend's GEMM beside numpy/OpenBLAS and the FMA peak.
 *
 * Usage: mt_gemm_bench [--numpy PYTHON] [--isa scalar|avx2|avx512] [--sizes 128,256,...]
 *                      [--threads N]   (only N threads instead of 1, 2 and all)
 *
 * For n = 128 .. 2048 (square, row-major, float32) and 1 and 2 threads it prints the median
 * GFLOP/s of mt_cpu_gemm over several samples with the min-max spread. With --numpy it runs
 * numpy's matmul on the same sizes right after ours, in a separate process per thread count
 * (OPENBLAS_NUM_THREADS is read once at load time; threadpoolctl may not be installed), and
 * prints the ratio: the machines we run on are shared and noisy, so only a peer measured in the
 * same run is a fair yardstick (bench/README.md). It also prints which OpenBLAS kernels numpy used
 * (openblas_get_corename), since OPENBLAS_CORETYPE may pin them below the CPU's best.
 *
 * The FMA peak probe runs 12 independent chains of vector FMAs on registers (2 FMA pipes x
 * 4-cycle latency need at least 8 in flight) on 1 thread and on every OpenMP thread at once:
 * the ceiling no GEMM on this machine can pass, in the same units. */
#include "bench.h"
#include "cpu/gemm.h"
#include "minitorch/minitorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* ---- GEMM timing ------------------------------------------------------------------------- */

#define SAMPLES 7

struct stats {
    double median, min, max; /* GFLOP/s */
};

static struct stats stats_of(double *g, int n)
{
    qsort(g, (size_t)n, sizeof g[0], cmp_double);
    struct stats s = {g[n / 2], g[0], g[n - 1]};
    return s;
}

/* Calls per sample so that one sample lasts >= ~20 ms (timer and noise well below it). */
static int reps_for(int64_t n)
{
    double flops = 2.0 * (double)n * (double)n * (double)n;
    int reps = (int)(2e9 / flops); /* 20 ms at 100 GFLOP/s */
    return reps < 1 ? 1 : reps;
}

static struct stats bench_ours(int64_t n, int nt, const float *a, const float *b, float *c)
{
    int reps = reps_for(n);
    double g[SAMPLES];
    if (mt_cpu_gemm(nt, n, n, n, a, n, 1, b, n, 1, c, n, 1) != 0) { /* warm-up */
        fprintf(stderr, "mt_cpu_gemm failed\n");
        exit(1);
    }
    for (int s = 0; s < SAMPLES; s++) {
        double t0 = mt_now_s();
        for (int r = 0; r < reps; r++) mt_cpu_gemm(nt, n, n, n, a, n, 1, b, n, 1, c, n, 1);
        g[s] = 2.0 * (double)n * (double)n * (double)n * reps / (mt_now_s() - t0) * 1e-9;
    }
    return stats_of(g, SAMPLES);
}

/* numpy in its own process: prints "median min max" GFLOP/s, same samples and reps rule. */
static const char numpy_script[] =
    "import sys, time, numpy as np\n"
    "n, reps, samples = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])\n"
    "r = np.random.default_rng(0)\n"
    "a = r.random((n, n), dtype=np.float32); b = r.random((n, n), dtype=np.float32)\n"
    "c = a @ b\n"
    "g = []\n"
    "for s in range(samples):\n"
    "    t = time.perf_counter()\n"
    "    for i in range(reps): np.matmul(a, b, out=c)\n"
    "    g.append(2.0 * n**3 * reps / (time.perf_counter() - t) * 1e-9)\n"
    "g.sort()\n"
    "print(g[len(g) // 2], g[0], g[-1])\n";

static const char corename_script[] =
    "import ctypes, glob, os, numpy\n"
    "d = os.path.join(os.path.dirname(numpy.__file__), os.pardir, 'numpy.libs')\n"
    "for p in glob.glob(os.path.join(d, '*openblas*')):\n"
    "    l = ctypes.CDLL(p)\n"
    "    for f in ('scipy_openblas_get_corename64_', 'openblas_get_corename64_',\n"
    "              'openblas_get_corename'):\n"
    "        if hasattr(l, f):\n"
    "            g = getattr(l, f); g.restype = ctypes.c_char_p; print(g().decode()); break\n";

static int run_python(const char *python, const char *env, const char *script, const char *args,
                      char *out, size_t len)
{
    char path[] = "/tmp/mt_gemm_bench_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) return -1;
    fputs(script, f);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s '%s' '%s' %s", env, python, path, args);
    FILE *p = popen(cmd, "r");
    int ok = -1;
    if (p) {
        out[0] = '\0';
        if (fgets(out, (int)len, p)) ok = 0;
        if (pclose(p) != 0) ok = -1;
    }
    remove(path);
    out[strcspn(out, "\n")] = '\0';
    return ok;
}

static int bench_numpy(const char *python, int64_t n, int nt, struct stats *s)
{
    char env[64], args[64], out[256];
    snprintf(env, sizeof env, "OPENBLAS_NUM_THREADS=%d OMP_NUM_THREADS=%d", nt, nt);
    snprintf(args, sizeof args, "%lld %d %d", (long long)n, reps_for(n), SAMPLES);
    if (run_python(python, env, numpy_script, args, out, sizeof out) != 0) return -1;
    return sscanf(out, "%lf %lf %lf", &s->median, &s->min, &s->max) == 3 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *python = NULL;
    int64_t sizes[16] = {128, 256, 512, 1024, 2048};
    int nsizes = 5, only_threads = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--numpy") == 0 && i + 1 < argc) {
            python = argv[++i];
        } else if (strcmp(argv[i], "--isa") == 0 && i + 1 < argc) {
            mt_cpu_gemm_force_isa(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            only_threads = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            nsizes = 0;
            for (char *s = strtok(argv[++i], ","); s && nsizes < 16; s = strtok(NULL, ","))
                sizes[nsizes++] = atoll(s);
        } else {
            fprintf(stderr,
                    "usage: %s [--numpy PYTHON] [--isa NAME] [--sizes N,N,...] [--threads N]\n",
                    argv[0]);
            return 2;
        }
    }
    const char *isa = mt_cpu_gemm_isa();
    int maxt = 1;
#ifdef MT_HAVE_OPENMP
    maxt = omp_get_max_threads();
#endif
    int threads[3] = {1, 2, maxt};
    int nthreads = maxt > 2 ? 3 : 2;
    if (only_threads > 0) {
        threads[0] = only_threads;
        nthreads = 1;
    }

    printf("mt_cpu_gemm isa %s, OpenMP threads available %d\n", isa, maxt);
    if (python) {
        char core[128];
        if (run_python(python, "", corename_script, "", core, sizeof core) == 0)
            printf("numpy: OpenBLAS core %s\n", core);
    }
    double peak1 = mt_probe_fma_gflops(isa, 1, 7), peakn = mt_probe_fma_gflops(isa, maxt, 7);
    if (peak1 > 0.0)
        printf("FMA peak probe (%s): 1 thread %.1f GFLOP/s, %d threads %.1f GFLOP/s\n", isa, peak1,
               maxt, peakn);
    printf("\n%5s %3s | %-24s | %-24s | %7s | %6s\n", "n", "thr", "ours GFLOP/s med [min-max]",
           "numpy GFLOP/s med [min-max]", "ours/np", "%peak");

    for (int si = 0; si < nsizes; si++) {
        int64_t n = sizes[si];
        float *a = aligned_alloc(64, (size_t)(n * n) * sizeof(float));
        float *b = aligned_alloc(64, (size_t)(n * n) * sizeof(float));
        float *c = aligned_alloc(64, (size_t)(n * n) * sizeof(float));
        if (!a || !b || !c) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        unsigned s = 1;
        for (int64_t i = 0; i < n * n; i++) {
            s = s * 1664525u + 1013904223u;
            a[i] = (float)(s >> 8) / 16777216.0f;
            s = s * 1664525u + 1013904223u;
            b[i] = (float)(s >> 8) / 16777216.0f;
        }
        for (int ti = 0; ti < nthreads; ti++) {
            int nt = threads[ti];
            struct stats ours = bench_ours(n, nt, a, b, c), np = {0, 0, 0};
            char npbuf[64] = "-", ratio[16] = "-", pk[16] = "-";
            if (python && bench_numpy(python, n, nt, &np) == 0) {
                snprintf(npbuf, sizeof npbuf, "%6.1f [%6.1f-%6.1f]", np.median, np.min, np.max);
                snprintf(ratio, sizeof ratio, "%.2f", ours.median / np.median);
            }
            double peak = nt == 1 ? peak1 : peakn * nt / maxt;
            if (peak > 0.0) snprintf(pk, sizeof pk, "%.0f%%", 100.0 * ours.median / peak);
            printf("%5lld %3d | %6.1f [%6.1f-%6.1f]    | %-24s    | %7s | %6s\n", (long long)n, nt,
                   ours.median, ours.min, ours.max, npbuf, ratio, pk);
            fflush(stdout);
        }
        free(a);
        free(b);
        free(c);
    }
    return 0;
}
