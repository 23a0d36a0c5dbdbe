/* slices.c — Python's slicing of lists, tuples, strings and ranges, and slice assignment to
 * lists (see operators.h).
 *
 * The bounds follow CPython's PySlice_AdjustIndices: omitted parts default by the step's sign,
 * negative bounds count from the end, and everything is clamped to the sequence, so a slice
 * never raises IndexError. A slice of a tuple is a tuple, of a string a string (by character),
 * of a range a range. */
#include "lang/list.h"
#include "lang/ndarray.h"
#include "lang/operators.h"

#include "lang/interp.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The resolved slice over a sequence of len items: the first index, the step and how many. */
struct span {
    int64_t start, stop, step, count;
};

/* An int bound, or none; *out untouched for none. */
static int bound(struct dsl_interp *in, struct dsl_value v, int64_t *out)
{
    if (v.kind == DSL_NONE) return 0;
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError",
                         "slice indices must be integers or None or have an __index__ method");
    *out = dsl_as_int(v);
    return 0;
}

/* CPython's slice.indices(len) and slice length. 0 or -1 (TypeError, ValueError). */
static int resolve(struct dsl_interp *in, const struct dsl_value parts[3], int64_t len,
                   struct span *s)
{
    int64_t step = 1;
    if (bound(in, parts[2], &step) != 0) return -1;
    if (step == 0) return dsl_raise(in, "ValueError", "slice step cannot be zero");
    if (step == INT64_MIN) step = -INT64_MAX; /* as CPython clamps it, so -step is defined */
    int64_t start = step < 0 ? INT64_MAX : 0, stop = step < 0 ? INT64_MIN : INT64_MAX;
    if (bound(in, parts[0], &start) != 0 || bound(in, parts[1], &stop) != 0) return -1;
    if (start < 0) {
        start = start < -len ? (step < 0 ? -1 : 0) : start + len;
    } else if (start >= len) {
        start = step < 0 ? len - 1 : len;
    }
    if (stop < 0) {
        stop = stop < -len ? (step < 0 ? -1 : 0) : stop + len;
    } else if (stop >= len) {
        stop = step < 0 ? len - 1 : len;
    }
    int64_t count = 0;
    if (step < 0 && stop < start)
        count = (start - stop - 1) / -step + 1;
    else if (step > 0 && start < stop)
        count = (stop - start - 1) / step + 1;
    *s = (struct span){start, stop, step, count};
    return 0;
}

int dsl_slice_span(struct dsl_interp *in, const struct dsl_value parts[3], int64_t len,
                   int64_t *start, int64_t *step, int64_t *count)
{
    struct span sp = {0, 0, 1, 0};
    if (resolve(in, parts, len, &sp) != 0) return -1;
    *start = sp.start, *step = sp.step, *count = sp.count;
    return 0;
}

/* Byte offsets of the characters of a UTF-8 string: offs[i] is where character i starts,
 * offs[count] the length. NULL when out of memory. */
static size_t *char_offsets(const char *s, size_t len, size_t count)
{
    size_t *offs = malloc((count + 1) * sizeof *offs);
    if (!offs) return NULL;
    size_t off = 0;
    for (size_t c = 0; c < count; c++) {
        offs[c] = off;
        size_t k = render_utf8_seq(s + off, len - off);
        off += k ? k : 1;
    }
    offs[count] = len;
    return offs;
}

static int slice_str(struct dsl_interp *in, struct dsl_value v, const struct dsl_value parts[3],
                     struct dsl_value *out)
{
    const char *s = v.as.s->data;
    size_t len = v.as.s->len, count = render_utf8_count(s, len);
    struct span sp;
    if (resolve(in, parts, (int64_t)count, &sp) != 0) return -1;
    if (sp.step == 1) {
        if (count == len) /* ASCII: characters are bytes */
            return dsl_str_value(s + sp.start, (size_t)sp.count, out)
                       ? dsl_raise_status(in, DSL_V_NOMEM)
                       : 0;
    }
    size_t *offs = count == len ? NULL : char_offsets(s, len, count);
    if (count != len && !offs) return dsl_raise_status(in, DSL_V_NOMEM);
    size_t bytes = 0;
    for (int64_t i = 0, c = sp.start; i < sp.count; i++, c += sp.step)
        bytes += offs ? offs[c + 1] - offs[c] : 1;
    struct dsl_str *r = dsl_str_alloc(bytes);
    if (!r) {
        free(offs);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    size_t at = 0;
    for (int64_t i = 0, c = sp.start; i < sp.count; i++, c += sp.step) {
        size_t from = offs ? offs[c] : (size_t)c, n = offs ? offs[c + 1] - offs[c] : 1;
        memcpy(r->data + at, s + from, n);
        at += n;
    }
    free(offs);
    out->kind = DSL_STR;
    out->as.s = r;
    return 0;
}

int dsl_slice_get(struct dsl_interp *in, struct dsl_value v, const struct dsl_value parts[3],
                  struct dsl_value *out)
{
    struct span sp;
    if (v.kind == DSL_STR) return slice_str(in, v, parts, out);
    if (v.kind == DSL_RANGE) {
        struct dsl_range r = v.as.rng->r;
        if (resolve(in, parts, dsl_range_len(r), &sp) != 0) return -1;
        /* CPython: start and stop map through the range, the steps multiply */
        int64_t start, stop, step;
        if (__builtin_mul_overflow(sp.start, r.step, &start) ||
            __builtin_add_overflow(start, r.start, &start) ||
            __builtin_mul_overflow(sp.stop, r.step, &stop) ||
            __builtin_add_overflow(stop, r.start, &stop) ||
            __builtin_mul_overflow(sp.step, r.step, &step))
            return dsl_raise(in, "OverflowError",
                             "the sliced range's bounds do not fit in 64 bits");
        if (dsl_range_value((struct dsl_range){start, stop, step}, out) != DSL_V_OK)
            return dsl_raise_status(in, DSL_V_NOMEM);
        return 0;
    }
    const struct dsl_list *src = v.as.l;
    if (resolve(in, parts, (int64_t)src->len, &sp) != 0) return -1;
    struct dsl_list *l = dsl_list_new((size_t)sp.count);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = src->style;
    l->dtype = src->dtype; /* an array's slice is an array (a copy: numpy's is a view) */
    for (int64_t i = 0, k = sp.start; i < sp.count; i++, k += sp.step)
        dsl_list_push(l, dsl_value_retain(src->items[k]));
    out->kind = DSL_LIST;
    out->as.l = l;
    return 0;
}

int dsl_slice_set(struct dsl_interp *in, struct dsl_value xs, const struct dsl_value parts[3],
                  struct dsl_value v)
{
    if (xs.kind != DSL_LIST || dsl_is_tuple(xs))
        return dsl_raise(in, "TypeError", "'%s' object does not support item assignment",
                         dsl_type_name(xs));
    struct dsl_list *l = xs.as.l;
    struct span sp;
    if (resolve(in, parts, (int64_t)l->len, &sp) != 0) return -1;
    if (dsl_is_ndarray(xs)) return dsl_ndarray_setslice(in, l, sp.start, sp.step, sp.count, v);
    if (v.kind != DSL_LIST && v.kind != DSL_STR && v.kind != DSL_RANGE && v.kind != DSL_DICT &&
        v.kind != DSL_SET)
        return dsl_raise(in, "TypeError", "can only assign an iterable");
    /* the new items first, as they are now: xs[1:] = xs reads xs before changing it */
    struct dsl_list *items = dsl_list_new(0);
    if (!items) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value iv = {.kind = DSL_LIST, .as.l = items};
    int r = dsl_list_extend(in, items, v);
    for (size_t i = 0; r == 0 && i < items->len; i++) {
        int st = dsl_list_check_store(l, items->items[i]);
        if (st != DSL_V_OK) r = dsl_list_raise_store(in, st);
    }
    if (r != 0) goto done;
    size_t n = items->len;
    if (sp.step != 1) { /* an extended slice: one new item per slot */
        if ((int64_t)n != sp.count) {
            r = dsl_raise(in, "ValueError",
                          "attempt to assign sequence of size %zu to extended slice of size %lld",
                          n, (long long)sp.count);
            goto done;
        }
        for (int64_t i = 0, k = sp.start; i < sp.count; i++, k += sp.step) {
            struct dsl_value old = l->items[k];
            l->items[k] = dsl_value_retain(items->items[i]);
            dsl_value_adopt(l->items[k]);
            dsl_value_orphan(old);
            dsl_value_release(old);
        }
        goto done;
    }
    /* l[start:stop] (stop no less than start) is replaced by the n new items */
    size_t start = (size_t)sp.start, old = (size_t)sp.count;
    if (n > old && (r = dsl_list_reserve(l, n - old)) != DSL_V_OK) {
        r = r == DSL_V_TOOBIG ? dsl_raise_size(in, "list", (uint64_t)l->len + n - old)
                              : dsl_raise_status(in, r);
        goto done;
    }
    struct dsl_value *gone = malloc((old ? old : 1) * sizeof *gone);
    if (!gone) {
        r = dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    memcpy(gone, l->items + start, old * sizeof *gone);
    memmove(l->items + start + n, l->items + start + old,
            (l->len - start - old) * sizeof *l->items);
    for (size_t i = 0; i < n; i++) {
        l->items[start + i] = dsl_value_retain(items->items[i]);
        dsl_value_adopt(items->items[i]);
    }
    l->len = l->len - old + n;
    for (size_t i = 0; i < old; i++) { /* released last: they may hold anything */
        dsl_value_orphan(gone[i]);
        dsl_value_release(gone[i]);
    }
    free(gone);
done:
    dsl_value_release(iv);
    return r;
}
