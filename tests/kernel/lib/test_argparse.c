/* test_argparse.c — argparse's errors, each CPython 3.11's: an error in the arguments writes
 * the usage and "PROG: error: ..." to stderr and raises SystemExit(2); add_argument's own
 * errors; what `except` sees of them. Expected texts: python3 running the same code. */
#include "kernel/dsl_helpers.h"
#include "test.h"

/* The parser every case starts from. */
static const char parser_code[] = "import argparse\n"
                                  "p = argparse.ArgumentParser(prog='prog')\n"
                                  "p.add_argument('--lr', type=float, default=0.1)\n"
                                  "p.add_argument('--n', type=int, nargs=2)\n"
                                  "p.add_argument('--mode', choices=['a', 'b'])\n"
                                  "p.add_argument('--verbose', '-v', action='store_true')\n"
                                  "p.add_argument('--loss')\n"
                                  "p.add_argument('pos', nargs='?')\n";

static const char usage[] =
    "usage: prog [-h] [--lr LR] [--n N N] [--mode {a,b}] [--verbose] [--loss LOSS]\n"
    "            [pos]\n";

static struct sink k;

/* Runs the parser's code and then `code` on a fresh session, its stream output into k. */
static struct outcome run_parser(const char *code)
{
    static char cell[4096];
    snprintf(cell, sizeof cell, "%s%s", parser_code, code);
    struct dsl_session *s = dsl_session_new();
    memset(&k, 0, sizeof k);
    struct outcome o = run_cell_with(s, cell, &k);
    dsl_session_free(s);
    return o;
}

/* parse_args(args) must fail with "prog: error: MESSAGE" after the usage, as SystemExit(2). */
static void check_parse_error(const char *args, const char *message)
{
    char code[512], want[2048];
    snprintf(code, sizeof code, "p.parse_args(%s)", args);
    struct outcome o = run_parser(code);
    CHECK_STR(o.ename, "SystemExit");
    CHECK_STR(o.evalue, "2");
    snprintf(want, sizeof want, "stderr:%sprog: error: %s\n", usage, message);
    CHECK_STR(k.log, want);
}

static void test_parse_errors(void)
{
    check_parse_error("['--lr', 'x']", "argument --lr: invalid float value: 'x'");
    check_parse_error("['--lr']", "argument --lr: expected one argument");
    check_parse_error("['--lr', '--loss', 'l']", "argument --lr: expected one argument");
    check_parse_error("['--n', '1']", "argument --n: expected 2 arguments");
    check_parse_error("['--n', '1', 'x']", "argument --n: invalid int value: 'x'");
    check_parse_error("['--mode', 'c']",
                      "argument --mode: invalid choice: 'c' (choose from 'a', 'b')");
    check_parse_error("['a', 'b']", "unrecognized arguments: b");
    check_parse_error("['--zz', 'a', '-q']", "unrecognized arguments: --zz -q");
    check_parse_error("['--l', '1']", "ambiguous option: --l could match --lr, --loss");
    check_parse_error("['-vx']", "argument --verbose/-v: ignored explicit argument 'x'");
    check_parse_error("['--verbose=1']", "argument --verbose/-v: ignored explicit argument '1'");
}

static void test_other_exits(void)
{
    struct outcome o = run_parser("p.error('bad thing')");
    CHECK_STR(o.evalue, "2");
    CHECK(strstr(k.log, "prog: error: bad thing\n") != NULL);
    o = run_parser("p.exit(3, 'bye\\n')");
    CHECK_STR(o.ename, "SystemExit");
    CHECK_STR(o.evalue, "3");
    CHECK_STR(k.log, "stderr:bye\n");
    /* -h: the help on stdout, SystemExit(0) */
    o = run_parser("p.parse_args(['-h'])");
    CHECK_STR(o.evalue, "0");
    CHECK(strncmp(k.log, "stdout:usage: prog [-h]", 23) == 0);
    CHECK(strstr(k.log, "\npositional arguments:\n  pos\n\noptions:\n  -h, --help") != NULL);
    /* the arguments left without a value, all named */
    o = run_parser("q = argparse.ArgumentParser(prog='q')\nq.add_argument('--req', required=True)\n"
                   "q.add_argument('a')\nq.add_argument('b', nargs='+')\nq.parse_args([])");
    CHECK_STR(k.log, "stderr:usage: q [-h] --req REQ a b [b ...]\n"
                     "q: error: the following arguments are required: --req, a, b\n");
    /* without abbreviations, a prefix is no option */
    o = run_parser("q = argparse.ArgumentParser(prog='q', allow_abbrev=False)\n"
                   "q.add_argument('--long')\nq.parse_args(['--lo', '1'])");
    CHECK_STR(k.log,
              "stderr:usage: q [-h] [--long LONG]\nq: error: unrecognized arguments: --lo 1\n");
    /* a string default goes through type when the argument is not given */
    o = run_parser("q = argparse.ArgumentParser(prog='q')\nq.add_argument('--x', type=int, "
                   "default='z')\nq.parse_args([])");
    CHECK(strstr(k.log, "q: error: argument --x: invalid int value: 'z'\n") != NULL);
    /* --version */
    o = run_parser("q = argparse.ArgumentParser(prog='q')\nq.add_argument('--version', "
                   "action='version', version='%(prog)s 2.0')\nq.parse_args(['--version'])");
    CHECK_STR(o.evalue, "0");
    CHECK_STR(k.log, "stdout:q 2.0\n");
}

/* SystemExit is no Exception: `except Exception` lets it through, `except SystemExit` catches
 * it; a type's ValueError is the argument's error, any other error goes on. */
static void test_except(void)
{
    struct outcome o = run_parser("try:\n    p.parse_args(['--zz'])\nexcept Exception:\n"
                                  "    print('caught')\n");
    CHECK_STR(o.ename, "SystemExit");
    o = run_parser(
        "try:\n    p.parse_args(['--zz'])\nexcept SystemExit as e:\n    print('exit', e)\n");
    CHECK_INT(o.rc, 0);
    CHECK(strstr(k.log, "stdout:exit 2\n") != NULL);
    o = run_parser("def positive(s):\n    if int(s) <= 0:\n        raise ValueError(s)\n"
                   "    return int(s)\np.add_argument('--k', type=positive)\n"
                   "print(p.parse_args(['--k', '3']).k)\np.parse_args(['--k', '-3'])");
    CHECK(strstr(k.log, "stdout:3\n") != NULL);
    CHECK(strstr(k.log, "prog: error: argument --k: invalid positive value: '-3'\n") != NULL);
    o = run_parser("def strict(s):\n    assert s == 'ok'\n    return s\n"
                   "p.add_argument('--k', type=strict)\np.parse_args(['--k', 'no'])");
    CHECK_STR(o.ename, "AssertionError");
}

static void test_add_argument_errors(void)
{
    static const struct {
        const char *code, *error;
    } cases[] = {
        {"p.add_argument('--lr')",
         "<ArgumentError: argument --lr: conflicting option string: --lr>"},
        {"p.add_argument('-v', '--lr')",
         "<ArgumentError: argument -v/--lr: conflicting option strings: -v, --lr>"},
        {"p.add_argument('x', required=True)",
         "<TypeError: 'required' is an invalid argument for positionals>"},
        {"p.add_argument('--q', action='nope')", "<ValueError: unknown action \"nope\">"},
        {"p.add_argument('--q', type='int')", "<ValueError: 'int' is not callable>"},
        {"p.add_argument('--q', action='store_true', type=int)",
         "<TypeError: _StoreTrueAction.__init__() got an unexpected keyword argument 'type'>"},
        {"p.add_argument('--q', foo=1)",
         "<TypeError: _StoreAction.__init__() got an unexpected keyword argument 'foo'>"},
        {"p.add_argument('q', dest='r')",
         "<ValueError: dest supplied twice for positional argument>"},
        {"p.add_argument('--q', nargs=0)",
         "<ValueError: nargs for store actions must be != 0; if you have nothing to store, "
         "actions such as store true or store const may be more appropriate>"},
        {"p.add_argument('--q', const=1)", "<ValueError: nargs must be '?' to supply const>"},
        {"p.add_argument('--q', nargs=2, metavar=('A',))",
         "<ValueError: length of metavar tuple does not match nargs>"},
        {"p.add_argument('--q', nargs='x')", "<ValueError: invalid nargs value>"},
        {"p.add_argument('q', action='store_true')\np.parse_args([]).q", "True"},
        {"argparse.ArgumentParser(parents=[p])",
         "<NotImplementedError: ArgumentParser(parents=...) is not supported in the MiniTorch "
         "language>"},
        {"argparse.ArgumentParser(nope=1)",
         "<TypeError: ArgumentParser.__init__() got an unexpected keyword argument 'nope'>"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cell[4096];
        snprintf(cell, sizeof cell, "%s%s", parser_code, cases[i].code);
        CHECK_STR(eval1(cell), cases[i].error);
    }
}

int main(void)
{
    RUN_TEST(test_parse_errors);
    RUN_TEST(test_other_exits);
    RUN_TEST(test_except);
    RUN_TEST(test_add_argument_errors);
    return TEST_SUMMARY();
}
