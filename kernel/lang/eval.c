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
#include "lang/classes.h"
#include "lang/dict.h"
#include "lang/exceptions.h"
#include "lang/interp.h"
#include "lang/library.h"
#include "lang/list.h"
#include "lang/operators.h"
#include "lang/str.h"

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
    for (size_t i = 0; i < dsl_exc_type_count; i++)
        consider(name, dsl_exc_types[i].name, &best, &best_d, tie);
    return best;
}

/* ---- iteration -------------------------------------------------------------------------- */

int dsl_iter_init(struct dsl_interp *in, struct dsl_value v, struct dsl_iter *it)
{
    memset(it, 0, sizeof *it);
    it->src = v;
    if (v.kind == DSL_RANGE) it->n = dsl_range_len(v.as.r);
    if (v.kind == DSL_OBJECT && v.as.obj->cls->len && v.as.obj->cls->getitem)
        return v.as.obj->cls->len(in, v, &it->n); /* item by item, as Python's old protocol */
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
    if (v.kind == DSL_OBJECT) {
        if (it->k >= it->n) return 0;
        return v.as.obj->cls->getitem(in, v, dsl_int(it->k++), out) != 0 ? -1 : 1;
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
    if (it->k >= it->n) return 0;
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

/* ---- scopes: a class body's names, a call's locals and free variables, then the session's
 * variables, then builtins ------------------------------------------------------------------ */

/* The slot of `name` among the running call's locals, or -1 (at cell level, or not local). */
static long local_slot(const struct dsl_interp *in, const char *name)
{
    if (!in->frame) return -1;
    const struct dsl_function *f = in->frame->fn;
    for (size_t i = 0; i < f->nlocals; i++)
        if (strcmp(f->locals[i], name) == 0) return (long)i;
    return -1;
}

/* local_slot for the name of node n (a NAME or a FOR), through the node's cache. */
static long node_slot(const struct dsl_interp *in, const struct dsl_node *n)
{
    if (!in->frame) return -1;
    const struct dsl_node *def = in->frame->fn->def;
    struct dsl_node *cache = (struct dsl_node *)n; /* the cache only: the tree's meaning stays */
    if (n->scope_def != def) {
        cache->scope_slot = local_slot(in, n->name);
        cache->scope_def = def;
    }
    return n->scope_slot;
}

/* The cell of free variable `name` of the running call, or NULL. */
static struct dsl_cell *free_cell(const struct dsl_interp *in, const char *name)
{
    if (!in->frame) return NULL;
    const struct dsl_function *f = in->frame->fn;
    for (size_t i = 0; i < f->nfree; i++)
        if (strcmp(f->freevars[i], name) == 0) return f->cells[i].as.cell;
    return NULL;
}

/* A new unbound cell: 0 or DSL_V_NOMEM. */
static int new_cell(struct dsl_value *out)
{
    struct dsl_cell *c = calloc(1, sizeof *c);
    if (!c) return DSL_V_NOMEM;
    c->refs = 1;
    dsl_gc_track(&c->gc, DSL_CELL);
    *out = (struct dsl_value){.kind = DSL_CELL, .as.cell = c};
    return DSL_V_OK;
}

/* Stores v (owned) in a cell. */
static void cell_set(struct dsl_cell *c, struct dsl_value v)
{
    struct dsl_value old = c->value;
    bool was = c->bound;
    dsl_value_adopt(v);
    c->value = v;
    c->bound = true;
    if (was) {
        dsl_value_orphan(old);
        dsl_value_release(old);
    }
}

/* The variable `name` of the running comprehensions, innermost first, or NULL. */
static struct dsl_comp_var *comp_var(struct dsl_interp *in, const char *name)
{
    for (struct dsl_comp_scope *s = in->comp; s; s = s->up)
        for (size_t i = 0; i < s->n; i++)
            if (strcmp(s->vars[i].name, name) == 0) return &s->vars[i];
    return NULL;
}

/* The variable `name` is bound to (borrowed): a running comprehension's variable, a name of the
 * class body being run, a local of the running call (in its cell when nested functions share
 * it), a free variable, or a session variable. NULL when unbound. */
static struct dsl_value *lookup_in(struct dsl_interp *in, const char *name, long k)
{
    struct dsl_comp_var *cv = in->comp ? comp_var(in, name) : NULL;
    if (cv && cv->bound) return &cv->value;
    if (in->class_ns) {
        struct dsl_value *v = dsl_attrs_find(in->class_ns, name);
        if (v) return v;
    }
    if (k >= 0) {
        if (!in->frame->bound[k]) return NULL;
        if (!in->frame->fn->is_cell[k]) return &in->frame->vals[k];
        struct dsl_cell *c = in->frame->vals[k].as.cell;
        return c->bound ? &c->value : NULL;
    }
    struct dsl_cell *c = free_cell(in, name);
    if (c) return c->bound ? &c->value : NULL;
    return dsl_session_lookup(in->session, name);
}

static struct dsl_value *lookup_var(struct dsl_interp *in, const char *name)
{
    return lookup_in(in, name, local_slot(in, name));
}

/* Binds name to v (owned): a comprehension's variable, a class attribute inside a class body,
 * a local inside a call (every name a body assigns is one of its locals), a free variable the
 * body declared nonlocal, else a session variable. 0, or DSL_V_NOMEM. */
static int bind_in(struct dsl_interp *in, const char *name, long k, struct dsl_value v)
{
    struct dsl_comp_var *cv = in->comp ? comp_var(in, name) : NULL;
    if (cv) { /* a comprehension's target: its own scope */
        if (cv->bound) dsl_value_release(cv->value);
        cv->value = v;
        cv->bound = true;
        return 0;
    }
    if (in->class_ns)
        return dsl_attrs_set(in->class_ns, name, v) != 0 ? dsl_raise_status(in, DSL_V_NOMEM) : 0;
    if (k < 0) {
        struct dsl_cell *c = free_cell(in, name);
        if (c) {
            cell_set(c, v);
            return 0;
        }
        if (dsl_builtin_protected(name)) {
            dsl_value_release(v);
            in->session->grader_rebound++;
            return dsl_raise(in, "RuntimeError",
                             "%s is the grader's: a notebook's graded cells call it, so no cell "
                             "may give the name another value (def, =, import ... as, class, "
                             "for, with ... as). Name yours otherwise (my_%s)",
                             name, name);
        }
        if (dsl_session_assign(in->session, name, v) != 0) return dsl_raise_status(in, DSL_V_NOMEM);
        return 0;
    }
    if (in->frame->fn->is_cell[k]) {
        cell_set(in->frame->vals[k].as.cell, v);
        return 0;
    }
    if (in->frame->bound[k]) dsl_value_release(in->frame->vals[k]);
    in->frame->vals[k] = v;
    in->frame->bound[k] = true;
    return 0;
}

static int bind_var(struct dsl_interp *in, const char *name, struct dsl_value v)
{
    return bind_in(in, name, local_slot(in, name), v);
}

static int eval_name(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    long k = node_slot(in, n);
    struct dsl_value *v = lookup_in(in, n->name, k);
    if (v) {
        *out = dsl_value_retain(*v);
        return 0;
    }
    if (k >= 0)
        return dsl_raise_at(in, n->pos, "UnboundLocalError",
                            "cannot access local variable '%s' where it is not associated with a "
                            "value (it is assigned later in %s())",
                            n->name, in->frame->fn->def->name);
    if (free_cell(in, n->name))
        return dsl_raise_at(in, n->pos, "NameError",
                            "cannot access free variable '%s' where it is not associated with a "
                            "value in enclosing scope",
                            n->name);
    const struct dsl_builtin *fn = dsl_builtin_find(n->name);
    if (fn) {
        /* int, list, str... are classes: type(x) == int, isinstance(x, list) */
        struct dsl_value type = dsl_builtin_type(fn);
        if (type.kind == DSL_CLASS) {
            *out = type;
            return 0;
        }
        out->kind = DSL_BUILTIN;
        out->as.fn = fn;
        return 0;
    }
    *out = dsl_builtin_class(n->name);
    if (out->kind != DSL_NONE) return 0;
    const struct dsl_exc_type *exc = dsl_exc_type_find(n->name);
    if (exc) {
        *out = dsl_exc_type_value(exc);
        return 0;
    }
    if (strcmp(n->name, "__name__") == 0) { /* every cell runs as Python's main script */
        int st = dsl_str_value("__main__", 8, out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    const char *hint = NULL;
    size_t best = 3; /* a local within edit distance 2 first, as it is the nearer scope */
    for (size_t i = 0; in->frame && i < in->frame->fn->nlocals; i++) {
        size_t d = dsl_edit_distance(n->name, in->frame->fn->locals[i]);
        if (d < best) best = d, hint = in->frame->fn->locals[i];
    }
    for (size_t i = 0; !hint && dsl_module_name(i); i++)
        if (strcmp(dsl_module_name(i), n->name) == 0) /* `math.pi` before `import math` */
            return dsl_raise_at(in, n->pos, "NameError",
                                "name '%s' is not defined, did you forget to import '%s'?", n->name,
                                n->name);
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
    if (op == DSL_T_IS || op == DSL_T_IS_NOT) {
        *out = dsl_bool(dsl_value_is(left, right) == (op == DSL_T_IS));
        return 0;
    }
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
#define SMALL_LOCALS 16

static int exec_block(struct dsl_interp *in, const struct dsl_node *n);

/* Calls user function f (arguments borrowed): its body runs in a frame of its own, reading and
 * writing its locals, with error positions in the source of the cell that defined it. */
static int call_function(struct dsl_interp *in, struct dsl_function *f, const struct dsl_value *pos,
                         size_t npos, char *const *kwnames, const struct dsl_value *kwvals,
                         size_t nkw, struct dsl_value *out)
{
    const struct dsl_node *def = f->def;
    if (f->cuda_kernel)
        return dsl_raise(in, "TypeError",
                         "%s() is a CUDA kernel (cuda.jit): launch it with a grid, as "
                         "%s[blocks, threads](...)",
                         def->name, def->name);
    if (f->jit) {
        int j = dsl_jit_call(in, f, pos, npos, kwnames, kwvals, nkw, out);
        if (j <= 0) return j;
    }
    if (in->calls >= DSL_MAX_CALL_DEPTH || in->height + def->height > DSL_MAX_EVAL_HEIGHT)
        return dsl_raise(in, "RecursionError",
                         "maximum recursion depth exceeded in %s() (%d calls deep)", def->name,
                         in->calls);
    /* most functions have few locals: their slots live on the C stack, so a call allocates
     * nothing (a call's cost is what students time against method calls and CPython) */
    struct dsl_value small_vals[SMALL_LOCALS];
    bool small_bound[SMALL_LOCALS];
    bool small = f->nlocals <= SMALL_LOCALS;
    struct dsl_frame frame = {f, small ? small_vals : calloc(f->nlocals + 1, sizeof *frame.vals),
                              small ? small_bound : calloc(f->nlocals + 1, sizeof *frame.bound)};
    if (small) memset(small_bound, 0, f->nlocals * sizeof *small_bound);
    int r = -1;
    if (!frame.vals || !frame.bound) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    if (dsl_bind_params(in, f, pos, npos, kwnames, kwvals, nkw, &frame) != 0) goto done;
    for (size_t k = 0; k < f->nlocals; k++) { /* the locals nested functions share */
        if (!f->is_cell[k]) continue;
        struct dsl_value cell;
        if (new_cell(&cell) != DSL_V_OK) {
            dsl_raise_status(in, DSL_V_NOMEM);
            goto done;
        }
        if (frame.bound[k]) cell_set(cell.as.cell, frame.vals[k]);
        frame.vals[k] = cell;
        frame.bound[k] = true;
    }
    struct dsl_frame *up = in->frame;
    struct dsl_attrs *class_ns = in->class_ns;
    in->class_ns = NULL;
    const char *src = in->src;
    size_t src_len = in->src_len;
    struct dsl_code *code = in->code;
    struct dsl_comp_scope *comp = in->comp; /* a body sees no comprehension's variables */
    in->comp = NULL;
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
    in->class_ns = class_ns;
    in->comp = comp;
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
    if (!small) {
        free(frame.vals);
        free(frame.bound);
    }
    return r;
}

/* Runs builtin row fn with the arguments bound to it and args.self = self. */
static int call_builtin(struct dsl_interp *in, const struct dsl_builtin *fn, struct dsl_value self,
                        const struct dsl_value *pos, size_t npos, char *const *kwnames,
                        const struct dsl_value *kwvals, size_t nkw, struct dsl_value *out)
{
    struct dsl_args args;
    if (dsl_bind_args(in, fn, pos, npos, kwnames, kwvals, nkw, &args) != 0) return -1;
    args.self = self;
    if (fn->fn(in, &args, out) != 0) return -1;
    if (in->ename) {
        /* it succeeded over an error of user code it ran (a __repr__ that raised) and left it
         * pending: raise it here, at its call, not at whatever next looks for an error */
        dsl_value_release(*out);
        *out = dsl_none();
        return -1;
    }
    return 0;
}

int dsl_call_method(struct dsl_interp *in, struct dsl_value fn, struct dsl_value self,
                    const struct dsl_value *pos, size_t npos, char *const *kwnames,
                    const struct dsl_value *kwvals, size_t nkw, struct dsl_value *out)
{
    if (fn.kind == DSL_BUILTIN)
        return call_builtin(in, fn.as.fn, self, pos, npos, kwnames, kwvals, nkw, out);
    struct dsl_value small[SMALL_ARGS];
    struct dsl_value *all = npos + 1 <= SMALL_ARGS ? small : malloc((npos + 1) * sizeof *all);
    if (!all) return dsl_raise_status(in, DSL_V_NOMEM);
    all[0] = self;
    if (npos) memcpy(all + 1, pos, npos * sizeof *pos);
    int r = dsl_call(in, fn, all, npos + 1, kwnames, kwvals, nkw, out);
    if (all != small) free(all);
    return r;
}

int dsl_call(struct dsl_interp *in, struct dsl_value callee, const struct dsl_value *pos,
             size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
             struct dsl_value *out)
{
    switch (callee.kind) {
    case DSL_FUNCTION:
        return call_function(in, callee.as.fn_user, pos, npos, kwnames, kwvals, nkw, out);
    case DSL_BUILTIN:
        return call_builtin(in, callee.as.fn, dsl_none(), pos, npos, kwnames, kwvals, nkw, out);
    case DSL_METHOD: {
        const struct dsl_method *m = callee.as.m;
        if (m->fn) return call_builtin(in, m->fn, m->self, pos, npos, kwnames, kwvals, nkw, out);
        if (m->is_static) return dsl_call(in, m->func, pos, npos, kwnames, kwvals, nkw, out);
        return dsl_call_method(in, m->func, m->self, pos, npos, kwnames, kwvals, nkw, out);
    }
    case DSL_CLASS: return dsl_class_call(in, callee, pos, npos, kwnames, kwvals, nkw, out);
    case DSL_INSTANCE: return dsl_instance_call(in, callee, pos, npos, kwnames, kwvals, nkw, out);
    case DSL_EXC_TYPE: return dsl_exc_type_call(in, callee.as.exc_type, pos, npos, nkw, out);
    case DSL_OBJECT:
        if (callee.as.obj->cls->call)
            return call_builtin(in, callee.as.obj->cls->call, callee, pos, npos, kwnames, kwvals,
                                nkw, out);
        break;
    default: break;
    }
    return dsl_raise(in, "TypeError", "'%s' object is not callable", dsl_type_name(callee));
}

/* Whether dsl_call can call v. */
static bool callable(struct dsl_value v)
{
    struct dsl_value fn;
    switch (v.kind) {
    case DSL_FUNCTION:
    case DSL_BUILTIN:
    case DSL_METHOD:
    case DSL_CLASS:
    case DSL_EXC_TYPE: return true;
    case DSL_INSTANCE: return dsl_instance_method(v, "__call__", &fn);
    case DSL_OBJECT: return v.as.obj->cls->call != NULL;
    default: return false;
    }
}

static int eval_call(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value callee, self = dsl_none();
    /* obj.method(...) on an instance calls the method with obj first, as Python's LOAD_METHOD
     * does, without making a bound method for the one call */
    if (n->a->kind == DSL_N_ATTR && !n->flag) { /* (f(*xs) binds a method: calls.c unpacks) */
        struct dsl_value obj, fn;
        if (dsl_eval(in, n->a->a, &obj) != 0) return -1;
        if (obj.kind == DSL_INSTANCE && dsl_instance_method(obj, n->a->name, &fn)) {
            self = obj;
            callee = dsl_value_retain(fn);
        } else {
            int r = dsl_getattr(in, obj, n->a->name, &callee);
            dsl_value_release(obj);
            if (r != 0) return dsl_error_locate(in, n->a->pos), -1;
            if (!callable(callee)) { /* `t.requires_grad()`, MiniTorch's method, is a value here */
                r = dsl_raise_at(in, n->pos, "TypeError",
                                 "'%s' object is not callable (.%s is a value, not a method: "
                                 "drop the parentheses)",
                                 dsl_type_name(callee), n->a->name);
                dsl_value_release(callee);
                return r;
            }
        }
    } else if (dsl_eval(in, n->a, &callee) != 0) {
        return -1;
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
            dsl_value_release(self);
            return dsl_raise_status(in, DSL_V_NOMEM), dsl_error_locate(in, n->pos), -1;
        }
    }
    size_t done = 0;
    int r = -1;
    for (; done < n->nkids; done++)
        if (dsl_eval(in, n->kids[done], &vals[done]) != 0) goto cleanup;
    for (; done < total; done++)
        if (dsl_eval(in, n->kwvals[done - n->nkids], &vals[done]) != 0) goto cleanup;
    if (self.kind != DSL_NONE)
        r = dsl_call_method(in, callee, self, vals, n->nkids, n->kwnames, vals + n->nkids, n->nkw,
                            out);
    else
        r = dsl_call(in, callee, vals, n->nkids, n->kwnames, vals + n->nkids, n->nkw, out);
cleanup:
    if (r != 0) dsl_error_locate(in, n->pos);
    for (size_t i = 0; i < done; i++) dsl_value_release(vals[i]);
    if (vals != small) free(vals);
    dsl_value_release(callee);
    dsl_value_release(self);
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
    for (size_t i = 0; i < n->nkids; i++)
        if (n->kids[i]->kind == DSL_N_SLICE)
            return dsl_raise_at(in, n->kids[i]->pos, "NotImplementedError",
                                "slicing of tensors is not supported in the MiniTorch language: "
                                "index one element (t[i, j]), or use view() or permute()");
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

/* Whether index node n is a slice, xs[a:b:c]. */
static bool is_slice(const struct dsl_node *n)
{
    return n->kind == DSL_N_INDEX && n->nkids == 1 && n->kids[0]->kind == DSL_N_SLICE;
}

/* Evaluates the subscripts of index node n on v (already evaluated) into subs[0..*nsubs):
 * a tensor takes up to MT_MAX_DIMS, a sequence exactly one, or a slice's three bounds (none
 * where omitted). On failure nothing is left to release. */
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
        for (size_t i = 0; i < n->nkids; i++)
            if (n->kids[i]->kind == DSL_N_SLICE)
                return dsl_raise(in, "TypeError", "unhashable type: 'slice'");
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
    if (v.kind == DSL_OBJECT && v.as.obj->cls->getitem) { /* a dict-like object: one key */
        if (is_slice(n)) return 0; /* obj[:] = v: store_into reads the node */
        if (n->nkids != 1)
            return dsl_raise(in, "TypeError", "'%s' takes one key, not %zu", dsl_type_name(v),
                             n->nkids);
        if (dsl_eval(in, n->kids[0], &subs[0]) != 0) return -1;
        *nsubs = 1;
        return 0;
    }
    if (v.kind == DSL_FUNCTION && v.as.fn_user->cuda_kernel) { /* kernel[blocks, threads] */
        if (n->nkids > MT_MAX_DIMS || is_slice(n))
            return dsl_raise(in, "TypeError", "a kernel's launch is kernel[blocks, threads]");
        for (size_t i = 0; i < n->nkids; i++)
            if (dsl_eval(in, n->kids[i], &subs[i]) != 0) {
                release_all(subs, i);
                return -1;
            }
        *nsubs = n->nkids;
        return 0;
    }
    const char *what = seq_what(v);
    if (!what)
        return dsl_raise(in, "TypeError", "'%s' object is not subscriptable", dsl_type_name(v));
    if (n->nkids != 1)
        return dsl_raise(in, "TypeError", "%s indices must be integers%s, not tuple", what,
                         v.kind == DSL_STR ? "" : " or slices");
    if (is_slice(n)) {
        const struct dsl_node *sl = n->kids[0];
        const struct dsl_node *part[3] = {sl->a, sl->b, sl->nkids ? sl->kids[0] : NULL};
        for (size_t i = 0; i < 3; i++) {
            subs[i] = dsl_none();
            if (part[i] && dsl_eval(in, part[i], &subs[i]) != 0) {
                release_all(subs, i);
                return -1;
            }
        }
        *nsubs = 3;
        return 0;
    }
    if (dsl_eval(in, n->kids[0], &subs[0]) != 0) return -1;
    *nsubs = 1;
    return 0;
}

/* v[subs] (all borrowed), subs as eval_subscripts made them for index node n: 0 with a new
 * value, or -1. */
static int get_item(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value v,
                    const struct dsl_value *subs, size_t nsubs, struct dsl_value *out)
{
    if (v.kind == DSL_TENSOR) return dsl_tensor_getitem(in, v, subs, nsubs, out);
    if (v.kind == DSL_FUNCTION && v.as.fn_user->cuda_kernel && !is_slice(n))
        return dsl_cuda_configure(in, v, subs, nsubs, out);
    if (is_slice(n) && v.kind == DSL_OBJECT)
        return dsl_raise(in, "NotImplementedError",
                         "slicing a %s is not supported: index it, or make a list with list(x)",
                         dsl_type_name(v));
    if (is_slice(n)) return dsl_slice_get(in, v, subs, out);
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
    if (!dsl_is_intlike(ix)) /* Python's wording: a slice would do too, except for strings */
        return v.kind == DSL_STR
                   ? dsl_raise(in, "TypeError", "string indices must be integers, not '%s'",
                               dsl_type_name(ix))
                   : dsl_raise(in, "TypeError", "%s indices must be integers or slices, not %s",
                               what, dsl_type_name(ix));
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
    if (r == 0) r = get_item(in, n, v, subs, nsubs, out);
    if (r != 0) dsl_error_locate(in, n->pos);
    release_all(subs, nsubs);
    dsl_value_release(v);
    return r;
}

int dsl_getattr(struct dsl_interp *in, struct dsl_value v, const char *name, struct dsl_value *out)
{
    switch (v.kind) {
    case DSL_TENSOR: return dsl_tensor_getattr(in, v, name, out);
    case DSL_LIST: return dsl_list_getattr(in, v, name, out);
    case DSL_DICT: return dsl_dict_getattr(in, v, name, out);
    case DSL_STR: return dsl_str_getattr(in, v, name, out);
    case DSL_EXCEPTION:
    case DSL_EXC_TYPE: return dsl_exc_getattr(in, v, name, out);
    case DSL_OBJECT: return v.as.obj->cls->getattr(in, v, name, out);
    case DSL_CLASS:
    case DSL_INSTANCE:
    case DSL_SUPER: return dsl_object_getattr(in, v, name, out);
    default: break;
    }
    if (strcmp(name, "__class__") == 0) {
        *out = dsl_value_retain(dsl_type_of(v));
        return 0;
    }
    const char *fname = v.kind == DSL_FUNCTION  ? v.as.fn_user->def->name
                        : v.kind == DSL_BUILTIN ? v.as.fn->name
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
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(v),
                     name);
}

int dsl_setattr(struct dsl_interp *in, struct dsl_value obj, const char *name, struct dsl_value v)
{
    if (obj.kind == DSL_TENSOR) return dsl_tensor_setattr(in, obj, name, v);
    if (obj.kind == DSL_INSTANCE || obj.kind == DSL_CLASS)
        return dsl_object_setattr(in, obj, name, v);
    if (strcmp(dsl_type_name(obj), "module") == 0) /* what graded code calls stays the kernel's */
        return dsl_raise(in, "AttributeError",
                         "the kernel's modules are read only: '%s' cannot be set on one (the "
                         "course's code and check() rely on them); give your value a name of "
                         "its own",
                         name);
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(obj),
                     name);
}

static int eval_attr(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value v;
    if (dsl_eval(in, n->a, &v) != 0) return -1;
    int r = dsl_getattr(in, v, n->name, out);
    if (r != 0) dsl_error_locate(in, n->pos);
    dsl_value_release(v);
    return r;
}

/* A slice is read by the subscript holding it (eval_subscripts); the parser makes no other. */
static int eval_slice_alone(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    (void)out;
    return dsl_raise_at(in, n->pos, "SyntaxError", "a slice a:b is only valid inside [...]");
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

/* ---- comprehensions --------------------------------------------------------------------- */

static int assign_to(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value v);

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
    s->vars[s->n++] = (struct dsl_comp_var){t->name, dsl_none(), false};
    return true;
}

/* The innermost clause's body: evaluates the item (a key and a value for a dict) into acc. */
static int comp_emit(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value acc)
{
    struct dsl_value k, v;
    if (dsl_eval(in, n->a, &k) != 0) return -1;
    if (n->kind != DSL_N_DICTCOMP) {
        int st = dsl_list_push(acc.as.l, k);
        if (st == DSL_V_TOOBIG) return dsl_raise_size(in, "list", (uint64_t)acc.as.l->len + 1);
        return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
    }
    if (dsl_eval(in, n->b, &v) != 0) {
        dsl_value_release(k);
        return -1;
    }
    int r = dsl_dict_store(in, acc.as.d, k, v);
    if (r != 0) dsl_error_locate(in, n->a->pos);
    dsl_value_release(k);
    dsl_value_release(v);
    return r;
}

/* Runs clause k of comprehension n and those after it; `first` is the first clause's iterable,
 * which the caller evaluated in the enclosing scope, as Python does. */
static int comp_run(struct dsl_interp *in, const struct dsl_node *n, size_t k,
                    struct dsl_value first, struct dsl_value acc)
{
    if (k == n->nkids) return comp_emit(in, n, acc);
    const struct dsl_node *c = n->kids[k];
    if (c->kind == DSL_N_COMP_IF) {
        struct dsl_value v;
        bool t = false;
        if (dsl_eval(in, c->a, &v) != 0) return -1;
        int r = truth(in, v, &t);
        dsl_value_release(v);
        if (r != 0) return dsl_error_locate(in, c->a->pos), -1;
        return t ? comp_run(in, n, k + 1, first, acc) : 0;
    }
    struct dsl_value seq = dsl_value_retain(first);
    if (k > 0 && (dsl_value_release(seq), dsl_eval(in, c->a, &seq) != 0)) return -1;
    struct dsl_iter it;
    int r = dsl_iter_init(in, seq, &it);
    if (r != 0) dsl_error_locate(in, c->a->pos);
    while (r == 0) {
        struct dsl_value item;
        if (dsl_check_cancel(in, c->pos) != 0) r = -1;
        int got = r == 0 ? dsl_iter_next(in, &it, &item) : 0;
        if (got < 0) dsl_error_locate(in, c->pos), r = -1;
        if (got <= 0) break;
        if (assign_to(in, c->kids[0], item) != X_OK) r = -1;
        if (r == 0) r = comp_run(in, n, k + 1, first, acc);
    }
    dsl_value_release(seq);
    return r;
}

/* [x for ...], {k: v for ...} and a generator expression, which is made into a list at once. */
static int eval_comprehension(struct dsl_interp *in, const struct dsl_node *n,
                              struct dsl_value *out)
{
    struct dsl_value first, acc;
    if (dsl_eval(in, n->kids[0]->a, &first) != 0) return -1;
    struct dsl_comp_scope scope = {.up = in->comp};
    bool ok = true;
    for (size_t i = 0; ok && i < n->nkids; i++)
        if (n->kids[i]->kind == DSL_N_COMP_FOR) ok = comp_collect(&scope, n->kids[i]->kids[0]);
    if (n->kind == DSL_N_DICTCOMP) {
        struct dsl_dict *d = ok ? dsl_dict_new() : NULL;
        acc = d ? dsl_dict_value(d) : dsl_none();
    } else {
        struct dsl_list *l = ok ? dsl_list_new(0) : NULL;
        acc = l ? (struct dsl_value){.kind = DSL_LIST, .as.l = l} : dsl_none();
    }
    int r = -1;
    if (acc.kind == DSL_NONE) {
        dsl_raise_status(in, DSL_V_NOMEM);
    } else {
        in->comp = &scope;
        r = comp_run(in, n, 0, first, acc);
        in->comp = scope.up;
    }
    for (size_t i = 0; i < scope.n; i++)
        if (scope.vars[i].bound) dsl_value_release(scope.vars[i].value);
    free(scope.vars);
    dsl_value_release(first);
    if (r != 0) {
        dsl_value_release(acc);
        return -1;
    }
    *out = acc;
    return 0;
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
        if (dsl_eval(in, k->a, &v) != 0) return -1;
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

static int eval_lambda(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out);

static const eval_fn eval_table[DSL_N_COUNT] = {
    [DSL_N_CONST] = eval_const,
    [DSL_N_NAME] = eval_name,
    [DSL_N_LIST] = eval_list,
    [DSL_N_TUPLE] = eval_list,
    [DSL_N_UNARY] = eval_unary,
    [DSL_N_NOT] = eval_not,
    [DSL_N_BINARY] = eval_binary,
    [DSL_N_AND] = eval_logic,
    [DSL_N_OR] = eval_logic,
    [DSL_N_COMPARE] = eval_compare,
    [DSL_N_CALL] = eval_call,
    [DSL_N_INDEX] = eval_index,
    [DSL_N_ATTR] = eval_attr,
    [DSL_N_COND] = eval_cond,
    [DSL_N_DICT] = eval_dict,
    [DSL_N_SLICE] = eval_slice_alone,
    [DSL_N_LISTCOMP] = eval_comprehension,
    [DSL_N_DICTCOMP] = eval_comprehension,
    [DSL_N_GENEXP] = eval_comprehension,
    [DSL_N_FSTRING] = eval_fstring,
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

/* obj[key] = v or obj[:] = v on a sequence-like object (a Storage); other slices are not
 * supported. */
static int store_object_item(struct dsl_interp *in, const struct dsl_node *target,
                             struct dsl_value obj, const struct dsl_value *subs, struct dsl_value v)
{
    const struct dsl_object_class *c = obj.as.obj->cls;
    if (!is_slice(target)) return c->setitem(in, obj, subs[0], v);
    const struct dsl_node *sl = target->kids[0];
    if (sl->a || sl->b || sl->nkids || !c->setall)
        return dsl_raise(in, "NotImplementedError",
                         "a %s takes item assignment and x[:] = values, not other slices",
                         dsl_type_name(obj));
    return c->setall(in, obj, v);
}

/* Stores v (borrowed) into obj[subs] or obj.name, the target node's object and subscripts
 * already evaluated (eval_subscripts). Tensors take either, lists item assignment. */
static int store_into(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value obj,
                      const struct dsl_value *subs, size_t nsubs, struct dsl_value v)
{
    int r;
    if (target->kind == DSL_N_INDEX && obj.kind == DSL_TENSOR)
        r = dsl_tensor_setitem(in, obj, subs, nsubs, v);
    else if (target->kind == DSL_N_INDEX && obj.kind == DSL_OBJECT)
        r = store_object_item(in, target, obj, subs, v);
    else if (is_slice(target))
        r = dsl_slice_set(in, obj, subs, v);
    else if (target->kind == DSL_N_INDEX && obj.kind == DSL_DICT)
        r = dsl_dict_store(in, obj.as.d, subs[0], v);
    else if (target->kind == DSL_N_INDEX && obj.kind != DSL_LIST)
        r = dsl_raise(in, "TypeError", "'%s' object does not support item assignment",
                      dsl_type_name(obj));
    else if (target->kind == DSL_N_INDEX)
        r = dsl_list_setitem(in, obj, subs[0], v);
    else
        r = dsl_setattr(in, obj, target->name, v);
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
    bool settable = obj.kind == DSL_OBJECT && obj.as.obj->cls->setitem;
    if (obj.kind != DSL_TENSOR && obj.kind != DSL_DICT && !settable &&
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
        if (bind_in(in, target->name, node_slot(in, target), v) != 0)
            return dsl_error_locate(in, target->pos), X_ERR;
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
        size_t old = slot->as.s->len, add = rhs.as.s->len;
        struct dsl_str *p = dsl_str_grow(slot->as.s, old + add);
        if (!p) return false; /* the plain + then says why */
        memcpy(p->data + old, rhs.as.s->data, add);
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
            get_item(in, target, obj, subs, nsubs, &cur) != 0)
            goto done;
    } else if (dsl_getattr(in, obj, target->name, &cur) != 0) {
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
        } else if (bind_in(in, n->name, node_slot(in, n), item) != 0) {
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

/* ---- def: what a function's names are --------------------------------------------------- */

/* A set of names borrowed from the tree, in the order first seen. */
struct names {
    const char **v;
    size_t n, cap;
    bool nomem;
};

static bool names_has(const struct names *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], name) == 0) return true;
    return false;
}

static void names_add(struct names *s, const char *name)
{
    if (s->nomem || names_has(s, name)) return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        const char **p = realloc(s->v, cap * sizeof *p);
        if (!p) {
            s->nomem = true;
            return;
        }
        s->v = p;
        s->cap = cap;
    }
    s->v[s->n++] = name;
}

/* What a def's body says about its names. */
struct scope_scan {
    struct names locals;    /* parameters, then the names the body binds */
    struct names globals;   /* declared `global` */
    struct names nonlocals; /* declared `nonlocal` */
    struct names used;      /* every name read anywhere inside, nested functions included */
    struct names nested;    /* names read (or declared nonlocal) by nested functions */
};

/* The declarations of a body, not looking into nested functions or classes. The tree's height
 * bounds the depth of every walk here. */
static void scan_decls(struct scope_scan *sc, const struct dsl_node *n)
{
    if (!n || n->kind == DSL_N_DEF || n->kind == DSL_N_CLASS) return;
    if (n->kind == DSL_N_GLOBAL || n->kind == DSL_N_NONLOCAL) {
        for (size_t i = 0; i < n->nkw; i++)
            names_add(n->kind == DSL_N_GLOBAL ? &sc->globals : &sc->nonlocals, n->kwnames[i]);
        return;
    }
    if (n->kind == DSL_N_BLOCK || n->kind == DSL_N_IF || n->kind == DSL_N_WHILE ||
        n->kind == DSL_N_FOR || n->kind == DSL_N_TRY || n->kind == DSL_N_EXCEPT) {
        if (n->kind == DSL_N_TRY) scan_decls(sc, n->a);
        scan_decls(sc, n->b);
        for (size_t i = 0; i < n->nkids; i++) scan_decls(sc, n->kids[i]);
    }
}

static void add_local(struct scope_scan *sc, const char *name)
{
    if (!names_has(&sc->globals, name) && !names_has(&sc->nonlocals, name))
        names_add(&sc->locals, name);
}

/* The names an assignment target binds: a name, or those inside a tuple or list target. */
static void collect_target(struct scope_scan *sc, const struct dsl_node *t)
{
    if (t->kind == DSL_N_NAME) add_local(sc, t->name);
    if (t->kind != DSL_N_TUPLE && t->kind != DSL_N_LIST) return;
    for (size_t i = 0; i < t->nkids; i++) collect_target(sc, t->kids[i]);
}

/* The names a statement binds (assignment, augmented assignment, for, def, class), searched
 * through its nested blocks but not into nested function or class bodies. */
static void collect_locals(struct scope_scan *sc, const struct dsl_node *n)
{
    switch (n->kind) {
    case DSL_N_BLOCK:
        for (size_t i = 0; i < n->nkids; i++) collect_locals(sc, n->kids[i]);
        break;
    case DSL_N_ASSIGN:
        for (size_t i = 0; i < n->nkids; i++) collect_target(sc, n->kids[i]);
        break;
    case DSL_N_AUG:
        if (n->a->kind == DSL_N_NAME) add_local(sc, n->a->name);
        break;
    case DSL_N_DEF:
    case DSL_N_CLASS: add_local(sc, n->name); break;
    case DSL_N_IMPORT: /* an import inside a function binds locals, as an assignment does */
        for (size_t i = 0; i < n->nkw; i++) add_local(sc, n->kwvals[i]->name);
        break;
    case DSL_N_FOR:
        if (n->name)
            add_local(sc, n->name);
        else
            collect_target(sc, n->kids[0]);
        collect_locals(sc, n->b);
        break;
    case DSL_N_WHILE: collect_locals(sc, n->b); break;
    case DSL_N_IF:
        for (size_t i = 1; i < n->nkids; i += 2) collect_locals(sc, n->kids[i]);
        if (n->b) collect_locals(sc, n->b);
        break;
    case DSL_N_TRY: /* the body, the except clauses (their `as` names), else and finally */
        for (size_t i = 0; i < n->nkids; i++) collect_locals(sc, n->kids[i]);
        collect_locals(sc, n->a);
        if (n->b) collect_locals(sc, n->b);
        break;
    case DSL_N_EXCEPT:
        if (n->name) add_local(sc, n->name);
        collect_locals(sc, n->b);
        break;
    case DSL_N_DEL: collect_target(sc, n->a); break; /* as in Python, del makes x local */
    default: break;
    }
}

/* The names read inside n: into `used`, and into `nested` too once inside a nested function's
 * body (in_nested). A class body runs in the enclosing scope; the methods in it are nested. */
static void scan_uses(struct scope_scan *sc, const struct dsl_node *n, bool in_nested)
{
    if (!n) return;
    if (n->kind == DSL_N_NAME) {
        names_add(&sc->used, n->name);
        if (in_nested) names_add(&sc->nested, n->name);
    }
    if (n->kind == DSL_N_NONLOCAL && in_nested)
        for (size_t i = 0; i < n->nkw; i++) {
            names_add(&sc->used, n->kwnames[i]);
            names_add(&sc->nested, n->kwnames[i]);
        }
    /* a def's defaults are evaluated where the def runs; its body runs nested */
    scan_uses(sc, n->a, in_nested);
    scan_uses(sc, n->b, in_nested || n->kind == DSL_N_DEF);
    for (size_t i = 0; i < n->nkids; i++) scan_uses(sc, n->kids[i], in_nested);
    for (size_t i = 0; i < n->nkw; i++) scan_uses(sc, n->kwvals ? n->kwvals[i] : NULL, in_nested);
}

static void scan_free(struct scope_scan *sc)
{
    free(sc->locals.v);
    free(sc->globals.v);
    free(sc->nonlocals.v);
    free(sc->used.v);
    free(sc->nested.v);
}

/* Fills f's locals, cells, globals and free variables from its body, taking the cells of its
 * free variables from the running call (the enclosing function). 0, or -1 after raising. */
static int analyse_function(struct dsl_interp *in, struct dsl_function *f, const struct dsl_node *n)
{
    struct scope_scan sc = {0};
    for (size_t i = 0; i < n->nkw; i++) names_add(&sc.locals, n->kwnames[i]);
    scan_decls(&sc, n->b);
    collect_locals(&sc, n->b);
    scan_uses(&sc, n->b, false);
    int r = -1;
    if (sc.locals.nomem || sc.globals.nomem || sc.nonlocals.nomem || sc.used.nomem ||
        sc.nested.nomem) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    for (size_t i = 0; i < n->nkw; i++)
        if (names_has(&sc.nonlocals, n->kwnames[i]) || names_has(&sc.globals, n->kwnames[i])) {
            dsl_raise_at(in, n->pos, "SyntaxError", "name '%s' is parameter and %s", n->kwnames[i],
                         names_has(&sc.globals, n->kwnames[i]) ? "global" : "nonlocal");
            goto done;
        }
    f->nlocals = sc.locals.n;
    f->locals = sc.locals.v;
    sc.locals.v = NULL;
    f->is_cell = calloc(f->nlocals + 1, sizeof *f->is_cell);
    if (!f->is_cell) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    for (size_t i = 0; i < f->nlocals; i++) f->is_cell[i] = names_has(&sc.nested, f->locals[i]);
    /* free variables: names read here (or declared nonlocal) that the enclosing function has */
    for (size_t i = 0; i < sc.nonlocals.n; i++) names_add(&sc.used, sc.nonlocals.v[i]);
    if (sc.used.nomem) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    const struct dsl_frame *up = in->frame;
    f->freevars = calloc(sc.used.n + 1, sizeof *f->freevars);
    f->cells = calloc(sc.used.n + 1, sizeof *f->cells);
    if (!f->freevars || !f->cells) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    for (size_t i = 0; i < sc.used.n; i++) {
        const char *name = sc.used.v[i];
        bool is_nonlocal = names_has(&sc.nonlocals, name), local = false;
        for (size_t k = 0; k < f->nlocals && !local; k++) local = strcmp(f->locals[k], name) == 0;
        if (!is_nonlocal && (local || names_has(&sc.globals, name))) continue;
        struct dsl_value cell = dsl_none();
        long k = up ? local_slot(in, name) : -1;
        if (k >= 0 && up->fn->is_cell[k]) {
            cell = up->vals[k];
        } else if (up && k < 0) {
            struct dsl_cell *c = free_cell(in, name);
            if (c) cell = (struct dsl_value){.kind = DSL_CELL, .as.cell = c};
        }
        if (cell.kind == DSL_NONE) {
            if (is_nonlocal) {
                dsl_raise_at(in, n->pos, "SyntaxError", "no binding for nonlocal '%s' found", name);
                goto done;
            }
            continue; /* a global or a builtin */
        }
        f->freevars[f->nfree] = name;
        f->cells[f->nfree++] = dsl_value_retain(cell);
    }
    r = 0;
done:
    scan_free(&sc);
    return r;
}

/* `def`: makes the function value (defaults evaluated now, in the defining scope) and binds
 * its name. */
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
    dsl_gc_track(&f->gc, DSL_FUNCTION);
    struct dsl_value fv = {.kind = DSL_FUNCTION, .as.fn_user = f};
    f->defaults = calloc(n->nkw + 1, sizeof *f->defaults);
    if (!f->defaults) {
        dsl_value_release(fv);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    if (analyse_function(in, f, n) != 0) {
        dsl_value_release(fv);
        return X_ERR;
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
    if (r != 0) r = (dsl_error_locate(in, n->pos), X_ERR);
cleanup:
    dsl_value_release(fv);
    for (size_t i = 0; i < done; i++) dsl_value_release(decos[i]);
    if (decos != small) free(decos);
    return r;
}

/* `class`: evaluates the base, runs the body with its names bound as the class's attributes,
 * then binds the class's name. */
static int exec_class(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value base = dsl_none(), cls;
    if (n->a && dsl_eval(in, n->a, &base) != 0) return X_ERR;
    int r = dsl_class_new(in, n->name, base, &cls);
    dsl_value_release(base);
    if (r != 0) return dsl_error_locate(in, n->a ? n->a->pos : n->pos), X_ERR;
    if (n->value.kind == DSL_STR &&
        dsl_attrs_set(&cls.as.cls->attrs, "__doc__", dsl_value_retain(n->value)) != 0) {
        dsl_value_release(cls);
        return dsl_raise_status(in, DSL_V_NOMEM), X_ERR;
    }
    struct dsl_attrs *outer = in->class_ns;
    in->class_ns = &cls.as.cls->attrs;
    int x = exec_block(in, n->b);
    in->class_ns = outer;
    if (x == X_ERR) {
        dsl_value_release(cls);
        return X_ERR;
    }
    dsl_class_adopt_methods(cls);
    if (bind_var(in, n->name, cls) != 0) return dsl_error_locate(in, n->pos), X_ERR;
    return X_OK;
}

/* nonlocal and global act when a def runs (analyse_function); at run time they do nothing. */
static int exec_decl(struct dsl_interp *in, const struct dsl_node *n)
{
    (void)in;
    (void)n;
    return X_OK;
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
    if (dsl_text_error_drop(in, st)) { /* as `raise` does (exceptions.c) */
        render_buf_free(&b);
        st = render_buf_puts(&b, DSL_STR_FAILED) == 0 ? DSL_V_OK : DSL_V_NOMEM;
    }
    if (st == DSL_V_OK)
        dsl_raise_at(in, n->pos, "AssertionError", "%s", render_buf_str(&b));
    else
        dsl_raise_status(in, st), dsl_error_locate(in, n->pos);
    render_buf_free(&b);
    return X_ERR;
}

/* Unbinds name (a local of the running call, else a session variable): whether it was bound. */
static bool unbind_var(struct dsl_interp *in, const char *name)
{
    if (in->class_ns && dsl_attrs_remove(in->class_ns, name)) return true;
    long k = local_slot(in, name);
    struct dsl_cell *c = k >= 0 ? (in->frame->fn->is_cell[k] ? in->frame->vals[k].as.cell : NULL)
                                : free_cell(in, name);
    if (c) { /* shared with nested functions: the variable itself becomes unbound */
        if (!c->bound) return false;
        struct dsl_value old = c->value;
        c->value = dsl_none();
        c->bound = false;
        dsl_value_orphan(old);
        dsl_value_release(old);
        return true;
    }
    if (k < 0) {
        if (!dsl_session_lookup(in->session, name)) return false;
        dsl_session_unset(in->session, name);
        return true;
    }
    if (!in->frame->bound[k]) return false;
    dsl_value_release(in->frame->vals[k]);
    in->frame->vals[k] = dsl_none();
    in->frame->bound[k] = false;
    return true;
}

/* The except clauses of try node n, given the error its body raised: the first whose class
 * matches runs, with the error handled (no longer pending) and, for `as e`, bound to e until
 * the clause ends, as Python 3 does. No match: the error stays pending. */
static int run_handlers(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_exc_saved saved;
    dsl_exc_take(in, &saved);
    for (size_t i = 0; i < n->nkids && n->kids[i]->kind == DSL_N_EXCEPT; i++) {
        const struct dsl_node *h = n->kids[i];
        bool match = true;
        if (h->a) {
            /* evaluated with no error pending, so that an error of its own is raised */
            struct dsl_value cls;
            if (dsl_eval(in, h->a, &cls) != 0) goto replaced;
            int r = dsl_exc_matches(in, &saved, cls, &match);
            dsl_value_release(cls);
            if (r != 0) {
                dsl_error_locate(in, h->a->pos);
                goto replaced;
            }
        }
        if (!match) continue;
        dsl_exc_caught(&saved);
        if (h->name) {
            struct dsl_value e;
            if (dsl_exc_value(in, &saved, &e) != 0) goto replaced;
            if (bind_var(in, h->name, e) != 0) goto replaced;
        }
        const struct dsl_exc_saved *outer = in->handling;
        in->handling = &saved;
        int r = exec_block(in, h->b);
        in->handling = outer;
        if (h->name) unbind_var(in, h->name);
        dsl_exc_saved_free(&saved);
        return r;
    }
    dsl_exc_put(in, &saved);
    return X_ERR;
replaced: /* a new error, raised while looking for the clause, replaces the one caught */
    dsl_exc_saved_free(&saved);
    return X_ERR;
}

/* The finally block after the rest of the try ended with r: it runs whatever r is. When it
 * completes normally r stands (its error or return value kept aside meanwhile); a return,
 * break, continue or error of its own replaces r, as in Python. */
static int run_finally(struct dsl_interp *in, const struct dsl_node *fin, int r)
{
    struct dsl_exc_saved saved = {.exc = dsl_none()};
    if (r == X_ERR) dsl_exc_take(in, &saved);
    struct dsl_value ret = dsl_none();
    if (r == X_RETURN) {
        ret = in->retval;
        in->retval = dsl_none();
    }
    /* while an error goes through finally, a bare raise there raises it, as in Python */
    const struct dsl_exc_saved *outer = in->handling;
    if (r == X_ERR) in->handling = &saved;
    int f = exec_block(in, fin);
    in->handling = outer;
    if (f == X_OK) {
        if (r == X_ERR) dsl_exc_put(in, &saved);
        if (r == X_RETURN) in->retval = ret;
        return r;
    }
    dsl_exc_saved_free(&saved);
    dsl_value_release(ret);
    return f;
}

static int exec_try(struct dsl_interp *in, const struct dsl_node *n)
{
    int r = exec_block(in, n->a);
    const struct dsl_node *last = n->nkids ? n->kids[n->nkids - 1] : NULL;
    if (r == X_ERR && n->nkids)
        r = run_handlers(in, n);
    else if (r == X_OK && last && last->kind == DSL_N_BLOCK)
        r = exec_block(in, last);
    return n->b ? run_finally(in, n->b, r) : r;
}

/* raise [e [from cause]]: the cause must be an exception, a class or None, as in Python, and is
 * not shown (no chained tracebacks). */
static int exec_raise(struct dsl_interp *in, const struct dsl_node *n)
{
    if (!n->a) return dsl_exc_reraise(in, n->pos), X_ERR;
    struct dsl_value e, cause = dsl_none();
    if (dsl_eval(in, n->a, &e) != 0) return X_ERR;
    if (n->b && dsl_eval(in, n->b, &cause) != 0) {
        dsl_value_release(e);
        return X_ERR;
    }
    if (cause.kind != DSL_NONE && cause.kind != DSL_EXCEPTION && cause.kind != DSL_EXC_TYPE)
        dsl_raise_at(in, n->b->pos, "TypeError", "exception causes must derive from BaseException");
    else
        dsl_exc_raise(in, e, n->pos);
    dsl_value_release(e);
    dsl_value_release(cause);
    return X_ERR;
}

/* del xs[i]: the item of a list; other values take no item deletion. */
static int del_item(struct dsl_interp *in, const struct dsl_node *t)
{
    struct dsl_value obj, subs[MT_MAX_DIMS];
    size_t nsubs = 0;
    if (dsl_eval(in, t->a, &obj) != 0) return X_ERR;
    int r = -1;
    if (obj.kind == DSL_DICT) {
        if (eval_subscripts(in, t, obj, subs, &nsubs) == 0)
            r = dsl_dict_delete(in, obj.as.d, subs[0]);
    } else if (obj.kind != DSL_LIST || obj.as.l->style == DSL_LIST_TUPLE) {
        dsl_raise(in, "TypeError", "'%s' object doesn't support item deletion", dsl_type_name(obj));
    } else if (eval_subscripts(in, t, obj, subs, &nsubs) == 0) {
        r = dsl_list_delitem(in, obj, subs[0]);
    }
    release_all(subs, nsubs);
    dsl_value_release(obj);
    if (r != 0) dsl_error_locate(in, t->pos);
    return r != 0 ? X_ERR : X_OK;
}

/* Deletes one del target, a tuple or list target item by item. */
static int del_target(struct dsl_interp *in, const struct dsl_node *t)
{
    switch (t->kind) {
    case DSL_N_TUPLE:
    case DSL_N_LIST:
        for (size_t i = 0; i < t->nkids; i++)
            if (del_target(in, t->kids[i]) != X_OK) return X_ERR;
        return X_OK;
    case DSL_N_NAME:
        if (unbind_var(in, t->name)) return X_OK;
        if (local_slot(in, t->name) >= 0)
            return dsl_raise_at(in, t->pos, "UnboundLocalError",
                                "cannot access local variable '%s' where it is not associated "
                                "with a value",
                                t->name),
                   X_ERR;
        return dsl_raise_at(in, t->pos, "NameError", "name '%s' is not defined", t->name), X_ERR;
    case DSL_N_INDEX: return del_item(in, t);
    default: { /* an attribute: of an instance or a class; other values have none to delete */
        struct dsl_value obj;
        if (dsl_eval(in, t->a, &obj) != 0) return X_ERR;
        int r =
            obj.kind == DSL_INSTANCE || obj.kind == DSL_CLASS
                ? dsl_object_delattr(in, obj, t->name)
                : dsl_raise(in, "AttributeError", "'%s' object attribute '%s' cannot be deleted",
                            dsl_type_name(obj), t->name);
        dsl_value_release(obj);
        if (r != 0) dsl_error_locate(in, t->pos);
        return r != 0 ? X_ERR : X_OK;
    }
    }
}

static int exec_del(struct dsl_interp *in, const struct dsl_node *n)
{
    return del_target(in, n->a);
}

/* `import m as x` and `from m import a as x`: the library knows the modules (library.h); each
 * name is bound as an assignment binds it, so an import inside a function makes a local. */
static int exec_import(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value from = dsl_none();
    if (n->flag && dsl_module_import(in, n->name, &from) != 0)
        return dsl_error_locate(in, n->pos), X_ERR;
    int r = X_OK;
    for (size_t i = 0; i < n->nkw && r == X_OK; i++) {
        const struct dsl_node *var = n->kwvals[i];
        struct dsl_value v;
        int got = n->flag ? dsl_module_from(in, from, n->kwnames[i], &v)
                          : dsl_module_import(in, n->kwnames[i], &v);
        if (got == 0 && !n->flag && !var->flag && strchr(n->kwnames[i], '.')) {
            /* `import a.b` binds a, the package, once a.b is known to exist */
            dsl_value_release(v);
            got = dsl_module_import(in, var->name, &v);
        }
        if (got != 0)
            r = X_ERR, dsl_error_locate(in, var->pos);
        else if (bind_var(in, var->name, v) != 0)
            r = X_ERR, dsl_error_locate(in, var->pos);
    }
    dsl_value_release(from);
    return r;
}

static const exec_fn exec_table[DSL_N_COUNT] = {
    [DSL_N_BLOCK] = exec_block,   [DSL_N_EXPR] = exec_expr,     [DSL_N_ASSIGN] = exec_assign,
    [DSL_N_AUG] = exec_aug,       [DSL_N_IF] = exec_if,         [DSL_N_WHILE] = exec_while,
    [DSL_N_FOR] = exec_for,       [DSL_N_BREAK] = exec_break,   [DSL_N_CONTINUE] = exec_continue,
    [DSL_N_PASS] = exec_pass,     [DSL_N_MAGIC] = exec_magic,   [DSL_N_DEF] = exec_def,
    [DSL_N_RETURN] = exec_return, [DSL_N_ASSERT] = exec_assert, [DSL_N_CLASS] = exec_class,
    [DSL_N_NONLOCAL] = exec_decl, [DSL_N_GLOBAL] = exec_decl,   [DSL_N_TRY] = exec_try,
    [DSL_N_RAISE] = exec_raise,   [DSL_N_DEL] = exec_del,       [DSL_N_IMPORT] = exec_import,
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
