/* test_values.c — literals, operators and the text/plain repr of every value kind. */
#include "kernel/dsl_helpers.h"
#include "test.h"

static void test_int_repr_and_arith(void)
{
    CHECK_STR(eval1("42"), "42");
    CHECK_STR(eval1("x = 6\nx * 7"), "42");
    CHECK_STR(eval1("-5"), "-5");
    CHECK_STR(eval1("2 + 3 * 4"), "14");
    CHECK_STR(eval1("(2 + 3) * 4"), "20");
    CHECK_STR(eval1("2 ** 10"), "1024");
    CHECK_STR(eval1("2 ** 3 ** 2"), "512");
    CHECK_STR(eval1("-2 ** 2"), "-4");
    CHECK_STR(eval1("2 ** -1"), "0.5");
    CHECK_STR(eval1("7 // 2"), "3");
    CHECK_STR(eval1("-7 // 2"), "-4");
    CHECK_STR(eval1("7 // -2"), "-4");
    CHECK_STR(eval1("-7 % 3"), "2");
    CHECK_STR(eval1("7 % -3"), "-2");
    CHECK_STR(eval1("7 / 2"), "3.5");
    CHECK_STR(eval1("6 / 3"), "2.0");
    CHECK_STR(eval1("1_000_000"), "1000000");
    CHECK_STR(eval1("0x10 + 0b11 + 0o7"), "26");
    CHECK_STR(eval1("true + true"), "2");
    CHECK_STR(eval1("+3"), "3");
    CHECK_STR(eval1("9223372036854775807"), "9223372036854775807");
}

static void test_int_overflow(void)
{
    CHECK_STR(ename1("9223372036854775807 + 1"), "OverflowError");
    CHECK_STR(ename1("x = -9223372036854775807 - 1\nx - 1"), "OverflowError");
    CHECK_STR(ename1("x = -9223372036854775807 - 1\n-x"), "OverflowError");
    CHECK_STR(ename1("3037000500 * 3037000500"), "OverflowError");
    CHECK_STR(ename1("2 ** 63"), "OverflowError");
    CHECK_STR(eval1("2 ** 62"), "4611686018427387904");
    CHECK_STR(ename1("99999999999999999999"), "OverflowError");
    CHECK_STR(ename1("x = -9223372036854775807 - 1\nx // -1"), "OverflowError");
    CHECK_STR(ename1("abs(-9223372036854775807 - 1)"), "OverflowError");
}

static void test_division_by_zero(void)
{
    CHECK_STR(ename1("1 / 0"), "ZeroDivisionError");
    CHECK_STR(ename1("1 // 0"), "ZeroDivisionError");
    CHECK_STR(ename1("1 % 0"), "ZeroDivisionError");
    CHECK_STR(ename1("1.5 / 0.0"), "ZeroDivisionError");
    CHECK_STR(ename1("1.5 // 0"), "ZeroDivisionError");
    CHECK_STR(ename1("1.5 % 0"), "ZeroDivisionError");
    CHECK_STR(ename1("0 ** -1"), "ZeroDivisionError");
    CHECK_STR(eval1("1 / 0"), "<ZeroDivisionError: division by zero>");
}

static void test_float_repr(void)
{
    CHECK_STR(eval1("0.5"), "0.5");
    CHECK_STR(eval1("2.0"), "2.0");
    CHECK_STR(eval1("1e20"), "1e+20");
    CHECK_STR(eval1("0.1"), "0.1");
    CHECK_STR(eval1("0.1 + 0.2"), "0.30000000000000004");
    CHECK_STR(eval1("float(\"inf\")"), "inf");
    CHECK_STR(eval1("-float(\"inf\")"), "-inf");
    CHECK_STR(eval1("float(\"nan\")"), "nan");
    CHECK_STR(eval1("-0.0"), "-0.0");
    CHECK_STR(eval1("0.0"), "0.0");
    CHECK_STR(eval1("1e16"), "1e+16");
    CHECK_STR(eval1("1e15"), "1000000000000000.0");
    CHECK_STR(eval1("123456789.125"), "123456789.125");
    CHECK_STR(eval1("0.0001"), "0.0001");
    CHECK_STR(eval1("0.00001"), "1e-05");
    CHECK_STR(eval1("1.5e-7"), "1.5e-07");
    CHECK_STR(eval1("1/3"), "0.3333333333333333");
    CHECK_STR(eval1("2/3"), "0.6666666666666666");
    CHECK_STR(eval1("1e308 * 10"), "inf");
    CHECK_STR(eval1("5e-324"), "5e-324");
    CHECK_STR(eval1("1.7976931348623157e308"), "1.7976931348623157e+308");
    CHECK_STR(eval1("100.0"), "100.0");
    CHECK_STR(eval1(".5"), "0.5");
    CHECK_STR(eval1("3."), "3.0");
    CHECK_STR(eval1("-7.5 // 2"), "-4.0");
    CHECK_STR(eval1("-7.5 % 2"), "0.5");
    CHECK_STR(eval1("7.5 % -2"), "-0.5");
    CHECK_STR(eval1("2.0 ** 0.5"), "1.4142135623730951");
    CHECK_STR(ename1("(-8.0) ** 0.5"), "ValueError");
    CHECK_STR(ename1("10.0 ** 400"), "OverflowError");
}

static void test_strings(void)
{
    CHECK_STR(eval1("\"abc\""), "'abc'");
    CHECK_STR(eval1("'abc'"), "'abc'");
    CHECK_STR(eval1("\"it's\""), "\"it's\"");
    CHECK_STR(eval1("'say \"hi\"'"), "'say \"hi\"'");
    CHECK_STR(eval1("'both \\' and \"'"), "'both \\' and \"'");
    CHECK_STR(eval1("\"a\\nb\\tc\\\\\""), "'a\\nb\\tc\\\\'");
    CHECK_STR(eval1("\"h\xc3\xa9llo \xe2\x82\xac\""), "'h\xc3\xa9llo \xe2\x82\xac'");
    CHECK_STR(eval1("\"ab\" + \"cd\""), "'abcd'");
    CHECK_STR(eval1("\"ab\" * 3"), "'ababab'");
    CHECK_STR(eval1("3 * \"ab\""), "'ababab'");
    CHECK_STR(eval1("\"ab\" * -1"), "''");
    CHECK_STR(eval1("\"\""), "''");
    CHECK_STR(eval1("\"a\" \"b\""), "'ab'");
    CHECK_STR(eval1("\"h\xc3\xa9llo\"[1]"), "'\xc3\xa9'");
    CHECK_STR(eval1("\"hello\"[-1]"), "'o'");
    CHECK_STR(eval1("len(\"h\xc3\xa9llo\")"), "5");
    CHECK_STR(eval1("\"\\x41\\u00e9\""), "'A\xc3\xa9'");
    CHECK_STR(eval1("\"\"\"two\nlines\"\"\""), "'two\\nlines'");
    CHECK_STR(eval1("\"a\" < \"b\""), "True");
    CHECK_STR(eval1("\"ell\" in \"hello\""), "True");
    CHECK_STR(eval1("\"\\x01\""), "'\\x01'");
    CHECK_STR(eval1("\"\\u00a0\\u2028\""), "'\\xa0\\u2028'"); /* not printable */
    CHECK_STR(ename1("\"a\" + 1"), "TypeError");
    CHECK_STR(ename1("\"a\" * 1.5"), "TypeError");
    CHECK_STR(ename1("\"a\" - \"b\""), "TypeError");
    CHECK_STR(ename1("\"abc\"[3]"), "IndexError");
}

static void test_bool_none(void)
{
    CHECK_STR(eval1("true"), "True");
    CHECK_STR(eval1("False"), "False");
    CHECK_STR(eval1("True"), "True");
    CHECK_STR(eval1("none"), "<none>");
    CHECK_STR(eval1("None"), "<none>");
    CHECK_STR(eval1("1 < 2"), "True");
    CHECK_STR(eval1("1 < 2 < 3"), "True");
    CHECK_STR(eval1("3 > 2 > 2"), "False");
    CHECK_STR(eval1("1 == 1.0"), "True");
    CHECK_STR(eval1("1 != 2"), "True");
    CHECK_STR(eval1("2 >= 2 and 1 <= 0"), "False");
    CHECK_STR(eval1("not 1 == 2"), "True");
    CHECK_STR(eval1("0 or 5"), "5");
    CHECK_STR(eval1("3 and 5"), "5");
    CHECK_STR(eval1("0 and 1 / 0"), "0");
    CHECK_STR(eval1("1 or 1 / 0"), "1");
    CHECK_STR(eval1("not none"), "True");
    CHECK_STR(eval1("none == none"), "True");
    CHECK_STR(eval1("\"a\" == 1"), "False");
    CHECK_STR(ename1("\"a\" < 1"), "TypeError");
}

static void test_lists(void)
{
    CHECK_STR(eval1("[1, 2.5, 'a']"), "[1, 2.5, 'a']");
    CHECK_STR(eval1("[]"), "[]");
    CHECK_STR(eval1("[[1, 2], [3]]"), "[[1, 2], [3]]");
    CHECK_STR(eval1("[true, none, \"x\"]"), "[True, None, 'x']");
    CHECK_STR(eval1("xs = [10, 20, 30]\nxs[0] + xs[-1]"), "40");
    CHECK_STR(eval1("[1, 2] + [3]"), "[1, 2, 3]");
    CHECK_STR(eval1("[0] * 3"), "[0, 0, 0]");
    CHECK_STR(eval1("len([1, 2, 3])"), "3");
    CHECK_STR(eval1("[1, 2] == [1, 2]"), "True");
    CHECK_STR(eval1("[1, 2] < [1, 3]"), "True");
    CHECK_STR(eval1("2 in [1, 2]"), "True");
    CHECK_STR(eval1("5 not in [1, 2]"), "True");
    CHECK_STR(eval1("[1,\n 2,\n 3,\n]"), "[1, 2, 3]");
    CHECK_STR(eval1("xs = []\nfor i in range(4):\n    xs += [i * i]\nxs"), "[0, 1, 4, 9]");
    CHECK_STR(eval1("a = [1]\nb = a\nb += [2]\n[a, b]"), "[[1, 2], [1, 2]]"); /* shared */
    CHECK_STR(ename1("[1, 2][2]"), "IndexError");
    CHECK_STR(ename1("[1, 2][-3]"), "IndexError");
    CHECK_STR(ename1("[1, 2][0.5]"), "TypeError");
    CHECK_STR(ename1("zeros(2).shape[0] = 2"), "TypeError"); /* a tuple */
    CHECK_STR(ename1("5[0]"), "TypeError");
    CHECK_STR(eval1("[1, 2][2]"), "<IndexError: list index out of range>");
}

static void test_range_values(void)
{
    CHECK_STR(eval1("range(3)"), "range(0, 3)");
    CHECK_STR(eval1("range(1, 10, 2)"), "range(1, 10, 2)");
    CHECK_STR(eval1("list(range(3))"), "[0, 1, 2]");
    CHECK_STR(eval1("list(range(5, 0, -2))"), "[5, 3, 1]");
    CHECK_STR(eval1("len(range(0, 10, 3))"), "4");
    CHECK_STR(eval1("range(10)[-1]"), "9");
    CHECK_STR(eval1("3 in range(1, 5)"), "True");
    CHECK_STR(ename1("range(1, 2, 0)"), "ValueError");
    CHECK_STR(ename1("range(1.5)"), "TypeError");
}

static void test_result_suppression(void)
{
    CHECK_STR(eval1("x = 5"), "<none>");
    CHECK_STR(eval1("5;"), "<none>");
    CHECK_STR(eval1("5; 6"), "6");
    CHECK_STR(eval1("5\n"), "5");
    CHECK_STR(eval1("5\n# comment\n\n"), "5");
    CHECK_STR(eval1("print(1)"), "<none>");
    CHECK_STR(eval1("x = 1; x"), "1");
    CHECK_STR(eval1("if true:\n    5\n"), "<none>");
    CHECK_STR(eval1(""), "<none>");
    CHECK_STR(eval1("   \n\n"), "<none>");
    CHECK_STR(eval1("  x = 3\n  x + 1"), "4"); /* common leading indentation is ignored */
}

static void test_assignment(void)
{
    CHECK_STR(eval1("x = y = 3\nx + y"), "6");
    CHECK_STR(eval1("x = 10\nx += 5\nx -= 3\nx *= 2\nx"), "24");
    CHECK_STR(eval1("x = 10\nx /= 4\nx"), "2.5");
    CHECK_STR(eval1("x = 10\nx //= 4\nx %= 2\nx"), "0");
    CHECK_STR(eval1("x = 2\nx **= 3\nx"), "8");
    CHECK_STR(eval1("s = 'a'\ns += 'b'\ns += 'c'\ns"), "'abc'");
    CHECK_STR(eval1("s = 'a'\nt = s\ns += 'b'\n[s, t]"), "['ab', 'a']");
    CHECK_STR(ename1("y += 1"), "NameError");
    CHECK_STR(ename1("1 = 2"), "SyntaxError");
    CHECK_STR(ename1("f() = 2"), "SyntaxError");
}

int main(void)
{
    RUN_TEST(test_int_repr_and_arith);
    RUN_TEST(test_int_overflow);
    RUN_TEST(test_division_by_zero);
    RUN_TEST(test_float_repr);
    RUN_TEST(test_strings);
    RUN_TEST(test_bool_none);
    RUN_TEST(test_lists);
    RUN_TEST(test_range_values);
    RUN_TEST(test_result_suppression);
    RUN_TEST(test_assignment);
    return TEST_SUMMARY();
}
