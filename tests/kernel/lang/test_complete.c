/* test_complete.c — dsl_is_complete, dsl_complete, dsl_inspect and dsl_evaluate: each
 * completion context (names, keywords, magics and their arguments, tensor attributes after
 * "x.", a call's keyword parameters, nothing inside strings and comments), the replaced byte
 * range, and robustness at every cursor position of unfinished code. */
#include "kernel/dsl_helpers.h"
#include "lib/magics.h"
#include "lib/tensor_methods.h"
#include "test.h"

static const char *status_of(const char *code, const char **indent)
{
    const char *dummy;
    return dsl_is_complete(code, indent ? indent : &dummy);
}

static void test_is_complete(void)
{
    const char *indent = NULL;
    CHECK_STR(status_of("print(\"hi\")", &indent), "complete");
    CHECK_STR(indent, "");
    CHECK_STR(status_of("", NULL), "complete");
    CHECK_STR(status_of("x = 1\ny = 2", NULL), "complete");
    CHECK_STR(status_of("x = (1 +", NULL), "incomplete");
    CHECK_STR(status_of("xs = [1,\n  2,", NULL), "incomplete");
    CHECK_STR(status_of("print(\"\"\"abc", NULL), "incomplete");
    CHECK_STR(status_of("s = \"\"\"abc\ndef", NULL), "incomplete");
    CHECK_STR(status_of("x = 1 + \\", NULL), "incomplete");
    CHECK_STR(status_of("while x < 3:", &indent), "incomplete");
    CHECK_STR(indent, "    ");
    CHECK_STR(status_of("if x:  # why\n", &indent), "incomplete");
    CHECK_STR(indent, "    ");
    CHECK_STR(status_of("for i in range(3):\n    if i:", &indent), "incomplete");
    CHECK_STR(indent, "        ");
    CHECK_STR(status_of("for i in range(3):\n    print(i)", &indent), "incomplete");
    CHECK_STR(indent, "    ");
    CHECK_STR(status_of("for i in range(3):\n    print(i)\n", &indent), "complete");
    CHECK_STR(status_of("for i in range(3):\n    print(i)\n\n", NULL), "complete");
    CHECK_STR(status_of("if x:\n    y\nz", NULL), "complete");
    CHECK_STR(status_of("print(\"hi", NULL), "invalid");
    CHECK_STR(status_of("1 $ 2", NULL), "invalid");
    CHECK_STR(status_of("x = )", NULL), "invalid");
    CHECK_STR(status_of("x = = 1", NULL), "invalid");
    CHECK_STR(status_of("if true:\nprint(1)\n", NULL), "invalid");
    CHECK_STR(status_of("f(\"abc", NULL), "invalid"); /* one-line strings cannot continue */
    CHECK_STR(status_of("f(\"abc\n", NULL), "invalid");
    CHECK_STR(dsl_is_complete(NULL, &indent), "complete");
    /* def blocks, else after a block, and a cell indented as a whole */
    CHECK_STR(status_of("def f(x):", &indent), "incomplete");
    CHECK_STR(indent, "    ");
    CHECK_STR(status_of("def f(x):\n    return x", &indent), "incomplete");
    CHECK_STR(indent, "    ");
    CHECK_STR(status_of("def f(x):\n    return x\n\n", NULL), "complete");
    CHECK_STR(status_of("def f(x,\n      y):", &indent), "incomplete");
    CHECK_STR(indent, "    ");
    CHECK_STR(status_of("if x:\n    y = 1\nelse:", &indent), "incomplete");
    CHECK_STR(indent, "    ");
    CHECK_STR(status_of("    if x:", &indent), "incomplete");
    CHECK_STR(indent, "        ");
    /* inside brackets: the last line's indentation (IPython's rule) */
    CHECK_STR(status_of("x = (1 +\n   2", &indent), "incomplete");
    CHECK_STR(indent, "   ");
    /* one-line suites, magics and blank cells are whole */
    CHECK_STR(status_of("for i in range(3): print(i)", NULL), "complete");
    CHECK_STR(status_of("%time x = 1", NULL), "complete");
    CHECK_STR(status_of("%backend fast\nx = 1", NULL), "complete");
    CHECK_STR(status_of("   ", NULL), "complete");
    CHECK_STR(status_of("# only a comment", NULL), "complete");
    /* a dedent to no enclosing level is broken */
    CHECK_STR(status_of("if x:\n    y\n  z", NULL), "invalid");
}

static int names_has(json_t *arr, const char *name)
{
    for (size_t i = 0; i < json_array_size(arr); i++)
        if (strcmp(json_string_value(json_array_get(arr, i)), name) == 0) return 1;
    return 0;
}

static void test_complete(void)
{
    struct dsl_session *s = dsl_session_new();
    size_t start = 99, end = 99;
    json_t *m = dsl_complete(s, "pri", 3, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "print");
    CHECK_INT(start, 0);
    CHECK_INT(end, 3);
    json_decref(m);

    m = dsl_complete(s, "x = dis", 7, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "display");
    CHECK_INT(start, 4);
    CHECK_INT(end, 7);
    json_decref(m);

    /* cursor in the middle of a line: only the part before the cursor counts */
    m = dsl_complete(s, "prin(1)\nwh", 3, &start, &end);
    CHECK_INT(start, 0);
    CHECK_INT(end, 3);
    CHECK(names_has(m, "print"));
    json_decref(m);
    m = dsl_complete(s, "prin(1)\nwh", 10, &start, &end);
    CHECK_INT(start, 8);
    CHECK(names_has(m, "while"));
    json_decref(m);

    run_cell(s, "learning_rate = 0.1\nlearn_steps = 3");
    m = dsl_complete(s, "print(lea", 9, &start, &end);
    CHECK_INT(json_array_size(m), 2);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "learn_steps");
    CHECK_STR(json_string_value(json_array_get(m, 1)), "learning_rate");
    CHECK_INT(start, 6);
    json_decref(m);

    m = dsl_complete(s, "Tr", 2, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "True");
    json_decref(m);

    /* empty prefix: everything, sorted and unique */
    m = dsl_complete(s, "", 0, &start, &end);
    CHECK(names_has(m, "print") && names_has(m, "while") && names_has(m, "learning_rate"));
    CHECK(names_has(m, "none") && names_has(m, "None") && names_has(m, "update_display"));
    for (size_t i = 1; i < json_array_size(m); i++)
        CHECK(strcmp(json_string_value(json_array_get(m, i - 1)),
                     json_string_value(json_array_get(m, i))) < 0);
    CHECK_INT(start, 0);
    CHECK_INT(end, 0);
    json_decref(m);

    m = dsl_complete(s, "zzz", 3, &start, &end);
    CHECK_INT(json_array_size(m), 0);
    json_decref(m);
    m = dsl_complete(s, "abc", 100, &start, &end); /* cursor past the end */
    CHECK(m != NULL);
    CHECK_INT(end, 3);
    json_decref(m);
    dsl_session_free(s);
}

/* The completions at byte `cursor` joined with ' ' (static buffer), and the replaced range. */
static const char *completions(struct dsl_session *s, const char *code, size_t cursor,
                               size_t *start, size_t *end)
{
    static char buf[8192];
    json_t *m = dsl_complete(s, code, cursor, start, end);
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < json_array_size(m) && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? " " : "",
                                 json_string_value(json_array_get(m, i)));
    json_decref(m);
    return buf;
}

/* Completions at the end of code; checks the range replaces [want_start, end of code). */
#define COMPLETES(s, code, want_start, want)                                                       \
    do {                                                                                           \
        size_t st_ = 999, en_ = 999;                                                               \
        CHECK_STR(completions(s, code, strlen(code), &st_, &en_), want);                           \
        CHECK_INT(st_, want_start);                                                                \
        CHECK_INT(en_, strlen(code));                                                              \
    } while (0)

static void test_complete_attributes(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "t = ones(2, 3)\nxs = [1, 2]\nn = 3\nword = 'abc'").rc, 0);
    /* after a tensor variable's '.', exactly its methods and properties, sorted */
    size_t start, end;
    json_t *m = dsl_complete(s, "t.", 2, &start, &end);
    CHECK_INT(json_array_size(m), dsl_tensor_method_count + dsl_tensor_prop_count);
    CHECK(names_has(m, "sum") && names_has(m, "backward") && names_has(m, "shape") &&
          names_has(m, "requires_grad") && names_has(m, "grad") && names_has(m, "tolist"));
    CHECK(!names_has(m, "print") && !names_has(m, "t"));
    for (size_t i = 1; i < json_array_size(m); i++)
        CHECK(strcmp(json_string_value(json_array_get(m, i - 1)),
                     json_string_value(json_array_get(m, i))) < 0);
    CHECK_INT(start, 2);
    CHECK_INT(end, 2);
    json_decref(m);
    COMPLETES(s, "t.re", 2, "relu requires_grad requires_grad_");
    COMPLETES(s, "y = t.sh", 6, "shape");
    COMPLETES(s, "print(t.st", 8, "strides");
    /* chained: a call's or an index's result is taken for a tensor */
    COMPLETES(s, "t.view(3, 2).perm", 13, "permute");
    COMPLETES(s, "(t + 1).su", 8, "sum");
    /* a name the cell has not defined yet: the only values with attributes are tensors */
    COMPLETES(s, "w.zero", 2, "zero_grad zero_grad_ zeros");
    /* a list's methods; a tuple-style list (a shape) is read-only: count and index */
    COMPLETES(s, "xs.", 3, "append clear copy count extend index insert pop remove reverse sort");
    COMPLETES(s, "xs.ap", 3, "append");
    COMPLETES(s, "xs.sort(rev", 8, "reverse= reversed");
    run_cell(s, "sh = t.shape");
    COMPLETES(s, "sh.", 3, "count index");
    COMPLETES(s, "sh.ap", 3, "");
    /* a dict's methods */
    run_cell(s, "d = {\"a\": 1}");
    COMPLETES(s, "d.", 2, "clear copy get items keys pop popitem setdefault update values");
    COMPLETES(s, "d.se", 2, "setdefault");
    /* a set's methods; a frozenset's are those that change nothing */
    run_cell(s, "st = {1, 2}\nfs = frozenset(st)");
    COMPLETES(s, "st.is", 3, "isdisjoint issubset issuperset");
    COMPLETES(s, "st.d", 3, "difference difference_update discard");
    COMPLETES(s, "fs.", 3,
              "copy difference intersection isdisjoint issubset issuperset symmetric_difference "
              "union");
    COMPLETES(s, "fs.ad", 3, "");
    /* values without attributes offer nothing */
    COMPLETES(s, "n.re", 2, "");
    COMPLETES(s, "word.", 5, "");
    COMPLETES(s, "1.", 2, "");
    COMPLETES(s, "x = 2.5", 6, ""); /* a number is not a name */
    dsl_session_free(s);
}

/* classes and instances: their own attributes, then their class chain's, methods of library
 * classes included */
static void test_complete_classes(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "class Base:\n    scale = 2\n    def forward(self, x):\n"
                          "        return x\nclass Net(Base):\n    def __init__(self):\n"
                          "        self.weights = 1\n        self.width = 3\n"
                          "    def fit(self):\n        pass\nnet = Net()")
                  .rc,
              0);
    COMPLETES(s, "net.w", 4, "weights width");
    COMPLETES(s, "net.f", 4, "fit forward");
    COMPLETES(s, "net.sc", 4, "scale");
    COMPLETES(s, "Net.f", 4, "fit forward");
    COMPLETES(s, "Net.__n", 4, "__name__");
    COMPLETES(s, "net.zz", 4, "");
    /* self. inside a class being written: the attributes its methods set and the methods it
     * defines, from the cell's text, then the class as an earlier cell defined it */
    const char *cell = "class Layer:\n    def __init__(self, n):\n        self.weights = n\n"
                       "        self.width == 2\n    def forward(self, x):\n        return self.w";
    COMPLETES(s, cell, strlen(cell) - 1, "weights");
    const char *cell2 = "class Net(Base):\n    def run(self):\n        self.total = 1\n"
                        "        return self.";
    COMPLETES(s, cell2, strlen(cell2), "__init__ fit forward run scale total");
    dsl_session_free(s);
}

static void test_complete_magics(void)
{
    struct dsl_session *s = dsl_session_new();
    /* the names after a '%' that starts a line (indentation allowed) */
    COMPLETES(s, "%ti", 1, "time timeit");
    COMPLETES(s, "x = 1\n  %ba", 9, "backend");
    size_t start, end;
    json_t *m = dsl_complete(s, "%", 1, &start, &end);
    CHECK_INT(json_array_size(m), dsl_magic_count);
    CHECK(names_has(m, "lsmagic") && names_has(m, "diagnostics") && !names_has(m, "print"));
    json_decref(m);
    /* '%' inside an expression is the operator */
    m = dsl_complete(s, "x = 7 %ti", 9, &start, &end);
    CHECK(names_has(m, "timing") && !names_has(m, "timeit"));
    json_decref(m);
    /* a magic's first argument: the words of its usage line */
    COMPLETES(s, "%backend ", 9, "cuda fast simple student");
    COMPLETES(s, "%backend  f", 10, "fast");
    COMPLETES(s, "%plot_renderer ", 15, "auto html svg vegalite");
    COMPLETES(s, "%threads ", 9, "");
    /* a magic running a statement completes the statement */
    COMPLETES(s, "%time pri", 6, "print");
    COMPLETES(s, "%timeit -n 3 pri", 13, "print");
    m = dsl_complete(s, "%diagnostics o", 14, &start, &end);
    CHECK(names_has(m, "on") && names_has(m, "off") && names_has(m, "ones"));
    CHECK_INT(start, 13);
    json_decref(m);
    run_cell(s, "a = ones(2)");
    COMPLETES(s, "%time a.ma", 8, "max");
    dsl_session_free(s);
}

static void test_complete_call_keywords(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "t = ones(2)\ndef f(alpha, beta=1):\n    return alpha").rc, 0);
    COMPLETES(s, "zeros(2, requires_g", 9, "requires_grad=");
    COMPLETES(s, "x = rand(2, 3, back", 15, "backend=");
    COMPLETES(s, "t.sum(di", 6, "dict dim= dir display divmod");
    COMPLETES(s, "f(1, be", 5, "beta=");
    COMPLETES(s, "f(al", 2, "all alpha=");
    /* keyword-only parameters complete; *args and **kwargs take no keyword */
    CHECK_INT(run_cell(s, "def g(a, *pargs, pkey, **popts):\n    return a").rc, 0);
    COMPLETES(s, "g(1, p", 5, "parallel_diagnostics pass pkey= plot pow print property");
    /* on the next line of a call the call is still open */
    COMPLETES(s, "y = f(1,\n      be", 15, "beta=");
    /* brackets inside strings and comments do not count; an index inside a call is not the
     * call's argument list */
    COMPLETES(s, "f(1, \"(\", be", 10, "beta=");
    COMPLETES(s, "f(1,  # g(\n  be", 13, "beta=");
    COMPLETES(s, "f(t[0, be", 7, "");
    COMPLETES(s, "print(f(1, 2), f(2), se", 21, "seed sep= set set_printoptions setattr");
    /* after the call closed, no keywords */
    COMPLETES(s, "f(1) + be", 7, "");
    dsl_session_free(s);
}

static void test_complete_text(void)
{
    struct dsl_session *s = dsl_session_new();
    /* nothing inside a string literal or a comment */
    COMPLETES(s, "print(\"pri", 7, "");
    COMPLETES(s, "x = 'abc pri", 9, "");
    COMPLETES(s, "# pri", 2, "");
    COMPLETES(s, "x = 1  # see pri", 13, "");
    COMPLETES(s, "s = \"\"\"doc\nmore pri", 16, "");
    COMPLETES(s, "s = '''it's pri", 12, "");
    /* closed strings, quotes and escapes inside them, and '#' inside a string do not count */
    COMPLETES(s, "s = 'a' + pri", 10, "print");
    COMPLETES(s, "s = \"it's\" + pri", 13, "print");
    COMPLETES(s, "s = 'a\\'b' + pri", 13, "print");
    COMPLETES(s, "s = '#' + pri", 10, "print");
    COMPLETES(s, "s = \"\"\"a\nb\"\"\"\npri", 14, "print");
    COMPLETES(s, "# note\npri", 7, "print");
    dsl_session_free(s);
}

static void test_complete_positions(void)
{
    struct dsl_session *s = dsl_session_new();
    size_t start, end;
    /* offsets are bytes: "é" is 2 */
    CHECK_STR(completions(s, "\xc3\xa9 = pri", 8, &start, &end), "print");
    CHECK_INT(start, 5);
    CHECK_INT(end, 8);
    /* cursor 0 of a non-empty cell: everything, replacing nothing */
    json_t *m = dsl_complete(s, "print(1)", 0, &start, &end);
    CHECK(names_has(m, "print") && names_has(m, "zeros") && names_has(m, "while"));
    CHECK_INT(start, 0);
    CHECK_INT(end, 0);
    json_decref(m);
    /* cursor inside a name: the part before the cursor is the prefix */
    CHECK_STR(completions(s, "ze(2)", 2, &start, &end), "zeros");
    CHECK_INT(start, 0);
    CHECK_INT(end, 2);
    /* past the end: clamped */
    CHECK_STR(completions(s, "ran", 1000, &start, &end), "rand range");
    CHECK_INT(end, 3);
    /* no session, no code */
    CHECK_STR(completions(NULL, "pri", 3, &start, &end), "print");
    m = dsl_complete(s, NULL, 5, &start, &end);
    CHECK(m != NULL);
    CHECK_INT(start, 0);
    CHECK_INT(end, 0);
    json_decref(m);
    dsl_session_free(s);
}

/* Every cursor position of unfinished, odd and broken code: never fails, the range is sane,
 * and every candidate extends the replaced text. */
static void test_complete_every_position(void)
{
    static const char *const cells[] = {
        "x = tensor([[1, 2], [3, 4]], requires_grad=true)\nfor i in range(3):\n    x.su",
        "def f(a, b=2):\n    \"doc\"\n    return a.view(\n%time f(",
        "s = '''unterminated\n# not a comment\nprint(\"a\\\"b\", 'c\n",
        "%backend fa\n%%\n%\n.\n..x.\n(((((\n]]]\n\\\n",
        "\xc3\xa9t\xc3\xa9 = 1\n\xff\xfe bad utf8 \xe2\x82\n# \xf0\x9f\x98\x80 emoji",
        "x.y.z.w(1, 2).q[0].r(a=1, b",
        "",
    };
    struct dsl_session *s = dsl_session_new();
    run_cell(s, "x = ones(2)\nword = 'w'");
    for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++) {
        const char *code = cells[c];
        size_t len = strlen(code);
        for (size_t cur = 0; cur <= len + 2; cur++) {
            size_t start = 999, end = 999;
            json_t *m = dsl_complete(s, code, cur, &start, &end);
            CHECK(m != NULL && json_is_array(m));
            size_t want_end = cur < len ? cur : len;
            CHECK(end == want_end && start <= end);
            for (size_t i = 0; i < json_array_size(m); i++)
                CHECK(strncmp(json_string_value(json_array_get(m, i)), code + start, end - start) ==
                      0);
            json_decref(m);
            json_t *doc = dsl_inspect(s, code, cur, (int)(cur % 2));
            CHECK(doc == NULL || json_is_string(json_object_get(doc, "text/plain")));
            json_decref(doc);
        }
        const char *indent = NULL;
        const char *st = dsl_is_complete(code, &indent);
        CHECK(strcmp(st, "complete") == 0 || strcmp(st, "incomplete") == 0 ||
              strcmp(st, "invalid") == 0);
        CHECK(indent != NULL);
    }
    dsl_session_free(s);
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *inspect_text(struct dsl_session *s, const char *code, size_t cursor)
{
    static char buf[4096];
    json_t *b = dsl_inspect(s, code, cursor, 0);
    if (!b) return "(null)";
    snprintf(buf, sizeof buf, "%s", json_string_value(json_object_get(b, "text/plain")));
    json_decref(b);
    return buf;
}

static void test_inspect(void)
{
    struct dsl_session *s = dsl_session_new();
    const char *t = inspect_text(s, "print", 5);
    CHECK(starts_with(t, "print(*args, sep=\" \", end=\"\\n\")\n\n"));
    CHECK(strlen(t) > 40);
    CHECK(starts_with(inspect_text(s, "print", 2), "print(*args"));
    CHECK(starts_with(inspect_text(s, "x = len(", 8), "len(x)\n\n"));
    CHECK(starts_with(inspect_text(s, "display(1, ", 11), "display(value, display_id=none)"));
    run_cell(s, "x = 42\nname = 'Ada'\nxs = [1, 2.5]");
    CHECK_STR(inspect_text(s, "x", 1), "x: int = 42");
    CHECK_STR(inspect_text(s, "y = name + 'b'", 6), "name: str = 'Ada'");
    CHECK_STR(inspect_text(s, "xs", 0), "xs: list = [1, 2.5]");
    run_cell(s, "d = {'k': (1, 2)}");
    CHECK_STR(inspect_text(s, "d", 0), "d: dict = {'k': (1, 2)}");
    CHECK(starts_with(inspect_text(s, "d.get", 3), "d.get(key, default=None)\n\n"));
    CHECK_STR(inspect_text(s, "unknown_thing", 4), "(null)");
    CHECK_STR(inspect_text(s, "", 0), "(null)");
    CHECK_STR(inspect_text(s, "1 + 2", 1), "(null)");
    dsl_session_free(s);
}

static void test_evaluate(void)
{
    struct dsl_session *s = dsl_session_new();
    run_cell(s, "x = 20");
    json_t *r = NULL;
    struct dsl_error err = {0};
    CHECK_INT(dsl_evaluate(s, "x * 2 + 2", &r, &err), 0);
    CHECK_STR(json_string_value(json_object_get(r, "text/plain")), "42");
    json_decref(r);
    CHECK_INT(dsl_evaluate(s, "none", &r, &err), 0);
    CHECK_STR(json_string_value(json_object_get(r, "text/plain")), "None");
    json_decref(r);
    CHECK_INT(dsl_evaluate(s, "'a' * 2", &r, &err), 0);
    CHECK_STR(json_string_value(json_object_get(r, "text/plain")), "'aa'");
    json_decref(r);

    CHECK_INT(dsl_evaluate(s, "x = 3", &r, &err), -1);
    CHECK(r == NULL);
    CHECK_STR(err.ename, "SyntaxError");
    dsl_error_clear(&err);
    CHECK_INT(dsl_evaluate(s, "1; 2", &r, &err), -1);
    CHECK_STR(err.ename, "SyntaxError");
    dsl_error_clear(&err);
    CHECK_INT(dsl_evaluate(s, "", &r, &err), -1);
    CHECK_STR(err.ename, "SyntaxError");
    dsl_error_clear(&err);
    CHECK_INT(dsl_evaluate(s, "y", &r, &err), -1);
    CHECK_STR(err.ename, "NameError");
    dsl_error_clear(&err);
    /* no output escapes evaluate */
    CHECK_INT(dsl_evaluate(s, "print('leak')", &r, &err), 0);
    CHECK_STR(json_string_value(json_object_get(r, "text/plain")), "None");
    json_decref(r);
    CHECK_INT(dsl_evaluate(s, "input()", &r, &err), -1);
    CHECK_STR(err.ename, "StdinNotImplementedError");
    dsl_error_clear(&err);
    CHECK_STR(run_cell(s, "x").result, "20");
    dsl_error_clear(&err); /* safe on a zeroed struct */
    dsl_session_free(s);
}

/* A module's members complete after `name.`, also down a chain of submodules, and Shift-Tab
 * on one shows its row. */
static void test_complete_modules(void)
{
    struct dsl_session *s = dsl_session_new();
    size_t start = 0, end = 0;
    run_cell(s, "import math\nimport minitorch as mt");
    json_t *m = dsl_complete(s, "math.sq", 7, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "sqrt");
    CHECK_INT(start, 5);
    json_decref(m);
    m = dsl_complete(s, "mt.operators.zip", 16, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "zipWith");
    json_decref(m);
    m = dsl_complete(s, "mt.", 3, &start, &end);
    CHECK(names_has(m, "tensor") && names_has(m, "datasets") && names_has(m, "operators"));
    CHECK(!names_has(m, "print"));
    json_decref(m);
    json_t *b = dsl_inspect(s, "math.log", 8, 0);
    CHECK(b != NULL);
    const char *t = b ? json_string_value(json_object_get(b, "text/plain")) : "";
    CHECK(t && strncmp(t, "math.log(x, base=e)", 19) == 0);
    json_decref(b);
    b = dsl_inspect(s, "mt.operators.lt(", 16, 0);
    t = b ? json_string_value(json_object_get(b, "text/plain")) : "";
    CHECK(t && strncmp(t, "operators.lt(x, y)", 18) == 0);
    json_decref(b);
    /* the modules after `import` and `from`, the members after `from M import` */
    m = dsl_complete(s, "import mi", 9, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "minitorch");
    json_decref(m);
    m = dsl_complete(s, "import math, minitorch.ope", 26, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "operators");
    CHECK_INT(start, 23);
    json_decref(m);
    /* minitorch's files are modules too: tensor_data, tensor_ops, tensor_functions */
    m = dsl_complete(s, "import minitorch.tensor_", 24, &start, &end);
    CHECK_INT(json_array_size(m), 3);
    json_decref(m);
    m = dsl_complete(s, "from numba import nj", 20, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "njit");
    json_decref(m);
    m = dsl_complete(s, "  from minitorch import (tensor, ze", 35, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "zeros");
    json_decref(m);
    m = dsl_complete(s, "from ra", 7, &start, &end);
    CHECK_INT(json_array_size(m), 1);
    CHECK_STR(json_string_value(json_array_get(m, 0)), "random");
    json_decref(m);
    m = dsl_complete(s, "from nope import x", 18, &start, &end);
    CHECK_INT(json_array_size(m), 0);
    json_decref(m);
    b = dsl_inspect(s, "import random", 10, 0);
    t = b ? json_string_value(json_object_get(b, "text/plain")) : "";
    CHECK(t && strncmp(t, "module: Python's random", 23) == 0);
    json_decref(b);
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_is_complete);
    RUN_TEST(test_complete);
    RUN_TEST(test_complete_attributes);
    RUN_TEST(test_complete_classes);
    RUN_TEST(test_complete_magics);
    RUN_TEST(test_complete_call_keywords);
    RUN_TEST(test_complete_text);
    RUN_TEST(test_complete_positions);
    RUN_TEST(test_complete_every_position);
    RUN_TEST(test_inspect);
    RUN_TEST(test_complete_modules);
    RUN_TEST(test_evaluate);
    return TEST_SUMMARY();
}
