/* test_control.c — if/elif/else, while, for, break/continue, nesting and block syntax. */
#include "kernel/dsl_helpers.h"
#include "test.h"

/* Runs code and returns its stdout log (prefixed "stdout:" per print) or "<ENAME>" */
static const char *out1(const char *code)
{
    static char buf[(1 << 16) + 2048];
    static struct sink k;
    memset(&k, 0, sizeof k);
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell_with(s, code, &k);
    if (o.rc != 0)
        snprintf(buf, sizeof buf, "%s<%s: %s>", k.log, o.ename, o.evalue);
    else
        snprintf(buf, sizeof buf, "%s", k.log);
    dsl_session_free(s);
    return buf;
}

static void test_if(void)
{
    CHECK_STR(out1("x = 5\nif x > 3:\n    print('big')\nelse:\n    print('small')"),
              "stdout:big\n");
    CHECK_STR(out1("x = 1\nif x > 3:\n    print('big')\nelse:\n    print('small')"),
              "stdout:small\n");
    CHECK_STR(out1("x = 2\nif x == 1:\n    print(1)\nelif x == 2:\n    print(2)\nelif x == 2:\n"
                   "    print(22)\nelse:\n    print(3)"),
              "stdout:2\n");
    CHECK_STR(out1("if 0:\n    print(1)\nprint('after')"), "stdout:after\n");
    CHECK_STR(out1("if 1: print('one-line')"), "stdout:one-line\n");
    CHECK_STR(out1("if 0: print('a')\nelse: print('b'); print('c')"), "stdout:b\nstdout:c\n");
    CHECK_STR(out1("if []:\n    print('t')\nelif '':\n    print('s')\nelse:\n    pass\nprint('e')"),
              "stdout:e\n");
}

/* A cell marked as another kernel's (the course notebooks' Colab set-up, in Python) is not run:
 * no output, no error, nothing assigned; only a first line starting with the mark counts. */
static void test_skip_cell(void)
{
    CHECK_STR(out1("# minitorch: skip-cell (Python for Colab)\nimport sys\nprint(1)\n!ls"), "");
    struct dsl_session *s = dsl_session_new();
    struct sink k;
    memset(&k, 0, sizeof k);
    struct outcome o = run_cell_with(s, "# minitorch: skip-cell\nx = 1", &k);
    CHECK_INT(o.rc, 0);
    o = run_cell_with(s, "x", &k);
    CHECK_STR(o.ename, "NameError");
    dsl_session_free(s);
    CHECK_STR(out1("print(2)\n# minitorch: skip-cell\nprint(3)"), "stdout:2\nstdout:3\n");
}

static void test_while(void)
{
    CHECK_STR(out1("i = 0\nwhile i < 3:\n    print(i)\n    i += 1"),
              "stdout:0\nstdout:1\nstdout:2\n");
    CHECK_STR(out1("i = 0\nwhile true:\n    i += 1\n    if i == 2:\n        continue\n"
                   "    if i > 4:\n        break\n    print(i)"),
              "stdout:1\nstdout:3\nstdout:4\n");
    CHECK_STR(eval1("n = 0\nwhile n < 100000:\n    n += 1\nn"), "100000");
}

static void test_for(void)
{
    CHECK_STR(out1("for i in range(3):\n    print(i)"), "stdout:0\nstdout:1\nstdout:2\n");
    CHECK_STR(out1("for i in range(2, 8, 3):\n    print(i)"), "stdout:2\nstdout:5\n");
    CHECK_STR(out1("for i in range(3, 0, -1):\n    print(i)"), "stdout:3\nstdout:2\nstdout:1\n");
    CHECK_STR(out1("for i in range(0):\n    print(i)"), "");
    CHECK_STR(out1("for x in [1, 'a', 2.5]:\n    print(x)"), "stdout:1\nstdout:a\nstdout:2.5\n");
    CHECK_STR(out1("for c in 'h\xc3\xa9':\n    print(c)"), "stdout:h\nstdout:\xc3\xa9\n");
    CHECK_STR(out1("for i in range(10):\n    if i % 2 == 0:\n        continue\n    if i > 6:\n"
                   "        break\n    print(i)"),
              "stdout:1\nstdout:3\nstdout:5\n");
    CHECK_STR(eval1("for i in range(5):\n    pass\ni"), "4");
    CHECK_STR(eval1("total = 0\nfor i in range(1, 101):\n    total += i\ntotal"), "5050");
    CHECK_STR(ename1("for i in 5:\n    pass"), "TypeError");
}

static void test_nested(void)
{
    CHECK_STR(out1("for i in range(3):\n    for j in range(3):\n        if j > i:\n"
                   "            break\n        if (i + j) % 2 == 1:\n            continue\n"
                   "        print(i, j)"),
              "stdout:0 0\nstdout:1 1\nstdout:2 0\nstdout:2 2\n");
    CHECK_STR(out1("i = 0\nwhile i < 2:\n    for j in range(2):\n        print(i * 10 + j)\n"
                   "    i += 1\n"),
              "stdout:0\nstdout:1\nstdout:10\nstdout:11\n");
    CHECK_STR(out1("x = 3\nif x > 1:\n    if x > 2:\n        print('a')\n    else:\n"
                   "        print('b')\n    print('c')\nprint('d')"),
              "stdout:a\nstdout:c\nstdout:d\n");
    /* tabs and blank lines inside blocks */
    CHECK_STR(out1("for i in range(2):\n\tprint(i)\n\n\tprint('x')"),
              "stdout:0\nstdout:x\nstdout:1\nstdout:x\n");
    CHECK_STR(out1("for i in range(2):\n    # comment\n\n    print(i)  # trailing\n"),
              "stdout:0\nstdout:1\n");
    /* Windows line endings and backslash continuation */
    CHECK_STR(out1("x = 1\r\nif x:\r\n    print('crlf')\r\n\r\n"), "stdout:crlf\n");
    CHECK_STR(out1("y = 1 + \\\n    2\nprint(y)"), "stdout:3\n");
}

static void test_block_syntax_errors(void)
{
    CHECK_STR(ename1("if true:\nprint(1)"), "IndentationError");
    CHECK_STR(ename1("if true:\n    print(1)\n  print(2)"), "IndentationError");
    CHECK_STR(ename1("print(1)\n    print(2)"), "IndentationError");
    CHECK_STR(ename1("  x = 1\ny = 2"), "IndentationError"); /* below the cell's base */
    CHECK_STR(ename1("if true\n    print(1)"), "SyntaxError");
    CHECK_STR(ename1("break"), "SyntaxError");
    CHECK_STR(ename1("if true:\n    continue"), "SyntaxError");
    CHECK_STR(ename1("else:\n    pass"), "SyntaxError");
    CHECK_STR(ename1("for 1 in range(3):\n    pass"), "SyntaxError");
    CHECK_STR(ename1("for i range(3):\n    pass"), "SyntaxError");
    CHECK_STR(ename1("while true:"), "IndentationError");
    CHECK_STR(ename1("x = 1 +"), "SyntaxError");
    CHECK_STR(ename1("x = (1 +"), "SyntaxError");
    CHECK_STR(ename1("print(1))"), "SyntaxError");
    CHECK_STR(ename1("x = = 1"), "SyntaxError");
    CHECK_STR(ename1("1 2"), "SyntaxError");
    CHECK_STR(ename1("x = 1 $ 2"), "SyntaxError");
    CHECK_STR(ename1("print(\"hi)"), "SyntaxError");
    CHECK_STR(ename1("(1, 2) = 3"), "SyntaxError"); /* a tuple of literals is no target */
    CHECK_STR(ename1("a, f() = 1, 2"), "SyntaxError");
    CHECK_STR(ename1("for i, 1 in []:\n    pass"), "SyntaxError");
    CHECK_STR(ename1("assert"), "SyntaxError");
    CHECK_STR(ename1("(1, 2"), "SyntaxError");
    CHECK_STR(ename1("f(a=1, 2)"), "SyntaxError");
    CHECK_STR(ename1("print(sep='a', sep='b')"), "SyntaxError");
    CHECK_STR(ename1("007"), "SyntaxError");
    CHECK_STR(ename1("1abc"), "SyntaxError");
    /* a syntax error anywhere runs nothing */
    struct sink k = {0};
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell_with(s, "print('first')\nx = 1 +* 2", &k);
    CHECK_INT(o.rc, -1);
    CHECK_STR(k.log, "");
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_if);
    RUN_TEST(test_skip_cell);
    RUN_TEST(test_while);
    RUN_TEST(test_for);
    RUN_TEST(test_nested);
    RUN_TEST(test_block_syntax_errors);
    return TEST_SUMMARY();
}
