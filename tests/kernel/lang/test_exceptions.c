/* test_exceptions.c — the table of exception classes covers every error the engine's statuses
 * name, follows CPython's hierarchy, and a caught error leaves the interpreter's call depth
 * as it was. */
#include "kernel/dsl_helpers.h"
#include "test.h"

#include "lang/exceptions.h"

#include "minitorch/minitorch.h"

static bool is(const char *a, const char *b)
{
    return dsl_exc_type_is(dsl_exc_type_find(a), dsl_exc_type_find(b));
}

/* An error of the engine (mt_status_ename) is a class `except` knows, not a name it guesses. */
static void test_every_status_is_a_class(void)
{
    for (int st = MT_OK + 1; st < MT_STATUS_COUNT; st++) {
        const char *name = mt_status_ename((enum mt_status)st);
        CHECK(dsl_exc_type_find(name) != NULL);
        if (!dsl_exc_type_find(name)) fprintf(stderr, "  no class for %s\n", name);
    }
}

/* One row per name; a base comes before the classes deriving from it, so every chain ends at
 * BaseException. */
static void test_table(void)
{
    for (size_t i = 0; i < dsl_exc_type_count; i++) {
        const struct dsl_exc_type *t = &dsl_exc_types[i];
        CHECK(dsl_exc_type_find(t->name) == t);
        CHECK(t->doc && t->doc[0]);
        if (t->base) CHECK(t->base < t);
        CHECK(dsl_exc_type_is(t, dsl_exc_type_find("BaseException")));
    }
    CHECK(is("ZeroDivisionError", "ArithmeticError"));
    CHECK(is("ZeroDivisionError", "Exception"));
    CHECK(is("KeyboardInterrupt", "BaseException"));
    CHECK(!is("KeyboardInterrupt", "Exception"));
    CHECK(is("ShapeError", "RuntimeError"));
    CHECK(is("UnboundLocalError", "NameError"));
    CHECK(is("ModuleNotFoundError", "ImportError"));
    CHECK(!is("ValueError", "TypeError"));
    CHECK(dsl_exc_type_find("NoSuchError") == NULL);
}

/* RecursionError and MemoryError caught inside deep calls: the next call may nest as deep as
 * ever (the depth and height counters went back down on the way out). */
static void test_state_after_caught_errors(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "def down(n):\n    if n == 0:\n        return 0\n"
                          "    return 1 + down(n - 1)\n"
                          "def forever(n):\n    return forever(n + 1)\n"
                          "def big(n):\n    try:\n        return 'x' * (2 ** 40)\n"
                          "    except MemoryError:\n        return down(n)\n")
                  .rc,
              0);
    for (int i = 0; i < 3; i++) {
        struct outcome o = run_cell(s, "try:\n    forever(0)\nexcept RecursionError:\n"
                                       "    r = down(990)\nr");
        CHECK_INT(o.rc, 0);
        CHECK_STR(o.result, "990");
    }
    CHECK_STR(run_cell(s, "big(990)").result, "990");
    /* and past the limit once more, uncaught: the same error as the first time */
    struct outcome o = run_cell(s, "down(5000)");
    CHECK_STR(o.ename, "RecursionError");
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_every_status_is_a_class);
    RUN_TEST(test_table);
    RUN_TEST(test_state_after_caught_errors);
    return TEST_SUMMARY();
}
