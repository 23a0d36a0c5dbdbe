/* iterables.c — Python's builtins over iterables: map, zip, filter, reduce, enumerate, sorted,
 * reversed, any, all, min and max, as CPython 3 computes them and with its messages.
 *
 * They return lists (zip and enumerate: lists of tuples), made at once, where Python 3 returns
 * lazy iterators: list(map(...)), `for x in zip(...)` and zip(*pairs) give Python's results,
 * and the function a map calls runs for every item before the result is used. A loop over a
 * call of zip itself walks the iterables lazily instead (lang/eval.c, dsl_zip_loop_start).
 *
 * map, zip and reduce are also MiniTorch's tensor operations: map(fn, t, out=none),
 * zip(fn, a, b) and reduce(fn, t, dim, start=0.0) compile fn into one kernel over tensors
 * (lib/compile.c). Which form a call takes is decided here, in dsl_iter_dispatch, and nowhere
 * else:
 *
 *     the tensor form when a data argument (one after the function) is a tensor, or when the
 *     call passes a keyword (t=, out=, a=, b=, dim=, start= exist only in the tensor forms);
 *     Python's form otherwise.
 *
 * So map(f, x) with x a tensor is the compiled kernel, map(f, [1, 2]) and zip(*pairs) are
 * Python's, and zip(f, 1.0, t) (a number beside a tensor) stays the tensor form. */
#include "lib/iterables.h"

#include "lang/eval.h"
#include "lang/interp.h"
#include "lang/library.h"
#include "lang/list.h"

#include "minitorch/minitorch.h"

#include <stdlib.h>
#include <string.h>

/* ---- the dispatch ------------------------------------------------------------------------ */

int dsl_iter_dispatch(struct dsl_interp *in, const struct dsl_args *a,
                      const struct dsl_builtin *tensor_row, dsl_builtin_fn python,
                      struct dsl_value *ret)
{
    bool tensor = false;
    for (size_t i = 1; i < a->nrest; i++) tensor = tensor || a->rest[i].kind == DSL_TENSOR;
    char *names[DSL_MAX_PARAMS];
    struct dsl_value vals[DSL_MAX_PARAMS];
    size_t nkw = 0;
    for (int i = 0; i < DSL_MAX_PARAMS && tensor_row->params && tensor_row->params[i]; i++)
        if (a->has[i]) {
            names[nkw] = (char *)tensor_row->params[i]; /* read only, as the row's */
            vals[nkw++] = a->slot[i];
        }
    if (!tensor && nkw == 0) return python(in, a, ret);
    /* the tensor form's own arity and keywords: bound again to its row */
    struct dsl_args t;
    if (dsl_bind_args(in, tensor_row, a->rest, a->nrest, names, vals, nkw, &t) != 0) return -1;
    return tensor_row->fn(in, &t, ret);
}

/* ---- helpers ----------------------------------------------------------------------------- */

static int poll_cancel(struct dsl_interp *in)
{
    return mt_cancel_requested() ? dsl_raise(in, "KeyboardInterrupt", "interrupted") : 0;
}

static struct dsl_value list_value(struct dsl_list *l)
{
    return (struct dsl_value){.kind = DSL_LIST, .as.l = l};
}

/* Appends v (owned) to the list being built: 0, or -1 after raising. */
static int push(struct dsl_interp *in, struct dsl_list *l, struct dsl_value v)
{
    int st = dsl_list_push(l, v);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

/* fn(x) (x borrowed) into *out. */
static int call1(struct dsl_interp *in, struct dsl_value fn, struct dsl_value x,
                 struct dsl_value *out)
{
    return dsl_call(in, fn, &x, 1, NULL, NULL, 0, out);
}

/* Python truth; a tensor of more than one element is the ValueError it is in an `if`. */
static int truth(struct dsl_interp *in, struct dsl_value v, bool *out)
{
    return dsl_truth(in, v, out);
}

/* The items of iterable v as a new plain list (one reference) in *out. */
static int items_of(struct dsl_interp *in, struct dsl_value v, struct dsl_list **out)
{
    struct dsl_iter it;
    if (dsl_iter_init(in, v, &it) != 0) return -1;
    struct dsl_list *l = dsl_list_new(0);
    if (!l) {
        dsl_iter_end(&it);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    struct dsl_value item;
    int got;
    while ((got = dsl_iter_next(in, &it, &item)) > 0)
        if (push(in, l, item) != 0) {
            got = -1;
            break;
        }
    dsl_iter_end(&it);
    if (got < 0) {
        dsl_value_release(list_value(l));
        return -1;
    }
    *out = l;
    return 0;
}

/* ---- Python's forms of map, zip and reduce ----------------------------------------------- */

/* The rows of fn(items of its[0], items of its[1], ...) side by side, shortest first to end:
 * each row's items are passed to `each` (borrowed), which returns 0 or -1. */
static int side_by_side(struct dsl_interp *in, const struct dsl_value *its, size_t n,
                        int (*each)(struct dsl_interp *, void *, const struct dsl_value *, size_t),
                        void *ctx)
{
    struct dsl_iter small_it[8];
    struct dsl_value small_row[8];
    struct dsl_iter *it = n <= 8 ? small_it : malloc(n * sizeof *it);
    struct dsl_value *row = n <= 8 ? small_row : malloc(n * sizeof *row);
    int r = -1;
    size_t started = 0;
    if (!it || !row) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    while (started < n && dsl_iter_init(in, its[started], &it[started]) == 0) started++;
    if (started < n) goto done;
    for (;;) {
        size_t got = 0;
        int g = 1;
        while (got < n && (g = dsl_iter_next(in, &it[got], &row[got])) > 0) got++;
        int e = g < 0 ? -1 : got < n ? 1 : each(in, ctx, row, n);
        for (size_t i = 0; i < got; i++) dsl_value_release(row[i]);
        if (e != 0) {
            r = e < 0 ? -1 : 0;
            break;
        }
        if (poll_cancel(in) != 0) break;
    }
done:
    for (size_t i = 0; it && i < started; i++) dsl_iter_end(&it[i]);
    if (it != small_it) free(it);
    if (row != small_row) free(row);
    return r;
}

struct row_ctx {
    struct dsl_value fn; /* map: the function */
    struct dsl_list *out;
};

static int map_row(struct dsl_interp *in, void *ctx, const struct dsl_value *row, size_t n)
{
    struct row_ctx *c = ctx;
    struct dsl_value v;
    if (dsl_call(in, c->fn, row, n, NULL, NULL, 0, &v) != 0) return -1;
    return push(in, c->out, v);
}

static int zip_row(struct dsl_interp *in, void *ctx, const struct dsl_value *row, size_t n)
{
    struct row_ctx *c = ctx;
    struct dsl_list *t = dsl_list_new(n);
    if (!t) return dsl_raise_status(in, DSL_V_NOMEM);
    t->style = DSL_LIST_TUPLE;
    for (size_t i = 0; i < n; i++) dsl_list_push(t, dsl_value_retain(row[i])); /* room made */
    return push(in, c->out, list_value(t));
}

int dsl_py_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest < 2) return dsl_raise(in, "TypeError", "map() must have at least two arguments.");
    struct row_ctx c = {a->rest[0], dsl_list_new(0)};
    if (!c.out) return dsl_raise_status(in, DSL_V_NOMEM);
    if (side_by_side(in, a->rest + 1, a->nrest - 1, map_row, &c) != 0) {
        dsl_value_release(list_value(c.out));
        return -1;
    }
    *ret = list_value(c.out);
    return 0;
}

int dsl_py_zip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct row_ctx c = {dsl_none(), dsl_list_new(0)};
    if (!c.out) return dsl_raise_status(in, DSL_V_NOMEM);
    if (a->nrest && side_by_side(in, a->rest, a->nrest, zip_row, &c) != 0) {
        dsl_value_release(list_value(c.out));
        return -1;
    }
    *ret = list_value(c.out);
    return 0;
}

int dsl_py_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest < 2 || a->nrest > 3)
        return dsl_raise(in, "TypeError", "reduce expected at %s %d arguments, got %zu",
                         a->nrest < 2 ? "least" : "most", a->nrest < 2 ? 2 : 3, a->nrest);
    struct dsl_iter it;
    if (dsl_iter_init(in, a->rest[1], &it) != 0) return -1;
    bool have = a->nrest == 3;
    struct dsl_value acc = have ? dsl_value_retain(a->rest[2]) : dsl_none(), item;
    int got;
    while ((got = dsl_iter_next(in, &it, &item)) > 0) {
        if (!have) {
            acc = item;
            have = true;
            continue;
        }
        struct dsl_value two[2] = {acc, item}, next;
        int r = dsl_call(in, a->rest[0], two, 2, NULL, NULL, 0, &next);
        dsl_value_release(acc);
        dsl_value_release(item);
        acc = r == 0 ? next : dsl_none();
        if (r != 0 || poll_cancel(in) != 0) {
            got = -1;
            break;
        }
    }
    dsl_iter_end(&it);
    if (got < 0) {
        dsl_value_release(acc);
        return -1;
    }
    if (!have)
        return dsl_raise(in, "TypeError", "reduce() of empty iterable with no initial value");
    *ret = acc;
    return 0;
}

/* ---- enumerate, filter, reversed, any, all ----------------------------------------------- */

int dsl_bi_enumerate(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t k = 0;
    if (a->has[1]) {
        if (!dsl_is_intlike(a->slot[1]))
            return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                             dsl_type_name(a->slot[1]));
        k = dsl_as_int(a->slot[1]);
    }
    struct dsl_list *items;
    if (items_of(in, a->slot[0], &items) != 0) return -1;
    /* each item becomes the tuple (k, item), in place */
    for (size_t i = 0; i < items->len; i++, k++) {
        struct dsl_list *t = dsl_list_new(2);
        if (!t) {
            dsl_value_release(list_value(items));
            return dsl_raise_status(in, DSL_V_NOMEM);
        }
        t->style = DSL_LIST_TUPLE;
        struct dsl_value item = items->items[i];
        dsl_value_orphan(item);       /* it moves from the list's slot into the tuple */
        dsl_list_push(t, dsl_int(k)); /* room made */
        dsl_list_push(t, item);
        items->items[i] = list_value(t);
        dsl_value_adopt(items->items[i]);
    }
    *ret = list_value(items);
    return 0;
}

int dsl_bi_filter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest != 2)
        return dsl_raise(in, "TypeError", "filter expected 2 arguments, got %zu", a->nrest);
    struct dsl_value fn = a->rest[0];
    struct dsl_iter it;
    if (dsl_iter_init(in, a->rest[1], &it) != 0) return -1;
    struct dsl_list *out = dsl_list_new(0);
    if (!out) {
        dsl_iter_end(&it);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    struct dsl_value item;
    int got;
    while ((got = dsl_iter_next(in, &it, &item)) > 0) {
        struct dsl_value t = dsl_none();
        bool keep = false;
        int r = fn.kind == DSL_NONE ? truth(in, item, &keep)
                                    : (call1(in, fn, item, &t) == 0 ? truth(in, t, &keep) : -1);
        dsl_value_release(t);
        if (r == 0 && keep) {
            r = push(in, out, item);
        } else {
            dsl_value_release(item);
        }
        if (r != 0 || poll_cancel(in) != 0) {
            got = -1;
            break;
        }
    }
    dsl_iter_end(&it);
    if (got < 0) {
        dsl_value_release(list_value(out));
        return -1;
    }
    *ret = list_value(out);
    return 0;
}

int dsl_bi_reversed(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest != 1)
        return dsl_raise(in, "TypeError", "reversed expected 1 argument, got %zu", a->nrest);
    struct dsl_value v = a->rest[0];
    if (v.kind != DSL_LIST && v.kind != DSL_STR && v.kind != DSL_RANGE && v.kind != DSL_DICT)
        return dsl_raise(in, "TypeError", "'%s' object is not reversible", dsl_type_name(v));
    struct dsl_list *l = NULL; /* set by items_of: some compilers miss it */
    if (items_of(in, v, &l) != 0) return -1;
    for (size_t i = 0, j = l->len; i + 1 < j; i++, j--) {
        struct dsl_value t = l->items[i];
        l->items[i] = l->items[j - 1];
        l->items[j - 1] = t;
    }
    *ret = list_value(l);
    return 0;
}

/* any (want = true) and all (want = false): stops at the first item whose truth is `want`. */
static int any_all(struct dsl_interp *in, const struct dsl_args *a, bool want,
                   struct dsl_value *ret)
{
    struct dsl_iter it;
    if (dsl_iter_init(in, a->slot[0], &it) != 0) return -1;
    struct dsl_value item;
    int got = 0;
    bool found = false;
    while (!found && (got = dsl_iter_next(in, &it, &item)) > 0) {
        bool t;
        int r = truth(in, item, &t);
        dsl_value_release(item);
        if (r != 0) {
            got = -1;
            break;
        }
        found = t == want;
    }
    dsl_iter_end(&it);
    if (got < 0) return -1;
    *ret = dsl_bool(found ? want : !want);
    return 0;
}

int dsl_bi_any(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return any_all(in, a, true, ret);
}

int dsl_bi_all(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return any_all(in, a, false, ret);
}

/* ---- sorted ------------------------------------------------------------------------------ */

int dsl_bi_sorted(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest != 1)
        return dsl_raise(in, "TypeError", "sorted expected 1 argument, got %zu", a->nrest);
    struct dsl_value key = a->has[0] ? a->slot[0] : dsl_none();
    bool reverse = false;
    if (a->has[1]) {
        if (!dsl_is_intlike(a->slot[1]))
            return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                             dsl_type_name(a->slot[1]));
        reverse = dsl_as_int(a->slot[1]) != 0;
    }
    struct dsl_list *l;
    if (items_of(in, a->rest[0], &l) != 0) return -1;
    if (dsl_sort_values(in, l->items, l->len, key, reverse) != 0) {
        dsl_value_release(list_value(l));
        return -1;
    }
    *ret = list_value(l);
    return 0;
}

/* ---- min and max ------------------------------------------------------------------------- */

/* min (want_max false) and max: of one iterable or of several arguments, by key, with a
 * default for an empty iterable; the first of equal items wins, as in CPython. */
static int min_max(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                   bool want_max)
{
    const char *name = want_max ? "max" : "min";
    if (a->nrest == 0)
        return dsl_raise(in, "TypeError", "%s expected at least 1 argument, got 0", name);
    if (a->nrest > 1 && a->has[1])
        return dsl_raise(in, "TypeError",
                         "Cannot specify a default for %s() with multiple positional arguments",
                         name);
    struct dsl_value key = a->has[0] ? a->slot[0] : dsl_none();
    struct dsl_iter it;
    struct dsl_list args = {0}; /* several arguments: iterated as a list, not owned */
    if (a->nrest == 1) {
        if (dsl_iter_init(in, a->rest[0], &it) != 0) return -1;
    } else {
        args.refs = 1;
        args.len = a->nrest;
        args.items = (struct dsl_value *)a->rest;
        memset(&it, 0, sizeof it);
        it.src = list_value(&args);
    }
    struct dsl_value best = dsl_none(), best_key = dsl_none(), item;
    bool have = false;
    int got;
    while ((got = dsl_iter_next(in, &it, &item)) > 0) {
        struct dsl_value k;
        if (key.kind == DSL_NONE) {
            k = dsl_value_retain(item);
        } else if (call1(in, key, item, &k) != 0) {
            dsl_value_release(item);
            got = -1;
            break;
        }
        bool better = !have;
        if (have && dsl_compare(in, want_max ? DSL_T_GT : DSL_T_LT, k, best_key, &better) != 0) {
            dsl_value_release(item);
            dsl_value_release(k);
            got = -1;
            break;
        }
        if (better) {
            dsl_value_release(best);
            dsl_value_release(best_key);
            best = item;
            best_key = k;
            have = true;
        } else {
            dsl_value_release(item);
            dsl_value_release(k);
        }
    }
    dsl_iter_end(&it); /* several arguments: nothing held */
    dsl_value_release(best_key);
    if (got < 0) {
        dsl_value_release(best);
        return -1;
    }
    if (!have) {
        if (a->has[1]) {
            *ret = dsl_value_retain(a->slot[1]);
            return 0;
        }
        return dsl_raise(in, "ValueError", "%s() arg is an empty sequence", name);
    }
    *ret = best;
    return 0;
}

int dsl_bi_min(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return min_max(in, a, ret, false);
}

int dsl_bi_max(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return min_max(in, a, ret, true);
}
