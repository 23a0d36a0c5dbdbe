/* diagnostics.c — collecting the engine's per-op reports and showing them (see
 * diagnostics.h). */
#include "lib/diagnostics.h"

#include "lang/library.h"
#include "lib/jit/cache.h"
#include "render/render.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static bool same_row(const struct mt_diag *a, const struct mt_diag *b)
{
    if (strcmp(a->op, b->op) != 0 || a->backend != b->backend || strcmp(a->path, b->path) != 0 ||
        a->prog_insns != b->prog_insns || strcmp(a->prog_name, b->prog_name) != 0 ||
        a->threads != b->threads || a->vec_width != b->vec_width || a->nin != b->nin ||
        a->out_ndim != b->out_ndim)
        return false;
    for (int k = 0; k < a->nin; k++) {
        if (a->in_ndim[k] != b->in_ndim[k]) return false;
        size_t n = (size_t)a->in_ndim[k] * sizeof(int64_t);
        if (memcmp(a->in_shape[k], b->in_shape[k], n) != 0 ||
            memcmp(a->in_strides[k], b->in_strides[k], n) != 0)
            return false;
    }
    size_t n = (size_t)a->out_ndim * sizeof(int64_t);
    return memcmp(a->out_shape, b->out_shape, n) == 0 &&
           memcmp(a->out_strides, b->out_strides, n) == 0;
}

/* The op column: a user function's op names the function, map(shifted_relu). */
static void op_label(const struct mt_diag *d, char *buf, size_t n)
{
    if (d->prog_name[0])
        snprintf(buf, n, "%s(%s)", d->op, d->prog_name);
    else
        snprintf(buf, n, "%s", d->op);
}

static void on_op(void *user, const struct mt_diag *d)
{
    struct dsl_diag_log *log = user;
    if (log->prev_fn) log->prev_fn(log->prev_user, d);
    log->ops++;
    struct dsl_diag_row *row = NULL;
    for (int i = log->nrows - 1; i >= 0 && !row; i--) /* a loop repeats the latest rows */
        if (same_row(&log->rows[i].first, d)) row = &log->rows[i];
    if (!row) {
        if (log->nrows == DSL_DIAG_MAX_ROWS) {
            log->dropped++;
            return;
        }
        row = &log->rows[log->nrows++];
        row->first = *d;
    }
    row->count++;
    row->ns += (double)d->ns; /* the median run of the op (mt_diag.runs) */
    int runs = d->runs > 0 ? d->runs : 1;
    double lo = d->runs > 0 ? (double)d->ns_min : (double)d->ns;
    double hi = d->runs > 0 ? (double)d->ns_max : (double)d->ns;
    if (row->runs == 0 || lo < row->ns_min) row->ns_min = lo;
    if (row->runs == 0 || hi > row->ns_max) row->ns_max = hi;
    row->runs += runs;
    row->bytes += d->bytes;
    row->flops += d->flops;
    row->gpu_ns += (double)d->gpu_ns;
}

void dsl_diag_start(struct dsl_diag_log *log, struct mt_ctx *ctx)
{
    memset(log, 0, sizeof *log);
    log->ctx = ctx;
    mt_ctx_diag(ctx, &log->prev_fn, &log->prev_user);
    mt_ctx_set_diag(ctx, on_op, log);
    dsl_busy_begin(&log->window);
}

void dsl_diag_stop(struct dsl_diag_log *log)
{
    int threads = 1; /* the most threads an op of the log ran on */
    for (int i = 0; i < log->nrows; i++)
        if (!log->rows[i].first.kernel && log->rows[i].first.threads > threads)
            threads = log->rows[i].first.threads;
    dsl_busy_end(&log->window, threads, &log->busy);
    mt_ctx_set_diag(log->ctx, log->prev_fn, log->prev_user);
}

struct dsl_diag_log *dsl_diag_open(struct mt_ctx *ctx)
{
    struct dsl_diag_log *log = malloc(sizeof *log);
    if (log) dsl_diag_start(log, ctx);
    return log;
}

json_t *dsl_diag_close(struct dsl_diag_log *log, bool table, bool *explained)
{
    dsl_diag_stop(log);
    json_t *bundle = table && log->ops ? dsl_diag_bundle(log, explained) : NULL;
    free(log);
    return bundle;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double dsl_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void dsl_format_duration(double seconds, char *buf, size_t n)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1e-9, "ns"}, {1e-6, "\xc2\xb5s"}, {1e-3, "ms"}, {1.0, "s"}};
    int u = 0;
    while (u < 3 && seconds >= units[u + 1].scale * 0.9995) u++;
    double v = seconds / units[u].scale;
    const char *fmt = v >= 99.95 ? "%.0f %s" : v >= 9.995 ? "%.1f %s" : "%.2f %s";
    if (u == 0 && v >= 99.95) fmt = "%.0f %s";
    snprintf(buf, n, fmt, v, units[u].unit);
}

/* v with three significant digits in plain decimals ("123", "12.3", "0.00123"; "0" below
 * 1e-6), so that a tiny op's rate reads "0.00271 GB/s", not "0.0 GB/s", and a sanitizer's
 * "[0-9.]+" matches every number. */
static void sig3(double v, const char *unit, char *buf, size_t n)
{
    int decimals = 0;
    for (double lim = 100.0; v < lim * 0.9995 && decimals < 8; lim /= 10) decimals++;
    if (v < 1e-6) decimals = 0, v = 0;
    snprintf(buf, n, "%.*f%s", decimals, v, unit);
}

void dsl_diag_si(double v, const char *unit, char *buf, size_t n)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P"};
    int p = 0;
    while (p < 5 && v >= 999.5) v /= 1000, p++;
    char u[16];
    snprintf(u, sizeof u, "%s%s%s", p || unit[0] ? " " : "", prefix[p], unit);
    if (p == 0)
        snprintf(buf, n, "%.0f%s", v, u);
    else
        sig3(v, u, buf, n);
}

/* The ops whose time is arithmetic rather than reading memory: matmul and the convolutions,
 * each output a sum of many products of inputs it shares with its neighbours. */
static bool compute_bound(const char *op)
{
    return strcmp(op, "matmul") == 0 || strcmp(op, "conv1d") == 0 || strcmp(op, "conv2d") == 0;
}

void dsl_diag_rate(const char *op, double bytes, double flops, double ns, char *buf, size_t n)
{
    if (ns <= 0) {
        snprintf(buf, n, "-");
        return;
    }
    if (compute_bound(op))
        sig3(flops / ns, " GFLOP/s", buf, n);
    else
        sig3(bytes / ns, " GB/s", buf, n);
}

/* ---- the table --------------------------------------------------------------------------- */

enum {
    C_OP,
    C_BACKEND,
    C_SHAPES,
    C_STRIDES,
    C_PATH,
    C_THREADS,
    C_LOOP,
    C_VEC,
    C_CALLS,
    C_BYTES,
    C_FLOPS,
    C_TIME,
    C_SPREAD,
    C_RATE,
    C_PEAK,
    NC
};
static const char *const headers[NC] = {"op",      "backend",      "shapes (in -> out)",
                                        "strides", "path",         "threads",
                                        "loop",    "vector width", "calls",
                                        "bytes",   "FLOPs",        "time",
                                        "spread",  "rate",         "of machine peak"};

static void shapes_text(const struct mt_diag *d, bool strides, char *buf, size_t n)
{
    char s[160];
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < d->nin && used < n; k++) {
        mt_shape_str(d->in_ndim[k], strides ? d->in_strides[k] : d->in_shape[k], s, sizeof s);
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k ? ", " : "", s);
    }
    mt_shape_str(d->out_ndim, strides ? d->out_strides : d->out_shape, s, sizeof s);
    if (used < n) snprintf(buf + used, n - used, " -> %s", s);
}

/* The machine's peaks (read GB/s, FMA GFLOP/s) and the size of its largest CPU cache in bytes
 * (0: unknown). */
struct peaks {
    double read, fma, cache;
};

/* The largest CPU cache (the last level, shared by the cores), in bytes; 0 when unknown. */
double dsl_diag_cache_bytes(void)
{
    double most = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    most = (double)(l3 > l2 ? l3 : l2);
#endif
    for (int i = 0; i < 8 && most <= 0; i++) { /* where the C library does not say: sysfs */
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        double v = 0;
        char unit = 'K';
        int got = fscanf(f, "%lf%c", &v, &unit);
        fclose(f);
        if (got >= 1) v *= unit == 'M' ? 1048576.0 : unit == 'K' ? 1024.0 : 1.0;
        if (v > most) most = v;
    }
    return most > 0 ? most : 0;
}

void dsl_diag_share(bool matmul, double rate, double peak, double call_bytes, double cache,
                    char *buf, size_t n)
{
    const char *unit = matmul ? "GFLOP/s" : "GB/s";
    if (!(peak > 0) || !(rate >= 0)) {
        snprintf(buf, n, "-");
    } else if (rate <= peak) {
        char share[32];
        sig3(100 * rate / peak, "%", share, sizeof share);
        snprintf(buf, n, "%s of %.0f %s", share, peak, unit);
    } else if (!matmul && call_bytes <= cache) {
        snprintf(buf, n, ">100%% of %.0f %s: data in cache", peak, unit);
    } else {
        snprintf(buf, n, ">100%% of %.0f %s: peak read low", peak, unit);
    }
}

/* The last column: matmul and the convolutions against the FMA rate, every other op against
 * reading memory. */
static void peak_text(const struct dsl_diag_row *r, const struct peaks *pk, char *buf, size_t n)
{
    bool mm = compute_bound(r->first.op);
    if (!(r->ns > 0)) {
        snprintf(buf, n, "-");
        return;
    }
    dsl_diag_share(mm, (mm ? r->flops : r->bytes) / r->ns, mm ? pk->fma : pk->read,
                   r->bytes / (double)r->count, pk->cache, buf, n);
}

static void cell_text(const struct dsl_diag_row *r, int c, const struct peaks *pk, char *buf,
                      size_t n)
{
    const struct mt_diag *d = &r->first;
    if (c == C_PEAK && d->kernel) { /* the GPU table has it, on the GPU's time and peaks */
        snprintf(buf, n, "(GPU table)");
        return;
    }
    if (c == C_LOOP && d->kernel) {
        snprintf(buf, n, "a CUDA grid");
        return;
    }
    if (c == C_PEAK) {
        peak_text(r, pk, buf, n);
        return;
    }
    switch (c) {
    case C_OP: op_label(d, buf, n); break;
    case C_BACKEND: snprintf(buf, n, "%s", mt_backend_name(d->backend)); break;
    case C_SHAPES: shapes_text(d, false, buf, n); break;
    case C_STRIDES: shapes_text(d, true, buf, n); break;
    case C_PATH:
        if (d->prog_insns > 0) /* a user function: the ops it fuses into its one pass */
            snprintf(buf, n, "%s (%d op%s)", d->path, d->prog_insns, d->prog_insns == 1 ? "" : "s");
        else
            snprintf(buf, n, "%s", d->path && d->path[0] ? d->path : "-");
        break;
    case C_THREADS: snprintf(buf, n, "%d", d->threads); break;
    case C_LOOP:         /* the parallel loop: OpenMP's static schedule over chunks */
        if (!d->nchunks) /* a straight loop, or a kernel with its own blocking (the GEMM) */
            snprintf(buf, n, "%s", d->threads > 1 ? "blocks of the path" : "one loop");
        else
            snprintf(buf, n, "%s, %lld chunk%s of %lld", d->threads > 1 ? "static" : "serial",
                     (long long)d->nchunks, d->nchunks == 1 ? "" : "s", (long long)d->chunk);
        break;
    case C_VEC: snprintf(buf, n, "%d", d->vec_width); break;
    case C_CALLS: snprintf(buf, n, "%ld", r->count); break;
    case C_BYTES: dsl_diag_si(r->bytes, "B", buf, n); break; /* totals over the row's calls */
    case C_FLOPS: dsl_diag_si(r->flops, "", buf, n); break;
    case C_TIME: dsl_format_duration(r->ns * 1e-9, buf, n); break;
    case C_SPREAD: /* the fastest and slowest run, or that there was one */
        if (r->runs <= 1) {
            snprintf(buf, n, "one run");
        } else {
            char lo[32], hi[32];
            dsl_format_duration(r->ns_min * 1e-9, lo, sizeof lo);
            dsl_format_duration(r->ns_max * 1e-9, hi, sizeof hi);
            snprintf(buf, n, "%s \xe2\x80\x93 %s, %ld runs", lo, hi, r->runs);
        }
        break;
    default: dsl_diag_rate(d->op, r->bytes, r->flops, r->ns, buf, n); break;
    }
}

/* ---- the GPU table ------------------------------------------------------------------------ */

enum {
    G_OP,
    G_KERNEL,
    G_GRID,
    G_BLOCK,
    G_SHARED,
    G_REGS,
    G_OCC,
    G_CALLS,
    G_TIME,
    G_RATE,
    G_PEAK,
    NG
};
static const char *const gpu_headers[NG] = {
    "op",        "kernel", "grid",     "block", "shared memory", "registers",
    "occupancy", "calls",  "GPU time", "rate",  "of device peak"};

static void dims_text(const unsigned *v, char *buf, size_t n)
{
    if (v[1] == 1 && v[2] == 1)
        snprintf(buf, n, "%u", v[0]);
    else
        snprintf(buf, n, "%ux%ux%u", v[0], v[1], v[2]);
}

struct gpu_peaks {
    double dram, fp32;
};

static void gpu_cell(const struct dsl_diag_row *r, int c, const struct gpu_peaks *pk, char *buf,
                     size_t n)
{
    const struct mt_diag *d = &r->first;
    bool mm = compute_bound(d->op);
    switch (c) {
    case G_OP: op_label(d, buf, n); break;
    case G_KERNEL: snprintf(buf, n, "%s", d->kernel); break;
    case G_GRID: dims_text(d->grid, buf, n); break;
    case G_BLOCK: dims_text(d->block, buf, n); break;
    case G_SHARED: dsl_diag_si(d->shared_bytes, "B", buf, n); break;
    case G_REGS: snprintf(buf, n, "%d", d->registers); break;
    case G_OCC: sig3(100 * d->occupancy, "%", buf, n); break;
    case G_CALLS: snprintf(buf, n, "%ld", r->count); break;
    case G_TIME: dsl_format_duration(r->gpu_ns * 1e-9, buf, n); break;
    case G_RATE: dsl_diag_rate(d->op, r->bytes, r->flops, r->gpu_ns, buf, n); break;
    default: /* the device's peaks are from its properties, not measured: an op past the DRAM
              * peak read its data from the GPU's caches */
        if (r->gpu_ns > 0)
            dsl_diag_share(mm, (mm ? r->flops : r->bytes) / r->gpu_ns, mm ? pk->fp32 : pk->dram,
                           r->bytes / (double)r->count, HUGE_VAL, buf, n);
        else
            snprintf(buf, n, "-");
    }
}

struct gpu_rows {
    const struct dsl_diag_row *rows[DSL_DIAG_MAX_ROWS]; /* the log's cuda rows */
    struct gpu_peaks pk;
};

static void gpu_grid_cell(const void *ctx, size_t row, size_t col, char *buf, size_t n)
{
    const struct gpu_rows *g = ctx;
    gpu_cell(g->rows[row], (int)col, &g->pk, buf, n);
}

/* The launches of the log's cuda rows, under the first table (nothing when there are none). */
static void gpu_table(const struct dsl_diag_log *log, struct render_buf *t, struct render_buf *h)
{
    struct gpu_rows g = {.pk = {0, 0}};
    size_t rows = 0;
    for (int i = 0; i < log->nrows; i++)
        if (log->rows[i].first.kernel) g.rows[rows++] = &log->rows[i];
    const char *name = "?";
    if (rows == 0 || !mt_cuda_peak(&g.pk.dram, &g.pk.fp32, &name)) return;
    char title[400];
    snprintf(title, sizeof title,
             "GPU launches on %s (peaks from its properties: DRAM %.0f GB/s, FP32 %.0f GFLOP/s; "
             "times from CUDA events):",
             name, g.pk.dram, g.pk.fp32);
    render_buf_printf(t, "\n%s\n", title);
    render_buf_puts(h, "<p>");
    render_html_escape(h, title, strlen(title));
    render_buf_puts(h, "</p>\n");
    /* the launch's resources go under its row in HTML, so that the table fits a notebook */
    static const enum render_col kind[NG] = {
        [G_OP] = RENDER_COL_TEXT,     [G_KERNEL] = RENDER_COL_TEXT,   [G_GRID] = RENDER_COL_TEXT,
        [G_BLOCK] = RENDER_COL_TEXT,  [G_SHARED] = RENDER_COL_DETAIL, [G_REGS] = RENDER_COL_DETAIL,
        [G_OCC] = RENDER_COL_DETAIL,  [G_CALLS] = RENDER_COL_NUMBER,  [G_TIME] = RENDER_COL_NUMBER,
        [G_RATE] = RENDER_COL_NUMBER, [G_PEAK] = RENDER_COL_WORDS};
    render_grid(t, h, "minitorch-diagnostics-gpu", NG, gpu_headers, kind, rows, gpu_grid_cell, &g);
}

void dsl_diag_gpu_summary(const struct dsl_diag_log *log, char *buf, size_t n)
{
    long kernels = 0;
    double ns = 0;
    for (int i = 0; i < log->nrows; i++)
        if (log->rows[i].first.kernel) kernels += log->rows[i].count, ns += log->rows[i].gpu_ns;
    buf[0] = '\0';
    if (kernels == 0 || n == 0) return;
    char t[32];
    dsl_format_duration(ns * 1e-9, t, sizeof t);
    size_t used = (size_t)snprintf(buf, n, "%ld kernel%s, %s on the GPU:", kernels,
                                   kernels == 1 ? "" : "s", t);
    for (int i = 0; i < log->nrows && used < n; i++) {
        const struct dsl_diag_row *r = &log->rows[i];
        const struct mt_diag *d = &r->first;
        if (!d->kernel) continue;
        char grid[40], block[40], shared[32], occ[16];
        dims_text(d->grid, grid, sizeof grid);
        dims_text(d->block, block, sizeof block);
        dsl_diag_si(d->shared_bytes, "B", shared, sizeof shared);
        sig3(100 * d->occupancy, "%", occ, sizeof occ);
        dsl_format_duration(r->gpu_ns * 1e-9, t, sizeof t);
        char times[24] = "";
        if (r->count > 1) snprintf(times, sizeof times, " x%ld", r->count);
        used += (size_t)snprintf(buf + used, n - used,
                                 "%s %s: %s%s (grid %s, block %s, %s shared, %d registers, "
                                 "occupancy %s) %s",
                                 i ? ";" : "", d->op, d->kernel, times, grid, block, shared,
                                 d->registers, occ, t);
    }
}

struct log_rows {
    const struct dsl_diag_log *log;
    struct peaks pk;
};

static void log_grid_cell(const void *ctx, size_t row, size_t col, char *buf, size_t n)
{
    const struct log_rows *l = ctx;
    cell_text(&l->log->rows[row], (int)col, &l->pk, buf, n);
}

/* Appends a paragraph to both forms. */
static void note(struct render_buf *t, struct render_buf *h, const char *text)
{
    render_buf_printf(t, "%s\n", text);
    render_buf_puts(h, "<p>");
    render_html_escape(h, text, strlen(text));
    render_buf_puts(h, "</p>\n");
}

/* ---- the machine's peaks, kept ------------------------------------------------------------
 * Measured once per machine, not once per session: a measurement is a fraction of a second on
 * every core, and on a shared machine it reads low when a neighbour is busy, so that the tables
 * of one machine would each hold the peaks against other numbers. The first measurement taken
 * while no other program ran is kept as a note in the user's cache folder (jit/cache.h), under
 * what it is the peak of (the processor, its CPUs, OpenMP's thread count, the host); a session on
 * the same machine reads it, and says when it was measured. A measurement taken while other
 * programs ran serves its session only, which says so. */

#define PEAK_NOTE "machine-peak"
#define PEAK_FORMAT "minitorch-kernel machine peak 1\n"

static struct {
    bool known, busy;
    double read, fma;
    time_t at; /* when measured */
} peak;

/* What the kept peaks are the peaks of, one line. */
static void machine_key(char *buf, size_t n)
{
    char model[128] = "unknown", host[64] = "unknown", line[256];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon) continue;
        snprintf(model, sizeof model, "%s", colon + 1 + (colon[1] == ' '));
        for (size_t k = strlen(model); k > 0 && isspace((unsigned char)model[k - 1]); k--)
            model[k - 1] = '\0';
        break;
    }
    if (f) fclose(f);
    if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    const char *omp = getenv("OMP_NUM_THREADS");
    snprintf(buf, n, "%s|cpus %ld|OMP_NUM_THREADS %s|host %s", model, sysconf(_SC_NPROCESSORS_ONLN),
             omp ? omp : "unset", host);
    for (char *p = buf; *p; p++)
        if (*p == '\n' || (unsigned char)*p < ' ') *p = ' ';
}

/* The kept peaks of this machine, where the note holds them: true with them in peak. */
static bool peak_read_note(const char *key)
{
    char *note = NULL, *why = NULL;
    struct jit_folder *dir = jit_cache_open(&note, &why);
    free(note);
    free(why);
    char text[1024], kept_key[512];
    if (!dir || jit_cache_read_note(dir, PEAK_NOTE, text, sizeof text) < 0) return false;
    double read, fma;
    long long at;
    const char *body = text + strlen(PEAK_FORMAT);
    if (strncmp(text, PEAK_FORMAT, strlen(PEAK_FORMAT)) != 0 ||
        sscanf(body, "machine %511[^\n]\nread %lf\nfma %lf\nmeasured %lld\n", kept_key, &read, &fma,
               &at) != 4 ||
        strcmp(kept_key, key) != 0 || !(read > 0 && read < 1e6) || !(fma >= 0 && fma < 1e8) ||
        at <= 0 || at > (long long)time(NULL) + 86400)
        return false;
    peak.read = read;
    peak.fma = fma;
    peak.at = (time_t)at;
    return true;
}

static void peak_write_note(const char *key)
{
    char *note = NULL, *why = NULL;
    struct jit_folder *dir = jit_cache_open(&note, &why);
    free(note);
    free(why);
    char text[1024];
    snprintf(text, sizeof text, PEAK_FORMAT "machine %s\nread %.17g\nfma %.17g\nmeasured %lld\n",
             key, peak.read, peak.fma, (long long)peak.at);
    if (dir) jit_cache_write_note(dir, PEAK_NOTE, text);
}

/* The peaks: kept, else measured now (and kept where no other program ran meanwhile). */
static void machine_peaks(struct peaks *pk, bool *busy)
{
    if (!peak.known) {
        char key[512];
        machine_key(key, sizeof key);
        if (!peak_read_note(key)) {
            struct dsl_busy_window w;
            struct dsl_busy v;
            dsl_busy_begin(&w);
            mt_machine_peak(&peak.read, &peak.fma);
            long cpus = sysconf(_SC_NPROCESSORS_ONLN); /* the probes run on every CPU */
            dsl_busy_end(&w, cpus > 0 ? (int)cpus : 1, &v);
            peak.busy = v.known && v.busy;
            peak.at = time(NULL);
            if (!peak.busy && peak.read > 0) peak_write_note(key);
        }
        peak.known = true;
    }
    pk->read = peak.read;
    pk->fma = peak.fma;
    pk->cache = dsl_diag_cache_bytes();
    *busy = peak.busy;
}

bool dsl_diag_read_peak(double *read_gbps)
{
    if (!peak.known) { /* a kept peak costs nothing to read; a measurement waits for a table */
        char key[512];
        machine_key(key, sizeof key);
        if (!peak_read_note(key)) return false;
        peak.known = true;
    }
    *read_gbps = peak.read;
    return true;
}

json_t *dsl_diag_bundle(const struct dsl_diag_log *log, bool *explained)
{
    struct log_rows l = {.log = log};
    bool peak_busy;
    machine_peaks(&l.pk, &peak_busy);
    struct render_buf t, h;
    render_buf_init(&t, 0);
    render_buf_init(&h, 0);
    render_buf_printf(&t, "%ld engine op%s\n", log->ops, log->ops == 1 ? "" : "s");
    /* In HTML the row keeps what a student compares between ops (shape, path, threads, time,
     * rate, share) and the rest goes on a line under it (the backend, which one statement
     * rarely changes, and the calls among it), so that the table fits an output area beside
     * an open side panel (under 600 pixels). */
    static const enum render_col kind[NC] = {
        [C_OP] = RENDER_COL_TEXT,       [C_BACKEND] = RENDER_COL_DETAIL,
        [C_SHAPES] = RENDER_COL_LIST,   [C_STRIDES] = RENDER_COL_DETAIL,
        [C_PATH] = RENDER_COL_WORDS,    [C_THREADS] = RENDER_COL_NUMBER,
        [C_LOOP] = RENDER_COL_DETAIL,   [C_VEC] = RENDER_COL_DETAIL,
        [C_CALLS] = RENDER_COL_DETAIL,  [C_BYTES] = RENDER_COL_DETAIL,
        [C_FLOPS] = RENDER_COL_DETAIL,  [C_TIME] = RENDER_COL_NUMBER,
        [C_SPREAD] = RENDER_COL_DETAIL, [C_RATE] = RENDER_COL_NUMBER,
        [C_PEAK] = RENDER_COL_WORDS};
    render_grid(&t, &h, "minitorch-diagnostics", NC, headers, kind, (size_t)log->nrows,
                log_grid_cell, &l);
    char text[512];
    if (log->dropped) {
        snprintf(text, sizeof text, "(%ld more ops in other shapes not shown)", log->dropped);
        note(&t, &h, text);
    }
    const bool again = *explained;
    *explained = true;
    if (again) {
        snprintf(text, sizeof text,
                 "time, spread and machine peak (%.0f GB/s read, %.0f GFLOP/s FMA): as under "
                 "this session's first table.%s",
                 l.pk.read, l.pk.fma,
                 peak_busy ? " The peaks were measured while other programs ran: they read low, "
                             "and the shares high."
                           : "");
        note(&t, &h, text);
    } else {
        note(&t, &h,
             "time: each call's median run, added up over the row's calls; spread: its fastest "
             "and slowest run. An op runs again while its runs total under 20 ms, 5 runs at "
             "most, so that a first call's one-time costs do not decide its time; a user "
             "function's op, a cuda op and an op written in place run once. %timeit repeats a "
             "whole statement.");
    }
    if (!again && (l.pk.read > 0 || l.pk.fma > 0)) { /* the last column's peaks, its limits */
        char cache[32] = "unknown";
        if (l.pk.cache > 0) dsl_diag_si(l.pk.cache, "B", cache, sizeof cache);
        char when[64] = "";
        struct tm tm;
        if (localtime_r(&peak.at, &tm)) strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
        snprintf(text, sizeof text,
                 "Machine peak (measured once on this machine, %s, all threads): reading main "
                 "memory %.0f GB/s, FMA %.0f GFLOP/s. No share above 100%% is given: \"data in "
                 "cache\" means one call's data fit in the largest cache (%s), which reads faster "
                 "than main memory; \"peak read low\" means the peak was measured while other "
                 "programs ran.%s",
                 when, l.pk.read, l.pk.fma, cache,
                 peak_busy ? " The peaks were measured while other programs ran: they read low, "
                             "and the shares high."
                           : "");
        note(&t, &h, text);
    }
    if (dsl_busy_note(&log->busy, text, sizeof text)) note(&t, &h, text);
    gpu_table(log, &t, &h);
    return render_table_bundle(&t, &h);
}
