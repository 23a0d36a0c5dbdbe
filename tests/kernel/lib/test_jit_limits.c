/* test_jit_limits.c — the stack compiled code takes: local arrays along a chain of calls.
 *
 * Each compiled function keeps its local arrays ([0] * n, np.zeros, cuda.local.array: up to 1024
 * ints, 8 KiB) on its thread's stack, and a chain of calls adds them up. Within the limits
 * (1 MiB for an njit function, 512 KiB per CUDA thread, as a GPU's local memory) the code runs,
 * and a simulated CUDA thread's stack is sized for it; past them an njit function runs in the
 * interpreter (parallel_diagnostics says why) and a kernel is a CompileError naming the calls.
 * The code is generated: tens of arrays a function. */
#include "kernel/dsl_helpers.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

/* Appends to src a chain of nfns functions f0 -> f1 -> ... each holding narrays local arrays
 * of 1024 ints (cuda.local.array in device functions when cuda, else [0] * 1024), each array
 * filled with x + its number; each function returns the sum of its arrays' element 7 and what
 * the next returns. */
static void chain(char *src, size_t cap, int nfns, int narrays, bool cuda)
{
    size_t n = strlen(src);
    for (int f = nfns - 1; f >= 0; f--) {
        n += (size_t)snprintf(src + n, cap - n, "%sdef f%d(x):\n    s = 0\n",
                              cuda ? "@cuda.jit(device=True)\n" : "", f);
        for (int a = 0; a < narrays; a++)
            n += (size_t)snprintf(src + n, cap - n,
                                  "    a%d = %s\n    for k in range(1024):\n        a%d[k] = x + "
                                  "%d\n    s += a%d[7]\n",
                                  a, cuda ? "cuda.local.array(1024, numba.int32)" : "[0] * 1024", a,
                                  a, a);
        if (f + 1 < nfns)
            n += (size_t)snprintf(src + n, cap - n, "    return s + f%d(x)\n", f + 1);
        else
            n += (size_t)snprintf(src + n, cap - n, "    return s\n");
    }
}

/* The value f0(x) computes for a chain of nfns functions of narrays arrays. */
static long long expected(int nfns, int narrays, long long x)
{
    long long s = 0;
    for (int f = 0; f < nfns; f++)
        for (int a = 0; a < narrays; a++) s += x + a;
    return s;
}

static char src[1 << 20];

static void test_njit_within(void)
{
    /* 2 functions of 50 arrays: 800 KiB */
    snprintf(src, sizeof src, "from numba import njit\n");
    chain(src, sizeof src, 2, 50, false);
    strcat(src, "g = njit(f0)\ng(5)");
    struct dsl_session *s = dsl_session_new();
    char want[32];
    snprintf(want, sizeof want, "%lld", expected(2, 50, 5));
    CHECK_STR(run_cell(s, src).result, want);
    struct sink k = {0};
    run_cell_with(s, "parallel_diagnostics(g)", &k);
    CHECK(strstr(k.log, "f0(int): compiled to native code") != NULL);
    dsl_session_free(s);
}

static void test_njit_past(void)
{
    /* 3 functions of 50 arrays: 1.2 MiB, more than a thread's stack is given to it */
    snprintf(src, sizeof src, "from numba import njit\n");
    chain(src, sizeof src, 3, 50, false);
    strcat(src, "g = njit(f0)\ng(5)");
    struct dsl_session *s = dsl_session_new();
    char want[32];
    snprintf(want, sizeof want, "%lld", expected(3, 50, 5));
    CHECK_STR(run_cell(s, src).result, want); /* the interpreter's */
    struct sink k = {0};
    run_cell_with(s, "parallel_diagnostics(g)", &k);
    CHECK(strstr(k.log, "runs in the interpreter") != NULL);
    CHECK(strstr(k.log, "along the calls f0() -> f1() -> f2()") != NULL);
    CHECK(strstr(k.log, "at most 1024 KiB") != NULL);
    if (!strstr(k.log, "at most 1024 KiB")) fprintf(stderr, "%s\n", k.log);
    dsl_session_free(s);
}

static void test_kernel_within(void)
{
    /* 2 device functions of 25 arrays under a kernel: 400 KiB a thread, 32 threads */
    snprintf(src, sizeof src, "%%cuda simulate\nfrom numba import cuda\nimport numba\n");
    chain(src, sizeof src, 2, 25, true);
    strcat(src, "@cuda.jit\ndef k(out):\n    i = cuda.threadIdx.x\n    out[i] = f0(i)\n"
                "o = zeros(32)\nk[1, 32](o._tensor._storage)\n[o[0], o[31]]");
    struct dsl_session *s = dsl_session_new();
    char want[64];
    snprintf(want, sizeof want, "[%lld.0, %lld.0]", expected(2, 25, 0), expected(2, 25, 31));
    CHECK_STR(run_cell(s, src).result, want);
    dsl_session_free(s);
}

static void test_kernel_past(void)
{
    /* 2 device functions of 40 arrays: 640 KiB a thread, more than a GPU's local memory */
    snprintf(src, sizeof src, "%%cuda simulate\nfrom numba import cuda\nimport numba\n");
    chain(src, sizeof src, 2, 40, true);
    strcat(src, "@cuda.jit\ndef k(out):\n    i = cuda.threadIdx.x\n    out[i] = f0(i)\n"
                "o = zeros(32)\nk[1, 32](o._tensor._storage)");
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, src);
    CHECK_STR(o.ename, "CompileError");
    CHECK(strstr(o.evalue, "along the calls k() -> f0() -> f1()") != NULL);
    CHECK(strstr(o.evalue, "at most 512 KiB") != NULL);
    CHECK_STR(run_cell(s, "1 + 1").result, "2");
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_njit_within);
    RUN_TEST(test_njit_past);
    RUN_TEST(test_kernel_within);
    RUN_TEST(test_kernel_past);
    return TEST_SUMMARY();
}
