/* test_chart.c — kernel/render/chart: the Vega-Lite specs hold the data and the encodings a
 * bar and a log-log line chart need, the SVG drawings are well-formed XML with the marks where
 * the data put them, and the bundles follow %plot_renderer's choices (never HTML beside a
 * chart; the html renderer's script carries the very spec). */
#include "test.h"

#include "render/chart.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small well-formedness check of XML as the renderer writes it: elements nest and close with
 * matching names, attributes are name="value", text and values hold no '<' and only entity
 * '&'s. Returns the number of elements, or -1. */
static int xml_elements(const char *s)
{
    char stack[64][32];
    int depth = 0, count = 0;
    const char *p = s;
    while (*p) {
        if (*p == '&') { /* an entity: &name; or &#digits; */
            p++;
            if (*p == '#') p++;
            if (!isalnum((unsigned char)*p)) return -1;
            while (isalnum((unsigned char)*p)) p++;
            if (*p++ != ';') return -1;
            continue;
        }
        if (*p != '<') {
            p++;
            continue;
        }
        p++;
        bool closing = *p == '/';
        if (closing) p++;
        char name[32];
        size_t n = 0;
        while (isalnum((unsigned char)*p) && n < sizeof name - 1) name[n++] = *p++;
        name[n] = '\0';
        if (n == 0) return -1;
        if (closing) {
            if (*p++ != '>' || depth == 0 || strcmp(stack[--depth], name) != 0) return -1;
            continue;
        }
        count++;
        for (;;) { /* attributes */
            while (*p == ' ' || *p == '\n') p++;
            if (*p == '/' && p[1] == '>') {
                p += 2;
                break;
            }
            if (*p == '>') {
                p++;
                if (depth == 64) return -1;
                snprintf(stack[depth++], sizeof stack[0], "%s", name);
                break;
            }
            if (!isalpha((unsigned char)*p)) return -1;
            while (isalnum((unsigned char)*p) || *p == '-' || *p == ':') p++;
            if (*p++ != '=' || *p++ != '"') return -1;
            while (*p && *p != '"') {
                if (*p == '<') return -1;
                p++;
            }
            if (*p++ != '"') return -1;
        }
    }
    return depth == 0 ? count : -1;
}

static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static const char *str_at(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static void test_xml_checker_catches_errors(void)
{
    /* the checker itself must be able to fail */
    CHECK(xml_elements("<svg><g/><text x=\"1\">a &amp; b</text></svg>") == 3);
    CHECK(xml_elements("<svg><text>a < b</text></svg>") == -1);
    CHECK(xml_elements("<svg><text>a & b</text></svg>") == -1);
    CHECK(xml_elements("<svg><g></svg>") == -1);
    CHECK(xml_elements("<svg x=1/>") == -1);
}

static const char *const backends[] = {"simple", "fast", "cuda"};

static void test_bars_spec(void)
{
    double v[] = {4.0, 1.0, NAN};
    struct chart_bars c = {"time <per> run", "backend", "time (ms)", 3, backends, v, "n/a"};
    json_t *s = chart_bars_spec(&c);
    CHECK(json_is_object(s));
    CHECK_STR(str_at(s, "$schema"), "https://vega.github.io/schema/vega-lite/v5.json");
    CHECK_STR(str_at(s, "title"), "time <per> run");
    CHECK_INT(json_integer_value(json_object_get(s, "width")), 320);
    CHECK_INT(json_integer_value(json_object_get(s, "height")), 250);
    CHECK_STR(str_at(json_object_get(s, "mark"), "type"), "bar");
    json_t *values = json_object_get(json_object_get(s, "data"), "values");
    CHECK_INT(json_array_size(values), 2); /* the NaN bar has no row... */
    CHECK_STR(str_at(json_array_get(values, 0), "label"), "simple");
    CHECK(json_real_value(json_object_get(json_array_get(values, 0), "value")) == 4.0);
    CHECK_STR(str_at(json_array_get(values, 1), "label"), "fast");
    CHECK(json_real_value(json_object_get(json_array_get(values, 1), "value")) == 1.0);
    json_t *x = json_object_get(json_object_get(s, "encoding"), "x");
    json_t *y = json_object_get(json_object_get(s, "encoding"), "y");
    CHECK_STR(str_at(x, "field"), "label");
    CHECK_STR(str_at(x, "type"), "nominal");
    CHECK(json_is_null(json_object_get(x, "sort")));
    /* ...but stays on the axis */
    json_t *domain = json_object_get(json_object_get(x, "scale"), "domain");
    CHECK_INT(json_array_size(domain), 3);
    CHECK_STR(json_string_value(json_array_get(domain, 2)), "cuda");
    CHECK_STR(str_at(y, "field"), "value");
    CHECK_STR(str_at(y, "type"), "quantitative");
    CHECK_STR(str_at(y, "title"), "time (ms)");
    /* it survives a round trip through text */
    char *text = json_dumps(s, JSON_COMPACT);
    json_t *back = json_loads(text, 0, NULL);
    CHECK(back && json_equal(back, s));
    json_decref(back);
    free(text);
    json_decref(s);
}

static void test_bars_svg(void)
{
    double v[] = {4.0, 1.0, NAN};
    struct chart_bars c = {
        "time <per> run & more", "backend", "time (ms)", 3, backends, v, "unavailable"};
    char *svg = chart_bars_svg(&c);
    CHECK(svg != NULL);
    CHECK(strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
    CHECK(xml_elements(svg) > 0);
    CHECK(strstr(svg, "time &lt;per&gt; run &amp; more") != NULL);        /* the title, escaped */
    CHECK(strstr(svg, "<script") == NULL && strstr(svg, "href") == NULL); /* self-contained */
    /* two bars on an axis from 0 to 5 in round ticks of 1 (the next round top above 4): 4/5 and
     * 1/5 of the plot's 250 px */
    CHECK_INT(count_of(svg, "fill=\"#4c78a8\""), 2);
    CHECK(strstr(svg, "height=\"200.0\" fill=\"#4c78a8\"") != NULL);
    CHECK(strstr(svg, "height=\"50.0\" fill=\"#4c78a8\"") != NULL);
    CHECK(strstr(svg, ">5</text>") != NULL && strstr(svg, ">3</text>") != NULL);
    CHECK(strstr(svg, ">unavailable</text>") != NULL);
    CHECK(strstr(svg, ">cuda</text>") != NULL);
    CHECK(strstr(svg, "nan") == NULL && strstr(svg, "inf") == NULL);
    free(svg);
    /* nothing to draw is still a valid drawing */
    struct chart_bars none = {NULL, NULL, NULL, 0, NULL, NULL, NULL};
    svg = chart_bars_svg(&none);
    CHECK(svg && xml_elements(svg) > 0);
    free(svg);
}

static void test_lines(void)
{
    static const char *const series[] = {"fast", "cuda", "simple"};
    double x[] = {64, 128, 256, 512};
    double y[] = {1e-4, 8e-4, 6.4e-3, 5.1e-2, /* fast */
                  NAN,  NAN,  NAN,    NAN,    /* cuda: unavailable */
                  1e-3, 8e-3, 0,      NAN};   /* simple: a zero cannot go on a log axis */
    struct chart_lines c = {"timing", "size n", "time (s)", "backend", 3,    4,
                            series,   x,        y,          true,      true, false};
    json_t *s = chart_lines_spec(&c);
    CHECK(json_is_object(s));
    json_t *mark = json_object_get(s, "mark");
    CHECK_STR(str_at(mark, "type"), "line");
    CHECK(json_is_true(json_object_get(mark, "point")));
    json_t *enc = json_object_get(s, "encoding");
    json_t *ex = json_object_get(enc, "x"), *ey = json_object_get(enc, "y");
    CHECK_STR(str_at(json_object_get(ex, "scale"), "type"), "log");
    CHECK_STR(str_at(json_object_get(ey, "scale"), "type"), "log");
    CHECK_STR(str_at(ex, "title"), "size n");
    CHECK_STR(str_at(ey, "title"), "time (s)");
    CHECK_INT(json_array_size(json_object_get(json_object_get(ex, "axis"), "values")), 4);
    json_t *color = json_object_get(enc, "color");
    CHECK_STR(str_at(color, "field"), "series");
    CHECK_INT(json_array_size(json_object_get(json_object_get(color, "scale"), "domain")), 3);
    CHECK(json_object_get(color, "legend") == NULL); /* short names: the legend beside */
    json_t *values = json_object_get(json_object_get(s, "data"), "values");
    CHECK_INT(json_array_size(values), 6); /* 4 fast + 2 simple */
    json_t *last = json_array_get(values, 5);
    CHECK_STR(str_at(last, "series"), "simple");
    CHECK(json_real_value(json_object_get(last, "x")) == 128);
    CHECK(json_real_value(json_object_get(last, "y")) == 8e-3);
    json_decref(s);

    char *svg = chart_lines_svg(&c);
    CHECK(svg && xml_elements(svg) > 0);
    CHECK_INT(count_of(svg, "<polyline"), 2); /* cuda has no points, no line */
    CHECK_INT(count_of(svg, "<circle"), 6);
    CHECK(strstr(svg, ">cuda</text>") != NULL); /* but a legend entry */
    /* decade ticks from 1e-4 to 1e-1 */
    CHECK(strstr(svg, ">0.0001</text>") != NULL && strstr(svg, ">0.1</text>") != NULL);
    CHECK(strstr(svg, ">512</text>") != NULL);
    CHECK(strstr(svg, "nan") == NULL && strstr(svg, "inf") == NULL);
    free(svg);

    /* a long name: the legend under the plot, so that the chart stays narrow */
    static const char *const long_names[] = {"fast", "student (CudaMatmulOps, simulated)", "cuda"};
    c.series = long_names;
    s = chart_lines_spec(&c);
    color = json_object_get(json_object_get(s, "encoding"), "color");
    CHECK_STR(str_at(json_object_get(color, "legend"), "orient"), "bottom");
    json_decref(s);
    c.series = series;

    /* no point at all: still a drawing */
    double only_nan[] = {NAN, NAN, NAN, NAN};
    struct chart_lines empty = {"t", "n", "s", "b", 1, 4, series, x, only_nan, true, true, false};
    svg = chart_lines_svg(&empty);
    CHECK(svg && xml_elements(svg) > 0 && strstr(svg, "nan") == NULL);
    free(svg);
}

static void test_bundles_by_renderer(void)
{
    double v[] = {2.0, 1.0, NAN};
    struct chart_bars c = {"a </script><!-- b", "backend", "ms", 3, backends, v, NULL};
    json_t *b = chart_bars_bundle("auto", &c);
    CHECK_STR(str_at(b, "text/plain"), "<bar chart: a </script><!-- b>");
    CHECK(json_is_object(json_object_get(b, CHART_VEGALITE_MIME)));
    CHECK(json_is_string(json_object_get(b, "image/svg+xml")));
    CHECK(!json_object_get(b, "text/html")); /* JupyterLab would show only the HTML */
    CHECK_INT(json_object_size(b), 3);
    json_decref(b);

    b = chart_bars_bundle("vegalite", &c);
    CHECK(json_object_get(b, CHART_VEGALITE_MIME) && !json_object_get(b, "image/svg+xml"));
    CHECK_INT(json_object_size(b), 2);
    json_decref(b);
    b = chart_bars_bundle("svg", &c);
    CHECK(!json_object_get(b, CHART_VEGALITE_MIME) && json_object_get(b, "image/svg+xml"));
    CHECK_INT(json_object_size(b), 2);
    json_decref(b);

    b = chart_bars_bundle("html", &c);
    CHECK_INT(json_object_size(b), 2);
    const char *h = str_at(b, "text/html");
    CHECK(h && strncmp(h, "<div class=\"minitorch-chart\">\n<svg ", 35) == 0);
    CHECK(h && strstr(h, "vega-embed") != NULL);
    /* the only "</script>" and "<!--" are the page's own: the title's are escaped in the script
     * (and in the SVG) */
    CHECK(h && count_of(h, "</script>") == 1 && !strstr(h, "<!--"));
    /* the script carries the spec itself: cut it out and compare */
    const char *start = h ? strstr(h, "previousElementSibling,\n") : NULL;
    const char *end = start ? strstr(start, ");\n</script>") : NULL;
    CHECK(start && end);
    if (start && end) {
        start += strlen("previousElementSibling,\n");
        json_t *got = json_loadb(start, (size_t)(end - start), 0, NULL);
        json_t *want = chart_bars_spec(&c);
        CHECK(got && json_equal(got, want));
        json_decref(got);
        json_decref(want);
    }
    json_decref(b);
}

static void test_points(void)
{
    float xy[] = {0.1f, 0.9f, 0.25f, 0.5f, 0.99999f, 0.0f, 1.2f, 0.5f}, label[] = {0, 1, 0, 1};
    struct chart_points c = {"xor, 3 points", 3, xy, label, 0, NULL};
    /* a point outside the unit square (spiral's outer turns): in the data, clipped by
     * Vega-Lite, left out of the SVG */
    struct chart_points out4 = {"spiral", 4, xy, label, 0, NULL};
    json_t *s4 = chart_points_spec(&out4);
    CHECK_INT(json_array_size(json_object_get(json_object_get(s4, "data"), "values")), 4);
    CHECK(json_is_true(json_object_get(json_object_get(s4, "mark"), "clip")));
    json_decref(s4);
    char *svg4 = chart_points_svg(&out4);
    CHECK(svg4 && count_of(svg4, "stroke=\"#ea8484\"") == 2); /* one cross and the legend's */
    free(svg4);
    json_t *s = chart_points_spec(&c);
    CHECK(json_is_object(s));
    CHECK_STR(str_at(json_object_get(s, "mark"), "type"), "point");
    json_t *values = json_object_get(json_object_get(s, "data"), "values");
    CHECK_INT(json_array_size(values), 3);
    json_t *p1 = json_array_get(values, 1);
    CHECK(json_real_value(json_object_get(p1, "x1")) == 0.25);
    CHECK(json_real_value(json_object_get(p1, "x2")) == 0.5);
    CHECK_INT(json_integer_value(json_object_get(p1, "class")), 1);
    /* rounded to 4 decimals: 0.99999 is 1 */
    CHECK(json_real_value(json_object_get(json_array_get(values, 2), "x1")) == 1.0);
    json_t *enc = json_object_get(s, "encoding");
    json_t *range =
        json_object_get(json_object_get(json_object_get(enc, "color"), "scale"), "range");
    CHECK_STR(json_string_value(json_array_get(range, 0)), "#69bac9");
    CHECK_STR(json_string_value(json_array_get(range, 1)), "#ea8484");
    json_t *dom = json_object_get(json_object_get(json_object_get(enc, "x"), "scale"), "domain");
    CHECK(json_integer_value(json_array_get(dom, 0)) == 0 &&
          json_integer_value(json_array_get(dom, 1)) == 1);
    CHECK_STR(str_at(json_object_get(enc, "shape"), "field"), "class");
    json_decref(s);

    char *svg = chart_points_svg(&c);
    CHECK(svg && xml_elements(svg) > 0);
    /* two class-0 circles and one class-1 cross, plus one of each in the legend */
    CHECK_INT(count_of(svg, "fill=\"#69bac9\""), 3);
    CHECK_INT(count_of(svg, "stroke=\"#ea8484\""), 2);
    CHECK(strstr(svg, ">class 1</text>") != NULL);
    free(svg);

    json_t *b = chart_points_bundle("auto", &c);
    CHECK(json_object_get(b, CHART_VEGALITE_MIME) && json_object_get(b, "image/svg+xml"));
    CHECK_STR(str_at(b, "text/plain"), "<scatter plot: xor, 3 points>");
    json_decref(b);
}

/* A heat map: a value per cell rounded to 4 significant digits (NaN as null), row and column
 * indices, the values written in for few cells only; the SVG a rect per cell, shaded from white
 * (the smallest value) to the blue (the largest). */
static void test_heatmap(void)
{
    const float v[6] = {1.0f, 2.0f, 3.0f, 4.123456f, NAN, 6.0f};
    struct chart_heatmap c = {.title = "t",
                              .row_title = "dim 0",
                              .col_title = "dim 1",
                              .rows = 2,
                              .cols = 3,
                              .values = v};
    json_t *s = chart_heatmap_spec(&c);
    CHECK(s != NULL);
    json_t *vals = json_object_get(json_object_get(s, "data"), "values");
    CHECK_INT(json_array_size(vals), 6);
    json_t *e = json_array_get(vals, 3);
    CHECK_INT(json_integer_value(json_object_get(e, "row")), 1);
    CHECK_INT(json_integer_value(json_object_get(e, "col")), 0);
    CHECK(fabs(json_real_value(json_object_get(e, "value")) - 4.123) < 1e-12);
    CHECK_STR(json_string_value(json_object_get(e, "label")), "4.123");
    CHECK(json_is_null(json_object_get(json_array_get(vals, 4), "value")));
    CHECK_INT(json_array_size(json_object_get(s, "layer")), 2); /* rects and their values */
    json_decref(s);
    char *svg = chart_heatmap_svg(&c);
    CHECK(svg && xml_elements(svg) > 0);
    CHECK(svg && strstr(svg, "fill=\"#ffffff\"") && strstr(svg, "fill=\"#2f6eba\""));
    CHECK(svg && strstr(svg, ">4.123<"));
    free(svg);
    float many[100];
    for (int i = 0; i < 100; i++) many[i] = (float)i;
    c.rows = 10, c.cols = 10, c.values = many;
    s = chart_heatmap_spec(&c);
    CHECK(s && json_array_size(json_object_get(s, "layer")) == 1); /* too many to write in */
    json_decref(s);
}

/* An axis's "values": the labelled rows or columns, or none when every one is labelled. */
static json_t *axis_values(json_t *spec, const char *channel)
{
    json_t *enc = json_object_get(json_array_get(json_object_get(spec, "layer"), 0), "encoding");
    return json_object_get(json_object_get(json_object_get(enc, channel), "axis"), "values");
}

/* A 40 x 60 matrix: every 5th row and every 10th column labelled (6.25 and 5.3 pixels per band
 * would put the numbers on top of each other), in both forms; 10 x 10 leaves room for every
 * label. */
static void test_heatmap_labels_thinned(void)
{
    static float v[40 * 60];
    struct chart_heatmap c = {"t", "dim 0", "dim 1", 40, 60, v};
    json_t *s = chart_heatmap_spec(&c);
    json_t *xs = axis_values(s, "x"), *ys = axis_values(s, "y");
    CHECK_INT(json_array_size(xs), 6);
    CHECK_INT(json_array_size(ys), 8);
    CHECK_INT(json_integer_value(json_array_get(xs, 1)), 10);
    CHECK_INT(json_integer_value(json_array_get(xs, 5)), 50);
    CHECK_INT(json_integer_value(json_array_get(ys, 7)), 35);
    json_decref(s);
    char *svg = chart_heatmap_svg(&c);
    CHECK(svg && strstr(svg, ">50</text>") && strstr(svg, ">35</text>"));
    CHECK(svg && !strstr(svg, ">55</text>") && !strstr(svg, ">36</text>"));
    free(svg);
    c.rows = c.cols = 10;
    s = chart_heatmap_spec(&c);
    CHECK(s && !axis_values(s, "x") && !axis_values(s, "y"));
    json_decref(s);
}

/* The pixel width an SVG document asks for. */
static int svg_width(const char *svg)
{
    const char *w = svg ? strstr(svg, " width=\"") : NULL;
    return w ? atoi(w + 8) : -1;
}

/* train()'s chart fits an output area beside an open side panel in both forms: the boundary over
 * the loss curve over the time per epoch, the line panels without a legend. */
static void test_training_chart_fits(void)
{
    float xy[] = {0.1f, 0.9f, 0.6f, 0.2f}, label[] = {0, 1}, prob[4] = {0.1f, 0.4f, 0.6f, 0.9f};
    struct chart_points p = {"boundary", 2, xy, label, 2, prob};
    double x[] = {0, 1, 2}, loss[] = {3, 2, 1}, us[] = {40, 30, 35};
    const char *ls[] = {"loss"}, *ts[] = {"time per epoch"};
    struct chart_lines l = {"loss", "epoch", "loss", "series", 1,     3,
                            ls,     x,       loss,   false,    false, true};
    struct chart_lines t = {"time", "epoch", "us", "series", 1, 3, ts, x, us, false, false, true};
    json_t *b = chart_training_bundle("auto", "all", &p, &l, &t);
    const char *svg = str_at(b, "image/svg+xml");
    CHECK(svg && xml_elements(svg) > 0);
    /* one column, narrow enough for an output area beside an open side panel */
    CHECK(svg_width(svg) >= 400 && svg_width(svg) <= 560);
    CHECK(svg && !strstr(svg, ">series</text>")); /* no legend on the line panels */
    json_t *column = json_object_get(json_object_get(b, CHART_VEGALITE_MIME), "vconcat");
    CHECK_INT(json_array_size(column), 3);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(column, 0), "width")), 250);
    for (size_t i = 1; i < 3; i++) {
        json_t *panel = json_array_get(column, i);
        CHECK(json_integer_value(json_object_get(panel, "width")) < 400);
        json_t *color = json_object_get(json_object_get(panel, "encoding"), "color");
        CHECK(json_is_null(json_object_get(color, "legend")));
    }
    json_decref(b);
    /* the standalone charts keep their legend */
    char *alone = chart_lines_svg(&l);
    CHECK(alone && strstr(alone, ">series</text>") && svg_width(alone) <= 900);
    free(alone);
}

int main(void)
{
    RUN_TEST(test_xml_checker_catches_errors);
    RUN_TEST(test_bars_spec);
    RUN_TEST(test_bars_svg);
    RUN_TEST(test_lines);
    RUN_TEST(test_bundles_by_renderer);
    RUN_TEST(test_points);
    RUN_TEST(test_heatmap);
    RUN_TEST(test_heatmap_labels_thinned);
    RUN_TEST(test_training_chart_fits);
    return TEST_SUMMARY();
}
