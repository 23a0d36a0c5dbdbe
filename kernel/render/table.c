/* table.c — tables shown two ways at once, aligned text and HTML, and the live progress line
 * (see render.h). The library computes every cell's words; these functions only lay them out. */
#include "render/render.h"

#include <stdio.h>
#include <string.h>

json_t *render_table_bundle(struct render_buf *t, struct render_buf *h)
{
    json_t *bundle = t->nomem || h->nomem ? NULL : render_text_bundle(render_buf_str(t));
    if (bundle &&
        json_object_set_new(bundle, "text/html", render_json_string(h->data, h->len)) != 0) {
        json_decref(bundle);
        bundle = NULL;
    }
    render_buf_free(t);
    render_buf_free(h);
    return bundle;
}

/* Appends s escaped for HTML. */
static void html_text(struct render_buf *h, const char *s) { render_html_escape(h, s, strlen(s)); }

/* Display width of UTF-8 text: its code points (the tables' text is ASCII but for "µs"). */
static size_t width(const char *s) { return render_utf8_count(s, strlen(s)); }

/* A results table's title goes in a paragraph above it, not in a <caption>: a caption is as
 * wide as the table, so a long title over a few narrow columns wrapped into a tall thin column.
 * The cells keep to one line ("155 µs"), so the table is as wide as its widest row. */
#define CAPTION_OPEN "<p style=\"margin:0 0 0.4em\">"
#define CAPTION_CLOSE "</p>\n<table style=\"white-space:nowrap\">\n"

/* ---- a grid of cells ---------------------------------------------------------------------- */

/* The HTML cells' styles, inline (a <style> element is dropped from an untrusted notebook):
 * JupyterLab's own table style right-aligns every cell, so text columns are set left and the
 * columns are padded apart. A table must narrow to fit the output area, so a header may break
 * between its words (its column is then as wide as its widest cell or word), a column of words
 * between its words, a list between its items; a number or a shape broken over two lines would
 * be misread, so they never break. */
#define PAD "padding:2px 8px"
#define ONE_LINE "white-space:nowrap;" PAD
#define CELL_OPEN(tag, align, style) "<" tag " style=\"text-align:" align ";" style "\">"
/* the detail line under a row: smaller and lighter than the row, its items kept whole */
#define DETAIL_OPEN                                                                                \
    "<tr><td colspan=\"%zu\" style=\"text-align:left;padding:0 10px 6px;"                          \
    "font-size:85%%;opacity:0.75\">"
#define ITEM_OPEN "<span style=\"white-space:nowrap\">"

static const char *cell_open(bool header, enum render_col kind)
{
    static const char *const th[] = {
        [RENDER_COL_TEXT] = CELL_OPEN("th", "left", PAD),
        [RENDER_COL_NUMBER] = CELL_OPEN("th", "right", PAD),
        [RENDER_COL_WORDS] = CELL_OPEN("th", "left", PAD),
        [RENDER_COL_LIST] = CELL_OPEN("th", "left", PAD),
    };
    static const char *const td[] = {
        [RENDER_COL_TEXT] = CELL_OPEN("td", "left", ONE_LINE),
        [RENDER_COL_NUMBER] = CELL_OPEN("td", "right", ONE_LINE),
        [RENDER_COL_WORDS] = CELL_OPEN("td", "left", PAD),
        [RENDER_COL_LIST] = CELL_OPEN("td", "left", PAD),
    };
    return (header ? th : td)[kind];
}

/* A list cell's HTML: each item whole in a span of one line, the break between items a space
 * (after ", " or before "-> ", outside brackets). */
static void html_list(struct render_buf *h, const char *s)
{
    int depth = 0;
    size_t start = 0, n = strlen(s);
    render_buf_puts(h, ITEM_OPEN);
    for (size_t i = 0; i < n; i++) {
        depth += (s[i] == '(' || s[i] == '[') - (s[i] == ')' || s[i] == ']');
        bool after_comma = depth == 0 && s[i] == ' ' && i > 0 && s[i - 1] == ',';
        bool before_arrow = depth == 0 && s[i] == ' ' && strncmp(s + i + 1, "->", 2) == 0;
        if (!after_comma && !before_arrow) continue;
        render_html_escape(h, s + start, i - start);
        render_buf_puts(h, "</span> " ITEM_OPEN);
        start = i + 1;
    }
    render_html_escape(h, s + start, n - start);
    render_buf_puts(h, "</span>");
}

/* One cell of the text form: two spaces before every column but the first, padded to w; a
 * right-aligned cell pads before, and neither it nor the last column pads after. */
static void grid_text_cell(struct render_buf *t, size_t c, size_t ncols, bool right, size_t w,
                           const char *s)
{
    size_t pad = w - width(s);
    render_buf_printf(t, "%s%*s%s%*s", c ? "  " : "", right ? (int)pad : 0, "", s,
                      right || c == ncols - 1 ? 0 : (int)pad, "");
}

void render_grid(struct render_buf *t, struct render_buf *h, const char *cls, size_t ncols,
                 const char *const *headers, const enum render_col *kind, size_t nrows,
                 render_cell_fn cell, const void *ctx)
{
    char text[512];
    size_t w[RENDER_GRID_MAX_COLS], shown = 0;
    if (ncols > RENDER_GRID_MAX_COLS) ncols = RENDER_GRID_MAX_COLS;
    for (size_t c = 0; c < ncols; c++) {
        w[c] = width(headers[c]);
        shown += kind[c] != RENDER_COL_DETAIL;
    }
    for (size_t i = 0; i < nrows; i++)
        for (size_t c = 0; c < ncols; c++) {
            cell(ctx, i, c, text, sizeof text);
            if (width(text) > w[c]) w[c] = width(text);
        }
    render_buf_printf(h, "<table class=\"%s\">\n<thead><tr>", cls);
    for (size_t c = 0; c < ncols; c++) {
        grid_text_cell(t, c, ncols, kind[c] == RENDER_COL_NUMBER, w[c], headers[c]);
        if (kind[c] == RENDER_COL_DETAIL) continue;
        render_buf_puts(h, cell_open(true, kind[c]));
        html_text(h, headers[c]);
        render_buf_puts(h, "</th>");
    }
    render_buf_puts(t, "\n");
    render_buf_puts(h, "</tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < nrows; i++) {
        render_buf_puts(h, "<tr>");
        for (size_t c = 0; c < ncols; c++) {
            cell(ctx, i, c, text, sizeof text);
            grid_text_cell(t, c, ncols, kind[c] == RENDER_COL_NUMBER, w[c], text);
            if (kind[c] == RENDER_COL_DETAIL) continue;
            render_buf_puts(h, cell_open(false, kind[c]));
            if (kind[c] == RENDER_COL_LIST)
                html_list(h, text);
            else
                html_text(h, text);
            render_buf_puts(h, "</td>");
        }
        render_buf_puts(t, "\n");
        render_buf_puts(h, "</tr>\n");
        bool first = true;
        for (size_t c = 0; c < ncols; c++) {
            if (kind[c] != RENDER_COL_DETAIL) continue;
            cell(ctx, i, c, text, sizeof text);
            if (first) render_buf_printf(h, DETAIL_OPEN, shown);
            render_buf_puts(h, first ? ITEM_OPEN : " · " ITEM_OPEN);
            html_text(h, headers[c]);
            render_buf_puts(h, " ");
            html_text(h, text);
            render_buf_puts(h, "</span>");
            first = false;
        }
        if (!first) render_buf_puts(h, "</td></tr>\n");
    }
    render_buf_puts(h, "</tbody></table>\n");
}

/* ---- compare() and timing() --------------------------------------------------------------- */

/* Pads a cell of text to `width` columns ("µs" is two bytes, one column). */
static void cell(struct render_buf *t, const char *s, int w)
{
    int pad = w - (int)width(s);
    render_buf_printf(t, "%s%*s", s, pad > 0 ? pad : 0, "");
}

json_t *render_compare_table(const char *stmt, const struct render_compare_row *rows, size_t n,
                             const char *note)
{
    struct render_buf t, h;
    render_buf_init(&t, 0);
    render_buf_init(&h, 0);
    render_buf_printf(&t, "compare: %s\n", stmt);
    render_buf_puts(&h, CAPTION_OPEN "compare: <code>");
    html_text(&h, stmt);
    render_buf_puts(&h, "</code>" CAPTION_CLOSE "<thead><tr><th>backend</th><th>time per run</th>"
                        "<th>runs</th><th>speed-up</th><th>agrees</th></tr></thead><tbody>\n");
    static const char *const head[] = {"backend", "time per run", "runs", "speed-up", "agrees"};
    static const int widths[] = {8, 15, 12, 9};
    for (int c = 0; c < 4; c++) {
        cell(&t, head[c], widths[c]);
        render_buf_puts(&t, "  ");
    }
    render_buf_printf(&t, "%s\n", head[4]);
    for (size_t i = 0; i < n; i++) {
        const struct render_compare_row *r = &rows[i];
        if (r->why[0]) {
            cell(&t, r->backend, widths[0]);
            render_buf_printf(&t, "  unavailable: %s\n", r->why);
            render_buf_puts(&h, "<tr><td>");
            html_text(&h, r->backend);
            render_buf_puts(&h, "</td><td colspan=\"4\">unavailable: ");
            html_text(&h, r->why);
            render_buf_puts(&h, "</td></tr>\n");
            continue;
        }
        cell(&t, r->backend, widths[0]);
        for (int k = 0; k < 3; k++) {
            render_buf_puts(&t, "  ");
            cell(&t, r->cells[k], widths[k + 1]);
        }
        render_buf_printf(&t, "  %s\n", r->cells[3]);
        /* every cell escaped: a spread under one percent reads "<1%" */
        render_buf_puts(&h, "<tr><td>");
        html_text(&h, r->backend);
        for (int k = 0; k < 4; k++) {
            render_buf_puts(&h, "</td><td>");
            html_text(&h, r->cells[k]);
        }
        render_buf_puts(&h, "</td></tr>\n");
    }
    render_buf_printf(&t, "%s\n", note);
    render_buf_puts(&h, "</tbody></table>\n<p style=\"font-size:smaller\">");
    html_text(&h, note);
    render_buf_puts(&h, "</p>\n");
    for (size_t i = 0; i < n; i++) { /* what the GPU did, from CUDA events */
        if (!rows[i].gpu[0]) continue;
        render_buf_printf(&t, "%s, first run: %s\n", rows[i].backend, rows[i].gpu);
        render_buf_puts(&h, "<p style=\"font-size:smaller\">");
        html_text(&h, rows[i].backend);
        render_buf_puts(&h, ", first run: ");
        html_text(&h, rows[i].gpu);
        render_buf_puts(&h, "</p>\n");
    }
    return render_table_bundle(&t, &h);
}

json_t *render_timing_table(const char *head, size_t nb, const char *const *backends,
                            const char *const *why, size_t ns, const int64_t *sizes,
                            const char *const *cells)
{
    struct render_buf t, h;
    render_buf_init(&t, 0);
    render_buf_init(&h, 0);
    render_buf_printf(&t, "%s\n", head);
    render_buf_puts(&h, CAPTION_OPEN);
    html_text(&h, head);
    render_buf_puts(&h, CAPTION_CLOSE "<thead><tr><th>n</th>");
    render_buf_printf(&t, "%6s", "n");
    for (size_t i = 0; i < nb; i++) { /* no padding after the last column */
        render_buf_puts(&t, "  ");
        cell(&t, backends[i], i + 1 < nb ? 11 : 0);
        render_buf_printf(&h, "<th>%s</th>", backends[i]);
    }
    render_buf_puts(&t, "\n");
    render_buf_puts(&h, "</tr></thead><tbody>\n");
    for (size_t k = 0; k < ns; k++) {
        render_buf_printf(&t, "%6lld", (long long)sizes[k]);
        render_buf_printf(&h, "<tr><td>%lld</td>", (long long)sizes[k]);
        for (size_t i = 0; i < nb; i++) {
            const char *c = cells[i * ns + k];
            render_buf_puts(&t, "  ");
            cell(&t, c, i + 1 < nb ? 11 : 0);
            render_buf_puts(&h, "<td>");
            html_text(&h, c);
            render_buf_puts(&h, "</td>");
        }
        render_buf_puts(&t, "\n");
        render_buf_puts(&h, "</tr>\n");
    }
    render_buf_puts(&h, "</tbody></table>\n");
    for (size_t i = 0; i < nb; i++)
        if (why[i][0]) {
            render_buf_printf(&t, "%s unavailable: %s\n", backends[i], why[i]);
            render_buf_printf(&h, "<p>%s unavailable: ", backends[i]);
            html_text(&h, why[i]);
            render_buf_puts(&h, "</p>\n");
        }
    return render_table_bundle(&t, &h);
}

/* ---- training progress -------------------------------------------------------------------- */

json_t *render_progress_bundle(int epoch, int epochs, const char *status)
{
    char plain[256];
    int w = 30, fill = epochs ? (int)((long long)w * epoch / epochs) : w;
    char bar[64];
    for (int i = 0; i < w; i++) bar[i] = i < fill ? '#' : '.';
    bar[w] = '\0';
    snprintf(plain, sizeof plain, "[%s] %s", bar, status);
    /* One line that never wraps: a status that wrapped or not as its numbers changed length
     * would change the display's height and move everything under it (a training log). The
     * bar is kept short, leaving the status the rest of the line; where that is too narrow,
     * the status is cut with an ellipsis. The code element is told too: JupyterLab's style lets
     * code wrap whatever its parent says. */
    char html[512];
    snprintf(html, sizeof html,
             "<div style=\"white-space:nowrap;overflow:hidden;text-overflow:ellipsis\">"
             "<progress value=\"%d\" max=\"%d\" style=\"width:120px\"></progress> "
             "<code style=\"white-space:nowrap\">%s</code></div>",
             epoch, epochs, plain + w + 3);
    return json_pack("{s:s, s:s}", "text/plain", plain, "text/html", html);
}
