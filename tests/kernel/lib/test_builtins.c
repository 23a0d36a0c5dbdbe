/* test_builtins.c — output builtins (print, warn, display, update_display, clear_output, help,
 * input), keyword arguments and the conversion builtins. */
#include "kernel/dsl_helpers.h"
#include "test.h"

static struct sink k;

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static struct outcome run_k(struct dsl_session *s, const char *code)
{
    memset(&k, 0, sizeof k);
    return run_cell_with(s, code, &k);
}

static void test_print(void)
{
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_k(s, "print('hi')");
    CHECK_INT(o.rc, 0);
    CHECK(!o.has_result);
    CHECK_STR(k.log, "stdout:hi\n");
    CHECK_INT(k.nstream, 1);

    run_k(s, "print(1, 2.5, 'a', [1, 'b'], true, none)");
    CHECK_STR(k.log, "stdout:1 2.5 a [1, 'b'] True None\n");
    CHECK_INT(k.nstream, 1); /* one callback per print call */

    run_k(s, "print(1, 2, sep='-', end='!')");
    CHECK_STR(k.log, "stdout:1-2!");
    run_k(s, "print('a', 'b', sep='')");
    CHECK_STR(k.log, "stdout:ab\n");
    run_k(s, "print()");
    CHECK_STR(k.log, "stdout:\n");
    run_k(s, "print('x', end=none)");
    CHECK_STR(k.log, "stdout:x\n");
    run_k(s, "print('a')\nprint('b')");
    CHECK_STR(k.log, "stdout:a\nstdout:b\n");
    CHECK_INT(k.nstream, 2);

    o = run_k(s, "print('a', foo=1)");
    CHECK_STR(o.ename, "TypeError");
    CHECK(strstr(o.evalue, "unexpected keyword argument 'foo'") != NULL);
    o = run_k(s, "print('a', sep=1)");
    CHECK_STR(o.ename, "TypeError");
    dsl_session_free(s);
}

static void test_warn(void)
{
    struct dsl_session *s = dsl_session_new();
    run_k(s, "warn('careful', 42)");
    CHECK_STR(k.log, "stderr:careful 42\n");
    CHECK_INT(k.nstream, 1);
    struct outcome o = run_k(s, "warn('x', sep='-')");
    CHECK_STR(o.ename, "TypeError");
    dsl_session_free(s);
}

static void test_display(void)
{
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_k(s, "display(42)\ndisplay('a')\ndisplay([1, 2.0])");
    CHECK_INT(o.rc, 0);
    CHECK_STR(k.log, "display[-,0]:42\ndisplay[-,0]:'a'\ndisplay[-,0]:[1, 2.0]\n");
    CHECK_INT(k.ndisplay, 3);

    run_k(s, "display(1, display_id='bar')\nupdate_display(2, display_id='bar')");
    CHECK_STR(k.log, "display[bar,0]:1\ndisplay[bar,1]:2\n");
    run_k(s, "display(none)");
    CHECK_STR(k.log, "display[-,0]:None\n");
    run_k(s, "update_display(3, 'pos')");
    CHECK_STR(k.log, "display[pos,1]:3\n");

    o = run_k(s, "update_display(3)");
    CHECK_STR(o.ename, "TypeError");
    CHECK_STR(k.log, "");
    o = run_k(s, "update_display(3, display_id=7)");
    CHECK_STR(o.ename, "TypeError");
    o = run_k(s, "display(3, display_id=7)");
    CHECK_STR(o.ename, "TypeError");
    o = run_k(s, "display()");
    CHECK_STR(o.ename, "TypeError");
    o = run_k(s, "display(1, 2, 3)");
    CHECK_STR(o.ename, "TypeError");
    o = run_k(s, "display(1, display_id='a', colour=2)");
    CHECK_STR(o.ename, "TypeError");
    o = run_k(s, "display(1, 'a', display_id='b')");
    CHECK_STR(o.ename, "TypeError");
    dsl_session_free(s);
}

static void test_clear_output(void)
{
    struct dsl_session *s = dsl_session_new();
    run_k(s, "print(1)\nclear_output()\nclear_output(wait=true)\nclear_output(true)");
    CHECK_STR(k.log, "stdout:1\nclear(0)\nclear(1)\nclear(1)\n");
    CHECK_INT(k.nclear, 3);
    dsl_session_free(s);
}

static void test_null_callbacks(void)
{
    struct dsl_session *s = dsl_session_new();
    struct dsl_output none = {0};
    json_t *result = NULL;
    struct dsl_error err = {0};
    int rc = dsl_execute(s, "print(1)\nwarn(2)\ndisplay(3)\nclear_output()\nhelp(len)\n7", &none,
                         &result, &err);
    CHECK_INT(rc, 0);
    CHECK(result != NULL);
    json_decref(result);
    rc = dsl_execute(s, "print(1)\n8", NULL, &result, &err);
    CHECK_INT(rc, 0);
    CHECK_STR(json_string_value(json_object_get(result, "text/plain")), "8");
    json_decref(result);
    dsl_session_free(s);
}

static void test_help(void)
{
    struct dsl_session *s = dsl_session_new();
    run_k(s, "help(print)");
    CHECK_INT(k.npage, 1);
    CHECK(starts_with(k.log, "page:print(*args, sep=\" \", end=\"\\n\")\n\n"));
    run_k(s, "help('len')");
    CHECK(starts_with(k.log, "page:len(x)\n\n"));
    run_k(s, "help(3)");
    CHECK(starts_with(k.log, "page:int:"));
    run_k(s, "help()");
    CHECK(strstr(k.log, "update_display(value, display_id)") != NULL);
    /* without a page callback the text goes to stdout */
    struct sink plain = {0};
    struct dsl_output out = sink_output(&plain);
    out.page = NULL;
    json_t *result = NULL;
    struct dsl_error err = {0};
    CHECK_INT(dsl_execute(s, "help(sleep)", &out, &result, &err), 0);
    CHECK(starts_with(plain.log, "stdout:sleep(seconds)\n\n"));
    CHECK_INT(plain.npage, 0);
    dsl_session_free(s);
}

static void test_input(void)
{
    struct dsl_session *s = dsl_session_new();
    memset(&k, 0, sizeof k);
    k.input_reply = "Ada";
    struct outcome o = run_cell_with(s, "name = input('Name? ')\nprint('hi', name)\nname", &k);
    CHECK_INT(o.rc, 0);
    CHECK_STR(o.result, "'Ada'");
    CHECK_STR(k.last_prompt, "Name? ");
    CHECK(!k.last_password);
    CHECK_STR(k.log, "stdout:hi Ada\n");

    memset(&k, 0, sizeof k);
    k.input_reply = "secret\n";
    o = run_cell_with(s, "input(prompt='pw: ', password=true)", &k);
    CHECK_STR(o.result, "'secret'");
    CHECK_STR(k.last_prompt, "pw: ");
    CHECK(k.last_password);

    memset(&k, 0, sizeof k);
    k.input_reply = NULL;
    k.input_why = "stdin is not allowed for this request";
    o = run_cell_with(s, "x = 1\ninput()", &k);
    CHECK_STR(o.ename, "StdinNotImplementedError");
    CHECK_STR(o.evalue, "stdin is not allowed for this request");

    /* no input callback at all */
    struct sink plain = {0};
    struct dsl_output out = sink_output(&plain);
    out.input = NULL;
    json_t *result = NULL;
    struct dsl_error err = {0};
    CHECK_INT(dsl_execute(s, "input('?')", &out, &result, &err), -1);
    CHECK_STR(err.ename, "StdinNotImplementedError");
    CHECK_STR(err.evalue, "input() is not available: the frontend does not support input requests");
    dsl_error_clear(&err);
    dsl_session_free(s);
}

static void test_flush_before_waiting(void)
{
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_k(s, "print('a')\nsleep(0)\nprint('b')");
    CHECK_INT(o.rc, 0);
    CHECK_INT(k.nflush, 1);
    CHECK_INT(k.len_at_flush, strlen("stdout:a\n")); /* flushed after 'a', before 'b' */
    memset(&k, 0, sizeof k);
    k.input_reply = "y";
    o = run_cell_with(s, "print('q')\ninput('ok? ')", &k);
    CHECK_INT(o.rc, 0);
    CHECK_INT(k.nflush, 1);
    CHECK_INT(k.len_at_flush, strlen("stdout:q\n"));
    o = run_k(s, "print('no wait')");
    CHECK_INT(k.nflush, 0);
    dsl_session_free(s);
}

/* A long loop lets the sink flush while it runs (every 50 ms), so output printed before it is
 * not held until it ends; 3,000,000 iterations take well over 50 ms even in a release build. */
static void test_flush_from_long_loops(void)
{
    struct dsl_session *s = dsl_session_new();
    memset(&k, 0, sizeof k);
    struct outcome o =
        run_cell_with(s, "print('start')\ni = 0\nwhile i < 3000000:\n    i += 1", &k);
    CHECK_INT(o.rc, 0);
    CHECK(k.nflush >= 1);
    CHECK_INT(k.len_at_flush, strlen("stdout:start\n"));
    memset(&k, 0, sizeof k);
    o = run_cell_with(s, "j = 0\nwhile j < 100:\n    j += 1", &k); /* too short to flush */
    CHECK_INT(k.nflush, 0);
    dsl_session_free(s);
}

static void test_conversions(void)
{
    CHECK_STR(eval1("len('abc') + len([1]) + len(range(4))"), "8");
    CHECK_STR(eval1("str(42)"), "'42'");
    CHECK_STR(eval1("str(2.0)"), "'2.0'");
    CHECK_STR(eval1("str('a')"), "'a'");
    CHECK_STR(eval1("str([1, 'a'])"), "\"[1, 'a']\"");
    CHECK_STR(eval1("str(true)"), "'True'");
    CHECK_STR(eval1("repr('a')"), "\"'a'\"");
    CHECK_STR(eval1("int(3.9)"), "3");
    CHECK_STR(eval1("int(-3.9)"), "-3");
    CHECK_STR(eval1("int(' 42 ')"), "42");
    CHECK_STR(eval1("int('-1_000')"), "-1000");
    CHECK_STR(eval1("int(true)"), "1");
    CHECK_STR(ename1("int('abc')"), "ValueError");
    CHECK_STR(ename1("int('')"), "ValueError");
    CHECK_STR(ename1("int(float('nan'))"), "ValueError");
    CHECK_STR(ename1("int(float('inf'))"), "OverflowError");
    CHECK_STR(ename1("int('99999999999999999999')"), "OverflowError");
    CHECK_STR(ename1("int([1])"), "TypeError");
    CHECK_STR(eval1("float(3)"), "3.0");
    CHECK_STR(eval1("float('1.5')"), "1.5");
    CHECK_STR(eval1("float(' -2e3 ')"), "-2000.0");
    CHECK_STR(eval1("float('Infinity')"), "inf");
    CHECK_STR(ename1("float('abc')"), "ValueError");
    CHECK_STR(ename1("float('0x10')"), "ValueError");
    CHECK_STR(eval1("bool(0)"), "False");
    CHECK_STR(eval1("bool('x')"), "True");
    CHECK_STR(eval1("abs(-3)"), "3");
    CHECK_STR(eval1("abs(-2.5)"), "2.5");
    CHECK_STR(ename1("abs('a')"), "TypeError");
    CHECK_STR(eval1("min(3, 1, 2)"), "1");
    CHECK_STR(eval1("max([3, 7, 2])"), "7");
    CHECK_STR(eval1("max(1, 2.5)"), "2.5");
    CHECK_STR(eval1("min('b', 'a')"), "'a'");
    CHECK_STR(eval1("max(range(5))"), "4");
    CHECK_STR(ename1("min([])"), "ValueError");
    CHECK_STR(ename1("max()"), "TypeError");
    CHECK_STR(ename1("max(1, 'a')"), "TypeError");
    CHECK_STR(eval1("sum([1, 2, 3])"), "6");
    CHECK_STR(eval1("sum(range(5), start=10)"), "20");
    CHECK_STR(eval1("sum([0.5, 0.25])"), "0.75");
    CHECK_STR(eval1("round(2.5)"), "2");
    CHECK_STR(eval1("round(3.5)"), "4");
    CHECK_STR(eval1("round(-0.5)"), "0");
    CHECK_STR(eval1("round(3.14159, 2)"), "3.14");
    CHECK_STR(eval1("round(2.675, 2)"), "2.67");
    CHECK_STR(eval1("round(1234, -2)"), "1200");
    CHECK_STR(eval1("round(1250, -2)"), "1200");
    CHECK_STR(eval1("type(1)"), "<class 'int'>");
    CHECK_STR(eval1("type(1.0)"), "<class 'float'>");
    CHECK_STR(eval1("type('a')"), "<class 'str'>");
    CHECK_STR(eval1("type(none)"), "<class 'NoneType'>");
    CHECK_STR(eval1("type([])"), "<class 'list'>");
    CHECK_STR(eval1("type(print)"), "<class 'builtin_function_or_method'>");
    CHECK_STR(eval1("print"), "<built-in function print>");
    CHECK_STR(eval1("list('ab')"), "['a', 'b']");
    CHECK_STR(eval1("list()"), "[]");
    CHECK_STR(ename1("len(5)"), "TypeError");
    CHECK_STR(ename1("len()"), "TypeError");
    CHECK_STR(ename1("len(1, 2)"), "TypeError");
    CHECK_STR(ename1("len(x=1)"), "TypeError");
    CHECK_STR(ename1("5()"), "TypeError");
    CHECK_STR(ename1("sleep('a')"), "TypeError");
    CHECK_STR(ename1("sleep(-1)"), "ValueError");
    CHECK_STR(eval1("sleep(0.01)"), "<none>");
    CHECK_STR(eval1("sleep(seconds=0)"), "<none>");
    CHECK_STR(ename1("'a'.uper"), "AttributeError");
    CHECK_STR(ename1("'a'.translate"), "NotImplementedError");
    CHECK_STR(eval1("'a'.upper()"), "'A'");
}

int main(void)
{
    RUN_TEST(test_print);
    RUN_TEST(test_warn);
    RUN_TEST(test_display);
    RUN_TEST(test_clear_output);
    RUN_TEST(test_null_callbacks);
    RUN_TEST(test_help);
    RUN_TEST(test_input);
    RUN_TEST(test_flush_before_waiting);
    RUN_TEST(test_flush_from_long_loops);
    RUN_TEST(test_conversions);
    return TEST_SUMMARY();
}
