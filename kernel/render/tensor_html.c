/* tensor_html.c — the text/plain form of an engine tensor, laid out as PyTorch prints it, and its
 * text/html form, a table.
 *
 * Students compare what the kernel shows with PyTorch and numpy, so the layout follows
 * torch/_tensor_str.py with PyTorch's print options (set_printoptions changes them, as
 * torch.set_printoptions does): one number format for the whole tensor (fixed with `precision`
 * decimals, or scientific when the finite non-zero magnitudes span more than 1000x, exceed 1e8
 * or go below 1e-4 — numpy's rule too), every value right-aligned to the widest, rows nested
 * with one more space of indent per level and a blank line between blocks of 3-D and deeper
 * tensors, long rows wrapped at `linewidth` columns, and tensors of more than `threshold`
 * elements summarised to their first and last `edgeitems` entries per dim around "...".
 * Whole numbers show as PyTorch shows them, "2." without needless decimals (numpy does too).
 * After the data come the shape and backend (and requires_grad=True), which PyTorch would leave
 * out but a student switching backends wants to see.
 *
 * The HTML form is a table with the indices as headers that shows exactly the entries the text
 * form shows, in the same number format, with an ellipsis row or column where the text has
 * "...", so the two never disagree on what is left out. Its cells never wrap (a "1.0000e-05"
 * broken at the "-" reads as two numbers) and a table wider than the output area scrolls
 * sideways instead of being cut. A footer gives the layout facts (shape, strides, backend,
 * requires_grad) that the text form cannot show compactly.
 *
 * Only the shown elements are read (mt_tensor_get), so showing a 100M-element tensor reads
 * at most (2 * edgeitems)^ndim values and never copies the tensor (a GPU tensor shown whole is
 * copied at once: a copy from the device costs microseconds whatever its size).
 *
 * A tensor shown whole (set_printoptions(profile="full")) is work in proportion to its size:
 * the loops over its elements poll the engine's cancel flag, so that an interrupt ends them
 * within milliseconds (the buffer then fails as cancelled), and stop as soon as the buffer
 * has failed (past its limit nothing more would be kept). The widths are found from the
 * extreme values rather than by formatting every element twice. */
#include "render/render.h"

#include "minitorch/minitorch.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The elements shown along each dim and the values at their cartesian product. */
struct shown {
    const struct mt_tensor *t;
    int64_t edge;               /* entries kept at each end of a cut dim; 0: nothing is cut */
    int64_t max_len;            /* dims longer than this are cut */
    int64_t count[MT_MAX_DIMS]; /* shown entries of each dim */
    float *vals;                /* row-major over the shown index product */
    size_t nvals;
    bool sci;       /* "%.4e" rather than "%.4f" */
    bool integral;  /* every finite value is whole: "2." (PyTorch's int_mode) */
    int width;      /* what values are padded to: the widest finite non-zero one (PyTorch) */
    int line_width; /* the widest of all, zeros, nan and inf too: sets the entries per line */
};

static struct render_print_options options = RENDER_PRINT_DEFAULTS;

const struct render_print_options *render_print_options(void) { return &options; }

void render_set_print_options(const struct render_print_options *o) { options = *o; }

/* What both forms show (numpy's and PyTorch's rule): past the threshold, every dim longer than
 * twice the edge items is cut. */
static struct shown text_shown(const struct mt_tensor *t)
{
    bool summarise = t->size > options.threshold;
    return (struct shown){
        .t = t, .edge = summarise ? options.edgeitems : 0, .max_len = 2 * options.edgeitems};
}

/* The long loops look at the cancel flag every this many elements: well under a millisecond
 * of their work, a negligible share of it. */
#define POLL_EVERY 4096

/* Whether a loop over elements must stop at its i-th: the buffer failed already, or (every
 * POLL_EVERY elements) an interrupt came, which makes it fail as cancelled. */
static bool must_stop(struct render_buf *b, size_t i)
{
    if (i % POLL_EVERY == 0 && mt_cancel_requested()) b->cancelled = true;
    return render_buf_failed(b);
}

/* Whether dim d is cut to its edges. */
static bool cut(const struct shown *s, int d) { return s->edge > 0 && s->t->shape[d] > s->max_len; }

/* The tensor index of the k-th shown entry of dim d. */
static int64_t shown_index(const struct shown *s, int d, int64_t k)
{
    if (!cut(s, d) || k < s->edge) return k;
    return s->t->shape[d] - 2 * s->edge + k;
}

/* Reads the shown values. Returns 0, or -1 with b failed (out of memory, or interrupted). */
static int gather(struct shown *s, struct render_buf *b)
{
    const struct mt_tensor *t = s->t;
    size_t n = 1;
    for (int d = 0; d < t->ndim; d++) {
        s->count[d] = cut(s, d) ? 2 * s->edge : t->shape[d];
        n *= (size_t)s->count[d];
    }
    s->vals = malloc((n ? n : 1) * sizeof *s->vals);
    if (!s->vals) {
        b->nomem = true;
        return -1;
    }
    s->nvals = n;
    /* a device tensor shown whole: one copy, not a copy per element */
    if (!mt_backend_is_host(t->backend) && (int64_t)n == t->size &&
        mt_tensor_copy_out(t, s->vals) == MT_OK)
        return 0;
    int64_t k[MT_MAX_DIMS] = {0}, index[MT_MAX_DIMS];
    for (size_t i = 0; i < n; i++) {
        if (must_stop(b, i)) {
            free(s->vals);
            s->vals = NULL;
            return -1;
        }
        for (int d = 0; d < t->ndim; d++) index[d] = shown_index(s, d, k[d]);
        float v = NAN;
        if (mt_tensor_get(t->ctx, t, t->ndim, index, &v) != MT_OK) v = NAN;
        s->vals[i] = v;
        for (int d = t->ndim - 1; d >= 0; d--) { /* odometer, last dim fastest */
            if (++k[d] < s->count[d]) break;
            k[d] = 0;
        }
    }
    return 0;
}

static int format_value(const struct shown *s, float v, char *out, size_t cap)
{
    if (isnan(v)) return snprintf(out, cap, "nan");
    if (isinf(v)) return snprintf(out, cap, "%s", v < 0 ? "-inf" : "inf");
    if (s->sci) return snprintf(out, cap, "%.*e", options.precision, (double)v);
    if (s->integral) return snprintf(out, cap, "%.0f.", (double)v);
    return snprintf(out, cap, "%.*f", options.precision, (double)v);
}

/* PyTorch's _Formatter: whole numbers or not, the notation from the finite non-zero
 * magnitudes, then the width, which only those values set (so zeros, nan and inf, padded to it,
 * may stick out: "tensor([1., inf])", as PyTorch prints). Returns 0, or -1 when interrupted
 * (b failed).
 *
 * The widest text among values of one sign is that of the largest or the smallest magnitude
 * of that sign: the width of "%.4f" and "%.0f." grows with the magnitude (rounding is
 * monotonic), and that of "%.4e" only with the exponent's digits, which the extremes have most
 * of. So the widths come from those four values and the special ones present (+0, -0, nan,
 * inf, -inf), rather than from formatting every element. */
static int choose_format(struct shown *s, struct render_buf *b)
{
    bool any = false;
    double lo = 0, hi = 0;
    /* [0]: positive, [1]: negative; the smallest and largest magnitude of each */
    double small[2] = {0, 0}, large[2] = {0, 0};
    bool has[2] = {false, false}, zero[2] = {false, false}, nan = false, inf[2] = {false, false};
    s->integral = true;
    for (size_t i = 0; i < s->nvals; i++) {
        if (must_stop(b, i)) return -1;
        double v = s->vals[i];
        int neg = signbit(v) ? 1 : 0;
        if (isnan(v)) {
            nan = true;
            continue;
        }
        if (isinf(v)) {
            inf[neg] = true;
            continue;
        }
        if (v == 0) {
            zero[neg] = true;
            continue;
        }
        if (v != ceil(v)) s->integral = false;
        double a = fabs(v);
        if (!any || a < lo) lo = a;
        if (!any || a > hi) hi = a;
        any = true;
        if (!has[neg] || a < small[neg]) small[neg] = a;
        if (!has[neg] || a > large[neg]) large[neg] = a;
        has[neg] = true;
    }
    /* the same rule for whole numbers (at least 1, never below 1e-4) as for the rest */
    s->sci = options.sci_mode >= 0 ? options.sci_mode == 1
                                   : any && (hi / lo > 1000.0 || hi > 1e8 || lo < 1e-4);
    s->width = s->line_width = 1;
    char buf[RENDER_VALUE_CHARS];
    for (int neg = 0; neg < 2; neg++) {
        double sign = neg ? -1.0 : 1.0;
        /* the extremes were float32 values: formatted as the elements are */
        for (int k = 0; has[neg] && k < 2; k++) {
            int w = format_value(s, (float)(sign * (k ? large[neg] : small[neg])), buf, sizeof buf);
            if (w > s->width) s->width = w;
        }
        if (zero[neg]) {
            int w = format_value(s, neg ? -0.0f : 0.0f, buf, sizeof buf);
            if (w > s->line_width) s->line_width = w;
        }
        if (inf[neg]) {
            int w = format_value(s, neg ? -INFINITY : INFINITY, buf, sizeof buf);
            if (w > s->line_width) s->line_width = w;
        }
    }
    if (nan) {
        int w = format_value(s, NAN, buf, sizeof buf);
        if (w > s->line_width) s->line_width = w;
    }
    if (s->width > s->line_width) s->line_width = s->width;
    return 0;
}

static void spaces(struct render_buf *b, int n)
{
    for (int i = 0; i < n; i++) render_buf_putc(b, ' ');
}

/* One row (the last dim): values joined by ", ", wrapped so a line holds
 * (linewidth - indent) / (width + 2) entries, " ..." standing for the cut middle. PyTorch counts
 * with the padded width, which lets a row of zeros ("0." padded to 1) run past the line width;
 * the widest entry is counted here instead, the same count wherever none sticks out. */
static void put_row(struct render_buf *b, const struct shown *s, int indent, size_t *cursor)
{
    int d = s->t->ndim - 1;
    int per_line = (options.linewidth - indent) / (s->line_width + 2);
    if (per_line < 1) per_line = 1;
    render_buf_putc(b, '[');
    int on_line = 0;
    bool first = true;
    char buf[RENDER_VALUE_CHARS];
    for (int64_t k = 0; k < s->count[d]; k++) {
        if (must_stop(b, *cursor)) return;
        bool dots = cut(s, d) && k == s->edge;
        for (int item = dots ? 0 : 1; item < 2; item++) { /* the " ..." entry, then the value */
            if (!first) {
                if (on_line == per_line) {
                    render_buf_puts(b, ",\n");
                    spaces(b, indent + 1);
                    on_line = 0;
                } else {
                    render_buf_puts(b, ", ");
                }
            }
            first = false;
            on_line++;
            if (item == 0) {
                render_buf_puts(b, " ...");
                continue;
            }
            int w = format_value(s, s->vals[(*cursor)++], buf, sizeof buf);
            spaces(b, s->width - w);
            render_buf_puts(b, buf);
        }
    }
    render_buf_putc(b, ']');
}

/* Dim d and everything inside it; recursion depth is at most MT_MAX_DIMS. */
static void put_dim(struct render_buf *b, const struct shown *s, int d, int indent, size_t *cursor)
{
    if (d == s->t->ndim - 1) {
        put_row(b, s, indent, cursor);
        return;
    }
    int newlines = s->t->ndim - d - 1; /* a blank line between blocks of 3-D and deeper */
    render_buf_putc(b, '[');
    for (int64_t k = 0; k < s->count[d]; k++) {
        bool dots = cut(s, d) && k == s->edge;
        for (int item = dots ? 0 : 1; item < 2; item++) {
            if (k > 0 || item == 0) {
                render_buf_putc(b, ',');
                for (int i = 0; i < newlines; i++) render_buf_putc(b, '\n');
                spaces(b, indent + 1);
            }
            if (item == 0)
                render_buf_puts(b, "...");
            else
                put_dim(b, s, d + 1, indent + 1, cursor);
            if (render_buf_failed(b)) return;
        }
    }
    render_buf_putc(b, ']');
}

/* PyTorch's _add_suffixes: ", suffix" on the last line while it fits in the line width,
 * else on a new line under the data. */
static void put_suffix(struct render_buf *b, size_t start, const char *suffix)
{
    const char *text = render_buf_str(b) + start;
    const char *nl = strrchr(text, '\n');
    /* PyTorch counts len - rfind("\n") + 1, which is len + 2 when there is no newline */
    size_t last_line = nl ? strlen(nl) + 1 : strlen(text) + 2;
    if (last_line + strlen(suffix) + 2 > (size_t)options.linewidth) {
        render_buf_puts(b, ",\n");
        spaces(b, (int)strlen("tensor("));
    } else {
        render_buf_puts(b, ", ");
    }
    render_buf_puts(b, suffix);
}

int render_tensor_text(struct render_buf *b, const struct mt_tensor *t)
{
    size_t start = b->len;
    render_buf_puts(b, "tensor(");
    if (t->size == 0) {
        render_buf_puts(b, "[]");
    } else {
        struct shown s = text_shown(t);
        if (gather(&s, b) != 0) return -1;
        size_t cursor = 0;
        if (choose_format(&s, b) == 0) put_dim(b, &s, 0, (int)strlen("tensor("), &cursor);
        free(s.vals);
        if (render_buf_failed(b)) return -1;
    }
    char shape[MT_MAX_DIMS * 24 + 8], suffix[sizeof shape + 16];
    mt_shape_str(t->ndim, t->shape, shape, sizeof shape);
    snprintf(suffix, sizeof suffix, "shape=%s", shape);
    put_suffix(b, start, suffix);
    snprintf(suffix, sizeof suffix, "backend=%s", mt_backend_name(t->backend));
    put_suffix(b, start, suffix);
    if (t->requires_grad) put_suffix(b, start, "requires_grad=True");
    return render_buf_putc(b, ')');
}

/* The footer every HTML form ends with: what a student checks after a view, a .to() or an op
 * on tensors that require grad (a computed one is not a leaf: backward() flows through it into
 * the leaves' .grad, PyTorch's is_leaf). */
static void html_footer(struct render_buf *b, const struct mt_tensor *t)
{
    char shape[MT_MAX_DIMS * 24 + 8], strides[MT_MAX_DIMS * 24 + 8];
    mt_shape_str(t->ndim, t->shape, shape, sizeof shape);
    mt_shape_str(t->ndim, t->strides, strides, sizeof strides);
    render_buf_printf(b,
                      "<div style=\"font-size:smaller;color:#666\">shape %s &middot; strides %s "
                      "&middot; backend %s &middot; requires_grad %s%s%s</div>",
                      shape, strides, mt_backend_name(t->backend),
                      t->requires_grad ? "True" : "False",
                      !t->requires_grad ? ""
                      : t->node         ? " (computed, not a leaf)"
                                        : " (leaf)",
                      t->grad ? " &middot; grad set" : "");
}

/* One header or body cell of the table: the k-th shown entry of a dim, or the ellipsis that
 * stands for the cut middle just before it. */
static void html_row(struct render_buf *b, const struct shown *s, int64_t rowk, bool cut_row,
                     bool row_header)
{
    int cd = s->t->ndim - 1; /* the column dim */
    int64_t cols = s->count[cd];
    render_buf_puts(b, "<tr>");
    if (row_header) {
        if (rowk < 0)
            render_buf_puts(b, "<th></th>"); /* the corner above the row indices */
        else if (cut_row)
            render_buf_puts(b, "<th>&#8942;</th>");
        else
            render_buf_printf(b, "<th>%lld</th>", (long long)shown_index(s, 0, rowk));
    }
    char v[RENDER_VALUE_CHARS];
    for (int64_t j = 0; j < cols; j++) {
        if (must_stop(b, (size_t)j)) return;
        bool cut_col = cut(s, cd) && j == s->edge;
        if (cut_col) /* the column standing for the cut middle */
            render_buf_puts(b, rowk < 0  ? "<th>&hellip;</th>"
                               : cut_row ? "<td>&#8945;</td>"
                                         : "<td>&hellip;</td>");
        if (rowk < 0) {
            render_buf_printf(b, "<th>%lld</th>", (long long)shown_index(s, cd, j));
        } else if (cut_row) {
            render_buf_puts(b, "<td>&#8942;</td>");
        } else {
            format_value(s, s->vals[rowk * cols + j], v, sizeof v);
            render_buf_printf(b, "<td>%s</td>", v); /* digits, '.', 'e', '-', "nan", "inf" */
        }
    }
    render_buf_puts(b, "</tr>");
}

/* A 1-D or 2-D tensor as a table with its indices as headers (so t[i, j] can be read off),
 * cut where the text form cuts, an ellipsis row or column standing for the cut middle. */
static int html_table(struct render_buf *b, const struct mt_tensor *t)
{
    struct shown s = text_shown(t);
    if (gather(&s, b) != 0) return -1;
    if (choose_format(&s, b) != 0) {
        free(s.vals);
        return -1;
    }
    bool two_d = t->ndim == 2;
    render_buf_puts(b,
                    "<table style=\"font-family:monospace;text-align:right;white-space:nowrap\">");
    html_row(b, &s, -1, false, two_d);
    int64_t rows = two_d ? s.count[0] : 1;
    for (int64_t i = 0; i < rows && !render_buf_failed(b); i++) {
        if (two_d && cut(&s, 0) && i == s.edge) html_row(b, &s, i, true, true);
        html_row(b, &s, i, false, two_d);
    }
    render_buf_puts(b, "</table>");
    free(s.vals);
    return render_buf_failed(b) ? -1 : 0;
}

int render_tensor_html(struct render_buf *b, const struct mt_tensor *t)
{
    /* the scroll box: a table wider than the output area scrolls rather than being cut */
    render_buf_puts(b, "<div class=\"minitorch-tensor\" style=\"overflow-x:auto\">");
    if (t->size > 0 && (t->ndim == 1 || t->ndim == 2)) {
        if (html_table(b, t) != 0) return -1;
    } else { /* empty, or 3-D and more: the text form, which summarises */
        /* escaping only lengthens the text: it may hold no more than b */
        struct render_buf text;
        render_buf_init(&text, b->limit);
        render_tensor_text(&text, t);
        render_buf_puts(b, "<pre style=\"white-space:pre\">");
        if (render_buf_failed(&text)) {
            b->nomem |= text.nomem;
            b->over |= text.over;
            b->cancelled |= text.cancelled;
        } else {
            render_html_escape(b, text.data ? text.data : "", text.len);
        }
        render_buf_puts(b, "</pre>");
        render_buf_free(&text);
    }
    html_footer(b, t);
    return render_buf_puts(b, "</div>");
}
