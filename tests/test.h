/* test.h — the tiny assertion harness shared by the C unit tests.
 *
 * Each test program calls CHECK* in plain functions, runs them with RUN_TEST, and returns
 * TEST_SUMMARY() from main: it prints "N passed, N failed" and exits non-zero on any failure,
 * which ctest reports. A failed CHECK prints file:line and the expression and goes on, so one
 * run shows every failure. */
#ifndef TESTS_TEST_H
#define TESTS_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* xorshift64*: seeded streams of test data, the same on every machine. */
static inline uint64_t test_rand_u64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}
static inline int test_rand_below(uint64_t *state, int n)
{
    return (int)(test_rand_u64(state) % (uint64_t)n);
}
/* uniform in [-2, 2), on a grid of 2^-22 */
static inline float test_rand_float(uint64_t *state)
{
    return (float)((double)(test_rand_u64(state) >> 40) / (double)(1 << 24) * 4.0 - 2.0);
}

static int test_checks_failed;
static int test_tests_passed, test_tests_failed;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            test_checks_failed++;                                                                  \
        }                                                                                          \
    } while (0)

#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *check_a_ = (a), *check_b_ = (b);                                               \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {                           \
            fprintf(stderr,                                                                        \
                    "%s:%d: CHECK_STR failed: %s == %s\n  got:      \"%s\"\n  expected: \"%s\"\n", \
                    __FILE__, __LINE__, #a, #b, check_a_ ? check_a_ : "(null)",                    \
                    check_b_ ? check_b_ : "(null)");                                               \
            test_checks_failed++;                                                                  \
        }                                                                                          \
    } while (0)

#define CHECK_INT(a, b)                                                                            \
    do {                                                                                           \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                            \
        if (check_a_ != check_b_) {                                                                \
            fprintf(stderr, "%s:%d: CHECK_INT failed: %s == %s (%lld != %lld)\n", __FILE__,        \
                    __LINE__, #a, #b, check_a_, check_b_);                                         \
            test_checks_failed++;                                                                  \
        }                                                                                          \
    } while (0)

#define RUN_TEST(fn)                                                                               \
    do {                                                                                           \
        int before_ = test_checks_failed;                                                          \
        fn();                                                                                      \
        if (test_checks_failed == before_) {                                                       \
            test_tests_passed++;                                                                   \
        } else {                                                                                   \
            test_tests_failed++;                                                                   \
            fprintf(stderr, "FAIL %s\n", #fn);                                                     \
        }                                                                                          \
    } while (0)

#define TEST_SUMMARY()                                                                             \
    (printf("%d passed, %d failed\n", test_tests_passed, test_tests_failed),                       \
     test_tests_failed == 0 && test_tests_passed > 0 ? 0 : 1)

#endif
