/* test_functions.c — def, return, parameters and defaults, local scope, recursion and its
 * limit, functions across cells (their bodies and tracebacks), the conditional expression. */
#include "kernel/dsl_helpers.h"
#include "test.h"

#include "minitorch/minitorch.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

static void test_def_and_return(void)
{
    CHECK_STR(eval1("def f(x):\n    return x * 2\nf(21)"), "42");
    CHECK_STR(eval1("def f():\n    pass\nf()"), "<none>"); /* falls off the end: none */
    CHECK_STR(eval1("def f():\n    return\nf()"), "<none>");
    CHECK_STR(eval1("def f(x): return x + 1\nf(1)"), "2"); /* one-line body */
    /* return leaves loops and nested blocks at once */
    CHECK_STR(eval1("def first_even(xs):\n    for x in xs:\n        if x % 2 == 0:\n"
                    "            return x\n    return -1\n[first_even([1, 3, 4, 6]), "
                    "first_even([1])]"),
              "[4, -1]");
    CHECK_STR(eval1("def f():\n    i = 0\n    while true:\n        i += 1\n        if i == 5:\n"
                    "            return i\nf()"),
              "5");
    CHECK_STR(eval1("def f(x):\n    return x\nf"), "<function f(x)>");
    CHECK_STR(eval1("def f(x, y=2):\n    return x\n[type(f), f]"),
              "[<class 'function'>, <function f(x, y=...)>]");
    /* functions are values: passed, stored, compared by identity */
    CHECK_STR(eval1("def twice(g, x):\n    return g(g(x))\ndef inc(x):\n    return x + 1\n"
                    "h = inc\n[twice(inc, 0), twice(h, 5), h == inc]"),
              "[2, 7, True]");
    CHECK_STR(eval1("def f():\n    def g(y):\n        return y * 3\n    return g(2)\nf()"), "6");
}

static void test_parameters(void)
{
    CHECK_STR(eval1("def f(a, b=10, c=100):\n    return a + b + c\n[f(1), f(1, 2), f(1, c=3), "
                    "f(c=1, b=2, a=3)]"),
              "[111, 103, 14, 6]");
    /* defaults are computed when the def runs, as in Python */
    CHECK_STR(eval1("n = 5\ndef f(x=n):\n    return x\nn = 7\n[f(), n]"), "[5, 7]");
    CHECK_STR(eval1("def f(a, b):\n    return a\nf(1, 2, 3)"),
              "<TypeError: f() takes 2 positional arguments but 3 were given>");
    CHECK_STR(eval1("def f(a):\n    return a\nf(1, 2)"),
              "<TypeError: f() takes 1 positional argument but 2 were given>");
    CHECK_STR(eval1("def f(a, b, c=1):\n    return a\nf()"),
              "<TypeError: f() missing 2 required positional arguments: 'a' and 'b'>");
    CHECK_STR(eval1("def f(a, b):\n    return a\nf(1, z=2)"),
              "<TypeError: f() got an unexpected keyword argument 'z'>");
    CHECK_STR(eval1("def f(a, b):\n    return a\nf(1, a=2)"),
              "<TypeError: f() got multiple values for argument 'a'>");
    CHECK_STR(eval1("def f(a=1, b):\n    pass"),
              "<SyntaxError: non-default argument follows default argument>");
    CHECK_STR(eval1("def f(a, a):\n    pass"),
              "<SyntaxError: duplicate argument 'a' in function definition>");
    CHECK_STR(ename1("def f(:\n    pass"), "SyntaxError");
    CHECK_STR(ename1("def (x):\n    pass"), "SyntaxError");
    CHECK_STR(ename1("def f(x)\n    pass"), "SyntaxError");
    CHECK_STR(ename1("def f(x):\nreturn x"), "IndentationError");
    CHECK_STR(eval1("5(1)"), "<TypeError: 'int' object is not callable>");
}

static void test_scope(void)
{
    /* reading a global; assigning makes a local that leaves the global alone */
    CHECK_STR(eval1("x = 1\ndef f():\n    return x + 1\nf()"), "2");
    CHECK_STR(eval1("x = 1\ndef f():\n    x = 5\n    return x\n[f(), x]"), "[5, 1]");
    CHECK_STR(eval1("def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n"
                    "    return total\n[f(5), f(3)]"),
              "[10, 3]");
    /* parameters, loop variables and nested defs are local too */
    CHECK_STR(eval1("i = 'outer'\ndef f():\n    for i in range(3):\n        pass\n    return i\n"
                    "[f(), i]"),
              "[2, 'outer']");
    CHECK_STR(eval1("def f():\n    local_y = 1\n    return local_y\nf()\nlocal_y"),
              "<NameError: name 'local_y' is not defined>");
    /* a name assigned anywhere in the body is local everywhere in it (Python's rule) */
    CHECK_STR(eval1("x = 1\ndef f():\n    y = x\n    x = 2\n    return y\nf()"),
              "<UnboundLocalError: cannot access local variable 'x' where it is not associated "
              "with a value (it is assigned later in f())>");
    /* unbound after a `del`, a branch not taken or a loop that did not run: not "later" */
    const char *unbound = "<UnboundLocalError: cannot access local variable 'x' where it is not "
                          "associated with a value (nothing assigned it before this line in f(): "
                          "a branch not taken, a loop that did not run, or a `del`)>";
    CHECK_STR(eval1("def f():\n    x = 1\n    del x\n    return x\nf()"), unbound);
    CHECK_STR(eval1("def f(c):\n    if c:\n        x = 1\n    return x\nf(False)"), unbound);
    CHECK_STR(eval1("def f(x):\n    del x\n    return x\nf(1)"), unbound);
    CHECK_STR(eval1("def f():\n    for x in range(0):\n        pass\n    return x\nf()"), unbound);
    /* each call gets fresh locals; recursion does not share them */
    CHECK_STR(eval1("def f(n):\n    a = n\n    if n > 0:\n        f(n - 1)\n    return a\nf(3)"),
              "3");
    /* a NameError inside a function suggests the local it was close to */
    CHECK_STR(eval1("def f(count):\n    return coutn\nf(1)"),
              "<NameError: name 'coutn' is not defined, did you mean 'count'?>");
    /* tensors passed in are shared, as in Python */
    CHECK_STR(eval1("t = zeros(2)\ndef g(u):\n    u[0] = 7\ng(t)\nt[0]"), "7.0");
}

static void test_recursion(void)
{
    CHECK_STR(eval1("def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nfib(20)"),
              "6765");
    CHECK_STR(eval1("def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n - 1)\n"
                    "fact(20)"),
              "2432902008176640000");
    /* 900 calls deep is fine; unbounded recursion is a RecursionError, the kernel lives on */
    CHECK_STR(eval1("def d(n):\n    return 0 if n == 0 else 1 + d(n - 1)\nd(900)"), "900");
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "def r(n):\n    return r(n + 1)\nkept = 1");
    CHECK_INT(o.rc, 0);
    o = run_cell(s, "r(0)");
    CHECK_STR(o.ename, "RecursionError");
    CHECK(strstr(o.evalue, "maximum recursion depth exceeded in r()") != NULL);
    /* the repeating frame is shown once with a count, as Python does */
    CHECK(strstr(o.tb, "[Previous line repeated 999 more times]") != NULL);
    CHECK(o.tb_lines < 20);
    o = run_cell(s, "kept + 1");
    CHECK_STR(o.result, "2");
    /* a body as tall as the parser allows, recursing: stopped by the height budget before the
     * C stack runs out (this test runs under ASan too, with its larger frames) */
    char code[16384];
    int k = snprintf(code, sizeof code, "def t(n):\n    return t(n + 1)");
    for (int i = 0; i < 900; i++) k += snprintf(code + k, sizeof code - (size_t)k, " + 1");
    snprintf(code + k, sizeof code - (size_t)k, "\nt(0)");
    o = run_cell(s, code);
    CHECK_STR(o.ename, "RecursionError");
    dsl_session_free(s);
}

static void test_across_cells(void)
{
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "# a comment line\ndef ratio(a, b):\n    \"a over b\"\n"
                                   "    return a / b\n");
    CHECK_INT(o.rc, 0);
    o = run_cell(s, "ratio(6, 3)");
    CHECK_STR(o.result, "2.0");
    /* an error inside points into the defining cell's text, below the calling cell's line */
    o = run_cell(s, "x = 1\nratio(x, 0)");
    CHECK_STR(o.ename, "ZeroDivisionError");
    CHECK_STR(o.tb, "  Cell line 2, column 1:\n"
                    "    ratio(x, 0)\n"
                    "    ^\n"
                    "  In ratio(), line 4, column 14 of the cell defining it:\n"
                    "        return a / b\n"
                    "                 ^\n"
                    "ZeroDivisionError: division by zero");
    /* help shows the signature and the docstring */
    struct sink k;
    memset(&k, 0, sizeof k);
    o = run_cell_with(s, "help(ratio)", &k);
    CHECK_INT(o.rc, 0);
    CHECK(strstr(k.log, "ratio(a, b)\n\na over b") != NULL);
    /* redefining replaces; the old cell's text goes when nothing needs it (ASan checks) */
    o = run_cell(s, "def ratio(a, b):\n    return a * b\nratio(6, 3)");
    CHECK_STR(o.result, "18");
    /* %reset-like forgetting through the API releases functions and their cells */
    dsl_session_reset(s);
    o = run_cell(s, "ratio");
    CHECK_STR(o.ename, "NameError");
    dsl_session_free(s);
}

static void test_numbered_cells(void)
{
    /* with Jupyter's execution count, tracebacks name cells as IPython does: the calling cell
     * and, for each frame, the cell that defined the function */
    struct dsl_session *s = dsl_session_new();
    dsl_session_set_execution_count(s, 2);
    CHECK_INT(run_cell(s, "def inner(v):\n    return v[5]\n").rc, 0);
    dsl_session_set_execution_count(s, 3);
    CHECK_INT(run_cell(s, "def outer(xs):\n    n = len(xs)\n    return inner(xs) + n\n").rc, 0);
    dsl_session_set_execution_count(s, 7);
    struct outcome o = run_cell(s, "ys = [1, 2]\nouter(ys)");
    CHECK_STR(o.tb, "  Cell In[7], line 2, column 1:\n"
                    "    outer(ys)\n"
                    "    ^\n"
                    "  Cell In[3], line 3, column 12, in outer():\n"
                    "        return inner(xs) + n\n"
                    "               ^\n"
                    "  Cell In[2], line 2, column 13, in inner():\n"
                    "        return v[5]\n"
                    "                ^\n"
                    "IndexError: list index out of range");
    /* a syntax error names its cell too; numbering off again gives the plain form */
    dsl_session_set_execution_count(s, 8);
    o = run_cell(s, "x = (1 +\n");
    CHECK(strncmp(o.tb, "  Cell In[8], line ", 19) == 0);
    dsl_session_set_execution_count(s, 0);
    o = run_cell(s, "outer([])");
    CHECK(strncmp(o.tb, "  Cell line 1, column 1:\n", 25) == 0);
    CHECK(strstr(o.tb, "  Cell In[2], line 2, column 13, in inner():") != NULL);
    dsl_session_free(s);
}

static void test_conditional_expression(void)
{
    CHECK_STR(eval1("[1 if true else 2, 1 if false else 2]"), "[1, 2]");
    CHECK_STR(eval1("x = 5\n'big' if x > 3 else 'small' if x > 1 else 'tiny'"), "'big'");
    CHECK_STR(eval1("x = 2\n'big' if x > 3 else 'small' if x > 1 else 'tiny'"), "'small'");
    CHECK_STR(eval1("x = 0\n'big' if x > 3 else 'small' if x > 1 else 'tiny'"), "'tiny'");
    /* only the chosen branch runs */
    CHECK_STR(eval1("1 if true else 1 / 0"), "1");
    CHECK_STR(eval1("x = 3 if 1 + 1 == 2 or false else 4\nx"), "3");
    CHECK_STR(eval1("1 if true"), "<SyntaxError: expected 'else' after 'if' expression>");
    CHECK_STR(eval1("t = tensor([1, 2])\n1 if t else 2"),
              "<ValueError: the truth value of a tensor with 2 elements is ambiguous; reduce it to "
              "one element first, e.g. (a == b).all() or x.sum()>");
}

static void *interrupt_later(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 30 * 1000 * 1000};
    nanosleep(&ts, NULL);
    mt_cancel_request();
    return NULL;
}

static void test_interrupt_in_function(void)
{
    /* an endless loop inside a function body, called from a later cell: the interrupt ends it
     * with KeyboardInterrupt located in the body, and the session lives on */
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "def spin(n):\n    i = 0\n    while true:\n        i += n\n").rc, 0);
    mt_cancel_clear();
    pthread_t t;
    CHECK_INT(pthread_create(&t, NULL, interrupt_later, NULL), 0);
    struct outcome o = run_cell(s, "spin(1)");
    pthread_join(t, NULL);
    mt_cancel_clear();
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK_STR(o.tb, "  Cell line 1, column 1:\n"
                    "    spin(1)\n"
                    "    ^\n"
                    "  In spin(), line 3, column 5 of the cell defining it:\n"
                    "        while true:\n"
                    "        ^\n"
                    "KeyboardInterrupt: interrupted");
    CHECK_STR(run_cell(s, "spin").result, "<function spin(n)>");
    dsl_session_free(s);
}

static void test_names(void)
{
    /* a misspelt function (a session variable) is suggested like any name */
    CHECK_STR(eval1("def compute(x):\n    return x\ncomptue(1)"),
              "<NameError: name 'comptue' is not defined, did you mean 'compute'?>");
    /* inside a function: a parameter is nearer than a global of the same distance */
    CHECK_STR(eval1("totl = 0\ndef f(total):\n    return tota\nf(1)"),
              "<NameError: name 'tota' is not defined, did you mean 'total'?>");
    /* calling a name that is not a function */
    CHECK_STR(eval1("xs = [1]\nxs(0)"), "<TypeError: 'list' object is not callable>");
    /* the error's position inside a function defined in this same cell */
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "def f(x):\n    return x + 'a'\ny = f(1)");
    CHECK_STR(o.tb, "  Cell line 3, column 5:\n"
                    "    y = f(1)\n"
                    "        ^\n"
                    "  In f(), line 2, column 14 of the cell defining it:\n"
                    "        return x + 'a'\n"
                    "                 ^\n"
                    "TypeError: unsupported operand type(s) for +: 'int' and 'str'");
    dsl_session_free(s);
}

static void test_return_outside(void)
{
    CHECK_STR(eval1("return 1"), "<SyntaxError: 'return' outside function>");
    CHECK_STR(eval1("for i in range(2):\n    def f():\n        break"),
              "<SyntaxError: 'break' outside loop>");
    CHECK_STR(eval1("x = 1; def f(): pass"),
              "<SyntaxError: invalid syntax: 'def' here needs its own line>");
}

/* *args, keyword-only parameters, **kwargs and unpacking at calls: each message is CPython
 * 3.11's for the same call (a cell's functions are the main module's: __main__.f). */
static void test_call_binding(void)
{
    CHECK_STR(eval1("def f(a, b=1, *c, d, e=2, **f):\n    return [a, b, c, d, e, f]\n"
                    "f(*range(4), d=0, **{'g': 1})"),
              "[0, 1, (2, 3), 0, 2, {'g': 1}]");
    CHECK_STR(eval1("def f(a, **kw):\n    return kw\nf(1, kw=2)"), "{'kw': 2}");
    CHECK_STR(eval1("def f(a, b=2):\n    return a\nf(1, 2, 3)"),
              "<TypeError: f() takes from 1 to 2 positional arguments but 3 were given>");
    CHECK_STR(eval1("def f():\n    return 0\nf(1)"),
              "<TypeError: f() takes 0 positional arguments but 1 was given>");
    CHECK_STR(eval1("def f(a, *, k):\n    return a\nf(1, 2, k=3)"),
              "<TypeError: f() takes 1 positional argument but 2 positional arguments (and 1 "
              "keyword-only argument) were given>");
    CHECK_STR(eval1("def f(a, *, k, j):\n    return a\nf(1, 2, k=1, j=2)"),
              "<TypeError: f() takes 1 positional argument but 2 positional arguments (and 2 "
              "keyword-only arguments) were given>");
    CHECK_STR(eval1("def f(a, b, c):\n    return a\nf()"),
              "<TypeError: f() missing 3 required positional arguments: 'a', 'b', and 'c'>");
    CHECK_STR(eval1("def f(a, b, c, d):\n    return a\nf(1)"),
              "<TypeError: f() missing 3 required positional arguments: 'b', 'c', and 'd'>");
    CHECK_STR(eval1("def f(*s, backend, x):\n    return s\nf(1, 2)"),
              "<TypeError: f() missing 2 required keyword-only arguments: 'backend' and 'x'>");
    CHECK_STR(eval1("def f(a, *args):\n    return a\nf(1, args=2)"),
              "<TypeError: f() got an unexpected keyword argument 'args'>");
    CHECK_STR(eval1("def f(a, **kw):\n    return kw\nf(1, a=2)"),
              "<TypeError: f() got multiple values for argument 'a'>");
    CHECK_STR(eval1("def f(a):\n    return a\nf(**{1: 2})"),
              "<TypeError: keywords must be strings>");
    CHECK_STR(eval1("def f(a):\n    return a\nf(*[1], *5)"),
              "<TypeError: Value after * must be an iterable, not int>");
    CHECK_STR(eval1("def f(a):\n    return a\nf(**5)"),
              "<TypeError: __main__.f() argument after ** must be a mapping, not int>");
    CHECK_STR(eval1("print(**{'sep': 1}, sep=2)"),
              "<TypeError: print() got multiple values for keyword argument 'sep'>");
    CHECK_STR(eval1("[].append(*5)"),
              "<TypeError: list.append() argument after * must be an iterable, not int>");
    CHECK_STR(eval1("(lambda: 0)(1)"),
              "<TypeError: <lambda>() takes 0 positional arguments but 1 was given>");
    CHECK_STR(eval1("(lambda x, *, y: 0)(1)"),
              "<TypeError: <lambda>() missing 1 required keyword-only argument: 'y'>");
    CHECK_STR(eval1("sum(['a'], '')"),
              "<TypeError: sum() can't sum strings [use ''.join(seq) instead]>");
    CHECK_STR(eval1("sorted([1], 2)"), "<TypeError: sorted expected 1 argument, got 2>");
    CHECK_STR(eval1("max()"), "<TypeError: max expected at least 1 argument, got 0>");
    CHECK_STR(eval1("max(1, 2, default=3)"),
              "<TypeError: Cannot specify a default for max() with multiple positional "
              "arguments>");
    CHECK_STR(eval1("min([])"), "<ValueError: min() arg is an empty sequence>");
    CHECK_STR(eval1("reduce(max, [])"),
              "<TypeError: reduce() of empty iterable with no initial value>");
    CHECK_STR(eval1("reversed(1)"), "<TypeError: 'int' object is not reversible>");
    CHECK_STR(eval1("filter(abs)"), "<TypeError: filter expected 2 arguments, got 1>");
    CHECK_STR(eval1("map(abs)"), "<TypeError: map() must have at least two arguments.>");
    CHECK_STR(eval1("enumerate([1], start=1.5)"),
              "<TypeError: 'float' object cannot be interpreted as an integer>");
    CHECK_STR(eval1("sorted([1, 'a'])"),
              "<TypeError: '<' not supported between instances of 'str' and 'int'>");
    /* what the parser refuses, with CPython's words */
    CHECK_STR(eval1("def f(*): pass"), "<SyntaxError: named arguments must follow bare *>");
    CHECK_STR(eval1("lambda *: 0"), "<SyntaxError: named arguments must follow bare *>");
    CHECK_STR(eval1("def f(*a, *b): pass"), "<SyntaxError: * argument may appear only once>");
    CHECK_STR(eval1("def f(**k, a): pass"),
              "<SyntaxError: arguments cannot follow var-keyword argument>");
    CHECK_STR(eval1("f(**d, *a)"),
              "<SyntaxError: iterable argument unpacking follows keyword argument unpacking>");
    CHECK_STR(eval1("f(**d, a)"),
              "<SyntaxError: positional argument follows keyword argument unpacking>");
    CHECK_STR(eval1("def f(/, a): pass"), "<SyntaxError: at least one argument must precede />");
    CHECK_STR(eval1("def f(a, /, b, /): pass"), "<SyntaxError: / may appear only once>");
    CHECK_STR(eval1("def f(*a, /): pass"), "<SyntaxError: / must be ahead of *>");
    CHECK_STR(eval1("def f(a=1, /, b): pass"),
              "<SyntaxError: non-default argument follows default argument>");
    /* a signature shows the slash where the def has it */
    CHECK_STR(eval1("def f(a, b=1, /, c=2, *, d): pass\nf"),
              "<function f(a, b=..., /, c=..., *, d)>");
    CHECK_STR(eval1("lambda x, /: x"), "<function <lambda>(x, /)>");
    CHECK_STR(ename1("lambda x: int: x"), "SyntaxError"); /* a lambda takes no annotation */
    CHECK_STR(eval1("def f(x: float) -> float:\n    return x\nf(2)"), "2");
    CHECK_STR(eval1("@print\nx = 1"),
              "<SyntaxError: invalid syntax: a decorator must be followed by a def or a class>");
}

int main(void)
{
    RUN_TEST(test_def_and_return);
    RUN_TEST(test_parameters);
    RUN_TEST(test_scope);
    RUN_TEST(test_recursion);
    RUN_TEST(test_across_cells);
    RUN_TEST(test_numbered_cells);
    RUN_TEST(test_conditional_expression);
    RUN_TEST(test_interrupt_in_function);
    RUN_TEST(test_names);
    RUN_TEST(test_return_outside);
    RUN_TEST(test_call_binding);
    return TEST_SUMMARY();
}
