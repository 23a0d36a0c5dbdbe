/* eval.h — the tree-walking evaluator's parts, as its files share them (internal to
 * kernel/lang; interp.h has what the rest of the language and the library call).
 *
 * The evaluator is dsl_eval's table of expressions (eval.c) and dsl_run_block's table of
 * statements (statements.c); between them, the names and scopes (scopes.c), calls (calls.c) and
 * assignment targets (assign.c). An expression's function returns 0 with a new value or -1; a
 * statement's returns one of enum dsl_exec_status. */
#ifndef KERNEL_LANG_EVAL_H
#define KERNEL_LANG_EVAL_H

#include "lang/datamodel.h"
#include "lang/interp.h"
#include "lang/library.h"
#include "lang/ndarray.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* How a statement ended: the next one runs after DSL_X_OK only; a loop takes BREAK and
 * CONTINUE, a call RETURN (the value in in->retval); ERR leaves an error pending. */
enum dsl_exec_status {
    DSL_X_ERR = -1,
    DSL_X_OK = 0,
    DSL_X_BREAK = 1,
    DSL_X_CONTINUE = 2,
    DSL_X_RETURN = 3,
};

/* Calls with at most this many arguments keep them on the C stack (most calls: a call's cost
 * is what students time against method calls and CPython). */
#define DSL_SMALL_ARGS 8
/* Functions with at most this many locals keep them on the C stack too; the others allocate
 * theirs. Every call's C frame has room for this many, used or not, and the deeper the stack of
 * frames a Python call makes, the more cache lines it spreads over: most of the course's
 * functions have fewer. */
#define DSL_SMALL_LOCALS 8

/* ---- expressions (eval.c) ---------------------------------------------------------------- */

/* Python truth, raising for a tensor whose truth is ambiguous (more than one element), asking an
 * instance's __bool__ or __len__. Inline: every `if`, `while` and `and` asks it. */
static inline int dsl_truth(struct dsl_interp *in, struct dsl_value v, bool *out)
{
    if (v.kind == DSL_BOOL) { /* a comparison's result: the commonest condition */
        *out = v.as.b;
        return 0;
    }
    if (v.kind == DSL_TENSOR) return dsl_tensor_truth(in, v, out);
    if (v.kind == DSL_INSTANCE) return dsl_instance_truth(in, v, out);
    if (dsl_is_ndarray(v)) return dsl_ndarray_truth(in, v, out);
    *out = dsl_value_truthy(v);
    return 0;
}

/* Releases v[0..n). */
void dsl_release_all(struct dsl_value *v, size_t n);

/* Whether index node n is a slice, xs[a:b:c]. */
bool dsl_is_slice(const struct dsl_node *n);

/* Evaluates the subscripts of index node n on v (already evaluated) into subs[0..*nsubs) (room
 * for MT_MAX_DIMS): a tensor takes up to MT_MAX_DIMS, a sequence exactly one, or a slice's three
 * bounds (none where omitted). 0, or -1 with nothing left to release. */
int dsl_eval_subscripts(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value v,
                        struct dsl_value *subs, size_t *nsubs);

/* v[subs] (all borrowed), subs as dsl_eval_subscripts made them for index node n: 0 with a new
 * value, or -1. */
int dsl_get_item(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value v,
                 const struct dsl_value *subs, size_t nsubs, struct dsl_value *out);

/* ---- loops over zip(...) (eval.c) ------------------------------------------------------- */

/* Most iterables a loop walks side by side; a zip(...) of more makes its list. */
#define DSL_ZIP_LOOP 4

/* A `for` loop's or a comprehension's walk over zip(a, b, ...): the iterables (owned) and an
 * iterator of each, n of them. */
struct dsl_zip_loop {
    size_t n;
    struct dsl_value seq[DSL_ZIP_LOOP];
    struct dsl_iter it[DSL_ZIP_LOOP];
};

/* Whether loop iterable e reads as zip(...) of 1 to DSL_ZIP_LOOP positional arguments, no star
 * and no keyword: a call dsl_zip_loop_start may walk side by side. */
static inline bool dsl_zip_loop_syntax(const struct dsl_node *e)
{
    return e->kind == DSL_N_CALL && e->a->kind == DSL_N_NAME && !e->flag && !e->nkw &&
           e->nkids >= 1 && e->nkids <= DSL_ZIP_LOOP && dsl_node_name(e->a)[0] == 'z' &&
           strcmp(dsl_node_name(e->a), "zip") == 0;
}

/* Evaluates loop iterable e (dsl_zip_loop_syntax): the callee, its arguments left to right, then
 * either the walk or the call. Where the callee is the builtin zip in Python's form, *z holds
 * the arguments and their iterators (z->n > 0; *seq none), to be ended by dsl_zip_loop_end: the
 * loop takes their items one row at a time, as Python's lazy zip gives them, with no list of
 * tuples made first. Otherwise z->n is 0 and *seq is the call's value. 0, or -1 after raising
 * (located; nothing to end or release). */
int dsl_zip_loop_start(struct dsl_interp *in, const struct dsl_node *e, struct dsl_zip_loop *z,
                       struct dsl_value *seq);

/* The walk's next row: 1 with z->n new values in row, 0 at the end, -1 after raising (located
 * at pos). Each iterator is asked in turn, and the first that has no more ends the walk, as
 * Python's zip stops. */
int dsl_zip_loop_next(struct dsl_interp *in, struct dsl_zip_loop *z, struct dsl_value *row,
                      size_t pos);

/* The tuple of row (z->n values, owned) in *out: 0, or -1 after raising (the row released). */
int dsl_zip_loop_tuple(struct dsl_interp *in, const struct dsl_zip_loop *z, struct dsl_value *row,
                       struct dsl_value *out);

/* Stores row (z->n values, owned) into loop target t as `t = the row's tuple` would: straight
 * into each target where t is a tuple or list of as many. A DSL_X_ status. */
int dsl_zip_loop_assign(struct dsl_interp *in, const struct dsl_zip_loop *z,
                        const struct dsl_node *t, struct dsl_value *row);

/* Ends the iterators and releases the iterables. */
void dsl_zip_loop_end(struct dsl_zip_loop *z);

/* ---- names and scopes (scopes.c) --------------------------------------------------------- */

/* The slot of `name` among the running call's locals, or -1 (at cell level, or not local). */
long dsl_local_slot(const struct dsl_interp *in, const char *name);

/* dsl_local_slot for the name of node n (a NAME or a FOR), through the node's cache. Inline:
 * every read of a name and every store to one asks it. */
static inline long dsl_node_slot(const struct dsl_interp *in, const struct dsl_node *n)
{
    if (!in->frame) return -1;
    const struct dsl_node *def = in->frame->fn->def;
    struct dsl_node *cache = (struct dsl_node *)n; /* the cache only: the tree's meaning stays */
    if (n->scope_def != def) {
        cache->scope_slot = dsl_local_slot(in, n->name);
        cache->scope_def = def;
    }
    return n->scope_slot;
}

/* dsl_store_local's store into slot k of frame f (-1: none): false, with nothing done, where
 * the slot is no plain local's. */
static inline bool dsl_store_slot(struct dsl_frame *f, long k, struct dsl_value v)
{
    if (k < 0) return false;
    struct dsl_value old = f->vals[k];
    bool was = f->bound[k];
    /* a cell's slot holds its DSL_CELL, always bound: any bound cell value is left to
     * dsl_bind_in, which knows a cell's slot from a local holding a cell */
    if (was && old.kind == DSL_CELL) return false;
    f->vals[k] = v;
    f->bound[k] = true;
    if (was) dsl_value_release(old);
    return true;
}

/* Binds the name of node n (a NAME or a FOR) to v (owned) when it is a plain local of the
 * running call (not a cell, no comprehension or class body running): the commonest store, as
 * CPython's STORE_FAST, the old value released after the store. False, with nothing done,
 * for any other name (dsl_bind_in binds it). */
static inline bool dsl_store_local(struct dsl_interp *in, const struct dsl_node *n,
                                   struct dsl_value v)
{
    struct dsl_frame *f = in->locals;
    if (!f) return false;
    return dsl_store_slot(f, n->scope_def == f->fn->def ? n->scope_slot : dsl_node_slot(in, n), v);
}

/* Local k of frame f when it is a plain local, bound: a cell's slot holds its DSL_CELL (see
 * dsl_store_local). NULL otherwise, and for k < 0 (no local). */
static inline struct dsl_value *dsl_frame_local(struct dsl_frame *f, long k)
{
    return k >= 0 && f->bound[k] && f->vals[k].kind != DSL_CELL ? &f->vals[k] : NULL;
}

/* The slot of NAME node n when it is a plain local of the running call, bound (not a cell, no
 * comprehension or class body running): the commonest read; NULL for any other name. */
static inline struct dsl_value *dsl_local_value(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_frame *f = in->locals;
    if (!f) return NULL;
    return dsl_frame_local(f, n->scope_def == f->fn->def ? n->scope_slot : dsl_node_slot(in, n));
}

/* dsl_local_value where the node's cache already holds its slot for the running call's def
 * (NULL where it is to fill): no call, so that a read on a short path saves no registers. */
static inline struct dsl_value *dsl_local_cached(const struct dsl_interp *in,
                                                 const struct dsl_node *n)
{
    struct dsl_frame *f = in->locals;
    return f && n->scope_def == f->fn->def ? dsl_frame_local(f, n->scope_slot) : NULL;
}

/* The expression functions by node kind (eval.c; NULL for a statement's kind). */
typedef int (*dsl_eval_fn)(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out);
extern const dsl_eval_fn dsl_eval_table[DSL_N_COUNT];
/* dsl_eval of a node that is no expression: an internal error, raised. */
int dsl_eval_not_expression(struct dsl_interp *in, const struct dsl_node *n);

/* dsl_eval, inline where the evaluator evaluates its operands: the call of dsl_eval itself is
 * a good part of what evaluating a name or an attribute costs. */
static inline int dsl_eval_node(struct dsl_interp *in, const struct dsl_node *n,
                                struct dsl_value *out)
{
    dsl_eval_fn fn = dsl_eval_table[n->kind];
    *out = dsl_none();
    int r = fn ? fn(in, n, out) : dsl_eval_not_expression(in, n);
    if (r != 0) *out = dsl_none();
    return r;
}

/* Evaluates n into *out, as dsl_eval, with *owned telling whether the caller has a reference to
 * release. A plain local of the running call (not a cell, no comprehension or class body
 * running) is lent from its slot without one: nothing rebinds that slot while one expression
 * of the call is evaluated (the language has no `:=`, and a nested function rebinds only
 * cells), so the slot keeps the value alive for as long as the expression uses it. A literal
 * is lent by its node likewise. */
static inline int dsl_eval_lent(struct dsl_interp *in, const struct dsl_node *n,
                                struct dsl_value *out, bool *owned)
{
    struct dsl_value *local = n->kind == DSL_N_NAME ? dsl_local_value(in, n) : NULL;
    if (local) {
        *out = *local;
        *owned = false;
        return 0;
    }
    if (n->kind == DSL_N_CONST) {
        *out = n->value;
        *owned = false;
        return 0;
    }
    *owned = true;
    return dsl_eval_node(in, n, out);
}

/* dsl_eval, with the reads of a plain local and of a literal inline: what a call's arguments
 * most often are. */
static inline int dsl_eval_inline(struct dsl_interp *in, const struct dsl_node *n,
                                  struct dsl_value *out)
{
    bool owned;
    int r = dsl_eval_lent(in, n, out, &owned);
    if (r == 0 && !owned) *out = dsl_value_retain(*out);
    return r;
}

/* A new unbound cell (a local that nested functions share): 0 or DSL_V_NOMEM. */
int dsl_new_cell(struct dsl_value *out);

/* Stores v (owned) in a cell. */
void dsl_cell_set(struct dsl_cell *c, struct dsl_value v);

/* The value the name of NAME node n is bound to (borrowed), in the scopes a read searches;
 * NULL when unbound. */
struct dsl_value *dsl_lookup_node(struct dsl_interp *in, const struct dsl_node *n);

/* Binds name to v (owned): a comprehension's variable, a class attribute inside a class body,
 * a local inside a call (slot k, from dsl_local_slot or dsl_node_slot), a free variable the
 * body declared nonlocal, else a session variable. 0, or -1 after raising. */
int dsl_bind_in(struct dsl_interp *in, const char *name, long k, struct dsl_value v);
/* dsl_bind_in with name's slot looked up. */
int dsl_bind_var(struct dsl_interp *in, const char *name, struct dsl_value v);

/* Unbinds name (a class body's name, a local of the running call, a free variable, else a
 * session variable): whether it was bound. */
bool dsl_unbind_var(struct dsl_interp *in, const char *name);

/* The value of NAME node n: a variable, else a builtin, class or exception type; else
 * UnboundLocalError or NameError (with a suggestion). 0 with a new value in *out, or -1. */
int dsl_eval_name(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out);

/* The function value of DEF node n (a def or a lambda): its defaults evaluated now, in the
 * defining scope. 0 with a new value in *out, or -1. */
int dsl_make_function(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out);

/* ---- calls (calls.c) --------------------------------------------------------------------- */

/* CALL node n: the callee, then its arguments left to right, then the call. 0 with a new
 * value in *out, or -1. */
int dsl_eval_call(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out);

/* ---- assignment targets (assign.c) ------------------------------------------------------- */

/* Stores v (owned) into an assignment target (a name, an item, an attribute, or a tuple or
 * list of targets to unpack v into). A DSL_X_ status. */
int dsl_assign_to(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value v);

/* The statements a = b = v, a op= v and del a, b (each a DSL_X_ status). */
int dsl_exec_assign(struct dsl_interp *in, const struct dsl_node *n);
int dsl_exec_aug(struct dsl_interp *in, const struct dsl_node *n);
int dsl_exec_del(struct dsl_interp *in, const struct dsl_node *n);

/* ---- statements (statements.c) ----------------------------------------------------------- */

/* Runs the statements of BLOCK node n until one ends otherwise than DSL_X_OK: its status. */
int dsl_exec_block(struct dsl_interp *in, const struct dsl_node *n);

/* Runs the body of def node `def` as dsl_exec_block does, less its docstring (def->doc): that
 * is the function's __doc__ (def->value), not a statement, and CPython runs nothing for it. */
int dsl_exec_body(struct dsl_interp *in, const struct dsl_node *def);

#endif
