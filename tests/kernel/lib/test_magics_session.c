/* test_magics_session.c — %time, %timeit, %diagnostics, %seed, %who, %reset, %lsmagic and
 * %plot_renderer. Timings are checked for their fixed format and plausibility, never for a
 * particular number; diagnostics rows against shapes, strides and byte counts worked out here. */
#include "kernel/tensor_helpers.h"

#include "lang/interp.h"
#include "lib/diagnostics.h"
#include "lib/magics.h"

#include "minitorch/minitorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NOWRAP "<span style=\"white-space:nowrap\">"

/* Parses "<number> <unit>" as printed by dsl_format_duration; seconds, or -1. */
static double parse_duration(const char *s, const char **end)
{
    char *e = NULL;
    double v = strtod(s, &e);
    if (e == s || *e != ' ') return -1;
    e++;
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{"ns", 1e-9}, {"\xc2\xb5s", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
    for (size_t i = 0; i < 4; i++) {
        size_t n = strlen(units[i].unit);
        if (strncmp(e, units[i].unit, n) == 0) {
            if (end) *end = e + n;
            return v * units[i].scale;
        }
    }
    return -1;
}

static void test_time(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "a = rand(300, 300)\nb = rand(300, 300)");
    /* one op: the wall time, then the op's rate */
    const char *out = stdout_of(s, "%time c = a @ b");
    CHECK(strncmp(out, "stdout:Wall time: ", 18) == 0);
    const char *rest = NULL;
    double t = parse_duration(out + 18, &rest);
    CHECK(t > 0 && t < 60);
    /* a single run, said so (a busy machine's note may follow on a line of its own) */
    CHECK(rest && strncmp(rest, " (one run; matmul on fast: ", 27) == 0 &&
          strstr(rest, " GFLOP/s)\n"));
    CHECK_STR(OK(s, "c.shape"), "(300, 300)"); /* the statement really ran */
    out = stdout_of(s, "%time d = a + b");
    CHECK(strstr(out, " (one run; add on fast: ") && strstr(out, " GB/s)\n"));
    /* several ops or none: the time alone */
    out = stdout_of(s, "%time x = 1 + 2");
    CHECK(strncmp(out, "stdout:Wall time: ", 18) == 0);
    parse_duration(out + 18, &rest);
    CHECK(strncmp(rest, " (one run)\n", 11) == 0 &&
          (rest[11] == '\0' || strncmp(rest + 11, "stdout:note: ", 13) == 0));
    /* as the last line, the statement's value is the result */
    struct outcome o = run_cell(s, "%time 6 * 7");
    CHECK(o.rc == 0 && o.has_result);
    CHECK_STR(o.result, "42");
    /* errors inside point into the cell */
    o = run_cell(s, "y = 0\n%time 1 / y");
    CHECK_STR(o.ename, "ZeroDivisionError");
    CHECK(strstr(o.tb, "Cell line 2, column 9:\n    %time 1 / y\n            ^") != NULL);
    FAILS(s, "%time", "UsageError");
    FAILS(s, "%time x = = 1", "SyntaxError");
    dsl_session_free(s);
}

static void test_timeit(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "n = 0\na = rand(100)");
    const char *out = stdout_of(s, "%timeit -n 5 -r 3 n += 1");
    CHECK_STR(OK(s, "n"), "15"); /* 3 runs of 5 loops, no calibration with -n */
    const char *rest = NULL;
    CHECK(strncmp(out, "stdout:", 7) == 0);
    double med = parse_duration(out + 7, &rest);
    CHECK(med > 0 && rest && strncmp(rest, " \xc2\xb1 ", 4) == 0);
    double mad = parse_duration(rest + 4, &rest);
    CHECK(mad >= 0);
    CHECK_STR(rest,
              " per loop (median \xc2\xb1 median absolute deviation of 3 runs, 5 loops each)\n");
    /* calibrated: at least 0.2 s per run, so loops * median >= about 0.2 s */
    out = stdout_of(s, "%timeit a + a");
    med = parse_duration(out + 7, &rest);
    const char *of = strstr(out, "of 7 runs, ");
    CHECK(of != NULL);
    long loops = of ? strtol(of + 11, NULL, 10) : 0;
    CHECK(loops >= 10 && med * (double)loops > 0.05); /* calibrated to >= 0.2 s a run */
    FAILS(s, "%timeit -n 0 a", "UsageError");
    FAILS(s, "%timeit", "UsageError");
    /* an option without its number, or one %timeit does not have, is not run as the statement
     * (`-n` was, and said NameError: name 'n') */
    FAILS(s, "%timeit -n", "UsageError");
    FAILS(s, "%timeit -r 2 -n", "UsageError");
    FAILS(s, "%timeit -q a", "UsageError");
    CHECK_STR(OK(s, "n"), "15"); /* nothing ran */
    FAILS(s, "%timeit 1 / 0", "ZeroDivisionError");
    dsl_session_free(s);
}

/* A display sink that keeps the last bundle, to look at its text/html. */
static json_t *last_bundle;
static void keep_display(void *ctx, json_t *data, const char *id, bool update)
{
    (void)ctx;
    (void)id;
    (void)update;
    json_decref(last_bundle);
    last_bundle = json_incref(data);
}

static const char *plain_of(void)
{
    return last_bundle ? json_string_value(json_object_get(last_bundle, "text/plain")) : "";
}

/* Cell `column` of body row `row` (0: the first) of the diagnostics HTML table, copied to out
 * (still HTML-escaped). False when there is no such column or row. */
/* The HTML table's row `row` (0: the first op): its <tr>, skipping the detail lines. */
static const char *html_row(const char *html, int row)
{
    const char *p = html ? strstr(html, "<tbody>") : NULL;
    for (int r = 0; p && r <= row; r++) do
            p = strstr(p + 1, "<tr>");
        while (p && strncmp(p, "<tr><td colspan", 15) == 0);
    return p;
}

/* A cell of the HTML table: a column of the row, or an item of the detail line under it. */
static bool html_cell(const char *html, int row, const char *column, char *out, size_t n)
{
    char th[96];
    snprintf(th, sizeof th, ">%s</th>", column);
    const char *h = html ? strstr(html, th) : NULL;
    const char *p = html_row(html, row), *end;
    if (!p) return false;
    if (!h) { /* a detail: "<span ...>column value</span>" on the line after the row */
        const char *line = strstr(p + 1, "<tr>");
        char item[128];
        snprintf(item, sizeof item, "<span style=\"white-space:nowrap\">%s ", column);
        if (!line || strncmp(line, "<tr><td colspan", 15) != 0) return false;
        const char *line_end = strstr(line, "</tr>");
        if (!(p = strstr(line, item)) || p > line_end || !(end = strstr(p, "</span>")))
            return false;
        p += strlen(item);
        snprintf(out, n, "%.*s", (int)(end - p), p);
        return true;
    }
    int k = 0; /* the column's index: the <th>s before it */
    for (const char *q = strstr(html, "<th"); q && q < h; q = strstr(q + 1, "<th"))
        if (q[3] == ' ' || q[3] == '>') k++; /* a <th> or <th style=...>, not <thead> */
    k--;                                     /* the column's own, which opens before its name */
    for (int c = 0; p && c <= k; c++) p = strstr(p + 1, "<td");
    if (!p || !(p = strchr(p, '>'))) return false;
    if (!(end = strstr(++p, "</td>"))) return false;
    snprintf(out, n, "%.*s", (int)(end - p), p);
    return true;
}

/* %diagnostics over many ops: one row per kind and shape, with its count; off; capped */
static void diagnostics_rows(struct dsl_session *s)
{
    struct dsl_output out = {.display = keep_display};
    json_t *res = NULL;
    struct dsl_error err = {0};
    char cell[128];
    const char *t, *html;
    /* a loop of identical ops is one row with its count */
    CHECK_INT(dsl_execute(s, "%diagnostics on", &out, &res, &err), 0);
    json_decref(last_bundle);
    last_bundle = NULL;
    CHECK_INT(dsl_execute(s, "for i in range(100):\n    c = a + a\nc.sum()", &out, &res, &err), 0);
    json_decref(res);
    t = plain_of();
    CHECK(strstr(t, "101 engine ops\n") == t);
    CHECK(strstr(t, "  100  ") != NULL); /* the add row's calls */
    CHECK(strstr(t, "sum  fast") != NULL);
    html = json_string_value(json_object_get(last_bundle, "text/html"));
    CHECK(html_cell(html, 0, "calls", cell, sizeof cell) && strcmp(cell, "100") == 0);
    /* totals over the calls: 100 x 4 x 36 bytes */
    CHECK(html_cell(html, 0, "bytes", cell, sizeof cell) && strcmp(cell, "14.4 kB") == 0);
    CHECK(html_cell(html, 1, "op", cell, sizeof cell) && strcmp(cell, "sum") == 0);
    CHECK(!html_cell(html, 2, "op", cell, sizeof cell)); /* two rows */
    /* 10,000 ops of two kinds: two rows, not 10,000 */
    json_decref(last_bundle);
    last_bundle = NULL;
    CHECK_INT(dsl_execute(s,
                          "x = zeros(5)\ny = zeros(6)\nfor i in range(5000):\n    x = x + 1\n"
                          "    y = y * 2",
                          &out, &res, &err),
              0);
    t = plain_of();
    CHECK(strstr(t, "10000 engine ops\n") == t);
    html = json_string_value(json_object_get(last_bundle, "text/html"));
    CHECK(html_cell(html, 0, "calls", cell, sizeof cell) && strcmp(cell, "5000") == 0);
    CHECK(html_cell(html, 1, "calls", cell, sizeof cell) && strcmp(cell, "5000") == 0);
    CHECK(html_cell(html, 1, "op", cell, sizeof cell) && strcmp(cell, "mul") == 0);
    CHECK(!html_cell(html, 2, "op", cell, sizeof cell));
    /* `on` with a comment is still the switch; the statement `on` would be a NameError */
    CHECK_INT(dsl_execute(s, "%diagnostics on   # keep it on", &out, &res, &err), 0);
    CHECK_INT(dsl_execute(s, "%diagnostics off", &out, &res, &err), 0);
    json_decref(last_bundle);
    last_bundle = NULL;
    CHECK_INT(dsl_execute(s, "c = a + a", &out, &res, &err), 0);
    CHECK(last_bundle == NULL); /* off: no table */
    /* many distinct shapes: capped, the rest counted */
    CHECK_INT(
        dsl_execute(s, "%diagnostics for i in range(1, 80): c = zeros(i) + 1", &out, &res, &err),
        0);
    CHECK(strstr(plain_of(), "79 engine ops\n") == plain_of());
    CHECK(strstr(plain_of(), "(15 more ops in other shapes not shown)") != NULL);
    json_decref(last_bundle);
    last_bundle = NULL;
}

static void test_diagnostics(void)
{
    struct dsl_session *s = dsl_session_new();
    struct dsl_output out = {.display = keep_display};
    json_t *res = NULL;
    struct dsl_error err = {0};
    CHECK_INT(
        dsl_execute(s, "a = rand(3, 4)\nb = rand(4)\n%diagnostics c = a + b", &out, &res, &err), 0);
    const char *t = plain_of();
    CHECK(strstr(t, "1 engine op\n") == t);
    /* (3,4) + (4,) broadcasts: b's stride is 0 on the broadcast dim inside the op, but the
     * strides shown are the tensors' own; 4 bytes x (12 + 4 + 12) elements = 112 bytes */
    CHECK(strstr(t, "add  fast") != NULL);
    CHECK(strstr(t, "(3, 4), (4,) -> (3, 4)") != NULL);
    CHECK(strstr(t, "(4, 1), (1,) -> (4, 1)") != NULL);
    CHECK(strstr(t, "broadcast") != NULL);
    CHECK(strstr(t, "of machine peak") != NULL && strstr(t, "% of ") != NULL);
    CHECK(strstr(t, "one loop") != NULL); /* 12 elements: no parallel loop */
    const char *html = json_string_value(json_object_get(last_bundle, "text/html"));
    /* the shapes may break between them, never inside one */
    CHECK(html && strstr(html, "<table") &&
          strstr(html, ">" NOWRAP "(3, 4),</span> " NOWRAP "(4,)</span> " NOWRAP
                       "-&gt; (3, 4)</span></td>"));
    /* bytes: each element read or written once, 4 x (12 + 4 + 12); one FLOP per output */
    char cell[128];
    CHECK(html_cell(html, 0, "op", cell, sizeof cell) && strcmp(cell, "add") == 0);
    CHECK(html_cell(html, 0, "bytes", cell, sizeof cell) && strcmp(cell, "112 B") == 0);
    CHECK(html_cell(html, 0, "FLOPs", cell, sizeof cell) && strcmp(cell, "12") == 0);
    CHECK(html_cell(html, 0, "calls", cell, sizeof cell) && strcmp(cell, "1") == 0);
    CHECK(html_cell(html, 0, "path", cell, sizeof cell) && strcmp(cell, "broadcast") == 0);
    CHECK(html_cell(html, 0, "threads", cell, sizeof cell) && strcmp(cell, "1") == 0);
    /* the share of the peak is the rate over the peak the note gives (rounded there) */
    double read_peak, fma_peak;
    mt_machine_peak(&read_peak, &fma_peak);
    char note[160];
    snprintf(note, sizeof note, "reading main memory %.0f GB/s, FMA %.0f GFLOP/s.", read_peak,
             fma_peak);
    CHECK(strstr(t, note) != NULL && strstr(html, note) != NULL);
    double rate = 0, share = 0, peak = 0;
    CHECK(html_cell(html, 0, "rate", cell, sizeof cell) && sscanf(cell, "%lf GB/s", &rate) == 1);
    CHECK(html_cell(html, 0, "of machine peak", cell, sizeof cell));
    static const char past[] = "&gt;100% of ";
    if (strncmp(cell, past, strlen(past)) == 0) {
        /* a rate above the peak gives no share but why: a peak measured while other programs
         * ran is lower than this tiny op's rate from cache, whose 112 bytes fit there */
        char *rest = NULL;
        peak = strtod(cell + strlen(past), &rest);
        CHECK(rest && strcmp(rest, " GB/s: data in cache") == 0);
        CHECK(fabs(peak - read_peak) <= 0.5 && rate >= 0.99 * read_peak); /* rate: 3 digits */
    } else {
        CHECK(sscanf(cell, "%lf%% of %lf GB/s", &share, &peak) == 2);
        CHECK(rate > 0 && fabs(peak - read_peak) <= 0.5);
        CHECK(fabs(share - 100 * rate / read_peak) <= 0.01 * share + 1e-3);
    }
    /* the tiny op ran again: its fastest and slowest of 2 to 5 runs, or one run when that took
     * the engine's whole budget of 20 ms (a busy machine) */
    CHECK(html_cell(html, 0, "spread", cell, sizeof cell));
    int runs = 0;
    const char *dash = strstr(cell, " \xe2\x80\x93 "), *comma = strrchr(cell, ',');
    if (strcmp(cell, "one run") == 0) {
        char time[64];
        CHECK(html_cell(html, 0, "time", time, sizeof time) && parse_duration(time, NULL) >= 0.02);
    } else {
        CHECK(dash && comma && sscanf(comma, ", %d runs", &runs) == 1 && runs >= 2 && runs <= 5);
        CHECK(dash && parse_duration(cell, NULL) <= parse_duration(dash + 5, NULL));
    }
    /* a big op runs a chunked parallel loop: its schedule is shown */
    CHECK_INT(dsl_execute(s, "%threads 2\nbig = zeros(1000, 1000)\n%diagnostics big2 = big + 1",
                          &out, &res, &err),
              0);
    CHECK(strstr(plain_of(), " chunks of ") != NULL);
    html = json_string_value(json_object_get(last_bundle, "text/html"));
    /* 4 x (10^6 + 1 + 10^6) bytes, 10^6 adds: SI prefixes with three digits */
    CHECK(html_cell(html, 0, "bytes", cell, sizeof cell) && strcmp(cell, "8.00 MB") == 0);
    CHECK(html_cell(html, 0, "FLOPs", cell, sizeof cell) && strcmp(cell, "1.00 M") == 0);
#ifdef MT_HAVE_OPENMP
    CHECK(html_cell(html, 0, "threads", cell, sizeof cell) && strcmp(cell, "2") == 0);
    CHECK(html_cell(html, 0, "loop", cell, sizeof cell) && strncmp(cell, "static, ", 8) == 0);
#else /* a build without OpenMP (the ThreadSanitizer build) runs every loop on one thread */
    CHECK(html_cell(html, 0, "threads", cell, sizeof cell) && strcmp(cell, "1") == 0);
    CHECK(html_cell(html, 0, "loop", cell, sizeof cell) && strncmp(cell, "serial, ", 8) == 0);
#endif
    diagnostics_rows(s);
    dsl_session_free(s);
}

static void test_seed_who_reset(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "%seed 5\nx = rand(3).tolist()\nseed(5)\ny = rand(3).tolist()");
    CHECK_STR(OK(s, "x == y"), "True");
    FAILS(s, "%seed five", "UsageError");
    OK(s, "t = zeros(2, 3, requires_grad=true)\ndef f(a, b=1):\n    return a\nname = 'ok'");
    const char *who = stdout_of(s, "%who");
    CHECK(strstr(who, "Variable  Type       Data/Info\n") != NULL);
    CHECK(strstr(who, "f         function   f(a, b=...)\n") != NULL);
    CHECK(strstr(who, "name      str        'ok'\n") != NULL);
    CHECK(strstr(who, "t         tensor     shape (2, 3), fast, requires_grad\n") != NULL);
    OK(s, "big = zeros(1000, 1000)");
    CHECK(mt_ctx_mem_used(s->ctx) >= 4000000);
    CHECK_STR(stdout_of(s, "%reset"), "stdout:Forgot 6 variables.\n");
    CHECK_INT((long)mt_ctx_mem_used(s->ctx), 0);
    FAILS(s, "big", "NameError");
    CHECK_STR(stdout_of(s, "%who"), "stdout:No variables are defined.\n");
    CHECK_STR(OK(s, "zeros(1).backend"), "'fast'"); /* settings stay */
    dsl_session_free(s);
}

static void test_lsmagic_and_renderer(void)
{
    struct dsl_session *s = dsl_session_new();
    const char *ls = stdout_of(s, "%lsmagic");
    const char *head = "stdout:Available line magics:\n%backend  %cuda  %cuda_matmul  ";
    CHECK(strncmp(ls, head, strlen(head)) == 0);
    for (size_t i = 0; i < dsl_magic_count; i++) {
        char want[64];
        snprintf(want, sizeof want, "\n  %s\n      ", dsl_magics[i].usage);
        CHECK(strstr(ls, want) != NULL);
    }
    /* no line is longer than a terminal's 79 columns, and every line break falls between
     * words: the lines under a usage, joined with spaces, are the help's first sentence */
    for (const char *p = ls; *p;) {
        size_t len = strcspn(p, "\n");
        CHECK(len <= 79 + strlen("stdout:"));
        p += len + (p[len] == '\n');
    }
    const char *diag = strstr(ls, "  %diagnostics [on|off|STMT]\n");
    CHECK(diag != NULL);
    if (diag) {
        char joined[1024] = "";
        const char *p = strchr(diag, '\n') + 1;
        while (strncmp(p, "      ", 6) == 0) {
            size_t len = strcspn(p, "\n");
            if (joined[0]) strcat(joined, " ");
            strncat(joined, p + 6, len - 6);
            p += len + 1;
        }
        const char *doc = NULL;
        for (size_t i = 0; i < dsl_magic_count; i++)
            if (strcmp(dsl_magics[i].name, "diagnostics") == 0) doc = dsl_magics[i].doc;
        CHECK(doc != NULL && strlen(joined) > 100 && strncmp(doc, joined, strlen(joined)) == 0 &&
              joined[strlen(joined) - 1] == '.');
    }
    CHECK_STR(dsl_plot_renderer(s), "auto");
    OK(s, "%plot_renderer svg");
    CHECK_STR(dsl_plot_renderer(s), "svg");
    CHECK_STR(stdout_of(s, "%plot_renderer"), "stdout:plot renderer: svg\n");
    FAILS(s, "%plot_renderer png", "ValueError");
    CHECK_STR(dsl_plot_renderer(s), "svg");
    /* the cuda matmul's kernel: a setting of the engine, kept without a GPU too */
    CHECK_STR(stdout_of(s, "%cuda_matmul"), "stdout:cuda matmul: auto\n");
    CHECK_STR(stdout_of(s, "%cuda_matmul tiled"), "stdout:cuda matmul: tiled\n");
    FAILS(s, "%cuda_matmul fast", "ValueError");
    FAILS(s, "%cuda_matmul naive tiled", "UsageError");
    CHECK_STR(mt_ctx_cuda_matmul(s->ctx), "tiled");
    dsl_session_free(s);
}

/* Magics taking words allow a trailing comment and refuse extra words; IPython's option
 * spellings work where they mean something here. */
static void test_word_arguments(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "%seed 7   # the lesson's seed\nx = rand(2).tolist()\nseed(7)\ny = rand(2).tolist()");
    CHECK_STR(OK(s, "x == y"), "True");
    FAILS(s, "%seed 7 8", "UsageError");
    FAILS(s, "%seed", "UsageError");
    OK(s, "%plot_renderer html  # Colab");
    CHECK_STR(dsl_plot_renderer(s), "html");
    FAILS(s, "%plot_renderer svg html", "UsageError");
    CHECK_STR(dsl_plot_renderer(s), "html");
    CHECK_STR(stdout_of(s, "%diagnostics  # which?"), "stdout:diagnostics: off\n");
    /* %who TYPE ... as IPython's: only those types */
    OK(s, "n = 3\nt = ones(2)\nu = zeros(1, 2)\ndef f(a):\n    return a");
    CHECK_STR(stdout_of(s, "%who tensor   # only tensors"),
              "stdout:Variable  Type       Data/Info\n"
              "t         tensor     shape (2,), fast\n"
              "u         tensor     shape (1, 2), fast\n");
    const char *who = stdout_of(s, "%who int function");
    CHECK(strstr(who, "n         int        3\n") && strstr(who, "f         function   f(a)\n"));
    CHECK(!strstr(who, "tensor"));
    CHECK_STR(stdout_of(s, "%who str"), "stdout:No variables match the types given.\n");
    FAILS(s, "%lsmagic all", "UsageError");
    /* %reset -f as typed from IPython habit; other words are refused and forget nothing */
    FAILS(s, "%reset -x", "UsageError");
    CHECK_STR(OK(s, "n"), "3");
    CHECK_STR(stdout_of(s, "%reset -f  # clean slate"), "stdout:Forgot 6 variables.\n");
    FAILS(s, "n", "NameError");
    /* a statement magic needs a statement, not only a comment */
    FAILS(s, "%time   # nothing", "UsageError");
    FAILS(s, "%timeit -n 3", "UsageError");
    FAILS(s, "%diagnostics off + 1", "NameError"); /* a statement, `off` a name */
    /* -n5 as well as -n 5 (getopt), with limits */
    OK(s, "k = 0");
    const char *out = stdout_of(s, "%timeit -n4 -r2 k += 1");
    CHECK_STR(OK(s, "k"), "8");
    CHECK(strstr(out, "of 2 runs, 4 loops each)\n") != NULL);
    FAILS(s, "%timeit -n4x k", "UsageError");
    FAILS(s, "%timeit -r 100001 k", "UsageError");
    CHECK_STR(OK(s, "k"), "8"); /* refused options ran nothing */
    dsl_session_free(s);
}

/* The fixed formats, checked against values worked out by hand. */
static void test_formats(void)
{
    static const struct {
        double seconds;
        const char *want;
    } durations[] = {{812e-9, "812 ns"},
                     {999.6e-9, "1.00 \xc2\xb5s"},
                     {1.234e-6, "1.23 \xc2\xb5s"},
                     {45.64e-3, "45.6 ms"},
                     {2.346, "2.35 s"},
                     {120.0, "120 s"}};
    char buf[64];
    for (size_t i = 0; i < sizeof durations / sizeof durations[0]; i++) {
        dsl_format_duration(durations[i].seconds, buf, sizeof buf);
        CHECK_STR(buf, durations[i].want);
    }
    /* bytes per ns is GB/s; matmul counts FLOPs per ns, GFLOP/s */
    dsl_diag_rate("add", 2.71, 0, 1000, buf, sizeof buf);
    CHECK_STR(buf, "0.00271 GB/s");
    dsl_diag_rate("add", 12345, 10, 1000, buf, sizeof buf);
    CHECK_STR(buf, "12.3 GB/s");
    dsl_diag_rate("matmul", 1e6, 1.5e11, 1e9, buf, sizeof buf);
    CHECK_STR(buf, "150 GFLOP/s");
    dsl_diag_rate("add", 100, 0, 0, buf, sizeof buf);
    CHECK_STR(buf, "-"); /* too fast for the clock: no rate */
}

int main(void)
{
    /* a cache folder of the test's own: the first table measures the machine's peaks (what
     * test_diagnostics compares with mt_machine_peak) rather than read those an earlier session
     * of the machine kept */
    char cache[] = "/tmp/mt-test-magics-XXXXXX", peak_note[128], jit[96], kernel[80];
    CHECK(mkdtemp(cache) != NULL);
    setenv("XDG_CACHE_HOME", cache, 1);
    RUN_TEST(test_time);
    RUN_TEST(test_timeit);
    RUN_TEST(test_diagnostics);
    RUN_TEST(test_seed_who_reset);
    RUN_TEST(test_lsmagic_and_renderer);
    RUN_TEST(test_word_arguments);
    RUN_TEST(test_formats);
    snprintf(kernel, sizeof kernel, "%s/minitorch-kernel", cache);
    snprintf(jit, sizeof jit, "%s/jit", kernel);
    snprintf(peak_note, sizeof peak_note, "%s/machine-peak", jit);
    unlink(peak_note); /* there unless the peaks were measured while other programs ran */
    CHECK(rmdir(jit) == 0 && rmdir(kernel) == 0 && rmdir(cache) == 0);
    return TEST_SUMMARY();
}
