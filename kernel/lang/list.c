/* list.c — item assignment, in-place extension and the methods of lists (see list.h).
 *
 * Errors and their messages are Python's. A method that fails changes nothing: stores are
 * checked (cycle, size) before the list is touched, and sort works on a copy. */
#include "lang/list.h"

#include "lang/interp.h"
#include "lang/missing.h"
#include "lang/native.h"
#include "lang/ndarray.h"
#include "lang/operators.h"

#include <stdlib.h>
#include <string.h>

int dsl_list_raise_store(struct dsl_interp *in, int status)
{
    if (status == DSL_V_CYCLE)
        return dsl_raise(in, "ValueError",
                         "a list cannot hold itself, directly or through another list, a "
                         "function's default or a bound method (reference cycles are not "
                         "supported)");
    return dsl_raise_status(in, status);
}

/* Checks that list l may take v: 0, or -1 after raising. */
static int check_store(struct dsl_interp *in, const struct dsl_list *l, struct dsl_value v)
{
    int st = dsl_list_check_store(l, v);
    return st == DSL_V_OK ? 0 : dsl_list_raise_store(in, st);
}

static int mutable_list(struct dsl_interp *in, struct dsl_value v, const char *what)
{
    if (v.kind == DSL_LIST && v.as.l->style != DSL_LIST_TUPLE) return 0;
    return dsl_raise(in, "TypeError", "'%s' object does not support %s", dsl_type_name(v), what);
}

int dsl_list_setitem(struct dsl_interp *in, struct dsl_value xs, struct dsl_value ix,
                     struct dsl_value item)
{
    if (mutable_list(in, xs, "item assignment") != 0) return -1;
    struct dsl_list *l = xs.as.l;
    int64_t i = 0;
    if (dsl_is_ndarray(xs))
        return dsl_ndarray_index(in, xs, ix, &i) != 0 ? -1 : dsl_ndarray_setitem(in, l, i, item);
    if (!dsl_is_intlike(ix)) /* Python words the two errors differently */
        return dsl_raise(in, "TypeError", "list indices must be integers or slices, not %s",
                         dsl_type_name(ix));
    if (dsl_index_of(in, ix, (int64_t)l->len, "list assignment", &i) != 0) return -1;
    if (check_store(in, l, item) != 0) return -1;
    struct dsl_value old = l->items[i];
    l->items[i] = dsl_value_retain(item);
    dsl_value_adopt(item);
    dsl_value_orphan(old);
    dsl_value_release(old);
    return 0;
}

int dsl_list_extend(struct dsl_interp *in, struct dsl_list *l, struct dsl_value rhs)
{
    if (rhs.kind == DSL_LIST) {
        /* the items as they are now: xs.extend(xs) doubles xs, as in Python */
        size_t n = rhs.as.l->len;
        for (size_t i = 0; i < n; i++)
            if (check_store(in, l, rhs.as.l->items[i]) != 0) return -1;
        int st = dsl_list_reserve(l, n);
        if (st != DSL_V_OK) return dsl_raise_size(in, "list", (uint64_t)l->len + n);
        for (size_t i = 0; i < n; i++) dsl_list_push(l, dsl_value_retain(rhs.as.l->items[i]));
        return 0;
    }
    /* a range, a string or a dict's keys hold nothing that could reach l; what an instance's
     * iterator yields may */
    struct dsl_iter it;
    if (rhs.kind == DSL_RANGE &&
        dsl_range_len(rhs.as.rng->r) > (int64_t)(DSL_MAX_LIST_LEN - l->len))
        return dsl_raise_size(in, "list",
                              (uint64_t)l->len + (uint64_t)dsl_range_len(rhs.as.rng->r));
    if (dsl_iter_init(in, rhs, &it) != 0) return -1;
    struct dsl_value item;
    int got;
    while ((got = dsl_iter_next(in, &it, &item)) > 0) {
        if (rhs.kind == DSL_INSTANCE && check_store(in, l, item) != 0) {
            dsl_value_release(item);
            got = -1;
            break;
        }
        int st = dsl_list_push(l, item);
        if (st != DSL_V_OK) {
            got = st == DSL_V_TOOBIG ? dsl_raise_size(in, "list", (uint64_t)l->len + 1)
                                     : dsl_raise_status(in, st);
            break;
        }
    }
    dsl_iter_end(&it);
    return got < 0 ? -1 : 0;
}

/* ---- methods ---------------------------------------------------------------------------- */

int dsl_list_append(struct dsl_interp *in, struct dsl_list *l, struct dsl_value x)
{
    if (check_store(in, l, x) != 0) return -1;
    int st = dsl_list_push(l, dsl_value_retain(x));
    if (st == DSL_V_TOOBIG) return dsl_raise_size(in, "list", (uint64_t)l->len + 1);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

static int m_append(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    *ret = dsl_none();
    return dsl_list_append(in, a->self.as.l, a->slot[0]);
}

static int m_extend(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    *ret = dsl_none();
    return dsl_list_extend(in, a->self.as.l, a->slot[0]);
}

static int m_insert(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_list *l = a->self.as.l;
    if (!dsl_is_intlike(a->slot[0]))
        return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                         dsl_type_name(a->slot[0]));
    /* Python clamps the position: insert(-100, x) on a short list puts x first */
    int64_t i = dsl_as_int(a->slot[0]), n = (int64_t)l->len;
    if (i < 0) i = i + n < 0 ? 0 : i + n;
    if (i > n) i = n;
    if (check_store(in, l, a->slot[1]) != 0) return -1;
    int st = dsl_list_reserve(l, 1);
    if (st == DSL_V_TOOBIG) return dsl_raise_size(in, "list", (uint64_t)l->len + 1);
    if (st != DSL_V_OK) return dsl_raise_status(in, st);
    memmove(l->items + i + 1, l->items + i, (size_t)(n - i) * sizeof *l->items);
    l->items[i] = dsl_value_retain(a->slot[1]);
    dsl_value_adopt(a->slot[1]);
    l->len++;
    *ret = dsl_none();
    return 0;
}

/* Takes item i out of l, handing its reference to the caller. */
static struct dsl_value take(struct dsl_list *l, size_t i)
{
    struct dsl_value v = l->items[i];
    if (i + 1 < l->len) /* pop() takes the last: nothing to move, no call */
        memmove(l->items + i, l->items + i + 1, (l->len - i - 1) * sizeof *l->items);
    l->len--;
    dsl_value_orphan(v);
    return v;
}

int dsl_list_pop(struct dsl_interp *in, struct dsl_list *l, struct dsl_value *out)
{
    if (l->len == 0) return dsl_raise(in, "IndexError", "pop from empty list");
    *out = take(l, l->len - 1);
    return 0;
}

static int m_pop(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_list *l = a->self.as.l;
    if (!a->has[0] || l->len == 0) return dsl_list_pop(in, l, ret); /* its error when empty */
    int64_t i;
    if (dsl_index_of(in, a->slot[0], (int64_t)l->len, "pop", &i) != 0) return -1;
    *ret = take(l, (size_t)i);
    return 0;
}

int dsl_list_delitem(struct dsl_interp *in, struct dsl_value xs, struct dsl_value ix)
{
    struct dsl_list *l = xs.as.l;
    int64_t i;
    if (!dsl_is_intlike(ix)) /* the message of reading xs[ix] */
        return dsl_raise(in, "TypeError", "list indices must be integers, not %s",
                         dsl_type_name(ix));
    if (dsl_index_of(in, ix, (int64_t)l->len, "list assignment", &i) != 0) return -1;
    dsl_value_release(take(l, (size_t)i));
    return 0;
}

/* The first index of an item of l equal to x in *at, or -1; raises RecursionError for lists
 * nested too deep to compare. */
static int find(struct dsl_interp *in, const struct dsl_list *l, struct dsl_value x, int64_t *at)
{
    *at = -1;
    for (size_t i = 0; i < l->len; i++) { /* the length read again: an __eq__ may change it */
        bool eq = false;
        struct dsl_value item = dsl_value_retain(l->items[i]);
        int r = dsl_equal(in, item, x, &eq);
        dsl_value_release(item);
        if (r != 0) return -1;
        if (eq) {
            *at = (int64_t)i;
            return 0;
        }
    }
    return 0;
}

/* Appends repr(x), cut to a readable length, to b. DSL_V_RAISED when x's __repr__ raised. */
static int short_repr(struct render_buf *b, struct dsl_value x)
{
    struct render_buf r;
    render_buf_init(&r, 200);
    int st = dsl_value_repr(&r, x);
    render_buf_puts(b, render_buf_str(&r));
    if (r.over) render_buf_puts(b, "...");
    render_buf_free(&r);
    return st == DSL_V_RAISED ? st : DSL_V_OK;
}

/* CPython makes this message with the value's repr at once: a __repr__ that raises raises
 * instead of the ValueError. */
static int not_in_list(struct dsl_interp *in, struct dsl_value x)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    int r = short_repr(&b, x) == DSL_V_OK
                ? dsl_raise(in, "ValueError", "%s is not in list", render_buf_str(&b))
                : dsl_raise_status(in, DSL_V_RAISED);
    render_buf_free(&b);
    return r;
}

static int m_remove(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_list *l = a->self.as.l;
    int64_t i;
    if (find(in, l, a->slot[0], &i) != 0) return -1;
    if (i < 0) return dsl_raise(in, "ValueError", "list.remove(x): x not in list");
    dsl_value_release(take(l, (size_t)i));
    *ret = dsl_none();
    return 0;
}

static int m_index(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t i;
    if (find(in, a->self.as.l, a->slot[0], &i) != 0) return -1;
    if (i < 0) {
        if (a->self.as.l->style == DSL_LIST_TUPLE)
            return dsl_raise(in, "ValueError", "tuple.index(x): x not in tuple");
        return not_in_list(in, a->slot[0]);
    }
    *ret = dsl_int(i);
    return 0;
}

static int m_count(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_list *l = a->self.as.l;
    int64_t n = 0;
    for (size_t i = 0; i < l->len; i++) {
        bool eq = false;
        struct dsl_value item = dsl_value_retain(l->items[i]);
        int r = dsl_equal(in, item, a->slot[0], &eq);
        dsl_value_release(item);
        if (r != 0) return -1;
        n += eq;
    }
    *ret = dsl_int(n);
    return 0;
}

static int m_clear(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    struct dsl_list *l = a->self.as.l;
    while (l->len) dsl_value_release(take(l, l->len - 1));
    *ret = dsl_none();
    return 0;
}

static int m_copy(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_list *src = a->self.as.l;
    struct dsl_list *l = dsl_list_new(src->len);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = src->style == DSL_LIST_JSON ? DSL_LIST_JSON : DSL_LIST_PLAIN;
    for (size_t i = 0; i < src->len; i++) dsl_list_push(l, dsl_value_retain(src->items[i]));
    ret->kind = DSL_LIST;
    ret->as.l = l;
    return 0;
}

static int m_reverse(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    struct dsl_list *l = a->self.as.l;
    for (size_t i = 0, j = l->len; i + 1 < j; i++, j--) {
        struct dsl_value t = l->items[i];
        l->items[i] = l->items[j - 1];
        l->items[j - 1] = t;
    }
    *ret = dsl_none();
    return 0;
}

/* Whether key b must come before key a (a stable sort takes from the right run only then):
 * b < a, or a < b when descending (which keeps equal items in their order too, as Python's
 * reverse=True does). */
static int before(struct dsl_interp *in, struct dsl_value a, struct dsl_value b, bool descending,
                  bool *out)
{
    return descending ? dsl_compare(in, DSL_T_LT, a, b, out) : dsl_compare(in, DSL_T_LT, b, a, out);
}

/* Stable bottom-up merge sort of idx[0..n) by keys[idx[i]], with tmp as scratch; the interrupt
 * is polled between passes. 0 or -1 (a comparison raised). */
static int merge_sort(struct dsl_interp *in, const struct dsl_value *keys, size_t *idx, size_t *tmp,
                      size_t n, bool descending)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                bool b;
                if (before(in, keys[idx[i]], keys[idx[j]], descending, &b) != 0) return -1;
                tmp[k++] = b ? idx[j++] : idx[i++];
            }
            while (i < mid) tmp[k++] = idx[i++];
            while (j < hi) tmp[k++] = idx[j++];
        }
        memcpy(idx, tmp, n * sizeof *idx); /* n > 1 here */
        if (mt_cancel_requested()) return dsl_raise(in, "KeyboardInterrupt", "interrupted");
    }
    return 0;
}

int dsl_sort_values(struct dsl_interp *in, struct dsl_value *v, size_t n, struct dsl_value key,
                    bool descending)
{
    bool keyed = key.kind != DSL_NONE;
    struct dsl_value *keys = keyed ? calloc(n + 1, sizeof *keys) : v;
    size_t *idx = malloc((n + 1) * sizeof *idx), *tmp = malloc((n + 1) * sizeof *tmp);
    struct dsl_value *moved = malloc((n + 1) * sizeof *moved);
    size_t nkeys = 0;
    int r = -1;
    if ((keyed && !keys) || !idx || !tmp || !moved) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    for (size_t i = 0; i < n; i++) idx[i] = i;
    if (keyed)
        for (; nkeys < n; nkeys++)
            if (dsl_call(in, key, &v[nkeys], 1, NULL, NULL, 0, &keys[nkeys]) != 0) goto done;
    if (merge_sort(in, keys, idx, tmp, n, descending) != 0) goto done;
    for (size_t i = 0; i < n; i++) moved[i] = v[idx[i]];
    if (n) memcpy(v, moved, n * sizeof *v); /* v may be NULL when empty */
    r = 0;
done:
    if (keyed) {
        for (size_t i = 0; i < nkeys; i++) dsl_value_release(keys[i]);
        free(keys);
    }
    free(idx);
    free(tmp);
    free(moved);
    return r;
}

static int m_sort(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_list *l = a->self.as.l;
    struct dsl_value key = a->has[0] ? a->slot[0] : dsl_none();
    bool descending = a->has[1] && dsl_value_truthy(a->slot[1]);
    size_t n = l->len;
    /* sorted on a copy: a failed comparison (1 < "a") leaves the list as it was. The items are
     * the copy's while it is sorted and the list is empty, as CPython's sort leaves it, so that
     * an item's __lt__ that changes the list reaches none of them */
    size_t bytes = (n ? n : 1) * sizeof(struct dsl_value);
    struct dsl_value *v = malloc(bytes), *orig = malloc(bytes);
    int r = -1;
    if (!v || !orig) {
        dsl_raise_status(in, DSL_V_NOMEM);
    } else {
        if (n) { /* an empty list may have no items' memory */
            memcpy(v, l->items, n * sizeof *v);
            memcpy(orig, l->items, n * sizeof *v);
        }
        l->len = 0;
        r = dsl_sort_values(in, v, n, key, descending);
        bool changed = l->len != 0;
        while (l->len) { /* what __lt__ put there goes; the items come back */
            struct dsl_value x = l->items[--l->len];
            dsl_value_orphan(x);
            dsl_value_release(x);
        }
        if (dsl_list_reserve(l, n) != DSL_V_OK) { /* __lt__ freed its room, and none is left */
            for (size_t i = 0; i < n; i++) {
                dsl_value_orphan(orig[i]);
                dsl_value_release(orig[i]);
            }
            r = dsl_raise_status(in, DSL_V_NOMEM);
        } else {
            /* the same items, sorted or as they were: no count changes */
            if (n) memcpy(l->items, r == 0 ? v : orig, n * sizeof *v);
            l->len = n;
            if (r == 0 && changed) r = dsl_raise(in, "ValueError", "list modified during sort");
        }
    }
    free(v);
    free(orig);
    *ret = dsl_none();
    return r;
}

static const char *const sort_params[] = {"key", "reverse", NULL}; /* keyword-only */

const struct dsl_builtin dsl_list_methods[] = {
    {"append", "xs.append(x)", 1, 1, NULL, m_append, "Adds x at the end of the list."},
    {"clear", "xs.clear()", 0, 0, NULL, m_clear, "Removes every item."},
    {"copy", "xs.copy()", 0, 0, NULL, m_copy,
     "A new list with the same items (a shallow copy: nested lists are shared)."},
    {"count", "xs.count(x)", 1, 1, NULL, m_count, "How many items equal x."},
    {"extend", "xs.extend(iterable)", 1, 1, NULL, m_extend,
     "Adds the items of a list, range or string at the end (xs += ys does the same)."},
    {"index", "xs.index(x)", 1, 1, NULL, m_index,
     "The position of the first item equal to x; ValueError when there is none."},
    {"insert", "xs.insert(i, x)", 2, 2, NULL, m_insert,
     "Puts x before position i (negative i counts from the end; past either end, at that "
     "end)."},
    {"pop", "xs.pop(index=-1)", 0, 1, NULL, m_pop,
     "Removes the item at index (default: the last) and returns it."},
    {"remove", "xs.remove(x)", 1, 1, NULL, m_remove,
     "Removes the first item equal to x; ValueError when there is none."},
    {"reverse", "xs.reverse()", 0, 0, NULL, m_reverse, "Reverses the list in place."},
    {"sort", "xs.sort(key=none, reverse=false)", 0, 0, sort_params, m_sort,
     "Sorts the list in place, smallest first (largest first with reverse=true), by key(item) "
     "where a key function is given. The sort is stable; items (or keys) must be comparable "
     "with < (numbers, strings or lists of them)."},
};
const size_t dsl_list_method_count = sizeof dsl_list_methods / sizeof dsl_list_methods[0];

const struct dsl_builtin *dsl_list_method_row(struct dsl_value v, const char *name)
{
    if (dsl_is_ndarray(v)) return NULL;
    bool tuple = v.as.l->style == DSL_LIST_TUPLE;
    for (size_t i = 0; i < dsl_list_method_count; i++) {
        const struct dsl_builtin *m = &dsl_list_methods[i];
        /* a tuple (a shape) is read-only */
        if (tuple && m->fn != m_count && m->fn != m_index) continue;
        if (strcmp(m->name, name) == 0) return m;
    }
    return NULL;
}

int dsl_list_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                     struct dsl_value *out)
{
    if (dsl_is_ndarray(v)) return dsl_ndarray_getattr(in, v, name, out);
    bool tuple = v.as.l->style == DSL_LIST_TUPLE;
    const struct dsl_builtin *row = dsl_list_method_row(v, name);
    if (row) {
        int st = dsl_method_value(row, v, out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    if (dsl_raise_missing(in, dsl_type_name(v), name) != 0) return -1;
    const char *best = NULL; /* only now: a method call must not pay for a suggestion */
    size_t best_d = 3;
    for (size_t i = 0; i < dsl_list_method_count; i++) {
        const struct dsl_builtin *m = &dsl_list_methods[i];
        if (tuple && m->fn != m_count && m->fn != m_index) continue;
        size_t d = dsl_edit_distance(name, m->name);
        if (d < best_d) best_d = d, best = m->name;
    }
    if (best)
        return dsl_raise(in, "AttributeError",
                         "'%s' object has no attribute '%s', did you mean '%s'?", dsl_type_name(v),
                         name, best);
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(v),
                     name);
}
