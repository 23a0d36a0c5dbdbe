/* test_diag_runs.c — with the diagnostics hook set, a built-in op on a CPU backend runs again
 * (mt_diag.runs): its report is the median run with the fastest and slowest, its result is
 * that of one run, and an op written in place runs once (a second run would apply it twice).
 * The rule holds exactly whatever the machine's load: 5 runs, or fewer only when they took
 * 20 ms in all. */
#include "minitorch/minitorch.h"
#include "test.h"

#include <stdint.h>

static struct mt_diag last;
static int reports;
static void record(void *user, const struct mt_diag *d)
{
    (void)user;
    last = *d;
    reports++;
}

/* The report of one op: one report, 1 to 5 runs, fewer than 5 only past the 20 ms budget, the
 * median between the fastest and the slowest. */
static void check_runs(const char *what)
{
    CHECK_INT(reports, 1);
    CHECK(last.runs >= 1 && last.runs <= 5);
    bool budget_spent = (double)last.ns_max * last.runs >= 20e6;
    if (last.runs < 5 && !budget_spent) fprintf(stderr, "  %s: %d runs\n", what, last.runs);
    CHECK(last.runs == 5 || budget_spent);
    CHECK(last.ns_min <= last.ns && last.ns <= last.ns_max && last.ns_min >= 0);
    reports = 0;
}

static void test_ops_repeat(enum mt_backend b)
{
    struct mt_ctx *ctx = mt_ctx_new();
    mt_ctx_set_diag(ctx, record, NULL);
    float av[6] = {1, 2, 3, 4, 5, 6}, bv[6] = {1, 1, 1, 1, 1, 1};
    int64_t shape[2] = {2, 3}, tshape[2] = {3, 2};
    struct mt_tensor *a = NULL, *o = NULL, *r = NULL, *s = NULL, *t = NULL, *m = NULL;
    CHECK_INT(mt_from_data(ctx, b, 2, shape, av, &a), MT_OK);
    CHECK_INT(mt_from_data(ctx, b, 2, shape, bv, &o), MT_OK);
    CHECK_INT(mt_from_data(ctx, b, 2, tshape, av, &t), MT_OK);
    reports = 0;
    CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, a, o, &r), MT_OK); /* a new output: repeated */
    check_runs("add");
    CHECK(mt_tensor_data(r)[5] == 7.0f);
    CHECK_INT(mt_reduce(ctx, MT_RED_SUM, a, 1, &s), MT_OK);
    check_runs("sum");
    CHECK(mt_tensor_data(s)[0] == 6.0f && mt_tensor_data(s)[1] == 15.0f);
    CHECK_INT(mt_matmul_raw(ctx, a, t, &m), MT_OK); /* [[1 2 3] [4 5 6]] @ [[1 2] [3 4] [5 6]] */
    check_runs("matmul");
    CHECK(mt_tensor_data(m)[0] == 22.0f && mt_tensor_data(m)[3] == 64.0f);
    /* in place, a += 1: one run, and a is 1 more, not 5 */
    struct mt_tensor *into = a;
    CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, a, o, &into), MT_OK);
    CHECK_INT(reports, 1);
    CHECK_INT(last.runs, 1);
    CHECK(last.ns_min == last.ns && last.ns_max == last.ns);
    CHECK(mt_tensor_data(a)[0] == 2.0f && mt_tensor_data(a)[5] == 7.0f);
    reports = 0;
    /* no hook, no repeats and no report */
    mt_ctx_set_diag(ctx, NULL, NULL);
    struct mt_tensor *r2 = NULL;
    CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, a, o, &r2), MT_OK);
    CHECK_INT(reports, 0);
    struct mt_tensor *all[] = {a, o, r, s, t, m, r2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) mt_tensor_release(all[i]);
    mt_ctx_free(ctx);
}

static void test_simple(void) { test_ops_repeat(MT_BACKEND_SIMPLE); }
static void test_fast(void) { test_ops_repeat(MT_BACKEND_FAST); }

int main(void)
{
    RUN_TEST(test_simple);
    RUN_TEST(test_fast);
    return TEST_SUMMARY();
}
