/* test_compare.c — compare() and timing(): a row per backend with agreement and speed-up,
 * unavailable backends listed with the engine's reason, the user's variables exactly as they
 * were afterwards (after errors and interrupts too), the agreement checker on its own, and the
 * two displays (table; chart by %plot_renderer). */
#include "kernel/tensor_helpers.h"

#include "lang/interp.h"
#include "lib/compare.h"
#include "render/chart.h"

#include "minitorch/minitorch.h"

#include <pthread.h>
#include <time.h>

/* The displays of the last cell run by run_keep, in order. */
static json_t *shown[8];
static int nshown;
static char out_text[1 << 15];

static void keep(void *ctx, json_t *data, const char *id, bool update)
{
    (void)ctx;
    (void)id;
    (void)update;
    if (nshown < 8) shown[nshown++] = json_incref(data);
}

static void keep_stream(void *ctx, const char *name, const char *text)
{
    (void)ctx;
    (void)name;
    size_t n = strlen(out_text);
    snprintf(out_text + n, sizeof out_text - n, "%s", text);
}

static void forget(void)
{
    for (int i = 0; i < nshown; i++) json_decref(shown[i]);
    nshown = 0;
    out_text[0] = '\0';
}

/* Runs code keeping its displays and stdout; the error name or "ok". */
static const char *run_keep(struct dsl_session *s, const char *code)
{
    static char ename[64];
    struct dsl_output out = {.display = keep, .stream = keep_stream};
    json_t *res = NULL;
    struct dsl_error err = {0};
    forget();
    int r = dsl_execute(s, code, &out, &res, &err);
    snprintf(ename, sizeof ename, "%s", r ? err.ename : "ok");
    if (r) fprintf(stderr, "  (%s: %s)\n", err.ename, err.evalue);
    json_decref(res);
    dsl_error_clear(&err);
    return ename;
}

static const char *text_of(int i)
{
    const char *t = i < nshown ? json_string_value(json_object_get(shown[i], "text/plain")) : NULL;
    return t ? t : "";
}

/* The line of the table that starts with `backend` (static copy), or "". */
static const char *row_of(const char *backend)
{
    static char line[512];
    line[0] = '\0';
    const char *t = text_of(0);
    size_t n = strlen(backend);
    for (const char *p = t; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
        if (strncmp(p, backend, n) == 0 && p[n] == ' ') {
            snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
            break;
        }
    return line;
}

static void test_compare_rows_and_displays(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "seed(1)\na = rand(32, 16)\nb = rand(16, 8)\nc = rand(32, 8)");
    CHECK_STR(run_keep(s, "compare(\"a @ b\")"), "ok");
    CHECK_INT(nshown, 2); /* the table, then the chart */
    CHECK(strncmp(text_of(0), "compare: a @ b\nbackend ", 23) == 0);
    CHECK(strstr(row_of("simple"), " reference") != NULL);
    CHECK(strstr(row_of("simple"), " 1.00x ") != NULL);
    CHECK(strstr(row_of("fast"), " yes (max |diff| ") != NULL);
    CHECK(strstr(row_of("fast"), "e-") == NULL); /* plain decimals, never exponents */
    /* several batches: the median and its spread, never one run alone */
    CHECK(strstr(row_of("fast"), " \xc2\xb1 ") != NULL);
    CHECK(strstr(text_of(0), "time: median of the batches \xc2\xb1 half their range") != NULL);
    /* this build has no GPU: the row says so with the engine's reason */
    CHECK(strncmp(row_of("cuda"), "cuda      unavailable: the cuda backend is not available", 56) ==
          0);
    CHECK(strstr(text_of(0), "|x - ref| <= 1e-05 + 0.0001 * |ref|") != NULL);
    /* the table display: text and HTML, no chart */
    const char *html = json_string_value(json_object_get(shown[0], "text/html"));
    CHECK(html && strstr(html, "<td>cuda</td><td colspan=\"4\">unavailable: ") != NULL);
    CHECK(!json_object_get(shown[0], CHART_VEGALITE_MIME));
    /* the chart display: one bar per backend that ran, every backend on the axis */
    json_t *chart = nshown > 1 ? shown[1] : NULL;
    CHECK(chart && !json_object_get(chart, "text/html"));
    CHECK_STR(text_of(1), "<bar chart: compare: a @ b>");
    json_t *spec = json_object_get(chart, CHART_VEGALITE_MIME);
    CHECK_STR(json_string_value(json_object_get(json_object_get(spec, "mark"), "type")), "bar");
    json_t *values = json_object_get(json_object_get(spec, "data"), "values");
    CHECK_INT(json_array_size(values), 2);
    CHECK_STR(json_string_value(json_object_get(json_array_get(values, 0), "label")), "simple");
    CHECK_STR(json_string_value(json_object_get(json_array_get(values, 1), "label")), "fast");
    CHECK(json_real_value(json_object_get(json_array_get(values, 0), "value")) > 0);
    json_t *enc = json_object_get(spec, "encoding");
    CHECK_INT(json_array_size(
                  json_object_get(json_object_get(json_object_get(enc, "x"), "scale"), "domain")),
              3);
    const char *yt = json_string_value(json_object_get(json_object_get(enc, "y"), "title"));
    CHECK(yt && strncmp(yt, "time per run (", 14) == 0);
    const char *svg = json_string_value(json_object_get(chart, "image/svg+xml"));
    CHECK(svg && strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);

    /* an elementwise statement of several lines agrees too */
    CHECK_STR(run_keep(s, "compare(\"d = (a @ b) * 2 - c\\nd.relu().sum(1)\", "
                          "backends=[\"fast\", \"simple\"])"),
              "ok");
    CHECK(strstr(row_of("fast"), " reference") != NULL);
    CHECK(strstr(row_of("simple"), " yes (max |diff| ") != NULL);

    /* results that really differ are caught: each backend draws other random numbers */
    CHECK_STR(run_keep(s, "compare(\"rand(50)\", backends=[\"fast\", \"simple\"])"), "ok");
    CHECK(strstr(row_of("simple"), " NO (max |diff| ") != NULL);
    /* the default backend is switched for the run, and the named tensors are moved: the
     * backend's name is the result, and differs */
    CHECK_STR(run_keep(s, "compare(\"[zeros(1).backend, a.backend]\", backends=[\"simple\", "
                          "\"fast\"])"),
              "ok");
    CHECK(strstr(row_of("fast"), " NO (") != NULL);
    forget();
    dsl_session_free(s);
}

static void test_agreement_checker(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "r = tensor([1000, 1, 0])\n"
          "same = tensor([1000, 1, 0])\n"
          "near = tensor([1000.1, 1.00001, 0.000009])\n" /* within 1e-5 + 1e-4 |ref| */
          "far = tensor([1000.2, 1, 0])\n"               /* 0.2 > 1e-5 + 0.1 */
          "other = tensor([[1000, 1, 0]])\n"
          "n1 = tensor([1, 0]).log()\n"  /* [0, -inf] */
          "n2 = tensor([1, -1]).log()\n" /* [0, nan] */
          "n3 = tensor([1, -2]).log()\n"
          "neg = -tensor([1, 0]).log()\n");
#define V(name) (*dsl_session_lookup(s, name))
    double d = -1;
    CHECK(dsl_values_agree(V("r"), V("same"), &d) && d == 0);
    CHECK(dsl_values_agree(V("r"), V("near"), &d));
    CHECK(d > 0.09 && d < 0.11); /* 1000.1 is 1000.09998 in float32 */
    CHECK(!dsl_values_agree(V("r"), V("far"), &d));
    CHECK(d > 0.19 && d < 0.21);
    CHECK(!dsl_values_agree(V("r"), V("other"), &d) && isnan(d)); /* shapes differ */
    CHECK(dsl_values_agree(V("n1"), V("n1"), &d));                /* -inf == -inf */
    CHECK(!dsl_values_agree(V("n1"), V("neg"), &d));              /* -inf vs inf */
    CHECK(dsl_values_agree(V("n2"), V("n3"), &d));                /* nan agrees with nan */
    CHECK(!dsl_values_agree(V("n1"), V("n2"), &d));               /* -inf vs nan */
    CHECK(dsl_values_agree(dsl_float(2.0), dsl_int(2), &d) && d == 0);
    CHECK(dsl_values_agree(dsl_float(1.0), dsl_float(1.000001), &d));
    CHECK(!dsl_values_agree(dsl_float(1.0), dsl_float(1.001), &d));
    CHECK(!dsl_values_agree(V("r"), dsl_float(1.0), &d) && isnan(d));
    /* lists item by item */
    OK(s, "l1 = [r, 2, \"x\"]\nl2 = [near, 2.0, \"x\"]\nl3 = [far, 2, \"x\"]\nl4 = [r, 2]");
    CHECK(dsl_values_agree(V("l1"), V("l2"), &d));
    CHECK(!dsl_values_agree(V("l1"), V("l3"), &d));
    CHECK(!dsl_values_agree(V("l1"), V("l4"), &d) && isnan(d));
#undef V
    dsl_session_free(s);
}

/* Raises the cancel flag ~50 ms after it starts. */
static void *raise_later(void *arg)
{
    (void)arg;
    struct timespec t = {0, 50 * 1000 * 1000};
    nanosleep(&t, NULL);
    mt_cancel_request();
    return NULL;
}

static void test_compare_leaves_variables(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "a = tensor([[1, 2, 3], [4, 5, 6]])\nat = a.permute(1, 0)\nn = 5\nkeep = a\n"
          "xs = [a, 1]\nw = tensor([1, 2, 3], requires_grad=true)\n"
          "def scaled(k):\n    return a * k + n\n");
    /* everything the statement could change, changed */
    CHECK_STR(run_keep(s, "compare(\"a[0, 0] = 99\\nxs.append(5)\\nxs[1] = 7\\nn = n + 1\\n"
                          "c = a * 2\\n(w * w).sum().backward()\\nscaled(2)\", "
                          "backends=[\"simple\", \"fast\"])"),
              "ok");
    CHECK(strstr(row_of("fast"), " yes (") != NULL);
    CHECK_STR(OK(s, "[a.backend, n, a.tolist(), keep.tolist(), len(xs), xs[1]]"),
              "['fast', 5, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "
              "2, 1]");
    CHECK_STR(OK(s, "[w.grad == none, w.requires_grad(), at.strides, at.tolist()]"),
              "[True, True, (1, 3), [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]]");
    FAILS(s, "c", "NameError");                     /* made inside: gone again */
    CHECK_STR(OK(s, "zeros(1).backend"), "'fast'"); /* the default backend is back */
    CHECK_STR(OK(s, "scaled(1).tolist()"), "[[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]");

    /* the copies keep the layout: a permuted view stays strided on each backend (printed at
     * every run; a short sleep keeps the runs few) */
    CHECK_STR(run_keep(s, "compare(\"print(at.strides, at.backend)\\nsleep(0.01)\", "
                          "backends=[\"simple\", \"fast\"])"),
              "ok");
    CHECK(strncmp(out_text, "(1, 3) simple\n", 14) == 0);
    CHECK(strstr(out_text, "(1, 3) fast\n") != NULL);
    CHECK(strstr(out_text, "(2, 1)") == NULL);

    /* an error inside: everything restored, and the message says where */
    const char *m = FAILS(s, "compare(\"a[0, 0] = -1\\nn = 99\\n1 / 0\")", "ZeroDivisionError");
    CHECK(strstr(m, "(in compare's statement on simple)") != NULL);
    CHECK_STR(OK(s, "[n, a[0, 0]]"), "[5, 1.0]");
    /* an interrupt in the middle of the statement: restored as well */
    mt_cancel_clear();
    pthread_t t;
    CHECK_INT(pthread_create(&t, NULL, raise_later, NULL), 0);
    FAILS(s, "%backend simple\ncompare(\"a[0, 0] = -1\\nm = 1\\nwhile true:\\n    n = n + 1\")",
          "KeyboardInterrupt");
    pthread_join(t, NULL);
    mt_cancel_clear();
    CHECK_STR(OK(s, "[n, a[0, 0], zeros(1).backend]"), "[5, 1.0, 'simple']");
    FAILS(s, "m", "NameError");

    /* bad input: clear errors, nothing lost */
    FAILS(s, "compare(\"a +\")", "SyntaxError");
    FAILS(s, "compare(\"a\", backends=[\"gpu\"])", "ValueError");
    FAILS(s, "compare(\"a\", backends=[])", "TypeError");
    FAILS(s, "compare(\"a\", backends=[1])", "TypeError");
    FAILS(s, "compare(5)", "TypeError");
    FAILS(s, "compare(\"%reset\")", "ValueError");
    FAILS(s, "compare(\"  # nothing\")", "ValueError");
    FAILS(s, "compare(\"nosuch + 1\")", "NameError");
    /* an engine object cannot be copied to each backend yet: refused, its tensors are not */
    OK(s, "net = mlp(2, 3, 1)\nps = net.parameters()");
    m = FAILS(s, "compare(\"net(ones(1, 2))\")", "TypeError");
    CHECK(strstr(m, "cannot copy a model yet") != NULL);
    CHECK_STR(run_keep(s, "compare(\"ones(1, 2) @ ps[0]\", backends=[\"simple\", \"fast\"])"),
              "ok");
    CHECK_STR(OK(s, "[n, len(xs)]"), "[5, 2]");
    forget();
    dsl_session_free(s);
}

static void test_timing(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_STR(run_keep(s, "timing(sizes=[8, 16], backends=[\"simple\", \"fast\", \"cuda\"])"),
              "ok");
    CHECK_INT(nshown, 2);
    const char *t = text_of(0);
    const char *head = "timing: x @ y, x and y = rand(2, n, n) (drawn inside the time), median of "
                       "3 runs\n     n  simple       fast         cuda\n";
    CHECK(strncmp(t, head, strlen(head)) == 0);
    CHECK(strstr(t, "\n     8  ") != NULL && strstr(t, "\n    16  ") != NULL);
    CHECK(strstr(t, "  unavailable\n") != NULL);
    CHECK(strstr(t, "\ncuda unavailable: the cuda backend is not available") != NULL);
    json_t *spec = json_object_get(shown[1], CHART_VEGALITE_MIME);
    json_t *enc = json_object_get(spec, "encoding");
    CHECK_STR(json_string_value(
                  json_object_get(json_object_get(json_object_get(enc, "x"), "scale"), "type")),
              "log");
    CHECK_STR(json_string_value(
                  json_object_get(json_object_get(json_object_get(enc, "y"), "scale"), "type")),
              "log");
    /* 2 sizes x 2 backends that ran */
    json_t *values = json_object_get(json_object_get(spec, "data"), "values");
    CHECK_INT(json_array_size(values), 4);
    CHECK(json_real_value(json_object_get(json_array_get(values, 1), "x")) == 16);
    CHECK_STR(text_of(1), "<line chart: timing: x @ y>");
    /* the course's default backends: fast and cuda */
    CHECK_STR(run_keep(s, "timing(\"sum\", sizes=[4])"), "ok");
    CHECK(strstr(text_of(0), "timing: x.sum(2),") != NULL);
    CHECK(strstr(text_of(0), "\n     n  fast         cuda\n") != NULL);
    CHECK_STR(run_keep(s, "timing(\"add\", [4, 8], [\"simple\"])"), "ok");
    CHECK(strstr(text_of(0), "\n     8  ") != NULL);
    FAILS(s, "timing(\"conv\")", "ValueError");
    FAILS(s, "timing(sizes=[0])", "ValueError");
    FAILS(s, "timing(sizes=4)", "TypeError");
    forget();
    dsl_session_free(s);
}

static void test_renderers(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "a = rand(4)");
    OK(s, "%plot_renderer vegalite");
    run_keep(s, "compare(\"a + 1\", backends=[\"fast\"])");
    CHECK(nshown == 2 && json_object_get(shown[1], CHART_VEGALITE_MIME) &&
          !json_object_get(shown[1], "image/svg+xml") && json_object_size(shown[1]) == 2);
    OK(s, "%plot_renderer svg");
    run_keep(s, "timing(sizes=[4], backends=[\"fast\"])");
    CHECK(nshown == 2 && !json_object_get(shown[1], CHART_VEGALITE_MIME) &&
          json_object_get(shown[1], "image/svg+xml") && json_object_size(shown[1]) == 2);
    OK(s, "%plot_renderer html");
    run_keep(s, "timing(sizes=[4], backends=[\"fast\"])");
    const char *h = nshown == 2 ? json_string_value(json_object_get(shown[1], "text/html")) : NULL;
    CHECK(h && strstr(h, "<svg ") && strstr(h, "vega-embed"));
    /* the table keeps its HTML whatever the renderer */
    CHECK(nshown == 2 && json_object_get(shown[0], "text/html"));
    forget();
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_compare_rows_and_displays);
    RUN_TEST(test_agreement_checker);
    RUN_TEST(test_compare_leaves_variables);
    RUN_TEST(test_timing);
    RUN_TEST(test_renderers);
    return TEST_SUMMARY();
}
