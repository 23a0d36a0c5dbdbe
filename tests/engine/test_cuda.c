/* test_cuda.c — the cuda backend's device probe (engine/src/cuda/device.h, loader.c) and what
 * the engine says when there is no GPU.
 *
 * Nothing CUDA is mapped before the first question (the backend is a library of its own, loaded
 * then). The answer must match the build: a build without CUDA says so; a build with CUDA either
 * finds a usable GPU (then its properties are checked) or names the missing piece (its library,
 * the driver, the GPU, the compute capability). On machines without a GPU the GPU-side checks
 * are skipped, and the test prints why. ctest also runs it with `--expect-unavailable` and
 * CUDA_VISIBLE_DEVICES empty (the hidden-GPU path on a machine that has one), and with
 * `--expect-no-library` and MT_CUDA_PLUGIN naming a missing file. */
#include "../../engine/src/cuda/device.h" /* internal header: the probe */
#include "minitorch/minitorch.h"
#include "prog_helpers.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool expect_unavailable, expect_no_library;

/* whether /proc/self/maps has a mapping whose path contains `name` */
static bool mapped(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, name) != NULL;
    fclose(f);
    return found;
}

/* Runs first: a process that has not asked about the backend has no CUDA in it, even after
 * work on the CPU; the first question loads the backend's library (in a build with CUDA). */
static void test_nothing_before_the_question(void)
{
    CHECK(!mapped("libminitorch_cuda"));
    /* A tool that watches CUDA (compute-sanitizer, run so by bench/gpu.sh) puts the driver in
     * the process before main: then its presence says nothing about the engine. */
    if (getenv("MT_TEST_CUDA_PRELOADED"))
        printf("  (run under a CUDA tool: libcuda.so may be mapped before the question)\n");
    else
        CHECK(!mapped("libcuda.so"));
    struct mt_ctx *ctx = mt_ctx_new();
    int64_t shape[2] = {4, 4};
    struct mt_tensor *a = NULL, *b = NULL;
    CHECK_INT(mt_full(ctx, MT_BACKEND_FAST, 2, shape, 1.0f, &a), MT_OK);
    CHECK_INT(mt_matmul(ctx, a, a, &b), MT_OK);
    mt_tensor_release(a);
    mt_tensor_release(b);
    mt_ctx_free(ctx);
    CHECK(!mapped("libminitorch_cuda"));
    (void)mt_cuda_probe(NULL);
#ifdef MT_HAVE_CUDA
    if (!expect_no_library) CHECK(mapped("libminitorch_cuda"));
#endif
}

static void test_probe_is_stable(void)
{
    const char *why1 = NULL, *why2 = NULL;
    bool a = mt_cuda_probe(&why1), b = mt_cuda_probe(&why2);
    CHECK(a == b);
    CHECK(why1 == why2); /* asked once, kept */
    CHECK(mt_cuda_probe(NULL) == a);
    CHECK((mt_cuda_device() != NULL) == a);
}

static void test_answer_matches_build(void)
{
    const char *why = NULL;
    bool ok = mt_cuda_probe(&why);
    /* MT_CUDA_PLUGIN is honoured by every build (it is how tests load the host stand-in) */
    if (expect_no_library)
        CHECK(!ok && why && strstr(why, "could not be loaded from MT_CUDA_PLUGIN") != NULL);
#ifndef MT_HAVE_CUDA
    CHECK(!ok);
    if (!expect_no_library) CHECK(why && strstr(why, "this build has no CUDA backend") != NULL);
#else
    if (!ok) {
        CHECK(why && why[0] != '\0');
        CHECK(why && strstr(why, "no CUDA backend") == NULL);
        /* one of the probe's causes, each with the runtime's own words in parentheses */
        CHECK(why &&
              (strstr(why, "no NVIDIA driver") || strstr(why, "the NVIDIA driver supports") ||
               strstr(why, "no CUDA GPU is visible") || strstr(why, "compute capability") ||
               strstr(why, "CUDA did not start") || (expect_no_library && strstr(why, "library"))));
        CHECK(why && (strstr(why, "(cuda") || strstr(why, "compute capability") ||
                      strstr(why, "(dlopen") || strstr(why, "MT_CUDA_PLUGIN (")));
    }
#endif
    if (expect_unavailable) CHECK(!ok);
    if (!ok) {
        printf("  no usable GPU, GPU checks skipped: %s\n", why ? why : "(null)");
        return;
    }
    const struct mt_cuda_device *d = mt_cuda_device();
    CHECK(d && d->name[0] != '\0');
    CHECK(d && (d->major > 7 || (d->major == 7 && d->minor >= 5)));
    CHECK(d && d->sms > 0 && d->memory > 0);
    CHECK(d && d->driver_version >= d->runtime_version / 1000 * 1000);
    /* the peaks from the properties: an H100 has 3.35 TB/s and 67 TFLOP/s; anything from a
     * T4 (320 GB/s, 8 TFLOP/s) up is plausible */
    CHECK(d && d->dram_gbps > 100 && d->dram_gbps < 20000);
    CHECK(d && d->fp32_gflops > 1000 && d->fp32_gflops < 500000);
    if (d)
        printf("  GPU: %s, compute capability %d.%d, %d SMs, %.1f GiB, runtime %d, driver %d, "
               "peaks %.0f GB/s and %.0f GFLOP/s (FP32)\n",
               d->name, d->major, d->minor, d->sms, (double)d->memory / (1 << 30),
               d->runtime_version, d->driver_version, d->dram_gbps, d->fp32_gflops);
}

/* What a user sees: without a GPU the backend is refused with the probe's reason, never a
 * crash; with one, tensors go there (test_cuda_tensors.c tests them); the other backends are
 * unaffected either way. */
static void test_backend_check(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    const char *why = NULL;
    bool ok = mt_cuda_probe(&why);
    int64_t shape[1] = {3};
    struct mt_tensor *t = NULL;
    if (ok) {
        CHECK_INT(mt_backend_check(ctx, MT_BACKEND_CUDA), MT_OK);
        CHECK_INT(mt_full(ctx, MT_BACKEND_CUDA, 1, shape, 1.0f, &t), MT_OK);
        CHECK(t && t->backend == MT_BACKEND_CUDA);
        mt_tensor_release(t);
    } else {
        CHECK_INT(mt_backend_check(ctx, MT_BACKEND_CUDA), MT_ERR_BACKEND);
        const char *msg = mt_ctx_error(ctx);
        CHECK(strncmp(msg, "the cuda backend is not available: ", 35) == 0);
        CHECK(strstr(msg, why) != NULL);
        CHECK_INT(mt_full(ctx, MT_BACKEND_CUDA, 1, shape, 1.0f, &t), MT_ERR_BACKEND);
        CHECK(t == NULL);
    }
    t = NULL;
    CHECK_INT(mt_full(ctx, MT_BACKEND_FAST, 1, shape, 1.0f, &t), MT_OK);
    mt_tensor_release(t);
    mt_ctx_free(ctx);
}

#ifdef MT_HAVE_CUDA
/* ---- the kernels against the host, on a GPU --------------------------------------------------
 * Each kernel of the backend's library (plugin.h) on random shapes with broadcasting and
 * permuted (non-contiguous) strides, against the same element functions (cpu/scalar.h) applied
 * on the host in simple's order. IEEE operations (+ - * /, comparisons, relu, max, the
 * backward helpers) must agree exactly; exp/log/sigmoid/tanh/sqrt within a few ulps (CUDA's
 * math library is not glibc's); sums folded in another order and matmuls (the GPU fuses
 * multiply-adds) within a tolerance scaled by the number of terms. */
#include "../../engine/src/cpu/scalar.h"
#include "../../engine/src/cuda/plugin.h"

#include <math.h>
#include <stdint.h>

static uint64_t krng = 0x9E3779B97F4A7C15ull;
static int krand(int n) { return test_rand_below(&krng, n); }
static float kuniform(void) { return test_rand_float(&krng); }

/* a view of `ndim` dims with the given shape laid out in storage in a random dim order */
static int64_t layout(struct mt_cuda_view *v, int ndim, const int64_t *shape)
{
    int order[MT_MAX_DIMS];
    v->ndim = ndim;
    for (int d = 0; d < ndim; d++) v->shape[d] = shape[d], order[d] = d;
    for (int d = ndim - 1; d > 0; d--) { /* a permutation: which dim is innermost, ... */
        int j = krand(d + 1), t = order[d];
        order[d] = order[j], order[j] = t;
    }
    int64_t span = 1;
    for (int q = ndim - 1; q >= 0; q--) v->strides[order[q]] = span, span *= shape[order[q]];
    return span;
}

static int64_t hpos(const struct mt_cuda_view *v, const struct mt_cuda_view *out, int64_t i)
{
    int64_t pos = 0;
    for (int d = out->ndim - 1; d >= 0; d--) {
        int64_t idx = i % out->shape[d];
        i /= out->shape[d];
        int vd = d - (out->ndim - v->ndim);
        if (vd >= 0 && v->shape[vd] != 1) pos += idx * v->strides[vd];
    }
    return pos;
}

static int64_t vsize(const struct mt_cuda_view *v)
{
    int64_t n = 1;
    for (int d = 0; d < v->ndim; d++) n *= v->shape[d];
    return n;
}

/* host buffer h (n floats) on the device as view v (v->data set) */
static bool upload(const struct mt_cuda_plugin *p, struct mt_cuda_view *v, const float *h,
                   int64_t n)
{
    void *d = NULL;
    if (p->alloc((size_t)n * sizeof(float), &d) != 0) return false;
    v->data = d;
    return p->copy(d, h, (size_t)n * sizeof(float), MT_CUDA_H2D) == 0;
}

static float *random_floats(int64_t n)
{
    float *h = malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
    if (!h) abort();
    for (int64_t i = 0; i < n; i++) h[i] = kuniform();
    return h;
}

static bool close_to(float got, float want, float rel)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    return fabsf(got - want) <= rel * (1.0f + fabsf(want));
}

/* an input shape broadcastable to out's: some leading dims dropped, some dims 1 */
static int broadcastable(int ond, const int64_t *os, int64_t *shape)
{
    int nd = ond - krand(ond);
    for (int d = 0; d < nd; d++) shape[d] = krand(4) == 0 ? 1 : os[d + ond - nd];
    return nd;
}

static void test_kernels_match_host(void)
{
    const struct mt_cuda_plugin *p = mt_cuda_plugin_loaded();
    static const mt_scalar_map_fn maps[] = MT_SCALAR_MAP_TABLE;
    static const mt_scalar_zip_fn zips[] = MT_SCALAR_ZIP_TABLE;
    int bad = 0, runs = 0;
    for (int trial = 0; trial < 200; trial++) {
        const int ond = 1 + krand(4);
        int64_t os[MT_MAX_DIMS], as[MT_MAX_DIMS], bs[MT_MAX_DIMS];
        for (int d = 0; d < ond; d++) os[d] = 1 + krand(6);
        const int and_ = broadcastable(ond, os, as), bnd = broadcastable(ond, os, bs);
        struct mt_cuda_view out, a, b;
        /* out: row-major, or in a permuted layout every third trial */
        int64_t on = layout(&out, ond, os);
        if (trial % 3) {
            on = 1;
            for (int d = ond - 1; d >= 0; d--) out.strides[d] = on, on *= os[d];
        }
        int64_t an = layout(&a, and_, as), bn = layout(&b, bnd, bs), n = vsize(&out);
        float *ha = random_floats(an), *hb = random_floats(bn), *ho = random_floats(on);
        for (int64_t i = 0; i < an; i++) /* positive inputs for log and sqrt half the time */
            if (trial % 2) ha[i] = fabsf(ha[i]) + 0.01f;
        CHECK(upload(p, &a, ha, an) && upload(p, &b, hb, bn) && upload(p, &out, ho, on));
        const int op = trial % MT_MAP_COUNT, zop = trial % MT_ZIP_COUNT;
        const bool ieee_map = op == MT_MAP_NEG || op == MT_MAP_ID || op == MT_MAP_INV ||
                              op == MT_MAP_RELU || op == MT_MAP_ABS;
        /* map */
        CHECK_INT(p->map((enum mt_map_op)op, &out, &a, NULL), 0);
        CHECK_INT(p->copy(ho, out.data, (size_t)on * 4, MT_CUDA_D2H), 0);
        for (int64_t i = 0; i < n; i++) {
            float want = maps[op](ha[hpos(&a, &out, i)]), got = ho[hpos(&out, &out, i)];
            if (!(ieee_map ? memcmp(&got, &want, 4) == 0 || (isnan(got) && isnan(want))
                           : close_to(got, want, 4e-6f)) &&
                bad++ < 5)
                fprintf(stderr, "map %s [%lld]: %.9g, want %.9g\n", mt_map_name(op), (long long)i,
                        got, want);
        }
        /* zip: every zip op is IEEE (exact) */
        CHECK_INT(p->zip((enum mt_zip_op)zop, &out, &a, &b, NULL), 0);
        CHECK_INT(p->copy(ho, out.data, (size_t)on * 4, MT_CUDA_D2H), 0);
        for (int64_t i = 0; i < n; i++) {
            float want = zips[zop](ha[hpos(&a, &out, i)], hb[hpos(&b, &out, i)]),
                  got = ho[hpos(&out, &out, i)];
            if (memcmp(&got, &want, 4) != 0 && !(isnan(got) && isnan(want)) && bad++ < 5)
                fprintf(stderr, "zip %s [%lld]: %.9g, want %.9g\n", mt_zip_name(zop), (long long)i,
                        got, want);
        }
        /* reduce a (its own shape) over a random dim into a contiguous out */
        struct mt_cuda_view r = {0};
        int dim = krand(a.ndim);
        int64_t rn = 1;
        r.ndim = a.ndim;
        for (int d = a.ndim - 1; d >= 0; d--) {
            r.shape[d] = d == dim ? 1 : a.shape[d];
            r.strides[d] = rn;
            rn *= r.shape[d];
        }
        float *hr = random_floats(rn);
        CHECK(upload(p, &r, hr, rn));
        const enum mt_reduce_op rop = (enum mt_reduce_op)(trial % MT_RED_COUNT);
        CHECK_INT(p->reduce(rop, &r, &a, dim, NULL), 0);
        CHECK_INT(p->copy(hr, r.data, (size_t)rn * 4, MT_CUDA_D2H), 0);
        for (int64_t i = 0; i < rn; i++) {
            const float *src = ha + hpos(&a, &r, i);
            float want = mt_reduce_start(rop);
            for (int64_t j = 0; j < a.shape[dim]; j++) {
                float x = src[j * a.strides[dim]];
                want = rop == MT_RED_PROD  ? want * x
                       : rop == MT_RED_MAX ? mt_s_max(want, x)
                                           : want + x;
            }
            if (rop == MT_RED_MEAN) want /= (float)a.shape[dim];
            float got = hr[i];
            if (memcmp(&got, &want, 4) != 0 && bad++ < 5) /* serial kernel: simple's order */
                fprintf(stderr, "reduce %s dim %d [%lld]: %.9g, want %.9g\n", mt_reduce_name(rop),
                        dim, (long long)i, got, want);
        }
        p->release(a.data), p->release(b.data), p->release(out.data), p->release(r.data);
        free(ha), free(hb), free(ho), free(hr);
        runs++;
    }
    CHECK(bad == 0);
    printf("  map, zip and reduce: %d random cases against the host\n", runs);
}

/* A long reduction (the block kernel) and matmuls of sizes that are not multiples of the tile,
 * batched with a broadcast batch dim, both kernels. */
static void test_big_reduce_and_matmul(void)
{
    const struct mt_cuda_plugin *p = mt_cuda_plugin_loaded();
    const int64_t n = 3000000;
    float *h = random_floats(n);
    struct mt_cuda_view a = {.ndim = 1, .shape = {n}, .strides = {1}},
                        r = {.ndim = 1, .shape = {1}, .strides = {1}};
    float got = 0.0f;
    CHECK(upload(p, &a, h, n) && upload(p, &r, &got, 1));
    struct mt_cuda_launch launch = {0}; /* described and timed: the diagnostics' data */
    CHECK_INT(p->reduce(MT_RED_SUM, &r, &a, 0, &launch), 0);
    CHECK(launch.kernel && strcmp(launch.kernel, "reduce_block (grid-wide, 2 passes)") == 0);
    CHECK(launch.grid[0] > 1 && launch.block[0] >= 32 && launch.registers > 0);
    CHECK(launch.occupancy > 0.0 && launch.occupancy <= 1.0);
    CHECK(launch.gpu_ms > 0.0 && launch.gpu_ms < 1000.0);
    CHECK_INT(p->copy(&got, r.data, 4, MT_CUDA_D2H), 0);
    double want = 0.0, mag = 0.0;
    for (int64_t i = 0; i < n; i++) want += h[i], mag += fabs(h[i]);
    CHECK(fabs(got - want) <= 1e-5 * mag);
    p->release(a.data), p->release(r.data), free(h);

    /* batch, M, K, N: tile edges (33, 45 x 33 @ 33 x 40), a vector, exact tiles, several
     * 128 x 128 tiles with edges, K not a multiple of the slab (8) or of 4 */
    static const int64_t sizes[][4] = {{2, 33, 33, 33},     {3, 45, 33, 40},   {1, 1, 70, 1},
                                       {2, 64, 64, 64},     {1, 130, 72, 260}, {2, 257, 36, 131},
                                       {1, 128, 1000, 128}, {4, 96, 7, 200}};
    int cases = 0;
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        const int64_t B = sizes[t][0], M = sizes[t][1], K = sizes[t][2], N = sizes[t][3];
        float *ha = random_floats(B * M * K), *hb = random_floats(K * N),
              *hc = random_floats(B * M * N);
        /* b row-major (float4 loads when K and N allow) or laid out as b^T (strided loads);
         * its batch dim broadcast either way */
        for (int layout = 0; layout < 2; layout++) {
            struct mt_cuda_view A = {.ndim = 3, .shape = {B, M, K}, .strides = {M * K, K, 1}};
            struct mt_cuda_view Bv = {.ndim = 3, .shape = {1, K, N}, .strides = {0, N, 1}};
            if (layout) Bv.strides[1] = 1, Bv.strides[2] = K;
            struct mt_cuda_view C = {.ndim = 3, .shape = {B, M, N}, .strides = {M * N, N, 1}};
            CHECK(upload(p, &A, ha, B * M * K) && upload(p, &Bv, hb, K * N) &&
                  upload(p, &C, hc, B * M * N));
            for (int kern = 0; kern <= MT_CUDA_MATMUL_AUTO; kern++) {
                CHECK_INT(p->matmul((enum mt_cuda_matmul)kern, &C, &A, &Bv, NULL), 0);
                CHECK_INT(p->copy(hc, C.data, (size_t)(B * M * N) * 4, MT_CUDA_D2H), 0);
                int wrong = 0;
                for (int64_t bi = 0; bi < B; bi++)
                    for (int64_t i = 0; i < M; i++)
                        for (int64_t j = 0; j < N; j++) {
                            double acc = 0.0, mag2 = 0.0;
                            for (int64_t k = 0; k < K; k++) {
                                double x = (double)ha[bi * M * K + i * K + k] *
                                           hb[layout ? j * K + k : k * N + j];
                                acc += x, mag2 += fabs(x);
                            }
                            wrong += fabs(hc[bi * M * N + i * N + j] - acc) > 1e-5 * mag2 + 1e-6;
                        }
                if (wrong)
                    fprintf(stderr,
                            "matmul kernel %d, %lld x (%lld x %lld @ %lld x %lld), b %s: "
                            "%d wrong\n",
                            kern, (long long)B, (long long)M, (long long)K, (long long)K,
                            (long long)N, layout ? "transposed" : "row-major", wrong);
                CHECK_INT(wrong, 0);
                cases++;
            }
            p->release(A.data), p->release(Bv.data), p->release(C.data);
        }
        free(ha), free(hb), free(hc);
    }
    printf("  matmul: %d cases (4 kernels, 2 layouts of b) against the host\n", cases);
}
/* Reductions of 1 to 10^7 elements over each dim of (n,), (3, n) and (n, 3): every path of
 * mt_cu_reduce (serial, blocks, grid-wide in two passes, columns), against double sums on the
 * host (max exactly; sum and mean within float32 rounding of the terms' magnitude). */
static void test_reduce_sizes(void)
{
    const struct mt_cuda_plugin *p = mt_cuda_plugin_loaded();
    static const int64_t sizes[] = {1, 7, 255, 256, 2047, 2048, 5000, 100000, 1000000, 10000000};
    int cases = 0, bad = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const int64_t n = sizes[si];
        for (int shape = 0; shape < 3; shape++) {
            if (shape && n > 1000000) continue; /* (3, 10^7) adds nothing but time */
            struct mt_cuda_view a;
            const int64_t s2[2] = {shape == 1 ? 3 : n, shape == 1 ? n : 3};
            int64_t total = shape ? 3 * n : n;
            if (shape == 0)
                a = (struct mt_cuda_view){.ndim = 1, .shape = {n}, .strides = {1}};
            else
                a = (struct mt_cuda_view){
                    .ndim = 2, .shape = {s2[0], s2[1]}, .strides = {s2[1], 1}};
            float *h = random_floats(total);
            CHECK(upload(p, &a, h, total));
            for (int dim = 0; dim < a.ndim; dim++) {
                struct mt_cuda_view r = a;
                r.shape[dim] = 1;
                int64_t rn = 1;
                for (int d = r.ndim - 1; d >= 0; d--) r.strides[d] = rn, rn *= r.shape[d];
                float *hr = random_floats(rn);
                CHECK(upload(p, &r, hr, rn));
                for (int op = 0; op < MT_RED_COUNT; op++) {
                    if (op == MT_RED_PROD && a.shape[dim] > 64) continue; /* under/overflows */
                    CHECK_INT(p->reduce((enum mt_reduce_op)op, &r, &a, dim, NULL), 0);
                    CHECK_INT(p->copy(hr, r.data, (size_t)rn * 4, MT_CUDA_D2H), 0);
                    for (int64_t o = 0; o < rn; o++) {
                        /* output o's elements: o walks the kept dim */
                        const int64_t len = a.shape[dim];
                        const int64_t base = a.ndim == 1 ? 0 : o * a.strides[1 - dim];
                        double sum = 0, mag = 0, prod = 1, mx = -INFINITY;
                        for (int64_t j = 0; j < len; j++) {
                            double x = h[base + j * a.strides[dim]];
                            sum += x, mag += fabs(x), prod *= x, mx = x > mx ? x : mx;
                        }
                        double want = op == MT_RED_SUM    ? sum
                                      : op == MT_RED_MEAN ? sum / (double)len
                                      : op == MT_RED_PROD ? prod
                                                          : mx;
                        double tol = op == MT_RED_MAX ? 0
                                     : op == MT_RED_PROD
                                         ? 1e-5 * fabs(prod) + 1e-30
                                         : 2e-6 * mag / (op == MT_RED_MEAN ? len : 1) + 1e-7;
                        if (fabs(hr[o] - want) > tol && bad++ < 5)
                            fprintf(stderr,
                                    "reduce %s over dim %d of %lld x %lld [%lld]: %.9g, "
                                    "want %.9g\n",
                                    mt_reduce_name(op), dim, (long long)a.shape[0],
                                    (long long)(a.ndim > 1 ? a.shape[1] : 1), (long long)o, hr[o],
                                    want);
                    }
                    cases++;
                }
                p->release(r.data);
                free(hr);
            }
            p->release(a.data);
            free(h);
        }
    }
    CHECK_INT(bad, 0);
    printf("  reduce: %d cases of 1 to 10^7 elements against the host\n", cases);
}

/* User functions on the GPU (NVRTC-compiled kernels) against the fast backend: map, zip and
 * reduce of random programs on broadcast operands. Programs without exp, log, sigmoid, tanh and
 * pow are IEEE operations and selections: the same bits; with them, within a few ulp each. */
static void test_user_functions_match_fast(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    uint64_t rng = 77;
    static struct mt_prog_insn insn[32];
    int bad = 0, cases = 0;
    for (int t = 0; t < 60; t++) {
        const int kind = t % 3; /* map, zip, reduce */
        const bool exact = t % 2 == 0;
        struct mt_prog p;
        random_prog(&rng, kind == 0 ? 1 : 2, 4 + t % 20, !exact, insn, &p);
        bool ieee = exact;
        for (int i = 0; i < p.ninsn; i++) ieee = ieee && p.insn[i].op != MT_P_POW;
        int64_t sa[2] = {37, 1 + t % 5}, sb[1] = {1 + t % 5};
        struct mt_tensor *fa = NULL, *fb = NULL, *ca = NULL, *cb = NULL, *fo = NULL, *co = NULL;
        CHECK_INT(mt_rand(ctx, MT_BACKEND_FAST, 2, sa, &fa), MT_OK);
        CHECK_INT(mt_rand(ctx, MT_BACKEND_FAST, 1, sb, &fb), MT_OK);
        CHECK_INT(mt_to(ctx, fa, MT_BACKEND_CUDA, &ca), MT_OK);
        CHECK_INT(mt_to(ctx, fb, MT_BACKEND_CUDA, &cb), MT_OK);
        enum mt_status s1, s2;
        if (kind == 0) {
            s1 = mt_map_prog(ctx, &p, fa, &fo);
            s2 = mt_map_prog(ctx, &p, ca, &co);
        } else if (kind == 1) {
            s1 = mt_zip_prog(ctx, &p, fa, fb, &fo);
            s2 = mt_zip_prog(ctx, &p, ca, cb, &co);
        } else {
            s1 = mt_reduce_prog(ctx, &p, fa, t % 2, 0.5f, &fo);
            s2 = mt_reduce_prog(ctx, &p, ca, t % 2, 0.5f, &co);
        }
        CHECK_INT(s1, MT_OK);
        CHECK_INT(s2, MT_OK);
        if (s2 != MT_OK) fprintf(stderr, "  %s\n", mt_ctx_error(ctx));
        if (fo && co) {
            float *h = malloc((size_t)co->size * sizeof(float));
            CHECK(h && mt_tensor_copy_out(co, h) == MT_OK);
            const float *want = mt_tensor_data(fo);
            for (int64_t i = 0; h && i < co->size; i++) {
                bool ok = ieee ? memcmp(&h[i], &want[i], 4) == 0 || (isnan(h[i]) && isnan(want[i]))
                               : close_to(h[i], want[i], 1e-4f) || (isnan(h[i]) && isnan(want[i]));
                if (!ok && bad++ < 5)
                    fprintf(stderr, "user function %d (%s) [%lld]: %.9g, fast %.9g\n", t,
                            kind == 0   ? "map"
                            : kind == 1 ? "zip"
                                        : "reduce",
                            (long long)i, h[i], want[i]);
            }
            free(h);
            cases++;
        }
        mt_tensor_release(fa);
        mt_tensor_release(fb);
        mt_tensor_release(ca);
        mt_tensor_release(cb);
        mt_tensor_release(fo);
        mt_tensor_release(co);
    }
    CHECK_INT(bad, 0);
    printf("  user functions: %d programs on the GPU against fast\n", cases);
    mt_ctx_free(ctx);
}
#endif

int main(int argc, char **argv)
{
    expect_no_library = argc > 1 && strcmp(argv[1], "--expect-no-library") == 0;
    expect_unavailable =
        expect_no_library || (argc > 1 && strcmp(argv[1], "--expect-unavailable") == 0);
    RUN_TEST(test_nothing_before_the_question);
    RUN_TEST(test_probe_is_stable);
    RUN_TEST(test_answer_matches_build);
    RUN_TEST(test_backend_check);
#ifdef MT_HAVE_CUDA
    if (mt_cuda_plugin_loaded()) {
        RUN_TEST(test_kernels_match_host);
        RUN_TEST(test_big_reduce_and_matmul);
        RUN_TEST(test_reduce_sizes);
        RUN_TEST(test_user_functions_match_fast);
    } else {
        printf("SKIPPED 4 GPU tests (kernels against the host): no usable GPU\n");
    }
#else
    printf("SKIPPED 4 GPU tests (kernels against the host): this build has no CUDA backend\n");
#endif
    return TEST_SUMMARY();
}
