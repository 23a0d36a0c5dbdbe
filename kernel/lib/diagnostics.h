/* diagnostics.h — what the engine did while a statement ran (internal to kernel/lib).
 *
 * The engine reports every op through its diagnostics hook (struct mt_diag: op, backend,
 * shapes, strides, the path taken, threads, vector width, bytes, FLOPs, time). A log collects
 * those reports for %diagnostics (a table, the lesson of Task 3.1) and for %time (the rate of a
 * statement that ran one op). Identical ops (same op, backend, shapes, strides, path, threads,
 * width) share one row with a count, so a loop of 10,000 adds is one row; past
 * DSL_DIAG_MAX_ROWS distinct rows the rest is counted, not shown. The last column is the op's
 * share of the machine's peak (mt_machine_peak: measured once per machine, at the first table
 * of the first session, and kept in the user's cache folder): read bandwidth for memory-bound
 * ops, the FMA rate for matmul, never above 100% (see dsl_diag_share); a note under the table
 * gives both peaks, when they were measured, and whether other programs ran meanwhile. Notes
 * under the table also say that each call was timed once, and, when other programs took the
 * CPU while the statement ran, so (lib/busy.h). Rates and shares print with three significant
 * digits ("0.00271 GB/s"). Ops on the cuda backend also get a row in a
 * second table, of their kernel launches: kernel, grid, block, shared memory, registers,
 * theoretical occupancy, the kernels' time from CUDA events, and the rate on that time against the
 * device's peaks (from its properties). In the first table their "threads" are every thread
 * launched and their time the host's, launch and wait included.
 *
 * Durations everywhere in the language's timings print through dsl_format_duration, one fixed
 * format ("812 ns", "1.23 µs", "45.6 ms", "2.35 s": three significant digits), so that a
 * notebook sanitizer can mask them with one regular expression. */
#ifndef KERNEL_LIB_DIAGNOSTICS_H
#define KERNEL_LIB_DIAGNOSTICS_H

#include "lib/busy.h"
#include "minitorch/minitorch.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define DSL_DIAG_MAX_ROWS 64

struct dsl_diag_row {
    struct mt_diag first; /* the first op of the row (its shapes, strides, path ...) */
    long count;
    double ns, bytes, flops; /* totals over the row's ops */
    double gpu_ns;           /* cuda: the kernels' total time from CUDA events */
    long runs;               /* runs of the row's ops (the engine repeats a short op) */
    double ns_min, ns_max;   /* the fastest and slowest of those runs */
};

struct dsl_diag_log {
    struct dsl_diag_row rows[DSL_DIAG_MAX_ROWS];
    int nrows;
    long ops;     /* every op seen */
    long dropped; /* ops that fitted no row */
    struct mt_ctx *ctx;
    mt_diag_fn prev_fn; /* the hook that was set before: called too, restored at stop */
    void *prev_user;
    struct dsl_busy_window window; /* from start to stop: was the machine busy? */
    struct dsl_busy busy;          /* its verdict, judged at stop */
};

/* Starts collecting the ops run on ctx into log (zeroed here). */
void dsl_diag_start(struct dsl_diag_log *log, struct mt_ctx *ctx);
/* Stops collecting; the hook set before start is back, and log->busy says whether other
 * programs took the CPU meanwhile (for the threads the log's ops ran on). */
void dsl_diag_stop(struct dsl_diag_log *log);

/* The rate of ops: "12.3 GB/s" (bytes moved per second) or, for matmul and the convolutions,
 * "45.6 GFLOP/s". */
void dsl_diag_rate(const char *op, double bytes, double flops, double ns, char *buf, size_t n);

/* The last column's cell: a rate (GB/s, or GFLOP/s for matmul and the convolutions) as a share of
 * the peak it is held against ("12.3% of 45 GB/s"). The peak supports shares up to 100% only: above
 * it no number is printed but the reason, "data in cache" when one call's data (call_bytes, read
 * and written) fit in the largest cache (cache, bytes), which reads faster than main memory, whose
 * bandwidth the read peak is, and "peak read low" otherwise (matmul's FMA peak cannot be passed:
 * it was measured while other programs ran). */
void dsl_diag_share(bool matmul, double rate, double peak, double call_bytes, double cache,
                    char *buf, size_t n);

/* v with an SI prefix and unit: "112 B", "48.0 kB", "4.19 MB"; "12", "2.15 G" for FLOPs. */
void dsl_diag_si(double v, const char *unit, char *buf, size_t n);

/* The machine's read peak in GB/s when it is known: kept from an earlier session, or measured by
 * this session's first diagnostics table (measuring takes 0.3 s of every core, far more under
 * valgrind, so it is not done here): false, and nothing set, otherwise. */
bool dsl_diag_read_peak(double *read_gbps);

/* The size in bytes of this machine's largest cache (0 when unknown). */
double dsl_diag_cache_bytes(void);

/* The table of the log as a new mime bundle (text/plain: aligned columns; text/html: a table),
 * or NULL when memory ran out. Under it, what its time columns and its share of the machine's
 * peak mean, where *explained is false (then set: a session's first table says it, the later
 * ones point to it), else one line that points there. */
json_t *dsl_diag_bundle(const struct dsl_diag_log *log, bool *explained);

/* One line on the log's cuda kernels, for compare: "2 kernels, 3.10 µs on the GPU: matmul:
 * matmul_tiled 32x32 (grid 2x2x1, block 32x32x1, 8.19 kB shared, 38 registers, occupancy 100%)
 * 2.50 µs; add: ...", as much as fits in buf; "" when the log has no cuda op. */
void dsl_diag_gpu_summary(const struct dsl_diag_log *log, char *buf, size_t n);

/* Formats a duration in seconds as described above. */
void dsl_format_duration(double seconds, char *buf, size_t n);
/* The median of v[0..n) (n > 0), which it sorts in place. */
double dsl_median(double *v, size_t n);

#endif
