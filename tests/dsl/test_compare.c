/* test_compare.c — compare() and timing(): rows per backend, agreement, variables left as they
 * were, unavailable backends listed, and the chart bundles (Vega-Lite spec, SVG) by
 * %plot_renderer. */
#include "tensor_helpers.h"

#include "render/chart.h"

static json_t *last;
static void keep(void *ctx, json_t *data, const char *id, bool update)
{
    (void)ctx;
    (void)id;
    (void)update;
    json_decref(last);
    last = json_incref(data);
}

/* Runs code with a sink keeping the last display; the error name or "ok". */
static const char *run_keep(struct dsl_session *s, const char *code)
{
    static char ename[64];
    struct dsl_output out = {.display = keep};
    json_t *res = NULL;
    struct dsl_error err = {0};
    json_decref(last);
    last = NULL;
    int r = dsl_execute(s, code, &out, &res, &err);
    snprintf(ename, sizeof ename, "%s", r ? err.ename : "ok");
    json_decref(res);
    dsl_error_clear(&err);
    return ename;
}

static const char *text_of(void)
{
    const char *t = last ? json_string_value(json_object_get(last, "text/plain")) : NULL;
    return t ? t : "";
}

static void test_compare_rows(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "a = rand(32, 16)\nb = rand(16, 8)");
    CHECK_STR(run_keep(s, "compare(\"a @ b\")"), "ok");
    const char *t = text_of();
    CHECK(strncmp(t, "compare: a @ b\n", 15) == 0);
    CHECK(strstr(t, "\nsimple ") != NULL && strstr(t, "reference") != NULL);
    CHECK(strstr(t, "\nfast ") != NULL && strstr(t, "yes (max |diff| ") != NULL);
    /* this build has no GPU: the row says why */
    CHECK(strstr(t, "\ncuda      unavailable: the cuda backend is not available") != NULL);
    /* the chart: one bar per backend that ran */
    json_t *spec = json_object_get(last, CHART_VEGALITE_MIME);
    CHECK(json_is_object(spec));
    CHECK_STR(json_string_value(json_object_get(spec, "mark")), "bar");
    json_t *values = json_object_get(json_object_get(spec, "data"), "values");
    CHECK_INT(json_array_size(values), 2);
    CHECK_STR(json_string_value(json_object_get(json_array_get(values, 1), "label")), "fast");
    CHECK(json_real_value(json_object_get(json_array_get(values, 0), "value")) > 0);
    const char *svg = json_string_value(json_object_get(last, "image/svg+xml"));
    CHECK(svg && strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
    CHECK(svg && strstr(svg, "</svg>\n") != NULL);
    CHECK(json_is_string(json_object_get(last, "text/html")));
    /* random draws differ from run to run: the checker says so */
    CHECK_STR(run_keep(s, "compare(\"rand(50)\", backends=[\"fast\", \"simple\"])"), "ok");
    CHECK(strstr(text_of(), "\nsimple ") != NULL && strstr(text_of(), " NO (max |diff| ") != NULL);
    dsl_session_free(s);
}

static void test_compare_leaves_variables(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "a = tensor([1, 2, 3])\nn = 5\nkeep = a");
    CHECK_STR(run_keep(s, "compare(\"c = a * 2\\nn = n + 1\\nc\", backends=[\"simple\", "
                          "\"fast\"])"),
              "ok");
    CHECK(strstr(text_of(), "yes") != NULL);
    CHECK_STR(OK(s, "[a.backend, n, a.tolist()]"), "['fast', 5, [1.0, 2.0, 3.0]]");
    FAILS(s, "c", "NameError");                     /* made inside: gone again */
    CHECK_STR(OK(s, "zeros(1).backend"), "'fast'"); /* the default backend is back */
    /* an error inside: still all restored, and the message says where */
    const char *m = FAILS(s, "compare(\"n = 99\\n1 / 0\")", "ZeroDivisionError");
    CHECK(strstr(m, "(in compare's statement") != NULL);
    CHECK_STR(OK(s, "n"), "5");
    FAILS(s, "compare(\"a +\")", "SyntaxError");
    FAILS(s, "compare(\"a\", backends=[\"gpu\"])", "ValueError");
    FAILS(s, "compare(5)", "TypeError");
    dsl_session_free(s);
}

static void test_timing_and_renderers(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_STR(run_keep(s, "timing(sizes=[8, 16], backends=[\"simple\", \"fast\", \"cuda\"])"),
              "ok");
    const char *t = text_of();
    const char *head = "timing: matmul of two rand((2, n, n)), mean of 3, seconds\n";
    CHECK(strncmp(t, head, strlen(head)) == 0);
    CHECK(strstr(t, "\n     8  ") != NULL && strstr(t, "\n    16  ") != NULL);
    CHECK(strstr(t, "unavailable\n") != NULL);
    CHECK(strstr(t, "cuda unavailable: ") != NULL);
    json_t *spec = json_object_get(last, CHART_VEGALITE_MIME);
    json_t *enc = json_object_get(spec, "encoding");
    CHECK_STR(json_string_value(
                  json_object_get(json_object_get(json_object_get(enc, "x"), "scale"), "type")),
              "log");
    /* 2 sizes x 2 backends that ran */
    CHECK_INT(json_array_size(json_object_get(json_object_get(spec, "data"), "values")), 4);
    FAILS(s, "timing(\"conv\")", "ValueError");
    FAILS(s, "timing(sizes=[0])", "ValueError");
    /* %plot_renderer picks the formats */
    OK(s, "%plot_renderer vegalite");
    run_keep(s, "timing(sizes=[4], backends=[\"fast\"])");
    CHECK(json_object_get(last, CHART_VEGALITE_MIME) && !json_object_get(last, "image/svg+xml"));
    OK(s, "%plot_renderer svg");
    run_keep(s, "timing(sizes=[4], backends=[\"fast\"])");
    CHECK(!json_object_get(last, CHART_VEGALITE_MIME) && json_object_get(last, "image/svg+xml"));
    json_decref(last);
    last = NULL;
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_compare_rows);
    RUN_TEST(test_compare_leaves_variables);
    RUN_TEST(test_timing_and_renderers);
    return TEST_SUMMARY();
}
