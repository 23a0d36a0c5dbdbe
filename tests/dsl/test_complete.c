/* test_complete.c — dsl_is_complete, dsl_complete, dsl_inspect and dsl_evaluate. */
#include "dsl_helpers.h"
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
    CHECK_STR(json_string_value(json_object_get(r, "text/plain")), "none");
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
    CHECK_STR(json_string_value(json_object_get(r, "text/plain")), "none");
    json_decref(r);
    CHECK_INT(dsl_evaluate(s, "input()", &r, &err), -1);
    CHECK_STR(err.ename, "StdinNotImplementedError");
    dsl_error_clear(&err);
    CHECK_STR(run_cell(s, "x").result, "20");
    dsl_error_clear(&err); /* safe on a zeroed struct */
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_is_complete);
    RUN_TEST(test_complete);
    RUN_TEST(test_inspect);
    RUN_TEST(test_evaluate);
    return TEST_SUMMARY();
}
