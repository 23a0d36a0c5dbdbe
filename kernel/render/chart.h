/* chart.h — charts as Vega-Lite v5 specs and as plain SVG (kernel/render).
 *
 * Every chart the kernel draws (compare's bars, timing's lines; datasets and decision
 * boundaries later) is built here twice from the same data: a Vega-Lite v5 spec, which
 * JupyterLab and Notebook render interactively, and a self-contained SVG (no scripts, no
 * external fonts) for front ends without Vega-Lite and for nbconvert. chart_bundle packs them
 * into a mime bundle according to the session's %plot_renderer choice. */
#ifndef KERNEL_RENDER_CHART_H
#define KERNEL_RENDER_CHART_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define CHART_VEGALITE_MIME "application/vnd.vegalite.v5+json"
#define CHART_WIDTH 400
#define CHART_HEIGHT 250

/* A bar chart: one bar per label. */
struct chart_bars {
    const char *title, *x_title, *y_title;
    size_t n;
    const char *const *labels;
    const double *values; /* NAN: no bar (e.g. an unavailable backend) */
};

/* A line chart: one line per series over shared x values. */
struct chart_lines {
    const char *title, *x_title, *y_title, *series_title;
    size_t nseries, npoints;
    const char *const *series; /* names */
    const double *x;           /* npoints */
    const double *y;           /* nseries * npoints, row per series; NAN: no point */
    bool log_x, log_y;
};

/* New Vega-Lite specs; NULL when out of memory. */
json_t *chart_bars_spec(const struct chart_bars *c);
json_t *chart_lines_spec(const struct chart_lines *c);
/* New SVG documents (malloc'd text); NULL when out of memory. */
char *chart_bars_svg(const struct chart_bars *c);
char *chart_lines_svg(const struct chart_lines *c);

/* The mime bundle for a chart: text/plain (`text`) always, and by `renderer`: "auto" the
 * Vega-Lite spec and the SVG, "vegalite" the spec, "svg" the SVG, "html" the SVG inline in
 * text/html. Takes ownership of spec and svg (either may be NULL: then left out). NULL when out
 * of memory. */
json_t *chart_bundle(const char *renderer, const char *text, json_t *spec, char *svg);

#endif
