/* chart.c — Vega-Lite specs and SVG drawings of simple charts (see chart.h). */
#include "render/chart.h"

#include "render/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The part of a spec every chart shares. */
static json_t *spec_base(const char *title)
{
    json_t *s = json_object();
    if (!s) return NULL;
    json_object_set_new(s, "$schema",
                        json_string("https://vega.github.io/schema/vega-lite/v5.json"));
    if (title) json_object_set_new(s, "title", json_string(title));
    json_object_set_new(s, "width", json_integer(CHART_WIDTH));
    json_object_set_new(s, "height", json_integer(CHART_HEIGHT));
    return s;
}

static json_t *axis(const char *field, const char *type, const char *title, bool log)
{
    json_t *a = json_pack("{s:s, s:s}", "field", field, "type", type);
    if (a && title) json_object_set_new(a, "title", json_string(title));
    if (a && log) json_object_set_new(a, "scale", json_pack("{s:s}", "type", "log"));
    return a;
}

json_t *chart_bars_spec(const struct chart_bars *c)
{
    json_t *s = spec_base(c->title), *values = json_array();
    if (!s || !values) {
        json_decref(s);
        json_decref(values);
        return NULL;
    }
    for (size_t i = 0; i < c->n; i++)
        if (!isnan(c->values[i]))
            json_array_append_new(
                values, json_pack("{s:s, s:f}", "label", c->labels[i], "value", c->values[i]));
    json_object_set_new(s, "data", json_pack("{s:o}", "values", values));
    json_object_set_new(s, "mark", json_string("bar"));
    json_t *x = axis("label", "nominal", c->x_title, false);
    if (x) json_object_set_new(x, "sort", json_null()); /* keep the given order */
    json_object_set_new(
        s, "encoding",
        json_pack("{s:o, s:o}", "x", x, "y", axis("value", "quantitative", c->y_title, false)));
    return s;
}

json_t *chart_lines_spec(const struct chart_lines *c)
{
    json_t *s = spec_base(c->title), *values = json_array();
    if (!s || !values) {
        json_decref(s);
        json_decref(values);
        return NULL;
    }
    for (size_t k = 0; k < c->nseries; k++)
        for (size_t i = 0; i < c->npoints; i++) {
            double y = c->y[k * c->npoints + i];
            if (!isnan(y))
                json_array_append_new(values, json_pack("{s:f, s:f, s:s}", "x", c->x[i], "y", y,
                                                        "series", c->series[k]));
        }
    json_object_set_new(s, "data", json_pack("{s:o}", "values", values));
    json_object_set_new(s, "mark", json_pack("{s:s, s:b}", "type", "line", "point", 1));
    json_object_set_new(s, "encoding",
                        json_pack("{s:o, s:o, s:o}", "x",
                                  axis("x", "quantitative", c->x_title, c->log_x), "y",
                                  axis("y", "quantitative", c->y_title, c->log_y), "color",
                                  axis("series", "nominal", c->series_title, false)));
    return s;
}

/* ---- SVG ----------------------------------------------------------------------------------- */

#define M_LEFT 70
#define M_RIGHT 110 /* room for a legend */
#define M_TOP 30
#define M_BOTTOM 45

static const char *const palette[] = {"#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2"};

static void text_el(struct render_buf *b, double x, double y, const char *anchor, const char *s,
                    const char *extra)
{
    render_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor,
                      extra ? extra : "");
    render_html_escape(b, s, strlen(s));
    render_buf_puts(b, "</text>\n");
}

static void svg_open(struct render_buf *b, const char *title, const char *x_title,
                     const char *y_title)
{
    int w = M_LEFT + CHART_WIDTH + M_RIGHT, h = M_TOP + CHART_HEIGHT + M_BOTTOM;
    render_buf_printf(b,
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                      "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
                      "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
                      w, h, w, h, w, h);
    if (title) text_el(b, M_LEFT + CHART_WIDTH / 2.0, 18, "middle", title, " font-size=\"13\"");
    if (x_title) text_el(b, M_LEFT + CHART_WIDTH / 2.0, h - 6.0, "middle", x_title, NULL);
    if (y_title) {
        char rot[96];
        snprintf(rot, sizeof rot, " transform=\"rotate(-90 14 %.1f)\"", M_TOP + CHART_HEIGHT / 2.0);
        text_el(b, 14, M_TOP + CHART_HEIGHT / 2.0, "middle", y_title, rot);
    }
    render_buf_printf(b,
                      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n"
                      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n",
                      M_LEFT, M_TOP, M_LEFT, M_TOP + CHART_HEIGHT, M_LEFT, M_TOP + CHART_HEIGHT,
                      M_LEFT + CHART_WIDTH, M_TOP + CHART_HEIGHT);
}

static char *svg_close(struct render_buf *b)
{
    render_buf_puts(b, "</svg>\n");
    return render_buf_take(b);
}

/* A value axis from lo to hi (log10 units when log): ticks and their labels on the y axis. */
static void y_ticks(struct render_buf *b, double lo, double hi, bool log)
{
    char label[32];
    if (log) {
        for (double e = ceil(lo); e <= floor(hi); e++) {
            double py = M_TOP + CHART_HEIGHT - (e - lo) / (hi - lo) * CHART_HEIGHT;
            snprintf(label, sizeof label, "%g", pow(10, e));
            render_buf_printf(
                b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", M_LEFT,
                py, M_LEFT + CHART_WIDTH, py);
            text_el(b, M_LEFT - 4, py + 4, "end", label, NULL);
        }
        return;
    }
    for (int k = 0; k <= 5; k++) {
        double v = lo + (hi - lo) * k / 5.0, py = M_TOP + CHART_HEIGHT - k / 5.0 * CHART_HEIGHT;
        snprintf(label, sizeof label, "%.3g", v);
        render_buf_printf(b,
                          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                          M_LEFT, py, M_LEFT + CHART_WIDTH, py);
        text_el(b, M_LEFT - 4, py + 4, "end", label, NULL);
    }
}

char *chart_bars_svg(const struct chart_bars *c)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    svg_open(&b, c->title, c->x_title, c->y_title);
    double hi = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!isnan(c->values[i]) && c->values[i] > hi) hi = c->values[i];
    if (hi <= 0) hi = 1;
    y_ticks(&b, 0, hi, false);
    double slot = c->n ? (double)CHART_WIDTH / (double)c->n : CHART_WIDTH;
    for (size_t i = 0; i < c->n; i++) {
        double x = M_LEFT + slot * (double)i;
        text_el(&b, x + slot / 2, M_TOP + CHART_HEIGHT + 14, "middle", c->labels[i], NULL);
        if (isnan(c->values[i])) continue;
        double h = c->values[i] / hi * CHART_HEIGHT;
        render_buf_printf(&b,
                          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                          "fill=\"%s\"/>\n",
                          x + slot * 0.15, M_TOP + CHART_HEIGHT - h, slot * 0.7, h, palette[0]);
    }
    return svg_close(&b);
}

char *chart_lines_svg(const struct chart_lines *c)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    svg_open(&b, c->title, c->x_title, c->y_title);
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
#define TX(v) (c->log_x ? log10(v) : (v))
#define TY(v) (c->log_y ? log10(v) : (v))
    for (size_t i = 0; i < c->npoints; i++) {
        if (c->log_x && !(c->x[i] > 0)) continue;
        xlo = fmin(xlo, TX(c->x[i]));
        xhi = fmax(xhi, TX(c->x[i]));
    }
    for (size_t k = 0; k < c->nseries * c->npoints; k++) {
        double y = c->y[k];
        if (isnan(y) || (c->log_y && !(y > 0))) continue;
        ylo = fmin(ylo, TY(y));
        yhi = fmax(yhi, TY(y));
    }
    if (!(xhi > xlo)) xlo -= 1, xhi += 1;
    if (!(yhi > ylo)) ylo -= 1, yhi += 1;
    if (c->log_y) ylo = floor(ylo), yhi = ceil(yhi); /* whole decades */
    y_ticks(&b, ylo, yhi, c->log_y);
    char label[32];
    for (size_t i = 0; i < c->npoints; i++) {
        if (c->log_x && !(c->x[i] > 0)) continue;
        double px = M_LEFT + (TX(c->x[i]) - xlo) / (xhi - xlo) * CHART_WIDTH;
        snprintf(label, sizeof label, "%g", c->x[i]);
        text_el(&b, px, M_TOP + CHART_HEIGHT + 14, "middle", label, NULL);
    }
    for (size_t k = 0; k < c->nseries; k++) {
        const char *color = palette[k % (sizeof palette / sizeof palette[0])];
        render_buf_printf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                          color);
        for (size_t i = 0; i < c->npoints; i++) {
            double y = c->y[k * c->npoints + i];
            if (isnan(y) || (c->log_y && !(y > 0)) || (c->log_x && !(c->x[i] > 0))) continue;
            render_buf_printf(&b, "%.1f,%.1f ",
                              M_LEFT + (TX(c->x[i]) - xlo) / (xhi - xlo) * CHART_WIDTH,
                              M_TOP + CHART_HEIGHT - (TY(y) - ylo) / (yhi - ylo) * CHART_HEIGHT);
        }
        render_buf_puts(&b, "\"/>\n");
        double ly = M_TOP + 10 + 16.0 * (double)k;
        render_buf_printf(&b, "<rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"3\" fill=\"%s\"/>\n",
                          M_LEFT + CHART_WIDTH + 12, ly - 4, color);
        text_el(&b, M_LEFT + CHART_WIDTH + 28, ly, "start", c->series[k], NULL);
    }
#undef TX
#undef TY
    return svg_close(&b);
}

json_t *chart_bundle(const char *renderer, const char *text, json_t *spec, char *svg)
{
    json_t *bundle = render_text_bundle(text);
    bool vl = strcmp(renderer, "vegalite") == 0 || strcmp(renderer, "auto") == 0;
    bool sv = strcmp(renderer, "svg") == 0 || strcmp(renderer, "auto") == 0;
    bool html = strcmp(renderer, "html") == 0;
    if (bundle && spec && vl) json_object_set(bundle, CHART_VEGALITE_MIME, spec);
    if (bundle && svg && sv) json_object_set_new(bundle, "image/svg+xml", json_string(svg));
    if (bundle && svg && html) json_object_set_new(bundle, "text/html", json_string(svg));
    json_decref(spec);
    free(svg);
    return bundle;
}
