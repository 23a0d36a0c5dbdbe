/* check.c — check("3.1") to check("3.4"): MiniTorch's tests of Tasks 3.1 to 3.4, run on the
 * student's backend (TensorBackend(YourOps), student.c): FastOps for 3.1 and 3.2, CudaOps (cuda.jit
 * kernels, on the GPU or in the simulator) for 3.3 and 3.4.
 *
 * The list is the course's own (its tests/test_tensor_general.py, marked task3_1 and task3_2):
 * tensors made from a list; every one-argument and two-argument function of its MathTest, forward
 * and with gradients; sums and means; gradients through broadcasting and a permutation; matmul
 * and batched matmul with a broadcast batch. Inputs are shaped as the course draws them (1 to 4
 * dims of 1 to 3, and laid out permuted as often as not), with values in [-100, 100] from a
 * generator of check's own, so that a check neither depends on nor changes the session's seed.
 * Each test runs on the student backend and on `simple`, which is the expected value; results
 * and gradients must agree within the course's tolerance (|got - expected| < 0.01, relative for
 * large values). The cases of a test go from the smallest input up, and the first failing one
 * is reported: it is the smallest input that shows the mistake. An exception raised by the
 * student's code is that case's failure, and the check goes on with the next test.
 *
 * check(task, part) runs the tests of one function of the student's ops alone (the table `parts`
 * at the end), so that a notebook can grade each function in a cell of its own. */
#include "lib/check.h"

#include "lang/interp.h"
#include "lang/library.h"
#include "lib/storage.h"
#include "lib/student.h"
#include "lib/tensor_methods.h"

#include "minitorch/minitorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* ---- the functions tested, in reverse Polish notation --------------------------------------- */

/* Tokens: a, b (the inputs), numbers (constants of shape (1,)), + - * / < > == (zip), neg inv
 * relu sigmoid log exp (map), neg>b id>b (the map into a tensor of b's shape, which the input
 * broadcasts to), sum0 sum1 sum2 max0 mean0 (over that dim, the dim kept), mean (of all), rev
 * (the dims reversed), @ (matmul). */
struct fn {
    const char *name;
    const char *rpn;
};

/* MiniTorch's MathTest: its one-argument functions, then its two-argument ones */
static const struct fn one_arg[] = {
    {"addConstant", "a 5 +"},  {"complex", "a 10 * 7 + relu 6 * 5 + relu 10 * sigmoid log 50 /"},
    {"cube", "a a * a *"},     {"div", "a 5 /"},
    {"exp", "a 200 - exp"},    {"explog", "a 100000 + log a 200 - exp +"},
    {"inv", "a 3.5 + inv"},    {"log", "a 100000 + log"},
    {"multConstant", "a 5 *"}, {"neg", "a neg"},
    {"relu", "a 5.5 + relu"},  {"sig", "a sigmoid"},
    {"square", "a a *"},       {"subConstant", "a 5 -"},
};
static const struct fn two_arg[] = {
    {"add2", "a b +"},       {"mul2", "a b *"},      {"div2", "a b 5.5 + /"},
    {"eq2", "a b 5.5 + =="}, {"gt2", "a 1.2 + b >"}, {"lt2", "a 1.2 + b <"},
};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *const input_names[] = {"a", "b"};

/* ---- one check run ------------------------------------------------------------------------ */

struct ck {
    struct dsl_interp *in;
    struct mt_ctx *ctx;
    uint64_t rng;
    struct render_buf table; /* a line per test */
    struct render_buf fails; /* what each failure was */
    int passed, failed;
    char first_failed[64];
    char last_err[1024];  /* the error of the last failure reported (said once when repeated) */
    char last_where[256]; /* and where it was raised */
    int stop;             /* 0, or -1 when an interrupt or running out of memory ends the check */
    const char *const *names; /* what a report calls the inputs: "a", "b" */
    bool second_is_out;       /* the second input is only the shape of a map's output */
};

double dsl_check_draw(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0 * 200.0 - 100.0;
}

/* [-100, 100) in steps the course's floats can take */
static float draw(struct ck *k) { return (float)dsl_check_draw(&k->rng); }

void dsl_check_error_place(const struct dsl_interp *in, const struct dsl_code *skip, char *buf,
                           size_t n)
{
    *buf = 0;
    const struct dsl_tb_entry *e = NULL;
    for (size_t i = 0; i < in->ntb && !e; i++)
        if (in->tb[i].code && in->tb[i].code != skip) e = &in->tb[i];
    if (!e) return;
    const char *src = e->code->src, *start = src;
    int line = 1;
    for (size_t i = 0; i < e->pos && src[i]; i++)
        if (src[i] == '\n') line++, start = src + i + 1;
    while (*start == ' ' || *start == '\t') start++;
    int len = (int)strcspn(start, "\n");
    snprintf(buf, n, " (in %s(), line %d of the cell defining it: %.*s)", e->func, line,
             len > 120 ? 120 : len, start);
}

/* Why the last engine call failed: the student's exception when their code raised one (then no
 * longer pending), and where it was raised (into where, else after the message), or the
 * engine's message. */
static void failure_text(struct ck *k, enum mt_status st, char *buf, size_t n, char *where,
                         size_t wn)
{
    struct dsl_interp *in = k->in;
    if (in->ename) {
        char place[256];
        dsl_check_error_place(in, NULL, place, sizeof place);
        snprintf(buf, n, "%s: %s%s", in->ename, in->evalue ? in->evalue : "", where ? "" : place);
        if (where) snprintf(where, wn, "%s", place);
        if (strcmp(in->ename, "KeyboardInterrupt") == 0 || strcmp(in->ename, "MemoryError") == 0)
            k->stop = -1; /* the check ends; the error stays pending */
        else
            dsl_interp_clear_error(in);
        return;
    }
    snprintf(buf, n, "%s: %s", mt_status_ename(st), mt_ctx_error(k->ctx));
    if (st == MT_ERR_CANCELLED || st == MT_ERR_NOMEM) {
        k->stop = -1;
        dsl_engine_raise(in, st);
    }
}

#define STACK 8

/* Evaluates rpn on backend b's tensors a and b (borrowed; b may be NULL) into *out. */
static enum mt_status eval(struct ck *k, const char *rpn, struct mt_tensor *a, struct mt_tensor *b,
                           struct mt_tensor **out)
{
    struct mt_ctx *ctx = k->ctx;
    struct mt_tensor *st[STACK];
    int n = 0;
    enum mt_status s = MT_OK;
    char tok[16];
    for (const char *p = rpn; *p && s == MT_OK;) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        if (len == 0) break;
        snprintf(tok, sizeof tok, "%.*s", (int)len, p);
        p += len;
        struct mt_tensor *r = NULL, *x = n ? st[n - 1] : NULL, *y = n > 1 ? st[n - 2] : NULL;
        int pop = 0;
        if (strcmp(tok, "a") == 0 || strcmp(tok, "b") == 0) {
            r = mt_tensor_retain(tok[0] == 'a' ? a : b);
        } else if ((tok[0] >= '0' && tok[0] <= '9') || tok[0] == '.') {
            int64_t one = 1;
            s = mt_full(ctx, a->backend, 1, &one, strtof(tok, NULL), &r);
        } else if (strlen(tok) <= 2 && strchr("+-*/<>=@", tok[0])) {
            enum mt_status (*f)(struct mt_ctx *, struct mt_tensor *, struct mt_tensor *,
                                struct mt_tensor **) = NULL;
            switch (tok[0]) {
            case '+': f = mt_add; break;
            case '-': f = mt_sub; break;
            case '*': f = mt_mul; break;
            case '/': f = mt_div; break;
            case '<': f = mt_lt; break;
            case '>': f = mt_gt; break;
            case '=': f = mt_eq; break;
            default: f = mt_matmul; break;
            }
            s = f(ctx, y, x, &r);
            pop = 2;
        } else {
            static const struct {
                const char *name;
                enum mt_status (*f)(struct mt_ctx *, struct mt_tensor *, struct mt_tensor **);
            } maps[] = {{"neg", mt_neg},         {"inv", mt_inv}, {"relu", mt_relu},
                        {"sigmoid", mt_sigmoid}, {"log", mt_log}, {"exp", mt_exp}};
            int i = 0;
            while (i < COUNT(maps) && strcmp(maps[i].name, tok) != 0) i++;
            size_t tl = strlen(tok);
            if (i < COUNT(maps)) {
                s = maps[i].f(ctx, x, &r);
            } else if (tl > 2 && strcmp(tok + tl - 2, ">b") == 0) {
                int op = 0;
                while (op < MT_MAP_COUNT && (strlen(mt_map_name((enum mt_map_op)op)) != tl - 2 ||
                                             strncmp(mt_map_name((enum mt_map_op)op), tok, tl - 2)))
                    op++;
                s = op < MT_MAP_COUNT ? mt_zeros(ctx, x->backend, b->ndim, b->shape, &r)
                                      : MT_ERR_INVALID;
                if (s == MT_OK && (s = mt_map(ctx, (enum mt_map_op)op, x, &r)) != MT_OK) {
                    mt_tensor_release(r);
                    r = NULL;
                }
            } else if (strncmp(tok, "sum", 3) == 0 && tok[3] >= '0' && tok[3] <= '9') {
                s = mt_sum(ctx, x, tok[3] - '0', &r);
            } else if (strcmp(tok, "max0") == 0) {
                s = mt_max(ctx, x, 0, &r);
            } else if (strcmp(tok, "mean0") == 0) {
                s = mt_mean(ctx, x, 0, &r);
            } else if (strcmp(tok, "mean") == 0) {
                s = mt_mean(ctx, x, MT_ALL_DIMS, &r);
            } else { /* rev */
                int64_t order[MT_MAX_DIMS];
                for (int d = 0; d < x->ndim; d++) order[d] = x->ndim - 1 - d;
                s = mt_permute(ctx, x, x->ndim, order, &r);
            }
            pop = 1;
        }
        if (s != MT_OK) break;
        for (int i = 0; i < pop; i++) mt_tensor_release(st[--n]);
        st[n++] = r;
    }
    if (s == MT_OK) {
        *out = st[--n];
        st[n] = NULL;
    }
    for (int i = 0; i < n; i++) mt_tensor_release(st[i]);
    return s;
}

/* ---- inputs ------------------------------------------------------------------------------- */

/* the most values of an input or a result: the course's largest, (2, 45, 33) @ (2, 33, 40) */
#define MAX_VALUES 4096

/* One input: its shape and values (row-major), and whether it is laid out permuted (a view of
 * a tensor of the reversed shape, its dims reversed). */
struct input {
    int ndim;
    int64_t shape[MT_MAX_DIMS];
    bool permuted;
    float v[MAX_VALUES];
};

static int64_t numel(const struct input *x)
{
    int64_t n = 1;
    for (int d = 0; d < x->ndim; d++) n *= x->shape[d];
    return n;
}

/* The input as a tensor on backend b: a leaf (requires_grad when grad), and the view the
 * function takes (the leaf itself, or its dims reversed). */
static enum mt_status make(struct ck *k, const struct input *x, enum mt_backend b, bool grad,
                           struct mt_tensor **leaf, struct mt_tensor **view)
{
    int64_t shape[MT_MAX_DIMS];
    float data[MAX_VALUES];
    int64_t n = numel(x);
    for (int d = 0; d < x->ndim; d++)
        shape[d] = x->permuted ? x->shape[x->ndim - 1 - d] : x->shape[d];
    if (!x->permuted) {
        memcpy(data, x->v, sizeof(float) * (size_t)n);
    } else { /* element (i0..in) of the view is element (in..i0) of the leaf */
        for (int64_t i = 0; i < n; i++) {
            int64_t idx[MT_MAX_DIMS], rest = i, at = 0, stride = 1;
            for (int d = x->ndim - 1; d >= 0; d--) {
                idx[d] = rest % x->shape[d];
                rest /= x->shape[d];
            }
            for (int e = x->ndim - 1; e >= 0; e--) {
                at += idx[x->ndim - 1 - e] * stride;
                stride *= shape[e];
            }
            data[at] = x->v[i];
        }
    }
    enum mt_status s = mt_from_data(k->ctx, b, x->ndim, shape, data, leaf);
    if (s != MT_OK) return s;
    if (grad) mt_tensor_requires_grad(*leaf, true);
    if (!x->permuted) {
        *view = mt_tensor_retain(*leaf);
        return MT_OK;
    }
    int64_t order[MT_MAX_DIMS];
    for (int d = 0; d < x->ndim; d++) order[d] = x->ndim - 1 - d;
    s = mt_permute(k->ctx, *leaf, x->ndim, order, view);
    if (s != MT_OK) {
        mt_tensor_release(*leaf);
        *leaf = NULL;
    }
    return s;
}

/* ---- one case on one backend -------------------------------------------------------------- */

/* What a backend gave: the function's values, and the gradients of the inputs. */
struct outcome {
    int ndim;
    int64_t shape[MT_MAX_DIMS];
    float y[MAX_VALUES], g[2][MAX_VALUES];
    bool has_g[2];
    char err[1024];  /* non-empty: the case failed with this error */
    char where[256]; /* and where the student's code raised it, if it did */
};

enum variant {
    PLAIN,
    A_SUMMED, /* f(a.sum(0), b): a broadcast along dim 0 */
    B_SUMMED, /* f(a, b.sum(0)) */
};

/* Runs rpn on backend be for inputs x[0..nin) (with gradients when grad: of out.sum()). */
static void run_case(struct ck *k, const char *rpn, const struct input *x, int nin, enum variant v,
                     bool grad, enum mt_backend be, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    struct mt_tensor *leaf[2] = {NULL, NULL}, *view[2] = {NULL, NULL}, *y = NULL, *total = NULL;
    enum mt_status s = MT_OK;
    for (int i = 0; i < nin && s == MT_OK; i++) s = make(k, &x[i], be, grad, &leaf[i], &view[i]);
    for (int i = 0; i < nin && s == MT_OK; i++)
        if ((i == 0 && v == A_SUMMED) || (i == 1 && v == B_SUMMED)) {
            struct mt_tensor *t = NULL;
            s = mt_sum(k->ctx, view[i], 0, &t);
            mt_tensor_release(view[i]);
            view[i] = t;
        }
    if (s == MT_OK) s = eval(k, rpn, view[0], view[1], &y);
    if (s == MT_OK && grad) s = mt_sum(k->ctx, y, MT_ALL_DIMS, &total);
    if (s == MT_OK && grad) s = mt_backward(k->ctx, total, NULL);
    if (s == MT_OK && y->size <= MAX_VALUES) {
        o->ndim = y->ndim;
        memcpy(o->shape, y->shape, sizeof o->shape);
        s = mt_tensor_copy_out(y, o->y);
    }
    for (int i = 0; i < nin && s == MT_OK && grad; i++)
        if (leaf[i]->grad) { /* in the layout of the input as the function took it */
            struct mt_tensor *g = mt_tensor_retain(leaf[i]->grad);
            if (x[i].permuted) {
                int64_t order[MT_MAX_DIMS];
                for (int d = 0; d < x[i].ndim; d++) order[d] = x[i].ndim - 1 - d;
                mt_tensor_release(g);
                g = NULL;
                s = mt_permute(k->ctx, leaf[i]->grad, x[i].ndim, order, &g);
            }
            o->has_g[i] = true;
            if (s == MT_OK) s = mt_tensor_copy_out(g, o->g[i]);
            mt_tensor_release(g);
        }
    if (s != MT_OK) failure_text(k, s, o->err, sizeof o->err, o->where, sizeof o->where);
    mt_tensor_release(total);
    mt_tensor_release(y);
    for (int i = 0; i < 2; i++) {
        mt_tensor_release(view[i]);
        mt_tensor_release(leaf[i]);
    }
}

/* ---- comparing and reporting -------------------------------------------------------------- */

static bool close_to(float got, float want)
{
    if (isnan(want) || isnan(got)) return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got)) return got == want;
    return fabsf(got - want) < 1e-2f + 1e-5f * fabsf(want);
}

/* Values past this many are summarised: a report reads in a notebook's output area. */
#define SHOWN_VALUES 10

/* Appends values of the given shape as nested lists, as tolist() gives them; more than
 * SHOWN_VALUES as the first and last few in row-major order and their count. */
static void put_values(struct render_buf *b, int ndim, const int64_t *shape, const float *v)
{
    int64_t inner = 1, n = ndim ? shape[0] : 1;
    for (int d = 1; d < ndim; d++) inner *= shape[d];
    if (n * inner > SHOWN_VALUES) {
        render_buf_puts(b, "[");
        for (int64_t i = 0; i < 6; i++) render_buf_printf(b, "%.6g, ", (double)v[i]);
        render_buf_puts(b, "...");
        for (int64_t i = n * inner - 3; i < n * inner; i++)
            render_buf_printf(b, ", %.6g", (double)v[i]);
        render_buf_printf(b, "] (%lld values, row by row)", (long long)(n * inner));
        return;
    }
    render_buf_puts(b, "[");
    for (int64_t i = 0; i < n; i++) {
        if (i) render_buf_puts(b, ", ");
        if (ndim > 1)
            put_values(b, ndim - 1, shape + 1, v + i * inner);
        else
            render_buf_printf(b, "%.6g", (double)v[i]);
    }
    render_buf_puts(b, "]");
}

/* A tensor as a kernel gets it (*t.tuple()): "shape (2, 3), strides (1, 2), storage of 6" */
static void put_layout(struct render_buf *b, int ndim, const int64_t *shape, const int64_t *strides,
                       int64_t storage)
{
    char sh[160], st[160];
    render_buf_printf(b, "shape %s, strides %s, storage of %lld",
                      mt_shape_str(ndim, shape, sh, sizeof sh),
                      mt_shape_str(ndim, strides, st, sizeof st), (long long)storage);
}

/* Input x as the function under test takes it: its layout, for a summed input (f(a.sum(0), b))
 * the sum's, and its values. */
static void put_input(struct render_buf *b, const char *name, const struct input *x, bool summed)
{
    int64_t st[MT_MAX_DIMS], stride = 1;
    if (x->permuted) { /* the leaf's dim e is the view's ndim-1-e */
        for (int e = x->ndim - 1; e >= 0; e--) {
            st[x->ndim - 1 - e] = stride;
            stride *= x->shape[x->ndim - 1 - e];
        }
    } else {
        for (int e = x->ndim - 1; e >= 0; e--) st[e] = stride, stride *= x->shape[e];
    }
    render_buf_printf(b, "  %s: ", name);
    put_layout(b, x->ndim, x->shape, st, numel(x));
    render_buf_puts(b, x->permuted ? " (permuted)" : "");
    if (summed) { /* the sum over dim 0 is a new contiguous tensor */
        int64_t sh[MT_MAX_DIMS], cs[MT_MAX_DIMS], n = 1;
        memcpy(sh, x->shape, sizeof *sh * (size_t)x->ndim);
        sh[0] = 1;
        for (int e = x->ndim - 1; e >= 0; e--) cs[e] = n, n *= sh[e];
        render_buf_printf(b, "; the function takes %s.sum(0): ", name);
        put_layout(b, x->ndim, sh, cs, n);
    }
    render_buf_puts(b, "\n    values ");
    put_values(b, x->ndim, x->shape, x->v);
    render_buf_puts(b, "\n");
}

/* The index of element i of a tensor of the given shape, as "(1, 0, 2)". */
static const char *index_str(int ndim, const int64_t *shape, int64_t i, char *buf, size_t n)
{
    int64_t idx[MT_MAX_DIMS];
    for (int d = ndim - 1; d >= 0; d--) {
        idx[d] = i % shape[d];
        i /= shape[d];
    }
    return mt_shape_str(ndim, idx, buf, n);
}

/* Compares the student's outcome with simple's; on a difference, writes the report (what went
 * wrong first, then the inputs as the function took them) and says false. v: the variant run. */
static bool agree(struct ck *k, const char *test, const struct input *x, int nin, enum variant v,
                  const struct outcome *got, const struct outcome *want)
{
    struct render_buf *b = &k->fails;
    const char *what = NULL;
    const float *g = NULL, *w = NULL;
    int ndim = want->ndim;
    const int64_t *shape = want->shape;
    int64_t n = 1, bad = 0, first = -1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    char label[48] = "";
    if (!got->err[0]) {
        if (got->ndim != want->ndim ||
            memcmp(got->shape, want->shape, sizeof *shape * (size_t)ndim) != 0) {
            what = "shape";
        } else {
            for (int64_t i = 0; i < n; i++)
                if (!close_to(got->y[i], want->y[i])) bad++, first = first < 0 ? i : first;
            if (bad) what = "values", g = got->y, w = want->y;
            for (int j = 0; j < nin && !what; j++) {
                snprintf(label, sizeof label, "gradient of %s", k->names[j]);
                if (want->has_g[j] != got->has_g[j]) {
                    what = label;
                    break;
                }
                int64_t m = want->has_g[j] ? numel(&x[j]) : 0;
                for (int64_t i = 0; i < m; i++)
                    if (!close_to(got->g[j][i], want->g[j][i]))
                        bad++, first = first < 0 ? i : first;
                if (bad)
                    what = label, g = got->g[j], w = want->g[j], ndim = x[j].ndim,
                    shape = x[j].shape, n = m;
            }
            if (!what) return true;
        }
    }
    if (got->err[0] && strcmp(got->err, k->last_err) == 0) {
        render_buf_printf(b, "FAILED %s: the same error%s\n", test,
                          strcmp(got->where, k->last_where) ? got->where : "");
        snprintf(k->last_where, sizeof k->last_where, "%s", got->where);
        return false;
    }
    snprintf(k->last_err, sizeof k->last_err, "%s", got->err);
    snprintf(k->last_where, sizeof k->last_where, "%s", got->where);
    render_buf_printf(b, "\nFAILED %s: ", test);
    char s1[160], s2[160];
    if (got->err[0]) {
        render_buf_printf(b, "your backend raised %s%s\n", got->err, got->where);
    } else if (!g && strcmp(what, "shape") == 0) {
        render_buf_printf(b, "expected a result of shape %s, got %s\n",
                          mt_shape_str(want->ndim, want->shape, s1, sizeof s1),
                          mt_shape_str(got->ndim, got->shape, s2, sizeof s2));
    } else if (!g) {
        render_buf_printf(b, "expected a %s, got none (no gradient reached it)\n", what);
    } else {
        render_buf_printf(b,
                          "%lld of the %lld values of the %s differ, the first at %s: "
                          "expected %.6g, got %.6g\n",
                          (long long)bad, (long long)n, strcmp(what, "values") ? what : "result",
                          index_str(ndim, shape, first, s1, sizeof s1), (double)w[first],
                          (double)g[first]);
    }
    for (int j = 0; j < nin; j++)
        if (j == 1 && k->second_is_out) { /* a map into a larger out: only its shape counts */
            render_buf_printf(b, "  out: shape %s (the map's output, which a broadcasts to)\n",
                              mt_shape_str(x[j].ndim, x[j].shape, s1, sizeof s1));
        } else {
            put_input(b, k->names[j], &x[j],
                      (j == 0 && v == A_SUMMED) || (j == 1 && v == B_SUMMED));
        }
    if (g) {
        render_buf_puts(b, "  expected ");
        put_values(b, ndim, shape, w);
        render_buf_puts(b, "\n  got      ");
        put_values(b, ndim, shape, g);
        render_buf_puts(b, "\n");
    }
    return false;
}

/* ---- tests -------------------------------------------------------------------------------- */

/* The shapes of the elementwise tests, smallest first: the course's 1 to 4 dims of 1 to 3. */
static const int64_t shapes[][5] = {
    {1, 1},       {1, 2},       {1, 3},          {2, 2, 3},       {2, 3, 1},
    {3, 1, 2, 3}, {3, 3, 2, 2}, {4, 2, 3, 1, 2}, {4, 3, 3, 3, 3},
};

static void fill(struct ck *k, struct input *x, int ndim, const int64_t *shape, bool permuted)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    if (n > MAX_VALUES) abort(); /* the tests' shapes are the check's own */
    x->ndim = ndim;
    memcpy(x->shape, shape, sizeof *shape * (size_t)ndim);
    x->permuted = permuted;
    for (int64_t i = 0; i < numel(x); i++) x->v[i] = draw(k);
}

/* Runs one test over its cases (each of x's shapes, contiguous then permuted; for each, the
 * variants in the mask 1 << enum variant) until one fails; adds its line to the table. */
static void test_cases(struct ck *k, const char *test, const char *rpn, int nin, unsigned variants,
                       bool grad, const struct input *cases, int ncases)
{
    static const char *const vname[] = {"", " as f(a.sum(0), b)", " as f(a, b.sum(0))"};
    int ran = 0;
    bool ok = true;
    struct outcome *got = malloc(sizeof *got), *want = malloc(sizeof *want);
    if (!got || !want) {
        free(got);
        free(want);
        k->stop = -1;
        dsl_raise_status(k->in, DSL_V_NOMEM);
        return;
    }
    for (int c = 0; c + nin <= ncases && ok && !k->stop; c += nin) {
        const struct input *x = &cases[c];
        ran++;
        for (int v = PLAIN; v <= B_SUMMED && ok && !k->stop; v++) {
            if (!(variants & (1u << v))) continue;
            run_case(k, rpn, x, nin, (enum variant)v, grad, MT_BACKEND_STUDENT, got);
            if (!k->stop) run_case(k, rpn, x, nin, (enum variant)v, grad, MT_BACKEND_SIMPLE, want);
            if (k->stop) break;
            char what[96];
            snprintf(what, sizeof what, "%s%s", test, vname[v]);
            if (want->err[0]) { /* the reference cannot fail on these inputs: the check's bug */
                render_buf_printf(&k->fails, "\nFAILED %s: simple raised %s\n", what, want->err);
                ok = false;
            } else {
                ok = agree(k, what, x, nin, (enum variant)v, got, want);
            }
        }
    }
    free(got);
    free(want);
    if (k->stop) return;
    render_buf_printf(&k->table, "  %-36s %3d case%s  %s\n", test, ran, ran == 1 ? " " : "s",
                      ok ? "passed" : "FAILED");
    if (ok) {
        k->passed++;
    } else {
        if (!k->failed) snprintf(k->first_failed, sizeof k->first_failed, "%s", test);
        k->failed++;
    }
}

/* The elementwise tests' cases: every shape, contiguous, then permuted when it has 2 dims or
 * more; nin inputs of one shape and layout (as the course's shaped_tensors). */
static int elementwise_cases(struct ck *k, int nin, struct input *cases, int cap)
{
    int n = 0;
    for (int s = 0; s < COUNT(shapes); s++)
        for (int p = 0; p < 2; p++) {
            int ndim = (int)shapes[s][0];
            if ((p && ndim < 2) || n + nin > cap) continue;
            for (int i = 0; i < nin; i++) fill(k, &cases[n++], ndim, &shapes[s][1], p);
        }
    return n;
}

/* A test "prefix[name]" for each function, on the cases given. */
static void tests(struct ck *k, const char *prefix, const struct fn *fns, int nfns, int nin,
                  unsigned variants, bool grad, const struct input *cases, int ncases)
{
    char name[64];
    for (int f = 0; f < nfns && !k->stop; f++) {
        snprintf(name, sizeof name, "%s[%s]", prefix, fns[f].name);
        test_cases(k, name, fns[f].rpn, nin, variants, grad, cases, ncases);
    }
}

/* One family of tests, "prefix[name]" for each function, on fresh elementwise cases. */
static void family(struct ck *k, const char *prefix, const struct fn *fns, int nfns, int nin,
                   unsigned variants, bool grad, struct input *cases, int cap)
{
    int n = elementwise_cases(k, nin, cases, cap);
    tests(k, prefix, fns, nfns, nin, variants, grad, cases, n);
}

static void task_3_1(struct ck *k, struct input *cases, int cap)
{
    static const struct fn create[] = {{"", "a"}}, permute[] = {{"", "a rev"}};
    static const struct fn reduces[] = {
        {"sum(0)", "a sum0"}, {"mean(0)", "a mean0"}, {"mean()", "a mean"}};
    /* create: a tensor made from values holds them */
    test_cases(k, "create", create[0].rpn, 1, 1, false, cases, elementwise_cases(k, 1, cases, cap));
    family(k, "one_args", one_arg, COUNT(one_arg), 1, 1, false, cases, cap);
    family(k, "two_args", two_arg, COUNT(two_arg), 2, 1, false, cases, cap);
    family(k, "one_derivative", one_arg, COUNT(one_arg), 1, 1, true, cases, cap);
    family(k, "two_grad", two_arg, COUNT(two_arg), 2, 1, true, cases, cap);
    family(k, "reduce", reduces, COUNT(reduces), 1, 1, true, cases, cap);
    /* the course checks f(a, b), f(a.sum(0), b) and f(a, b.sum(0)) for each function */
    family(k, "two_grad_broadcast", two_arg, COUNT(two_arg), 2, 7, true, cases, cap);
    if (!k->stop)
        test_cases(k, "permute", permute[0].rpn, 1, 1, true, cases,
                   elementwise_cases(k, 1, cases, cap));
}

/* Task 3.2's tests, with gradients (the whole task) or forward only (its part, which then runs
 * only matrix_multiply: a backward pass would run the student's other ops too). */
static void matmuls(struct ck *k, struct input *cases, int cap, bool grad)
{
    /* mm: (2, 3) @ (3, 4) as the course's test, then other sizes and layouts */
    static const int64_t mm[][3] = {{2, 3, 4}, {1, 1, 1}, {3, 2, 3}, {3, 3, 2}};
    int n = 0;
    for (int i = 0; i < COUNT(mm) && n + 2 <= cap; i++) {
        fill(k, &cases[n++], 2, (int64_t[]){mm[i][0], mm[i][1]}, i % 2 == 1);
        fill(k, &cases[n++], 2, (int64_t[]){mm[i][1], mm[i][2]}, i >= 2);
    }
    test_cases(k, "mm2", "a b @", 2, 1, grad, cases, n);
    /* bmm: a (D, A, B) not contiguous, b (1, B, C): the batch broadcast */
    static const int64_t bmm[][4] = {{2, 2, 2, 2}, {2, 3, 2, 4}, {3, 4, 3, 2}, {4, 4, 4, 4}};
    n = 0;
    for (int i = 0; i < COUNT(bmm) && n + 2 <= cap; i++) {
        fill(k, &cases[n++], 3, (int64_t[]){bmm[i][0], bmm[i][1], bmm[i][2]}, true);
        fill(k, &cases[n++], 3, (int64_t[]){1, bmm[i][2], bmm[i][3]}, false);
    }
    test_cases(k, "bmm", "a b @", 2, 1, grad, cases, n);
}

static void task_3_2(struct ck *k, struct input *cases, int cap) { matmuls(k, cases, cap, true); }

/* ---- the practice kernels: the student's own cuda.jit kernels, launched as the course does -- */

/* The session's cuda.jit kernel `name`, or NULL (the line saying why is added to the table). */
static const struct dsl_value *practice_kernel(struct ck *k, const char *test, const char *name)
{
    const struct dsl_value *v = dsl_session_lookup(k->in->session, name);
    if (v && v->kind == DSL_FUNCTION && v->as.fn_user->cuda_kernel) return v;
    render_buf_printf(&k->table, "  %-36s          FAILED\n", test);
    render_buf_printf(&k->fails,
                      "\nFAILED %s: no kernel %s in the session: write the template's _%s and "
                      "make it one as it does (%s = cuda.jit()(_%s))\n",
                      test, name, name + 4, name, name + 4);
    if (!k->failed) snprintf(k->first_failed, sizeof k->first_failed, "%s", test);
    k->failed++;
    return NULL;
}

/* A tensor of n values of simple's, drawn (n <= 1024 * 1024). */
static struct mt_tensor *drawn(struct ck *k, int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    float *v = malloc(sizeof *v * (size_t)n);
    struct mt_tensor *t = NULL;
    if (v) {
        for (int64_t i = 0; i < n; i++) v[i] = draw(k);
        if (mt_from_data(k->ctx, MT_BACKEND_SIMPLE, ndim, shape, v, &t) != MT_OK) t = NULL;
    }
    free(v);
    return t;
}

/* Launches kernel[blocks, threads](args): 0, or the error's text in err (then cleared). */
static int launch(struct ck *k, struct dsl_value kernel, int64_t blocks, int64_t tx, int64_t ty,
                  struct dsl_value *args, size_t n, char *err, size_t errlen)
{
    struct dsl_interp *in = k->in;
    struct dsl_value subs[2] = {dsl_int(blocks), dsl_none()}, launcher = dsl_none(), r = dsl_none();
    struct dsl_list *l = ty > 1 ? dsl_list_new(2) : NULL;
    if (l) {
        l->style = DSL_LIST_TUPLE;
        dsl_list_push(l, dsl_int(tx));
        dsl_list_push(l, dsl_int(ty));
        subs[1] = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    } else {
        subs[1] = dsl_int(tx);
    }
    int st = dsl_cuda_configure(in, kernel, subs, 2, &launcher);
    if (st == 0) st = dsl_call(in, launcher, args, n, NULL, NULL, 0, &r);
    dsl_value_release(launcher);
    dsl_value_release(r);
    dsl_value_release(subs[1]);
    if (st != 0) failure_text(k, MT_ERR_BACKEND, err, errlen, NULL, 0);
    return st;
}

/* The Storage of t (t._tensor._storage), or none after an error. */
static struct dsl_value storage_of(struct ck *k, struct mt_tensor *t)
{
    struct dsl_args a = {.self = dsl_tensor(t)};
    struct dsl_value tup = dsl_none(), s = dsl_none();
    if (dsl_tensor_tuple(k->in, &a, &tup) == 0) s = dsl_value_retain(tup.as.l->items[0]);
    dsl_value_release(tup);
    return s;
}

/* One practice test: the sums of a's blocks of 32 (sum_practice) or the product of two size x size
 * matrices (mm_practice), by the student's kernel as the course launches it, against simple. */
static void practice(struct ck *k, const char *test, bool mm, int64_t size)
{
    const struct dsl_value *kv =
        practice_kernel(k, test, mm ? "jit_mm_practice" : "jit_sum_practice");
    if (!kv) return;
    int64_t sq[2] = {size, size}, two = 2, flat = size * size;
    struct mt_tensor *a = mm ? drawn(k, 2, sq) : drawn(k, 1, &size);
    struct mt_tensor *b = mm ? drawn(k, 2, sq) : NULL, *out = NULL, *want = NULL;
    char err[768] = "";
    bool ok =
        a && (!mm || b) && mt_zeros(k->ctx, MT_BACKEND_SIMPLE, 1, mm ? &flat : &two, &out) == MT_OK;
    if (ok) {
        struct dsl_value args[4] = {storage_of(k, out), storage_of(k, a),
                                    mm ? storage_of(k, b) : dsl_int(size), dsl_int(size)};
        /* a failed launch leaves its error in err */
        if (mm)
            launch(k, *kv, 1, 32, 32, args, 4, err, sizeof err);
        else
            launch(k, *kv, size / 32 + 1, 32, 1, args, 3, err, sizeof err);
        for (int i = 0; i < 4; i++) dsl_value_release(args[i]);
    }
    /* the expected values: simple's sums of blocks of 32, or its matmul */
    float got[1024], exp_[1024];
    int64_t n = mm ? flat : 2;
    if (ok && !err[0] && mt_tensor_copy_out(out, got) != MT_OK) ok = false;
    if (ok && mm) {
        ok = mt_matmul(k->ctx, a, b, &want) == MT_OK && mt_tensor_copy_out(want, exp_) == MT_OK;
    } else if (ok) {
        float v[1024];
        ok = mt_tensor_copy_out(a, v) == MT_OK;
        exp_[0] = exp_[1] = 0;
        for (int64_t i = 0; i < size && i < 64; i++) exp_[i / 32] += v[i];
    }
    bool pass = ok && !err[0];
    for (int64_t i = 0; pass && i < n; i++) pass = close_to(got[i], exp_[i]);
    render_buf_printf(&k->table, "  %-36s %3d case   %s\n", test, 1, pass ? "passed" : "FAILED");
    if (pass) {
        k->passed++;
    } else {
        if (!k->failed) snprintf(k->first_failed, sizeof k->first_failed, "%s", test);
        k->failed++;
        if (err[0] && !mm && strstr(err, "IndexError") && strstr(err, "out of size 2"))
            render_buf_printf(&k->fails,
                              "\nFAILED %s: your kernel raised %s\n  The course launches "
                              "size // 32 + 1 = %lld blocks for %lld values and gives out 2 cells: "
                              "the last block has no cell of its own. A GPU would write past out "
                              "without a word (Numba's simulator raises, as this one does): let a "
                              "block write only when it has values (if i < size, or the block's "
                              "first value is inside a)\n",
                              test, err, (long long)(size / 32 + 1), (long long)size);
        else if (err[0])
            render_buf_printf(&k->fails, "\nFAILED %s: your kernel raised %s\n", test, err);
        else if (ok) {
            render_buf_printf(&k->fails, "\nFAILED %s:\n  expected: ", test);
            put_values(&k->fails, 1, &n, exp_);
            render_buf_puts(&k->fails, "\n  got:      ");
            put_values(&k->fails, 1, &n, got);
            render_buf_puts(&k->fails, "\n");
        }
    }
    mt_tensor_release(a);
    mt_tensor_release(b);
    mt_tensor_release(out);
    mt_tensor_release(want);
}

/* the course's sum_practice on 16, 64 and 48 values (cases unused: the signature of a part) */
static void sum_practice(struct ck *k, struct input *cases, int cap)
{
    (void)cases, (void)cap;
    practice(k, "sum_practice (16 values)", false, 16);
    practice(k, "sum_practice (64 values)", false, 64);
    practice(k, "sum_practice (48 values)", false, 48);
}

/* sums through the backend's reduce: 32 and 500 values, and a (16, 32) tensor along dim 1 (longer
 * than the elementwise shapes: more than one thread of a block adds) */
static void cuda_sums(struct ck *k, struct input *cases)
{
    static const int64_t sums[][3] = {{1, 32}, {1, 500}};
    for (int i = 0; i < COUNT(sums) && !k->stop; i++) {
        struct input *x = &cases[0];
        fill(k, x, 1, &sums[i][1], false);
        char name[48];
        snprintf(name, sizeof name, "sum(0) of %lld values", (long long)sums[i][1]);
        test_cases(k, name, "a sum0", 1, 1, false, x, 1);
    }
    if (!k->stop) {
        fill(k, &cases[0], 2, (int64_t[]){16, 32}, false);
        test_cases(k, "sum(1) of (16, 32)", "a rev sum0", 1, 1, false, cases, 1);
    }
}

static void task_3_3(struct ck *k, struct input *cases, int cap)
{
    sum_practice(k, cases, cap);
    cuda_sums(k, cases);
    /* and every test of Task 3.1, on the cuda backend the course's way */
    if (!k->stop) task_3_1(k, cases, cap);
}

static void mm_practice(struct ck *k, struct input *cases, int cap)
{
    (void)cases, (void)cap;
    practice(k, "mm_practice (2 x 2)", true, 2);
    practice(k, "mm_practice (32 x 32)", true, 32);
}

/* x @ y through the backend, forward as the course's test: 2 x 2, 33 x 33 (two blocks of tiles),
 * a batch of 2 of those, and (2, 45, 33) @ (2, 33, 40) */
static void mul_practice(struct ck *k, struct input *cases, int cap)
{
    static const int64_t mm[][4] = {
        {1, 2, 2, 2}, {1, 33, 33, 33}, {2, 33, 33, 33}, {2, 45, 33, 40}};
    int n = 0;
    for (int i = 0; i < COUNT(mm) && n + 2 <= cap; i++) {
        fill(k, &cases[n++], 3, (int64_t[]){mm[i][0], mm[i][1], mm[i][2]}, false);
        fill(k, &cases[n++], 3, (int64_t[]){mm[i][0], mm[i][2], mm[i][3]}, false);
    }
    test_cases(k, "mul_practice (x @ y)", "a b @", 2, 1, false, cases, n);
}

static void task_3_4(struct ck *k, struct input *cases, int cap)
{
    mm_practice(k, cases, cap);
    mul_practice(k, cases, cap);
    if (!k->stop) task_3_2(k, cases, cap);
}

/* ---- the parts: check(task, part) --------------------------------------------------------- */

/* A part tests one function of the student's ops alone, so that a notebook's cell can grade it on
 * its own: its tests run that function and no other (forward only: a backward pass runs the
 * others), and a bug in one function fails its part only. */

/* Makes the inputs cases[c] (c = 1, 3, ... when which is 1; 0, 2, ... when 0) of pairs smaller
 * so that they broadcast to their partners: a first dim of 1 (keeping the first values), or,
 * every other pair with 2 dims or more, one dim fewer. */
static void shrink(struct input *cases, int n, int which)
{
    for (int c = which; c < n; c += 2) {
        struct input *x = &cases[c];
        if ((c / 2) % 2 && x->ndim >= 2) {
            memmove(x->shape, x->shape + 1, sizeof *x->shape * (size_t)(x->ndim - 1));
            x->ndim--;
        } else {
            x->shape[0] = 1;
        }
    }
}

/* map: the functions that are one map each (MathTest's relu and inv add a constant first, which
 * is a zip); then a map into a larger out, which the input broadcasts to, as MiniTorch's
 * expand() and the backward of a broadcast op run it */
static void map_part(struct ck *k, struct input *cases, int cap)
{
    static const struct fn maps[] = {
        {"neg", "a neg"}, {"relu", "a relu"}, {"sigmoid", "a sigmoid"}, {"inv", "a inv"}};
    static const struct fn into[] = {{"neg", "a neg>b"}, {"id", "a id>b"}};
    family(k, "map", maps, COUNT(maps), 1, 1, false, cases, cap);
    int n = elementwise_cases(k, 2, cases, cap);
    shrink(cases, n, 0);
    k->second_is_out = true;
    tests(k, "map_broadcast", into, COUNT(into), 2, 1, false, cases, n);
    k->second_is_out = false;
}

/* zip: MathTest's two-argument functions, zips only (their constants, of shape (1,), are
 * broadcast); then b of a's shape but for a first dim of 1, or one dim fewer, broadcast against
 * a as zip's second argument and as its first (a summed input would be a reduce) */
static void zip_part(struct ck *k, struct input *cases, int cap)
{
    static const struct fn broadcast[] = {{"a + b", "a b +"}, {"b - a", "b a -"}};
    family(k, "zip", two_arg, COUNT(two_arg), 2, 1, false, cases, cap);
    int n = elementwise_cases(k, 2, cases, cap);
    shrink(cases, n, 1);
    tests(k, "zip_broadcast", broadcast, COUNT(broadcast), 2, 1, false, cases, n);
}

/* reduce: sums along dim 0 of the input, and of its dims reversed (a sum along its last dim, over
 * a view whose dims are not in memory order), a max (whose start value, -inf, is not a sum's 0:
 * a reduce that ignores out's start value fails it); then sums along each inner dim of inputs
 * that have it */
static void reduce_part(struct ck *k, struct input *cases, int cap)
{
    static const struct fn sums[] = {
        {"sum(0)", "a sum0"}, {"sum(0) of its dims reversed", "a rev sum0"}, {"max(0)", "a max0"}};
    static const struct fn inner[] = {{"sum(1)", "a sum1"}, {"sum(2)", "a sum2"}};
    family(k, "reduce", sums, COUNT(sums), 1, 1, false, cases, cap);
    for (int d = 1; d <= 2 && !k->stop; d++) {
        int n = elementwise_cases(k, 1, cases, cap), m = 0;
        for (int c = 0; c < n; c++)
            if (cases[c].ndim > d) cases[m++] = cases[c];
        tests(k, "reduce", &inner[d - 1], 1, 1, 1, false, cases, m);
    }
}

/* Task 3.3's reduce: 3.1's, then its own longer sums */
static void cuda_reduce_part(struct ck *k, struct input *cases, int cap)
{
    reduce_part(k, cases, cap);
    if (!k->stop) cuda_sums(k, cases);
}

static void matmul_part(struct ck *k, struct input *cases, int cap)
{
    matmuls(k, cases, cap, false);
}

/* Task 3.4's matrix_multiply: mul_practice, then 3.2's forward */
static void cuda_matmul_part(struct ck *k, struct input *cases, int cap)
{
    mul_practice(k, cases, cap);
    if (!k->stop) matmuls(k, cases, cap, false);
}

/* Each task (part NULL: the whole, check(task)) and its parts, in the order an error lists them,
 * with the ops it grades: those must be the student's own (written in their class, computed by
 * their kernels); the others may be inherited (Task 3.2's class derives from minitorch.FastOps,
 * whose map, zip and reduce its backward runs). */
#define OWN(kind) (1u << (kind))
#define OWN_EACH (OWN(DSL_SOP_MAP) | OWN(DSL_SOP_ZIP) | OWN(DSL_SOP_REDUCE))
static const struct part {
    const char *task, *name;
    void (*run)(struct ck *k, struct input *cases, int cap);
    unsigned own;
} parts[] = {
    {"3.1", NULL, task_3_1, OWN_EACH},
    {"3.1", "map", map_part, OWN(DSL_SOP_MAP)},
    {"3.1", "zip", zip_part, OWN(DSL_SOP_ZIP)},
    {"3.1", "reduce", reduce_part, OWN(DSL_SOP_REDUCE)},
    {"3.2", NULL, task_3_2, OWN(DSL_SOP_MATMUL)},
    {"3.2", "matrix_multiply", matmul_part, OWN(DSL_SOP_MATMUL)},
    {"3.3", NULL, task_3_3, OWN_EACH},
    {"3.3", "sum_practice", sum_practice, 0},
    {"3.3", "map", map_part, OWN(DSL_SOP_MAP)},
    {"3.3", "zip", zip_part, OWN(DSL_SOP_ZIP)},
    {"3.3", "reduce", cuda_reduce_part, OWN(DSL_SOP_REDUCE)},
    {"3.4", NULL, task_3_4, OWN(DSL_SOP_MATMUL)},
    {"3.4", "mm_practice", mm_practice, 0},
    {"3.4", "matrix_multiply", cuda_matmul_part, OWN(DSL_SOP_MATMUL)},
};

/* The row of task's part (NULL: the whole task), or NULL. */
static const struct part *find_part(const char *task, const char *name)
{
    for (int i = 0; i < COUNT(parts); i++)
        if (strcmp(parts[i].task, task) == 0 &&
            (name ? parts[i].name && strcmp(parts[i].name, name) == 0 : !parts[i].name))
            return &parts[i];
    return NULL;
}

/* ---- check(task, part) -------------------------------------------------------------------- */

int dsl_check_report(struct dsl_interp *in, const char *head, const char *table, const char *fails,
                     int passed, int failed, const char *task, const char *part, const char *first,
                     double seconds)
{
    struct dsl_session *s = in->session;
    struct render_buf b;
    render_buf_init(&b, 0);
    render_buf_puts(&b, head);
    if (s->grader_rebound)
        render_buf_printf(&b,
                          "%u attempt%s of this session's cells to give the name check "
                          "another value %s refused: this is the kernel's own check\n",
                          s->grader_rebound, s->grader_rebound == 1 ? "" : "s",
                          s->grader_rebound == 1 ? "was" : "were");
    render_buf_puts(&b, table);
    if (*table && table[strlen(table) - 1] != '\n') render_buf_puts(&b, "\n");
    render_buf_printf(&b, "%d passed, %d failed (%.1f s)\n", passed, failed, seconds);
    render_buf_puts(&b, fails);
    if (*fails && fails[strlen(fails) - 1] != '\n') render_buf_puts(&b, "\n");
    int r = 0;
    if (b.nomem) {
        r = dsl_raise_status(in, DSL_V_NOMEM);
    } else {
        dsl_emit(in, "stdout", b.data ? b.data : "");
        if (failed)
            r = dsl_raise(in, "AssertionError",
                          "%d of %d tests of Task %s%s%s%s failed (the first: %s); see above",
                          failed, passed + failed, task, part ? " (" : "", part ? part : "",
                          part ? ")" : "", first);
    }
    render_buf_free(&b);
    return r;
}

/* The task's name: check("3.1") or check(3.1). 0, or -1 after raising. */
static int task_name(struct dsl_interp *in, struct dsl_value t, char *task, size_t n)
{
    if (t.kind == DSL_STR)
        snprintf(task, n, "%s", t.as.s->data);
    else if (dsl_is_number(t) && t.kind != DSL_BOOL)
        snprintf(task, n, "%.1f", dsl_as_double(t));
    else
        return dsl_raise(in, "TypeError", "check() takes a task's name (\"3.1\"), not %s",
                         dsl_type_name(t));
    return 0;
}

/* The seed the inputs are drawn with: the one given, else a fresh one. Inputs are drawn afresh
 * at every check (a student who copied the values a report showed into their code does not pass
 * the next one), from the system's randomness; the report says which, so that a failure can be
 * drawn again. 0, or -1 after raising. */
static int check_seed(struct dsl_interp *in, const struct dsl_args *a, uint64_t *seed)
{
    *seed = 0;
    if (a->has[2] && a->slot[2].kind != DSL_NONE) {
        if (!dsl_is_intlike(a->slot[2]) || a->slot[2].kind == DSL_BOOL)
            return dsl_raise(in, "TypeError", "check()'s seed is an int, not %s",
                             dsl_type_name(a->slot[2]));
        *seed = (uint64_t)dsl_as_int(a->slot[2]);
        return 0;
    }
    if (getrandom(seed, sizeof *seed, 0) != (ssize_t)sizeof *seed)
        *seed = (uint64_t)mt_now_ns() ^ (uint64_t)getpid() << 32;
    *seed &= (1ull << 48) - 1; /* short enough to type */
    return 0;
}

int dsl_bi_check(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    char task[16];
    if (task_name(in, a->slot[0], task, sizeof task) != 0) return -1;
    const struct part *p = find_part(task, NULL);
    bool course = dsl_check_course_task(task);
    if (!p && !course)
        return dsl_raise(in, "ValueError",
                         "check() knows the tasks \"0.1\" to \"0.4\" (operators, properties, "
                         "higher-order functions, Module), \"1.1\" to \"1.5\" (central "
                         "differences, Scalar, chain rule, backpropagation, the network), "
                         "\"2.1\" to \"2.5\" (indexing, broadcasting, tensor functions forward "
                         "and backward, the network), \"3.1\" (map, zip, "
                         "reduce), \"3.2\" (matrix multiply), \"3.3\" (the same as CUDA kernels), "
                         "\"3.4\" (CUDA matrix multiply) and \"4.1\" to \"4.4\" (1-D and 2-D "
                         "convolution, pooling, max, softmax and dropout), not \"%s\"",
                         task);
    struct dsl_value pv = a->has[1] ? a->slot[1] : dsl_none();
    if (pv.kind != DSL_NONE && pv.kind != DSL_STR)
        return dsl_raise(in, "TypeError", "check() takes a part's name (\"map\") or none, not %s",
                         dsl_type_name(pv));
    const char *part = pv.kind == DSL_STR ? pv.as.s->data : NULL;
    char call[96]; /* how the report names the call: check("3.1") or check("3.1", "map") */
    if (part)
        snprintf(call, sizeof call, "check(\"%s\", \"%.40s\")", task, part);
    else
        snprintf(call, sizeof call, "check(\"%s\")", task);
    uint64_t seed;
    if (course)
        return check_seed(in, a, &seed) != 0 ? -1
                                             : dsl_check_course(in, task, part, seed, call, ret);
    if (part && !(p = find_part(task, part))) {
        /* the task's parts, listed: "map", "zip" and "reduce" */
        char names[256] = "";
        int total = 0, n = 0;
        size_t len = 0;
        for (int i = 0; i < COUNT(parts); i++)
            total += parts[i].name && !strcmp(parts[i].task, task);
        for (int i = 0; i < COUNT(parts) && len < sizeof names; i++) {
            if (!parts[i].name || strcmp(parts[i].task, task) != 0) continue;
            const char *sep = n == 0 ? "" : n == total - 1 ? " and " : ", ";
            n++;
            len +=
                (size_t)snprintf(names + len, sizeof names - len, "%s\"%s\"", sep, parts[i].name);
        }
        return dsl_raise(in, "ValueError", "check(\"%s\") has the part%s %s, not \"%s\"", task,
                         total == 1 ? "" : "s", names, part);
    }
    bool cuda = strcmp(task, "3.3") == 0 || strcmp(task, "3.4") == 0;
    struct dsl_session *s = in->session;
    /* a part that grades none of the backend's ops (the practice kernels, which the course
     * writes before its ops class) runs without one */
    const bool backend = p->own != 0;
    if (backend && s->student_ops.kind != DSL_CLASS)
        return dsl_raise(in, "RuntimeError",
                         "%s tests your backend, and there is none yet: write your "
                         "ops class (class %s(TensorOps): ...), then make it the backend "
                         "with %s = minitorch.TensorBackend(%s)",
                         call, cuda ? "CudaOps" : "FastOps",
                         cuda ? "GPUBackend" : "FastTensorBackend", cuda ? "CudaOps" : "FastOps");
    if (check_seed(in, a, &seed) != 0) return -1;
    char refreshed[256];
    dsl_student_refresh(in, refreshed, sizeof refreshed);
    struct ck k = {.in = in, .ctx = s->ctx, .rng = seed, .names = input_names};
    render_buf_init(&k.table, 0);
    render_buf_init(&k.fails, 0);
    enum { CAP = 64 };
    struct input *cases = malloc(sizeof *cases * CAP);
    if (!cases) return dsl_raise_status(in, DSL_V_NOMEM);
    int64_t t0 = mt_now_ns();
    unsigned grading = s->grading;
    s->grading = p->own;
    p->run(&k, cases, CAP);
    s->grading = grading;
    free(cases);
    int r = k.stop;
    if (r == 0) {
        char head[1024], on[160];
        if (backend)
            snprintf(on, sizeof on, "backend (%s)", s->student_ops.as.cls->name);
        else
            snprintf(on, sizeof on, "kernel (_%s)", p->name);
        snprintf(head, sizeof head,
                 "%s: MiniTorch's Task %s tests%s%s on your %s, expected values from simple, "
                 "inputs drawn with seed %llu\n%s",
                 call, task, p->name ? " of " : "", p->name ? p->name : "", on,
                 (unsigned long long)seed, refreshed);
        r = dsl_check_report(in, head, k.table.data ? k.table.data : "",
                             k.fails.data ? k.fails.data : "", k.passed, k.failed, task, p->name,
                             k.first_failed, (double)(mt_now_ns() - t0) * 1e-9);
    }
    render_buf_free(&k.table);
    render_buf_free(&k.fails);
    if (r == 0) *ret = dsl_none();
    return r;
}
