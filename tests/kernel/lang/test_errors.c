/* test_errors.c — error names, traceback layout and caret positions, state after errors,
 * limits, and garbage input that must never crash. */
#include "kernel/dsl_helpers.h"
#include "test.h"

#include <stdint.h>

static void test_traceback_layout(void)
{
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "x = 1\ny = x + qq");
    CHECK_INT(o.rc, -1);
    CHECK_STR(o.ename, "NameError");
    CHECK_STR(o.evalue, "name 'qq' is not defined");
    CHECK_INT(o.tb_lines, 4);
    CHECK_STR(o.tb, "  Cell line 2, column 9:\n"
                    "    y = x + qq\n"
                    "            ^\n"
                    "NameError: name 'qq' is not defined");

    o = run_cell(s, "print(1 / 0)");
    CHECK_STR(o.tb, "  Cell line 1, column 9:\n"
                    "    print(1 / 0)\n"
                    "            ^\n"
                    "ZeroDivisionError: division by zero");

    o = run_cell(s, "xs = [1, 2]\nfor i in range(3):\n    print(xs[i])");
    CHECK_STR(o.ename, "IndexError");
    CHECK_STR(o.tb, "  Cell line 3, column 13:\n"
                    "        print(xs[i])\n"
                    "                ^\n"
                    "IndexError: list index out of range");

    o = run_cell(s, "len(5)");
    CHECK_STR(o.tb, "  Cell line 1, column 1:\n"
                    "    len(5)\n"
                    "    ^\n"
                    "TypeError: object of type 'int' has no len()");

    /* syntax errors point at the offending token */
    o = run_cell(s, "x = 1\nx = x +* 2");
    CHECK_STR(o.ename, "SyntaxError");
    CHECK(strstr(o.tb, "  Cell line 2, column 8:\n    x = x +* 2\n           ^\n") == o.tb);

    o = run_cell(s, "a = 1 $ 2");
    CHECK_STR(o.ename, "SyntaxError");
    CHECK_STR(o.evalue, "invalid character '$'");
    CHECK(strstr(o.tb, "column 7:") != NULL);

    o = run_cell(s, "print(\"hi)");
    CHECK_STR(o.ename, "SyntaxError");
    CHECK_STR(o.evalue, "unterminated string literal");

    o = run_cell(s, "x = (1,\n  2");
    CHECK_STR(o.evalue, "'(' was never closed");
    CHECK(strstr(o.tb, "Cell line 1, column 5:") != NULL);

    /* columns count characters, not bytes */
    o = run_cell(s, "s = '\xc3\xa9\xc3\xa9' + qq");
    CHECK(strstr(o.tb, "column 12:\n    s = '\xc3\xa9\xc3\xa9' + qq\n               ^") != NULL);
    dsl_session_free(s);
}

static void test_name_suggestions(void)
{
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "prnt('x')");
    CHECK_STR(o.ename, "NameError");
    CHECK(strstr(o.evalue, "did you mean 'print'?") != NULL);
    run_cell(s, "counter = 1");
    o = run_cell(s, "countr + 1");
    CHECK(strstr(o.evalue, "did you mean 'counter'?") != NULL);
    o = run_cell(s, "ture");
    CHECK(strstr(o.evalue, "did you mean 'true'?") != NULL);
    o = run_cell(s, "completely_unknown");
    CHECK_STR(o.evalue, "name 'completely_unknown' is not defined");
    dsl_session_free(s);
}

static void test_state_kept_after_error(void)
{
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    struct outcome o = run_cell_with(s, "a = 1\nprint('before')\nb = a / 0\nc = 3", &k);
    CHECK_STR(o.ename, "ZeroDivisionError");
    CHECK_STR(k.log, "stdout:before\n"); /* output sent before the error stays sent */
    o = run_cell(s, "a");
    CHECK_STR(o.result, "1");
    o = run_cell(s, "b");
    CHECK_STR(o.ename, "NameError");
    o = run_cell(s, "c");
    CHECK_STR(o.ename, "NameError");
    /* loop variables and accumulators keep the values of the iterations that ran */
    o = run_cell(s, "t = 0\nfor i in range(10):\n    t += 10 // (5 - i)");
    CHECK_STR(o.ename, "ZeroDivisionError");
    CHECK_STR(run_cell(s, "[i, t]").result, "[5, 22]");
    dsl_session_free(s);
}

static void test_reset(void)
{
    struct dsl_session *s = dsl_session_new();
    run_cell(s, "x = 5");
    CHECK_STR(run_cell(s, "x").result, "5");
    dsl_session_reset(s);
    CHECK_STR(run_cell(s, "x").ename, "NameError");
    CHECK_STR(run_cell(s, "len('ab')").result, "2");
    run_cell(s, "y = 'kept'");
    CHECK_STR(run_cell(s, "y").result, "'kept'");
    /* many variables: the table grows */
    for (int i = 0; i < 500; i++) {
        char code[64];
        snprintf(code, sizeof code, "v%d = %d", i, i * 2);
        CHECK_INT(run_cell(s, code).rc, 0);
    }
    CHECK_STR(run_cell(s, "v0 + v499 + v250").result, "1498");
    dsl_session_free(s);
}

static void test_limits(void)
{
    char *code = malloc(1 << 16);
    /* 200 nested brackets */
    size_t n = 0;
    for (int i = 0; i < 200; i++) code[n++] = '(';
    code[n++] = '1';
    for (int i = 0; i < 200; i++) code[n++] = ')';
    code[n] = '\0';
    const char *e = ename1(code);
    CHECK(strcmp(e, "SyntaxError") == 0 || strcmp(e, "RecursionError") == 0);
    /* 200 nested lists */
    n = 0;
    for (int i = 0; i < 200; i++) code[n++] = '[';
    for (int i = 0; i < 200; i++) code[n++] = ']';
    code[n] = '\0';
    e = ename1(code);
    CHECK(strcmp(e, "SyntaxError") == 0 || strcmp(e, "RecursionError") == 0);
    /* 50 nested brackets are fine */
    n = 0;
    for (int i = 0; i < 50; i++) code[n++] = '(';
    code[n++] = '7';
    for (int i = 0; i < 50; i++) code[n++] = ')';
    code[n] = '\0';
    CHECK_STR(eval1(code), "7");
    /* 200 nested blocks */
    n = 0;
    for (int i = 0; i < 200; i++) {
        for (int j = 0; j < i; j++) code[n++] = ' ';
        n += (size_t)sprintf(code + n, "if true:\n");
    }
    for (int j = 0; j < 200; j++) code[n++] = ' ';
    n += (size_t)sprintf(code + n, "pass\n");
    e = ename1(code);
    CHECK(strcmp(e, "SyntaxError") == 0 || strcmp(e, "RecursionError") == 0);
    /* a long flat chain of operators */
    n = 0;
    for (int i = 0; i < 5000; i++) n += (size_t)sprintf(code + n, "1+");
    code[n++] = '1';
    code[n] = '\0';
    e = ename1(code);
    CHECK(strcmp(e, "SyntaxError") == 0 || strcmp(e, "RecursionError") == 0);
    /* unary chains */
    memset(code, '-', 10000);
    strcpy(code + 10000, "1");
    e = ename1(code);
    CHECK(strcmp(e, "SyntaxError") == 0 || strcmp(e, "RecursionError") == 0);
    memset(code, '-', 10);
    strcpy(code + 10, "1");
    CHECK_STR(eval1(code), "1");
    free(code);

    /* big values */
    CHECK_STR(ename1("s = 'a' * (64 * 1024 * 1024 + 1)"), "MemoryError");
    CHECK_STR(ename1("s = 'ab' * (40 * 1024 * 1024)"), "MemoryError");
    CHECK_STR(ename1("s = 'a' * (1024 * 1024)\nwhile true:\n    s = s + s"), "MemoryError");
    CHECK_STR(ename1("xs = [0] * 100000000"), "MemoryError");
    CHECK_STR(ename1("list(range(100000000))"), "MemoryError");
    CHECK_STR(ename1("'a' * 9223372036854775807"), "MemoryError");
    CHECK_STR(eval1("len('ab' * 1000000)"), "2000000");
    /* lists nested at run time: building and freeing any depth is fine (no recursion), showing
     * past DSL_MAX_LIST_DEPTH levels is a RecursionError, as in Python */
    CHECK_STR(ename1("x = []\nfor i in range(100000):\n    x = [x]"), "ok");
    CHECK_STR(ename1("x = []\nfor i in range(1000):\n    x = [x]\ns = str(x)"), "RecursionError");
    CHECK_STR(eval1("x = []\nfor i in range(50):\n    x = [x]\nlen(str(x))"), "102");
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void run_garbage(struct dsl_session *s, const char *code)
{
    struct outcome o = run_cell(s, code);
    CHECK(o.rc == 0 || o.rc == -1);
    if (o.rc == -1) CHECK(o.tb_lines >= 1 && o.ename[0] != '\0');
    const char *indent = NULL;
    const char *st = dsl_is_complete(code, &indent);
    CHECK(strcmp(st, "complete") == 0 || strcmp(st, "incomplete") == 0 ||
          strcmp(st, "invalid") == 0);
    CHECK(indent != NULL);
    size_t len = strlen(code), start, end;
    json_t *c = dsl_complete(s, code, len / 2, &start, &end);
    CHECK(c != NULL && json_is_array(c));
    json_decref(c);
    json_decref(dsl_inspect(s, code, len / 2, 0));
    json_t *r = NULL;
    struct dsl_error err = {0};
    if (dsl_evaluate(s, code, &r, &err) != 0) dsl_error_clear(&err);
    json_decref(r);
}

static void test_garbage(void)
{
    struct dsl_session *s = dsl_session_new();
    char buf[512];
    /* random bytes (no NUL) */
    for (int t = 0; t < 3000; t++) {
        size_t n = rng() % (sizeof buf - 1);
        for (size_t i = 0; i < n; i++) {
            char c;
            do {
                c = (char)(rng() & 0xFF);
            } while (c == 0);
            buf[i] = c;
        }
        buf[n] = '\0';
        run_garbage(s, buf);
    }
    /* random sequences drawn from the language's own alphabet, which reach deeper */
    static const char *const pieces[] = {
        "x",    "y",    "1",      "2.5",    "'s'",      "(",     ")",    "[",     "]",
        ",",    ":",    "\n",     "    ",   "+",        "-",     "*",    "/",     "//",
        "%",    "**",   "=",      "==",     "<",        "if ",   "else", "elif ", "while ",
        "for ", " in ", "range(", "print(", "not ",     " and ", " or ", "break", "continue",
        "pass", ";",    "#c",     "true",   "none",     "len(",  "[0]",  "\"",    "'",
        "\\",   "\t",   "min(",   "sep=",   "display(",
    };
    size_t npieces = sizeof pieces / sizeof pieces[0];
    for (int t = 0; t < 3000; t++) {
        size_t n = 0, count = rng() % 40;
        for (size_t i = 0; i < count; i++) {
            const char *p = pieces[rng() % npieces];
            size_t l = strlen(p);
            if (n + l >= sizeof buf) break;
            memcpy(buf + n, p, l);
            n += l;
        }
        buf[n] = '\0';
        /* no infinite loops: while bodies that never finish are avoided by the cancel test */
        if (strstr(buf, "while")) continue;
        run_garbage(s, buf);
    }
    /* a long string and a long line */
    size_t big = 1 << 20;
    char *longs = malloc(big + 3);
    longs[0] = '"';
    memset(longs + 1, 'z', big);
    longs[big + 1] = '"';
    longs[big + 2] = '\0';
    CHECK_INT(run_cell(s, longs).rc, 0);
    longs[big + 1] = '\0'; /* unterminated */
    CHECK_STR(run_cell(s, longs).ename, "SyntaxError");
    free(longs);
    dsl_session_free(s);
}

static void test_invalid_utf8(void)
{
    CHECK_STR(ename1("x = '\xff'"), "SyntaxError");
    CHECK_STR(ename1("x = 1 \xc3"), "SyntaxError");
    CHECK_STR(ename1("\xe2\x82\xac = 1"), "SyntaxError");
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "x = '\xff'");
    CHECK(strstr(o.tb, "\xef\xbf\xbd") != NULL); /* the bad byte shows as U+FFFD */
    dsl_session_free(s);
}

/* `from __future__ import ...`: Python 3's features are accepted (each is how the language
 * already behaves), anywhere CPython allows them; the rest with CPython's words. */
static void test_future_imports(void)
{
    CHECK_STR(eval1("from __future__ import annotations, division\nx = 1\nx"), "1");
    CHECK_STR(eval1("'''doc'''\nfrom __future__ import annotations\n"
                    "from __future__ import (print_function as p)\n2"),
              "2");
    CHECK_STR(eval1("from __future__ import nope"),
              "<SyntaxError: future feature nope is not defined>");
    CHECK_STR(eval1("from __future__ import braces"), "<SyntaxError: not a chance>");
    CHECK_STR(eval1("import math\nfrom __future__ import annotations"),
              "<SyntaxError: from __future__ imports must occur at the beginning of the file>");
    CHECK_STR(eval1("def f():\n    from __future__ import annotations"),
              "<SyntaxError: from __future__ imports must occur at the beginning of the file>");
}

int main(void)
{
    RUN_TEST(test_traceback_layout);
    RUN_TEST(test_name_suggestions);
    RUN_TEST(test_state_kept_after_error);
    RUN_TEST(test_reset);
    RUN_TEST(test_limits);
    RUN_TEST(test_garbage);
    RUN_TEST(test_invalid_utf8);
    RUN_TEST(test_future_imports);
    return TEST_SUMMARY();
}
