/* test_tooling.c — completion of keyword parameters inside a call (builtins, tensor methods,
 * user functions), and inspection of tensors and user functions. */
#include "kernel/dsl_helpers.h"
#include "test.h"

/* The completions at the end of code joined with ' ', and the replaced range. */
static const char *complete_end(struct dsl_session *s, const char *code, size_t *start)
{
    static char buf[4096];
    size_t end = 0;
    json_t *m = dsl_complete(s, code, strlen(code), start, &end);
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < json_array_size(m) && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? " " : "",
                                 json_string_value(json_array_get(m, i)));
    CHECK_INT(end, strlen(code));
    json_decref(m);
    return buf;
}

static void test_keyword_completion(void)
{
    struct dsl_session *s = dsl_session_new();
    size_t start = 0;
    /* a builtin's keyword parameter, replacing the typed prefix */
    CHECK_STR(complete_end(s, "x = zeros(2, requires_g", &start), "requires_grad=");
    CHECK_INT(start, strlen("x = zeros(2, "));
    /* all of print's keywords, beside the names that start the same */
    CHECK(strstr(complete_end(s, "print(1, se", &start), "sep=") != NULL);
    /* a user function's parameters */
    struct outcome o = run_cell(s, "def area(width, height=1):\n    return width * height\n"
                                   "t = ones(2, 2)");
    CHECK_INT(o.rc, 0);
    CHECK_STR(complete_end(s, "area(3, he", &start), "heatmap height= help");
    CHECK_STR(complete_end(s, "area(wi", &start), "width=");
    /* nested calls: the innermost open one counts */
    CHECK_STR(complete_end(s, "print(area(1, hei", &start), "height=");
    CHECK(strstr(complete_end(s, "print(area(1), se", &start), "sep=") != NULL);
    /* after '.', still methods; outside a call, no keywords */
    CHECK(strstr(complete_end(s, "t.su", &start), "sum") != NULL);
    CHECK_STR(complete_end(s, "he", &start), "heatmap help");
    /* def, return and del are keywords now */
    CHECK_STR(complete_end(s, "de", &start), "def del delattr"); /* keywords, then builtins */
    CHECK_STR(complete_end(s, "retu", &start), "return");
    CHECK_STR(complete_end(s, "fina", &start), "finally");
    /* the built-in exception classes are names too */
    CHECK_STR(complete_end(s, "ZeroD", &start), "ZeroDivisionError");
    CHECK_STR(complete_end(s, "NotImpl", &start), "NotImplementedError");
    /* an exception's attribute */
    CHECK_INT(run_cell(s, "err = ValueError(\"bad\", 2)").rc, 0);
    CHECK_STR(complete_end(s, "err.a", &start), "args");
    dsl_session_free(s);
}

static const char *inspect_text(struct dsl_session *s, const char *code)
{
    static char buf[8192];
    json_t *b = dsl_inspect(s, code, strlen(code), 0);
    snprintf(buf, sizeof buf, "%s", b ? json_string_value(json_object_get(b, "text/plain")) : "");
    json_decref(b);
    return buf;
}

static void test_inspect(void)
{
    struct dsl_session *s = dsl_session_new();
    struct outcome o =
        run_cell(s, "w = ones(2, 3, requires_grad=true)\nv = w.permute(1, 0)\n"
                    "def scale(x, k=2):\n    \"multiplies x by k\"\n    return x * k\n");
    CHECK_INT(o.rc, 0);
    CHECK(strstr(inspect_text(s, "w"), "\n\nshape (2, 3), strides (3, 1), dtype float32, "
                                       "backend fast, requires_grad True, grad None") != NULL);
    CHECK(strstr(inspect_text(s, "v"), "shape (3, 2), strides (1, 3)") != NULL);
    CHECK_STR(inspect_text(s, "scale"),
              "scale(x, k=...)\n\nmultiplies x by k\n\nA function defined with def in this "
              "session.");
    /* inside a call's parentheses: the function being called */
    CHECK(strncmp(inspect_text(s, "scale(w, "), "scale(x, k=...)", 15) == 0);
    CHECK_STR(inspect_text(s, "nothing_here"), "");
    /* Shift-Tab on an exception class: its line, base and doc */
    CHECK(strncmp(inspect_text(s, "ZeroDivisionError"),
                  "class ZeroDivisionError(ArithmeticError)\n\nSecond argument to a division",
                  70) == 0);
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_keyword_completion);
    RUN_TEST(test_inspect);
    return TEST_SUMMARY();
}
