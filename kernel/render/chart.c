/* chart.c — Vega-Lite specs, SVG drawings and mime bundles of simple charts (see chart.h).
 *
 * The SVG mimics Vega-Lite's defaults (the tableau10 palette, a grid, titled axes) so that a
 * chart looks alike whichever form the front end shows. */
#include "render/chart.h"

#include "render/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Vega-Lite's default categorical palette (tableau10): series k has colour k in both forms. */
static const char *const palette[] = {"#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b",
                                      "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac"};
#define NPALETTE (sizeof palette / sizeof palette[0])

/* ---- Vega-Lite ------------------------------------------------------------------------------ */

/* The part of a spec every chart shares, with an empty data.values array (*values, borrowed:
 * the rows go there). NULL when out of memory. */
static json_t *spec_base(const char *title, json_t **values)
{
    json_t *s = json_object();
    *values = json_array();
    if (!s || !*values || json_object_set_new(s, "data", json_pack("{s:O}", "values", *values))) {
        json_decref(s);
        json_decref(*values);
        return NULL;
    }
    json_decref(*values); /* the spec holds it now */
    json_object_set_new(s, "$schema", json_string(CHART_VEGALITE_SCHEMA));
    if (title) json_object_set_new(s, "title", render_json_string(title, strlen(title)));
    json_object_set_new(s, "width", json_integer(CHART_WIDTH));
    json_object_set_new(s, "height", json_integer(CHART_HEIGHT));
    return s;
}

/* An encoding channel; a failed allocation leaves a field out, and spec_done catches it. */
static json_t *channel(const char *field, const char *type, const char *title, bool log)
{
    json_t *a = json_pack("{s:s, s:s}", "field", field, "type", type);
    if (a && title) json_object_set_new(a, "title", render_json_string(title, strlen(title)));
    if (a && log) json_object_set_new(a, "scale", json_pack("{s:s}", "type", "log"));
    return a;
}

/* A JSON array of n strings. */
static json_t *string_array(size_t n, const char *const *s)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, render_json_string(s[i], strlen(s[i]))) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

/* Jansson's setters ignore NULL values, so a spec built while memory ran out lacks a part:
 * check the parts every chart needs once, at the end. */
static json_t *spec_done(json_t *s)
{
    /* a layered chart: each layer has its mark and encoding */
    json_t *layer = json_object_get(s, "layer");
    bool layers_ok = json_is_array(layer) && json_array_size(layer) > 0;
    for (size_t i = 0; layers_ok && i < json_array_size(layer); i++) {
        json_t *l = json_array_get(layer, i), *e = json_object_get(l, "encoding");
        layers_ok =
            json_object_get(l, "mark") && json_object_get(e, "x") && json_object_get(e, "y");
    }
    json_t *enc = json_object_get(s, "encoding");
    bool single_ok =
        json_object_get(s, "mark") && json_object_get(enc, "x") && json_object_get(enc, "y");
    if (!json_object_get(s, "$schema") || !(single_ok || layers_ok) ||
        !json_is_array(json_object_get(json_object_get(s, "data"), "values"))) {
        json_decref(s);
        return NULL;
    }
    return s;
}

json_t *chart_bars_spec(const struct chart_bars *c)
{
    json_t *values, *s = spec_base(c->title, &values);
    if (!s) return NULL;
    for (size_t i = 0; i < c->n; i++)
        if (!isnan(c->values[i]))
            json_array_append_new(values,
                                  json_pack("{s:o, s:f}", "label",
                                            render_json_string(c->labels[i], strlen(c->labels[i])),
                                            "value", c->values[i]));
    json_object_set_new(s, "mark", json_pack("{s:s, s:b}", "type", "bar", "tooltip", 1));
    json_t *x = channel("label", "nominal", c->x_title, false);
    if (x) {
        /* the given order, and every label on the axis, a missing bar's too */
        json_object_set_new(x, "sort", json_null());
        json_object_set_new(x, "scale",
                            json_pack("{s:o}", "domain", string_array(c->n, c->labels)));
        json_object_set_new(x, "axis", json_pack("{s:i}", "labelAngle", 0));
    }
    json_object_set_new(
        s, "encoding",
        json_pack("{s:o, s:o}", "x", x, "y", channel("value", "quantitative", c->y_title, false)));
    return spec_done(s);
}

/* The longest series name a legend beside the plot holds: a plot of CHART_WIDTH, its axis and
 * such a legend fit an output area beside an open side panel. */
#define LEGEND_BESIDE_CHARS 20

json_t *chart_lines_spec(const struct chart_lines *c)
{
    json_t *values, *s = spec_base(c->title, &values), *ticks = json_array();
    if (!s || !ticks) {
        json_decref(s);
        json_decref(ticks);
        return NULL;
    }
    for (size_t k = 0; k < c->nseries; k++)
        for (size_t i = 0; i < c->npoints; i++) {
            double y = c->y[k * c->npoints + i];
            if (isnan(y) || (c->log_y && !(y > 0)) || (c->log_x && !(c->x[i] > 0))) continue;
            json_array_append_new(
                values, json_pack("{s:f, s:f, s:o}", "x", c->x[i], "y", y, "series",
                                  render_json_string(c->series[k], strlen(c->series[k]))));
        }
    for (size_t i = 0; i < c->npoints && !c->dense; i++)
        json_array_append_new(ticks, json_real(c->x[i]));
    json_object_set_new(
        s, "mark", json_pack("{s:s, s:b, s:b}", "type", "line", "point", !c->dense, "tooltip", 1));
    json_t *x = channel("x", "quantitative", c->x_title, c->log_x);
    /* a tick at each x (timing's sizes), not the scale's round numbers */
    if (x && !c->dense)
        json_object_set_new(x, "axis", json_pack("{s:o}", "values", ticks));
    else
        json_decref(ticks);
    json_t *color = channel("series", "nominal", c->series_title, false);
    /* every series in the legend, one without points (an unavailable backend) too */
    if (color)
        json_object_set_new(color, "scale",
                            json_pack("{s:o}", "domain", string_array(c->nseries, c->series)));
    if (color && !c->series_title) json_object_set_new(color, "legend", json_null());
    /* a legend of long names goes under the plot, where it widens the chart no more */
    size_t longest = 0;
    for (size_t k = 0; k < c->nseries; k++)
        if (strlen(c->series[k]) > longest) longest = strlen(c->series[k]);
    if (color && c->series_title && longest > LEGEND_BESIDE_CHARS)
        json_object_set_new(color, "legend", json_pack("{s:s}", "orient", "bottom"));
    json_object_set_new(s, "encoding",
                        json_pack("{s:o, s:o, s:o}", "x", x, "y",
                                  channel("y", "quantitative", c->y_title, c->log_y), "color",
                                  color));
    return spec_done(s);
}

/* The class of point i: 0 or 1. */
static int point_class(const struct chart_points *c, size_t i) { return c->label[i] != 0.0f; }

json_t *chart_points_spec(const struct chart_points *c)
{
    json_t *values, *s = spec_base(c->title, &values);
    if (!s) return NULL;
    /* rounded to 4 decimals: the same data always prints the same spec */
    for (size_t i = 0; i < c->n; i++)
        json_array_append_new(
            values, json_pack("{s:f, s:f, s:i}", "x1", round(c->xy[2 * i] * 1e4) / 1e4, "x2",
                              round(c->xy[2 * i + 1] * 1e4) / 1e4, "class", point_class(c, i)));
    json_object_set_new(s, "width", json_integer(CHART_HEIGHT)); /* the unit square */
    json_t *mark = json_pack("{s:s, s:b, s:i, s:b, s:b}", "type", "point", "filled", 1, "size", 60,
                             "tooltip", 1, "clip", 1); /* spiral's outer turns leave the square */
    json_t *x = channel("x1", "quantitative", "x1", false),
           *y = channel("x2", "quantitative", "x2", false),
           *color = channel("class", "nominal", "class", false),
           *shape = channel("class", "nominal", "class", false);
    if (x) json_object_set_new(x, "scale", json_pack("{s:[i,i]}", "domain", 0, 1));
    if (y) json_object_set_new(y, "scale", json_pack("{s:[i,i]}", "domain", 0, 1));
    if (color)
        json_object_set_new(color, "scale",
                            json_pack("{s:[i,i], s:[s,s]}", "domain", 0, 1, "range",
                                      CHART_CLASS0_COLOR, CHART_CLASS1_COLOR));
    if (shape)
        json_object_set_new(
            shape, "scale",
            json_pack("{s:[i,i], s:[s,s]}", "domain", 0, 1, "range", "circle", "cross"));
    json_t *enc = json_pack("{s:o, s:o, s:o, s:o}", "x", x, "y", y, "color", color, "shape", shape);
    if (c->grid == 0) {
        json_object_set_new(s, "mark", mark);
        json_object_set_new(s, "encoding", enc);
        return spec_done(s);
    }
    /* The boundary: one rect per cell, coloured by the probability (3 decimals), under the
     * points; the two colour scales (probability, class) stay separate. */
    json_t *cells = json_array();
    const double w = 1.0 / (double)c->grid;
    for (size_t k = 0; cells && k < c->grid; k++)
        for (size_t j = 0; j < c->grid; j++)
            json_array_append_new(
                cells, json_pack("{s:f, s:f, s:f, s:f, s:f}", "a1", round(j * w * 1e4) / 1e4, "b1",
                                 round((j + 1) * w * 1e4) / 1e4, "a2", round(k * w * 1e4) / 1e4,
                                 "b2", round((k + 1) * w * 1e4) / 1e4, "p",
                                 round(c->prob[k * c->grid + j] * 1e3) / 1e3));
    json_t *pscale = json_pack("{s:[i,i], s:[s,s]}", "domain", 0, 1, "range", CHART_CLASS0_COLOR,
                               CHART_CLASS1_COLOR);
    json_t *rect = json_pack(
        "{s:{s:o}, s:{s:s, s:f}, s:{s:{s:s, s:s, s:{s:[i,i]}, s:s}, s:{s:s}, s:{s:s, s:s, "
        "s:{s:[i,i]}, s:s}, s:{s:s}, s:{s:s, s:s, s:o, s:s}}}",
        "data", "values", cells, "mark", "type", "rect", "opacity", 0.6, "encoding", "x", "field",
        "a1", "type", "quantitative", "scale", "domain", 0, 1, "title", "x1", "x2", "field", "b1",
        "y", "field", "a2", "type", "quantitative", "scale", "domain", 0, 1, "title", "x2", "y2",
        "field", "b2", "color", "field", "p", "type", "quantitative", "scale", pscale, "title",
        "P(class 1)");
    /* the class legend in colour only: beside the boundary's independent colour scales the
     * shape's legend would not merge with it, and a chart put beside others (train()'s) would
     * show it apart from the square */
    if (shape) json_object_set_new(shape, "legend", json_null());
    json_t *points = json_pack("{s:o, s:o}", "mark", mark, "encoding", enc);
    json_object_set_new(s, "layer", json_pack("[o, o]", rect, points));
    json_object_set_new(s, "resolve", json_pack("{s:{s:s}}", "scale", "color", "independent"));
    return spec_done(s);
}

/* Every how many of n bands along `length` pixels an axis labels: 1, 2, 5, 10, 20, 50, ... the
 * first that leaves `gap` pixels from one label to the next, so that a 40 x 60 matrix's labels
 * do not run into each other. */
#define LABEL_GAP_X 28 /* room for a number up to 4 digits */
#define LABEL_GAP_Y 14 /* a line of text */
static size_t label_step(size_t n, double length, double gap)
{
    static const size_t mantissa[] = {1, 2, 5};
    const double band = n ? length / (double)n : length;
    for (size_t mag = 1;; mag *= 10)
        for (size_t m = 0; m < 3; m++) {
            size_t step = mag * mantissa[m];
            if (band * (double)step >= gap || step >= n) return step;
        }
}

/* An ordinal axis of n bands labelled every `step`: its "values" (all of them when step is 1). */
static json_t *band_axis(size_t n, size_t step)
{
    json_t *axis = json_pack("{s:i}", "labelAngle", 0), *values = json_array();
    for (size_t i = 0; values && step > 1 && i < n; i += step)
        json_array_append_new(values, json_integer((json_int_t)i));
    if (axis && step > 1) json_object_set(axis, "values", values);
    json_decref(values);
    return axis;
}

json_t *chart_heatmap_spec(const struct chart_heatmap *c)
{
    json_t *values, *s = spec_base(c->title, &values);
    if (!s) return NULL;
    for (size_t i = 0; i < c->rows; i++)
        for (size_t j = 0; j < c->cols; j++) {
            char label[32];
            float v = c->values[i * c->cols + j];
            snprintf(label, sizeof label, "%.4g", (double)v);
            json_t *value = isfinite(v) ? json_real(atof(label)) : json_null(); /* no NaN in JSON */
            json_array_append_new(values, json_pack("{s:i, s:i, s:o, s:s}", "row", (int)i, "col",
                                                    (int)j, "value", value, "label", label));
        }
    json_t *x = channel("col", "ordinal", c->col_title, false),
           *y = channel("row", "ordinal", c->row_title, false),
           *color = channel("value", "quantitative", "value", false);
    if (x)
        json_object_set_new(x, "axis",
                            band_axis(c->cols, label_step(c->cols, CHART_WIDTH, LABEL_GAP_X)));
    if (y)
        json_object_set_new(y, "axis",
                            band_axis(c->rows, label_step(c->rows, CHART_HEIGHT, LABEL_GAP_Y)));
    if (color)
        json_object_set_new(color, "scale",
                            json_pack("{s:[s,s]}", "range", "#ffffff", CHART_HEATMAP_COLOR));
    json_t *rect = json_pack("{s:{s:s, s:b}, s:{s:o, s:o, s:o}}", "mark", "type", "rect", "tooltip",
                             1, "encoding", "x", x, "y", y, "color", color);
    if (c->rows * c->cols > CHART_HEATMAP_LABELS) {
        json_object_set_new(s, "layer", json_pack("[o]", rect));
        return spec_done(s);
    }
    json_t *text =
        json_pack("{s:{s:s, s:i}, s:{s:{s:s, s:s}, s:{s:s, s:s}, s:{s:s, s:s}}}", "mark", "type",
                  "text", "fontSize", 11, "encoding", "x", "field", "col", "type", "ordinal", "y",
                  "field", "row", "type", "ordinal", "text", "field", "label", "type", "nominal");
    json_object_set_new(s, "layer", json_pack("[o, o]", rect, text));
    return spec_done(s);
}

/* ---- SVG ------------------------------------------------------------------------------------ */

#define M_LEFT 70
#define M_RIGHT 120 /* room for a legend */
#define M_TOP 34
#define M_BOTTOM 48
#define PLOT_BOTTOM (M_TOP + f->h)

/* A drawing's plot area (w x h pixels from (M_LEFT, M_TOP)) and the room right of it. */
struct frame {
    int w, h, right;
};
static const struct frame standard = {CHART_WIDTH, CHART_HEIGHT, M_RIGHT};

static void text_el(struct render_buf *b, double x, double y, const char *anchor, const char *s,
                    const char *extra)
{
    render_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor,
                      extra ? extra : "");
    render_html_escape(b, s, strlen(s));
    render_buf_puts(b, "</text>\n");
}

static void svg_open(struct render_buf *b, const struct frame *f, const char *title,
                     const char *x_title, const char *y_title)
{
    int w = M_LEFT + f->w + f->right, h = PLOT_BOTTOM + M_BOTTOM;
    render_buf_printf(b,
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                      "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
                      "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
                      w, h, w, h, w, h);
    if (title)
        text_el(b, M_LEFT + f->w / 2.0, 20, "middle", title,
                " font-size=\"13\" font-weight=\"bold\"");
    if (x_title) text_el(b, M_LEFT + f->w / 2.0, h - 8.0, "middle", x_title, NULL);
    if (y_title) {
        char rot[96];
        snprintf(rot, sizeof rot, " transform=\"rotate(-90 16 %.1f)\"", M_TOP + f->h / 2.0);
        text_el(b, 16, M_TOP + f->h / 2.0, "middle", y_title, rot);
    }
}

/* The axis lines, drawn over the grid and the marks. */
static void svg_axes(struct render_buf *b, const struct frame *f)
{
    render_buf_printf(b,
                      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n"
                      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n",
                      M_LEFT, M_TOP, M_LEFT, PLOT_BOTTOM, M_LEFT, PLOT_BOTTOM, M_LEFT + f->w,
                      PLOT_BOTTOM);
}

static char *svg_close(struct render_buf *b, const struct frame *f)
{
    svg_axes(b, f);
    render_buf_puts(b, "</svg>\n");
    return render_buf_take(b); /* NULL when an append failed */
}

/* A value axis from lo to hi (log10 units when log): grid lines and labels on the y axis. */
static void y_ticks(struct render_buf *b, const struct frame *f, double lo, double hi, bool log)
{
    char label[32];
    int n = log ? (int)(floor(hi) - ceil(lo)) : 5;
    for (int k = 0; k <= n; k++) {
        double v = log ? ceil(lo) + k : lo + (hi - lo) * k / n;
        double py = PLOT_BOTTOM - (v - lo) / (hi - lo) * f->h;
        if (log)
            snprintf(label, sizeof label, "%g", pow(10, v));
        else
            snprintf(label, sizeof label, "%.3g", v);
        render_buf_printf(b,
                          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                          M_LEFT, py, M_LEFT + f->w, py);
        text_el(b, M_LEFT - 5, py + 4, "end", label, NULL);
    }
}

/* The top of a linear axis from 0 whose 5 ticks are round numbers: 5 steps of 1, 2, 2.5 or 5
 * times a power of ten, at least hi. */
static double nice_top(double hi)
{
    static const double steps[] = {1, 2, 2.5, 5, 10};
    double mag = pow(10, floor(log10(hi / 5)));
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i] * mag * 5 >= hi * (1 - 1e-9)) return steps[i] * mag * 5;
    return hi;
}

char *chart_bars_svg(const struct chart_bars *c)
{
    const struct frame *f = &standard;
    struct render_buf b;
    render_buf_init(&b, 0);
    svg_open(&b, f, c->title, c->x_title, c->y_title);
    double hi = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!isnan(c->values[i]) && c->values[i] > hi) hi = c->values[i];
    if (!(hi > 0) || isinf(hi)) hi = 1;
    hi = nice_top(hi);
    y_ticks(&b, f, 0, hi, false);
    double slot = c->n ? (double)f->w / (double)c->n : f->w;
    char label[32];
    for (size_t i = 0; i < c->n; i++) {
        double x = M_LEFT + slot * (double)i, mid = x + slot / 2;
        text_el(&b, mid, PLOT_BOTTOM + 15, "middle", c->labels[i], NULL);
        double v = c->values[i];
        if (isnan(v)) {
            if (c->missing_note)
                text_el(&b, mid, PLOT_BOTTOM - 6, "middle", c->missing_note, " fill=\"#888\"");
            continue;
        }
        double h = fmin(fmax(v, 0) / hi, 1) * f->h;
        render_buf_printf(&b,
                          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                          "fill=\"%s\"/>\n",
                          x + slot * 0.15, PLOT_BOTTOM - h, slot * 0.7, h, palette[0]);
        snprintf(label, sizeof label, "%.3g", v);
        text_el(&b, mid, PLOT_BOTTOM - h - 4, "middle", label, NULL);
    }
    return svg_close(&b, f);
}

/* A line chart drawn in frame f. */
static char *lines_svg(const struct chart_lines *c, const struct frame *f)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    svg_open(&b, f, c->title, c->x_title, c->y_title);
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    /* a point is drawn when it is a number, and positive on a log axis */
#define X_OK(v) (isfinite(v) && (!c->log_x || (v) > 0))
#define Y_OK(v) (isfinite(v) && (!c->log_y || (v) > 0))
#define TX(v) (c->log_x ? log10(v) : (v))
#define TY(v) (c->log_y ? log10(v) : (v))
    for (size_t i = 0; i < c->npoints; i++)
        if (X_OK(c->x[i])) xlo = fmin(xlo, TX(c->x[i])), xhi = fmax(xhi, TX(c->x[i]));
    for (size_t k = 0; k < c->nseries * c->npoints; k++)
        if (Y_OK(c->y[k])) ylo = fmin(ylo, TY(c->y[k])), yhi = fmax(yhi, TY(c->y[k]));
    if (!(xhi > xlo)) xlo = isfinite(xlo) ? xlo - 1 : 0, xhi = xlo + 2;
    if (!(yhi > ylo)) ylo = isfinite(ylo) ? ylo - 1 : 0, yhi = ylo + 2;
    if (c->log_y) ylo = floor(ylo), yhi = ceil(yhi); /* whole decades */
    /* a little room left and right so the end points are not on the axes */
    double pad = (xhi - xlo) * 0.04;
    xlo -= pad, xhi += pad;
    y_ticks(&b, f, ylo, yhi, c->log_y);
    char label[32];
    for (size_t i = 0; i < c->npoints && !c->dense; i++) {
        if (!X_OK(c->x[i])) continue;
        double px = M_LEFT + (TX(c->x[i]) - xlo) / (xhi - xlo) * f->w;
        snprintf(label, sizeof label, "%g", c->x[i]);
        text_el(&b, px, PLOT_BOTTOM + 15, "middle", label, NULL);
    }
    if (c->dense && !c->log_x) { /* round labels along the x axis: a 1, 2 or 5 step, 4-8 of them */
        double span = xhi - xlo, step = pow(10, floor(log10(span / 4)));
        if (span / (step * 5) >= 4)
            step *= 5;
        else if (span / (step * 2) >= 4)
            step *= 2;
        for (double v = ceil(xlo / step) * step; v <= xhi; v += step) {
            snprintf(label, sizeof label, "%g", v + 0.0); /* + 0.0: -0 prints as 0 */
            text_el(&b, M_LEFT + (v - xlo) / (xhi - xlo) * f->w, PLOT_BOTTOM + 15, "middle", label,
                    NULL);
        }
    }
    for (size_t k = 0; k < c->nseries; k++) {
        const char *color = palette[k % NPALETTE];
        struct render_buf pts;
        render_buf_init(&pts, 0);
        for (size_t i = 0; i < c->npoints; i++) {
            double y = c->y[k * c->npoints + i];
            if (!Y_OK(y) || !X_OK(c->x[i])) continue;
            double px = M_LEFT + (TX(c->x[i]) - xlo) / (xhi - xlo) * f->w,
                   py = PLOT_BOTTOM - (TY(y) - ylo) / (yhi - ylo) * f->h;
            render_buf_printf(&pts, "%.1f,%.1f ", px, py);
            if (!c->dense)
                render_buf_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", px,
                                  py, color);
        }
        if (pts.len)
            render_buf_printf(&b,
                              "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                              "points=\"%s\"/>\n",
                              color, render_buf_str(&pts));
        if (pts.nomem) b.nomem = true;
        render_buf_free(&pts);
        if (!c->series_title) continue; /* no legend */
        double ly = M_TOP + 14 + 16.0 * (double)k;
        render_buf_printf(&b, "<rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"3\" fill=\"%s\"/>\n",
                          M_LEFT + f->w + 14, ly - 4, color);
        text_el(&b, M_LEFT + f->w + 32, ly, "start", c->series[k], NULL);
    }
    if (c->series_title)
        text_el(&b, M_LEFT + f->w + 14, M_TOP, "start", c->series_title, " font-weight=\"bold\"");
#undef X_OK
#undef Y_OK
#undef TX
#undef TY
    return svg_close(&b, f);
}

char *chart_lines_svg(const struct chart_lines *c) { return lines_svg(c, &standard); }

char *chart_points_svg(const struct chart_points *c)
{
    /* the unit square, drawn square, as wide as Vega-Lite draws it */
    const struct frame square = {CHART_HEIGHT, CHART_HEIGHT, M_RIGHT}, *f = &square;
    const double side = f->h;
    struct render_buf b;
    render_buf_init(&b, 0);
    svg_open(&b, f, c->title, "x1", "x2");
    char label[32];
    for (int k = 0; k <= 4; k++) {
        double v = k / 4.0, px = M_LEFT + v * side, py = PLOT_BOTTOM - v * side;
        render_buf_printf(&b,
                          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                          "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n",
                          M_LEFT, py, M_LEFT + side, py, px, M_TOP, px, PLOT_BOTTOM);
        snprintf(label, sizeof label, "%g", v);
        text_el(&b, M_LEFT - 5, py + 4, "end", label, NULL);
        text_el(&b, px, PLOT_BOTTOM + 15, "middle", label, NULL);
    }
    /* the decision boundary: cells shaded between the class colours, under the points */
    for (size_t k = 0; k < c->grid; k++)
        for (size_t j = 0; j < c->grid; j++) {
            double p = c->prob[k * c->grid + j], cw = side / (double)c->grid;
            p = p < 0 ? 0 : p > 1 ? 1 : p;
            /* #69bac9 -> #ea8484 */
            int r = (int)lround(0x69 + p * (0xea - 0x69)),
                g = (int)lround(0xba + p * (0x84 - 0xba)),
                bl = (int)lround(0xc9 + p * (0x84 - 0xc9));
            render_buf_printf(&b,
                              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.2f\" "
                              "fill=\"#%02x%02x%02x\" fill-opacity=\"0.6\"/>\n",
                              M_LEFT + j * cw, PLOT_BOTTOM - (k + 1) * cw, cw + 0.05, cw + 0.05, r,
                              g, bl);
        }
    for (size_t i = 0; i < c->n; i++) {
        double x = c->xy[2 * i], y = c->xy[2 * i + 1];
        /* outside the square (spiral's outer turns): not drawn, as Vega-Lite's clip does */
        if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) continue;
        double px = M_LEFT + x * side, py = PLOT_BOTTOM - y * side;
        if (point_class(c, i))
            render_buf_printf(&b,
                              "<path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"%s\" "
                              "stroke-width=\"2.5\"/>\n",
                              px - 4, py - 4, CHART_CLASS1_COLOR);
        else
            render_buf_printf(&b,
                              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" "
                              "stroke=\"#333\" stroke-width=\"0.8\"/>\n",
                              px, py, CHART_CLASS0_COLOR);
    }
    /* the legend, right of the square */
    double lx = M_LEFT + side + 20;
    render_buf_printf(&b, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4.5\" fill=\"%s\"/>\n", lx, M_TOP + 10,
                      CHART_CLASS0_COLOR);
    text_el(&b, lx + 10, M_TOP + 14, "start", "class 0", NULL);
    render_buf_printf(&b,
                      "<path d=\"M%.1f %dl8 8m0 -8l-8 8\" stroke=\"%s\" stroke-width=\"2.5\"/>\n",
                      lx - 4, M_TOP + 24, CHART_CLASS1_COLOR);
    text_el(&b, lx + 10, M_TOP + 32, "start", "class 1", NULL);
    return svg_close(&b, f);
}

char *chart_heatmap_svg(const struct chart_heatmap *c)
{
    const struct frame *f = &standard;
    struct render_buf b;
    render_buf_init(&b, 0);
    svg_open(&b, f, c->title, c->col_title, c->row_title);
    float lo = 0, hi = 0;
    bool any = false;
    for (size_t i = 0; i < c->rows * c->cols; i++) {
        float v = c->values[i];
        if (!isfinite(v)) continue;
        if (!any || v < lo) lo = v;
        if (!any || v > hi) hi = v;
        any = true;
    }
    /* square cells as large as the plot area allows */
    const double cell = fmin((double)f->w / (double)c->cols, (double)f->h / (double)c->rows);
    static const int blue[3] = {0x2f, 0x6e, 0xba};
    for (size_t i = 0; i < c->rows; i++)
        for (size_t j = 0; j < c->cols; j++) {
            float v = c->values[i * c->cols + j];
            double t = any && hi > lo && isfinite(v) ? (v - lo) / (hi - lo) : 0.0;
            int rgb[3];
            for (int k = 0; k < 3; k++) rgb[k] = (int)lround(255 + t * (blue[k] - 255));
            double x = M_LEFT + (double)j * cell, y = M_TOP + (double)i * cell;
            render_buf_printf(&b,
                              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                              "fill=\"#%02x%02x%02x\" stroke=\"#ccc\"/>\n",
                              x, y, cell, cell, rgb[0], rgb[1], rgb[2]);
            if (c->rows * c->cols <= CHART_HEATMAP_LABELS) {
                char label[32];
                snprintf(label, sizeof label, "%.4g", (double)v);
                text_el(&b, x + cell / 2, y + cell / 2 + 4, "middle", label,
                        t > 0.6 ? " fill=\"white\"" : NULL);
            }
        }
    /* the row and column numbers, thinned as in the Vega-Lite form */
    char label[32];
    size_t step = label_step(c->cols, (double)c->cols * cell, LABEL_GAP_X);
    for (size_t j = 0; j < c->cols; j += step) {
        snprintf(label, sizeof label, "%zu", j);
        text_el(&b, M_LEFT + ((double)j + 0.5) * cell, PLOT_BOTTOM + 15, "middle", label, NULL);
    }
    step = label_step(c->rows, (double)c->rows * cell, LABEL_GAP_Y);
    for (size_t i = 0; i < c->rows; i += step) {
        snprintf(label, sizeof label, "%zu", i);
        text_el(&b, M_LEFT - 5, M_TOP + ((double)i + 0.5) * cell + 4, "end", label, NULL);
    }
    return svg_close(&b, f);
}

/* ---- bundles -------------------------------------------------------------------------------- */

char *chart_html(const json_t *spec, const char *svg)
{
    char *json = json_dumps(spec, JSON_COMPACT);
    if (!json) return NULL;
    struct render_buf b;
    render_buf_init(&b, 0);
    /* The spec goes into a script: "<" only occurs inside JSON strings, where \u003c means the
     * same, so no "</script>" or "<!--" in the data can end or confuse the script. */
    render_buf_puts(&b, "<div class=\"minitorch-chart\">\n");
    render_buf_puts(&b, svg);
    render_buf_puts(
        &b, "</div>\n<script>\n"
            "(function (el, spec) {\n"
            "  if (!el) return;\n"
            "  import(\"https://cdn.jsdelivr.net/npm/vega-embed@6/+esm\")\n"
            "    .then(function (m) {\n"
            "      var d = document.createElement(\"div\");\n"
            "      return m.default(d, spec, {actions: false})\n"
            "        .then(function () { el.replaceChildren(d); });\n"
            "    })\n"
            "    .catch(function () {}); /* offline: the drawing stays */\n"
            "})(document.currentScript && document.currentScript.previousElementSibling,\n");
    for (const char *p = json; *p; p++)
        if (*p == '<')
            render_buf_puts(&b, "\\u003c");
        else
            render_buf_putc(&b, *p);
    render_buf_puts(&b, ");\n</script>\n");
    free(json);
    return render_buf_take(&b);
}

/* Packs spec and svg (taking both; either NULL means out of memory) for the renderer. */
static json_t *chart_bundle(const char *renderer, const char *kind, const char *title, json_t *spec,
                            char *svg)
{
    bool vl = strcmp(renderer, "vegalite") == 0, sv = strcmp(renderer, "svg") == 0,
         html = strcmp(renderer, "html") == 0;
    bool want_spec = !sv, want_svg = !vl;
    json_t *bundle = NULL;
    if ((want_spec && !spec) || (want_svg && !svg)) goto done;
    struct render_buf t;
    render_buf_init(&t, 0);
    render_buf_printf(&t, "<%s: %s>", kind, title ? title : "untitled");
    bundle = t.nomem ? NULL : render_text_bundle(render_buf_str(&t));
    render_buf_free(&t);
    if (!bundle) goto done;
    int err = 0;
    if (html) {
        char *h = chart_html(spec, svg);
        err = !h || json_object_set_new(bundle, "text/html", render_json_string(h, strlen(h)));
        free(h);
    } else {
        if (want_spec) err |= json_object_set(bundle, CHART_VEGALITE_MIME, spec);
        if (want_svg)
            err |=
                json_object_set_new(bundle, "image/svg+xml", render_json_string(svg, strlen(svg)));
    }
    if (err) {
        json_decref(bundle);
        bundle = NULL;
    }
done:
    json_decref(spec);
    free(svg);
    return bundle;
}

json_t *chart_bars_bundle(const char *renderer, const struct chart_bars *c)
{
    return chart_bundle(renderer, "bar chart", c->title, chart_bars_spec(c), chart_bars_svg(c));
}

json_t *chart_lines_bundle(const char *renderer, const struct chart_lines *c)
{
    return chart_bundle(renderer, "line chart", c->title, chart_lines_spec(c), chart_lines_svg(c));
}

json_t *chart_points_bundle(const char *renderer, const struct chart_points *c)
{
    return chart_bundle(renderer, c->grid ? "decision boundary" : "scatter plot", c->title,
                        chart_points_spec(c), chart_points_svg(c));
}

json_t *chart_heatmap_bundle(const char *renderer, const struct chart_heatmap *c)
{
    return chart_bundle(renderer, "heat map", c->title, chart_heatmap_spec(c),
                        chart_heatmap_svg(c));
}

/* The training chart's layout: the boundary (its square and legends) on top, the loss curve and
 * under it the time per epoch, each line panel short and without a legend (its title names its
 * one line): one column, so that the whole fits an output area beside an open side panel
 * (under 600 pixels); a row of them did not. */
#define TRAIN_LINE_WIDTH 340
#define TRAIN_LINE_HEIGHT 95
#define TRAIN_TITLE 26 /* the SVG's row for the chart's title */

json_t *chart_training_bundle(const char *renderer, const char *title,
                              const struct chart_points *boundary, const struct chart_lines *loss,
                              const struct chart_lines *time)
{
    const struct frame square = {CHART_HEIGHT, CHART_HEIGHT, M_RIGHT},
                       line = {TRAIN_LINE_WIDTH, TRAIN_LINE_HEIGHT, 20};
    struct chart_lines lines[2] = {*loss, *time};
    lines[0].series_title = lines[1].series_title = NULL; /* no legend */
    json_t *parts[3] = {chart_points_spec(boundary), chart_lines_spec(&lines[0]),
                        chart_lines_spec(&lines[1])};
    char *svgs[3] = {chart_points_svg(boundary), lines_svg(&lines[0], &line),
                     lines_svg(&lines[1], &line)};
    /* where each panel's drawing goes in the SVG */
    const int left_w = M_LEFT + square.w + square.right, line_w = M_LEFT + line.w + line.right,
              line_h = M_TOP + line.h + M_BOTTOM, square_h = M_TOP + square.h + M_BOTTOM;
    const int at[3][2] = {
        {0, TRAIN_TITLE}, {0, TRAIN_TITLE + square_h}, {0, TRAIN_TITLE + square_h + line_h}};
    const int w = left_w > line_w ? left_w : line_w, h = TRAIN_TITLE + square_h + 2 * line_h;
    json_t *spec = json_object(), *column = json_array();
    struct render_buf b;
    render_buf_init(&b, 0);
    render_buf_printf(&b,
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                      "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
                      "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
                      w, h, w, h, w, h);
    if (title) text_el(&b, w / 2.0, 18, "middle", title, " font-size=\"14\" font-weight=\"bold\"");
    bool ok = spec && column;
    for (int i = 0; i < 3; i++) {
        ok = ok && parts[i] && svgs[i];
        if (!ok) break;
        json_object_del(parts[i], "$schema"); /* the chart's, once */
        if (i > 0) {
            json_object_set_new(parts[i], "width", json_integer(line.w));
            json_object_set_new(parts[i], "height", json_integer(line.h));
        }
        json_array_append(column, parts[i]);
        render_buf_printf(&b, "<g transform=\"translate(%d,%d)\">\n%s</g>\n", at[i][0], at[i][1],
                          svgs[i]);
    }
    render_buf_puts(&b, "</svg>\n");
    char *svg = ok ? render_buf_take(&b) : NULL;
    if (!ok) render_buf_free(&b);
    if (ok) {
        json_object_set_new(spec, "$schema", json_string(CHART_VEGALITE_SCHEMA));
        if (title) json_object_set_new(spec, "title", render_json_string(title, strlen(title)));
        json_object_set(spec, "vconcat", column);
        /* the boundary keeps its own colour scales; the two line charts theirs */
        json_object_set_new(spec, "resolve",
                            json_pack("{s:{s:s}}", "scale", "color", "independent"));
        ok = json_object_get(spec, "vconcat") != NULL;
    }
    for (int i = 0; i < 3; i++) {
        json_decref(parts[i]);
        free(svgs[i]);
    }
    json_decref(column);
    if (!ok || !svg) {
        json_decref(spec);
        free(svg);
        return NULL;
    }
    return chart_bundle(renderer, "training chart", title, spec, svg);
}
