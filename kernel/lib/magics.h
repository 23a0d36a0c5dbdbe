/* magics.h — line magics (internal to kernel/lib).
 *
 * A line starting with `%` runs a magic command, as in IPython: `%backend fast`, `%threads 2`.
 * The lexer hands the line over as one token and the parser splits it into the magic's name and
 * its argument text, so each magic parses its own arguments. Magics are rows of one table
 * {name, usage, fn, doc}; help("%name"), completion after "%", %lsmagic and the error for an
 * unknown magic read the same rows, so adding a magic is adding a row.
 *
 * Timings (%time, %timeit) print in one fixed format (see dsl_format_duration in
 * diagnostics.h): "Wall time: 1.23 ms", followed by " (add on fast: 8.15 GB/s)" or
 * " (matmul on fast: 95.2 GFLOP/s)" when the statement ran exactly one engine op, and
 * "1.23 µs ± 0.04 µs per loop (median ± median absolute deviation of 7 runs, 1000 loops each)".
 * A notebook sanitizer masks them with the regular expressions
 *   durations  [0-9.]+ (ns|µs|ms|s)
 *   rates      [0-9.]+ (GB/s|GFLOP/s)
 *   loops      [0-9]+ loops? each
 * (the numbers are plain decimals, never exponents). Magics whose arguments are words (all
 * but %time, %timeit and %diagnostics STMT) allow a trailing `# comment`. */
#ifndef KERNEL_LIB_MAGICS_H
#define KERNEL_LIB_MAGICS_H

#include "render/render.h"

#include <stddef.h>

struct dsl_interp;

struct dsl_value;
struct dsl_session;

/* Runs a magic on its argument text (trimmed; "" when none), which starts at byte args_pos of
 * the source being run (SIZE_MAX when unknown). `result` is non-NULL when the magic is the
 * cell's last statement: a magic running a statement (%time) leaves its value there, as
 * IPython shows `%time 1 + 1`'s value as the result. Returns 0, or -1 after raising. */
typedef int (*dsl_magic_fn)(struct dsl_interp *in, const char *args, size_t args_pos,
                            struct dsl_value *result);

struct dsl_magic {
    const char *name;  /* without the '%' */
    const char *usage; /* "%backend [simple|fast|cuda]" */
    dsl_magic_fn fn;
    const char *doc;
};

extern const struct dsl_magic dsl_magics[]; /* sorted by name */
extern const size_t dsl_magic_count;

/* The magic called `name` (without '%'), or NULL. */
const struct dsl_magic *dsl_magic_find(const char *name);

/* Appends the usage line, a blank line and the doc of m. */
int dsl_magic_help(struct render_buf *b, const struct dsl_magic *m);

/* Runs `%name args`; an unknown name raises UsageError listing the known magics. Errors raised
 * without a position point at `pos` (the '%'). `result` as for dsl_magic_fn (may be NULL).
 * Returns 0 or -1. */
int dsl_magic_run(struct dsl_interp *in, const char *name, const char *args, size_t pos,
                  struct dsl_value *result);

/* The chart format %plot_renderer chose for the session: "auto" (Vega-Lite and SVG), "vegalite",
 * "html" or "svg". Static. */
const char *dsl_plot_renderer(const struct dsl_session *s);

#endif
