/* compare.c — compare(STMT, backends=...) and timing(op, sizes=..., backends=...): the same
 * work on several backends, side by side (the lessons of Task 3.1's speed-ups and Task 3.4's
 * timing.py).
 *
 * compare runs a statement once per backend to check its result, then times it. For each
 * backend, every session variable the statement names (and the functions it calls name) is
 * rebound to a private copy: tensors copied onto that backend with their own storage, strides,
 * and requires_grad (so `x[0, 0] = 5`, `x.backward()` or `.grad` inside cannot touch the user's
 * tensors), lists copied one level deep with their tensors copied. The session's default
 * backend is switched too, so tensors made inside land there. Afterwards, whatever happened
 * (an error, KeyboardInterrupt), every such variable is bound to exactly the value it had
 * before, or unbound again, and the default backend is back. Only the session's variables are
 * swapped: called inside a function, the function's locals are used as they are. Magics are
 * refused inside the statement (a %reset there could not be undone).
 *
 * Results are checked against the first backend that ran (compare.h: all-close with float32
 * tolerances). A backend that cannot run here (cuda without a GPU) is a row saying why, never
 * dropped. Each builtin shows two displays: the table (text/plain and text/html, laid out by
 * render/table.c) and the chart (render/chart.h, as %plot_renderer says), because one bundle
 * holding HTML and a chart would show only the HTML in JupyterLab. Both return none: the tables
 * are the output, as IPython's %timeit prints and returns None. */
#include "lib/compare.h"

#include "lang/ast.h"
#include "lang/interp.h"
#include "lang/library.h"
#include "lang/packages.h"
#include "lib/diagnostics.h"
#include "lib/magics.h"
#include "lib/student.h"
#include "lib/tensor_methods.h"
#include "render/chart.h"
#include "render/render.h"

#include "minitorch/minitorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BACKENDS 8

/* The backends argument at a->slot[slot]: a list of names (default: `dflt`). An unknown name
 * is the engine's ValueError, which lists the known ones. */
static int parse_backends(struct dsl_interp *in, const struct dsl_args *a, int slot,
                          const enum mt_backend *dflt, size_t ndflt, enum mt_backend *out,
                          size_t *n)
{
    *n = 0;
    if (!a->has[slot] || a->slot[slot].kind == DSL_NONE) {
        memcpy(out, dflt, ndflt * sizeof *dflt);
        *n = ndflt;
        return 0;
    }
    struct dsl_value v = a->slot[slot];
    if (v.kind != DSL_LIST || v.as.l->len == 0 || v.as.l->len > MAX_BACKENDS)
        return dsl_raise(in, "TypeError",
                         "backends must be a list of 1 to %d backend names, "
                         "such as [\"simple\", \"fast\", \"cuda\"]",
                         MAX_BACKENDS);
    for (size_t i = 0; i < v.as.l->len; i++) {
        struct dsl_value it = v.as.l->items[i];
        if (it.kind != DSL_STR)
            return dsl_raise(in, "TypeError", "backends must hold names (strings), not %s",
                             dsl_type_name(it));
        enum mt_status st = mt_backend_parse(in->session->ctx, it.as.s->data, &out[*n]);
        if (st) return dsl_engine_raise(in, st);
        (*n)++;
    }
    return 0;
}

/* The row of a backend that cannot run here: false with the engine's reason in why. */
static bool backend_ready(struct mt_ctx *ctx, enum mt_backend b, char *why, size_t n)
{
    why[0] = '\0';
    if (mt_backend_check(ctx, b) == MT_OK) return true;
    const char *msg = mt_ctx_error(ctx);
    snprintf(why, n, "%s", msg && *msg ? msg : "not available on this machine");
    return false;
}

/* ---- the variables a statement uses ------------------------------------------------------ */

struct saved_var {
    char *name; /* owned */
    bool present;
    struct dsl_value value; /* owned reference when present */
};

struct saved {
    struct saved_var *v;
    size_t n, cap;
    const struct dsl_function **fns; /* user functions whose bodies were walked */
    size_t nfns, capfns;
    const char *magic; /* the first magic the statement holds, NULL when none */
};

/* Grows an array of `size`-byte items to hold one more; false when out of memory. */
static bool grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return true;
    size_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(*p, c * size);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}

static bool walk(struct dsl_session *s, struct saved *sv, const struct dsl_node *n);

/* Remembers name and its value now; for a user function, also the names its body uses (the
 * globals it reads must be staged too). */
static bool save_name(struct dsl_session *s, struct saved *sv, const char *name)
{
    for (size_t i = 0; i < sv->n; i++)
        if (strcmp(sv->v[i].name, name) == 0) return true;
    if (!grow((void **)&sv->v, &sv->cap, sv->n, sizeof *sv->v)) return false;
    char *copy = strdup(name);
    if (!copy) return false;
    struct dsl_value *v = dsl_session_lookup(s, name);
    sv->v[sv->n++] = (struct saved_var){copy, v != NULL, v ? dsl_value_retain(*v) : dsl_none()};
    if (!v || v->kind != DSL_FUNCTION) return true;
    const struct dsl_function *f = v->as.fn_user;
    for (size_t i = 0; i < sv->nfns; i++)
        if (sv->fns[i] == f) return true;
    if (!grow((void **)&sv->fns, &sv->capfns, sv->nfns, sizeof *sv->fns)) return false;
    sv->fns[sv->nfns++] = f;
    /* the saved reference keeps f, and so its body, alive while we walk it */
    return walk(s, sv, f->def->b);
}

/* Every name the tree mentions (read or bound). The recursion is bounded by the tree's height
 * (the parser's limit) times the depth of function calls it names (each body is walked once). */
static bool walk(struct dsl_session *s, struct saved *sv, const struct dsl_node *n)
{
    if (!n) return true;
    if (n->kind == DSL_N_MAGIC && !sv->magic) sv->magic = n->name;
    if ((n->kind == DSL_N_NAME || n->kind == DSL_N_FOR || n->kind == DSL_N_DEF) && n->name &&
        !save_name(s, sv, n->name))
        return false;
    if (!walk(s, sv, n->a) || !walk(s, sv, n->b)) return false;
    for (size_t i = 0; i < n->nkids; i++)
        if (!walk(s, sv, n->kids[i])) return false;
    for (size_t i = 0; i < n->nkw; i++)
        if (n->kwvals && !walk(s, sv, n->kwvals[i])) return false;
    return true;
}

/* Binds every saved name back to its value (or unbinds it), as it was before the statement. */
static void restore(struct dsl_session *s, const struct saved *sv)
{
    for (size_t i = 0; i < sv->n; i++) {
        if (sv->v[i].present)
            dsl_session_assign(s, sv->v[i].name, dsl_value_retain(sv->v[i].value));
        else
            dsl_session_unset(s, sv->v[i].name);
    }
}

static void saved_free(struct saved *sv)
{
    for (size_t i = 0; i < sv->n; i++) {
        free(sv->v[i].name);
        dsl_value_release(sv->v[i].value);
    }
    free(sv->v);
    free(sv->fns);
}

/* A private copy of t on backend b: its own storage, the same shape, strides and
 * requires_grad, and no history (a leaf). mt_to alone would share t's storage between simple
 * and fast, and hand back t itself on its own backend. */
static int private_copy(struct dsl_interp *in, struct mt_tensor *t, enum mt_backend b,
                        struct mt_tensor **out)
{
    struct mt_ctx *ctx = in->session->ctx;
    struct mt_tensor *r = NULL;
    enum mt_status st;
    if (t->size == 0) {
        st = mt_empty(ctx, b, t->ndim, t->shape, &r);
    } else if (mt_backend_is_host(t->backend)) {
        /* copy the storage t can reach, [lo, hi], and view it with t's strides: the copy runs
         * the same strided or contiguous paths as the original */
        int64_t lo = 0, hi = 0;
        for (int d = 0; d < t->ndim; d++) {
            int64_t reach = (t->shape[d] - 1) * t->strides[d];
            if (reach < 0)
                lo += reach;
            else
                hi += reach;
        }
        int64_t span = hi - lo + 1;
        struct mt_tensor *base = NULL;
        st = mt_from_data(ctx, b, 1, &span, mt_tensor_data(t) + lo, &base);
        if (st == MT_OK) st = mt_as_strided(ctx, base, t->ndim, t->shape, t->strides, -lo, &r);
        mt_tensor_release(base);
    } else { /* device memory: a contiguous copy through the host */
        float *host = malloc((size_t)t->size * sizeof *host);
        if (!host) return dsl_raise_status(in, DSL_V_NOMEM);
        st = mt_tensor_copy_out(t, host);
        if (st == MT_OK) st = mt_from_data(ctx, b, t->ndim, t->shape, host, &r);
        free(host);
    }
    if (st == MT_OK && t->requires_grad) st = mt_tensor_requires_grad(r, true);
    if (st != MT_OK) {
        mt_tensor_release(r);
        return dsl_engine_raise(in, st);
    }
    *out = r;
    return 0;
}

/* The value a staged variable gets on backend b (see the top of the file). 0 or -1. */
static int stage_value(struct dsl_interp *in, struct dsl_value v, enum mt_backend b,
                       struct dsl_value *out)
{
    if (v.kind == DSL_TENSOR) {
        struct mt_tensor *t = NULL;
        if (private_copy(in, v.as.t, b, &t) != 0) return -1;
        *out = dsl_tensor(t);
        return 0;
    }
    if (v.kind == DSL_OBJECT) /* shared, it would run on its own backend and could be changed */
        return dsl_raise(in, "TypeError",
                         "compare() gives each backend its own copies of the tensors and lists "
                         "the statement uses, and cannot copy a %s yet: name its tensors "
                         "instead (such as X = ds.X, or ps = model.parameters())",
                         dsl_type_name(v));
    if (v.kind != DSL_LIST) {
        *out = dsl_value_retain(v);
        return 0;
    }
    struct dsl_list *src = v.as.l, *l = dsl_list_new(src->len);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = src->style;
    l->dtype = src->dtype;
    struct dsl_value copy = {.kind = DSL_LIST, .as.l = l};
    for (size_t i = 0; i < src->len; i++) {
        struct dsl_value item = src->items[i], it;
        if (item.kind == DSL_TENSOR) {
            if (stage_value(in, item, b, &it) != 0) goto fail;
        } else {
            it = dsl_value_retain(item); /* nested lists are shared, not copied */
        }
        int st = dsl_list_push(l, it);
        if (st != DSL_V_OK) {
            dsl_raise_status(in, st);
            goto fail;
        }
    }
    *out = copy;
    return 0;
fail:
    dsl_value_release(copy);
    return -1;
}

/* Binds every saved variable to its staged copy on backend b (absent ones unbound). */
static int stage(struct dsl_interp *in, const struct saved *sv, enum mt_backend b)
{
    struct dsl_session *s = in->session;
    for (size_t i = 0; i < sv->n; i++) {
        if (!sv->v[i].present) {
            dsl_session_unset(s, sv->v[i].name);
            continue;
        }
        struct dsl_value v;
        if (stage_value(in, sv->v[i].value, b, &v) != 0) return -1;
        if (dsl_session_assign(s, sv->v[i].name, v) != 0) return dsl_raise_status(in, DSL_V_NOMEM);
    }
    return 0;
}

/* ---- agreement --------------------------------------------------------------------------- */

static bool close_enough(double ref, double got, double *max_diff)
{
    if (isnan(ref) || isnan(got)) return isnan(ref) && isnan(got);
    if (isinf(ref) || isinf(got)) return ref == got;
    double d = fabs(got - ref);
    if (d > *max_diff) *max_diff = d;
    return d <= DSL_AGREE_ATOL + DSL_AGREE_RTOL * fabs(ref);
}

static bool agree_at(struct dsl_value ref, struct dsl_value got, double *max_diff, int depth)
{
    if (ref.kind == DSL_TENSOR && got.kind == DSL_TENSOR) {
        const struct mt_tensor *a = ref.as.t, *b = got.as.t;
        if (a->ndim != b->ndim || memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof *a->shape))
            return *max_diff = NAN, false;
        float *x = malloc((size_t)a->size * sizeof *x + 1),
              *y = malloc((size_t)b->size * sizeof *y + 1);
        bool ok = x && y && mt_tensor_copy_out(a, x) == MT_OK && mt_tensor_copy_out(b, y) == MT_OK;
        if (ok) {
            for (int64_t i = 0; i < a->size; i++)
                if (!close_enough(x[i], y[i], max_diff)) ok = false;
        } else {
            *max_diff = NAN;
        }
        free(x);
        free(y);
        return ok;
    }
    if (dsl_is_number(ref) && dsl_is_number(got))
        return close_enough(dsl_as_double(ref), dsl_as_double(got), max_diff);
    if (ref.kind == DSL_LIST && got.kind == DSL_LIST && depth < DSL_MAX_LIST_DEPTH) {
        if (ref.as.l->len != got.as.l->len) return *max_diff = NAN, false;
        bool ok = true;
        for (size_t i = 0; i < ref.as.l->len; i++)
            if (!agree_at(ref.as.l->items[i], got.as.l->items[i], max_diff, depth + 1)) ok = false;
        return ok;
    }
    if (dsl_value_equal(ref, got)) return true;
    *max_diff = NAN;
    return false;
}

bool dsl_values_agree(struct dsl_value ref, struct dsl_value got, double *max_diff)
{
    *max_diff = 0;
    bool ok = agree_at(ref, got, max_diff, 0);
    return ok;
}

/* ---- compare ----------------------------------------------------------------------------- */

/* The batch length below which the runs per batch double, as IPython's %timeit autorange (which
 * aims at 0.2 s a batch and 7 batches: compare times several backends, so it is shorter; what a
 * backend's timing aims for in all is the session's compare_budget_s, 1 s). */
#define MIN_BATCH_S 0.02
#define MAX_BATCHES 5

struct row {
    enum mt_backend backend;
    char why[256];  /* unavailable: the reason; "" when it ran */
    double seconds; /* per run: the median over the batches */
    double spread;  /* per run: half the range of the batches, over the median */
    long loops;     /* runs per batch */
    int batches;
    bool agree;
    double diff;    /* max |diff| against the reference; NAN: not comparable */
    char gpu[1024]; /* cuda: its kernels in the check run (dsl_diag_gpu_summary); "" else */
};

/* Times the statement, whose check run took `first` seconds: batches of r->loops runs (doubled
 * until a batch takes MIN_BATCH_S, or a fifth of the budget when that is less), as many batches
 * as fit the session's budget (1 to 5); the median batch, per run. An interrupt between runs
 * ends it with KeyboardInterrupt. */
static int time_statement(struct dsl_interp *in, const struct dsl_code *code, double first,
                          struct row *r)
{
    const double budget = in->session->compare_budget_s;
    const double min_batch = fmin(MIN_BATCH_S, budget / MAX_BATCHES);
    long k = 1;
    while ((double)k * first < min_batch && k < (1L << 20)) k *= 2;
    int nb = (int)fmin(MAX_BATCHES, fmax(1, floor(budget / ((double)k * first))));
    double batch[MAX_BATCHES];
    for (int j = 0; j < nb; j++) {
        double t0 = mt_now_s();
        for (long i = 0; i < k; i++) {
            struct dsl_value v = dsl_none();
            int x = dsl_check_cancel(in, 0);
            if (x == 0) x = dsl_run_block(in, code->ast, &v);
            dsl_value_release(v);
            if (x != 0) return -1;
        }
        if (dsl_engine_wait(in) != 0) return -1; /* the GPU's work counts in the time */
        batch[j] = (mt_now_s() - t0) / (double)k;
    }
    for (int i = 1; i < nb; i++)
        for (int j = i; j > 0 && batch[j] < batch[j - 1]; j--) {
            double tmp = batch[j];
            batch[j] = batch[j - 1];
            batch[j - 1] = tmp;
        }
    r->seconds = nb % 2 ? batch[nb / 2] : (batch[nb / 2 - 1] + batch[nb / 2]) / 2;
    r->spread = r->seconds > 0 ? (batch[nb - 1] - batch[0]) / 2 / r->seconds : 0;
    r->loops = k;
    r->batches = nb;
    return 0;
}

/* The table of compare's rows: text/plain and text/html. */
static json_t *compare_table(const char *stmt, const struct row *rows, size_t n)
{
    const struct row *ref = NULL;
    for (size_t i = 0; i < n && !ref; i++)
        if (!rows[i].why[0]) ref = &rows[i];
    struct render_compare_row shown[MAX_BACKENDS];
    char c[MAX_BACKENDS][4][96];
    for (size_t i = 0; i < n; i++) {
        const struct row *r = &rows[i];
        shown[i] = (struct render_compare_row){.backend = mt_backend_name(r->backend),
                                               .why = r->why,
                                               .cells = {c[i][0], c[i][1], c[i][2], c[i][3]},
                                               .gpu = r->gpu};
        if (r->why[0]) continue;
        char t[32];
        dsl_format_duration(r->seconds, t, sizeof t);
        if (r->batches == 1) /* one batch: no spread to show */
            snprintf(c[i][0], sizeof c[i][0], "%s", t);
        else if (r->spread < 0.005)
            snprintf(c[i][0], sizeof c[i][0], "%s \xc2\xb1 <1%%", t);
        else
            snprintf(c[i][0], sizeof c[i][0], "%s \xc2\xb1 %.0f%%", t, 100 * r->spread);
        snprintf(c[i][1], sizeof c[i][1], "%d \xc3\x97 %ld", r->batches, r->loops);
        snprintf(c[i][2], sizeof c[i][2], "%.2fx", ref->seconds / r->seconds);
        if (r == ref)
            snprintf(c[i][3], sizeof c[i][3], "reference");
        else if (isnan(r->diff))
            snprintf(c[i][3], sizeof c[i][3], "%s (shapes or types differ)",
                     r->agree ? "yes" : "NO");
        else /* two significant digits in plain decimals, as the other timings' numbers */
            snprintf(c[i][3], sizeof c[i][3], "%s (max |diff| %.*f)", r->agree ? "yes" : "NO",
                     r->diff > 0 ? (int)fmax(0, fmin(20, 1 - floor(log10(r->diff)))) : 0, r->diff);
    }
    char note[200];
    snprintf(note, sizeof note,
             "time: median of the batches \xc2\xb1 half their range (batches \xc3\x97 runs); "
             "agrees: all-close to the reference, |x - ref| <= %g + %g * |ref|",
             DSL_AGREE_ATOL, DSL_AGREE_RTOL);
    return render_compare_table(stmt, shown, n, note);
}

/* The bar chart of compare's rows: time per run, in the unit the slowest reads best in. */
static json_t *compare_chart(struct dsl_session *s, const char *stmt, const struct row *rows,
                             size_t n)
{
    const char *labels[MAX_BACKENDS], *unit;
    double v[MAX_BACKENDS], most = 0;
    for (size_t i = 0; i < n; i++)
        if (!rows[i].why[0]) most = fmax(most, rows[i].seconds);
    double scale = render_time_unit(most, &unit);
    for (size_t i = 0; i < n; i++) {
        labels[i] = mt_backend_name(rows[i].backend);
        v[i] = rows[i].why[0] ? NAN : rows[i].seconds / scale;
    }
    char title[128], y_title[64];
    size_t len = strlen(stmt);
    if (len <= 60 && !memchr(stmt, '\n', len)) {
        snprintf(title, sizeof title, "compare: %s", stmt);
    } else { /* the table shows it whole: the title keeps its first line, cut at a character */
        size_t cut = strcspn(stmt, "\n");
        if (cut > 57) cut = 57;
        while (cut > 0 && ((unsigned char)stmt[cut] & 0xC0) == 0x80) cut--;
        snprintf(title, sizeof title, "compare: %.*s...", (int)cut, stmt);
    }
    snprintf(y_title, sizeof y_title, "time per run (%s)", unit);
    struct chart_bars bars = {title, "backend", y_title, n, labels, v, "unavailable"};
    return chart_bars_bundle(dsl_plot_renderer(s), &bars);
}

/* Shows the bundles in order (each released); raises MemoryError when one is NULL. */
static int show(struct dsl_interp *in, json_t *table, json_t *chart)
{
    int r = 0;
    if (!table || !chart) {
        r = dsl_raise_status(in, DSL_V_NOMEM);
    } else {
        dsl_display(in, table, NULL, false);
        dsl_display(in, chart, NULL, false);
    }
    json_decref(table);
    json_decref(chart);
    return r;
}

/* Under a table and its chart: the busy-machine note of the window, when there is one. */
static void say_busy(struct dsl_interp *in, const struct dsl_busy_window *w, struct mt_ctx *ctx)
{
    struct dsl_busy v;
    dsl_busy_end(w, mt_ctx_threads(ctx), &v);
    dsl_busy_say(in, &v);
}

/* Runs the statement once on backend b for its result (after staging) and times it (after
 * staging again, so that the runs start from the user's values and cannot change the result
 * kept). Errors inside carry positions into the statement's text. */
static int run_on(struct dsl_interp *in, struct dsl_code *code, const struct saved *sv,
                  enum mt_backend b, struct row *row, struct dsl_value *result)
{
    struct mt_ctx *ctx = in->session->ctx;
    *result = dsl_none();
    if (stage(in, sv, b) != 0) return -1;
    mt_ctx_set_backend(ctx, b);
    /* on a device the check run also records its kernels (the timed runs do not: describing a
     * launch costs CUDA events) */
    struct dsl_diag_log *log = !mt_backend_is_host(b) ? malloc(sizeof *log) : NULL;
    if (log) dsl_diag_start(log, ctx);
    double t0 = mt_now_s();
    int x = dsl_run_block(in, code->ast, result);
    if (x == 0) x = dsl_engine_wait(in);
    double first = mt_now_s() - t0;
    if (log) {
        dsl_diag_stop(log);
        dsl_diag_gpu_summary(log, row->gpu, sizeof row->gpu);
        free(log);
    }
    if (x != 0) return -1;
    if (stage(in, sv, b) != 0) return -1;
    return time_statement(in, code, first, row);
}

int dsl_bi_compare(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    static const enum mt_backend all[] = {MT_BACKEND_SIMPLE, MT_BACKEND_FAST, MT_BACKEND_CUDA};
    struct dsl_session *s = in->session;
    if (a->slot[0].kind != DSL_STR)
        return dsl_raise(in, "TypeError",
                         "compare() takes the statement as a string, such as "
                         "compare(\"a @ b\"), not %s",
                         dsl_type_name(a->slot[0]));
    enum mt_backend backends[MAX_BACKENDS];
    size_t nb = 0;
    if (parse_backends(in, a, 1, all, 3, backends, &nb) != 0) return -1;
    const char *stmt = a->slot[0].as.s->data;
    struct dsl_syntax_error se = {0};
    struct dsl_code *code = dsl_code_parse(stmt, a->slot[0].as.s->len, &se);
    if (code) dsl_package_share(in, code); /* in a package's file, its globals */
    if (!code)
        return dsl_raise(in, se.ename ? se.ename : "SyntaxError", "in compare's statement: %s",
                         se.msg);
    if (code->ast->nkids == 0) {
        dsl_code_release(code);
        return dsl_raise(in, "ValueError",
                         "compare() needs a statement to run, such as "
                         "compare(\"a @ b\")");
    }
    struct saved sv = {0};
    struct row rows[MAX_BACKENDS];
    struct dsl_value values[MAX_BACKENDS];
    size_t nv = 0;
    int r = -1;
    enum mt_backend home = mt_ctx_backend(s->ctx);
    if (!walk(s, &sv, code->ast)) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    if (sv.magic) {
        dsl_raise(in, "ValueError",
                  "compare's statement cannot run magics (%%%s); compare times plain statements",
                  sv.magic);
        goto done;
    }
    struct dsl_busy_window window;
    dsl_busy_begin(&window);
    for (size_t i = 0; i < nb; i++) {
        struct row *row = &rows[i];
        memset(row, 0, sizeof *row);
        row->backend = backends[i];
        if (!backend_ready(s->ctx, backends[i], row->why, sizeof row->why)) continue;
        /* errors inside point into the statement's own text */
        const char *src = in->src;
        size_t src_len = in->src_len;
        struct dsl_code *outer = in->code;
        in->src = code->src;
        in->src_len = code->len;
        in->code = code;
        struct dsl_value v;
        int x = run_on(in, code, &sv, backends[i], row, &v);
        in->src = src;
        in->src_len = src_len;
        in->code = outer;
        if (x != 0) {
            dsl_value_release(v);
            if (in->ename && in->has_pos) {
                /* the position indexes the statement's text, not the cell's: the caret goes
                 * to the compare call instead, and the message says where it happened */
                in->has_pos = false;
                char *more = NULL;
                if (asprintf(&more, "%s (in compare's statement on %s)",
                             in->evalue ? in->evalue : "", mt_backend_name(backends[i])) >= 0) {
                    free(in->evalue);
                    in->evalue = more;
                }
            }
            goto done;
        }
        row->agree = nv == 0 || dsl_values_agree(values[0], v, &row->diff);
        values[nv++] = v;
    }
    r = show(in, compare_table(stmt, rows, nb), compare_chart(s, stmt, rows, nb));
    if (r == 0) say_busy(in, &window, s->ctx);
    *ret = dsl_none();
done:
    restore(s, &sv);
    mt_ctx_set_backend(s->ctx, home);
    saved_free(&sv);
    for (size_t i = 0; i < nv; i++) dsl_value_release(values[i]);
    dsl_code_release(code);
    return r;
}

/* ---- timing ------------------------------------------------------------------------------ */

#define MAX_SIZES 16
#define TRIALS 3

/* The ops timing() knows: each makes its inputs with rand, as timing.py's run_matmul does
 * (the draws are part of the time, as there). */
enum timing_op { OP_MATMUL, OP_ADD, OP_MUL, OP_SUM, OP_COUNT };
static const char *const op_names[] = {"matmul", "add", "mul", "sum"};
static const char *const op_what[] = {"x @ y", "x + y", "x * y", "x.sum(2)"};
_Static_assert(sizeof op_names / sizeof op_names[0] == OP_COUNT, "one name per op");
_Static_assert(sizeof op_what / sizeof op_what[0] == OP_COUNT, "one formula per op");

/* One trial: x (and y) = rand((2, n, n)), then the op; its wall time in seconds. */
static int trial(struct dsl_interp *in, enum timing_op op, enum mt_backend b, int64_t n,
                 double *seconds)
{
    struct mt_ctx *ctx = in->session->ctx;
    int64_t shape[3] = {2, n, n};
    struct mt_tensor *x = NULL, *y = NULL, *z = NULL;
    if (dsl_check_cancel(in, 0) != 0) return -1;
    double t0 = mt_now_s();
    enum mt_status st = mt_rand(ctx, b, 3, shape, &x);
    if (!st && op != OP_SUM) st = mt_rand(ctx, b, 3, shape, &y);
    if (!st) {
        switch (op) {
        case OP_MATMUL: st = mt_matmul_raw(ctx, x, y, &z); break;
        case OP_ADD: st = mt_zip(ctx, MT_ZIP_ADD, x, y, &z); break;
        case OP_MUL: st = mt_zip(ctx, MT_ZIP_MUL, x, y, &z); break;
        default: st = mt_reduce(ctx, MT_RED_SUM, x, 2, &z); break;
        }
    }
    if (!st) st = mt_ctx_wait(ctx);
    *seconds = mt_now_s() - t0;
    mt_tensor_release(x);
    mt_tensor_release(y);
    mt_tensor_release(z);
    return st ? dsl_engine_raise(in, st) : 0;
}

static json_t *timing_table(enum timing_op op, const int64_t *sizes, size_t ns,
                            const char *const *labels, size_t nb, const double *secs,
                            char (*why)[256])
{
    char head[160];
    snprintf(head, sizeof head,
             "timing: %s, x and y = rand(2, n, n) (drawn inside the time), median of %d runs",
             op_what[op], TRIALS);
    const char *names[MAX_BACKENDS], *whys[MAX_BACKENDS], *cells[MAX_BACKENDS * MAX_SIZES];
    char c[MAX_BACKENDS * MAX_SIZES][32];
    for (size_t i = 0; i < nb; i++) {
        names[i] = labels[i];
        whys[i] = why[i];
        for (size_t k = 0; k < ns; k++) {
            char *cell = c[i * ns + k];
            if (why[i][0])
                snprintf(cell, sizeof c[0], "unavailable");
            else
                dsl_format_duration(secs[i * ns + k], cell, sizeof c[0]);
            cells[i * ns + k] = cell;
        }
    }
    return render_timing_table(head, nb, names, whys, ns, sizes, cells);
}

int dsl_bi_timing(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    static const enum mt_backend course[] = {MT_BACKEND_FAST, MT_BACKEND_CUDA};
    struct dsl_session *s = in->session;
    enum timing_op op = OP_MATMUL;
    if (a->has[0] && a->slot[0].kind != DSL_NONE) {
        if (a->slot[0].kind != DSL_STR)
            return dsl_raise(in, "TypeError",
                             "timing() takes the op's name, such as "
                             "\"matmul\"");
        for (op = 0; op < OP_COUNT; op++)
            if (strcmp(a->slot[0].as.s->data, op_names[op]) == 0) break;
        if (op == OP_COUNT)
            return dsl_raise(in, "ValueError",
                             "timing() times \"matmul\" (the course's), \"add\", \"mul\" or "
                             "\"sum\", not '%s'",
                             a->slot[0].as.s->data);
    }
    int64_t sizes[MAX_SIZES] = {64, 128, 256, 512, 1024};
    size_t ns = 5;
    if (a->has[1] && a->slot[1].kind != DSL_NONE) {
        struct dsl_value v = a->slot[1];
        if (v.kind != DSL_LIST || v.as.l->len == 0 || v.as.l->len > MAX_SIZES)
            return dsl_raise(in, "TypeError", "sizes must be a list of 1 to %d sizes", MAX_SIZES);
        for (ns = 0; ns < v.as.l->len; ns++) {
            struct dsl_value it = v.as.l->items[ns];
            if (!dsl_is_intlike(it) || dsl_as_int(it) < 1 || dsl_as_int(it) > 16384)
                return dsl_raise(in, "ValueError", "sizes must be whole numbers from 1 to 16384");
            sizes[ns] = dsl_as_int(it);
        }
    }
    enum mt_backend backends[MAX_BACKENDS];
    size_t nb = 0;
    if (parse_backends(in, a, 2, course, 2, backends, &nb) != 0) return -1;
    double secs[MAX_BACKENDS * MAX_SIZES], x[MAX_SIZES];
    char why[MAX_BACKENDS][256];
    struct dsl_busy_window window;
    dsl_busy_begin(&window);
    for (size_t k = 0; k < ns; k++) x[k] = (double)sizes[k];
    for (size_t i = 0; i < nb; i++) {
        for (size_t k = 0; k < ns; k++) secs[i * ns + k] = NAN;
        if (!backend_ready(s->ctx, backends[i], why[i], sizeof why[i])) continue;
        double warm;
        if (trial(in, op, backends[i], 16, &warm) != 0) return -1; /* timing.py's warm-up */
        for (size_t k = 0; k < ns; k++) { /* the median: one slow trial does not decide it */
            double t[TRIALS];
            for (int j = 0; j < TRIALS; j++) {
                if (trial(in, op, backends[i], sizes[k], &t[j]) != 0) return -1;
                for (int m = j; m > 0 && t[m] < t[m - 1]; m--) {
                    double tmp = t[m];
                    t[m] = t[m - 1];
                    t[m - 1] = tmp;
                }
            }
            secs[i * ns + k] = t[TRIALS / 2];
        }
    }
    /* the student backend says whose ops it runs, and where their CUDA kernels ran */
    const char *names[MAX_BACKENDS];
    char student[96];
    for (size_t i = 0; i < nb; i++)
        names[i] = backends[i] == MT_BACKEND_STUDENT
                       ? dsl_student_label(in, student, sizeof student)
                       : mt_backend_name(backends[i]);
    char title[64];
    snprintf(title, sizeof title, "timing: %s", op_what[op]);
    struct chart_lines lines = {
        title, "size n (log)", "time per op (s, log)", "backend", nb, ns, names, x, secs, true,
        true,  false};
    if (show(in, timing_table(op, sizes, ns, names, nb, secs, why),
             chart_lines_bundle(dsl_plot_renderer(s), &lines)) != 0)
        return -1;
    say_busy(in, &window, s->ctx);
    *ret = dsl_none();
    return 0;
}
