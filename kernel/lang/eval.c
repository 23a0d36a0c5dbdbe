/* eval.c — the tree-walking evaluator's expressions: dsl_eval's table, indexed by node kind,
 * and what each kind of expression does (displays, operators, comparisons, subscripts,
 * attributes, comprehensions, f-strings); iteration, which statements use too.
 *
 * The evaluator's other parts (eval.h): statements in statements.c, names and scopes in
 * scopes.c, calls in calls.c, assignment targets in assign.c. The operators' arithmetic, which
 * follows Python, is in operators.c, numbers.c and sequences.c (operators.h); raising errors
 * and the cell's output in interp.c. Every iteration of a comprehension polls the cancel flag,
 * as a loop statement's does. Whatever involves a tensor (operators, comparisons, indexing,
 * attributes, truth) is handed to the library (library.h).
 *
 * Ownership inside the evaluator: an expression's result is a new reference that the caller
 * releases; operands are borrowed by the operators. */
#include "lang/eval.h"

#include "lang/classes.h"
#include "lang/datamodel.h"
#include "lang/dict.h"
#include "lang/exceptions.h"
#include "lang/list.h"
#include "lang/missing.h"
#include "lang/ndarray.h"
#include "lang/operators.h"
#include "lang/set.h"
#include "lang/str.h"

#include "minitorch/minitorch.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---- iteration -------------------------------------------------------------------------- */

int dsl_iter_init(struct dsl_interp *in, struct dsl_value v, struct dsl_iter *it)
{
    memset(it, 0, sizeof *it);
    it->src = v;
    it->own = dsl_none();
    if (v.kind == DSL_INSTANCE) return dsl_instance_iter(in, v, it);
    if (v.kind == DSL_METHOD && v.as.m->wrap == DSL_WRAP_ATTRS) { /* obj.__dict__: its keys */
        struct dsl_value keys;
        if (dsl_attrs_view_keys(in, v, &keys) != 0) return -1;
        it->src = it->own = keys;
        return 0;
    }
    if (v.kind == DSL_RANGE) it->n = dsl_range_len(v.as.rng->r);
    if (v.kind == DSL_OBJECT && v.as.obj->cls->len && v.as.obj->cls->getitem)
        return v.as.obj->cls->len(in, v, &it->n); /* item by item, as Python's old protocol */
    /* a dict's keys, or a set's: a change of size raises */
    if (v.kind == DSL_DICT || v.kind == DSL_SET) it->k = (int64_t)v.as.d->len;
    if (v.kind == DSL_LIST || v.kind == DSL_STR || v.kind == DSL_RANGE || v.kind == DSL_DICT ||
        v.kind == DSL_SET)
        return 0;
    return dsl_raise(in, "TypeError", "'%s' object is not iterable", dsl_type_name(v));
}

int dsl_iter_next_any(struct dsl_interp *in, struct dsl_iter *it, struct dsl_value *out)
{
    struct dsl_value v = it->src;
    if (v.kind == DSL_INSTANCE) return dsl_instance_next(in, it, out);
    if (v.kind == DSL_STR) {
        if (it->i >= v.as.s->len) return 0;
        size_t k = render_utf8_seq(v.as.s->data + it->i, v.as.s->len - it->i);
        if (!k) k = 1;
        int st = dsl_str_value(v.as.s->data + it->i, k, out);
        if (st != 0) return dsl_raise_status(in, st);
        it->i += k;
        return 1;
    }
    if (v.kind == DSL_OBJECT) {
        if (it->k >= it->n) return 0;
        return v.as.obj->cls->getitem(in, v, dsl_int(it->k++), out) != 0 ? -1 : 1;
    }
    if (v.kind == DSL_DICT || v.kind == DSL_SET) {
        const struct dsl_dict *d = v.as.d;
        if ((int64_t)d->len != it->k)
            return dsl_raise(in, "RuntimeError", "%s changed size during iteration",
                             v.kind == DSL_SET ? "Set" : "dictionary");
        while (it->i < d->n && !d->entries[it->i].live) it->i++;
        if (it->i >= d->n) return 0;
        *out = dsl_value_retain(d->entries[it->i++].key);
        return 1;
    }
    assert(!"a list or a range is dsl_iter_next's own; dsl_iter_init starts no other kind");
    return 0;
}

/* ---- loops over zip(...) ----------------------------------------------------------------- */

int dsl_zip_loop_start(struct dsl_interp *in, const struct dsl_node *e, struct dsl_zip_loop *z,
                       struct dsl_value *seq)
{
    struct dsl_value callee;
    z->n = 0;
    *seq = dsl_none();
    if (dsl_eval_node(in, e->a, &callee) != 0) return -1;
    size_t done = 0;
    int r = 0;
    for (; done < e->nkids && r == 0; done++) r = dsl_eval_node(in, e->kids[done], &z->seq[done]);
    if (r != 0) done--; /* the one that failed holds nothing */
    bool walk =
        r == 0 && callee.kind == DSL_BUILTIN && dsl_builtin_is_zip(callee.as.fn) &&
        !(in->session && in->session->course_refuses && in->session->course_refuses(callee.as.fn));
    for (size_t i = 1; walk && i < done; i++) walk = z->seq[i].kind != DSL_TENSOR;
    if (r == 0 && !walk) /* the tensor form, or another callee named zip: the call itself */
        r = dsl_call(in, callee, z->seq, done, NULL, NULL, 0, seq);
    size_t started = 0;
    while (walk && r == 0 && started < done) {
        r = dsl_iter_init(in, z->seq[started], &z->it[started]);
        if (r == 0) started++;
    }
    dsl_value_release(callee);
    if (walk && r == 0) {
        z->n = done;
        return 0;
    }
    if (r != 0) dsl_error_locate(in, e->pos); /* at the call, as its evaluation locates them */
    for (size_t i = 0; i < started; i++) dsl_iter_end(&z->it[i]);
    dsl_release_all(z->seq, done);
    return r;
}

int dsl_zip_loop_next(struct dsl_interp *in, struct dsl_zip_loop *z, struct dsl_value *row,
                      size_t pos)
{
    size_t got = 0;
    int g = 1;
    while (got < z->n && (g = dsl_iter_next(in, &z->it[got], &row[got])) > 0) got++;
    if (g > 0) return 1;
    dsl_release_all(row, got);
    if (g < 0) dsl_error_locate(in, pos);
    return g;
}

int dsl_zip_loop_tuple(struct dsl_interp *in, const struct dsl_zip_loop *z, struct dsl_value *row,
                       struct dsl_value *out)
{
    struct dsl_list *t = dsl_list_new(z->n);
    if (!t) {
        dsl_release_all(row, z->n);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    t->style = DSL_LIST_TUPLE;
    for (size_t i = 0; i < z->n; i++) dsl_list_push(t, row[i]); /* room made */
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = t};
    return 0;
}

int dsl_zip_loop_assign(struct dsl_interp *in, const struct dsl_zip_loop *z,
                        const struct dsl_node *t, struct dsl_value *row)
{
    if ((t->kind != DSL_N_TUPLE && t->kind != DSL_N_LIST) || t->nkids != z->n) {
        struct dsl_value tuple; /* `for pair in zip(...)`, or a count that raises */
        if (dsl_zip_loop_tuple(in, z, row, &tuple) != 0) return DSL_X_ERR;
        return dsl_assign_to(in, t, tuple);
    }
    /* each item to its target, left to right, as unpacking the tuple would store them */
    int r = DSL_X_OK;
    size_t i = 0;
    for (; i < z->n && r == DSL_X_OK; i++) r = dsl_assign_to(in, t->kids[i], row[i]);
    dsl_release_all(row + i, z->n - i);
    return r;
}

void dsl_zip_loop_end(struct dsl_zip_loop *z)
{
    for (size_t i = 0; i < z->n; i++) dsl_iter_end(&z->it[i]);
    dsl_release_all(z->seq, z->n);
    z->n = 0;
}

/* ---- expressions ------------------------------------------------------------------------ */

static int eval_const(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    (void)in;
    *out = dsl_value_retain(n->value);
    return 0;
}

/* A list or tuple display: its items evaluated left to right. */
static int eval_list(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new(n->nkids);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    if (n->kind == DSL_N_TUPLE) l->style = DSL_LIST_TUPLE;
    for (size_t i = 0; i < n->nkids; i++) {
        struct dsl_value item;
        if (dsl_eval_node(in, n->kids[i], &item) != 0) goto error;
        int st = dsl_list_push(l, item);
        if (st != 0) {
            dsl_raise_status(in, st);
            dsl_error_locate(in, n->kids[i]->pos);
            goto error;
        }
    }
    out->kind = DSL_LIST;
    out->as.l = l;
    return 0;
error:
    dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = l});
    return -1;
}

/* A dict display: keys and values evaluated left to right, a repeated key keeping its first
 * place and its last value, as in Python. */
static int eval_dict(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_dict *d = dsl_dict_new();
    if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value dv = dsl_dict_value(d);
    for (size_t i = 0; i + 1 < n->nkids; i += 2) {
        struct dsl_value k, v;
        if (dsl_eval_node(in, n->kids[i], &k) != 0) goto error;
        if (dsl_eval_node(in, n->kids[i + 1], &v) != 0) {
            dsl_value_release(k);
            goto error;
        }
        int r = dsl_dict_store(in, d, k, v);
        dsl_value_release(k);
        dsl_value_release(v);
        if (r != 0) {
            dsl_error_locate(in, n->kids[i]->pos);
            goto error;
        }
    }
    *out = dv;
    return 0;
error:
    dsl_value_release(dv);
    return -1;
}

/* A set display: its items evaluated left to right, a repeated one keeping its first place. */
static int eval_set(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_dict *s = dsl_set_new(false);
    if (!s) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value sv = dsl_set_value(s);
    for (size_t i = 0; i < n->nkids; i++) {
        struct dsl_value item;
        if (dsl_eval_node(in, n->kids[i], &item) != 0) goto error;
        int r = dsl_set_add(in, s, item);
        dsl_value_release(item);
        if (r != 0) {
            dsl_error_locate(in, n->kids[i]->pos);
            goto error;
        }
    }
    *out = sv;
    return 0;
error:
    dsl_value_release(sv);
    return -1;
}

int dsl_unary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value v, struct dsl_value *out)
{
    if (op == DSL_T_TILDE && dsl_is_intlike(v)) { /* ~x is -x - 1, which always fits */
        *out = dsl_int(~dsl_as_int(v));
        return 0;
    }
    if (op == DSL_T_TILDE && v.kind != DSL_INSTANCE && !dsl_is_ndarray(v)) /* no tensor or float */
        return dsl_raise(in, "TypeError", "bad operand type for unary ~: '%s'", dsl_type_name(v));
    if (dsl_is_intlike(v)) {
        int64_t i = dsl_as_int(v);
        if (op == DSL_T_MINUS && i == INT64_MIN)
            return dsl_raise(in, "OverflowError",
                             "integer overflow in unary '-': the result does not fit in 64 bits");
        *out = dsl_int(op == DSL_T_MINUS ? -i : i);
        return 0;
    }
    if (v.kind == DSL_FLOAT) {
        *out = dsl_float(op == DSL_T_MINUS ? -v.as.f : v.as.f);
        return 0;
    }
    if (v.kind == DSL_TENSOR) return dsl_tensor_unary(in, op, v, out);
    if (v.kind == DSL_INSTANCE) return dsl_instance_unary(in, op, v, out);
    if (dsl_is_ndarray(v)) return dsl_ndarray_unary(in, op, v, out);
    return dsl_raise(in, "TypeError", "bad operand type for unary %s: '%s'", dsl_op_symbol(op),
                     dsl_type_name(v));
}

static int eval_unary(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value v;
    if (dsl_eval_node(in, n->a, &v) != 0) return -1;
    int r = dsl_unary(in, n->op, v, out);
    if (r != 0) dsl_error_locate(in, n->pos);
    dsl_value_release(v);
    return r;
}

static int eval_not(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value v;
    if (dsl_eval_node(in, n->a, &v) != 0) return -1;
    bool t = false;
    int r = dsl_truth(in, v, &t);
    dsl_value_release(v);
    if (r != 0) return dsl_error_locate(in, n->pos), -1;
    *out = dsl_bool(!t);
    return 0;
}

static int eval_binary(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value a, b;
    bool own_a, own_b;
    if (dsl_eval_lent(in, n->a, &a, &own_a) != 0) return -1;
    if (dsl_eval_lent(in, n->b, &b, &own_b) != 0) {
        if (own_a) dsl_value_release(a);
        return -1;
    }
    /* two floats, or a float and an int, under + - *: the arithmetic of a student's
     * operators.py, done here (what dsl_number_binary would do, with no call on the way) */
    if ((a.kind == DSL_FLOAT && (b.kind == DSL_FLOAT || b.kind == DSL_INT)) ||
        (a.kind == DSL_INT && b.kind == DSL_FLOAT)) {
        double x = a.kind == DSL_FLOAT ? a.as.f : (double)a.as.i;
        double y = b.kind == DSL_FLOAT ? b.as.f : (double)b.as.i;
        switch (n->op) {
        case DSL_T_PLUS: *out = dsl_float(x + y); return 0;
        case DSL_T_MINUS: *out = dsl_float(x - y); return 0;
        case DSL_T_STAR: *out = dsl_float(x * y); return 0;
        default: break;
        }
    }
    /* a tensor goes straight to the library: the per-op cost of `c = a * b` in a loop is the
     * language's overhead that students time, and dsl_binary is a call into another file (which
     * asks an instance of a user class, tensor or not on the other side) */
    int r = (a.kind == DSL_TENSOR && b.kind != DSL_INSTANCE) ||
                    (b.kind == DSL_TENSOR && a.kind != DSL_INSTANCE)
                ? dsl_tensor_binary(in, n->op, a, b, out)
                : dsl_binary(in, n->op, a, b, out);
    if (r != 0) dsl_error_locate(in, n->pos);
    if (own_a) dsl_value_release(a);
    if (own_b) dsl_value_release(b);
    return r;
}

static int eval_logic(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value a;
    if (dsl_eval_node(in, n->a, &a) != 0) return -1;
    bool t = false;
    if (dsl_truth(in, a, &t) != 0) {
        dsl_value_release(a);
        return dsl_error_locate(in, n->pos), -1;
    }
    if ((n->kind == DSL_N_AND) != t) {
        *out = a; /* and: a falsy; or: a truthy */
        return 0;
    }
    dsl_value_release(a);
    return dsl_eval_node(in, n->b, out);
}

int dsl_compare_value(struct dsl_interp *in, enum dsl_tok op, struct dsl_value left,
                      struct dsl_value right, struct dsl_value *out)
{
    bool result = false;
    int r = 0;
    if (op == DSL_T_IS || op == DSL_T_IS_NOT) {
        *out = dsl_bool(dsl_value_is(left, right) == (op == DSL_T_IS));
        return 0;
    }
    bool contains = op == DSL_T_IN || op == DSL_T_NOT;
    if ((left.kind == DSL_INSTANCE || right.kind == DSL_INSTANCE) && !contains)
        return dsl_instance_compare(in, op, left, right, out);
    if ((left.kind == DSL_TENSOR || right.kind == DSL_TENSOR) && !contains)
        return dsl_tensor_compare(in, op, left, right, out);
    if ((dsl_is_ndarray(left) || dsl_is_ndarray(right)) && !contains)
        return dsl_ndarray_compare(in, op, left, right, out);
    switch (op) {
    case DSL_T_EQ: r = dsl_equal(in, left, right, &result); break;
    case DSL_T_NE:
        r = dsl_equal(in, left, right, &result);
        result = !result;
        break;
    case DSL_T_IN: r = dsl_contains(in, left, right, &result); break;
    case DSL_T_NOT:
        r = dsl_contains(in, left, right, &result);
        result = !result;
        break;
    default: r = dsl_compare(in, op, left, right, &result); break;
    }
    if (r == 0) *out = dsl_bool(result);
    return r;
}

/* a < b < c is (a < b) and (b < c) with b evaluated once: the value is the first false
 * comparison's, else the last one's (a tensor for tensor operands, as in Python). */
/* a op b for two ints or two floats: true with the answer in *res, false for other operands. */
static bool compare_numbers(enum dsl_tok op, struct dsl_value a, struct dsl_value b, bool *res)
{
    int c;
    if (a.kind == DSL_INT && b.kind == DSL_INT)
        c = (a.as.i > b.as.i) - (a.as.i < b.as.i);
    else if (a.kind == DSL_FLOAT && b.kind == DSL_FLOAT && a.as.f == a.as.f && b.as.f == b.as.f)
        c = (a.as.f > b.as.f) - (a.as.f < b.as.f); /* NaN left to dsl_compare_value */
    else
        return false;
    switch (op) {
    case DSL_T_LT: *res = c < 0; return true;
    case DSL_T_LE: *res = c <= 0; return true;
    case DSL_T_GT: *res = c > 0; return true;
    case DSL_T_GE: *res = c >= 0; return true;
    case DSL_T_EQ: *res = c == 0; return true;
    case DSL_T_NE: *res = c != 0; return true;
    default: return false;
    }
}

static __attribute__((noinline)) int compare_any(struct dsl_interp *in, const struct dsl_node *n,
                                                 struct dsl_value *out)
{
    struct dsl_value left;
    if (n->nkids == 2) { /* a op b: its operands lent where they are locals */
        struct dsl_value right;
        bool own_left, own_right, res;
        if (dsl_eval_lent(in, n->kids[0], &left, &own_left) != 0) return -1;
        if (dsl_eval_lent(in, n->kids[1], &right, &own_right) != 0) {
            if (own_left) dsl_value_release(left);
            return -1;
        }
        int r = 0;
        enum dsl_tok op = n->op;
        struct dsl_dict_entry *e;
        if (op == DSL_T_IS || op == DSL_T_IS_NOT) /* `x is None`: no dispatch */
            *out = dsl_bool(dsl_value_is(left, right) == (op == DSL_T_IS));
        else if ((op == DSL_T_IN || op == DSL_T_NOT) &&
                 (right.kind == DSL_DICT || right.kind == DSL_SET) &&
                 (left.kind == DSL_INT || left.kind == DSL_STR)) {
            /* `v.unique_id in done`: the table's own search, as dsl_contains comes to it */
            if ((r = dsl_dict_find_key(in, right.as.d, left, &e)) == 0)
                *out = dsl_bool((e != NULL) == (op == DSL_T_IN));
            else
                dsl_error_locate(in, n->pos);
        } else if (compare_numbers(op, left, right, &res))
            *out = dsl_bool(res);
        else if ((r = dsl_compare_value(in, op, left, right, out)) != 0)
            dsl_error_locate(in, n->pos);
        if (own_left) dsl_value_release(left);
        if (own_right) dsl_value_release(right);
        return r;
    }
    if (dsl_eval_node(in, n->kids[0], &left) != 0) return -1;
    for (size_t i = 1; i < n->nkids; i++) {
        struct dsl_value right, cmp;
        if (dsl_eval_node(in, n->kids[i], &right) != 0) {
            dsl_value_release(left);
            return -1;
        }
        int r = dsl_compare_value(in, n->ops[i - 1], left, right, &cmp);
        dsl_value_release(left);
        left = right;
        bool go_on = false;
        if (r == 0 && i + 1 < n->nkids && dsl_truth(in, cmp, &go_on) != 0) {
            dsl_value_release(cmp);
            r = -1;
        }
        if (r != 0) {
            dsl_value_release(left);
            dsl_error_locate(in, n->pos);
            return -1;
        }
        if (!go_on) {
            dsl_value_release(left);
            *out = cmp;
            return 0;
        }
        dsl_value_release(cmp);
    }
    dsl_value_release(left); /* not reached: a compare node has at least two operands */
    *out = dsl_bool(true);
    return 0;
}

/* The slot of own attribute `n->name` of inst, where read n's cache says it is. The name's
 * hash is the attribute's (the same name's), so that the read touches no more of the node than
 * its first line. */
static inline const struct dsl_value *own_attr_cached(const struct dsl_instance *inst,
                                                      const struct dsl_node *n)
{
    const struct dsl_attrs *at = &inst->attrs;
    size_t p = n->attr_pos;
    if (!p || p > at->len || at->items[p - 1].name != n->iname ||
        dsl_class_may_have_property(inst->cls.as.cls, at->items[p - 1].hash))
        return NULL;
    return &at->items[p - 1].value;
}

/* The slot of attribute read n (an ATTR) when it is self.w or self.h.w, own attributes of an
 * instance in a local, where earlier reads found them (the nodes' caches): the commonest reads,
 * found with no call. NULL for any other read, or a miss of a cache (eval_attr_any fills
 * them). */
static inline const struct dsl_value *local_attr_slot(const struct dsl_interp *in,
                                                      const struct dsl_node *n)
{
    const struct dsl_node *a = n->a;
    const struct dsl_value *obj;
    if (a->kind == DSL_N_NAME) {
        obj = dsl_local_cached(in, a);
    } else if (a->kind == DSL_N_ATTR && a->a->kind == DSL_N_NAME) {
        const struct dsl_value *self = dsl_local_cached(in, a->a);
        obj = self && self->kind == DSL_INSTANCE ? own_attr_cached(self->as.inst, a) : NULL;
    } else {
        return NULL;
    }
    return obj && obj->kind == DSL_INSTANCE ? own_attr_cached(obj->as.inst, n) : NULL;
}

/* `x is None` or `x is not None` (n), x evaluated as any operand is. */
static __attribute__((noinline)) int is_none_any(struct dsl_interp *in, const struct dsl_node *n,
                                                 struct dsl_value *out)
{
    struct dsl_value left;
    bool own;
    if (dsl_eval_lent(in, n->kids[0], &left, &own) != 0) return -1;
    bool none = left.kind == DSL_NONE;
    if (own) dsl_value_release(left);
    *out = dsl_bool(none == (n->op == DSL_T_IS));
    return 0;
}

static int eval_compare(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    /* `x is None` and `x is not None`, the commonest comparisons in the course's code,
     * without the general case's frame; where x is a local or self.w, read in place with no
     * call (no reference taken, none to give back) */
    if (n->flag) {
        const struct dsl_node *x = n->kids[0];
        const struct dsl_value *v = x->kind == DSL_N_ATTR   ? local_attr_slot(in, x)
                                    : x->kind == DSL_N_NAME ? dsl_local_cached(in, x)
                                                            : NULL;
        if (!v) return is_none_any(in, n, out);
        *out = dsl_bool((v->kind == DSL_NONE) == (n->op == DSL_T_IS));
        return 0;
    }
    return compare_any(in, n, out);
}

int dsl_index_of(struct dsl_interp *in, struct dsl_value ix, int64_t len, const char *what,
                 int64_t *out)
{
    if (!dsl_is_intlike(ix))
        return dsl_raise(in, "TypeError", "%s indices must be integers, not %s", what,
                         dsl_type_name(ix));
    int64_t i = dsl_as_int(ix);
    if (i < 0) i += len;
    if (i < 0 || i >= len) return dsl_raise(in, "IndexError", "%s index out of range", what);
    *out = i;
    return 0;
}

/* Evaluates the subscripts of a tensor index node into ix[0..n->nkids) (at most
 * MT_MAX_DIMS: more raise IndexError first). On failure nothing is left to release. */
static int eval_tensor_subscripts(struct dsl_interp *in, const struct dsl_node *n,
                                  struct dsl_value t, struct dsl_value *ix)
{
    for (size_t i = 0; i < n->nkids; i++)
        if (n->kids[i]->kind == DSL_N_SLICE)
            return dsl_raise_at(in, n->kids[i]->pos, "NotImplementedError",
                                "slicing of tensors is not supported in the MiniTorch language: "
                                "index one element (t[i, j]), or use view() or permute()");
    if (n->nkids > MT_MAX_DIMS)
        return dsl_raise(in, "IndexError", "too many indices for a tensor with %d dims: %u given",
                         t.as.t->ndim, n->nkids);
    for (size_t i = 0; i < n->nkids; i++)
        if (dsl_eval_node(in, n->kids[i], &ix[i]) != 0) {
            for (size_t k = 0; k < i; k++) dsl_value_release(ix[k]);
            return -1;
        }
    return 0;
}

void dsl_release_all(struct dsl_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++) dsl_value_release(v[i]);
}

/* What a subscript of v is called in errors; NULL when v cannot be subscripted. */
static const char *seq_what(struct dsl_value v)
{
    return v.kind == DSL_LIST    ? (v.as.l->style == DSL_LIST_TUPLE ? "tuple" : "list")
           : v.kind == DSL_STR   ? "string"
           : v.kind == DSL_RANGE ? "range object"
                                 : NULL;
}

bool dsl_is_slice(const struct dsl_node *n)
{
    return n->kind == DSL_N_INDEX && n->nkids == 1 && n->kids[0]->kind == DSL_N_SLICE;
}

/* The three bounds of slice node sl (none where omitted) as a new tuple in *out: a slice
 * among an array's indices, which dsl_get_item tells from a tuple by the node. 0 or -1. */
static int eval_slice_bounds(struct dsl_interp *in, const struct dsl_node *sl,
                             struct dsl_value *out)
{
    const struct dsl_node *part[3] = {sl->a, sl->b, sl->nkids ? sl->kids[0] : NULL};
    struct dsl_list *l = dsl_list_new(3);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (size_t i = 0; i < 3; i++) {
        struct dsl_value x = dsl_none();
        if (part[i] && dsl_eval_node(in, part[i], &x) != 0) {
            dsl_value_release(*out);
            return -1;
        }
        dsl_value_adopt(x);
        dsl_list_push(l, x);
    }
    return 0;
}

int dsl_eval_subscripts(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value v,
                        struct dsl_value *subs, size_t *nsubs)
{
    *nsubs = 0;
    if (v.kind == DSL_TENSOR) {
        if (eval_tensor_subscripts(in, n, v, subs) != 0) return -1;
        *nsubs = n->nkids;
        return 0;
    }
    if (v.kind == DSL_DICT || v.kind == DSL_INSTANCE || dsl_is_attrs_view(v)) {
        /* d[a, b] is the key (a, b), as an instance's __getitem__ takes it */
        if (v.kind == DSL_INSTANCE && dsl_is_slice(n))
            return dsl_raise(in, "NotImplementedError",
                             "slicing an instance of %s is not supported in the MiniTorch "
                             "language (no slice objects): index it with ints or tuples",
                             dsl_type_name(v));
        for (size_t i = 0; i < n->nkids; i++)
            if (n->kids[i]->kind == DSL_N_SLICE)
                return dsl_raise(in, "TypeError", "unhashable type: 'slice'");
        if (n->nkids == 1) {
            if (dsl_eval_node(in, n->kids[0], &subs[0]) != 0) return -1;
        } else if (eval_list(in, n, &subs[0]) != 0) {
            return -1;
        } else {
            subs[0].as.l->style = DSL_LIST_TUPLE;
        }
        *nsubs = 1;
        return 0;
    }
    if (v.kind == DSL_OBJECT && v.as.obj->cls->getitem) { /* one key: obj[a, b] is (a, b) */
        if (dsl_is_slice(n)) return 0; /* obj[:] = v: store_into reads the node */
        for (size_t i = 0; i < n->nkids; i++)
            if (n->kids[i]->kind == DSL_N_SLICE)
                return dsl_raise(in, "TypeError", "'%s' takes one key, not %u", dsl_type_name(v),
                                 n->nkids);
        if (n->nkids == 1 ? dsl_eval_node(in, n->kids[0], &subs[0]) : eval_list(in, n, &subs[0]))
            return -1;
        if (n->nkids != 1) subs[0].as.l->style = DSL_LIST_TUPLE;
        *nsubs = 1;
        return 0;
    }
    if (v.kind == DSL_FUNCTION && v.as.fn_user->cuda_kernel) { /* kernel[blocks, threads] */
        if (n->nkids > MT_MAX_DIMS || dsl_is_slice(n))
            return dsl_raise(in, "TypeError", "a kernel's launch is kernel[blocks, threads]");
        for (size_t i = 0; i < n->nkids; i++)
            if (dsl_eval_node(in, n->kids[i], &subs[i]) != 0) {
                dsl_release_all(subs, i);
                return -1;
            }
        *nsubs = n->nkids;
        return 0;
    }
    const char *what = seq_what(v);
    if (!what)
        return dsl_raise(in, "TypeError", "'%s' object is not subscriptable", dsl_type_name(v));
    if (n->nkids != 1 && dsl_is_ndarray(v)) { /* a[i, j], a[:, j]: an int or slice a dimension */
        if (n->nkids > MT_MAX_DIMS)
            return dsl_raise(in, "NotImplementedError",
                             "an array is indexed with at most %d ints here", MT_MAX_DIMS);
        for (size_t i = 0; i < n->nkids; i++) {
            if (n->kids[i]->kind == DSL_N_SLICE ? eval_slice_bounds(in, n->kids[i], &subs[i])
                                                : dsl_eval_node(in, n->kids[i], &subs[i])) {
                dsl_release_all(subs, i);
                return -1;
            }
        }
        *nsubs = n->nkids;
        return 0;
    }
    if (n->nkids != 1)
        return dsl_raise(in, "TypeError", "%s indices must be integers%s, not tuple", what,
                         v.kind == DSL_STR ? "" : " or slices");
    if (dsl_is_slice(n)) {
        const struct dsl_node *sl = n->kids[0];
        const struct dsl_node *part[3] = {sl->a, sl->b, sl->nkids ? sl->kids[0] : NULL};
        for (size_t i = 0; i < 3; i++) {
            subs[i] = dsl_none();
            if (part[i] && dsl_eval_node(in, part[i], &subs[i]) != 0) {
                dsl_release_all(subs, i);
                return -1;
            }
        }
        *nsubs = 3;
        return 0;
    }
    if (dsl_eval_node(in, n->kids[0], &subs[0]) != 0) return -1;
    *nsubs = 1;
    return 0;
}

int dsl_get_item(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value v,
                 const struct dsl_value *subs, size_t nsubs, struct dsl_value *out)
{
    if (v.kind == DSL_TENSOR) return dsl_tensor_getitem(in, v, subs, nsubs, out);
    if (v.kind == DSL_INSTANCE) return dsl_instance_getitem(in, v, subs[0], out);
    if (dsl_is_attrs_view(v)) return dsl_attrs_view_getitem(in, v, subs[0], out);
    if (v.kind == DSL_FUNCTION && v.as.fn_user->cuda_kernel && !dsl_is_slice(n))
        return dsl_cuda_configure(in, v, subs, nsubs, out);
    if (dsl_is_slice(n) && v.kind == DSL_OBJECT)
        return dsl_raise(in, "NotImplementedError",
                         "slicing a %s is not supported: index it, or make a list with list(x)",
                         dsl_type_name(v));
    if (dsl_is_slice(n)) return dsl_slice_get(in, v, subs, out);
    if (v.kind == DSL_DICT) {
        struct dsl_value *slot;
        if (dsl_dict_lookup(in, v.as.d, subs[0], &slot) != 0) return -1;
        if (!slot) return dsl_dict_raise_key(in, subs[0]);
        *out = dsl_value_retain(*slot);
        return 0;
    }
    if (v.kind == DSL_OBJECT) return v.as.obj->cls->getitem(in, v, subs[0], out);
    const char *what = seq_what(v);
    struct dsl_value ix = subs[0];
    int64_t i = 0;
    if (!dsl_is_intlike(ix) &&
        !dsl_is_ndarray(v)) /* Python's wording: a slice would do too, except for strings */
        return v.kind == DSL_STR
                   ? dsl_raise(in, "TypeError", "string indices must be integers, not '%s'",
                               dsl_type_name(ix))
                   : dsl_raise(in, "TypeError", "%s indices must be integers or slices, not %s",
                               what, dsl_type_name(ix));
    if (dsl_is_ndarray(v)) {
        bool slice[MT_MAX_DIMS], any = false;
        for (size_t k = 0; nsubs > 1 && k < nsubs; k++)
            any |= slice[k] = n->kids[k]->kind == DSL_N_SLICE;
        if (any) return dsl_ndarray_select(in, v, subs, slice, nsubs, out);
        struct dsl_list *row;
        if (dsl_ndarray_at(in, v, subs, nsubs, &row, &i) != 0) return -1;
        *out = dsl_value_retain(row->items[i]);
        return 0;
    }
    if (v.kind == DSL_LIST) {
        if (dsl_index_of(in, ix, (int64_t)v.as.l->len, what, &i) != 0) return -1;
        *out = dsl_value_retain(v.as.l->items[i]);
        return 0;
    }
    if (v.kind == DSL_STR) {
        const char *s = v.as.s->data;
        size_t len = v.as.s->len;
        if (dsl_index_of(in, ix, (int64_t)render_utf8_count(s, len), what, &i) != 0) return -1;
        size_t off = 0, k = 1;
        for (int64_t c = 0;; c++) {
            k = render_utf8_seq(s + off, len - off);
            if (!k) k = 1;
            if (c == i) break;
            off += k;
        }
        int st = dsl_str_value(s + off, k, out);
        return st != 0 ? dsl_raise_status(in, st) : 0;
    }
    if (dsl_index_of(in, ix, dsl_range_len(v.as.rng->r), what, &i) != 0) return -1;
    *out =
        dsl_int((int64_t)((uint64_t)v.as.rng->r.start + (uint64_t)i * (uint64_t)v.as.rng->r.step));
    return 0;
}

static int eval_index(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value v, subs[MT_MAX_DIMS];
    size_t nsubs = 0;
    bool own_v;
    if (dsl_eval_lent(in, n->a, &v, &own_v) != 0) return -1;
    if (v.kind == DSL_LIST && !dsl_is_ndarray(v) && n->nkids == 1 &&
        n->kids[0]->kind != DSL_N_SLICE) { /* xs[i]: the commonest subscript */
        bool owned;
        if (dsl_eval_lent(in, n->kids[0], &subs[0], &owned) != 0) {
            if (own_v) dsl_value_release(v);
            return -1;
        }
        const struct dsl_value *item = dsl_list_item_at(v.as.l, subs[0]);
        int r = 0;
        if (item)
            *out = dsl_value_retain(*item);
        else if ((r = dsl_get_item(in, n, v, subs, 1, out)) != 0) /* what Python says of it */
            dsl_error_locate(in, n->pos);
        if (owned) dsl_value_release(subs[0]);
        if (own_v) dsl_value_release(v);
        return r;
    }
    if (v.kind == DSL_DICT && n->nkids == 1 && n->kids[0]->kind != DSL_N_SLICE) {
        /* d[k]: the key lent, as xs[i]'s index, with no subscripts array */
        bool owned;
        struct dsl_value *slot = NULL;
        int r = dsl_eval_lent(in, n->kids[0], &subs[0], &owned);
        if (r == 0) {
            r = dsl_dict_lookup(in, v.as.d, subs[0], &slot);
            if (r == 0 && slot)
                *out = dsl_value_retain(*slot);
            else if (r == 0)
                r = dsl_dict_raise_key(in, subs[0]);
            if (r != 0) dsl_error_locate(in, n->pos);
            if (owned) dsl_value_release(subs[0]);
        }
        if (own_v) dsl_value_release(v);
        return r;
    }
    int r = dsl_eval_subscripts(in, n, v, subs, &nsubs);
    if (r == 0) r = dsl_get_item(in, n, v, subs, nsubs, out);
    if (r != 0) dsl_error_locate(in, n->pos);
    dsl_release_all(subs, nsubs);
    if (own_v) dsl_value_release(v);
    return r;
}

int dsl_getattr(struct dsl_interp *in, struct dsl_value v, const char *name, struct dsl_value *out)
{
    switch (v.kind) {
    case DSL_TENSOR: return dsl_tensor_getattr(in, v, name, out);
    case DSL_METHOD:
        if (v.as.m->wrap != DSL_WRAP_BOUND || !strcmp(name, "__func__") ||
            !strcmp(name, "__self__"))
            return dsl_wrapper_getattr(in, v, name, out);
        break;
    case DSL_LIST: return dsl_list_getattr(in, v, name, out);
    case DSL_DICT: return dsl_dict_getattr(in, v, name, out);
    case DSL_SET: return dsl_set_getattr(in, v, name, out);
    case DSL_STR: return dsl_str_getattr(in, v, name, out);
    case DSL_EXCEPTION:
    case DSL_EXC_TYPE: return dsl_exc_getattr(in, v, name, out);
    case DSL_OBJECT: return v.as.obj->cls->getattr(in, v, name, out);
    case DSL_CLASS:
    case DSL_INSTANCE:
    case DSL_SUPER: return dsl_object_getattr(in, v, name, out);
    default: break;
    }
    /* a function's own attributes (f.tag = 1), read through a method bound to it too */
    struct dsl_function *uf = v.kind == DSL_FUNCTION ? v.as.fn_user
                              : v.kind == DSL_METHOD && v.as.m->func.kind == DSL_FUNCTION
                                  ? v.as.m->func.as.fn_user
                                  : NULL;
    struct dsl_value *own = uf ? dsl_attrs_find(&uf->attrs, name) : NULL;
    if (own) {
        *out = dsl_value_retain(*own);
        return 0;
    }
    if (v.kind == DSL_FUNCTION && strcmp(name, "__dict__") == 0) return dsl_attrs_view(in, v, out);
    if (strcmp(name, "__class__") == 0) {
        *out = dsl_value_retain(dsl_type_of(v));
        return 0;
    }
    const char *fname = v.kind == DSL_FUNCTION  ? v.as.fn_user->def->name
                        : v.kind == DSL_BUILTIN ? v.as.fn->name
                        : v.kind == DSL_METHOD  ? (v.as.m->fn ? v.as.m->fn->name
                                                   : v.as.m->func.kind == DSL_FUNCTION
                                                       ? v.as.m->func.as.fn_user->def->name
                                                       : NULL)
                                                : NULL;
    if (fname && strcmp(name, "__name__") == 0)
        return dsl_str_value(fname, strlen(fname), out) != 0 ? dsl_raise_status(in, DSL_V_NOMEM)
                                                             : 0;
    if (v.kind == DSL_FUNCTION && strcmp(name, "__doc__") == 0) {
        *out = dsl_value_retain(v.as.fn_user->def->value);
        return 0;
    }
    if (v.kind == DSL_FUNCTION && v.as.fn_user->jit && strcmp(name, "parallel_diagnostics") == 0) {
        int st = dsl_method_value(&dsl_jit_diagnostics_method, v, out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    if (dsl_raise_missing(in, dsl_type_name(v), name) != 0) return -1; /* int.bit_length ... */
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(v),
                     name);
}

int dsl_setattr(struct dsl_interp *in, struct dsl_value obj, const char *name, struct dsl_value v)
{
    if (obj.kind == DSL_TENSOR) return dsl_tensor_setattr(in, obj, name, v);
    if (obj.kind == DSL_INSTANCE || obj.kind == DSL_CLASS)
        return dsl_object_setattr(in, obj, name, v);
    if (obj.kind == DSL_EXCEPTION) return dsl_exc_setattr(in, obj, name, v);
    if (obj.kind == DSL_FUNCTION) {
        int st = dsl_attrs_set(&obj.as.fn_user->attrs, name, dsl_value_retain(v));
        return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
    }
    if (strcmp(dsl_type_name(obj), "module") == 0) /* what graded code calls stays the kernel's */
        return dsl_raise(in, "AttributeError",
                         "the kernel's modules are read only: '%s' cannot be set on one (the "
                         "course's code and check() rely on them); give your value a name of "
                         "its own",
                         name);
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(obj),
                     name);
}

int dsl_getattr_hashed(struct dsl_interp *in, struct dsl_value obj, const char *name, size_t hash,
                       struct dsl_value *out)
{
    if (obj.kind == DSL_INSTANCE || obj.kind == DSL_CLASS || obj.kind == DSL_SUPER)
        return dsl_object_getattr_hashed(in, obj, name, hash, out);
    return dsl_getattr(in, obj, name, out);
}

int dsl_setattr_hashed(struct dsl_interp *in, struct dsl_value obj, const char *name, size_t hash,
                       struct dsl_value v)
{
    if (obj.kind == DSL_INSTANCE || obj.kind == DSL_CLASS)
        return dsl_object_setattr_hashed(in, obj, name, hash, v);
    return dsl_setattr(in, obj, name, v);
}

/* eval_attr's every read but the commonest. */
static __attribute__((noinline)) int eval_attr_any(struct dsl_interp *in, const struct dsl_node *n,
                                                   struct dsl_value *out)
{
    struct dsl_value v;
    bool owned;
    if (dsl_eval_lent(in, n->a, &v, &owned) != 0) return -1;
    if (v.kind == DSL_INSTANCE) {
        struct dsl_node *cache = (struct dsl_node *)n; /* the cache only: the meaning stays */
        struct dsl_value *own =
            dsl_instance_own_attr(v.as.inst, dsl_node_name(n), dsl_node_hash(n), &cache->attr_pos);
        int r = own ? (*out = dsl_value_retain(*own), 1) : dsl_instance_attr_at(in, v, n, out);
        if (r != 0) {
            if (r < 0) dsl_error_locate(in, n->pos);
            if (owned) dsl_value_release(v);
            return r < 0 ? -1 : 0;
        }
    }
    int r = dsl_getattr_hashed(in, v, dsl_node_name(n), dsl_node_hash(n), out);
    if (r != 0) dsl_error_locate(in, n->pos);
    if (owned) dsl_value_release(v);
    return r;
}

static int eval_attr(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    /* local_attr_slot's read on a path that calls nothing, so that it saves no registers */
    const struct dsl_value *slot = local_attr_slot(in, n);
    if (slot) {
        struct dsl_value v = *slot;
        if (dsl_value_counted(v)) {
            ++*v.as.refs;
            *out = v;
            return 0;
        }
        if (dsl_value_plain(v)) {
            *out = v;
            return 0;
        }
    }
    return eval_attr_any(in, n, out);
}

/* A slice is read by the subscript holding it (dsl_eval_subscripts); the parser makes no other. */
static int eval_slice_alone(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    (void)out;
    return dsl_raise_at(in, n->pos, "SyntaxError", "a slice a:b is only valid inside [...]");
}

static int eval_cond(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value c;
    if (dsl_eval_node(in, n->kids[0], &c) != 0) return -1;
    bool t = false;
    int r = dsl_truth(in, c, &t);
    dsl_value_release(c);
    if (r != 0) return dsl_error_locate(in, n->kids[0]->pos), -1;
    return dsl_eval_node(in, t ? n->a : n->b, out);
}

/* ---- comprehensions --------------------------------------------------------------------- */

/* Adds the names a `for` target binds to the scope (once each). */
static bool comp_collect(struct dsl_comp_scope *s, const struct dsl_node *t)
{
    if (t->kind == DSL_N_TUPLE || t->kind == DSL_N_LIST) {
        for (size_t i = 0; i < t->nkids; i++)
            if (!comp_collect(s, t->kids[i])) return false;
        return true;
    }
    if (t->kind != DSL_N_NAME) return true;
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->vars[i].name, t->name) == 0) return true;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4;
        struct dsl_comp_var *p = realloc(s->vars, cap * sizeof *p);
        if (!p) return false;
        s->vars = p;
        s->cap = cap;
    }
    /* the interned name where the parser made one: a read of it compares pointers */
    s->vars[s->n++] = (struct dsl_comp_var){dsl_node_name(t), dsl_none(), false};
    return true;
}

/* The innermost clause's body: evaluates the item (a key and a value for a dict) into acc. */
static int comp_emit(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value acc)
{
    struct dsl_value k, v;
    if (dsl_eval_node(in, n->a, &k) != 0) return -1;
    if (n->kind == DSL_N_SETCOMP) {
        int r = dsl_set_add(in, acc.as.d, k);
        if (r != 0) dsl_error_locate(in, n->a->pos);
        dsl_value_release(k);
        return r;
    }
    if (n->kind != DSL_N_DICTCOMP) {
        int st = dsl_list_push(acc.as.l, k);
        if (st == DSL_V_TOOBIG) return dsl_raise_size(in, "list", (uint64_t)acc.as.l->len + 1);
        return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
    }
    if (dsl_eval_node(in, n->b, &v) != 0) {
        dsl_value_release(k);
        return -1;
    }
    int r = dsl_dict_store(in, acc.as.d, k, v);
    if (r != 0) dsl_error_locate(in, n->a->pos);
    dsl_value_release(k);
    dsl_value_release(v);
    return r;
}

static int comp_run(struct dsl_interp *in, const struct dsl_node *n, size_t k,
                    struct dsl_value first, struct dsl_zip_loop *zfirst, struct dsl_value acc);

/* Runs clause k (a `for`) of comprehension n over seq (borrowed), and the clauses after it for
 * each item. */
static int comp_walk(struct dsl_interp *in, const struct dsl_node *n, size_t k,
                     struct dsl_value seq, struct dsl_value first, struct dsl_zip_loop *zfirst,
                     struct dsl_value acc)
{
    const struct dsl_node *c = n->kids[k];
    struct dsl_iter it;
    int r = dsl_iter_init(in, seq, &it);
    if (r != 0) dsl_error_locate(in, c->a->pos);
    while (r == 0) {
        struct dsl_value item;
        if (dsl_check_cancel(in, c->pos) != 0) r = -1;
        int got = r == 0 ? dsl_iter_next(in, &it, &item) : 0;
        if (got < 0) dsl_error_locate(in, c->pos), r = -1;
        if (got <= 0) break;
        if (dsl_assign_to(in, c->kids[0], item) != DSL_X_OK) r = -1;
        if (r == 0) r = comp_run(in, n, k + 1, first, zfirst, acc);
    }
    dsl_iter_end(&it);
    return r;
}

/* comp_walk of clause k over zip(...)'s iterables side by side (dsl_zip_loop_start). */
static int comp_walk_zip(struct dsl_interp *in, const struct dsl_node *n, size_t k,
                         struct dsl_zip_loop *z, struct dsl_value first,
                         struct dsl_zip_loop *zfirst, struct dsl_value acc)
{
    const struct dsl_node *c = n->kids[k];
    int r = 0;
    while (r == 0) {
        struct dsl_value row[DSL_ZIP_LOOP];
        if (dsl_check_cancel(in, c->pos) != 0) return -1;
        int got = dsl_zip_loop_next(in, z, row, c->pos);
        if (got <= 0) return got;
        if (dsl_zip_loop_assign(in, z, c->kids[0], row) != DSL_X_OK) return -1;
        r = comp_run(in, n, k + 1, first, zfirst, acc);
    }
    return r;
}

/* Clause k (k > 0) of comprehension n over zip(...) (dsl_zip_loop_syntax), its iterable
 * evaluated now, in the comprehension's scope. Apart, so that its iterators take no room in
 * the frames of other clauses. */
static __attribute__((noinline)) int comp_run_zip(struct dsl_interp *in, const struct dsl_node *n,
                                                  size_t k, struct dsl_value first,
                                                  struct dsl_zip_loop *zfirst, struct dsl_value acc)
{
    struct dsl_zip_loop z;
    struct dsl_value seq;
    if (dsl_zip_loop_start(in, n->kids[k]->a, &z, &seq) != 0) return -1;
    if (!z.n) {
        int r = comp_walk(in, n, k, seq, first, zfirst, acc);
        dsl_value_release(seq);
        return r;
    }
    int r = comp_walk_zip(in, n, k, &z, first, zfirst, acc);
    dsl_zip_loop_end(&z);
    return r;
}

/* Runs clause k of comprehension n and those after it; the first clause's iterable, which the
 * caller evaluated in the enclosing scope, as Python does, is `first`, or zfirst where that is
 * zip(...) walked side by side. */
static int comp_run(struct dsl_interp *in, const struct dsl_node *n, size_t k,
                    struct dsl_value first, struct dsl_zip_loop *zfirst, struct dsl_value acc)
{
    if (k == n->nkids) return comp_emit(in, n, acc);
    const struct dsl_node *c = n->kids[k];
    if (c->kind == DSL_N_COMP_IF) {
        struct dsl_value v;
        bool t = false;
        if (dsl_eval_node(in, c->a, &v) != 0) return -1;
        int r = dsl_truth(in, v, &t);
        dsl_value_release(v);
        if (r != 0) return dsl_error_locate(in, c->a->pos), -1;
        return t ? comp_run(in, n, k + 1, first, zfirst, acc) : 0;
    }
    if (k == 0) {
        return zfirst ? comp_walk_zip(in, n, 0, zfirst, first, zfirst, acc)
                      : comp_walk(in, n, 0, first, first, zfirst, acc);
    }
    if (dsl_zip_loop_syntax(c->a)) return comp_run_zip(in, n, k, first, zfirst, acc);
    struct dsl_value seq;
    if (dsl_eval_node(in, c->a, &seq) != 0) return -1;
    int r = comp_walk(in, n, k, seq, first, zfirst, acc);
    dsl_value_release(seq);
    return r;
}

/* A comprehension n whose first iterable, evaluated, is first (owned) or zfirst. */
static int comprehension(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value first,
                         struct dsl_zip_loop *zfirst, struct dsl_value *out)
{
    struct dsl_value acc;
    struct dsl_comp_scope scope = {.up = in->comp};
    bool ok = true;
    for (size_t i = 0; ok && i < n->nkids; i++)
        if (n->kids[i]->kind == DSL_N_COMP_FOR) ok = comp_collect(&scope, n->kids[i]->kids[0]);
    if (n->kind == DSL_N_DICTCOMP) {
        struct dsl_dict *d = ok ? dsl_dict_new() : NULL;
        acc = d ? dsl_dict_value(d) : dsl_none();
    } else if (n->kind == DSL_N_SETCOMP) {
        struct dsl_dict *s = ok ? dsl_set_new(false) : NULL;
        acc = s ? dsl_set_value(s) : dsl_none();
    } else {
        struct dsl_list *l = ok ? dsl_list_new(0) : NULL;
        acc = l ? (struct dsl_value){.kind = DSL_LIST, .as.l = l} : dsl_none();
    }
    int r = -1;
    if (acc.kind == DSL_NONE) {
        dsl_raise_status(in, DSL_V_NOMEM);
    } else {
        struct dsl_frame *locals = in->locals;
        in->comp = &scope;
        in->locals = NULL;
        r = comp_run(in, n, 0, first, zfirst, acc);
        in->comp = scope.up;
        in->locals = locals;
    }
    for (size_t i = 0; i < scope.n; i++)
        if (scope.vars[i].bound) dsl_value_release(scope.vars[i].value);
    free(scope.vars);
    dsl_value_release(first);
    if (r != 0) {
        dsl_value_release(acc);
        return -1;
    }
    if (n->kind == DSL_N_GENEXP) { /* (x for x in xs): its values made now, as a generator */
        r = dsl_generator_over(in, acc, dsl_none(), out);
        dsl_value_release(acc);
        return r;
    }
    *out = acc;
    return 0;
}

/* A comprehension whose first iterable is zip(...) (dsl_zip_loop_syntax). Apart, as
 * comp_run_zip is. */
static __attribute__((noinline)) int
comprehension_zip(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_zip_loop z;
    struct dsl_value first;
    if (dsl_zip_loop_start(in, n->kids[0]->a, &z, &first) != 0) return -1;
    int r = comprehension(in, n, first, z.n ? &z : NULL, out);
    dsl_zip_loop_end(&z);
    return r;
}

/* [x for ...], {k: v for ...}, {x for ...} and a generator expression, which is made into a
 * list at once. */
static int eval_comprehension(struct dsl_interp *in, const struct dsl_node *n,
                              struct dsl_value *out)
{
    if (dsl_zip_loop_syntax(n->kids[0]->a)) return comprehension_zip(in, n, out);
    struct dsl_value first;
    if (dsl_eval_node(in, n->kids[0]->a, &first) != 0) return -1;
    return comprehension(in, n, first, NULL, out);
}

/* ---- f-strings -------------------------------------------------------------------------- */

/* Appends the text of f-string node n: its pieces, and each field's value converted (!s, !r;
 * !a as !r) and formatted by its spec (format.c). 0 or -1. */
static int fstring_text(struct dsl_interp *in, const struct dsl_node *n, struct render_buf *b)
{
    for (size_t i = 0; i < n->nkids; i++) {
        const struct dsl_node *k = n->kids[i];
        if (k->kind == DSL_N_CONST) {
            render_buf_append(b, k->value.as.s->data, k->value.as.s->len);
            continue;
        }
        struct dsl_value v;
        if (dsl_eval_node(in, k->a, &v) != 0) return -1;
        struct render_buf spec;
        render_buf_init(&spec, DSL_MAX_STR_BYTES);
        int r = k->b ? fstring_text(in, k->b, &spec) : 0;
        if (r == 0 && k->value.kind == DSL_INT) { /* the conversion: format then sees a str */
            struct render_buf conv;
            render_buf_init(&conv, DSL_MAX_STR_BYTES);
            int st = k->value.as.i == 's' ? dsl_value_str(&conv, v) : dsl_value_repr(&conv, v);
            struct dsl_value text = dsl_none();
            if (st == DSL_V_OK) st = dsl_str_value(render_buf_str(&conv), conv.len, &text);
            render_buf_free(&conv);
            if (st != DSL_V_OK) {
                r = dsl_raise_status(in, st);
            } else {
                dsl_value_release(v);
                v = text;
            }
        }
        if (r == 0) r = dsl_format(in, b, v, render_buf_str(&spec), spec.len);
        if (r != 0) dsl_error_locate(in, k->a->pos);
        render_buf_free(&spec);
        dsl_value_release(v);
        if (r != 0) return -1;
    }
    if (b->over) return dsl_raise_size(in, "string", (uint64_t)b->len + 1);
    return b->nomem ? dsl_raise_status(in, DSL_V_NOMEM) : 0;
}

static int eval_fstring(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    int r = fstring_text(in, n, &b);
    if (r == 0 && dsl_str_value(render_buf_str(&b), b.len, out) != DSL_V_OK)
        r = dsl_raise_status(in, DSL_V_NOMEM);
    render_buf_free(&b);
    return r;
}

/* A lambda: a function value, bound to no name. */
static int eval_lambda(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    return dsl_make_function(in, n, out);
}

const dsl_eval_fn dsl_eval_table[DSL_N_COUNT] = {
    [DSL_N_CONST] = eval_const,
    [DSL_N_NAME] = dsl_eval_name,
    [DSL_N_LIST] = eval_list,
    [DSL_N_TUPLE] = eval_list,
    [DSL_N_UNARY] = eval_unary,
    [DSL_N_NOT] = eval_not,
    [DSL_N_BINARY] = eval_binary,
    [DSL_N_AND] = eval_logic,
    [DSL_N_OR] = eval_logic,
    [DSL_N_COMPARE] = eval_compare,
    [DSL_N_CALL] = dsl_eval_call,
    [DSL_N_INDEX] = eval_index,
    [DSL_N_ATTR] = eval_attr,
    [DSL_N_COND] = eval_cond,
    [DSL_N_DICT] = eval_dict,
    [DSL_N_SET] = eval_set,
    [DSL_N_SLICE] = eval_slice_alone,
    [DSL_N_LISTCOMP] = eval_comprehension,
    [DSL_N_DICTCOMP] = eval_comprehension,
    [DSL_N_SETCOMP] = eval_comprehension,
    [DSL_N_GENEXP] = eval_comprehension,
    [DSL_N_FSTRING] = eval_fstring,
    [DSL_N_DEF] = eval_lambda,
};

int dsl_eval_not_expression(struct dsl_interp *in, const struct dsl_node *n)
{
    assert(!"not an expression node");
    return dsl_raise_at(in, n->pos, "SystemError", "internal error: not an expression");
}

int dsl_eval(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    return dsl_eval_node(in, n, out);
}
