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
#include "test.h"

#include <stdio.h>
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
#ifndef MT_HAVE_CUDA
    CHECK(!ok);
    CHECK(why && strstr(why, "this build has no CUDA backend") != NULL);
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
    if (expect_no_library)
        CHECK(!ok && why && strstr(why, "could not be loaded from MT_CUDA_PLUGIN") != NULL);
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
    if (d)
        printf("  GPU: %s, compute capability %d.%d, %d SMs, %.1f GiB, runtime %d, driver %d\n",
               d->name, d->major, d->minor, d->sms, (double)d->memory / (1 << 30),
               d->runtime_version, d->driver_version);
}

/* What a user sees: the backend refused with the probe's reason, never a crash; the other
 * backends unaffected. */
static void test_backend_check(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    const char *why = NULL;
    bool ok = mt_cuda_probe(&why);
    CHECK_INT(mt_backend_check(ctx, MT_BACKEND_CUDA), MT_ERR_BACKEND);
    const char *msg = mt_ctx_error(ctx);
    CHECK(strncmp(msg, "the cuda backend is not available: ", 35) == 0);
    if (!ok) CHECK(strstr(msg, why) != NULL);
    if (ok) CHECK(strstr(msg, mt_cuda_device()->name) != NULL);
    int64_t shape[1] = {3};
    struct mt_tensor *t = NULL;
    CHECK_INT(mt_full(ctx, MT_BACKEND_CUDA, 1, shape, 1.0f, &t), MT_ERR_BACKEND);
    CHECK(t == NULL);
    CHECK_INT(mt_full(ctx, MT_BACKEND_FAST, 1, shape, 1.0f, &t), MT_OK);
    mt_tensor_release(t);
    mt_ctx_free(ctx);
}

int main(int argc, char **argv)
{
    expect_no_library = argc > 1 && strcmp(argv[1], "--expect-no-library") == 0;
    expect_unavailable =
        expect_no_library || (argc > 1 && strcmp(argv[1], "--expect-unavailable") == 0);
    RUN_TEST(test_nothing_before_the_question);
    RUN_TEST(test_probe_is_stable);
    RUN_TEST(test_answer_matches_build);
    RUN_TEST(test_backend_check);
    return TEST_SUMMARY();
}
