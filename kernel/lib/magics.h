/* magics.h — line magics (internal to kernel/lib).
 *
 * A line starting with `%` runs a magic command, as in IPython: `%backend fast`, `%threads 2`.
 * The lexer hands the line over as one token and the parser splits it into the magic's name and
 * its argument text, so each magic parses its own arguments. Magics are rows of one table
 * {name, usage, fn, doc} (lang/library.h); help("%name"), completion after "%", %lsmagic and the
 * error for an unknown magic read the same rows, so adding a magic is adding a row.
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

#include "lang/library.h"

struct dsl_session;

/* The chart format %plot_renderer chose for the session: "auto" (Vega-Lite and SVG), "vegalite",
 * "html" or "svg". Static. */
const char *dsl_plot_renderer(const struct dsl_session *s);

#endif
