/* chart.h — charts as Vega-Lite v5 specs and as plain SVG (kernel/render).
 *
 * Every chart the kernel draws (compare's bars, timing's lines, datasets, decision boundaries
 * and training curves) is built here, twice from the same data: a Vega-Lite v5 spec, which
 * JupyterLab and VS Code render interactively, and a self-contained SVG (no scripts, no
 * external fonts) for front ends without Vega-Lite and for nbconvert/GitHub. A chart's mime
 * bundle (chart_*_bundle) holds what the session's %plot_renderer asks for:
 *
 *   auto      Vega-Lite spec + SVG (each front end picks the richest it knows)
 *   vegalite  the Vega-Lite spec only
 *   svg       the SVG only
 *   html      text/html: the SVG inside a <div>, and a script that replaces it with the
 *             interactive chart through vega-embed when the page can load it (Colab, classic
 *             Notebook); offline the SVG stays
 *
 * always with a one-line text/plain. A chart bundle never carries other text/html (JupyterLab
 * ranks HTML above Vega-Lite and SVG and would show only that): a table that goes with a chart is
 * its own display.
 *
 * Output is deterministic (fixed float formats, no ids, no timestamps), so notebooks that store
 * charts compare equal when the data do. Text in titles and labels is escaped. */
#ifndef KERNEL_RENDER_CHART_H
#define KERNEL_RENDER_CHART_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define CHART_VEGALITE_MIME "application/vnd.vegalite.v5+json"
#define CHART_VEGALITE_SCHEMA "https://vega.github.io/schema/vega-lite/v5.json"
/* The plot area, pixels; axes and legend add to it (the SVG's margins: 190 pixels across). A
 * chart fits an output area beside an open side panel (under 600 pixels wide). Vega-Lite's
 * "container" width is not used: in JupyterLab the chart and its area then grew without end. */
#define CHART_WIDTH 320
#define CHART_HEIGHT 250

/* A bar chart: one bar per label, in the given order. */
struct chart_bars {
    const char *title, *x_title, *y_title; /* y_title names the unit: "time per run (ms)" */
    size_t n;
    const char *const *labels; /* n */
    const double *values;      /* n; NAN: no bar, the label stays on the axis with a note */
    const char *missing_note;  /* the note under a missing bar ("unavailable"); NULL: none */
};

/* A line chart: one line per series over shared x values, named in a legend titled
 * series_title (NULL: no legend, the chart's title names its line). */
struct chart_lines {
    const char *title, *x_title, *y_title, *series_title;
    size_t nseries, npoints;
    const char *const *series; /* nseries names */
    const double *x;           /* npoints */
    const double *y;           /* nseries * npoints, a row per series; NAN: no point */
    bool log_x, log_y;         /* logarithmic axes (points <= 0 are left out) */
    /* Many points (a loss per epoch): the line alone, with the scale's own ticks, instead of a
     * marked point and a tick at every x (timing's few sizes). */
    bool dense;
};

/* Points of two classes in the unit square (MiniTorch's datasets): class 0 as #69bac9 circles,
 * class 1 as #ea8484 crosses, MiniTorch's colours and shapes, both axes fixed to [0, 1]. */
#define CHART_CLASS0_COLOR "#69bac9"
#define CHART_CLASS1_COLOR "#ea8484"
struct chart_points {
    const char *title;
    size_t n;
    const float *xy;    /* n rows of (x1, x2) */
    const float *label; /* n; 0 or 1 (anything non-zero is class 1) */
    /* Optional decision boundary under the points: a model's probability of class 1 on a
     * grid x grid lattice of cells over the unit square, prob[k*grid + j] at the centre of
     * column j (x1) and row k (x2, from the bottom), shaded from the class 0 colour (0) to
     * the class 1 colour (1). grid 0: points only. */
    size_t grid;
    const float *prob;
};

/* A matrix as a heat map: rows x cols cells, row 0 at the top, shaded from white (the
 * smallest value) to blue (the largest); the values written in the cells when there are at
 * most CHART_HEATMAP_LABELS of them. Row and column numbers on the axes, every 1st, 2nd, 5th,
 * 10th, ... so that they never overlap. */
#define CHART_HEATMAP_LABELS 64
#define CHART_HEATMAP_COLOR "#2f6eba"
struct chart_heatmap {
    const char *title, *row_title, *col_title;
    size_t rows, cols;
    const float *values; /* rows * cols, row-major */
};

/* New Vega-Lite specs (data inline in data.values); NULL when out of memory. */
json_t *chart_bars_spec(const struct chart_bars *c);
json_t *chart_lines_spec(const struct chart_lines *c);
json_t *chart_points_spec(const struct chart_points *c);
json_t *chart_heatmap_spec(const struct chart_heatmap *c);
/* New SVG documents (malloc'd, caller frees); NULL when out of memory. */
char *chart_bars_svg(const struct chart_bars *c);
char *chart_lines_svg(const struct chart_lines *c);
char *chart_points_svg(const struct chart_points *c);
char *chart_heatmap_svg(const struct chart_heatmap *c);

/* The mime bundle of a chart for `renderer` ("auto", "vegalite", "svg", "html"; anything else
 * is taken as "auto"), as described above; text/plain says "<kind>: <title>". A new reference,
 * or NULL when out of memory. */
json_t *chart_bars_bundle(const char *renderer, const struct chart_bars *c);
json_t *chart_lines_bundle(const char *renderer, const struct chart_lines *c);
json_t *chart_points_bundle(const char *renderer, const struct chart_points *c);
json_t *chart_heatmap_bundle(const char *renderer, const struct chart_heatmap *c);

/* MiniTorch's end-of-training picture as one chart, at most 900 pixels wide in both forms: the
 * decision boundary beside the loss curve over the time per epoch (Vega-Lite hconcat of the
 * boundary and a vconcat of the two short line panels, which show no legend; the SVG fallback
 * draws the same arrangement). text/plain says "<training chart: TITLE>". */
json_t *chart_training_bundle(const char *renderer, const char *title,
                              const struct chart_points *boundary, const struct chart_lines *loss,
                              const struct chart_lines *time);

/* The html renderer's text/html for a spec and its SVG drawing (malloc'd); NULL when out of
 * memory. */
char *chart_html(const json_t *spec, const char *svg);

#endif
