/* test_cancel.c — the engine's cancel flag and status strings: the flag raised from another
 * thread is seen by a polling loop, clears, and the status table covers every code; a long
 * rand() stops on it. */
#include "minitorch/minitorch.h"
#include "test.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

static void *raise_later(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    mt_cancel_request();
    return NULL;
}

static void test_flag_across_threads(void)
{
    mt_cancel_clear();
    CHECK(!mt_cancel_requested());
    pthread_t t;
    CHECK_INT(pthread_create(&t, NULL, raise_later, NULL), 0);
    long spins = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        spins++;
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (!mt_cancel_requested() && now.tv_sec - start.tv_sec < 5);
    pthread_join(t, NULL);
    CHECK(mt_cancel_requested());
    CHECK(spins > 1);
    mt_cancel_clear();
    CHECK(!mt_cancel_requested());
}

static void test_status_strings(void)
{
    CHECK_STR(mt_status_str(MT_OK), "ok");
    CHECK_STR(mt_status_str(MT_ERR_CANCELLED), "cancelled");
    for (int s = 0; s < MT_STATUS_COUNT; s++) CHECK(mt_status_str((enum mt_status)s) != NULL);
    CHECK_STR(mt_status_str(MT_STATUS_COUNT), "unknown status");
    CHECK_STR(mt_version(), MT_VERSION_STRING);
}

/* rand() of a large shape stops when the flag is up (a KeyboardInterrupt in the language), and
 * leaves no tensor and no memory counted behind */
static void test_rand_interrupted(void)
{
    struct mt_ctx *ctx = mt_ctx_new();
    int64_t big[1] = {1 << 20}, small[1] = {1000};
    struct mt_tensor *t = NULL;
    mt_cancel_request();
    CHECK_INT(mt_rand(ctx, MT_BACKEND_FAST, 1, big, &t), MT_ERR_CANCELLED);
    CHECK(t == NULL);
    CHECK_INT(mt_ctx_mem_used(ctx), 0);
    /* below one polling stride it completes, as every op does whose work is too short to poll */
    CHECK_INT(mt_rand(ctx, MT_BACKEND_FAST, 1, small, &t), MT_OK);
    mt_cancel_clear();
    mt_tensor_release(t);
    t = NULL;
    CHECK_INT(mt_rand(ctx, MT_BACKEND_FAST, 1, big, &t), MT_OK);
    mt_tensor_release(t);
    mt_ctx_free(ctx);
}

int main(void)
{
    RUN_TEST(test_flag_across_threads);
    RUN_TEST(test_status_strings);
    RUN_TEST(test_rand_interrupted);
    return TEST_SUMMARY();
}
