/* test_user_functions.c — map, zip and reduce with user functions (kernel/lib/compile.c).
 *
 * The reference for every compiled function is the language itself: the same def called on each
 * element by the interpreter (Python-like, in double precision), compared with the compiled
 * float32 result within float32 rounding. Functions whose branches turn on exact comparisons
 * use inputs where no value lies within rounding of a threshold. Every construct the compiler
 * refuses is checked to give a CompileError pointing at its line, with the session alive. */
#include "kernel/tensor_helpers.h"

#include "lang/dsl.h"

static struct dsl_session *S;

/* map(f, x) against [f(v) for each v of x], through tolist(), on both CPU backends. */
static void check_map(const char *defs, const char *fname, const char *data)
{
    char code[4096];
    for (int be = 0; be < 2; be++) {
        const char *backend = be ? "fast" : "simple";
        snprintf(code, sizeof code,
                 "%s\nx = tensor(%s, backend=\"%s\")\n"
                 "got = map(%s, x).view(x.size).tolist()\n"
                 "flat = x.contiguous().view(x.size).tolist()\n"
                 "want = []\nfor v in flat:\n    want.append(%s(v))\n"
                 "bad = 0\nfor i in range(len(want)):\n"
                 "    if abs(got[i] - want[i]) > 1e-5 * (1 + abs(want[i])):\n        bad += 1\n"
                 "bad",
                 defs, data, backend, fname, fname);
        const char *r = OK(S, code);
        if (strcmp(r, "0") != 0)
            fprintf(stderr, "  %s on %s: %s elements differ\n", fname, backend, r);
        CHECK_STR(r, "0");
    }
}

static void test_semantics(void)
{
    const char *data = "[[0.1, 0.9, 0.55, -0.3], [1.7, -2.25, 0.7, 3.1], [0.0, 1.0, 2.0, -1.0]]";
    /* the examples, and each statement form */
    check_map("def shifted_relu(x):\n    return max(x - 0.5, 0.0)", "shifted_relu", data);
    check_map("def f(x):\n    if x > 1:\n        return 1.0\n    elif x < 0:\n        return -x\n"
              "    y = x * 2\n    for i in range(3):\n        y = y + i * x\n    return y",
              "f", data);
    check_map("def g(x):\n    s = 0\n    if x > 0.5:\n        s = x\n    else:\n        s = -x\n"
              "    s += 1\n    return s if s < 2 else 2",
              "g", data);
    check_map("def h(x):\n    return exp(-x * x) + log(abs(x) + 1) * sqrt(abs(x)) - tanh(x) + "
              "sigmoid(x) - relu(x - 1)",
              "h", data);
    check_map("def k(x):\n    return (x > 0 and x < 1) + (x < -1 or x > 2) * 2 + (not x) * 4 + "
              "(0 < x <= 1) * 8",
              "k", data);
    check_map("def sq(v):\n    return v * v\ndef m(x, p=3):\n    return sq(x) ** 2 / (p + sq(x))",
              "m", data);
    check_map("scale = 2.5\ndef sc(x):\n    return x * scale - float(1)", "sc", data);
    check_map("def nested(x):\n    if x > 0:\n        if x > 1:\n            return 2\n"
              "        return 1\n    else:\n        return min(x, -0.5, 0.25)",
              "nested", data);
}

static void test_zip_reduce(void)
{
    OK(S, "def blend(a, b):\n    return 0.3 * a + 0.7 * b\n"
          "def larger(a, b):\n    return a if a > b else b\n"
          "x = tensor([[1.0, 5.0, 3.0], [4.0, -2.0, 6.0]])\nw = tensor([10.0, 20.0, 30.0])");
    /* 0.3 * x + 0.7 * w broadcast over rows, in float32 (numpy gives the same lists) */
    CHECK_STR(OK(S, "zip(blend, x, w).tolist()"), "[[7.3, 15.5, 21.9], [8.2, 13.4, 22.8]]");
    CHECK_STR(OK(S, "zip(blend, x, 1).tolist()"),
              "[[1.0, 2.2, 1.6], [1.9000001, 0.099999964, 2.5]]");
    CHECK_STR(OK(S, "reduce(larger, x, 1, start=-1e9).tolist()"), "[[5.0], [6.0]]");
    CHECK_STR(OK(S, "reduce(larger, x, 0, -1e9).tolist()"), "[[4.0, 5.0, 6.0]]");
    CHECK_STR(OK(S, "reduce(max, x, 1, start=0).tolist()"), "[[5.0], [6.0]]");
    /* not associative: the order is start, then the dim's elements in order */
    OK(S, "def decay(acc, v):\n    return acc * 0.5 + v");
    CHECK_STR(OK(S, "reduce(decay, tensor([1.0, 2.0, 4.0]), 0, start=8).tolist()"),
              "[6.25]"); /* ((8 * .5 + 1) * .5 + 2) * .5 + 4 */
    CHECK_STR(OK(S, "map(exp, tensor([0.0])).tolist()"), "[1.0]");
    OK(S, "o = zeros(2, 3)\nmap(abs, tensor([-1.0, 2.0, -3.0]), out=o)");
    CHECK_STR(OK(S, "o.tolist()"), "[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]");
    /* a user function called directly is an ordinary function */
    CHECK_STR(OK(S, "larger(2, 7)"), "7");
    CHECK_STR(OK(S, "[exp(0), relu(-2), sqrt(4.0)]"), "[1.0, 0.0, 2.0]");
}

/* Each refused construct: CompileError, the message, and the line in the traceback. */
static void refused(const char *def, const char *call, const char *want_msg, const char *want_line)
{
    char code[2048];
    snprintf(code, sizeof code, "%s\n%s", def, call);
    struct outcome o = run_cell(S, code);
    CHECK_INT(o.rc, -1);
    CHECK_STR(o.ename, "CompileError");
    if (!strstr(o.evalue, want_msg)) fprintf(stderr, "  got: %s\n  want: %s\n", o.evalue, want_msg);
    CHECK(strstr(o.evalue, want_msg) != NULL);
    if (want_line && !strstr(o.tb, want_line)) fprintf(stderr, "  traceback:\n%s\n", o.tb);
    if (want_line) CHECK(strstr(o.tb, want_line) != NULL);
    struct outcome after = run_cell(S, "1 + 1");
    CHECK_STR(after.result, "2");
}

static void test_refused(void)
{
    OK(S, "t = tensor([1.0, 2.0])\nname = \"s\"");
    const char *m = "map(f, t)";
    refused("def f(x):\n    return x + t", m, "map(f): 't' is a tensor", "return x + t");
    refused("def f(x):\n    print(x)\n    return x", m,
            "map(f): print() is not a numeric operation", "print(x)");
    refused("def f(x):\n    while x > 0:\n        x = x - 1\n    return x", m,
            "a while loop does not compile", "while x > 0:");
    refused("def f(x):\n    for i in range(3):\n        break\n    return x", m,
            "break does not compile", "break");
    refused("def f(x):\n    return x.exp()", m, "the method .exp() works on tensors", "x.exp()");
    refused("def f(x):\n    return name", m, "'name' is a str, not a number", "return name");
    refused("def f(x):\n    return [x]", m, "a list is not a number", NULL);
    refused("def f(x):\n    return x[0]", m, "indexing does not compile", NULL);
    refused("def f(x):\n    return f(x)", m, "calls nest deeper than 8", NULL);
    refused("def f(x):\n    if x > 0:\n        return 1", m,
            "f() can end without a return, and would give None", NULL);
    refused("def f(x):\n    if x > 0:\n        y = 1\n    return y", m,
            "'y' may be unassigned here", "    return y");
    refused("def f(x):\n    z = y + 1\n    y = 2\n    return z", m,
            "local variable 'y' is read before it is assigned", NULL);
    refused("def f(x):\n    return", m, "a bare return gives None", NULL);
    refused("def f(x):\n    return x // 2", m, "the operator // does not compile", NULL);
    refused("def f(x):\n    return max(x, 1, key=2)", m,
            "keyword arguments in calls do not compile", NULL);
    refused("def f(x):\n    n = 3\n    for i in range(n):\n        x = x + 1\n    return x", m,
            "the loop's trip count must be known", NULL);
    refused("def f(x):\n    for i in range(2000):\n        x = x + 1\n    return x", m,
            "more than 1024 loop iterations to unroll", NULL);
    refused("def f(x):\n    return undefined_thing", m, "name 'undefined_thing' is not defined",
            NULL);
    refused("def f(x):\n    return x + \"s\"", m, "this constant is a str, not a number", NULL);
    refused("def f(a, b):\n    return a", m, "f() needs its parameter 'b' (1 given)", NULL);
    /* not a function at all: TypeError at the call */
    struct outcome o = run_cell(S, "map(3, t)");
    CHECK_STR(o.ename, "TypeError");
    CHECK_STR(o.evalue, "map(): the first argument must be a function, not int");
    o = run_cell(S, "def two(a, b):\n    return a\nmap(two, t)");
    CHECK_STR(o.ename, "CompileError");
    o = run_cell(S, "map(max, t)");
    CHECK_STR(o.ename, "TypeError");
    CHECK_STR(o.evalue, "map(): max() is not a numeric function of 1 argument");
    /* a list is Python's map (lib/iterables.c), not the tensor form */
    CHECK_STR(OK(S, "def f(x):\n    return x\nmap(f, [1, 2])"), "[1, 2]");
    o = run_cell(S, "def f(x):\n    return x\nmap(f, 2.0)");
    CHECK_STR(o.evalue, "'float' object is not iterable");
    o = run_cell(S, "def f(x):\n    return x\nreduce(f, t, 0)");
    CHECK_STR(o.ename, "CompileError");
}

/* forward only: backward through a user function's result says so */
static void test_backward(void)
{
    struct outcome o = run_cell(S, "def f(x):\n    return x * 2\n"
                                   "a = tensor([1.0, 2.0], requires_grad=true)\n"
                                   "map(f, a).sum().backward()");
    CHECK_STR(o.ename, "RuntimeError");
    CHECK(strstr(o.evalue,
                 "backward cannot pass through map(f): user functions run forward only") != NULL);
}

/* The fusion lesson in %diagnostics: x * 2 + 1 is two ops, each a pass over memory (80 kB
 * each: 10,000 floats read and written); map(f, x) with f(v) = v * 2 + 1 is one op doing both
 * operations in one pass. */
static void test_diagnostics(void)
{
    static struct sink k;
    memset(&k, 0, sizeof k);
    OK(S, "x = rand(100, 100)\ndef f(v):\n    return v * 2 + 1");
    OK(S, "%diagnostics on");
    run_cell_with(S, "y = x * 2 + 1", &k);
    CHECK(strstr(k.log, "display[-,0]:2 engine ops\n") != NULL);
    CHECK(strstr(k.log, "\nmul ") != NULL && strstr(k.log, "\nadd ") != NULL);
    memset(&k, 0, sizeof k);
    run_cell_with(S, "z = map(f, x)", &k);
    CHECK(strstr(k.log, "display[-,0]:1 engine op\n") != NULL);
    const char *row = strstr(k.log, "\nmap(f) ");
    CHECK(row != NULL);
    if (row) {
        CHECK(strstr(row, "user function, fused blocks (2 ops)") != NULL);
        CHECK(strstr(row, " 80.0 kB ") != NULL); /* x read once, z written once */
        CHECK(strstr(row, " 20.0 k ") != NULL);  /* 2 FLOPs per element */
    }
    if (test_checks_failed) fprintf(stderr, "%s\n", k.log);
    OK(S, "%diagnostics off");
}

/* cuda_source shows the kernel the cuda backend would compile, with or without a GPU */
static void test_cuda_source(void)
{
    OK(S, "def twice_or(v):\n    return max(v * 2, 1.5)\nsrc = cuda_source(twice_or)");
    CHECK_STR(OK(S, "\"/* map(twice_or), generated by minitorch-kernel\" in src"), "True");
    CHECK_STR(OK(S, "\"const float r4 = r3 > r2 ? r3 : r2;\" in src"), "True");
    CHECK_STR(OK(S, "\"float acc = start;\" in cuda_source(max, \"reduce\")"), "True");
    CHECK(strstr(FAILS(S, "cuda_source(twice_or, \"matmul\")", "ValueError"),
                 "kind is \"map\", \"zip\" or \"reduce\"") != NULL);
    FAILS(S, "cuda_source(twice_or, \"zip\")", "CompileError"); /* one parameter, not two */
}

/* A function keeps its compiled program, and compiles again when a global it read changed: a
 * number, an inlined function redefined, a builtin shadowed by a def of the same name. */
static void test_kept_programs(void)
{
    OK(S, "k = 2.0\ndef inner(v):\n    return v + 1\n"
          "def outer(v):\n    return max(inner(v) * k, 0)\nt = tensor([1.0, -5.0])");
    CHECK_STR(OK(S, "map(outer, t).tolist()"), "[4.0, 0.0]");
    CHECK_STR(OK(S, "map(outer, t).tolist()"), "[4.0, 0.0]"); /* kept: the same */
    OK(S, "k = 3");
    CHECK_STR(OK(S, "map(outer, t).tolist()"), "[6.0, 0.0]");
    OK(S, "def inner(v):\n    return v - 1");
    CHECK_STR(OK(S, "map(outer, t).tolist()"), "[0.0, 0.0]");
    OK(S, "def max(a, b):\n    return a");
    CHECK_STR(OK(S, "map(outer, t).tolist()"), "[0.0, -18.0]");
    OK(S, "k = t"); /* now a tensor: refused at the next call, not run with the old value */
    CHECK(strstr(FAILS(S, "map(outer, t)", "CompileError"), "'k' is a tensor") != NULL);
}

int main(void)
{
    S = dsl_session_new();
    RUN_TEST(test_semantics);
    RUN_TEST(test_zip_reduce);
    RUN_TEST(test_refused);
    RUN_TEST(test_backward);
    RUN_TEST(test_diagnostics);
    RUN_TEST(test_cuda_source);
    RUN_TEST(test_kept_programs);
    dsl_session_free(S);
    return TEST_SUMMARY();
}
