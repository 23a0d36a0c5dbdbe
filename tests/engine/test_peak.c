/* test_peak.c — the machine peak probes: positive and finite where there is a vector unit,
 * measured once (the second call returns the same values at once), 0 without a probe. */
#include "minitorch/minitorch.h"
#include "test.h"

#include <math.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void test_machine_peak_once(void)
{
    double r1, f1, r2, f2;
    mt_machine_peak(&r1, &f1);
    double t0 = now_s();
    mt_machine_peak(&r2, &f2);
    CHECK(now_s() - t0 < 0.01); /* cached */
    CHECK(r1 == r2 && f1 == f2);
    /* memory reads somewhere between 0.1 and 10,000 GB/s on anything this runs on */
    CHECK(isfinite(r1) && r1 > 0.1 && r1 < 1e4);
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        CHECK(isfinite(f1) && f1 > 1.0 && f1 < 1e6);
#endif
}

static void test_probes(void)
{
    CHECK(mt_probe_fma_gflops("none", 1, 1) == 0.0); /* no vector probe for that name */
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        double one = mt_probe_fma_gflops("avx2", 1, 3);
        /* 12 chains x 8 lanes x 2 flops: at least one FMA per ns on any AVX2 core */
        CHECK(one > 8.0);
    }
#endif
    CHECK(mt_probe_read_gbps(1, 1) > 0.1);
}

int main(void)
{
    RUN_TEST(test_machine_peak_once);
    RUN_TEST(test_probes);
    return TEST_SUMMARY();
}
