/* test_cancel.c — the engine's cancel flag and status strings: the flag raised from another
 * thread is seen by a polling loop, clears, and the status table covers every code. */
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

int main(void)
{
    RUN_TEST(test_flag_across_threads);
    RUN_TEST(test_status_strings);
    return TEST_SUMMARY();
}
