/* test_lang_lists.c — lists are mutable and shared as in Python: item assignment, +=, the
 * methods and their errors, no reference cycles, any nesting depth without recursion, the size
 * limit. Expected values are Python's for the same code (with true/false/none spellings). */
#include "kernel/dsl_helpers.h"
#include "test.h"

#include "lang/values.h"

#include <stdio.h>

static void test_item_assignment(void)
{
    CHECK_STR(eval1("xs = [1, 2, 3]\nxs[0] = 10\nxs[-1] = 30\nxs"), "[10, 2, 30]");
    CHECK_STR(eval1("xs = [1, 2]\nxs[2] = 0"), "<IndexError: list assignment index out of range>");
    CHECK_STR(eval1("xs = [1, 2]\nxs[-3] = 0"), "<IndexError: list assignment index out of range>");
    CHECK_STR(eval1("xs = [1, 2]\nxs['a'] = 0"),
              "<TypeError: list indices must be integers or slices, not str>");
    CHECK_STR(eval1("xs = [1, 2]\nxs[0, 1] = 0"),
              "<TypeError: list indices must be integers or slices, not tuple>");
    CHECK_STR(eval1("s = 'abc'\ns[0] = 'x'"),
              "<TypeError: 'str' object does not support item assignment>");
    CHECK_STR(eval1("s = zeros(2, 3).shape\ns[0] = 1"),
              "<TypeError: 'tuple' object does not support item assignment>");
    /* augmented item assignment evaluates the list and index once */
    CHECK_STR(eval1("xs = [1, 2]\nxs[1] += 5\nxs[-2] *= 3\nxs"), "[3, 7]");
    CHECK_STR(eval1("calls = []\ndef i():\n    calls.append(1)\n    return 0\nxs = [[1], [2]]\n"
                    "xs[i()] += [9]\n[xs, len(calls)]"),
              "[[[1, 9], [2]], 1]");
    /* in a function, dict and list from locals: the value, then the key (Python's order, a
     * tuple's TypeError after its key too), the errors of each */
    CHECK_STR(eval1("log = []\ndef k(x):\n    log.append('k')\n    return x\n"
                    "def val(x):\n    log.append('v')\n    return x\n"
                    "def f():\n    d = {}\n    xs = [1, 2, 3]\n    d[k(1)] = val(10)\n"
                    "    xs[k(-1)] = val(30)\n    t = (1, 2)\n    try:\n        t[k(0)] = val(9)\n"
                    "    except TypeError as e:\n        log.append(str(e))\n"
                    "    try:\n        d[k([1])] = 2\n    except TypeError as e:\n"
                    "        log.append(str(e))\n    try:\n        xs[k(5)] = 1\n"
                    "    except IndexError as e:\n        log.append(str(e))\n"
                    "    return [d, xs, log]\nf()"),
              "[{1: 10}, [1, 2, 30], ['v', 'k', 'v', 'k', 'v', 'k', \"'tuple' object does not "
              "support item assignment\", 'k', \"unhashable type: 'list'\", 'k', 'list "
              "assignment index out of range']]");
    /* nested: grid[i][j] = v */
    CHECK_STR(eval1("g = [[0, 0], [0, 0]]\ng[1][0] = 5\ng"), "[[0, 0], [5, 0]]");
    /* the error is located at the target */
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "xs = [1]\nxs[3] = 2");
    CHECK_STR(o.tb, "  Cell line 2, column 3:\n    xs[3] = 2\n      ^\n"
                    "IndexError: list assignment index out of range");
    CHECK_STR(run_cell(s, "xs").result, "[1]"); /* nothing changed */
    dsl_session_free(s);
}

static void test_sharing(void)
{
    /* names share one list; mutation through any is seen by all */
    CHECK_STR(eval1("a = [1]\nb = a\nb.append(2)\nb[0] = 0\na"), "[0, 2]");
    CHECK_STR(eval1("a = [1]\nb = a\nb += [2]\na"), "[1, 2]");
    CHECK_STR(eval1("a = [1]\nb = a\nb = b + [2]\n[a, b]"), "[[1], [1, 2]]");
    /* list() and copy() copy (shallowly) */
    CHECK_STR(eval1("a = [1, [2]]\nb = list(a)\nc = a.copy()\nb.append(3)\nc[1].append(4)\n"
                    "[a, b, c]"),
              "[[1, [2, 4]], [1, [2, 4], 3], [1, [2, 4]]]");
    /* Python's famous repetition gotcha: the rows are one list */
    CHECK_STR(eval1("g = [[0] * 2] * 2\ng[0][0] = 1\ng"), "[[1, 0], [1, 0]]");
    /* a function mutates its argument, the caller sees it */
    CHECK_STR(eval1("def push(xs, v):\n    xs.append(v)\n    xs[0] = -1\nys = [1]\npush(ys, 7)\n"
                    "ys"),
              "[-1, 7]");
    /* += on a global inside a function makes it local, as in Python */
    CHECK_STR(ename1("xs = []\ndef f():\n    xs += [1]\nf()"), "UnboundLocalError");
    /* a default list is shared between calls, as in Python */
    CHECK_STR(eval1("def f(x, acc=[]):\n    acc.append(x)\n    return acc\nf(1)\nf(2)"), "[1, 2]");
    /* appending while iterating sees the new items, as Python's iterator does */
    CHECK_STR(eval1("l = [1, 2]\nfor x in l:\n    if x < 3:\n        l.append(x + 10)\nl"),
              "[1, 2, 11, 12]");
    /* += takes any iterable; the list keeps its identity */
    CHECK_STR(eval1("a = [0]\nb = a\na += range(1, 3)\na += 'xy'\nb"), "[0, 1, 2, 'x', 'y']");
    CHECK_STR(eval1("a = [0]\na += 5"), "<TypeError: 'int' object is not iterable>");
    /* a shape (a tuple) += makes a new tuple, and takes only a tuple, as in Python */
    CHECK_STR(eval1("s = zeros(2, 3).shape\nt = s\ns += (4,)\n[s, t, type(s)]"),
              "[(2, 3, 4), (2, 3), <class 'tuple'>]");
    CHECK_STR(eval1("s = (2, 3)\ns += [4]"),
              "<TypeError: can only concatenate tuple (not \"list\") to tuple>");
}

static void test_methods(void)
{
    CHECK_STR(eval1("l = [1]\nl.append([2])\nl.extend([3, 4])\nl.extend(range(5, 7))\nl"),
              "[1, [2], 3, 4, 5, 6]");
    CHECK_STR(eval1("l = [1, 2]\nl.extend(l)\nl"), "[1, 2, 1, 2]");
    CHECK_STR(eval1("l = [1, 2]\nl.insert(1, 'a')\nl.insert(-1, 'b')\nl.insert(-99, 'c')\n"
                    "l.insert(99, 'd')\nl"),
              "['c', 1, 'a', 'b', 2, 'd']");
    CHECK_STR(eval1("l = [1, 2, 3]\n[l.pop(), l.pop(0), l]"), "[3, 1, [2]]");
    CHECK_STR(eval1("l = [1, 2, 3]\n[l.pop(-2), l]"), "[2, [1, 3]]");
    CHECK_STR(eval1("[].pop()"), "<IndexError: pop from empty list>");
    CHECK_STR(eval1("[1].pop(1)"), "<IndexError: pop index out of range>");
    CHECK_STR(eval1("l = [1, 2, 1]\nl.remove(1)\nl"), "[2, 1]");
    CHECK_STR(eval1("[1].remove(5)"), "<ValueError: list.remove(x): x not in list>");
    CHECK_STR(eval1("[[1, 2], 'a', 2.0].index(2)"), "2");
    CHECK_STR(eval1("[1, 'a'].index('b')"), "<ValueError: 'b' is not in list>");
    CHECK_STR(eval1("[1, 1.0, true, 2, [1]].count(1)"), "3");
    CHECK_STR(eval1("l = [1, 2]\nm = l\nl.clear()\nm"), "[]");
    CHECK_STR(eval1("l = [1, 2, 3]\nl.reverse()\nl"), "[3, 2, 1]");
    CHECK_STR(eval1("l = [3, 1, 2.5, -1]\nl.sort()\nl"), "[-1, 1, 2.5, 3]");
    CHECK_STR(eval1("l = ['b', 'a', 'B']\nl.sort(reverse=true)\nl"), "['b', 'a', 'B']");
    CHECK_STR(eval1("l = [[2, 1], [1, 5], [2, 0]]\nl.sort()\nl"), "[[1, 5], [2, 0], [2, 1]]");
    /* stable both ways: equal items (1.0, 1, true) keep their order, as in Python */
    CHECK_STR(eval1("l = [2, 1.0, 1, 3, true]\nl.sort()\nl"), "[1.0, 1, True, 2, 3]");
    CHECK_STR(eval1("l = [2, 1.0, 1, 3, true]\nl.sort(reverse=true)\nl"), "[3, 2, 1.0, 1, True]");
    /* a failed sort leaves the list as it was */
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "x = [3, 'a', 1]\nx.sort()");
    CHECK_STR(o.ename, "TypeError");
    /* which pair fails first depends on the sort's order of comparisons */
    CHECK(strstr(o.evalue, "'<' not supported between instances of") != NULL);
    CHECK_STR(run_cell(s, "x").result, "[3, 'a', 1]");
    dsl_session_free(s);
    /* methods are values with Python's errors */
    CHECK_STR(eval1("xs = []\n[xs.append, type(xs.append)]"),
              "[<bound method list.append>, <class 'method'>]");
    CHECK_STR(eval1("xs = []\nf = xs.append\nf(1)\nf(2)\nxs"), "[1, 2]");
    CHECK_STR(eval1("[].apend(1)"),
              "<AttributeError: 'list' object has no attribute 'apend', did you mean 'append'?>");
    CHECK_STR(eval1("[].append()"), "<TypeError: append() takes 1 argument (0 given)>");
    CHECK_STR(eval1("[].append(1, 2)"), "<TypeError: append() takes 1 argument (2 given)>");
    CHECK_STR(eval1("[3, 1].sort(1)"), "<TypeError: sort() takes 0 arguments (1 given)>");
    /* a shape is read-only: count and index only */
    CHECK_STR(eval1("s = zeros(2, 3, 2).shape\n[s.count(2), s.index(3)]"), "[2, 1]");
    CHECK_STR(ename1("zeros(2).shape.append(1)"), "AttributeError");
    CHECK_STR(eval1("zeros(2).shape.index(5)"), "<ValueError: tuple.index(x): x not in tuple>");
    /* help reads the method's row */
    struct sink k;
    memset(&k, 0, sizeof k);
    s = dsl_session_new();
    o = run_cell_with(s, "xs = [1]\nhelp(xs.pop)", &k);
    CHECK_INT(o.rc, 0);
    CHECK(strstr(k.log, "xs.pop(index=-1)\n\nRemoves the item at index") != NULL);
    dsl_session_free(s);
}

static void test_no_cycles(void)
{
    const char *cycle = "<ValueError: a list cannot hold itself, directly or through another "
                        "list, a function's default or a bound method (reference cycles are not "
                        "supported)>";
    CHECK_STR(eval1("l = []\nl.append(l)"), cycle);
    CHECK_STR(eval1("l = [0]\nl[0] = l"), cycle);
    CHECK_STR(eval1("l = [0]\nl.insert(0, l)"), cycle);
    CHECK_STR(eval1("a = [[]]\nb = a[0]\nb.append(a)"), cycle);
    CHECK_STR(eval1("a = [[]]\nb = a[0]\nb.extend([1, a])"), cycle);
    CHECK_STR(eval1("a = [[]]\na[0] += [a]"), cycle);
    CHECK_STR(eval1("a = []\ndef f(x=a):\n    pass\na.append(f)"), cycle);
    CHECK_STR(eval1("a = []\nm = a.append\na.append(m)"), cycle);
    /* refused stores change nothing; sharing without a cycle (a DAG) is fine */
    CHECK_STR(eval1("a = [[]]\nb = a[0]\nb.extend([1])\nb.append([])\na"), "[[1, []]]");
    CHECK_STR(eval1("x = [1]\ny = [x, x]\nz = [y, y]\nz[0][0].append(2)\nz"),
              "[[[1, 2], [1, 2]], [[1, 2], [1, 2]]]");
    CHECK_STR(eval1("l = [1]\nl.extend(l)\nl.append(l.copy())\nl"), "[1, 1, [1, 1]]");
    struct dsl_session *s = dsl_session_new();
    CHECK_STR(run_cell(s, "a = [[1]]\nb = a[0]\nb.append(a)").ename, "ValueError");
    CHECK_STR(run_cell(s, "a").result, "[[1]]");
    dsl_session_free(s);
}

static void test_depth(void)
{
    /* a chain 200,000 lists deep, built by mutation and by construction, is freed without
     * recursion (ASan would see a stack overflow) */
    CHECK_STR(eval1("x = []\ncur = x\nfor i in range(200000):\n    n = []\n    cur.append(n)\n"
                    "    cur = n\nx = 0\ncur = 0\n'freed'"),
              "'freed'");
    CHECK_STR(eval1("head = none\nfor i in range(200000):\n    head = [i, head]\nhead[0]"),
              "199999");
    /* showing or comparing it is a RecursionError, as in Python; the session lives on */
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "a = []\nb = []\nfor i in range(2000):\n    a = [a]\n"
                                   "    b = [b]\nkept = 1");
    CHECK_INT(o.rc, 0);
    o = run_cell(s, "a");
    CHECK_STR(o.ename, "RecursionError");
    CHECK(strstr(o.evalue, "maximum recursion depth exceeded while getting the repr") != NULL);
    o = run_cell(s, "print(a)");
    CHECK_STR(o.ename, "RecursionError");
    o = run_cell(s, "a == b");
    CHECK_STR(o.ename, "RecursionError");
    CHECK(strstr(o.evalue, "maximum recursion depth exceeded in comparison") != NULL);
    CHECK_STR(run_cell(s, "a < b").ename, "RecursionError");
    CHECK_STR(run_cell(s, "a in [b]").ename, "RecursionError");
    CHECK_STR(run_cell(s, "[b].count(a)").ename, "RecursionError");
    CHECK_STR(run_cell(s, "a == a").result, "True"); /* the same list: no walk */
    CHECK_STR(run_cell(s, "kept").result, "1");
    dsl_session_free(s);
    /* the limit itself: DSL_MAX_LIST_DEPTH levels show, one more does not */
    char code[256];
    snprintf(code, sizeof code, "x = 0\nfor i in range(%d):\n    x = [x]\nlen(str(x))",
             DSL_MAX_LIST_DEPTH);
    char want[32];
    snprintf(want, sizeof want, "%d", 2 * DSL_MAX_LIST_DEPTH + 1);
    CHECK_STR(eval1(code), want);
    snprintf(code, sizeof code, "x = 0\nfor i in range(%d):\n    x = [x]\nlen(str(x))",
             DSL_MAX_LIST_DEPTH + 1);
    CHECK_STR(ename1(code), "RecursionError");
}

static void test_size_limit(void)
{
    char code[256], want[256];
    snprintf(code, sizeof code, "xs = [0] * %zu\nxs.append(1)", DSL_MAX_LIST_LEN);
    snprintf(want, sizeof want,
             "<MemoryError: cannot make a list of %zu items: lists are limited to %zu items>",
             DSL_MAX_LIST_LEN + 1, DSL_MAX_LIST_LEN);
    CHECK_STR(eval1(code), want);
    snprintf(code, sizeof code, "xs = [0] * %zu\nxs.extend([1, 2])", DSL_MAX_LIST_LEN - 1);
    snprintf(want, sizeof want,
             "<MemoryError: cannot make a list of %zu items: lists are limited to %zu items>",
             DSL_MAX_LIST_LEN + 1, DSL_MAX_LIST_LEN);
    CHECK_STR(eval1(code), want);
    /* an endless append loop stops at the limit; the list is kept whole */
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "xs = []\nwhile true:\n    xs.append(1)");
    CHECK_STR(o.ename, "MemoryError");
    snprintf(want, sizeof want, "%zu", DSL_MAX_LIST_LEN);
    CHECK_STR(run_cell(s, "len(xs)").result, want);
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_item_assignment);
    RUN_TEST(test_sharing);
    RUN_TEST(test_methods);
    RUN_TEST(test_no_cycles);
    RUN_TEST(test_depth);
    RUN_TEST(test_size_limit);
    return TEST_SUMMARY();
}
