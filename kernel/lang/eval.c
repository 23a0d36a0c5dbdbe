/* eval.c — the tree-walking evaluator.
 *
 * Two dispatch tables indexed by node kind, one for expressions (producing a value) and one
 * for statements (producing OK, BREAK, CONTINUE or an error). The operators' arithmetic, which
 * follows Python, is in operators.c, numbers.c and sequences.c (operators.h); raising errors
 * and the cell's output in interp.c. Every loop iteration polls the cancel flag so an interrupt
 * ends any cell within one iteration. Whatever involves a tensor (operators, comparisons,
 * indexing, attributes, truth) is handed to the library (library.h); a line magic too.
 *
 * Ownership inside the evaluator: an expression's result is a new reference that the caller
 * releases; operands are borrowed by the operators. */
#include "lang/dict.h"
#include "lang/interp.h"
#include "lang/library.h"
#include "lang/list.h"
#include "lang/operators.h"

#include "minitorch/minitorch.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum { X_ERR = -1, X_OK = 0, X_BREAK = 1, X_CONTINUE = 2, X_RETURN = 3 };

/* ---- names ------------------------------------------------------------------------------ */

size_t dsl_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 99;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* tie: whether cand wins a tie with *best (same scope: the alphabetically first does) */
static void consider(const char *name, const char *cand, const char **best, size_t *best_d,
                     bool tie)
{
    size_t d = dsl_edit_distance(name, cand);
    size_t ln = strlen(name), lc = strlen(cand);
    if (d == 0 || d > 2 || d >= (ln > lc ? ln : lc)) return;
    if (d < *best_d || (tie && d == *best_d && strcmp(cand, *best) < 0)) {
        *best = cand;
        *best_d = d;
    }
}

const char *dsl_suggest_name(struct dsl_session *s, const char *name)
{
    const char *best = NULL;
    size_t best_d = 99;
    for (size_t i = 0; s && i < s->cap; i++)
        if (s->vars[i].name) consider(name, s->vars[i].name, &best, &best_d, true);
    /* the user's own names win ties with builtins, as Python searches globals first */
    bool tie = best == NULL;
    for (size_t i = 0; i < dsl_builtin_count; i++)
        consider(name, dsl_builtins[i].name, &best, &best_d, tie);
    static const char *const constants[] = {"true", "false", "none"};
    for (size_t i = 0; i < 3; i++) consider(name, constants[i], &best, &best_d, tie);
    return best;
}

/* ---- iteration -------------------------------------------------------------------------- */

int dsl_iter_init(struct dsl_interp *in, struct dsl_value v, struct dsl_iter *it)
{
    memset(it, 0, sizeof *it);
    it->src = v;
    if (v.kind == DSL_DICT) it->k = (int64_t)v.as.d->len; /* its keys; a change of size raises */
    if (v.kind == DSL_LIST || v.kind == DSL_STR || v.kind == DSL_RANGE || v.kind == DSL_DICT)
        return 0;
    return dsl_raise(in, "TypeError", "'%s' object is not iterable", dsl_type_name(v));
}

int dsl_iter_next(struct dsl_interp *in, struct dsl_iter *it, struct dsl_value *out)
{
    struct dsl_value v = it->src;
    if (v.kind == DSL_LIST) {
        if (it->i >= v.as.l->len) return 0;
        *out = dsl_value_retain(v.as.l->items[it->i++]);
        return 1;
    }
    if (v.kind == DSL_STR) {
        if (it->i >= v.as.s->len) return 0;
        size_t k = render_utf8_seq(v.as.s->data + it->i, v.as.s->len - it->i);
        if (!k) k = 1;
        int st = dsl_str_value(v.as.s->data + it->i, k, out);
        if (st != 0) return dsl_raise_status(in, st);
        it->i += k;
        return 1;
    }
    if (v.kind == DSL_DICT) {
        const struct dsl_dict *d = v.as.d;
        if ((int64_t)d->len != it->k)
            return dsl_raise(in, "RuntimeError", "dictionary changed size during iteration");
        while (it->i < d->n && !d->entries[it->i].live) it->i++;
        if (it->i >= d->n) return 0;
        *out = dsl_value_retain(d->entries[it->i++].key);
        return 1;
    }
    if (it->k >= dsl_range_len(v.as.r)) return 0;
    *out = dsl_int((int64_t)((uint64_t)v.as.r.start + (uint64_t)it->k * (uint64_t)v.as.r.step));
    it->k++;
    return 1;
}

/* Python truth, raising for a tensor whose truth is ambiguous (more than one element). */
static int truth(struct dsl_interp *in, struct dsl_value v, bool *out)
{
    if (v.kind == DSL_TENSOR) return dsl_tensor_truth(in, v, out);
    *out = dsl_value_truthy(v);
    return 0;
}

/* ---- expressions ------------------------------------------------------------------------ */

typedef int (*eval_fn)(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out);

static int eval_const(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    (void)in;
    *out = dsl_value_retain(n->value);
    return 0;
}

/* ---- scopes: a call's locals, then the session's variables, then builtins --------------- */

/* The slot of `name` among the running call's locals, or -1 (at cell level, or not local). */
static long local_slot(const struct dsl_interp *in, const char *name)
{
    if (!in->frame) return -1;
    const struct dsl_function *f = in->frame->fn;
    for (size_t i = 0; i < f->nlocals; i++)
        if (strcmp(f->locals[i], name) == 0) return (long)i;
    return -1;
}

/* The variable `name` is bound to (borrowed): a local of the running call, or a session
 * variable when the name is not local there. NULL when unbound. */
static struct dsl_value *lookup_var(struct dsl_interp *in, const char *name)
{
    long k = local_slot(in, name);
    if (k >= 0) return in->frame->bound[k] ? &in->frame->vals[k] : NULL;
    return dsl_session_lookup(in->session, name);
}

/* Binds name to v (owned): a local inside a call (every name a body assigns is one of its
 * locals), else a session variable. 0, or DSL_V_NOMEM. */
static int bind_var(struct dsl_interp *in, const char *name, struct dsl_value v)
{
    long k = local_slot(in, name);
    if (k < 0) return dsl_session_assign(in->session, name, v);
    if (in->frame->bound[k]) dsl_value_release(in->frame->vals[k]);
    in->frame->vals[k] = v;
    in->frame->bound[k] = true;
    return 0;
}

static int eval_name(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value *v = lookup_var(in, n->name);
    if (v) {
        *out = dsl_value_retain(*v);
        return 0;
    }
    if (local_slot(in, n->name) >= 0)
        return dsl_raise_at(in, n->pos, "UnboundLocalError",
                            "cannot access local variable '%s' where it is not associated with a "
                            "value (it is assigned later in %s())",
                            n->name, in->frame->fn->def->name);
    const struct dsl_builtin *fn = dsl_builtin_find(n->name);
    if (fn) {
        out->kind = DSL_BUILTIN;
        out->as.fn = fn;
        return 0;
    }
    const char *hint = NULL;
    size_t best = 3; /* a local within edit distance 2 first, as it is the nearer scope */
    for (size_t i = 0; in->frame && i < in->frame->fn->nlocals; i++) {
        size_t d = dsl_edit_distance(n->name, in->frame->fn->locals[i]);
        if (d < best) best = d, hint = in->frame->fn->locals[i];
    }
    if (!hint) hint = dsl_suggest_name(in->session, n->name);
    if (hint)
        return dsl_raise_at(in, n->pos, "NameError", "name '%s' is not defined, did you mean '%s'?",
                            n->name, hint);
    return dsl_raise_at(in, n->pos, "NameError", "name '%s' is not defined", n->name);
}

/* A list or tuple display: its items evaluated left to right. */
static int eval_list(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new(n->nkids);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    if (n->kind == DSL_N_TUPLE) l->style = DSL_LIST_TUPLE;
    for (size_t i = 0; i < n->nkids; i++) {
        struct dsl_value item;
        if (dsl_eval(in, n->kids[i], &item) != 0) goto error;
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
        if (dsl_eval(in, n->kids[i], &k) != 0) goto error;
        if (dsl_eval(in, n->kids[i + 1], &v) != 0) {
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

static int eval_unary(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value v;
    if (dsl_eval(in, n->a, &v) != 0) return -1;
    if (dsl_is_intlike(v)) {
        int64_t i = dsl_as_int(v);
        if (n->op == DSL_T_MINUS && i == INT64_MIN)
            return dsl_raise_at(
                in, n->pos, "OverflowError",
                "integer overflow in unary '-': the result does not fit in 64 bits");
        *out = dsl_int(n->op == DSL_T_MINUS ? -i : i);
        return 0;
    }
    if (v.kind == DSL_FLOAT) {
        *out = dsl_float(n->op == DSL_T_MINUS ? -v.as.f : v.as.f);
        return 0;
    }
    int r;
    if (v.kind == DSL_TENSOR) {
        r = dsl_tensor_unary(in, n->op, v, out);
        if (r != 0) dsl_error_locate(in, n->pos);
        dsl_value_release(v);
        return r;
    }
    r = dsl_raise_at(in, n->pos, "TypeError", "bad operand type for unary %s: '%s'",
                     dsl_op_symbol(n->op), dsl_type_name(v));
    dsl_value_release(v);
    return r;
}

static int eval_not(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value v;
    if (dsl_eval(in, n->a, &v) != 0) return -1;
    bool t = false;
    int r = truth(in, v, &t);
    dsl_value_release(v);
    if (r != 0) return dsl_error_locate(in, n->pos), -1;
    *out = dsl_bool(!t);
    return 0;
}

static int eval_binary(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value a, b;
    if (dsl_eval(in, n->a, &a) != 0) return -1;
    if (dsl_eval(in, n->b, &b) != 0) {
        dsl_value_release(a);
        return -1;
    }
    /* a tensor goes straight to the library: the per-op cost of `c = a * b` in a loop is the
     * language's overhead that students time, and dsl_binary is a call into another file */
    int r = a.kind == DSL_TENSOR || b.kind == DSL_TENSOR ? dsl_tensor_binary(in, n->op, a, b, out)
                                                         : dsl_binary(in, n->op, a, b, out);
    if (r != 0) dsl_error_locate(in, n->pos);
    dsl_value_release(a);
    dsl_value_release(b);
    return r;
}

static int eval_logic(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value a;
    if (dsl_eval(in, n->a, &a) != 0) return -1;
    bool t = false;
    if (truth(in, a, &t) != 0) {
        dsl_value_release(a);
        return dsl_error_locate(in, n->pos), -1;
    }
    if ((n->kind == DSL_N_AND) != t) {
        *out = a; /* and: a falsy; or: a truthy */
        return 0;
    }
    dsl_value_release(a);
    return dsl_eval(in, n->b, out);
}

/* One comparison `left op right` as a value: a bool, or a tensor when either side is one. */
static int compare_values(struct dsl_interp *in, enum dsl_tok op, struct dsl_value left,
                          struct dsl_value right, struct dsl_value *out)
{
    bool result = false;
    int r = 0;
    if ((left.kind == DSL_TENSOR || right.kind == DSL_TENSOR) && op != DSL_T_IN && op != DSL_T_NOT)
        return dsl_tensor_compare(in, op, left, right, out);
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
static int eval_compare(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value left;
    if (dsl_eval(in, n->kids[0], &left) != 0) return -1;
    for (size_t i = 1; i < n->nkids; i++) {
        struct dsl_value right, cmp;
        if (dsl_eval(in, n->kids[i], &right) != 0) {
            dsl_value_release(left);
            return -1;
        }
        int r = compare_values(in, n->ops[i - 1], left, right, &cmp);
        dsl_value_release(left);
        left = right;
        bool go_on = false;
        if (r == 0 && i + 1 < n->nkids && truth(in, cmp, &go_on) != 0) {
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

#define SMALL_ARGS 8

static int exec_block(struct dsl_interp *in, const struct dsl_node *n);

/* Calls user function f (arguments borrowed): its body runs in a frame of its own, reading and
 * writing its locals, with error positions in the source of the cell that defined it. */
static int call_function(struct dsl_interp *in, struct dsl_function *f, const struct dsl_value *pos,
                         size_t npos, char *const *kwnames, const struct dsl_value *kwvals,
                         size_t nkw, struct dsl_value *out)
{
    const struct dsl_node *def = f->def;
    if (in->calls >= DSL_MAX_CALL_DEPTH || in->height + def->height > DSL_MAX_EVAL_HEIGHT)
        return dsl_raise(in, "RecursionError",
                         "maximum recursion depth exceeded in %s() (%d calls deep)", def->name,
                         in->calls);
    struct dsl_frame frame = {f, calloc(f->nlocals + 1, sizeof *frame.vals),
                              calloc(f->nlocals + 1, sizeof *frame.bound)};
    int r = -1;
    if (!frame.vals || !frame.bound) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    if (dsl_bind_params(in, f, pos, npos, kwnames, kwvals, nkw, &frame) != 0) goto done;
    struct dsl_frame *up = in->frame;
    const char *src = in->src;
    size_t src_len = in->src_len;
    struct dsl_code *code = in->code;
    in->frame = &frame;
    in->src = f->code->src;
    in->src_len = f->code->len;
    in->code = f->code;
    in->calls++;
    in->height += def->height;
    int x = exec_block(in, def->b);
    in->calls--;
    in->height -= def->height;
    if (x == X_ERR) dsl_interp_push_tb(in, f);
    in->frame = up;
    in->src = src;
    in->src_len = src_len;
    in->code = code;
    if (x != X_ERR) {
        *out = x == X_RETURN ? in->retval : dsl_none();
        in->retval = dsl_none();
        r = 0;
    }
done:
    for (size_t i = 0; frame.vals && frame.bound && i < f->nlocals; i++)
        if (frame.bound[i]) dsl_value_release(frame.vals[i]);
    free(frame.vals);
    free(frame.bound);
    return r;
}

int dsl_call(struct dsl_interp *in, struct dsl_value callee, const struct dsl_value *pos,
             size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
             struct dsl_value *out)
{
    if (callee.kind == DSL_FUNCTION)
        return call_function(in, callee.as.fn_user, pos, npos, kwnames, kwvals, nkw, out);
    bool callable_obj = callee.kind == DSL_OBJECT && callee.as.obj->cls->call;
    const struct dsl_builtin *fn = callee.kind == DSL_METHOD    ? callee.as.m->fn
                                   : callee.kind == DSL_BUILTIN ? callee.as.fn
                                   : callable_obj               ? callee.as.obj->cls->call
                                                                : NULL;
    if (!fn)
        return dsl_raise(in, "TypeError", "'%s' object is not callable", dsl_type_name(callee));
    struct dsl_args args;
    if (dsl_bind_args(in, fn, pos, npos, kwnames, kwvals, nkw, &args) != 0) return -1;
    if (callee.kind == DSL_METHOD) args.self = callee.as.m->self;
    if (callable_obj) args.self = callee;
    return fn->fn(in, &args, out);
}

static int eval_call(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value callee;
    if (dsl_eval(in, n->a, &callee) != 0) return -1;
    bool callable_obj = callee.kind == DSL_OBJECT && callee.as.obj->cls->call;
    if (callee.kind != DSL_BUILTIN && callee.kind != DSL_METHOD && callee.kind != DSL_FUNCTION &&
        !callable_obj) {
        int r = dsl_raise_at(in, n->pos, "TypeError", "'%s' object is not callable",
                             dsl_type_name(callee));
        dsl_value_release(callee);
        return r;
    }
    if (n->flag) { /* f(*xs, **d) */
        int r = dsl_call_unpacking(in, n, callee, out);
        if (r != 0) dsl_error_locate(in, n->pos);
        dsl_value_release(callee);
        return r;
    }
    size_t total = n->nkids + n->nkw;
    struct dsl_value small[SMALL_ARGS];
    struct dsl_value *vals = small;
    if (total > SMALL_ARGS) {
        vals = malloc(total * sizeof *vals);
        if (!vals) {
            dsl_value_release(callee);
            return dsl_raise_status(in, DSL_V_NOMEM), dsl_error_locate(in, n->pos), -1;
        }
    }
    size_t done = 0;
    int r = -1;
    for (; done < n->nkids; done++)
        if (dsl_eval(in, n->kids[done], &vals[done]) != 0) goto cleanup;
    for (; done < total; done++)
        if (dsl_eval(in, n->kwvals[done - n->nkids], &vals[done]) != 0) goto cleanup;
    r = dsl_call(in, callee, vals, n->nkids, n->kwnames, vals + n->nkids, n->nkw, out);
cleanup:
    if (r != 0) dsl_error_locate(in, n->pos);
    for (size_t i = 0; i < done; i++) dsl_value_release(vals[i]);
    if (vals != small) free(vals);
    dsl_value_release(callee);
    return r;
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
    if (n->nkids > MT_MAX_DIMS)
        return dsl_raise(in, "IndexError", "too many indices for a tensor with %d dims: %zu given",
                         t.as.t->ndim, n->nkids);
    for (size_t i = 0; i < n->nkids; i++)
        if (dsl_eval(in, n->kids[i], &ix[i]) != 0) {
            for (size_t k = 0; k < i; k++) dsl_value_release(ix[k]);
            return -1;
        }
    return 0;
}

static void release_all(struct dsl_value *v, size_t n)
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

/* Evaluates the subscripts of index node n on v (already evaluated) into subs[0..*nsubs):
 * a tensor takes up to MT_MAX_DIMS, a sequence exactly one. On failure nothing is left to
 * release. */
static int eval_subscripts(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value v,
                           struct dsl_value *subs, size_t *nsubs)
{
    *nsubs = 0;
    if (v.kind == DSL_TENSOR) {
        if (eval_tensor_subscripts(in, n, v, subs) != 0) return -1;
        *nsubs = n->nkids;
        return 0;
    }
    if (v.kind == DSL_DICT) { /* d[a, b] is the key (a, b) */
        if (n->nkids == 1) {
            if (dsl_eval(in, n->kids[0], &subs[0]) != 0) return -1;
        } else if (eval_list(in, n, &subs[0]) != 0) {
            return -1;
        } else {
            subs[0].as.l->style = DSL_LIST_TUPLE;
        }
        *nsubs = 1;
        return 0;
    }
    const char *what = seq_what(v);
    if (!what)
        return dsl_raise(in, "TypeError", "'%s' object is not subscriptable", dsl_type_name(v));
    if (n->nkids != 1)
        return dsl_raise(in, "TypeError", "%s indices must be integers, not tuple", what);
    if (dsl_eval(in, n->kids[0], &subs[0]) != 0) return -1;
    *nsubs = 1;
    return 0;
}

/* v[subs] (all borrowed), subs as eval_subscripts made them: 0 with a new value, or -1. */
static int get_item(struct dsl_interp *in, struct dsl_value v, const struct dsl_value *subs,
                    size_t nsubs, struct dsl_value *out)
{
    if (v.kind == DSL_TENSOR) return dsl_tensor_getitem(in, v, subs, nsubs, out);
    if (v.kind == DSL_DICT) {
        struct dsl_value *slot;
        if (dsl_dict_lookup(in, v.as.d, subs[0], &slot) != 0) return -1;
        if (!slot) return dsl_dict_raise_key(in, subs[0]);
        *out = dsl_value_retain(*slot);
        return 0;
    }
    const char *what = seq_what(v);
    struct dsl_value ix = subs[0];
    int64_t i = 0;
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
    if (dsl_index_of(in, ix, dsl_range_len(v.as.r), what, &i) != 0) return -1;
    *out = dsl_int((int64_t)((uint64_t)v.as.r.start + (uint64_t)i * (uint64_t)v.as.r.step));
    return 0;
}

static int eval_index(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value v, subs[MT_MAX_DIMS];
    size_t nsubs = 0;
    if (dsl_eval(in, n->a, &v) != 0) return -1;
    int r = eval_subscripts(in, n, v, subs, &nsubs);
    if (r == 0) r = get_item(in, v, subs, nsubs, out);
    if (r != 0) dsl_error_locate(in, n->pos);
    release_all(subs, nsubs);
    dsl_value_release(v);
    return r;
}

static int eval_attr(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value v;
    if (dsl_eval(in, n->a, &v) != 0) return -1;
    int r;
    if (v.kind == DSL_TENSOR || v.kind == DSL_LIST || v.kind == DSL_OBJECT || v.kind == DSL_DICT) {
        r = v.kind == DSL_TENSOR ? dsl_tensor_getattr(in, v, n->name, out)
            : v.kind == DSL_LIST ? dsl_list_getattr(in, v, n->name, out)
            : v.kind == DSL_DICT ? dsl_dict_getattr(in, v, n->name, out)
                                 : v.as.obj->cls->getattr(in, v, n->name, out);
        if (r != 0) dsl_error_locate(in, n->pos);
    } else {
        r = dsl_raise_at(in, n->pos, "AttributeError", "'%s' object has no attribute '%s'",
                         dsl_type_name(v), n->name);
    }
    dsl_value_release(v);
    return r;
}

static int eval_cond(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value c;
    if (dsl_eval(in, n->kids[0], &c) != 0) return -1;
    bool t = false;
    int r = truth(in, c, &t);
    dsl_value_release(c);
    if (r != 0) return dsl_error_locate(in, n->kids[0]->pos), -1;
    return dsl_eval(in, t ? n->a : n->b, out);
}

static int eval_lambda(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out);

static const eval_fn eval_table[DSL_N_COUNT] = {
    [DSL_N_CONST] = eval_const,     [DSL_N_NAME] = eval_name,   [DSL_N_LIST] = eval_list,
    [DSL_N_TUPLE] = eval_list,      [DSL_N_UNARY] = eval_unary, [DSL_N_NOT] = eval_not,
    [DSL_N_BINARY] = eval_binary,   [DSL_N_AND] = eval_logic,   [DSL_N_OR] = eval_logic,
    [DSL_N_COMPARE] = eval_compare, [DSL_N_CALL] = eval_call,   [DSL_N_INDEX] = eval_index,
    [DSL_N_ATTR] = eval_attr,       [DSL_N_COND] = eval_cond,   [DSL_N_DICT] = eval_dict,
    [DSL_N_DEF] = eval_lambda,
};

int dsl_eval(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    *out = dsl_none();
    eval_fn fn = (unsigned)n->kind < DSL_N_COUNT ? eval_table[n->kind] : NULL;
    assert(fn && "not an expression node");
    if (!fn) return dsl_raise_at(in, n->pos, "SystemError", "internal error: not an expression");
    int r = fn(in, n, out);
    if (r != 0) *out = dsl_none();
    return r;
}

/* ---- statements ------------------------------------------------------------------------- */

typedef int (*exec_fn)(struct dsl_interp *in, const struct dsl_node *n);

static int exec_stmt(struct dsl_interp *in, const struct dsl_node *n);

static int exec_block(struct dsl_interp *in, const struct dsl_node *n)
{
    for (size_t i = 0; i < n->nkids; i++) {
        int r = exec_stmt(in, n->kids[i]);
        if (r != X_OK) return r;
    }
    return X_OK;
}

static int exec_expr(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value v;
    if (dsl_eval(in, n->a, &v) != 0) return X_ERR;
    dsl_value_release(v);
    return X_OK;
}

/* Stores v (borrowed) into obj[subs] or obj.name, the target node's object and subscripts
 * already evaluated (eval_subscripts). Tensors take either, lists item assignment. */
static int store_into(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value obj,
                      const struct dsl_value *subs, size_t nsubs, struct dsl_value v)
{
    int r;
    if (target->kind == DSL_N_INDEX && obj.kind == DSL_TENSOR)
        r = dsl_tensor_setitem(in, obj, subs, nsubs, v);
    else if (target->kind == DSL_N_INDEX && obj.kind == DSL_DICT)
        r = dsl_dict_store(in, obj.as.d, subs[0], v);
    else if (target->kind == DSL_N_INDEX)
        r = dsl_list_setitem(in, obj, subs[0], v);
    else if (obj.kind == DSL_TENSOR)
        r = dsl_tensor_setattr(in, obj, target->name, v);
    else
        r = dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(obj),
                      target->name);
    if (r != 0) dsl_error_locate(in, target->pos);
    return r != 0 ? X_ERR : X_OK;
}

/* Evaluates the subscripts of an index target on obj, as for reading, except that an object that
 * takes no item assignment says so first (Python's message for `"abc"[0] = 1`). */
static int target_subscripts(struct dsl_interp *in, const struct dsl_node *target,
                             struct dsl_value obj, struct dsl_value *subs, size_t *nsubs)
{
    *nsubs = 0;
    if (target->kind != DSL_N_INDEX) return 0;
    if (obj.kind != DSL_TENSOR && obj.kind != DSL_DICT &&
        (obj.kind != DSL_LIST || obj.as.l->style == DSL_LIST_TUPLE))
        return dsl_raise(in, "TypeError", "'%s' object does not support item assignment",
                         dsl_type_name(obj));
    return eval_subscripts(in, target, obj, subs, nsubs);
}

/* Stores v (owned) into an assignment target. As in Python the value is computed first, then
 * the target's object, then its subscripts. */
static int unpack_to(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value v);

static int assign_to(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value v)
{
    if (target->kind == DSL_N_TUPLE || target->kind == DSL_N_LIST) return unpack_to(in, target, v);
    if (target->kind == DSL_N_NAME) {
        if (bind_var(in, target->name, v) != 0)
            return dsl_raise_status(in, DSL_V_NOMEM), dsl_error_locate(in, target->pos), X_ERR;
        return X_OK;
    }
    struct dsl_value obj, subs[MT_MAX_DIMS];
    size_t nsubs = 0;
    int r = X_ERR;
    if (dsl_eval(in, target->a, &obj) != 0) goto done;
    if (target_subscripts(in, target, obj, subs, &nsubs) != 0)
        dsl_error_locate(in, target->pos);
    else
        r = store_into(in, target, obj, subs, nsubs, v);
    release_all(subs, nsubs);
    dsl_value_release(obj);
done:
    dsl_value_release(v);
    return r;
}

/* `a, b = v` (v owned): takes exactly as many items from the iterable v as there are targets,
 * then assigns them left to right, as Python does; a wrong count is Python's ValueError. */
static int unpack_to(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value v)
{
    size_t want = target->nkids, got = 0;
    struct dsl_value *items = calloc(want ? want : 1, sizeof *items);
    struct dsl_iter it;
    int r = X_ERR;
    if (!items) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto located;
    }
    if (v.kind != DSL_LIST && v.kind != DSL_STR && v.kind != DSL_RANGE && v.kind != DSL_DICT) {
        dsl_raise(in, "TypeError", "cannot unpack non-iterable %s object", dsl_type_name(v));
        goto located;
    }
    dsl_iter_init(in, v, &it);
    for (;;) {
        struct dsl_value item;
        int k = dsl_iter_next(in, &it, &item);
        if (k < 0) goto located;
        if (k == 0) break;
        if (got == want) {
            dsl_value_release(item);
            dsl_raise(in, "ValueError", "too many values to unpack (expected %zu)", want);
            goto located;
        }
        items[got++] = item;
    }
    if (got < want) {
        dsl_raise(in, "ValueError", "not enough values to unpack (expected %zu, got %zu)", want,
                  got);
        goto located;
    }
    r = X_OK;
    for (size_t i = 0; i < want; i++) {
        struct dsl_value item = items[i];
        items[i] = dsl_none();
        if (r == X_OK)
            r = assign_to(in, target->kids[i], item);
        else
            dsl_value_release(item);
    }
    goto done;
located:
    dsl_error_locate(in, target->pos);
done:
    if (items) release_all(items, got);
    free(items);
    dsl_value_release(v);
    return r;
}

static int exec_assign(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value v;
    if (dsl_eval(in, n->a, &v) != 0) return X_ERR;
    for (size_t i = 0; i < n->nkids; i++)
        if (assign_to(in, n->kids[i], dsl_value_retain(v)) != X_OK) {
            dsl_value_release(v);
            return X_ERR;
        }
    dsl_value_release(v);
    return X_OK;
}

/* Whether `v += x` extends v itself, as Python's list += does (every name for the list sees
 * it); a tuple, which never changes, makes a new tuple instead. */
static bool extends_in_place(struct dsl_value v, enum dsl_tok op)
{
    return op == DSL_T_PLUS && v.kind == DSL_LIST && v.as.l->style != DSL_LIST_TUPLE;
}

/* `s += t` on a string variable nobody else references: extend it in place (strings are
 * immutable, so no one can tell), so building a string in a loop is linear. Returns true when
 * done. */
static bool extend_in_place(struct dsl_value *slot, struct dsl_value rhs)
{
    if (slot->kind == DSL_STR && rhs.kind == DSL_STR && slot->as.s->refs == 1) {
        struct dsl_str *s = slot->as.s;
        size_t n = s->len + rhs.as.s->len;
        if (n > DSL_MAX_STR_BYTES) return false;
        struct dsl_str *p = realloc(s, sizeof *s + n + 1);
        if (!p) return false;
        memcpy(p->data + p->len, rhs.as.s->data, rhs.as.s->len);
        p->len = n;
        p->data[n] = '\0';
        slot->as.s = p;
        return true;
    }
    return false;
}

/* cur op= rhs (borrowed) as a value: a list extended in place (then the same list), else the
 * operator's new value. 0 or -1. */
static int augment(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value cur,
                   struct dsl_value rhs, struct dsl_value *res)
{
    int r;
    if (extends_in_place(cur, n->op)) {
        r = dsl_list_extend(in, cur.as.l, rhs);
        if (r == 0) *res = dsl_value_retain(cur);
    } else {
        r = dsl_binary(in, n->op, cur, rhs, res);
    }
    if (r != 0) dsl_error_locate(in, n->pos);
    return r;
}

/* `obj[i] op= v` / `obj.name op= v`: obj and the subscripts are evaluated once, as in Python:
 * read the item, apply op, store the result back. */
static int exec_aug_item(struct dsl_interp *in, const struct dsl_node *n)
{
    const struct dsl_node *target = n->a;
    struct dsl_value obj, cur = dsl_none(), rhs = dsl_none(), res = dsl_none();
    struct dsl_value subs[MT_MAX_DIMS];
    size_t nsubs = 0;
    int r = X_ERR;
    if (dsl_eval(in, target->a, &obj) != 0) return X_ERR;
    if (target->kind == DSL_N_INDEX) {
        if (eval_subscripts(in, target, obj, subs, &nsubs) != 0 ||
            get_item(in, obj, subs, nsubs, &cur) != 0)
            goto done;
    } else if (obj.kind == DSL_TENSOR) {
        if (dsl_tensor_getattr(in, obj, target->name, &cur) != 0) goto done;
    } else {
        dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(obj),
                  target->name);
        goto done;
    }
    if (dsl_eval(in, n->b, &rhs) != 0 || augment(in, n, cur, rhs, &res) != 0) goto done;
    r = store_into(in, target, obj, subs, nsubs, res);
done:
    if (r != X_OK) dsl_error_locate(in, target->pos);
    release_all(subs, nsubs);
    dsl_value_release(obj);
    dsl_value_release(cur);
    dsl_value_release(rhs);
    dsl_value_release(res);
    return r;
}

static int exec_aug(struct dsl_interp *in, const struct dsl_node *n)
{
    const struct dsl_node *target = n->a;
    if (target->kind != DSL_N_NAME) return exec_aug_item(in, n);
    struct dsl_value rhs, cur, res;
    if (dsl_eval(in, n->b, &rhs) != 0) return X_ERR;
    struct dsl_value *slot = lookup_var(in, target->name);
    if (slot && n->op == DSL_T_PLUS && extend_in_place(slot, rhs)) {
        dsl_value_release(rhs);
        return X_OK;
    }
    /* not a variable: a builtin's name (TypeError below) or a NameError */
    if (slot)
        cur = dsl_value_retain(*slot);
    else if (eval_name(in, target, &cur) != 0) {
        dsl_value_release(rhs);
        return X_ERR;
    }
    int r = augment(in, n, cur, rhs, &res);
    bool same = r == 0 && res.kind == DSL_LIST && cur.kind == DSL_LIST && res.as.l == cur.as.l;
    dsl_value_release(cur);
    dsl_value_release(rhs);
    if (r != 0) return X_ERR;
    if (same && slot) { /* extended in place: the variable names it already */
        dsl_value_release(res);
        return X_OK;
    }
    return assign_to(in, target, res);
}

static int exec_if(struct dsl_interp *in, const struct dsl_node *n)
{
    for (size_t i = 0; i + 1 < n->nkids; i += 2) {
        struct dsl_value c;
        if (dsl_eval(in, n->kids[i], &c) != 0) return X_ERR;
        bool t = false;
        int r = truth(in, c, &t);
        dsl_value_release(c);
        if (r != 0) return dsl_error_locate(in, n->kids[i]->pos), X_ERR;
        if (t) return exec_block(in, n->kids[i + 1]);
    }
    return n->b ? exec_block(in, n->b) : X_OK;
}

static int exec_while(struct dsl_interp *in, const struct dsl_node *n)
{
    for (;;) {
        if (dsl_check_cancel(in, n->pos) != 0) return X_ERR;
        struct dsl_value c;
        if (dsl_eval(in, n->a, &c) != 0) return X_ERR;
        bool t = false;
        int tr = truth(in, c, &t);
        dsl_value_release(c);
        if (tr != 0) return dsl_error_locate(in, n->a->pos), X_ERR;
        if (!t) return X_OK;
        int r = exec_block(in, n->b);
        if (r == X_ERR || r == X_RETURN) return r;
        if (r == X_BREAK) return X_OK;
    }
}

static int exec_for(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value seq;
    if (dsl_eval(in, n->a, &seq) != 0) return X_ERR;
    struct dsl_iter it;
    int r = X_OK;
    if (dsl_iter_init(in, seq, &it) != 0) {
        dsl_error_locate(in, n->a->pos);
        r = X_ERR;
        goto done;
    }
    for (;;) {
        if (dsl_check_cancel(in, n->pos) != 0) {
            r = X_ERR;
            break;
        }
        struct dsl_value item;
        int got = dsl_iter_next(in, &it, &item);
        if (got <= 0) {
            if (got < 0) {
                dsl_error_locate(in, n->pos);
                r = X_ERR;
            }
            break;
        }
        if (!n->name) { /* for a, b in ...: unpacks each item */
            if (assign_to(in, n->kids[0], item) != X_OK) {
                r = X_ERR;
                break;
            }
        } else if (bind_var(in, n->name, item) != 0) {
            dsl_raise_status(in, DSL_V_NOMEM);
            dsl_error_locate(in, n->pos);
            r = X_ERR;
            break;
        }
        r = exec_block(in, n->b);
        if (r == X_ERR || r == X_RETURN) break;
        if (r == X_BREAK) {
            r = X_OK;
            break;
        }
        r = X_OK;
    }
done:
    dsl_value_release(seq);
    return r;
}

static int exec_break(struct dsl_interp *in, const struct dsl_node *n)
{
    (void)in;
    (void)n;
    return X_BREAK;
}

static int exec_continue(struct dsl_interp *in, const struct dsl_node *n)
{
    (void)in;
    (void)n;
    return X_CONTINUE;
}

static int exec_pass(struct dsl_interp *in, const struct dsl_node *n)
{
    (void)in;
    (void)n;
    return X_OK;
}

static int exec_magic(struct dsl_interp *in, const struct dsl_node *n)
{
    return dsl_magic_run(in, n->name, n->value.as.s->data, n->pos, NULL) != 0 ? X_ERR : X_OK;
}

/* Adds name to the function's locals unless it is there already. */
static bool add_local(struct dsl_function *f, size_t *cap, const char *name)
{
    for (size_t i = 0; i < f->nlocals; i++)
        if (strcmp(f->locals[i], name) == 0) return true;
    if (f->nlocals == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        const char **p = realloc(f->locals, c * sizeof *p);
        if (!p) return false;
        f->locals = p;
        *cap = c;
    }
    f->locals[f->nlocals++] = name;
    return true;
}

/* The names an assignment target binds: a name, or those inside a tuple or list target. */
static bool collect_target(struct dsl_function *f, size_t *cap, const struct dsl_node *t)
{
    if (t->kind == DSL_N_NAME) return add_local(f, cap, t->name);
    if (t->kind != DSL_N_TUPLE && t->kind != DSL_N_LIST) return true;
    for (size_t i = 0; i < t->nkids; i++)
        if (!collect_target(f, cap, t->kids[i])) return false;
    return true;
}

/* The names a statement binds (assignment, augmented assignment, for, def), searched through
 * its nested blocks but not into nested function bodies. The tree's height bounds the depth. */
static bool collect_locals(struct dsl_function *f, size_t *cap, const struct dsl_node *n)
{
    switch (n->kind) {
    case DSL_N_BLOCK:
        for (size_t i = 0; i < n->nkids; i++)
            if (!collect_locals(f, cap, n->kids[i])) return false;
        return true;
    case DSL_N_ASSIGN:
        for (size_t i = 0; i < n->nkids; i++)
            if (!collect_target(f, cap, n->kids[i])) return false;
        return true;
    case DSL_N_AUG: return n->a->kind != DSL_N_NAME || add_local(f, cap, n->a->name);
    case DSL_N_DEF: return add_local(f, cap, n->name);
    case DSL_N_FOR:
        return (n->name ? add_local(f, cap, n->name) : collect_target(f, cap, n->kids[0])) &&
               collect_locals(f, cap, n->b);
    case DSL_N_WHILE: return collect_locals(f, cap, n->b);
    case DSL_N_IF:
        for (size_t i = 1; i < n->nkids; i += 2)
            if (!collect_locals(f, cap, n->kids[i])) return false;
        return !n->b || collect_locals(f, cap, n->b);
    default: return true;
    }
}

/* The function value of DEF node n (a def or a lambda): its defaults evaluated now, in the
 * defining scope. 0 with a new value in *out, or -1. */
static int make_function(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    if (!in->code) /* only dsl_evaluate runs without one, and it takes expressions only */
        return dsl_raise_at(in, n->pos, "SyntaxError", "%s is not allowed here",
                            strcmp(n->name, "<lambda>") == 0 ? "lambda" : "def");
    struct dsl_function *f = calloc(1, sizeof *f);
    if (!f) return dsl_raise_status(in, DSL_V_NOMEM);
    f->refs = 1;
    f->def = n;
    f->code = dsl_code_retain(in->code);
    struct dsl_value fv = {.kind = DSL_FUNCTION, .as.fn_user = f};
    f->defaults = calloc(n->nkw + 1, sizeof *f->defaults);
    size_t cap = 0;
    bool ok = f->defaults != NULL;
    for (size_t i = 0; ok && i < n->nkw; i++) ok = add_local(f, &cap, n->kwnames[i]);
    if (!ok || !collect_locals(f, &cap, n->b)) {
        dsl_value_release(fv);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    for (size_t i = 0; i < n->nkw; i++) {
        if (!n->kwvals[i]) continue;
        if (dsl_eval(in, n->kwvals[i], &f->defaults[i]) != 0) {
            dsl_value_release(fv);
            return -1;
        }
        dsl_value_adopt(f->defaults[i]); /* a default list is held by the function */
    }
    *out = fv;
    return 0;
}

/* A lambda: a function value, bound to no name. */
static int eval_lambda(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    return make_function(in, n, out);
}

/* `def`: makes the function value, passes it through the decorators (bottom-up: the one
 * nearest the def first, as Python; each evaluated before the function is made) and binds its
 * name. */
static int exec_def(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value small[SMALL_ARGS];
    struct dsl_value *decos = small;
    if (n->nkids > SMALL_ARGS && !(decos = malloc(n->nkids * sizeof *decos)))
        return dsl_raise_status(in, DSL_V_NOMEM), X_ERR;
    size_t done = 0;
    int r = X_ERR;
    struct dsl_value fv = dsl_none();
    for (; done < n->nkids; done++)
        if (dsl_eval(in, n->kids[done], &decos[done]) != 0) goto cleanup;
    if (make_function(in, n, &fv) != 0) goto cleanup;
    for (size_t i = n->nkids; i-- > 0;) {
        struct dsl_value next;
        if (dsl_call(in, decos[i], &fv, 1, NULL, NULL, 0, &next) != 0) {
            dsl_error_locate(in, n->kids[i]->pos);
            goto cleanup;
        }
        dsl_value_release(fv);
        fv = next;
    }
    r = bind_var(in, n->name, fv);
    fv = dsl_none();
    if (r != 0) r = (dsl_raise_status(in, DSL_V_NOMEM), X_ERR);
cleanup:
    dsl_value_release(fv);
    for (size_t i = 0; i < done; i++) dsl_value_release(decos[i]);
    if (decos != small) free(decos);
    return r;
}

static int exec_return(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value v = dsl_none();
    if (n->a && dsl_eval(in, n->a, &v) != 0) return X_ERR;
    dsl_value_release(in->retval);
    in->retval = v;
    return X_RETURN;
}

/* assert cond[, msg]: AssertionError with msg's str, located at the keyword. */
static int exec_assert(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value v;
    bool ok;
    if (dsl_eval(in, n->a, &v) != 0) return X_ERR;
    int r = truth(in, v, &ok);
    dsl_value_release(v);
    if (r != 0) return dsl_error_locate(in, n->a->pos), X_ERR;
    if (ok) return X_OK;
    if (!n->b) return dsl_raise_at(in, n->pos, "AssertionError", "%s", ""), X_ERR;
    if (dsl_eval(in, n->b, &v) != 0) return X_ERR;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int st = dsl_value_str(&b, v);
    dsl_value_release(v);
    if (st == DSL_V_OK)
        dsl_raise_at(in, n->pos, "AssertionError", "%s", render_buf_str(&b));
    else
        dsl_raise_status(in, st), dsl_error_locate(in, n->pos);
    render_buf_free(&b);
    return X_ERR;
}

static const exec_fn exec_table[DSL_N_COUNT] = {
    [DSL_N_BLOCK] = exec_block,   [DSL_N_EXPR] = exec_expr,     [DSL_N_ASSIGN] = exec_assign,
    [DSL_N_AUG] = exec_aug,       [DSL_N_IF] = exec_if,         [DSL_N_WHILE] = exec_while,
    [DSL_N_FOR] = exec_for,       [DSL_N_BREAK] = exec_break,   [DSL_N_CONTINUE] = exec_continue,
    [DSL_N_PASS] = exec_pass,     [DSL_N_MAGIC] = exec_magic,   [DSL_N_DEF] = exec_def,
    [DSL_N_RETURN] = exec_return, [DSL_N_ASSERT] = exec_assert,
};

static int exec_stmt(struct dsl_interp *in, const struct dsl_node *n)
{
    exec_fn fn = (unsigned)n->kind < DSL_N_COUNT ? exec_table[n->kind] : NULL;
    assert(fn && "not a statement node");
    if (!fn) return dsl_raise_at(in, n->pos, "SystemError", "internal error: not a statement");
    int r = fn(in, n);
    if (r == X_ERR) dsl_error_locate(in, n->pos);
    return r;
}

int dsl_run_block(struct dsl_interp *in, const struct dsl_node *block, struct dsl_value *result)
{
    if (result) *result = dsl_none();
    for (size_t i = 0; i < block->nkids; i++) {
        const struct dsl_node *s = block->kids[i];
        bool last = i + 1 == block->nkids;
        if (last && result && s->kind == DSL_N_MAGIC)
            return dsl_magic_run(in, s->name, s->value.as.s->data, s->pos, result) != 0 ? -1 : 0;
        if (last && result && s->kind == DSL_N_EXPR && !s->flag) {
            if (dsl_eval(in, s->a, result) != 0) {
                dsl_error_locate(in, s->pos);
                return -1;
            }
            return 0;
        }
        if (exec_stmt(in, s) == X_ERR) return -1;
    }
    return 0;
}
