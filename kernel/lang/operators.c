/* operators.c — Python's binary operators and comparisons on the language's values:
 * dsl_binary hands tensors to the library (lang/library.h), numbers to numbers.c, strings and
 * lists to sequences.c, sets to set.c, and instances of user classes to their special methods
 * (datamodel.c); ordering, == and `in` are here (see operators.h). */
#include "lang/operators.h"

#include "lang/classes.h"
#include "lang/datamodel.h"
#include "lang/dict.h"
#include "lang/eval.h"
#include "lang/interp.h"
#include "lang/library.h"
#include "lang/ndarray.h"
#include "lang/set.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static bool is_seq(struct dsl_value v) { return v.kind == DSL_STR || v.kind == DSL_LIST; }

static bool is_bitwise(enum dsl_tok op)
{
    return op == DSL_T_AMP || op == DSL_T_PIPE || op == DSL_T_CARET || op == DSL_T_LSHIFT ||
           op == DSL_T_RSHIFT;
}

/* Whether v is the builtin print: `print >>f, x` is Python 2's, which CPython's error names. */
static bool is_print(struct dsl_value v)
{
    return v.kind == DSL_BUILTIN && strcmp(v.as.fn->name, "print") == 0;
}

/* Arrays inside lists compare as wholes (sorted([a, b])): numpy's elementwise < gives an
 * array, whose truth numpy then refuses; here the ordering itself is refused, by name. */
static int ndarray_refused(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                           struct dsl_value b)
{
    return dsl_raise(in, "NotImplementedError",
                     "'%s' of '%s' and '%s' inside lists: arrays are ordered elementwise, "
                     "compare them as a < b, not within lists or sorted()",
                     dsl_op_symbol(op), dsl_type_name(a), dsl_type_name(b));
}

/* a op b, or a op= b (inplace: what the error says, and an instance's __iop__ first). */
static int binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a, struct dsl_value b,
                  struct dsl_value *out, bool inplace)
{
    /* str % anything formats, whatever the right operand is (an instance whose class has
     * __rmod__, a tensor), as in CPython */
    if (op == DSL_T_PERCENT && a.kind == DSL_STR) return dsl_str_percent(in, a, b, out);
    if (a.kind == DSL_INSTANCE || b.kind == DSL_INSTANCE) {
        int r = inplace && a.kind == DSL_INSTANCE ? dsl_instance_inplace(in, op, a, b, out)
                                                  : dsl_instance_binary(in, op, a, b, out);
        if (r != 0) return r < 0 ? -1 : 0;
        /* no method answered: the built-in type's own TypeError, below; but a class's
         * instance on the left of op= is no sequence to repeat or concatenate, as in CPython */
        if (inplace && a.kind == DSL_INSTANCE) goto unsupported;
    }
    if (a.kind == DSL_TENSOR || b.kind == DSL_TENSOR) return dsl_tensor_binary(in, op, a, b, out);
    if (inplace && dsl_is_ndarray(a)) return dsl_ndarray_inplace(in, op, a, b, out);
    if (dsl_is_ndarray(a) || dsl_is_ndarray(b)) return dsl_ndarray_binary(in, op, a, b, out);
    if (op != DSL_T_AT && dsl_is_number(a) && dsl_is_number(b) &&
        (!is_bitwise(op) || (dsl_is_intlike(a) && dsl_is_intlike(b)))) {
        return dsl_number_binary(in, op, a, b, out);
    }
    if (a.kind == DSL_SET && b.kind == DSL_SET) {
        int r = dsl_set_binary(in, op, a, b, inplace, out);
        if (r != 0) return r < 0 ? -1 : 0;
    }
    if (op == DSL_T_PLUS && is_seq(a) && a.kind == b.kind && dsl_is_tuple(a) == dsl_is_tuple(b))
        return dsl_seq_concat(in, a, b, out);
    if (op == DSL_T_STAR) {
        if (is_seq(a) && dsl_is_intlike(b)) return dsl_seq_repeat(in, a, dsl_as_int(b), out);
        if (dsl_is_intlike(a) && is_seq(b)) return dsl_seq_repeat(in, b, dsl_as_int(a), out);
        if (is_seq(a) || is_seq(b))
            return dsl_raise(in, "TypeError", "can't multiply sequence by non-int of type '%s'",
                             dsl_type_name(is_seq(a) ? b : a));
    }
    if (op == DSL_T_PLUS && is_seq(a))
        return dsl_raise(in, "TypeError", "can only concatenate %s (not \"%s\") to %s",
                         dsl_type_name(a), dsl_type_name(b), dsl_type_name(a));
unsupported:
    return dsl_raise(in, "TypeError", "unsupported operand type(s) for %s%s: '%s' and '%s'%s",
                     op == DSL_T_DSTAR && !inplace ? "** or pow()" : dsl_op_symbol(op),
                     inplace ? "=" : "", dsl_type_name(a), dsl_type_name(b),
                     op == DSL_T_RSHIFT && !inplace && is_print(a)
                         ? ". Did you mean \"print(<message>, file=<output_stream>)\"?"
                         : "");
}

int dsl_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a, struct dsl_value b,
               struct dsl_value *out)
{
    return binary(in, op, a, b, out, false);
}

int dsl_binary_inplace(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                       struct dsl_value b, struct dsl_value *out)
{
    return binary(in, op, a, b, out, true);
}

static int cmp_result(enum dsl_tok op, int c)
{
    switch (op) {
    case DSL_T_LT: return c < 0;
    case DSL_T_LE: return c <= 0;
    case DSL_T_GT: return c > 0;
    default: return c >= 0;
    }
}

static int raise_compare_depth(struct dsl_interp *in)
{
    return dsl_raise(in, "RecursionError",
                     "maximum recursion depth exceeded in comparison (lists nested more than %d "
                     "deep)",
                     DSL_MAX_LIST_DEPTH);
}

/* How many lists and instances deep == and < are, across the instances' __eq__/__lt__ they
 * call (each of which starts a comparison of its own): one count, so that lists and methods
 * nested in turn end in RecursionError, not in the end of the C stack. */
static int walks;

/* `a op b` of an instance, as a bool (the truth of what its method returned). */
static int instance_test(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                         struct dsl_value b, bool *res)
{
    if (walks >= DSL_MAX_LIST_DEPTH) return raise_compare_depth(in);
    walks++;
    struct dsl_value r;
    int k = dsl_instance_compare(in, op, a, b, &r);
    if (k == 0) {
        k = dsl_truth(in, r, res);
        dsl_value_release(r);
    }
    walks--;
    return k;
}

static int equal_at(struct dsl_interp *in, struct dsl_value a, struct dsl_value b, bool *res);

/* Two dicts' ==: the same keys, as d[key] finds them, with values equal as == finds them. */
static int dict_equal(struct dsl_interp *in, const struct dsl_dict *x, const struct dsl_dict *y,
                      bool *res)
{
    *res = x->len == y->len;
    if (!*res) return 0;
    if (walks >= DSL_MAX_LIST_DEPTH) return raise_compare_depth(in);
    walks++;
    int r = 0;
    /* each pair is held and the table read again after each test, as an __eq__ may change
     * either dict */
    for (size_t i = 0; r == 0 && *res && i < x->n; i++) {
        if (!x->entries[i].live) continue;
        struct dsl_value k = dsl_value_retain(x->entries[i].key);
        struct dsl_value v = dsl_value_retain(x->entries[i].value);
        struct dsl_dict_entry *e;
        r = dsl_dict_find_key(in, y, k, &e);
        if (r == 0 && !e) *res = false;
        if (r == 0 && e) {
            struct dsl_value w = dsl_value_retain(e->value);
            r = equal_at(in, v, w, res);
            dsl_value_release(w);
        }
        dsl_value_release(k);
        dsl_value_release(v);
    }
    walks--;
    return r;
}

/* dsl_equal: an instance's __eq__ asked wherever one is, in lists, dicts and sets too. */
static int equal_at(struct dsl_interp *in, struct dsl_value a, struct dsl_value b, bool *res)
{
    if (a.kind == DSL_INSTANCE || b.kind == DSL_INSTANCE) {
        if (dsl_value_is(a, b)) return *res = true, 0;
        return instance_test(in, DSL_T_EQ, a, b, res);
    }
    if (a.kind == DSL_SET && b.kind == DSL_SET) return dsl_set_compare(in, DSL_T_EQ, a, b, res);
    if (a.kind == DSL_DICT && b.kind == DSL_DICT) return dict_equal(in, a.as.d, b.as.d, res);
    if ((dsl_is_attrs_view(a) && (b.kind == DSL_DICT || dsl_is_attrs_view(b))) ||
        (dsl_is_attrs_view(b) && a.kind == DSL_DICT)) { /* an obj.__dict__: the dict it is */
        if (dsl_value_is(a, b)) return *res = true, 0;
        struct dsl_value x = dsl_none(), y = dsl_none();
        int r =
            dsl_is_attrs_view(a) ? dsl_attrs_view_dict(in, a, &x) : (x = dsl_value_retain(a), 0);
        if (r == 0)
            r = dsl_is_attrs_view(b) ? dsl_attrs_view_dict(in, b, &y)
                                     : (y = dsl_value_retain(b), 0);
        if (r == 0) r = dict_equal(in, x.as.d, y.as.d, res);
        dsl_value_release(x);
        dsl_value_release(y);
        return r;
    }
    if (a.kind != DSL_LIST || b.kind != DSL_LIST || dsl_is_tuple(a) != dsl_is_tuple(b) ||
        a.as.l->len != b.as.l->len || a.as.l == b.as.l)
        return dsl_value_equal_checked(a, b, res) != DSL_V_OK ? raise_compare_depth(in) : 0;
    if (walks >= DSL_MAX_LIST_DEPTH) return raise_compare_depth(in);
    walks++;
    *res = true;
    /* an item's __eq__ may change either list: each pair is held while it is compared, and the
     * lengths are read again after it, as CPython's list comparison does */
    for (size_t i = 0; i < a.as.l->len && i < b.as.l->len && *res; i++) {
        struct dsl_value x = dsl_value_retain(a.as.l->items[i]);
        struct dsl_value y = dsl_value_retain(b.as.l->items[i]);
        bool deep =
            x.kind == DSL_INSTANCE || y.kind == DSL_INSTANCE ||
            (x.kind == y.kind && (x.kind == DSL_LIST || x.kind == DSL_DICT || x.kind == DSL_SET));
        int r =
            deep ? equal_at(in, x, y, res)
                 : (dsl_value_equal_checked(x, y, res) != DSL_V_OK ? raise_compare_depth(in) : 0);
        dsl_value_release(x);
        dsl_value_release(y);
        if (r != 0) {
            walks--;
            return -1;
        }
    }
    walks--;
    if (*res && a.as.l->len != b.as.l->len) *res = false;
    return 0;
}

/* Python ==, raising RecursionError for lists nested too deep to compare. As containers compare
 * (`in`, list.index, lists' ==), the same object is equal to itself before its __eq__ is
 * asked. */
int dsl_equal(struct dsl_interp *in, struct dsl_value a, struct dsl_value b, bool *res)
{
    return equal_at(in, a, b, res);
}

/* dsl_compare, lists item by item. */
static int compare_at(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                      struct dsl_value b, bool *res)
{
    if (a.kind == DSL_INSTANCE || b.kind == DSL_INSTANCE) return instance_test(in, op, a, b, res);
    if (dsl_is_number(a) && dsl_is_number(b)) {
        if (a.kind == DSL_FLOAT || b.kind == DSL_FLOAT) {
            double x = dsl_as_double(a), y = dsl_as_double(b);
            switch (op) {
            case DSL_T_LT: *res = x < y; break;
            case DSL_T_LE: *res = x <= y; break;
            case DSL_T_GT: *res = x > y; break;
            default: *res = x >= y; break;
            }
            return 0;
        }
        int64_t x = dsl_as_int(a), y = dsl_as_int(b);
        *res = cmp_result(op, (x > y) - (x < y));
        return 0;
    }
    if (a.kind == DSL_STR && b.kind == DSL_STR) {
        size_t n = a.as.s->len < b.as.s->len ? a.as.s->len : b.as.s->len;
        int c = memcmp(a.as.s->data, b.as.s->data, n);
        if (c == 0) c = (a.as.s->len > b.as.s->len) - (a.as.s->len < b.as.s->len);
        *res = cmp_result(op, c);
        return 0;
    }
    if (a.kind == DSL_SET && b.kind == DSL_SET) /* subsets, not an order */
        return dsl_set_compare(in, op, a, b, res);
    if (dsl_is_ndarray(a) || dsl_is_ndarray(b)) return ndarray_refused(in, op, a, b);
    if (a.kind == DSL_LIST && b.kind == DSL_LIST && dsl_is_tuple(a) == dsl_is_tuple(b)) {
        if (walks >= DSL_MAX_LIST_DEPTH) return raise_compare_depth(in);
        walks++;
        /* the first unequal pair decides; each pair is held, the lengths read again, as an
         * item's __eq__ may change either list */
        for (size_t i = 0; i < a.as.l->len && i < b.as.l->len; i++) {
            bool eq = false;
            struct dsl_value x = dsl_value_retain(a.as.l->items[i]);
            struct dsl_value y = dsl_value_retain(b.as.l->items[i]);
            int r = dsl_equal(in, x, y, &eq);
            if (r == 0 && !eq) r = compare_at(in, op, x, y, res);
            dsl_value_release(x);
            dsl_value_release(y);
            if (r != 0 || !eq) {
                walks--;
                return r != 0 ? -1 : 0;
            }
        }
        walks--;
        int c = (a.as.l->len > b.as.l->len) - (a.as.l->len < b.as.l->len);
        *res = cmp_result(op, c);
        return 0;
    }
    return dsl_raise(in, "TypeError", "'%s' not supported between instances of '%s' and '%s'",
                     dsl_op_symbol(op), dsl_type_name(a), dsl_type_name(b));
}

int dsl_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a, struct dsl_value b,
                bool *res)
{
    return compare_at(in, op, a, b, res);
}

int dsl_contains(struct dsl_interp *in, struct dsl_value item, struct dsl_value seq, bool *res)
{
    switch (seq.kind) {
    case DSL_LIST:
        *res = false;
        /* the list's item on the left, as CPython's list_contains asks it, held while its
         * __eq__ runs (which may change the list; the length is read again) */
        for (size_t i = 0; i < seq.as.l->len && !*res; i++) {
            struct dsl_value x = dsl_value_retain(seq.as.l->items[i]);
            int r = dsl_equal(in, x, item, res);
            dsl_value_release(x);
            if (r != 0) return -1;
        }
        return 0;
    case DSL_STR:
        if (item.kind != DSL_STR)
            return dsl_raise(in, "TypeError",
                             "'in <string>' requires string as left operand, not %s",
                             dsl_type_name(item));
        *res = memmem(seq.as.s->data, seq.as.s->len, item.as.s->data, item.as.s->len) != NULL;
        return 0;
    case DSL_RANGE: {
        *res = false;
        if (!dsl_is_number(item)) return 0;
        int64_t v;
        if (item.kind == DSL_FLOAT) {
            double f = item.as.f;
            if (f != floor(f) || !(f >= -9.2e18 && f <= 9.2e18)) return 0;
            v = (int64_t)f;
        } else {
            v = dsl_as_int(item);
        }
        struct dsl_range r = seq.as.rng->r;
        if (r.step > 0 ? (v < r.start || v >= r.stop) : (v > r.start || v <= r.stop)) return 0;
        uint64_t off =
            r.step > 0 ? (uint64_t)v - (uint64_t)r.start : (uint64_t)r.start - (uint64_t)v;
        uint64_t step = r.step > 0            ? (uint64_t)r.step
                        : r.step == INT64_MIN ? (uint64_t)1 << 63
                                              : (uint64_t)-r.step;
        *res = off % step == 0;
        return 0;
    }
    case DSL_DICT: {
        struct dsl_value *slot;
        if (dsl_dict_lookup(in, seq.as.d, item, &slot) != 0) return -1;
        *res = slot != NULL;
        return 0;
    }
    case DSL_SET: return dsl_set_contains(in, seq.as.d, item, res);
    case DSL_INSTANCE: return dsl_instance_contains(in, item, seq, res);
    case DSL_METHOD:
        if (dsl_is_attrs_view(seq)) { /* `name in obj.__dict__` */
            *res =
                item.kind == DSL_STR && dsl_attrs_find(dsl_view_attrs(seq.as.m), item.as.s->data);
            return 0;
        }
        /* fall through */
    default:
        return dsl_raise(in, "TypeError", "argument of type '%s' is not iterable",
                         dsl_type_name(seq));
    }
}
