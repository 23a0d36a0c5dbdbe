/* render.h — how values are shown, for the language and its library (kernel/render).
 *
 * Everything a frontend shows travels as a mime bundle, `{"text/plain": "...", ...}`. This header
 * gives the pieces that build those bundles from C text: a growable byte buffer with a size
 * limit (so a huge repr ends in a MemoryError, not in an exhausted machine), Python's repr of
 * floats and strings, UTF-8 validation and repair (Jansson refuses invalid UTF-8), HTML
 * escaping, the text/plain bundle constructor, tables shown as aligned text and HTML at once,
 * the training progress line, and the text and HTML forms of an engine tensor (PyTorch's
 * layout; a table). The charts (Vega-Lite, SVG) are in chart.h and use the same buffer.
 * Renderers take plain data and engine values (minitorch.h), never the language's headers.
 *
 * Memory: a `struct render_buf` owns its bytes; render_buf_free releases them and
 * render_buf_take hands them over. Functions returning json_t * return a new reference or NULL
 * when memory is exhausted. */
#ifndef KERNEL_RENDER_RENDER_H
#define KERNEL_RENDER_RENDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A NUL-terminated growable byte string with a size cap. Once an append fails (out of memory
 * or over the limit) the buffer keeps failing, so a long chain of appends needs one check. A
 * renderer whose work grows with its data (a tensor shown whole) also polls the engine's cancel
 * flag (an interrupt) as it goes, and stops with the buffer failed as `cancelled`. */
struct render_buf {
    char *data;     /* NUL-terminated when non-NULL; owned */
    size_t len;     /* bytes in use, excluding the NUL */
    size_t cap;     /* bytes allocated */
    size_t limit;   /* the most bytes the buffer may hold (0: no limit) */
    bool nomem;     /* an allocation failed */
    bool over;      /* an append would have passed the limit */
    bool cancelled; /* an interrupt stopped the rendering */
};

/* Whether the buffer failed (out of memory, over its limit or cancelled). */
static inline bool render_buf_failed(const struct render_buf *b)
{
    return b->nomem || b->over || b->cancelled;
}

/* An empty buffer holding at most `limit` bytes (0: unlimited). Allocates nothing yet. */
void render_buf_init(struct render_buf *b, size_t limit);
/* Frees the bytes and resets the buffer to empty (limit kept). */
void render_buf_free(struct render_buf *b);
/* Appends; each returns 0, or -1 when out of memory or over the limit (see the flags). */
int render_buf_append(struct render_buf *b, const char *s, size_t n);
int render_buf_puts(struct render_buf *b, const char *s);
int render_buf_putc(struct render_buf *b, char c);
int render_buf_printf(struct render_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The contents as a malloc'd NUL-terminated string (caller frees), leaving the buffer empty.
 * Returns NULL when the buffer failed or memory is exhausted. */
char *render_buf_take(struct render_buf *b);
/* The contents as a C string, "" when empty; borrowed, valid until the next append. */
const char *render_buf_str(const struct render_buf *b);

/* Python's repr of a double (shortest round-trip digits): "0.5", "2.0", "1e+20", "-0.0",
 * "inf", "nan". Writes at most `cap` bytes (32 is always enough) and returns the length. */
size_t render_float_repr(double v, char *out, size_t cap);
/* The unit a time of `seconds` (the largest of those shown together) reads best in, the
 * largest in which it is at least 1: its size in seconds (1, 1e-3, 1e-6 or 1e-9), and its name
 * in *name ("s", "ms", "µs", "ns"). */
double render_time_unit(double seconds, const char **name);

/* The shortest decimal that reads back (strtof) as the same float32, "%.9g"-style: "0.1",
 * "0.23796463", "1e+20", "-0", "inf", "nan". Writes at most `cap` bytes (32 is always enough)
 * and returns the length. */
size_t render_float32_repr(float v, char *out, size_t cap);

/* Appends Python's repr of a UTF-8 string: single quotes unless the text holds ' and no ",
 * backslash escapes for \\, the quote, \n \r \t and other control bytes (\xNN). A long one
 * stops at an interrupt, the buffer failed as cancelled. */
int render_str_repr(struct render_buf *b, const char *s, size_t n);

/* Appends s[0..n) broken into lines between words, as a terminal shows prose: each line is
 * `indent` spaces and as many words (split at spaces) as fit in `width` columns (a word longer
 * than that has a line of its own), then '\n'. Front ends wrap a long stream line wherever the
 * output area ends, mid-word, so text meant to be read is broken here. Returns 0, or -1 when
 * the buffer failed. */
int render_wrap(struct render_buf *b, const char *s, size_t n, int indent, int width);

/* Appends `s` with & < > " ' escaped for HTML text and attributes. */
int render_html_escape(struct render_buf *b, const char *s, size_t n);

/* True when s[0..n) is well-formed UTF-8 (no overlongs, surrogates or values > U+10FFFF). */
bool render_utf8_valid(const char *s, size_t n);
/* Length in bytes of the valid UTF-8 sequence starting at s (1..4), or 0 when s[0..n) does
 * not start with one. */
size_t render_utf8_seq(const char *s, size_t n);
/* Number of code points in valid UTF-8 text (invalid bytes count one each). */
size_t render_utf8_count(const char *s, size_t n);

/* A new JSON string from s[0..n); invalid UTF-8 is replaced by U+FFFD. NULL when out of
 * memory. */
json_t *render_json_string(const char *s, size_t n);

/* A new bundle {"text/plain": text}; invalid UTF-8 repaired. NULL when out of memory. */
json_t *render_text_bundle(const char *text);

/* ---- tables and the progress line (table.c) --------------------------------------------- */

/* The bundle {"text/plain": t, "text/html": h}; frees both buffers. NULL when either failed or
 * memory ran out. */
json_t *render_table_bundle(struct render_buf *t, struct render_buf *h);

/* Writes the text of cell (row, col) into buf[0..n). */
typedef void (*render_cell_fn)(const void *ctx, size_t row, size_t col, char *buf, size_t n);
#define RENDER_GRID_MAX_COLS 16
/* How a column of render_grid shows. The text form is for a terminal, as wide as it needs; the
 * HTML form must fit a notebook's output area, so a wide table keeps its main columns in the
 * row and moves the rest to a smaller line under it. */
enum render_col {
    RENDER_COL_TEXT,   /* left-aligned, on one line */
    RENDER_COL_NUMBER, /* right-aligned, on one line */
    RENDER_COL_WORDS,  /* left-aligned; in HTML it may break between its words */
    RENDER_COL_DETAIL, /* in HTML not a column: "header value" on a line under the row */
    RENDER_COL_LIST    /* left-aligned; in HTML it may break after a ", " or before a "-> "
                        * outside brackets, never inside one of its items ("(3, 4), (4,) ->
                        * (3, 4)": three shapes, each whole) */
};
/* Appends a table of ncols columns (at most RENDER_GRID_MAX_COLS) and nrows rows, the cells'
 * text from cell(ctx, ...), both ways: to t, a header line and a line per row, columns two
 * spaces apart and padded to their widest cell, numbers right-aligned, the last column never
 * padded after; to h, <table class="cls"> with escaped, padded <th> and <td> cells laid out as
 * kind[c] says (a header may break between its words), and after each row with detail columns
 * a line of them. */
void render_grid(struct render_buf *t, struct render_buf *h, const char *cls, size_t ncols,
                 const char *const *headers, const enum render_col *kind, size_t nrows,
                 render_cell_fn cell, const void *ctx);

/* A row of compare()'s table: the backend and either why it cannot run here (why non-empty)
 * or its cells (time per run, runs, speed-up, agrees); gpu: what the GPU did, or "". */
struct render_compare_row {
    const char *backend;
    const char *why;
    const char *cells[4];
    const char *gpu;
};
/* compare()'s table of the statement stmt: a row per backend, the note below. */
json_t *render_compare_table(const char *stmt, const struct render_compare_row *rows, size_t n,
                             const char *note);
/* timing()'s table under the line head: a row per size, a column per backend; cells[i * ns + k]
 * is backend i's time at sizes[k], and why[i] (non-empty) says why backend i cannot run. */
json_t *render_timing_table(const char *head, size_t nb, const char *const *backends,
                            const char *const *why, size_t ns, const int64_t *sizes,
                            const char *const *cells);

/* The live progress display of training: a bar of 30 columns filled epoch/epochs, then status
 * ("epoch 3/10  loss ..."); text/plain, and text/html with a <progress> element. */
json_t *render_progress_bundle(int epoch, int epochs, const char *status);

/* ---- tensors (tensor_html.c) ------------------------------------------------------------- */

struct mt_tensor;

/* How tensors are shown, PyTorch's print options with its defaults (torch.set_printoptions):
 * values with `precision` decimals; more than `threshold` elements summarised, each dim longer
 * than 2 * `edgeitems` showing its first and last `edgeitems` entries around "..."; text rows
 * wrapped to stay within `linewidth` columns; scientific notation chosen per tensor
 * (sci_mode -1), or always (1), or never (0). One set per process, as in PyTorch. */
struct render_print_options {
    int precision;
    int64_t threshold;
    int64_t edgeitems;
    int linewidth;
    int sci_mode;
};
#define RENDER_PRINT_DEFAULTS                                                                      \
    {                                                                                              \
        .precision = 4, .threshold = 1000, .edgeitems = 3, .linewidth = 80, .sci_mode = -1         \
    }
#define RENDER_PRINT_MAX_PRECISION                                                                 \
    30                        /* beyond what a float32 holds; keeps a value's text short           \
                               */
#define RENDER_VALUE_CHARS 96 /* room for one formatted value at the largest precision */
/* The options in force (borrowed), and a change of them (values already checked). */
const struct render_print_options *render_print_options(void);
void render_set_print_options(const struct render_print_options *o);

/* Appends t as PyTorch prints it, with the shape and backend (and requires_grad=True when set)
 * after the data:
 *
 *     tensor([[1.0000, 2.5000],
 *             [3.0000, 4.0000]], shape=(2, 2), backend=fast)
 *
 * Values have `precision` decimals, none when all are whole ("2."), or scientific notation
 * ("1.0000e-05") when their magnitudes need it (PyTorch's and numpy's rule); columns are
 * right-aligned to one width. Past `threshold` elements each dim longer than 2 * `edgeitems`
 * shows its first and last `edgeitems` entries around "...". Only the shown elements are read.
 * Returns 0, or -1 when the buffer failed (an interrupt fails it as cancelled). */
int render_tensor_text(struct render_buf *b, const struct mt_tensor *t);

/* Non-empty tensors of 1 or 2 dims show as an HTML table (values formatted as in the text
 * form) with the indices as header row and column, holding exactly the entries the text form
 * shows: a dim the text form cuts has an ellipsis column (&hellip;) or row (&#8942;) where the
 * text has "...". Cells never wrap and a wide table scrolls sideways. Empty tensors and those of
 * 3 or more dims show as the escaped text form in <pre>. Both end with a footer: shape,
 * strides, backend, requires_grad (with "(leaf)" or "(computed, not a leaf)" when true) and
 * "grad set" when a gradient is there. Returns 0, or -1 when the buffer failed (an interrupt
 * fails it as cancelled). */
int render_tensor_html(struct render_buf *b, const struct mt_tensor *t);

#endif
