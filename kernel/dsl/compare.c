/* compare.c — compare(STMT, backends=...) and timing(op, sizes=..., backends=...): the same
 * work on several backends, side by side (the lessons of Task 3.1's speed-ups and Task 3.4's
 * timing.py).
 *
 * compare runs a statement once per backend. The session's tensor variables the statement
 * names are copied to that backend for the run (x.to(backend)) and the session's default
 * backend is switched, so tensors made inside land there too; afterwards every variable the
 * statement names is back as it was (values, and absence), whatever happened, and so is the
 * default backend. Only the session's variables are swapped: called inside a function, the
 * function's locals are used as they are. Results are checked against the first backend that
 * ran: tensors all-close with rtol 1e-4 and atol 1e-5 (float32 results of differently ordered
 * sums), other values by ==.
 *
 * A backend that cannot run here (cuda without a GPU) is a row saying why, never dropped. */
#include "dsl/ast.h"
#include "dsl/builtins.h"
#include "dsl/diagnostics.h"
#include "dsl/interp.h"
#include "dsl/magics.h"
#include "dsl/tensor.h"
#include "render/chart.h"
#include "render/render.h"

#include "minitorch/minitorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BACKENDS 8
#define RTOL 1e-4
#define ATOL 1e-5

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The backends argument: a list of names (default: every backend). */
static int parse_backends(struct dsl_interp *in, const struct dsl_args *a, int slot,
                          enum mt_backend *out, size_t *n)
{
    static const enum mt_backend all[] = {MT_BACKEND_SIMPLE, MT_BACKEND_FAST, MT_BACKEND_CUDA};
    *n = 0;
    if (!a->has[slot] || a->slot[slot].kind == DSL_NONE) {
        memcpy(out, all, sizeof all);
        *n = 3;
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

/* ---- saving and restoring the variables a statement names ------------------------------- */

struct saved_var {
    const char *name; /* borrowed from the statement's tree */
    bool present;
    struct dsl_value value; /* owned when present */
};

struct saved {
    struct saved_var *v;
    size_t n, cap;
};

static bool save_name(struct dsl_session *s, struct saved *sv, const char *name)
{
    for (size_t i = 0; i < sv->n; i++)
        if (strcmp(sv->v[i].name, name) == 0) return true;
    if (sv->n == sv->cap) {
        size_t cap = sv->cap ? sv->cap * 2 : 16;
        struct saved_var *p = realloc(sv->v, cap * sizeof *p);
        if (!p) return false;
        sv->v = p;
        sv->cap = cap;
    }
    struct dsl_value *v = dsl_session_lookup(s, name);
    sv->v[sv->n++] = (struct saved_var){name, v != NULL, v ? dsl_value_retain(*v) : dsl_none()};
    return true;
}

/* Every name the tree mentions (read or bound); the tree height bounds the recursion. */
static bool collect_names(struct dsl_session *s, struct saved *sv, const struct dsl_node *n)
{
    if (!n) return true;
    if ((n->kind == DSL_N_NAME || n->kind == DSL_N_FOR || n->kind == DSL_N_DEF) &&
        !save_name(s, sv, n->name))
        return false;
    if (!collect_names(s, sv, n->a) || !collect_names(s, sv, n->b)) return false;
    for (size_t i = 0; i < n->nkids; i++)
        if (!collect_names(s, sv, n->kids[i])) return false;
    for (size_t i = 0; i < n->nkw; i++)
        if (!collect_names(s, sv, n->kwvals[i])) return false;
    return true;
}

/* Puts every saved variable back as it was (releasing nothing of the saved copies). */
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
    for (size_t i = 0; i < sv->n; i++) dsl_value_release(sv->v[i].value);
    free(sv->v);
}

/* Binds the saved tensors' copies on backend b (others as they were). */
static int stage(struct dsl_interp *in, const struct saved *sv, enum mt_backend b)
{
    struct dsl_session *s = in->session;
    restore(s, sv);
    for (size_t i = 0; i < sv->n; i++) {
        if (!sv->v[i].present || sv->v[i].value.kind != DSL_TENSOR) continue;
        struct mt_tensor *t = NULL;
        enum mt_status st = mt_to(s->ctx, sv->v[i].value.as.t, b, &t);
        if (st) return dsl_engine_raise(in, st);
        if (dsl_session_assign(s, sv->v[i].name, dsl_tensor(t)) != 0)
            return dsl_raise_status(in, DSL_V_NOMEM);
    }
    return 0;
}

/* ---- agreement --------------------------------------------------------------------------- */

/* Whether got agrees with ref; *diff gets the largest absolute difference of tensors (or 0). */
static bool agrees(struct dsl_value ref, struct dsl_value got, double *diff)
{
    *diff = 0;
    if (ref.kind != DSL_TENSOR || got.kind != DSL_TENSOR) {
        if (dsl_is_number(ref) && dsl_is_number(got)) {
            double a = dsl_as_double(ref), b = dsl_as_double(got);
            *diff = fabs(a - b);
            return *diff <= ATOL + RTOL * fabs(a) || (isnan(a) && isnan(b));
        }
        return dsl_value_equal(ref, got);
    }
    const struct mt_tensor *a = ref.as.t, *b = got.as.t;
    if (a->ndim != b->ndim || memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof *a->shape))
        return false;
    float *x = malloc((size_t)a->size * sizeof *x + 1),
          *y = malloc((size_t)b->size * sizeof *y + 1);
    bool ok = x && y;
    if (ok) {
        mt_tensor_copy_out(a, x);
        mt_tensor_copy_out(b, y);
        for (int64_t i = 0; i < a->size; i++) {
            double d = fabs((double)x[i] - (double)y[i]);
            if (isnan(x[i]) != isnan(y[i])) ok = false;
            if (isnan(d)) continue;
            if (d > *diff) *diff = d;
            if (d > ATOL + RTOL * fabs((double)x[i])) ok = false;
        }
    }
    free(x);
    free(y);
    return ok;
}

/* ---- compare ----------------------------------------------------------------------------- */

struct row {
    enum mt_backend backend;
    char why[256]; /* unavailable: the reason; "" when it ran */
    double seconds;
    bool agree;
    double diff;
    long runs;
};

/* Times the statement: batches of k runs, k doubled until a batch takes 20 ms; the median of 5
 * batches, per run. */
static int time_statement(struct dsl_interp *in, const struct dsl_code *code, struct row *r)
{
    long k = 1;
    double batch[5];
    for (int j = 0; j < 5;) {
        double t0 = now_s();
        for (long i = 0; i < k; i++) {
            if (dsl_check_cancel(in, 0) != 0 || dsl_run_block(in, code->ast, NULL) != 0) return -1;
        }
        double t = now_s() - t0;
        if (t < 0.02 && k < (1L << 20) && j == 0) {
            k *= 2;
            continue;
        }
        batch[j++] = t / (double)k;
    }
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && batch[j] < batch[j - 1]; j--) {
            double tmp = batch[j];
            batch[j] = batch[j - 1];
            batch[j - 1] = tmp;
        }
    r->seconds = batch[2];
    r->runs = 5 * k;
    return 0;
}

static json_t *compare_bundle(struct dsl_session *s, const char *stmt, const struct row *rows,
                              size_t n)
{
    struct render_buf t, h;
    render_buf_init(&t, 0);
    render_buf_init(&h, 0);
    const double *ref = NULL;
    for (size_t i = 0; i < n && !ref; i++)
        if (!rows[i].why[0]) ref = &rows[i].seconds;
    render_buf_printf(&t, "compare: %s\n%-8s  %-10s  %-9s  %s\n", stmt, "backend", "time",
                      "speed-up", "agrees");
    render_buf_puts(&h, "<table><thead><tr><th>backend</th><th>time</th><th>speed-up</th>"
                        "<th>agrees</th></tr></thead><tbody>");
    const char *labels[MAX_BACKENDS];
    double ms[MAX_BACKENDS];
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        const char *name = mt_backend_name(rows[i].backend);
        labels[i] = name;
        ms[i] = rows[i].why[0] ? NAN : rows[i].seconds * 1e3;
        char c[3][320];
        if (rows[i].why[0]) {
            snprintf(c[0], sizeof c[0], "unavailable: %s", rows[i].why);
            render_buf_printf(&t, "%-8s  %s\n", name, c[0]);
            render_buf_printf(&h, "<tr><td>%s</td><td colspan=\"3\">", name);
            render_html_escape(&h, c[0], strlen(c[0]));
            render_buf_puts(&h, "</td></tr>");
            continue;
        }
        dsl_format_duration(rows[i].seconds, c[0], sizeof c[0]);
        snprintf(c[1], sizeof c[1], "%.3gx", *ref / rows[i].seconds);
        if (first)
            snprintf(c[2], sizeof c[2], "reference");
        else
            snprintf(c[2], sizeof c[2], "%s (max |diff| %.2g)", rows[i].agree ? "yes" : "NO",
                     rows[i].diff);
        first = false;
        /* "µs" is two bytes, one column: pad by code points */
        int pad = 10 - (int)render_utf8_count(c[0], strlen(c[0]));
        render_buf_printf(&t, "%-8s  %s%*s  %-9s  %s\n", name, c[0], pad > 0 ? pad : 0, "", c[1],
                          c[2]);
        render_buf_printf(&h, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>", name, c[0],
                          c[1], c[2]);
    }
    render_buf_puts(&h, "</tbody></table>");
    struct chart_bars bars = {"compare: time per run", "backend", "time (ms)", n, labels, ms};
    json_t *bundle = t.nomem ? NULL
                             : chart_bundle(dsl_plot_renderer(s), render_buf_str(&t),
                                            chart_bars_spec(&bars), chart_bars_svg(&bars));
    /* the table travels as HTML beside the chart when the renderer leaves text/html free */
    if (bundle && !h.nomem && !json_object_get(bundle, "text/html"))
        json_object_set_new(bundle, "text/html", json_string(render_buf_str(&h)));
    render_buf_free(&t);
    render_buf_free(&h);
    return bundle;
}

int dsl_bi_compare(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_session *s = in->session;
    if (a->slot[0].kind != DSL_STR)
        return dsl_raise(in, "TypeError",
                         "compare() takes the statement as a string, such as "
                         "compare(\"a @ b\")");
    enum mt_backend backends[MAX_BACKENDS];
    size_t nb = 0;
    if (parse_backends(in, a, 1, backends, &nb) != 0) return -1;
    const char *stmt = a->slot[0].as.s->data;
    struct dsl_syntax_error se;
    struct dsl_code *code = dsl_code_parse(stmt, a->slot[0].as.s->len, &se);
    if (!code)
        return dsl_raise(in, se.ename ? se.ename : "SyntaxError", "in compare's statement: %s",
                         se.msg);
    struct saved sv = {0};
    struct row rows[MAX_BACKENDS];
    struct dsl_value values[MAX_BACKENDS];
    size_t nv = 0;
    int r = -1;
    enum mt_backend home = mt_ctx_backend(s->ctx);
    const char *src = in->src;
    size_t src_len = in->src_len;
    struct dsl_code *outer = in->code;
    if (!collect_names(s, &sv, code->ast)) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    for (size_t i = 0; i < nb; i++) {
        struct row *row = &rows[i];
        memset(row, 0, sizeof *row);
        row->backend = backends[i];
        if (mt_backend_check(s->ctx, backends[i]) != MT_OK) {
            snprintf(row->why, sizeof row->why, "%s", mt_ctx_error(s->ctx));
            continue;
        }
        if (stage(in, &sv, backends[i]) != 0) goto done;
        mt_ctx_set_backend(s->ctx, backends[i]);
        /* errors inside point into the statement's own text */
        in->src = code->src;
        in->src_len = code->len;
        in->code = code;
        struct dsl_value v = dsl_none();
        int x = dsl_run_block(in, code->ast, &v);
        if (x == 0) x = time_statement(in, code, row);
        bool inside = x != 0 && in->has_pos;
        in->src = src;
        in->src_len = src_len;
        in->code = outer;
        if (x != 0) {
            dsl_value_release(v);
            if (!inside) goto done;
            goto relocate;
        }
        row->agree = nv == 0 || agrees(values[0], v, &row->diff);
        values[nv++] = v;
    }
    *ret = dsl_none();
    json_t *bundle = compare_bundle(s, stmt, rows, nb);
    if (!bundle) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    if (in->out->display) in->out->display(in->out->ctx, bundle, NULL, false);
    json_decref(bundle);
    r = 0;
    goto done;
relocate:
    if (in->ename && in->has_pos) {
        /* the position indexes the statement's text, not the cell's: the caret goes to the
         * compare call instead, and the message says where it happened */
        in->has_pos = false;
        char *more = NULL;
        if (asprintf(&more, "%s (in compare's statement \"%s\")", in->evalue ? in->evalue : "",
                     stmt) >= 0) {
            free(in->evalue);
            in->evalue = more;
        }
    }
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

/* One trial of timing.py's run_matmul: two rand((2, n, n)) and the op, in seconds. */
static int trial(struct dsl_interp *in, const char *op, enum mt_backend b, int64_t n,
                 double *seconds)
{
    struct mt_ctx *ctx = in->session->ctx;
    int64_t shape[3] = {2, n, n};
    struct mt_tensor *x = NULL, *y = NULL, *z = NULL;
    double t0 = now_s();
    enum mt_status st = mt_rand(ctx, b, 3, shape, &x);
    if (!st) st = mt_rand(ctx, b, 3, shape, &y);
    if (!st)
        st = strcmp(op, "matmul") == 0 ? mt_matmul_raw(ctx, x, y, &z)
                                       : mt_zip(ctx, MT_ZIP_ADD, x, y, &z);
    *seconds = now_s() - t0;
    mt_tensor_release(x);
    mt_tensor_release(y);
    mt_tensor_release(z);
    return st ? dsl_engine_raise(in, st) : 0;
}

int dsl_bi_timing(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_session *s = in->session;
    const char *op = "matmul";
    if (a->has[0] && a->slot[0].kind != DSL_NONE) {
        if (a->slot[0].kind != DSL_STR ||
            (strcmp(a->slot[0].as.s->data, "matmul") && strcmp(a->slot[0].as.s->data, "add")))
            return dsl_raise(in, "ValueError",
                             "timing() times \"matmul\" (the course's) or \"add\"");
        op = a->slot[0].as.s->data;
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
    if (!a->has[2] || a->slot[2].kind == DSL_NONE) { /* timing.py's: fast against the GPU */
        backends[0] = MT_BACKEND_FAST;
        backends[1] = MT_BACKEND_CUDA;
        nb = 2;
    } else if (parse_backends(in, a, 2, backends, &nb) != 0) {
        return -1;
    }
    double secs[MAX_BACKENDS * MAX_SIZES];
    char why[MAX_BACKENDS][256];
    for (size_t i = 0; i < nb; i++) {
        why[i][0] = '\0';
        if (mt_backend_check(s->ctx, backends[i]) != MT_OK) {
            snprintf(why[i], sizeof why[i], "%s", mt_ctx_error(s->ctx));
            for (size_t k = 0; k < ns; k++) secs[i * ns + k] = NAN;
            continue;
        }
        double warm;
        if (trial(in, op, backends[i], 16, &warm) != 0) return -1; /* timing.py's warm-up */
        for (size_t k = 0; k < ns; k++) {
            double sum = 0, t;
            for (int j = 0; j < TRIALS; j++) {
                if (trial(in, op, backends[i], sizes[k], &t) != 0) return -1;
                sum += t;
            }
            secs[i * ns + k] = sum / TRIALS;
        }
    }
    /* the table: sizes down, backends across, seconds as timing.py prints them */
    struct render_buf t, h;
    render_buf_init(&t, 0);
    render_buf_init(&h, 0);
    render_buf_printf(&t, "timing: %s of two rand((2, n, n)), mean of %d, seconds\n%6s", op, TRIALS,
                      "size");
    render_buf_puts(&h, "<table><thead><tr><th>size</th>");
    const char *names[MAX_BACKENDS];
    for (size_t i = 0; i < nb; i++) {
        names[i] = mt_backend_name(backends[i]);
        render_buf_printf(&t, "  %12s", names[i]);
        render_buf_printf(&h, "<th>%s (s)</th>", names[i]);
    }
    render_buf_puts(&t, "\n");
    render_buf_puts(&h, "</tr></thead><tbody>");
    double x[MAX_SIZES];
    for (size_t k = 0; k < ns; k++) {
        x[k] = (double)sizes[k];
        render_buf_printf(&t, "%6lld", (long long)sizes[k]);
        render_buf_printf(&h, "<tr><td>%lld</td>", (long long)sizes[k]);
        for (size_t i = 0; i < nb; i++) {
            double v = secs[i * ns + k];
            if (isnan(v)) {
                render_buf_printf(&t, "  %12s", "unavailable");
                render_buf_puts(&h, "<td>unavailable</td>");
            } else {
                render_buf_printf(&t, "  %12.5f", v);
                render_buf_printf(&h, "<td>%.5f</td>", v);
            }
        }
        render_buf_puts(&t, "\n");
        render_buf_puts(&h, "</tr>");
    }
    render_buf_puts(&h, "</tbody></table>");
    for (size_t i = 0; i < nb; i++)
        if (why[i][0]) {
            render_buf_printf(&t, "%s unavailable: %s\n", names[i], why[i]);
            render_buf_printf(&h, "<p>%s unavailable: ", names[i]);
            render_html_escape(&h, why[i], strlen(why[i]));
            render_buf_puts(&h, "</p>");
        }
    struct chart_lines lines = {"timing: seconds per op",
                                "size n",
                                "seconds",
                                "backend",
                                nb,
                                ns,
                                names,
                                x,
                                secs,
                                true,
                                true};
    json_t *bundle = t.nomem ? NULL
                             : chart_bundle(dsl_plot_renderer(s), render_buf_str(&t),
                                            chart_lines_spec(&lines), chart_lines_svg(&lines));
    if (bundle && !h.nomem && !json_object_get(bundle, "text/html"))
        json_object_set_new(bundle, "text/html", json_string(render_buf_str(&h)));
    render_buf_free(&t);
    render_buf_free(&h);
    if (!bundle) return dsl_raise_status(in, DSL_V_NOMEM);
    if (in->out->display) in->out->display(in->out->ctx, bundle, NULL, false);
    json_decref(bundle);
    *ret = dsl_none();
    return 0;
}
