/* test_gc.c — the cycle collector: garbage cycles of instances, closures, lists, dicts and sets
 * are freed (during a long loop and when asked), cycles still reachable from a variable are
 * kept whole, and a session's reset frees the cycles its variables held. */
#include "kernel/dsl_helpers.h"
#include "test.h"

#include "lang/values.h"

#define result_of(s, code) (run_cell((s), (code)).result)

static void test_garbage_cycles_are_freed(void)
{
    struct dsl_session *s = dsl_session_new();
    dsl_gc_collect();
    size_t base = dsl_gc_tracked();
    /* 50,000 instances that each hold themselves: counting alone would keep every one */
    CHECK_STR(result_of(s, "class Node:\n    pass\nfor i in range(50000):\n    a = Node()\n"
                           "    a.me = a\n    a.items = [a, i]\na.items[1]"),
              "49999");
    /* the loop collected as it went: far fewer than the 100,000 containers it made are alive */
    CHECK(dsl_gc_tracked() - base < 30000);
    dsl_gc_collect();
    /* left: the class (and its attribute-free body), the last instance and its list */
    CHECK(dsl_gc_tracked() - base <= 4);
    /* closures that call themselves are cycles too (the cell holds the function) */
    CHECK_STR(result_of(s,
                        "def f(n):\n    def g(k):\n        return 0 if k == 0 else 1 + g(k - 1)\n"
                        "    return g(n)\nt = 0\nfor i in range(100):\n    t += f(3)\nt"),
              "300");
    dsl_gc_collect();
    CHECK(dsl_gc_tracked() - base <= 6);
    /* dicts that hold themselves, and a dict and a list that hold each other */
    CHECK_STR(result_of(s, "for i in range(20000):\n    d = {'i': i}\n    d['me'] = d\n"
                           "    xs = [d]\n    d['xs'] = xs\nd['me']['xs'][0]['i']"),
              "19999");
    dsl_gc_collect();
    CHECK(dsl_gc_tracked() - base <= 8);
    /* an instance in a set that its attribute holds (a set's items are held as a dict's keys) */
    CHECK_STR(result_of(s, "for i in range(20000):\n    n = Node()\n    n.i = i\n"
                           "    n.peers = {n}\nlen(n.peers)"),
              "1");
    dsl_gc_collect();
    CHECK(dsl_gc_tracked() - base <= 10);
    dsl_session_free(s);
    CHECK(dsl_gc_tracked() == base);
}

static void test_reachable_cycles_are_kept(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_STR(result_of(s, "class A:\n    pass\na = A()\na.me = a\na.v = 5\nb = A()\n"
                           "b.other = a\na.other = b\nxs = [a]\na.xs = xs\n"
                           "def counter():\n    n = 0\n    def inc():\n        nonlocal n\n"
                           "        n += 1\n        return n\n    return inc\nc = counter()\nc()"),
              "1");
    dsl_gc_collect();
    dsl_gc_collect();
    CHECK_STR(result_of(s, "[a.me.me.v, a.other.other.v, xs[0].xs[0].v, c(), c()]"),
              "[5, 5, 5, 2, 3]");
    /* dropping the last variable holding a cycle makes it garbage */
    size_t before = dsl_gc_tracked();
    CHECK_STR(result_of(s, "a = 0\nb = 0\nxs = 0\nc = 0\n1"), "1");
    dsl_gc_collect();
    CHECK(dsl_gc_tracked() < before);
    dsl_session_free(s);
}

static void test_reset_frees_cycles(void)
{
    struct dsl_session *s = dsl_session_new();
    dsl_gc_collect();
    size_t base = dsl_gc_tracked();
    CHECK_STR(result_of(s, "class A:\n    def __init__(self, t):\n        self.t = t\n"
                           "        self.me = self\na = A(ones(1000))\n1"),
              "1");
    CHECK(dsl_gc_tracked() > base);
    dsl_session_reset(s);
    CHECK(dsl_gc_tracked() == base);
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_garbage_cycles_are_freed);
    RUN_TEST(test_reachable_cycles_are_kept);
    RUN_TEST(test_reset_frees_cycles);
    return TEST_SUMMARY();
}
