/* scopes.c — names: where the evaluator reads and binds a name (a running comprehension's
 * variables, a class body's names, a call's locals, in cells where nested functions share them,
 * and its free variables, then the session's variables, then builtins); the NameError of a name
 * found nowhere, with the nearest known name; and, each time a def runs, which of its body's
 * names are locals, cells and free variables, as CPython's compiler decides. */
#include "lang/eval.h"

#include "lang/classes.h"
#include "lang/exceptions.h"
#include "lang/missing.h"
#include "lang/packages.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- the nearest known name, for NameError's suggestion --------------------------------- */

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

/* ---- scopes: a class body's names, a call's locals and free variables, then the session's
 * variables, then builtins ------------------------------------------------------------------ */

/* noinline: its loop, inlined into the readers of names through dsl_node_slot's cache miss,
 * would cost every read of a name the registers it needs */
__attribute__((noinline)) long dsl_local_slot(const struct dsl_interp *in, const char *name)
{
    if (!in->frame) return -1;
    const struct dsl_function *f = in->frame->fn;
    for (size_t i = 0; i < f->nlocals; i++)
        if (dsl_name_eq(f->locals[i], name)) return (long)i;
    return -1;
}

/* The cell of free variable `name` of the running call, or NULL. */
static inline struct dsl_cell *free_cell(const struct dsl_interp *in, const char *name)
{
    if (!in->frame || !in->frame->fn->nfree) return NULL;
    const struct dsl_function *f = in->frame->fn;
    for (size_t i = 0; i < f->nfree; i++)
        if (dsl_name_eq(f->freevars[i], name)) return f->cells[i].as.cell;
    return NULL;
}

int dsl_new_cell(struct dsl_value *out)
{
    struct dsl_cell *c = calloc(1, sizeof *c);
    if (!c) return DSL_V_NOMEM;
    c->refs = 1;
    dsl_gc_track(&c->gc, DSL_CELL);
    *out = (struct dsl_value){.kind = DSL_CELL, .as.cell = c};
    return DSL_V_OK;
}

void dsl_cell_set(struct dsl_cell *c, struct dsl_value v)
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
            if (dsl_name_eq(s->vars[i].name, name)) return &s->vars[i];
    return NULL;
}

/* The variable `name` is bound to (borrowed): a running comprehension's variable, a name of the
 * class body being run, a local of the running call (in its cell when nested functions share
 * it), a free variable, or a global: the module's in a package's file, else the session's.
 * NULL when unbound. */
static struct dsl_value *lookup_in(struct dsl_interp *in, const char *name, size_t hash, long k)
{
    struct dsl_comp_var *cv = in->comp ? comp_var(in, name) : NULL;
    if (cv && cv->bound) return &cv->value;
    if (in->class_ns) {
        struct dsl_value *v = dsl_attrs_find_hashed(in->class_ns, name, hash);
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
    struct dsl_attrs *g = dsl_package_globals(in);
    return g ? dsl_attrs_find_hashed(g, name, hash)
             : dsl_session_lookup_hashed(in->session, name, hash);
}

struct dsl_value *dsl_lookup_node(struct dsl_interp *in, const struct dsl_node *n)
{
    return lookup_in(in, dsl_node_name(n), dsl_node_hash(n), dsl_node_slot(in, n));
}

int dsl_bind_in(struct dsl_interp *in, const char *name, long k, struct dsl_value v)
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
            dsl_cell_set(c, v);
            return 0;
        }
        struct dsl_attrs *g = dsl_package_globals(in);
        if (g) /* a package's file: no graded cell reads its globals */
            return dsl_attrs_set(g, name, v) != 0 ? dsl_raise_status(in, DSL_V_NOMEM) : 0;
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
        dsl_cell_set(in->frame->vals[k].as.cell, v);
        return 0;
    }
    if (in->frame->bound[k]) dsl_value_release(in->frame->vals[k]);
    in->frame->vals[k] = v;
    in->frame->bound[k] = true;
    return 0;
}

int dsl_bind_var(struct dsl_interp *in, const char *name, struct dsl_value v)
{
    return dsl_bind_in(in, name, dsl_local_slot(in, name), v);
}

/* Whether no node of t before byte `pos` names `name` (a read of it, or one that binds it: a
 * loop's, an except clause's, a def's or a class's name), nested defs' bodies aside. */
static bool none_before(const struct dsl_node *t, const char *name, size_t pos)
{
    if (!t) return true;
    bool named = t->kind == DSL_N_NAME || t->kind == DSL_N_FOR || t->kind == DSL_N_EXCEPT ||
                 t->kind == DSL_N_DEF || t->kind == DSL_N_CLASS;
    if (named && t->pos < pos && t->name && strcmp(t->name, name) == 0) return false;
    if (!none_before(t->a, name, pos)) return false;
    if (t->kind != DSL_N_DEF && !none_before(t->b, name, pos)) return false;
    for (size_t i = 0; i < t->nkids; i++)
        if (!none_before(t->kids[i], name, pos)) return false;
    for (size_t i = 0; t->kwvals && i < t->nkw; i++)
        if (!none_before(t->kwvals[i], name, pos)) return false;
    return true;
}

/* Whether the read at byte pos of local `name` of def comes before anything else in the body
 * names it, and it is no parameter: then its assignment is further down (the student's
 * commonest case: a global's name assigned in the function), not a branch that did not run
 * or a `del`. */
static bool first_mention(const struct dsl_node *def, const char *name, size_t pos)
{
    for (size_t i = 0; i < def->nkw; i++)
        if (strcmp(def->kwnames[i], name) == 0) return false;
    return none_before(def->b, name, pos);
}

/* dsl_eval_name's every case, the caches filled where they are empty or stale. */
static __attribute__((noinline)) int eval_name_full(struct dsl_interp *in, const struct dsl_node *n,
                                                    struct dsl_value *out)
{
    struct dsl_value *v = dsl_local_value(in, n);
    if (v) {
        *out = dsl_value_retain(*v);
        return 0;
    }
    long k = dsl_node_slot(in, n);
    if (k < 0 && !in->comp && !in->class_ns && (!in->frame || !in->frame->fn->nfree)) {
        /* a global or a builtin, as lookup_in finds it there: the slot found last time while
         * no name came to or went from the globals since */
        struct dsl_attrs *g = dsl_package_globals(in);
        const void *table = g ? (const void *)g : (const void *)in->session;
        size_t version = g ? g->version : in->session->version;
        struct dsl_node *cache = (struct dsl_node *)n; /* the cache only: the meaning stays */
        if (n->global_table != table || n->global_version != version) {
            cache->global_slot =
                g ? dsl_attrs_find_hashed(g, dsl_node_name(n), dsl_node_hash(n))
                  : dsl_session_lookup_hashed(in->session, dsl_node_name(n), dsl_node_hash(n));
            cache->global_table = table;
            cache->global_version = version;
        }
        v = n->global_slot;
        if (!v && n->builtin.kind != DSL_NONE) { /* a row or a built-in class */
            *out = n->builtin;
            return 0;
        }
    } else {
        v = lookup_in(in, dsl_node_name(n), dsl_node_hash(n), k);
    }
    if (v) {
        *out = dsl_value_retain(*v);
        return 0;
    }
    if (k >= 0) {
        const struct dsl_node *def = in->frame->fn->def;
        bool later = first_mention(def, n->name, n->pos);
        return dsl_raise_at(
            in, n->pos, "UnboundLocalError",
            "cannot access local variable '%s' where it is not associated with a "
            "value (%s %s()%s)",
            n->name, later ? "it is assigned later in" : "nothing assigned it before this line in",
            def->name, later ? "" : ": a branch not taken, a loop that did not run, or a `del`");
    }
    if (free_cell(in, n->name))
        return dsl_raise_at(in, n->pos, "NameError",
                            "cannot access free variable '%s' where it is not associated with a "
                            "value in enclosing scope",
                            n->name);
    if (n->builtin.kind != DSL_NONE) { /* a row or a built-in class: nothing to retain */
        *out = n->builtin;
        return 0;
    }
    const struct dsl_builtin *fn = dsl_builtin_find(n->name);
    if (fn) {
        /* int, list, str... are classes: type(x) == int, isinstance(x, list) */
        struct dsl_value type = dsl_builtin_type(fn);
        *out = type.kind == DSL_CLASS ? type : (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = fn};
        /* the table's rows only: a test's hook depends on the environment */
        if (fn >= dsl_builtins && fn < dsl_builtins + dsl_builtin_count)
            ((struct dsl_node *)n)->builtin = *out; /* the cache only: the meaning stays */
        return 0;
    }
    *out = dsl_builtin_class(n->name);
    if (out->kind != DSL_NONE) return 0;
    const struct dsl_exc_type *exc = dsl_exc_type_find(n->name);
    if (exc) {
        *out = dsl_exc_type_value(exc);
        return 0;
    }
    if (strcmp(n->name, "NotImplemented") == 0) {
        *out = dsl_not_implemented();
        return 0;
    }
    if (strcmp(n->name, "Ellipsis") == 0) { /* a name of the builtins, as `...` is a literal */
        *out = dsl_ellipsis();
        return 0;
    }
    if (strcmp(n->name, "__name__") == 0) { /* every cell runs as Python's main script */
        int st = dsl_str_value("__main__", 8, out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    if (dsl_raise_missing_at(in, n->pos, "builtins", n->name) != 0) return -1; /* hex, eval */
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

/* A global or builtin name's read through the node's caches, where they hold (no call): true
 * with the value in *out, else false with nothing done. */
static inline bool global_cached(struct dsl_interp *in, const struct dsl_node *n,
                                 struct dsl_value *out)
{
    const struct dsl_attrs *g = dsl_package_globals(in);
    const void *table = g ? (const void *)g : (const void *)in->session;
    size_t version = g ? g->version : in->session->version;
    if (n->global_table != table || n->global_version != version) return false;
    if (n->global_slot) {
        *out = dsl_value_retain(*n->global_slot);
        return true;
    }
    if (n->builtin.kind == DSL_NONE) return false;
    *out = n->builtin; /* a row or a built-in class */
    return true;
}

int dsl_eval_name(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    /* what every read of a name runs: a hit in the node's caches, with no call, so that it
     * needs few registers; anything else (a cache to fill, a comprehension, a class body, free
     * variables, an unbound or unknown name) goes to eval_name_full */
    const struct dsl_frame *f = in->locals;
    if (f && n->scope_def == f->fn->def) {
        const struct dsl_value *local = dsl_local_cached(in, n);
        if (local) {
            *out = dsl_value_retain(*local);
            return 0;
        }
        if (n->scope_slot < 0 && !f->fn->nfree && global_cached(in, n, out)) return 0;
    } else if (!f && !in->frame && !in->comp && !in->class_ns && global_cached(in, n, out)) {
        return 0;
    }
    return eval_name_full(in, n, out);
}

bool dsl_unbind_var(struct dsl_interp *in, const char *name)
{
    if (in->class_ns && dsl_attrs_remove(in->class_ns, name)) return true;
    long k = dsl_local_slot(in, name);
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
    if (k < 0 && dsl_package_globals(in)) return dsl_attrs_remove(dsl_package_globals(in), name);
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
        n->kind == DSL_N_FOR || n->kind == DSL_N_TRY || n->kind == DSL_N_EXCEPT ||
        n->kind == DSL_N_WITH) {
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
    case DSL_N_WITH:                                 /* `as` binds as an assignment does */
        if (n->nkids) collect_target(sc, n->kids[0]);
        collect_locals(sc, n->b);
        break;
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
    for (size_t i = 0; i < f->nlocals; i++) {
        f->is_cell[i] = names_has(&sc.nested, f->locals[i]);
        f->any_cell = f->any_cell || f->is_cell[i];
    }
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
        long k = up ? dsl_local_slot(in, name) : -1;
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

_Static_assert(offsetof(struct dsl_function, cuda_kernel) < 64,
               "what a call reads of a function fits its first line");

/* The one statement of def's body (its docstring aside) when that is `return expr` and def is
 * no generator, as most methods are (is_leaf, __add__, forward): else NULL. */
static const struct dsl_node *one_return(const struct dsl_node *def)
{
    const struct dsl_node *b = def->b;
    size_t first = def->doc;
    if (b->nkids != first + 1 || def->flag) return NULL;
    const struct dsl_node *s = b->kids[first];
    return s->kind == DSL_N_RETURN && s->a ? s : NULL;
}

int dsl_make_function(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    if (!in->code) /* only dsl_evaluate runs without one, and it takes expressions only */
        return dsl_raise_at(in, n->pos, "SyntaxError", "%s is not allowed here",
                            strcmp(n->name, "<lambda>") == 0 ? "lambda" : "def");
    struct dsl_function *f = aligned_alloc(64, (sizeof *f + 63) / 64 * 64);
    if (!f) return dsl_raise_status(in, DSL_V_NOMEM);
    memset(f, 0, sizeof *f);
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
        return DSL_X_ERR;
    }
    f->generator = n->flag;
    f->plain = n->nkw == n->nargs && f->nlocals <= DSL_SMALL_LOCALS && !f->any_cell && !n->flag;
    f->kernel_file = f->code->kernel_file != NULL;
    f->ret = one_return(n);
    f->height = (unsigned short)n->height;
    f->nargs = (unsigned)n->nargs;
    size_t required = n->nargs; /* a plain function's: at most DSL_SMALL_LOCALS */
    while (required > 0 && n->kwvals[required - 1]) required--;
    f->nrequired = (unsigned char)(required < UCHAR_MAX ? required : UCHAR_MAX);
    f->src = f->code->src;
    f->src_len = f->code->len;
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
