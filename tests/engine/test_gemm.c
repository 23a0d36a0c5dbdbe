/* test_gemm.c — mt_cpu_gemm (engine/src/cpu/gemm.h) against a naive double-precision product.
 *
 * Every ISA this CPU can run is forced in turn (mt_cpu_gemm_force_isa), including "avx512emu",
 * the AVX-512 tile and blocking on AVX2 registers, which stands in for the AVX-512 kernel on
 * machines without it. Sizes are chosen to hit every edge: 1, primes, sizes that are not
 * multiples of MR/NR, several MC/KC/NC blocks, K = 0; operands transposed, broadcast (stride
 * 0) and C with non-unit and column-major strides. Thread counts 1, 2 and 3 must give
 * bit-identical C. Cancellation before and during a call. Fixed seeds; about a second.
 *
 * Tolerance. The float32 sum of K products, in any order, with or without FMA, and split into
 * KC blocks added to C, is within gamma_(K+1) * sum_k |a_ik b_kj| of the exact value, where
 * gamma_n = n*u/(1 - n*u) and u = 2^-24 (Higham, Accuracy and Stability, §3.1). The reference
 * is computed in double (exact to 2^-53 relative here), so each element is checked against
 * 2 * (K + 2) * u * sum_k |a_ik b_kj|: a bound that holds for every correct summation order
 * and that a wrong index (a missed or doubled term, of size ~|a b|) cannot meet unless K is
 * huge compared with the terms' spread. */
#include "../../engine/src/cpu/gemm.h" /* internal header: tests/ and engine/include only */
#include "minitorch/minitorch.h"
#include "test.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SENTINEL 12345.0f /* C's padding: must survive every call */

static uint64_t rng_state;

static void rng_seed(uint64_t s) { rng_state = s * 0x9E3779B97F4A7C15ull + 1; }

/* xorshift64*: uniform in [-1, 1), fixed sequence for a seed. */
static float rng_uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t r = rng_state * 0x2545F4914F6CDD1Dull;
    return (float)((double)(r >> 40) / (double)(1u << 24) * 2.0 - 1.0);
}

/* A strided operand: `rows` x `cols` logical elements at data[i*rs + j*cs], in a buffer large
 * enough for the strides (stride 0 views repeat one row or column). */
struct mat {
    int64_t rows, cols, rs, cs;
    size_t len;
    float *data;
};

static struct mat mat_new(int64_t rows, int64_t cols, int64_t rs, int64_t cs)
{
    struct mat m = {rows, cols, rs, cs, 1, NULL};
    if (rows > 0 && cols > 0) m.len = (size_t)((rows - 1) * rs + (cols - 1) * cs + 1);
    m.data = malloc(m.len * sizeof(float));
    if (!m.data) abort();
    return m;
}

static void mat_fill(struct mat *m)
{
    for (size_t i = 0; i < m->len; i++) m->data[i] = rng_uniform();
}

static float mat_at(const struct mat *m, int64_t i, int64_t j)
{
    return m->data[i * m->rs + j * m->cs];
}

/* Layouts of an operand: row-major, transposed (column-major), broadcast along each dim. */
enum layout { ROW, COL, BCAST_ROWS, BCAST_COLS, LAYOUT_COUNT };

static struct mat operand(int64_t rows, int64_t cols, enum layout l)
{
    struct mat m;
    switch (l) {
    case COL: m = mat_new(rows, cols, 1, rows); break;
    case BCAST_ROWS: m = mat_new(rows, cols, 0, 1); break; /* every row the same */
    case BCAST_COLS: m = mat_new(rows, cols, 1, 0); break; /* every column the same */
    default: m = mat_new(rows, cols, cols, 1); break;
    }
    mat_fill(&m);
    return m;
}

/* C = A @ B with the current ISA and `nthreads`; checks every element against the double
 * reference within the bound above and that C's padding is untouched. Returns failures. */
static int check_product(int nthreads, const struct mat *a, const struct mat *b, int64_t rsc,
                         int64_t csc, const char *what)
{
    int64_t M = a->rows, K = a->cols, N = b->cols;
    struct mat c = mat_new(M, N, rsc, csc);
    for (size_t i = 0; i < c.len; i++) c.data[i] = SENTINEL;
    int st = mt_cpu_gemm(nthreads, M, N, K, a->data, a->rs, a->cs, b->data, b->rs, b->cs, c.data,
                         rsc, csc);
    int bad = 0;
    if (st != MT_OK) {
        fprintf(stderr, "%s: status %d\n", what, st);
        bad++;
    }
    const double u = ldexp(1.0, -24);
    char *written = calloc(c.len, 1);
    if (!written) abort();
    for (int64_t i = 0; i < M && bad < 5; i++)
        for (int64_t j = 0; j < N && bad < 5; j++) {
            double ref = 0.0, mag = 0.0;
            for (int64_t k = 0; k < K; k++) {
                double p = (double)mat_at(a, i, k) * (double)mat_at(b, k, j);
                ref += p;
                mag += fabs(p);
            }
            double got = (double)mat_at(&c, i, j);
            double tol = 2.0 * (double)(K + 2) * u * mag;
            written[i * rsc + j * csc] = 1;
            if (!(fabs(got - ref) <= tol)) {
                fprintf(
                    stderr, "%s [%s, %d threads]: C[%lld,%lld] = %.9g, expected %.9g (tol %.3g)\n",
                    what, mt_cpu_gemm_isa(), nthreads, (long long)i, (long long)j, got, ref, tol);
                bad++;
            }
        }
    for (size_t i = 0; i < c.len && bad < 5; i++)
        if (!written[i] && c.data[i] != SENTINEL) {
            fprintf(stderr, "%s: padding of C at %zu overwritten\n", what, i);
            bad++;
        }
    free(written);
    free(c.data);
    return bad;
}

/* The ISAs to try: those the CPU runs (forcing one it lacks gives another, detected by name). */
static const char *const isa_names[] = {"scalar", "avx2", "avx512emu", "avx512"};
#define NISA ((int)(sizeof isa_names / sizeof isa_names[0]))

static bool force(const char *name)
{
    mt_cpu_gemm_force_isa(name);
    return strcmp(mt_cpu_gemm_isa(), name) == 0;
}

static void test_sizes_every_isa(void)
{
    static const int64_t sizes[][3] = {
        {1, 1, 1},    {7, 13, 5},    {2, 3, 1},     {1, 300, 7},  {13, 1, 300},
        {31, 37, 41}, {97, 61, 129}, {600, 17, 33}, {5, 4100, 3}, {300, 257, 513},
    };
    for (int s = 0; s < NISA; s++) {
        if (!force(isa_names[s])) {
            printf("  isa %s: not available on this CPU, skipped\n", isa_names[s]);
            continue;
        }
        printf("  isa %s\n", isa_names[s]);
        for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
            rng_seed(100 + t);
            int64_t M = sizes[t][0], N = sizes[t][1], K = sizes[t][2];
            struct mat a = operand(M, K, ROW), b = operand(K, N, ROW);
            char what[64];
            snprintf(what, sizeof what, "%lldx%lldx%lld", (long long)M, (long long)N, (long long)K);
            CHECK_INT(check_product(1, &a, &b, N, 1, what), 0);
            free(a.data);
            free(b.data);
        }
    }
    mt_cpu_gemm_force_isa(NULL);
}

/* Every pair of operand layouts, and C row-major, column-major and with gaps; serial on a small
 * shape and on 2 threads on one above the serial threshold (1e6 multiply-adds). */
static void test_strides_every_isa(void)
{
    static const int64_t shapes[][4] = {{37, 43, 71, 1}, {150, 130, 70, 2}}; /* M, N, K, threads */
    for (int s = 0; s < NISA; s++) {
        if (!force(isa_names[s])) continue;
        rng_seed(7);
        for (int sh = 0; sh < 2; sh++) {
            const int64_t M = shapes[sh][0], N = shapes[sh][1], K = shapes[sh][2];
            const int nt = (int)shapes[sh][3];
            for (int la = 0; la < LAYOUT_COUNT; la++)
                for (int lb = 0; lb < LAYOUT_COUNT; lb++) {
                    struct mat a = operand(M, K, (enum layout)la);
                    struct mat b = operand(K, N, (enum layout)lb);
                    char what[64];
                    snprintf(what, sizeof what, "%lldx%lldx%lld layouts A %d B %d", (long long)M,
                             (long long)N, (long long)K, la, lb);
                    CHECK_INT(check_product(nt, &a, &b, N, 1, what), 0);
                    if (la == ROW && lb == ROW) {
                        CHECK_INT(check_product(nt, &a, &b, 1, M, "C column-major"), 0);
                        CHECK_INT(check_product(nt, &a, &b, 2 * N + 3, 2, "C gaps"), 0);
                        CHECK_INT(check_product(nt, &a, &b, 1, M + 5, "C column-major gaps"), 0);
                    }
                    free(a.data);
                    free(b.data);
                }
        }
    }
    mt_cpu_gemm_force_isa(NULL);
}

static void test_empty(void)
{
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 2, 3, 4, 5, 6}, c[12];
    for (int i = 0; i < 12; i++) c[i] = SENTINEL;
    /* K = 0: C = 0, including through strides. */
    CHECK_INT(mt_cpu_gemm(1, 3, 2, 0, a, 0, 1, b, 2, 1, c, 4, 2), MT_OK);
    for (int i = 0; i < 12; i++) CHECK(c[i] == (i % 2 == 0 ? 0.0f : SENTINEL)); /* at 4i + 2j */
    /* M = 0 or N = 0: nothing written. */
    for (int i = 0; i < 12; i++) c[i] = SENTINEL;
    CHECK_INT(mt_cpu_gemm(2, 0, 2, 3, a, 3, 1, b, 2, 1, c, 2, 1), MT_OK);
    CHECK_INT(mt_cpu_gemm(2, 2, 0, 3, a, 3, 1, b, 2, 1, c, 2, 1), MT_OK);
    for (int i = 0; i < 12; i++) CHECK(c[i] == SENTINEL);
    /* C is overwritten, not accumulated: 1x1x1 twice. */
    c[0] = 100.0f;
    CHECK_INT(mt_cpu_gemm(1, 1, 1, 1, a, 1, 1, b, 1, 1, c, 1, 1), MT_OK);
    CHECK(c[0] == 1.0f);
}

/* Bit-identical C for 1, 2 and 3 threads, on shapes with several blocks in every dimension
 * (all above the serial threshold, so that 2 and 3 threads really run). */
static void test_threads_bit_identical(void)
{
    static const int64_t sizes[][3] = {
        {300, 257, 513}, {97, 61, 229}, {1000, 20, 300}, {20, 1000, 300}, {5, 4100, 60}};
    for (int s = 0; s < NISA; s++) {
        if (!force(isa_names[s])) continue;
        for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
            int64_t M = sizes[t][0], N = sizes[t][1], K = sizes[t][2];
            rng_seed(42 + t);
            struct mat a = operand(M, K, ROW), b = operand(K, N, COL);
            float *c[3];
            for (int nt = 1; nt <= 3; nt++) {
                c[nt - 1] = malloc((size_t)(M * N) * sizeof(float));
                if (!c[nt - 1]) abort();
                CHECK_INT(mt_cpu_gemm(nt, M, N, K, a.data, a.rs, a.cs, b.data, b.rs, b.cs,
                                      c[nt - 1], N, 1),
                          MT_OK);
            }
            CHECK(memcmp(c[0], c[1], (size_t)(M * N) * sizeof(float)) == 0);
            CHECK(memcmp(c[0], c[2], (size_t)(M * N) * sizeof(float)) == 0);
            for (int i = 0; i < 3; i++) free(c[i]);
            free(a.data);
            free(b.data);
        }
    }
    mt_cpu_gemm_force_isa(NULL);
}

/* mt_cpu_gemm_unpacked reads B in place at every size: the same bits as mt_cpu_gemm's packed
 * route (one FMA chain per KC block either way), above the size where mt_cpu_gemm packs, with
 * C flat or strided, and within the reference's bound. Shapes of convolutions' im2col blocks:
 * few rows of A; a K of several KC blocks. */
static void test_unpacked_same_bits(void)
{
    static const int64_t sizes[][3] = {
        {16, 196, 200}, {8, 784, 100}, {100, 16, 1300}, {7, 61, 533}};
    for (int s = 0; s < NISA; s++) {
        if (!force(isa_names[s])) continue;
        for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
            int64_t M = sizes[t][0], N = sizes[t][1], K = sizes[t][2];
            rng_seed(7 + t);
            struct mat a = operand(M, K, ROW), b = operand(K, N, ROW);
            for (int strided = 0; strided < 2; strided++) {
                int64_t rsc = strided ? 1 : N, csc = strided ? M + 3 : 1;
                struct mat c1 = mat_new(M, N, rsc, csc), c2 = mat_new(M, N, rsc, csc);
                for (size_t i = 0; i < c1.len; i++) c1.data[i] = c2.data[i] = SENTINEL;
                CHECK_INT(mt_cpu_gemm(1, M, N, K, a.data, a.rs, a.cs, b.data, b.rs, b.cs, c1.data,
                                      rsc, csc),
                          MT_OK);
                CHECK_INT(mt_cpu_gemm_unpacked(M, N, K, a.data, a.rs, a.cs, b.data, b.rs, c2.data,
                                               rsc, csc),
                          MT_OK);
                if (memcmp(c1.data, c2.data, c1.len * sizeof(float)) != 0)
                    fprintf(stderr, "unpacked [%s] %lld x %lld x %lld, C %s: bits differ\n",
                            mt_cpu_gemm_isa(), (long long)M, (long long)N, (long long)K,
                            strided ? "strided" : "flat");
                CHECK(memcmp(c1.data, c2.data, c1.len * sizeof(float)) == 0);
                free(c1.data);
                free(c2.data);
            }
            CHECK(check_product(1, &a, &b, N, 1, "unpacked's shape, packed") == 0);
            free(a.data);
            free(b.data);
        }
    }
    mt_cpu_gemm_force_isa(NULL);
}

/* The order of the sums, exactly: on the FMA ISAs every element of C is an FMA chain from 0
 * over k in increasing order, per KC block (KC balanced as gemm.c's gemm_block does), each
 * block after the first added to C. The packed path and the small unpacked one (MNK at most
 * 64^3) must both give exactly these bits, whatever the layout: the training step (fast_train.c)
 * relies on it to reproduce the autodiff ops bit for bit. */
static int64_t balanced_kc(int64_t K, int64_t kcmax)
{
    int64_t blocks = (K + kcmax - 1) / kcmax;
    return (K + blocks - 1) / blocks;
}

static void test_fma_chain_order(void)
{
    static const struct {
        const char *isa;
        int64_t kcmax;
    } isas[] = {{"avx2", 256}, {"avx512emu", 192}, {"avx512", 192}};
    /* the training step's shapes; a column (N = 1) with each layout of A, M not a multiple of
     * 8, and K past one KC block; edges of 1 to 15 columns beside and without full tiles (of 16
     * for AVX2, of 32 for AVX-512: 20, 24 and 31 columns are a partial second zmm) */
    static const int64_t shapes[][3] = {
        {10, 100, 100}, {100, 10, 100}, {100, 100, 10},  {10, 100, 2},
        {10, 1, 100},   {100, 1, 10},   {37, 1, 300},    {10, 1, 600},
        {1, 100, 10},   {7, 9, 600},    {100, 100, 100}, {37, 45, 300},
        {13, 4, 50},    {25, 20, 3},    {12, 31, 7},     {30, 24, 40}};
    int tested = 0;
    for (size_t s = 0; s < sizeof isas / sizeof isas[0]; s++) {
        if (!force(isas[s].isa)) continue;
        tested++;
        for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++)
            for (int la = 0; la < 2; la++)
                for (int lb = 0; lb < 2; lb++) {
                    int64_t M = shapes[t][0], N = shapes[t][1], K = shapes[t][2];
                    rng_seed(7 + t);
                    struct mat a = operand(M, K, la ? COL : ROW), b = operand(K, N, lb ? COL : ROW);
                    float *c = malloc((size_t)(M * N) * sizeof(float));
                    if (!c) abort();
                    CHECK_INT(
                        mt_cpu_gemm(1, M, N, K, a.data, a.rs, a.cs, b.data, b.rs, b.cs, c, N, 1),
                        MT_OK);
                    int64_t kc = balanced_kc(K, isas[s].kcmax);
                    int bad = 0;
                    for (int64_t i = 0; i < M; i++)
                        for (int64_t j = 0; j < N; j++) {
                            float want = 0.0f;
                            for (int64_t pc = 0; pc < K; pc += kc) {
                                float acc = 0.0f;
                                for (int64_t k = pc; k < K && k < pc + kc; k++)
                                    acc = fmaf(mat_at(&a, i, k), mat_at(&b, k, j), acc);
                                want = pc == 0 ? acc : want + acc;
                            }
                            if (memcmp(&want, &c[i * N + j], sizeof want) != 0 && bad++ < 3)
                                fprintf(stderr,
                                        "%s %lldx%lldx%lld %s@%s: C[%lld,%lld] = %.9g, not %.9g\n",
                                        isas[s].isa, (long long)M, (long long)N, (long long)K,
                                        la ? "col" : "row", lb ? "col" : "row", (long long)i,
                                        (long long)j, c[i * N + j], want);
                        }
                    CHECK(bad == 0);
                    free(a.data);
                    free(b.data);
                    free(c);
                }
    }
    mt_cpu_gemm_force_isa(NULL);
    printf("  %d FMA ISA(s) checked on this CPU\n", tested);
}

/* MT_GEMM_ISA lowers the automatic choice; a name the CPU lacks or does not know is ignored. */
static void test_isa_env(void)
{
    mt_cpu_gemm_force_isa(NULL);
    unsetenv("MT_GEMM_ISA");
    const char *best = mt_cpu_gemm_isa();
    CHECK(strcmp(best, "scalar") == 0 || strcmp(best, "avx2") == 0 || strcmp(best, "avx512") == 0);
    setenv("MT_GEMM_ISA", "scalar", 1);
    mt_cpu_gemm_force_isa(NULL); /* forget the cached choice: the next call reads the variable */
    CHECK_STR(mt_cpu_gemm_isa(), "scalar");
    setenv("MT_GEMM_ISA", "no-such-isa", 1);
    mt_cpu_gemm_force_isa(NULL);
    CHECK_STR(mt_cpu_gemm_isa(), best);
    /* avx512 by name: taken where the CPU runs it (even where it is not the automatic choice:
     * Zen 4, whose 512-bit FMAs are no faster than AVX2's), else the best there is */
    bool has512 = false;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    has512 = __builtin_cpu_supports("avx512f");
#endif
    setenv("MT_GEMM_ISA", "avx512", 1);
    mt_cpu_gemm_force_isa(NULL);
    CHECK_STR(mt_cpu_gemm_isa(), has512 ? "avx512" : best);
    unsetenv("MT_GEMM_ISA");
    mt_cpu_gemm_force_isa(NULL);
    CHECK_STR(mt_cpu_gemm_isa(), best);
    printf("  best isa on this CPU: %s\n", best);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double raised_at; /* written by the raising thread before it exits (joined) */

static void *raise_after_5ms(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 5 * 1000 * 1000};
    nanosleep(&ts, NULL);
    mt_cancel_request();
    raised_at = now_s();
    return NULL;
}

static void test_cancel(void)
{
    const int64_t n = 1024;
    rng_seed(3);
    struct mat a = operand(n, n, ROW), b = operand(n, n, ROW);
    float *c = malloc((size_t)(n * n) * sizeof(float));
    if (!c) abort();
    /* Raised before the call: nothing is computed. */
    mt_cancel_request();
    for (int nt = 1; nt <= 2; nt++)
        CHECK_INT(mt_cpu_gemm(nt, n, n, n, a.data, n, 1, b.data, n, 1, c, n, 1), MT_ERR_CANCELLED);
    mt_cancel_clear();
    CHECK_INT(mt_cpu_gemm(2, 64, 64, 64, a.data, n, 1, b.data, n, 1, c, n, 1), MT_OK);

    /* Raised while it runs (2048^3 = 17 GFLOP: far longer than 5 ms on any CPU we know). */
    struct mat a2 = operand(2048, 2048, ROW);
    float *c2 = malloc((size_t)2048 * 2048 * sizeof(float));
    if (!c2) abort();
    for (int nt = 1; nt <= 2; nt++) {
        mt_cancel_clear();
        pthread_t th;
        CHECK_INT(pthread_create(&th, NULL, raise_after_5ms, NULL), 0);
        int st = mt_cpu_gemm(nt, 2048, 2048, 2048, a2.data, 2048, 1, a2.data, 2048, 1, c2, 2048, 1);
        double back = now_s();
        pthread_join(th, NULL);
        CHECK_INT(st, MT_ERR_CANCELLED);
        /* Not checked (timing on a shared machine), shown: the poll interval is ~10 us. */
        printf("  cancelled mid-call, %d thread(s): returned %.3f ms after the flag rose\n", nt,
               (back - raised_at) * 1e3);
    }
    mt_cancel_clear();
    free(a2.data);
    free(c2);
    free(a.data);
    free(b.data);
    free(c);
}

int main(void)
{
    RUN_TEST(test_isa_env);
    RUN_TEST(test_empty);
    RUN_TEST(test_sizes_every_isa);
    RUN_TEST(test_strides_every_isa);
    RUN_TEST(test_threads_bit_identical);
    RUN_TEST(test_unpacked_same_bits);
    RUN_TEST(test_fma_chain_order);
    RUN_TEST(test_cancel);
    return TEST_SUMMARY();
}
