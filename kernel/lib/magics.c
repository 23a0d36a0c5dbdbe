/* magics.c — the line magics and their table (see magics.h).
 *
 * %time, %timeit and %diagnostics run a statement given as their argument text. It is parsed
 * from a copy of the source in which everything but that text is blanked (newlines kept), so
 * positions, and the carets of errors inside it, are those of the cell. It runs in the scope
 * the magic is in.
 *
 * %backend and %threads change the session's engine context: the backend new tensors are made
 * on (existing tensors stay where they are, as with PyTorch devices) and the threads the fast
 * backend uses. Without an argument each shows the current setting. A rejected argument raises
 * the engine's own error (mt_backend_parse lists the names, mt_backend_check says why cuda is
 * unavailable) and leaves the setting as it was. */
#include "lib/magics.h"

#include "lang/ast.h"
#include "lang/interp.h"
#include "lang/packages.h"
#include "lib/diagnostics.h"
#include "lib/jit.h"
#include "lib/tensor_methods.h"

#include "minitorch/minitorch.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- argument words --------------------------------------------------------------------- */

#define MAX_WORDS 8
#define MAX_WORD 64

/* What a magic is handed (lang/library.h): its argument text (trimmed; "" when none), which
 * starts at byte args_pos of the source being run (SIZE_MAX when unknown); the slot for the
 * value of a statement it runs (NULL unless the magic is the cell's last statement); and, for
 * a magic whose row says `words`, the words of the text. */
struct dsl_magic_call {
    const struct dsl_magic *m;
    const char *args;
    size_t args_pos;
    struct dsl_value *result;
    char words[MAX_WORDS][MAX_WORD];
    int n; /* words */
};

/* Splits args at whitespace into at most MAX_WORDS words of under MAX_WORD bytes; a '#' starts
 * a comment. Returns the word count, or -1 (after raising UsageError) when there are too many
 * or too long. */
static int split_words(struct dsl_interp *in, const char *magic, const char *args,
                       char words[][MAX_WORD])
{
    int n = 0;
    const char *p = args;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\r') p++;
        if (!*p || *p == '#') break;
        const char *w = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\f' && *p != '\r') p++;
        size_t len = (size_t)(p - w);
        if (n == MAX_WORDS || len >= MAX_WORD)
            return dsl_raise(in, "UsageError", "%%%s: too many or too long arguments", magic);
        memcpy(words[n], w, len);
        words[n][len] = '\0';
        n++;
    }
    return n;
}

static void say(struct dsl_interp *in, const char *text) { dsl_emit(in, "stdout", text); }

/* Raises UsageError "%NAME WHAT: USAGE" for the magic called name; returns -1. */
static int usage_error(struct dsl_interp *in, const char *name, const char *what)
{
    return dsl_raise(in, "UsageError", "%%%s %s: %s", name, what, dsl_magic_find(name)->usage);
}

/* True when args is the one word `w`, perhaps followed by a comment: `%diagnostics on  # why`
 * (a magic that also takes a statement must not mistake the statement `on + 1` for it). */
static bool is_word(const char *args, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(args, w, n) != 0) return false;
    const char *p = args + n;
    while (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\r') p++;
    return !*p || *p == '#';
}

/* ---- the magics ------------------------------------------------------------------------- */

static int magic_backend(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    struct mt_ctx *ctx = in->session->ctx;
    if (c->n == 0) {
        char line[64];
        snprintf(line, sizeof line, "backend: %s\n", mt_backend_name(mt_ctx_backend(ctx)));
        say(in, line);
        return 0;
    }
    if (c->n > 1) return usage_error(in, "backend", "takes one backend name");
    enum mt_backend b;
    enum mt_status st = mt_backend_parse(ctx, c->words[0], &b);
    if (!st) st = mt_backend_check(ctx, b);
    if (!st) st = mt_ctx_set_backend(ctx, b);
    return st ? dsl_engine_raise(in, st) : 0;
}

/* The CPUs this process may run on (its affinity mask, as omp_get_num_procs counts them). */
static int usable_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int magic_threads(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    struct mt_ctx *ctx = in->session->ctx;
    if (c->n == 0) {
        char line[64];
        snprintf(line, sizeof line, "threads: %d\n", mt_ctx_threads(ctx));
        say(in, line);
        return 0;
    }
    if (c->n > 1) return usage_error(in, "threads", "takes one number");
    char *end = NULL;
    errno = 0;
    long v = strtol(c->words[0], &end, 10);
    if (end == c->words[0] || *end || errno == ERANGE || v < -1000000 || v > 1000000)
        return dsl_raise(in, "ValueError",
                         "%%threads: expected a whole number of threads, not '%s'", c->words[0]);
    /* more threads than CPUs only take turns on them, and every op waits for the last turn */
    const int cpus = usable_cpus();
    if (v > cpus && v <= 1024) {
        char line[160];
        snprintf(line, sizeof line, "threads: %d (not %ld: this process may run on %d CPU%s)\n",
                 cpus, v, cpus, cpus == 1 ? "" : "s");
        say(in, line);
        v = cpus;
    }
    enum mt_status st = mt_ctx_set_threads(ctx, (int)v);
    return st ? dsl_engine_raise(in, st) : 0;
}

static int magic_cuda_matmul(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    struct mt_ctx *ctx = in->session->ctx;
    if (c->n > 1) return usage_error(in, "cuda_matmul", "takes one kernel name");
    if (c->n == 1 && mt_ctx_set_cuda_matmul(ctx, c->words[0]) != MT_OK)
        return dsl_raise(in, "ValueError", "%%cuda_matmul: %s", mt_ctx_error(ctx));
    char line[64];
    snprintf(line, sizeof line, "cuda matmul: %s\n", mt_ctx_cuda_matmul(ctx));
    say(in, line);
    return 0;
}

/* %cuda [simulate|auto]: where cuda.jit kernels run. */
static int magic_cuda(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    if (c->n > 1 ||
        (c->n == 1 && strcmp(c->words[0], "simulate") != 0 && strcmp(c->words[0], "auto") != 0))
        return usage_error(in, "cuda", "takes simulate or auto");
    if (c->n == 1) dsl_cuda_set_simulate(c->words[0][0] == 's');
    struct mt_ctx *ctx = in->session->ctx;
    bool sim = dsl_cuda_simulating(ctx);
    const char *gpu = NULL;
    double gbps, gflops;
    bool has_gpu = mt_cuda_peak(&gbps, &gflops, &gpu) && mt_cuda_runs_source();
    char line[320];
    if (!sim)
        snprintf(line, sizeof line, "cuda.jit kernels run on the GPU (%s)\n", gpu);
    else if (has_gpu)
        snprintf(line, sizeof line,
                 "cuda.jit kernels run in the kernel's CUDA simulator (%%cuda auto: on the %s)\n",
                 gpu);
    else
        snprintf(line, sizeof line,
                 "cuda.jit kernels run in the kernel's CUDA simulator (no GPU here)\n");
    say(in, line);
    return 0;
}

/* ---- statements as arguments ------------------------------------------------------------- */

/* Parses the statement text `stmt` (at byte `pos` of in->src, SIZE_MAX when unknown) into a
 * code object, raising SyntaxError (located in the cell) or UsageError when it is empty. */
static struct dsl_code *parse_statement(struct dsl_interp *in, const char *magic, const char *stmt,
                                        size_t pos)
{
    size_t n = strlen(stmt);
    if (n == 0) {
        usage_error(in, magic, "needs a statement");
        return NULL;
    }
    bool aligned = pos != SIZE_MAX && pos + n <= in->src_len && memcmp(in->src + pos, stmt, n) == 0;
    size_t len = aligned ? in->src_len : n;
    char *text = malloc(len + 1);
    if (!text) {
        dsl_raise_status(in, DSL_V_NOMEM);
        return NULL;
    }
    if (aligned)
        for (size_t i = 0; i < len; i++)
            text[i] = i >= pos && i < pos + n ? in->src[i] : in->src[i] == '\n' ? '\n' : ' ';
    else
        memcpy(text, stmt, n);
    text[len] = '\0';
    struct dsl_syntax_error se;
    struct dsl_code *code = dsl_code_parse(text, len, &se);
    free(text);
    if (code) dsl_package_share(in, code); /* in a package's file, its globals */
    if (!code) {
        if (aligned)
            dsl_raise_at(in, se.pos, se.ename ? se.ename : "SyntaxError", "%s", se.msg);
        else
            dsl_raise(in, se.ename ? se.ename : "SyntaxError", "%s", se.msg);
    } else if (code->ast->nkids == 0) { /* only a comment: nothing to time */
        dsl_code_release(code);
        usage_error(in, magic, "needs a statement");
        return NULL;
    }
    return code;
}

/* Runs a parsed statement in the running scope; its value to *value when non-NULL. */
static int run_statement(struct dsl_interp *in, struct dsl_code *code, struct dsl_value *value)
{
    struct dsl_code *outer = in->code;
    in->code = code; /* a def inside keeps this code alive */
    int r = dsl_run_block(in, code->ast, value);
    in->code = outer;
    return r;
}

/* ---- %time, %timeit, %diagnostics --------------------------------------------------------- */

/* %time and %diagnostics STMT: parses the call's statement and runs it in the running scope,
 * its value to c->result, with a log of its ops and its wall time in *seconds. Returns the log
 * (stopped; free it) and the statement's 0 or -1 in *r, or NULL after raising (no statement,
 * no memory). */
static struct dsl_diag_log *run_logged(struct dsl_interp *in, const struct dsl_magic_call *c,
                                       double *seconds, int *r)
{
    struct dsl_code *code = parse_statement(in, c->m->name, c->args, c->args_pos);
    if (!code) return NULL;
    struct dsl_diag_log *log = dsl_diag_open(in->session->ctx);
    if (!log) {
        dsl_code_release(code);
        dsl_raise_status(in, DSL_V_NOMEM);
        return NULL;
    }
    double t0 = mt_now_s();
    *r = run_statement(in, code, c->result);
    if (*r == 0) *r = dsl_engine_wait(in); /* the GPU's work counts in the time */
    *seconds = mt_now_s() - t0;
    dsl_diag_stop(log);
    dsl_code_release(code);
    return log;
}

static int magic_time(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    double t;
    int r;
    struct dsl_diag_log *log = run_logged(in, c, &t, &r);
    if (!log) return -1;
    if (r == 0) {
        char dur[32], line[256];
        dsl_format_duration(t, dur, sizeof dur);
        /* one run, as IPython's %time: the statement's effects happen once */
        int k = snprintf(line, sizeof line, "Wall time: %s (one run", dur);
        if (log->ops == 1) { /* one engine op: how fast it went */
            const struct dsl_diag_row *row = &log->rows[0];
            char rate[48];
            dsl_diag_rate(row->first.op, row->bytes, row->flops, row->ns, rate, sizeof rate);
            snprintf(line + k, sizeof line - (size_t)k, "; %s on %s: %s", row->first.op,
                     mt_backend_name(row->first.backend), rate);
        }
        strncat(line, ")\n", sizeof line - strlen(line) - 1);
        say(in, line);
        dsl_busy_say(in, &log->busy);
    }
    free(log);
    return r;
}

/* Runs per %timeit at most: the times are kept (8 bytes each) to take their median. */
#define TIMEIT_MAX_RUNS 100000

/* `-n N` / `-r R` options before the statement, as IPython's getopt takes them: "-n 5" or
 * "-n5". Advances *args past them. */
static int timeit_options(struct dsl_interp *in, const char **args, long *loops, long *runs)
{
    const char *p = *args;
    while (p[0] == '-' && (p[1] == 'n' || p[1] == 'r') &&
           (p[2] == ' ' || p[2] == '\t' || p[2] == '\0' || (p[2] >= '0' && p[2] <= '9'))) {
        char opt = p[1];
        const char *num = p + 2;
        while (*num == ' ' || *num == '\t') num++;
        char *end = NULL;
        errno = 0;
        long v = strtol(num, &end, 10);
        long most = opt == 'n' ? 1000000000L : TIMEIT_MAX_RUNS;
        if (end == num || (*end && *end != ' ' && *end != '\t') || errno == ERANGE || v < 1 ||
            v > most)
            return dsl_raise(in, "UsageError", "%%timeit -%c needs a whole number from 1 to %ld",
                             opt, most);
        *(opt == 'n' ? loops : runs) = v;
        p = end;
        while (*p == ' ' || *p == '\t') p++;
    }
    /* another option letter is refused, as IPython's getopt does, rather than run as a
     * statement (`%timeit -q x` said NameError: name 'q') */
    if (p[0] == '-' && ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z')) &&
        (p[2] == ' ' || p[2] == '\t' || p[2] == '\0'))
        return dsl_raise(in, "UsageError", "%%timeit: option -%c not recognized: %s", p[1],
                         dsl_magic_find("timeit")->usage);
    *args = p;
    return 0;
}

/* One run: `loops` executions; the seconds per execution in *per. */
static int timeit_run(struct dsl_interp *in, struct dsl_code *code, long loops, size_t pos,
                      double *per)
{
    double t0 = mt_now_s();
    for (long i = 0; i < loops; i++) {
        if (dsl_check_cancel(in, pos) != 0 || run_statement(in, code, NULL) != 0) return -1;
    }
    if (dsl_engine_wait(in) != 0) return -1; /* the GPU's work counts in the time */
    *per = (mt_now_s() - t0) / (double)loops;
    return 0;
}

static int magic_timeit(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    const char *args = c->args, *stmt = args;
    size_t args_pos = c->args_pos;
    long loops = 0, runs = 7;
    if (timeit_options(in, &stmt, &loops, &runs) != 0) return -1;
    size_t pos = args_pos == SIZE_MAX ? SIZE_MAX : args_pos + (size_t)(stmt - args);
    struct dsl_code *code = parse_statement(in, "timeit", stmt, pos);
    if (!code) return -1;
    double *t = malloc((size_t)runs * sizeof *t);
    int r = -1;
    if (!t) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    struct dsl_busy_window window;
    dsl_busy_begin(&window);
    /* like IPython: 1, 10, 100 ... executions until one run takes at least 0.2 s */
    if (!loops) {
        for (loops = 1;; loops *= 10) {
            double per;
            if (timeit_run(in, code, loops, pos, &per) != 0) goto done;
            if (per * (double)loops >= 0.2 || loops >= 1000000000L / 10) break;
        }
    }
    for (long k = 0; k < runs; k++)
        if (timeit_run(in, code, loops, pos, &t[k]) != 0) goto done;
    double med = dsl_median(t, (size_t)runs);
    for (long k = 0; k < runs; k++) t[k] = fabs(t[k] - med);
    double mad = dsl_median(t, (size_t)runs);
    char a[32], b[32], line[256];
    dsl_format_duration(med, a, sizeof a);
    dsl_format_duration(mad, b, sizeof b);
    snprintf(line, sizeof line,
             "%s \xc2\xb1 %s per loop (median \xc2\xb1 median absolute deviation of %ld run%s, "
             "%ld loop%s each)\n",
             a, b, runs, runs == 1 ? "" : "s", loops, loops == 1 ? "" : "s");
    say(in, line);
    struct dsl_busy busy;
    dsl_busy_end(&window, mt_ctx_threads(in->session->ctx), &busy);
    dsl_busy_say(in, &busy);
    r = 0;
done:
    free(t);
    dsl_code_release(code);
    return r;
}

static int magic_diagnostics(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    const char *args = c->args;
    if (is_word(args, "on") || is_word(args, "off")) {
        in->session->diagnostics = args[1] == 'n';
        say(in, in->session->diagnostics ? "diagnostics: on\n" : "diagnostics: off\n");
        return 0;
    }
    if (!args[0] || args[0] == '#') {
        say(in, in->session->diagnostics ? "diagnostics: on\n" : "diagnostics: off\n");
        return 0;
    }
    double t;
    int r;
    long launched = dsl_cuda_launches();
    struct dsl_diag_log *log = run_logged(in, c, &t, &r);
    if (!log) return -1;
    if (r == 0 && log->ops == 0 && dsl_cuda_launches() > launched) {
        /* only cuda.jit kernels ran: their reports, not an empty table of engine ops */
    } else if (r == 0) {
        json_t *table = dsl_diag_bundle(log, &in->session->diag_explained);
        if (!table)
            r = dsl_raise_status(in, DSL_V_NOMEM);
        else
            dsl_display(in, table, NULL, false);
        json_decref(table);
    }
    if (r == 0) dsl_cuda_report_since(in, launched);
    free(log);
    return r;
}

/* ---- session magics ----------------------------------------------------------------------- */

static int magic_seed(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    char *end = NULL;
    errno = 0;
    long long v = c->n == 1 ? strtoll(c->words[0], &end, 10) : 0;
    if (c->n != 1 || end == c->words[0] || *end || errno == ERANGE)
        return usage_error(in, "seed", "takes one whole number");
    struct dsl_args a = {0};
    a.slot[0] = dsl_int((int64_t)v);
    a.has[0] = true;
    struct dsl_value ret;
    if (dsl_bi_seed(in, &a, &ret) != 0) return -1; /* the same as seed(N) */
    dsl_value_release(ret);
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The name column of %who: a longer name is cut (a 1 MB name padded every row to 1 MB). */
#define WHO_NAME_MAX 40

static int magic_who(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    /* `%who tensor function`: only variables of those types, as IPython's %who TYPE */
    int ntypes = c->n;
    const char(*types)[MAX_WORD] = c->words;
    struct dsl_session *s = in->session;
    if (s->count == 0) {
        say(in, "No variables are defined.\n");
        return 0;
    }
    const char **names = malloc(s->count * sizeof *names);
    if (!names) return dsl_raise_status(in, DSL_V_NOMEM);
    size_t n = 0, wn = 8;
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->vars[i].name) continue;
        bool wanted = ntypes == 0;
        for (int k = 0; k < ntypes && !wanted; k++)
            wanted = strcmp(types[k], dsl_type_name(s->vars[i].value)) == 0;
        if (!wanted) continue;
        names[n++] = s->vars[i].name;
        if (strlen(s->vars[i].name) > wn) wn = strlen(s->vars[i].name);
        if (wn > WHO_NAME_MAX) wn = WHO_NAME_MAX;
    }
    if (n == 0) {
        free(names);
        say(in, "No variables match the types given.\n");
        return 0;
    }
    qsort(names, n, sizeof *names, cmp_name);
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    render_buf_printf(&b, "%-*s  %-9s  %s\n", (int)wn, "Variable", "Type", "Data/Info");
    for (size_t i = 0; i < n; i++) {
        struct dsl_value v = *dsl_session_lookup(s, names[i]);
        const size_t full = strlen(names[i]);
        size_t cut = full;
        if (cut > WHO_NAME_MAX) { /* cut, at a character's start, and marked */
            cut = WHO_NAME_MAX - 3;
            while (cut > 0 && ((unsigned char)names[i][cut] & 0xC0) == 0x80) cut--;
        }
        render_buf_append(&b, names[i], cut);
        if (cut < full) render_buf_puts(&b, "...");
        for (size_t w = cut < full ? cut + 3 : cut; w < wn; w++) render_buf_putc(&b, ' ');
        render_buf_printf(&b, "  %-9s  ", dsl_type_name(v));
        if (v.kind == DSL_TENSOR) {
            char sh[160];
            render_buf_printf(
                &b, "shape %s, %s%s", mt_shape_str(v.as.t->ndim, v.as.t->shape, sh, sizeof sh),
                mt_backend_name(v.as.t->backend), v.as.t->requires_grad ? ", requires_grad" : "");
        } else if (v.kind == DSL_FUNCTION) {
            dsl_function_signature(&b, v.as.fn_user, "", "");
        } else { /* the repr, cut to one short line */
            struct render_buf r;
            render_buf_init(&r, 4096);
            int st = dsl_value_repr(&r, v);
            /* a repr that raises: IPython's %whos shows a stand-in with the object's address */
            if (dsl_text_error_drop(in, st)) {
                render_buf_free(&r);
                render_buf_printf(&r, "<object with id %ju (repr() failed)>",
                                  (uintmax_t)(uintptr_t)dsl_value_refs(v));
            } else if (st == DSL_V_RAISED) { /* an interrupt goes on */
                render_buf_free(&r);
                render_buf_free(&b);
                free(names);
                return -1;
            }
            const char *t = render_buf_str(&r);
            size_t len = strcspn(t, "\n");
            if (len > 60) len = 57;
            render_buf_append(&b, t, len);
            if (len < strlen(t)) render_buf_puts(&b, "...");
            render_buf_free(&r);
        }
        render_buf_putc(&b, '\n');
    }
    free(names);
    if (b.nomem || b.over) {
        render_buf_free(&b);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    say(in, render_buf_str(&b));
    render_buf_free(&b);
    return 0;
}

static int magic_reset(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    const char *args = c->args;
    /* IPython asks "Once deleted, variables cannot be recovered. Proceed (y/[n])?" unless -f;
     * nothing is asked here, and -f, typed from habit, is accepted */
    if (!is_word(args, "-f") && args[0] && args[0] != '#')
        return usage_error(in, "reset", "takes no arguments but -f");
    if (dsl_package_globals(in)) /* it would empty the running file */
        return dsl_raise(in, "UsageError", "%%reset in a file of the package: run it in a cell");
    size_t n = in->session->count, files = in->session->npackages;
    dsl_session_reset(in->session);
    mt_ctx_trim(in->session->ctx); /* freed tensors' memory goes back to the system too */
    if (in->out->reset) in->out->reset(in->out->ctx);
    char line[128];
    if (files)
        snprintf(line, sizeof line, "Forgot %zu variable%s and %zu file%s of the package.\n", n,
                 n == 1 ? "" : "s", files, files == 1 ? "" : "s");
    else
        snprintf(line, sizeof line, "Forgot %zu variable%s.\n", n, n == 1 ? "" : "s");
    say(in, line);
    return 0;
}

/* A size as %memory takes it: a number and a unit, "512MiB", "2GiB", "1.5GB", "100000" (bytes);
 * K, M, G, T alone or with "iB" are powers of 1024, with "B" powers of 1000 (case is ignored).
 * 0 when it is none of these or not between 1 byte and 2^62. */
static size_t parse_size(const char *w)
{
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{"", 1.0},     {"b", 1.0},      {"k", 0x1p10},   {"kib", 0x1p10}, {"kb", 1e3},
                 {"m", 0x1p20}, {"mib", 0x1p20}, {"mb", 1e6},     {"g", 0x1p30},   {"gib", 0x1p30},
                 {"gb", 1e9},   {"t", 0x1p40},   {"tib", 0x1p40}, {"tb", 1e12}};
    char *end = NULL;
    errno = 0;
    double v = strtod(w, &end);
    if (end == w || errno || !(v > 0) || (w[0] != '.' && (w[0] < '0' || w[0] > '9'))) return 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(end, units[i].unit) != 0) continue;
        double bytes = v * units[i].scale;
        return bytes >= 1.0 && bytes <= 0x1p62 ? (size_t)bytes : 0;
    }
    return 0;
}

static void memory_line(struct render_buf *b, const char *what, size_t used, size_t limit,
                        const char *note)
{
    char u[32], l[32];
    dsl_format_bytes(used, u, sizeof u);
    dsl_format_bytes(limit, l, sizeof l);
    render_buf_printf(b, "%s: %s in use, limit %s%s\n", what, u, l, note);
}

static int magic_memory(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    struct mt_ctx *ctx = in->session->ctx;
    if (c->n == 0) {
        struct render_buf b;
        render_buf_init(&b, 0);
        memory_line(&b, "tensors", mt_ctx_mem_used(ctx), mt_ctx_mem_limit(ctx), "");
        memory_line(&b, "values (strings, lists, tuples, dicts)", dsl_mem_used(), dsl_mem_limit(),
                    dsl_mem_limit_is_default() ? " (half the tensors')" : "");
        if (b.nomem) {
            render_buf_free(&b);
            return dsl_raise_status(in, DSL_V_NOMEM);
        }
        say(in, render_buf_str(&b));
        render_buf_free(&b);
        return 0;
    }
    bool tensors = strcmp(c->words[0], "tensors") == 0;
    if (c->n != 2 || (!tensors && strcmp(c->words[0], "values") != 0))
        return usage_error(in, "memory", "takes `values` or `tensors` and a size");
    size_t bytes = 0;
    if (strcmp(c->words[1], "default") != 0 && !(bytes = parse_size(c->words[1])))
        return dsl_raise(in, "ValueError",
                         "%%memory: '%s' is not a size; write one as 512MiB, 2GiB or 1.5GB, or "
                         "default",
                         c->words[1]);
    if (tensors) { /* and the values' default, half of it, follows */
        mt_ctx_set_mem_limit(ctx, bytes);
        dsl_mem_set_default(mt_ctx_mem_limit(ctx) / 2);
    } else {
        dsl_mem_set_limit(bytes);
    }
    return 0;
}

/* The width %lsmagic's text keeps to: a terminal's, which fits every notebook's output area. */
#define LSMAGIC_WIDTH 79

/* IPython's layout: "Available line magics:" and the names, then (as help() here tells more
 * than IPython's list) each magic's usage and the first sentence of its help, every line
 * broken between words. */
static int magic_lsmagic(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    if (c->n > 0) return usage_error(in, "lsmagic", "takes no arguments");
    struct render_buf names, b;
    render_buf_init(&names, 0);
    render_buf_init(&b, 0);
    for (size_t i = 0; i < dsl_magic_count; i++)
        render_buf_printf(&names, "%s%%%s", i ? "  " : "", dsl_magics[i].name);
    render_buf_puts(&b, "Available line magics:\n");
    render_wrap(&b, render_buf_str(&names), names.len, 0, LSMAGIC_WIDTH);
    render_buf_puts(&b, "\nIn brief (help(\"%name\") tells more):\n");
    for (size_t i = 0; i < dsl_magic_count; i++) {
        const char *doc = dsl_magics[i].doc;
        const char *stop = strstr(doc, ". "); /* the first sentence */
        size_t first = stop ? (size_t)(stop - doc) + 1 : strlen(doc);
        render_buf_printf(&b, "  %s\n", dsl_magics[i].usage);
        render_wrap(&b, doc, first, 6, LSMAGIC_WIDTH);
    }
    say(in, render_buf_str(&b));
    render_buf_free(&names);
    render_buf_free(&b);
    return 0;
}

static const char *const renderers[] = {"auto", "vegalite", "html", "svg"};

const char *dsl_plot_renderer(const struct dsl_session *s) { return s->plot_renderer; }

static int magic_plot_renderer(struct dsl_interp *in, const struct dsl_magic_call *c)
{
    if (c->n == 0) {
        char line[64];
        snprintf(line, sizeof line, "plot renderer: %s\n", in->session->plot_renderer);
        say(in, line);
        return 0;
    }
    if (c->n > 1) return usage_error(in, "plot_renderer", "takes one name");
    for (size_t i = 0; i < sizeof renderers / sizeof renderers[0]; i++)
        if (strcmp(c->words[0], renderers[i]) == 0) {
            in->session->plot_renderer = renderers[i];
            return 0;
        }
    return dsl_raise(in, "ValueError",
                     "%%plot_renderer: unknown renderer '%s'; choose auto, vegalite, html or svg",
                     c->words[0]);
}

/* ---- the table -------------------------------------------------------------------------- */

const struct dsl_magic dsl_magics[] = {
    {"backend", "%backend [simple|fast|cuda|student]", magic_backend,
     "Chooses the backend new tensors are made on: simple (serial reference loops), fast "
     "(threads and SIMD), cuda (the GPU, when this machine has one) or student (your own ops, "
     "once minitorch.TensorBackend(YourOps) has made it). Tensors made before keep their "
     "backend; x.to(\"simple\") moves one. Without a name, shows the current backend.",
     true},
    {"cuda", "%cuda [simulate|auto]", magic_cuda,
     "Where cuda.jit kernels run: auto (the default) on the GPU when there is one, else in the "
     "kernel's CUDA simulator; simulate in the simulator always (its checks: out-of-range "
     "indices, shared-memory races, barriers not every thread reaches, reads of shared memory "
     "nobody wrote; its counts of memory transactions and bank conflicts in %diagnostics). "
     "Without an argument, says where they run.",
     true},
    {"cuda_matmul", "%cuda_matmul [auto|naive|tiled|register]", magic_cuda_matmul,
     "Chooses the kernel of matmul on the cuda backend, to compare Task 3.4's progression: "
     "naive (a thread per output), tiled (the course's 32 x 32 shared-memory tiles), register "
     "(128 x 128 tiles, 8 x 8 outputs per thread) or auto (the default: the fastest for the "
     "shape). %diagnostics shows which kernel ran. Without a name, shows the current one.",
     true},
    {"diagnostics", "%diagnostics [on|off|STMT]", magic_diagnostics,
     "Shows what the engine did: every op a statement ran, with its backend, input and output "
     "shapes and strides, the path taken (contiguous, strided, broadcast, packed gemm), threads "
     "and the parallel loop (schedule, chunks), vector width, calls, bytes moved, FLOPs, time, "
     "GB/s (GFLOP/s for matmul) and the share of this machine's peak (a short op runs up to 5 "
     "times: its median run, and the spread). Identical ops share a row. A note says when other "
     "programs took the CPU meanwhile. "
     "`%diagnostics STMT` runs STMT and shows its table; `on` shows one after every cell until "
     "`off`; without an argument, says which.",
     false},
    {"lsmagic", "%lsmagic", magic_lsmagic, "Lists the line magics. help(\"%name\") tells more.",
     true},
    {"memory", "%memory [values|tensors SIZE]", magic_memory,
     "Shows the memory the session's tensors and its other values (strings, lists, tuples, "
     "dicts) hold, and the limit of each: past it, making one more is a MemoryError. Tensors "
     "may take half of this machine's memory, the other values half as much as tensors. "
     "`%memory values 2GiB` sets the values' limit, `%memory tensors 8GiB` the tensors' (and "
     "the values' default with it); `default` goes back to the default. Sizes: 512MiB, 2GiB, "
     "1.5GB, or a number of bytes.",
     true},
    {"plot_renderer", "%plot_renderer [auto|vegalite|html|svg]", magic_plot_renderer,
     "Chooses how charts are sent: auto (Vega-Lite and an SVG, the front end picks), vegalite, "
     "html or svg (for front ends without Vega-Lite, such as some Colab setups). Without an "
     "argument, shows the current choice.",
     true},
    {"reset", "%reset [-f]", magic_reset,
     "Forgets every variable and function of the session, and the files of the package its "
     "cells wrote (%%minitorch_file), and returns the memory their tensors held. The backend, "
     "threads and random generator stay as they are. Nothing is asked "
     "first (-f, IPython's option for that, is accepted).",
     false},
    {"seed", "%seed N", magic_seed,
     "Seeds the random generator, as seed(N) does: rand() then repeats its numbers.", true},
    {"threads", "%threads [N]", magic_threads,
     "Sets how many threads the fast backend uses (1 runs serially). Without a number, shows "
     "the current count.",
     true},
    {"time", "%time STMT", magic_time,
     "Runs STMT once and prints its wall time (\"Wall time: 1.23 ms (one run)\"); when STMT ran "
     "exactly one engine op, also that op's GB/s (GFLOP/s for matmul). The value of STMT is the "
     "cell's result when %time is the last line. A note follows when other programs took the "
     "CPU meanwhile.",
     false},
    {"timeit", "%timeit [-n N] [-r R] STMT", magic_timeit,
     "Times STMT like IPython's %timeit: R runs (default 7, at most 100000) of N executions "
     "each, and prints the median time per execution and the median absolute deviation across "
     "runs. Without -n, N is the first of 1, 10, 100 and so on that makes a run take at least "
     "0.2 s. A note follows when other programs took the CPU meanwhile. An interrupt stops it.",
     false},
    {"who", "%who [TYPE ...]", magic_who,
     "Lists the session's variables and functions with their type and a short description "
     "(a tensor's shape and backend, a function's parameters). With type names (tensor, "
     "function, int, float, str, list, ...), only variables of those types.",
     true},
};
const size_t dsl_magic_count = sizeof dsl_magics / sizeof dsl_magics[0];

const struct dsl_magic *dsl_magic_find(const char *name)
{
    for (size_t i = 0; i < dsl_magic_count; i++)
        if (strcmp(dsl_magics[i].name, name) == 0) return &dsl_magics[i];
    return NULL;
}

int dsl_magic_help(struct render_buf *b, const struct dsl_magic *m)
{
    render_buf_puts(b, m->usage);
    render_buf_puts(b, "\n\n");
    return render_buf_puts(b, m->doc);
}

/* Where the argument text of the magic at pos starts in the source: after '%', the name and
 * blanks, as the parser split them; SIZE_MAX when the source does not show it there. */
static size_t args_offset(const struct dsl_interp *in, size_t pos, const char *name)
{
    size_t n = strlen(name);
    if (!in->src || pos + 1 + n > in->src_len || in->src[pos] != '%' ||
        memcmp(in->src + pos + 1, name, n) != 0)
        return SIZE_MAX;
    size_t i = pos + 1 + n;
    while (i < in->src_len &&
           (in->src[i] == ' ' || in->src[i] == '\t' || in->src[i] == '\f' || in->src[i] == '\r'))
        i++;
    return i;
}

int dsl_magic_run(struct dsl_interp *in, const char *name, const char *args, size_t pos,
                  struct dsl_value *result)
{
    const struct dsl_magic *m = dsl_magic_find(name);
    if (!m) {
        struct render_buf known;
        render_buf_init(&known, 4096);
        for (size_t i = 0; i < dsl_magic_count; i++)
            render_buf_printf(&known, "%s%%%s", i ? ", " : "", dsl_magics[i].name);
        dsl_raise_at(in, pos, "UsageError", "unknown magic %%%s; the known magics are %s",
                     name[0] ? name : "", render_buf_str(&known));
        render_buf_free(&known);
        return -1;
    }
    struct dsl_magic_call c = {.m = m, .args = args, .result = result};
    c.args_pos = args_offset(in, pos, name);
    if ((m->words && (c.n = split_words(in, name, args, c.words)) < 0) || m->fn(in, &c) != 0) {
        dsl_error_locate(in, pos);
        return -1;
    }
    return 0;
}
