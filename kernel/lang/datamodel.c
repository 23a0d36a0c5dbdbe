/* datamodel.c — Python's special methods on instances of user classes (see datamodel.h). */
#include "lang/datamodel.h"

#include "lang/classes.h"
#include "lang/eval.h"
#include "lang/exceptions.h"
#include "lang/list.h"
#include "lang/operators.h"

#include <stdint.h>
#include <string.h>

/* ---- NotImplemented --------------------------------------------------------------------- */

static int notimpl_repr(struct render_buf *b, const void *state)
{
    (void)state;
    render_buf_puts(b, "NotImplemented");
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int notimpl_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                           struct dsl_value *out)
{
    (void)self, (void)out;
    return dsl_raise(in, "AttributeError", "'NotImplementedType' object has no attribute '%s'",
                     name);
}

static void notimpl_free(void *state) { (void)state; }

static const struct dsl_object_class notimpl_class = {
    .name = "NotImplementedType",
    .doc = "NotImplemented: what a special method such as __add__ or __eq__ returns to let the "
           "other operand answer (its reflected method, __radd__), or Python's default.",
    .free = notimpl_free,
    .repr = notimpl_repr,
    .getattr = notimpl_getattr,
};

/* One object for the session's life: its count starts too high to reach zero. */
static struct dsl_object notimpl = {.refs = SIZE_MAX / 2, .cls = &notimpl_class};

struct dsl_value dsl_not_implemented(void)
{
    notimpl.refs++;
    return (struct dsl_value){.kind = DSL_OBJECT, .as.obj = &notimpl};
}

bool dsl_is_not_implemented(struct dsl_value v)
{
    return v.kind == DSL_OBJECT && v.as.obj == &notimpl;
}

/* ---- calling a special method ----------------------------------------------------------- */

static const struct dsl_class *class_of(struct dsl_value v)
{
    return v.kind == DSL_INSTANCE ? v.as.inst->cls.as.cls : NULL;
}

/* The special method `name` of v's class (v an instance), borrowed, in *fn. The name is a
 * name const, hashed and interned once, as every operator on an instance asks for one. */
static bool special_named(struct dsl_value v, struct dsl_name_const *name, struct dsl_value *fn)
{
    if (v.kind != DSL_INSTANCE) return false;
    if (!name->name) dsl_name_const_init(name);
    return dsl_class_special_hashed(class_of(v), name->name, name->hash, fn);
}
/* special_named of a literal name: its const is made where it is used. */
#define special(v, text, fn)                                                                       \
    special_named((v), ({                                                                          \
                      static struct dsl_name_const name_ = DSL_NAME_CONST(text);                   \
                      &name_;                                                                      \
                  }),                                                                              \
                  (fn))

/* fn(self, args...) into *out: 0 or -1. */
static int call(struct dsl_interp *in, struct dsl_value fn, struct dsl_value self,
                const struct dsl_value *args, size_t nargs, struct dsl_value *out)
{
    return dsl_call_method(in, fn, self, args, nargs, NULL, NULL, 0, out);
}

/* fn(self, other): 1 with an answer in *out, 0 when it is NotImplemented, -1 after raising. */
static int answer(struct dsl_interp *in, struct dsl_value fn, struct dsl_value self,
                  struct dsl_value other, struct dsl_value *out)
{
    if (call(in, fn, self, &other, 1, out) != 0) return -1;
    if (!dsl_is_not_implemented(*out)) return 1;
    dsl_value_release(*out);
    return 0;
}

/* Whether b's class derives from a's (not the same) and binds `name` to another function: then
 * b's reflected method answers first, as in Python, so that a subclass can override. */
static bool reflected_first(struct dsl_value a, struct dsl_value b, struct dsl_name_const *name,
                            struct dsl_value fb)
{
    const struct dsl_class *ca = class_of(a), *cb = class_of(b);
    if (!ca || !cb || ca == cb || !dsl_class_derives(cb, ca)) return false;
    struct dsl_value fa;
    return !special_named(a, name, &fa) || !dsl_value_is(fa, fb);
}

/* ---- operators -------------------------------------------------------------------------- */

static struct {
    enum dsl_tok op;
    struct dsl_name_const name, rname, iname;
} binary_ops[] = {
    {DSL_T_PLUS, DSL_NAME_CONST("__add__"), DSL_NAME_CONST("__radd__"), DSL_NAME_CONST("__iadd__")},
    {DSL_T_MINUS, DSL_NAME_CONST("__sub__"), DSL_NAME_CONST("__rsub__"),
     DSL_NAME_CONST("__isub__")},
    {DSL_T_STAR, DSL_NAME_CONST("__mul__"), DSL_NAME_CONST("__rmul__"), DSL_NAME_CONST("__imul__")},
    {DSL_T_SLASH, DSL_NAME_CONST("__truediv__"), DSL_NAME_CONST("__rtruediv__"),
     DSL_NAME_CONST("__itruediv__")},
    {DSL_T_DSLASH, DSL_NAME_CONST("__floordiv__"), DSL_NAME_CONST("__rfloordiv__"),
     DSL_NAME_CONST("__ifloordiv__")},
    {DSL_T_PERCENT, DSL_NAME_CONST("__mod__"), DSL_NAME_CONST("__rmod__"),
     DSL_NAME_CONST("__imod__")},
    {DSL_T_DSTAR, DSL_NAME_CONST("__pow__"), DSL_NAME_CONST("__rpow__"),
     DSL_NAME_CONST("__ipow__")},
    {DSL_T_AT, DSL_NAME_CONST("__matmul__"), DSL_NAME_CONST("__rmatmul__"),
     DSL_NAME_CONST("__imatmul__")},
    {DSL_T_AMP, DSL_NAME_CONST("__and__"), DSL_NAME_CONST("__rand__"), DSL_NAME_CONST("__iand__")},
    {DSL_T_PIPE, DSL_NAME_CONST("__or__"), DSL_NAME_CONST("__ror__"), DSL_NAME_CONST("__ior__")},
    {DSL_T_CARET, DSL_NAME_CONST("__xor__"), DSL_NAME_CONST("__rxor__"),
     DSL_NAME_CONST("__ixor__")},
    {DSL_T_LSHIFT, DSL_NAME_CONST("__lshift__"), DSL_NAME_CONST("__rlshift__"),
     DSL_NAME_CONST("__ilshift__")},
    {DSL_T_RSHIFT, DSL_NAME_CONST("__rshift__"), DSL_NAME_CONST("__rrshift__"),
     DSL_NAME_CONST("__irshift__")},
};

/* a op b with the method names of op: 1 with an answer, 0 when neither side answers, -1. */
static int binary(struct dsl_interp *in, struct dsl_name_const *name, struct dsl_name_const *rname,
                  struct dsl_value a, struct dsl_value b, struct dsl_value *out)
{
    struct dsl_value fa, fb;
    bool ha = special_named(a, name, &fa);
    bool hb = class_of(b) != class_of(a) && special_named(b, rname, &fb);
    int r;
    if (hb && ha && reflected_first(a, b, rname, fb)) {
        if ((r = answer(in, fb, b, a, out)) != 0) return r;
        hb = false;
    }
    if (ha && (r = answer(in, fa, a, b, out)) != 0) return r;
    if (hb && (r = answer(in, fb, b, a, out)) != 0) return r;
    return 0;
}

int dsl_instance_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                        struct dsl_value b, struct dsl_value *out)
{
    for (size_t i = 0; i < sizeof binary_ops / sizeof binary_ops[0]; i++)
        if (binary_ops[i].op == op)
            return binary(in, &binary_ops[i].name, &binary_ops[i].rname, a, b, out);
    return 0;
}

int dsl_instance_inplace(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                         struct dsl_value b, struct dsl_value *out)
{
    for (size_t i = 0; i < sizeof binary_ops / sizeof binary_ops[0]; i++) {
        if (binary_ops[i].op != op) continue;
        struct dsl_value fn;
        int r;
        if (special_named(a, &binary_ops[i].iname, &fn) && (r = answer(in, fn, a, b, out)) != 0)
            return r;
        return binary(in, &binary_ops[i].name, &binary_ops[i].rname, a, b, out);
    }
    return 0;
}

int dsl_instance_unary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value v,
                       struct dsl_value *out)
{
    struct dsl_value fn;
    bool has = op == DSL_T_MINUS  ? special(v, "__neg__", &fn)
               : op == DSL_T_PLUS ? special(v, "__pos__", &fn)
                                  : special(v, "__invert__", &fn);
    if (has) return call(in, fn, v, NULL, 0, out);
    return dsl_raise(in, "TypeError", "bad operand type for unary %s: '%s'", dsl_op_symbol(op),
                     dsl_type_name(v));
}

/* ---- comparisons ------------------------------------------------------------------------ */

static struct {
    enum dsl_tok op;
    struct dsl_name_const name, rname;
} compare_ops[] = {
    {DSL_T_EQ, DSL_NAME_CONST("__eq__"), DSL_NAME_CONST("__eq__")},
    {DSL_T_NE, DSL_NAME_CONST("__ne__"), DSL_NAME_CONST("__ne__")},
    {DSL_T_LT, DSL_NAME_CONST("__lt__"), DSL_NAME_CONST("__gt__")},
    {DSL_T_LE, DSL_NAME_CONST("__le__"), DSL_NAME_CONST("__ge__")},
    {DSL_T_GT, DSL_NAME_CONST("__gt__"), DSL_NAME_CONST("__lt__")},
    {DSL_T_GE, DSL_NAME_CONST("__ge__"), DSL_NAME_CONST("__le__")},
};

/* self != other as object.__ne__ answers it for a class with __eq__ and no __ne__: __eq__
 * inverted. 1 with an answer, 0 (NotImplemented), -1. */
static int ne_from_eq(struct dsl_interp *in, struct dsl_value self, struct dsl_value other,
                      struct dsl_value *out)
{
    struct dsl_value eq, r;
    if (!special(self, "__eq__", &eq)) return 0;
    int k = answer(in, eq, self, other, &r);
    if (k <= 0) return k;
    bool t = false;
    k = dsl_truth(in, r, &t);
    dsl_value_release(r);
    if (k != 0) return -1;
    *out = dsl_bool(!t);
    return 1;
}

/* One side's method for op: its own, or for != the inverse of its __eq__. */
static int compare_side(struct dsl_interp *in, enum dsl_tok op, struct dsl_name_const *name,
                        struct dsl_value self, struct dsl_value other, struct dsl_value *out)
{
    struct dsl_value fn;
    if (special_named(self, name, &fn)) return answer(in, fn, self, other, out);
    return op == DSL_T_NE ? ne_from_eq(in, self, other, out) : 0;
}

int dsl_instance_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                         struct dsl_value b, struct dsl_value *out)
{
    size_t i = 0;
    while (i < sizeof compare_ops / sizeof compare_ops[0] && compare_ops[i].op != op) i++;
    if (i == sizeof compare_ops / sizeof compare_ops[0])
        return dsl_raise(in, "TypeError", "this comparison of '%s' and '%s'", dsl_type_name(a),
                         dsl_type_name(b));
    struct dsl_name_const *name = &compare_ops[i].name, *rname = &compare_ops[i].rname;
    /* unlike the binary operators, b's reflected method goes first whenever b's class is a
     * proper subclass of a's, overriding it or not: CPython's do_richcompare asks only for the
     * subtype relation */
    const struct dsl_class *ca = class_of(a), *cb = class_of(b);
    bool b_first = ca && cb && ca != cb && dsl_class_derives(cb, ca);
    int r;
    if (b_first && (r = compare_side(in, op, rname, b, a, out)) != 0) return r < 0 ? -1 : 0;
    if ((r = compare_side(in, op, name, a, b, out)) != 0) return r < 0 ? -1 : 0;
    if (!b_first && (r = compare_side(in, op, rname, b, a, out)) != 0) return r < 0 ? -1 : 0;
    if (op == DSL_T_EQ || op == DSL_T_NE) { /* object's: identity */
        *out = dsl_bool(dsl_value_is(a, b) == (op == DSL_T_EQ));
        return 0;
    }
    return dsl_raise(in, "TypeError", "'%s' not supported between instances of '%s' and '%s'",
                     dsl_op_symbol(op), dsl_type_name(a), dsl_type_name(b));
}

/* ---- truth, len, hash ------------------------------------------------------------------- */

/* What __len__ returned, as len() takes it: 0 with *n, or -1 after raising. */
static int len_result(struct dsl_interp *in, struct dsl_value r, int64_t *n)
{
    if (!dsl_is_intlike(r))
        return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                         dsl_type_name(r));
    *n = dsl_as_int(r);
    if (*n < 0) return dsl_raise(in, "ValueError", "__len__() should return >= 0");
    return 0;
}

int dsl_instance_truth(struct dsl_interp *in, struct dsl_value v, bool *out)
{
    struct dsl_value fn, r;
    *out = true;
    if (special(v, "__bool__", &fn)) {
        if (call(in, fn, v, NULL, 0, &r) != 0) return -1;
        if (r.kind != DSL_BOOL) {
            dsl_raise(in, "TypeError", "__bool__ should return bool, returned %s",
                      dsl_type_name(r));
            dsl_value_release(r);
            return -1;
        }
        *out = r.as.b;
        return 0;
    }
    if (special(v, "__len__", &fn)) {
        int64_t n = 0;
        if (call(in, fn, v, NULL, 0, &r) != 0) return -1;
        int k = len_result(in, r, &n);
        dsl_value_release(r);
        *out = n != 0;
        return k;
    }
    return 0;
}

int dsl_instance_len(struct dsl_interp *in, struct dsl_value v, int64_t *n)
{
    struct dsl_value fn, r;
    if (dsl_is_attrs_view(v)) {
        *n = (int64_t)dsl_view_attrs(v.as.m)->len;
        return 0;
    }
    if (!special(v, "__len__", &fn))
        return dsl_raise(in, "TypeError", "object of type '%s' has no len()", dsl_type_name(v));
    if (call(in, fn, v, NULL, 0, &r) != 0) return -1;
    int k = len_result(in, r, n);
    dsl_value_release(r);
    return k;
}

int64_t dsl_identity_hash(struct dsl_value v)
{
    /* what CPython's object.__hash__ gives: the address, without its always-zero low bits */
    uintptr_t p = v.kind == DSL_INSTANCE ? (uintptr_t)v.as.inst : (uintptr_t)v.as.obj;
    return (int64_t)(p >> 4);
}

int dsl_instance_hash(struct dsl_interp *in, struct dsl_value v, int64_t *h)
{
    /* the nearest class defining __hash__ or __eq__ decides: one with __eq__ and no __hash__
     * makes its instances unhashable, as Python sets __hash__ to None there */
    for (const struct dsl_class *c = class_of(v); c;
         c = c->base.kind == DSL_CLASS ? c->base.as.cls : NULL) {
        struct dsl_value *fn = dsl_attrs_find(&c->attrs, "__hash__");
        if (!fn && !dsl_attrs_find(&c->attrs, "__eq__")) continue;
        if (!fn || fn->kind == DSL_NONE)
            return dsl_raise(in, "TypeError", "unhashable type: '%s'", dsl_type_name(v));
        struct dsl_value r;
        if (call(in, *fn, v, NULL, 0, &r) != 0) return -1;
        if (!dsl_is_intlike(r)) {
            dsl_value_release(r);
            return dsl_raise(in, "TypeError", "__hash__ method should return an integer");
        }
        *h = dsl_as_int(r);
        if (*h == -1) *h = -2; /* -1 is CPython's error value, never a hash */
        return 0;
    }
    *h = dsl_identity_hash(v);
    return 0;
}

int dsl_instance_special(struct dsl_interp *in, struct dsl_value v, const char *name,
                         const struct dsl_value *args, size_t nargs, struct dsl_value *out)
{
    struct dsl_value fn;
    if (v.kind != DSL_INSTANCE || !dsl_class_special(class_of(v), name, &fn)) return 0;
    return call(in, fn, v, args, nargs, out) != 0 ? -1 : 1;
}

int dsl_instance_abs(struct dsl_interp *in, struct dsl_value v, struct dsl_value *out)
{
    struct dsl_value fn;
    if (special(v, "__abs__", &fn)) return call(in, fn, v, NULL, 0, out);
    return dsl_raise(in, "TypeError", "bad operand type for abs(): '%s'", dsl_type_name(v));
}

/* ---- items and containment -------------------------------------------------------------- */

int dsl_instance_getitem(struct dsl_interp *in, struct dsl_value v, struct dsl_value key,
                         struct dsl_value *out)
{
    struct dsl_value fn;
    if (!special(v, "__getitem__", &fn))
        return dsl_raise(in, "TypeError", "'%s' object is not subscriptable", dsl_type_name(v));
    return call(in, fn, v, &key, 1, out);
}

int dsl_instance_setitem(struct dsl_interp *in, struct dsl_value v, struct dsl_value key,
                         struct dsl_value x)
{
    struct dsl_value fn, r, args[2] = {key, x};
    if (!special(v, "__setitem__", &fn)) /* CPython's slot for both asks the missing one */
        return special(v, "__delitem__", &fn)
                   ? dsl_raise(in, "AttributeError", "__setitem__")
                   : dsl_raise(in, "TypeError", "'%s' object does not support item assignment",
                               dsl_type_name(v));
    if (call(in, fn, v, args, 2, &r) != 0) return -1;
    dsl_value_release(r);
    return 0;
}

int dsl_instance_delitem(struct dsl_interp *in, struct dsl_value v, struct dsl_value key)
{
    struct dsl_value fn, r;
    if (!special(v, "__delitem__", &fn))
        return special(v, "__setitem__", &fn)
                   ? dsl_raise(in, "AttributeError", "__delitem__")
                   : dsl_raise(in, "TypeError", "'%s' object %s support item deletion",
                               dsl_type_name(v),
                               /* CPython words the sequence's and the mapping's apart */
                               dsl_is_intlike(key) ? "doesn't" : "does not");
    if (call(in, fn, v, &key, 1, &r) != 0) return -1;
    dsl_value_release(r);
    return 0;
}

int dsl_instance_contains(struct dsl_interp *in, struct dsl_value item, struct dsl_value v,
                          bool *res)
{
    struct dsl_value fn, r;
    *res = false;
    if (special(v, "__contains__", &fn)) {
        if (call(in, fn, v, &item, 1, &r) != 0) return -1;
        int k = dsl_truth(in, r, res);
        dsl_value_release(r);
        return k;
    }
    if (!dsl_instance_iterable(v))
        return dsl_raise(in, "TypeError", "argument of type '%s' is not iterable",
                         dsl_type_name(v));
    struct dsl_iter it;
    if (dsl_iter_init(in, v, &it) != 0) return -1;
    int k;
    struct dsl_value x;
    while (!*res && (k = dsl_iter_next(in, &it, &x)) == 1) {
        int e = dsl_equal(in, x, item, res);
        dsl_value_release(x);
        if (e != 0) k = -1;
        if (k < 0) break;
    }
    dsl_iter_end(&it);
    return k < 0 ? -1 : 0;
}

/* ---- iteration -------------------------------------------------------------------------- */

bool dsl_instance_iterable(struct dsl_value v)
{
    struct dsl_value fn;
    return special(v, "__iter__", &fn) || special(v, "__getitem__", &fn);
}

/* How an instance is iterated (struct dsl_iter's n): by its iterator's __next__, or by
 * __getitem__ at 0, 1, ... */
enum { BY_NEXT = -1, BY_INDEX = -2 };

int dsl_instance_iter(struct dsl_interp *in, struct dsl_value v, struct dsl_iter *it)
{
    struct dsl_value fn, r;
    if (!special(v, "__iter__", &fn)) {
        if (!special(v, "__getitem__", &fn))
            return dsl_raise(in, "TypeError", "'%s' object is not iterable", dsl_type_name(v));
        it->n = BY_INDEX;
        return 0;
    }
    if (call(in, fn, v, NULL, 0, &r) != 0) return -1;
    if (r.kind == DSL_INSTANCE) {
        struct dsl_value next;
        if (!special(r, "__next__", &next)) {
            dsl_raise(in, "TypeError", "iter() returned non-iterator of type '%s'",
                      dsl_type_name(r));
            dsl_value_release(r);
            return -1;
        }
        it->src = it->own = r;
        it->n = BY_NEXT;
        return 0;
    }
    dsl_raise(in, "TypeError", "iter() returned non-iterator of type '%s'", dsl_type_name(r));
    dsl_value_release(r);
    return -1;
}

/* Whether the pending error is `name` or a class deriving from it (a class of the program's own
 * too); if so it is dropped. */
static bool ends_with(struct dsl_interp *in, const char *name)
{
    const struct dsl_exc_type *t = in->exc.kind == DSL_INSTANCE
                                       ? dsl_class_exc_base(in->exc.as.inst->cls.as.cls)
                                   : in->ename ? dsl_exc_type_find(in->ename)
                                               : NULL;
    if (!t || !dsl_exc_type_is(t, dsl_exc_type_find(name))) return false;
    dsl_interp_clear_error(in);
    return true;
}

int dsl_instance_next(struct dsl_interp *in, struct dsl_iter *it, struct dsl_value *out)
{
    struct dsl_value fn;
    if (it->n == BY_NEXT) {
        if (!special(it->src, "__next__", &fn))
            return dsl_raise(in, "TypeError", "'%s' object is not an iterator",
                             dsl_type_name(it->src));
        if (call(in, fn, it->src, NULL, 0, out) == 0) return 1;
        return ends_with(in, "StopIteration") ? 0 : -1;
    }
    if (!special(it->src, "__getitem__", &fn))
        return dsl_raise(in, "TypeError", "'%s' object is not iterable", dsl_type_name(it->src));
    struct dsl_value k = dsl_int(it->k++);
    if (call(in, fn, it->src, &k, 1, out) == 0) return 1;
    return ends_with(in, "IndexError") || ends_with(in, "StopIteration") ? 0 : -1;
}

/* ---- iter() and next() ------------------------------------------------------------------ */

/* The iterator iter() gives for a built-in iterable: an instance of a library class whose
 * __next__ steps through what it holds, under names no attribute syntax can reach: a list (a
 * live one: appending during the loop is seen, as Python's list_iterator sees it), a range, or
 * the items of anything else taken once. */
#define ITER_SRC " src"
#define ITER_POS " pos"
#define ITER_RET " ret" /* a generator's: what its body returned, until its end is raised */

/* The StopIteration that ends iterator self: with a generator's return value, the first time. */
static int iterator_end(struct dsl_interp *in, struct dsl_value self)
{
    struct dsl_value *ret = dsl_attrs_find(&self.as.inst->attrs, ITER_RET);
    if (!ret || ret->kind == DSL_NONE) return dsl_raise(in, "StopIteration", "%s", "");
    struct dsl_value e; /* its args hold the value, which self then drops */
    if (dsl_exc_type_call(in, dsl_exc_type_find("StopIteration"), ret, 1, 0, &e) != 0) return -1;
    int st = dsl_attrs_set(&self.as.inst->attrs, ITER_RET, dsl_none());
    if (st != DSL_V_OK) {
        dsl_value_release(e);
        return dsl_raise_status(in, st);
    }
    dsl_exc_throw(in, e);
    dsl_value_release(e);
    return -1;
}

static int iterator_next(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self = a->self;
    if (self.kind != DSL_INSTANCE) return dsl_raise(in, "TypeError", "an iterator's __next__");
    struct dsl_value *src = dsl_attrs_find(&self.as.inst->attrs, ITER_SRC);
    struct dsl_value *pos = dsl_attrs_find(&self.as.inst->attrs, ITER_POS);
    if (!src || !pos) return iterator_end(in, self);
    if (pos->kind != DSL_INT || pos->as.i < 0) /* its state is the language's to change */
        return dsl_raise(in, "RuntimeError", "this iterator's state was changed");
    int64_t k = pos->as.i;
    if (src->kind == DSL_RANGE) {
        struct dsl_range r = src->as.rng->r;
        if (k >= dsl_range_len(r)) return iterator_end(in, self);
        *ret = dsl_int((int64_t)((uint64_t)r.start + (uint64_t)k * (uint64_t)r.step));
    } else {
        if (src->kind != DSL_LIST || k >= (int64_t)src->as.l->len) return iterator_end(in, self);
        *ret = dsl_value_retain(src->as.l->items[k]);
    }
    pos->as.i = k + 1;
    return 0;
}

static int iterator_iter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_value_retain(a->self);
    return 0;
}

/* an iterator's rows, one copy per class name CPython gives (a static class is keyed by its
 * rows): list_iterator, range_iterator, ... */
#define ITERATOR_ROWS(var)                                                                         \
    static const struct dsl_builtin var[] = {                                                      \
        {"__next__", "__next__()", 0, 0, NULL, iterator_next,                                      \
         "The next item, or StopIteration at the end."},                                           \
        {"__iter__", "__iter__()", 0, 0, NULL, iterator_iter, "The iterator itself."},             \
        {NULL, NULL, 0, 0, NULL, NULL, NULL},                                                      \
    }
ITERATOR_ROWS(iterator_rows);
ITERATOR_ROWS(list_iterator_rows);
ITERATOR_ROWS(tuple_iterator_rows);
ITERATOR_ROWS(range_iterator_rows);
ITERATOR_ROWS(str_iterator_rows);
ITERATOR_ROWS(str_ascii_iterator_rows);
ITERATOR_ROWS(dict_iterator_rows);
ITERATOR_ROWS(set_iterator_rows);

/* The class of iter(src) for a built-in src, under CPython's name for it. */
static struct dsl_class *iterator_class(struct dsl_value src)
{
    static const struct {
        const char *name;
        const struct dsl_builtin *rows;
    } named[] = {
        {"iterator", iterator_rows},
        {"list_iterator", list_iterator_rows},
        {"tuple_iterator", tuple_iterator_rows},
        {"range_iterator", range_iterator_rows},
        {"str_iterator", str_iterator_rows},
        {"str_ascii_iterator", str_ascii_iterator_rows},
        {"dict_keyiterator", dict_iterator_rows},
        {"set_iterator", set_iterator_rows},
    };
    size_t k = 0;
    if (src.kind == DSL_LIST && !dsl_is_ndarray(src)) k = dsl_is_tuple(src) ? 2 : 1;
    if (src.kind == DSL_RANGE) k = 3;
    if (src.kind == DSL_STR) {
        k = 5;
        for (size_t i = 0; i < src.as.s->len; i++)
            if ((unsigned char)src.as.s->data[i] >= 0x80) k = 4;
    }
    if (src.kind == DSL_DICT || dsl_is_attrs_view(src)) k = 6;
    if (src.kind == DSL_SET) k = 7;
    return dsl_library_class(named[k].name,
                             "An iterator over a list, range, string or dict: next(it) gives its "
                             "items.",
                             dsl_none(), named[k].rows);
}

/* a generator's: the same, under the class Python names (a static class is keyed by its rows) */
static const struct dsl_builtin generator_rows[] = {
    {"__next__", "__next__()", 0, 0, NULL, iterator_next,
     "The next value the generator yielded, or StopIteration at the end."},
    {"__iter__", "__iter__()", 0, 0, NULL, iterator_iter, "The generator itself."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

/* An iterator (or a generator's: generator true) over src (borrowed): a list or a range as it
 * is, anything else as a list of its items made now. 0 or -1. */
static int iterator_over(struct dsl_interp *in, struct dsl_value src, bool generator,
                         struct dsl_value returned, struct dsl_value *out)
{
    struct dsl_class *c =
        generator ? dsl_library_class("generator",
                                      "What a generator function (a def whose body yields) or a "
                                      "generator expression gives: next(g) gives its values. Its "
                                      "body ran to its end when it was called.",
                                      dsl_none(), generator_rows)
                  : iterator_class(src);
    if (!c) return dsl_raise_status(in, DSL_V_NOMEM);
    c->no_dict = true; /* its attributes are its source and position, under hidden names */
    struct dsl_value held;
    if (src.kind == DSL_LIST || src.kind == DSL_RANGE) {
        held = dsl_value_retain(src);
    } else {
        struct dsl_list *l = dsl_list_new(0);
        if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
        held = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
        if (dsl_list_extend(in, l, src) != 0) {
            dsl_value_release(held);
            return -1;
        }
    }
    struct dsl_value cls = {.kind = DSL_CLASS, .as.cls = c};
    if (dsl_class_call(in, cls, NULL, 0, NULL, NULL, 0, out) != 0) {
        dsl_value_release(held);
        return -1;
    }
    int st = dsl_attrs_set(&out->as.inst->attrs, ITER_SRC, held);
    if (st == DSL_V_OK) st = dsl_attrs_set(&out->as.inst->attrs, ITER_POS, dsl_int(0));
    if (st == DSL_V_OK && returned.kind != DSL_NONE)
        st = dsl_attrs_set(&out->as.inst->attrs, ITER_RET, dsl_value_retain(returned));
    if (st != DSL_V_OK) {
        dsl_value_release(*out);
        return dsl_raise_status(in, st);
    }
    return 0;
}

int dsl_bi_iter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0], fn;
    if (v.kind == DSL_INSTANCE && special(v, "__iter__", &fn)) {
        if (call(in, fn, v, NULL, 0, ret) != 0) return -1;
        struct dsl_value next;
        if (ret->kind == DSL_INSTANCE && special(*ret, "__next__", &next)) return 0;
        dsl_raise(in, "TypeError", "iter() returned non-iterator of type '%s'",
                  dsl_type_name(*ret));
        dsl_value_release(*ret);
        return -1;
    }
    if (v.kind == DSL_INSTANCE && !special(v, "__getitem__", &fn))
        return dsl_raise(in, "TypeError", "'%s' object is not iterable", dsl_type_name(v));
    return iterator_over(in, v, false, dsl_none(), ret);
}

int dsl_generator_over(struct dsl_interp *in, struct dsl_value values, struct dsl_value returned,
                       struct dsl_value *out)
{
    return iterator_over(in, values, true, returned, out);
}

int dsl_bi_next(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value it = a->slot[0], fn;
    if (!special(it, "__next__", &fn))
        return dsl_raise(in, "TypeError", "'%s' object is not an iterator", dsl_type_name(it));
    if (call(in, fn, it, NULL, 0, ret) == 0) return 0;
    if (!a->has[1] || !ends_with(in, "StopIteration")) return -1;
    *ret = dsl_value_retain(a->slot[1]);
    return 0;
}
