/* jit/races.c — dependence and race analysis of prange loops: what each variable's value
 * follows from (the loop's variable, data), which elements of each shared array an iteration
 * reaches (its own, or maybe another's), and so which stores are refused as races, which are
 * recorded and checked at run time (check_races), and which need nothing. */
#include "lib/jit/internal.h"

static bool own_index(struct unit *u, struct cfn *c, const struct dsl_node *e);

/* Array v, just written by call n inside the prange loop: whether that fill makes it an index
 * of the iteration's own (var.fill_own), as to_index(i, out_shape, out_index) makes the
 * course's output index, i the iteration's own, and the call a statement of the loop's body,
 * run by every iteration (one an if skips leaves the buffer as it was made, the same in each
 * of those iterations). A buffer filled by another call (broadcast_index: many iterations, one
 * index) is not. */
void jit_own_fill(struct unit *u, struct cfn *c, struct var *v, const struct dsl_node *n)
{
    if (!u->in_prange || !c->top) return;
    struct var *o = v->alias_of ? jit_find_var(c, v->alias_of) : v;
    bool every = false;
    for (size_t i = 0; i < u->prange_body->nkids && !every; i++)
        every = u->prange_body->kids[i]->kind == DSL_N_EXPR && u->prange_body->kids[i]->a == n;
    if (o)
        o->fill_own = every && n->a->kind == DSL_N_NAME &&
                      jit_builtin_named(n->a->name, JB_TO_INDEX) && n->nkids == 3 &&
                      own_index(u, c, n->kids[0]);
}

/* Array variable v is written: so is the argument it names (itself, or the one it is another
 * name for), which the caller then treats as written (backward, the copy back from a GPU). */
void jit_mark_written(struct unit *u, struct cfn *c, struct var *v)
{
    struct var *o = !v->param && v->alias_of ? jit_find_var(c, v->alias_of) : v;
    if (o && o->param && !o->written) o->written = u->changed = true;
}

/* Whether expression n depends on the prange loop's variable: reads a variable that does. */
bool jit_expr_dep(struct cfn *c, const struct dsl_node *n)
{
    if (!n) return false;
    if (n->kind == DSL_N_NAME) {
        const struct var *v = jit_find_var(c, n->name);
        return v && v->dep;
    }
    if (jit_expr_dep(c, n->a) || jit_expr_dep(c, n->b)) return true;
    for (size_t i = 0; i < n->nkids; i++)
        if (jit_expr_dep(c, n->kids[i])) return true;
    return false;
}

void jit_set_dep(struct unit *u, struct var *v)
{
    if (v && !v->dep) {
        v->dep = true;
        u->changed = true;
    }
}

/* A call inside the prange loop given something that depends on the loop's variable fills the
 * arrays it is given accordingly (to_index(i, shape, out_index)). */
void jit_call_deps(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    if (!u->in_prange || n->kind != DSL_N_CALL) return;
    bool any = false;
    for (size_t i = 0; i < n->nkids; i++) any = any || jit_expr_dep(c, n->kids[i]);
    for (size_t i = 0; any && i < n->nkids; i++)
        if (n->kids[i]->kind == DSL_N_NAME) {
            struct var *v = jit_find_var(c, n->kids[i]->name);
            if (!v || !v->in_loop || !ints(v->t)) continue;
            jit_set_dep(u, v);
            struct var *o = v->alias_of ? jit_find_var(c, v->alias_of) : NULL; /* the same memory */
            if (o && o->in_loop) jit_set_dep(u, o);
        }
}

static enum ixk ix_join(enum ixk a, enum ixk b)
{
    if (a == IX_NONE || a == b) return b;
    return a == IX_REPEATS || b == IX_REPEATS ? IX_REPEATS : IX_UNKNOWN;
}

/* Whether variable v of the prange loop may hold values that are not the iteration's own in
 * a position made from it: assigned at two places, or the variable of a loop the iteration
 * runs over an array's values (data). An inner loop's variable over a range sweeps the
 * iteration's block as the course's kernels index their output (out[n * s0 + i * s1 + j * s2],
 * i and j counting the output's dims: strides that make two iterations' blocks overlap are not
 * detected), and so does a variable assigned at one place in an inner loop, a name for its
 * expression (out_pos = n * s0 + i * s1 + j * s2; index_kind sorts the expression). */
static bool two_values(const struct var *v)
{
    if (!v->in_loop || !(v->ptwice || v->pinner)) return false;
    if (v->ptwice) return true;
    const struct dsl_node *f = v->pset, *it = f ? f->a : NULL;
    return f && f->kind == DSL_N_FOR &&
           !(it->kind == DSL_N_CALL && it->a->kind == DSL_N_NAME &&
             jit_builtin_named(it->a->name, JB_RANGE));
}

/* Whether e's value may change within one iteration of the prange loop (two_values). */
static bool varies(struct cfn *c, const struct dsl_node *e)
{
    if (!e) return false;
    if (e->kind == DSL_N_NAME) {
        const struct var *v = jit_find_var(c, e->name);
        return v && two_values(v);
    }
    if (varies(c, e->a) || varies(c, e->b)) return true;
    for (size_t i = 0; i < e->nkids; i++)
        if (varies(c, e->kids[i])) return true;
    return false;
}

static enum ixk index_kind(struct unit *u, struct cfn *c, const struct dsl_node *e)
{
    if (!jit_expr_dep(c, e)) return IX_SAME;
    switch (e->kind) {
    case DSL_N_NAME: { /* given two values in an iteration, two elements: they may be others' */
        const struct var *v = jit_find_var(c, e->name);
        if (v && two_values(v)) return IX_UNKNOWN;
        if (u->prange_var && strcmp(e->name, u->prange_var) == 0) return IX_OWN;
        return v && v->ixk ? (enum ixk)v->ixk : IX_UNKNOWN;
    }
    case DSL_N_UNARY: return e->op == DSL_T_MINUS ? index_kind(u, c, e->a) : IX_UNKNOWN;
    case DSL_N_BINARY: {
        enum ixk a = index_kind(u, c, e->a), b = index_kind(u, c, e->b);
        if (a == IX_REPEATS || b == IX_REPEATS) return IX_REPEATS;
        /* the iteration's own plus, or times, what is the same in every iteration; what
         * changes within one otherwise (i + v, v assigned twice) reaches others' elements */
        bool own = (a == IX_OWN && b == IX_SAME && !varies(c, e->b)) ||
                   (a == IX_SAME && b == IX_OWN && !varies(c, e->a));
        switch (e->op) {
        case DSL_T_PLUS:
        case DSL_T_MINUS: return own ? IX_OWN : IX_UNKNOWN;
        case DSL_T_STAR: { /* times a stride: a stride of 0 is a broadcast output, not ours */
            const struct dsl_node *k = a == IX_SAME ? e->a : e->b;
            if (k->kind == DSL_N_CONST && dsl_is_intlike(k->value) && dsl_as_int(k->value) == 0)
                return IX_SAME;
            return own ? IX_OWN : IX_UNKNOWN;
        }
        case DSL_T_PERCENT:
        case DSL_T_DSLASH: return IX_REPEATS;
        default: return IX_UNKNOWN;
        }
    }
    case DSL_N_CALL: /* the course's output position: an index buffer the iteration filled, */
        if (e->a->kind == DSL_N_NAME && jit_builtin_named(e->a->name, JB_POSITION) &&
            e->nkids == 2 && e->kids[0]->kind == DSL_N_NAME) {
            const struct var *b = jit_find_var(c, e->kids[0]->name);
            if (b && b->alias_of && b->in_loop && !b->alias_shared)
                b = jit_find_var(c, b->alias_of);
            /* once, by to_index(i, ...), before (not changed since: out_index[d] = 0 would
             * make it another iteration's, as would a change in a loop this one runs) */
            if (b && b->in_loop && b->dep && !b->alias_shared && b->fills == 1 && b->fill_own &&
                !(u->nest > 0 && b->pfill_inner) && !jit_expr_dep(c, e->kids[1]))
                return IX_OWN;
        }
        return IX_UNKNOWN;
    default: return IX_UNKNOWN;
    }
}

/* Whether e's values are each iteration's own (index_kind). */
static bool own_index(struct unit *u, struct cfn *c, const struct dsl_node *e)
{
    return index_kind(u, c, e) == IX_OWN;
}

/* A number variable v assigned `from` in the prange loop: what its values are as an index. */
void jit_index_assigned(struct unit *u, struct cfn *c, struct var *v, const struct dsl_node *from)
{
    enum ixk k = ix_join((enum ixk)v->ixk, from ? index_kind(u, c, from) : IX_UNKNOWN);
    if (k != (enum ixk)v->ixk) {
        v->ixk = (char)k;
        u->changed = true;
    }
}

/* Whether array variable v's memory is the same in every iteration of the prange loop being
 * compiled: a parameter, an array made before the loop, or another name given in the loop for
 * one of those (an array made inside the loop is each iteration's own). */
bool jit_shared_mem(const struct var *v) { return v->param || !v->in_loop || v->alias_shared; }

/* An access, at node at, of o, an array every iteration of the prange loop shares: at index
 * ix, or (ix NULL) at elements the compiler cannot name (a call given o, a loop over it). An
 * iteration that reads an element another writes races with it as surely as two writers do,
 * and so does one that writes at two indices of its own (o[i] and o[i + 1]: the second is the
 * next iteration's first). So an array the loop writes must be reached, wherever it is, at one
 * index of the iteration's own (index_kind), the same expression at every place. Otherwise a
 * Storage argument's reads and writes are recorded and checked at run time (racy), and any
 * other array, or one reached whole, refused. 0, or -1 after refusing. */
int jit_prange_access(struct unit *u, struct cfn *c, struct var *o, const struct dsl_node *ix,
                      const struct dsl_node *at)
{
    struct pacc *pl = &o->pl[u->pno];
    if (!ix) {
        if (!pl->whole) pl->whole = u->changed = true;
    } else {
        /* an index of the iteration's own (its names keep their values within it, or count
         * within its own block: index_kind), the same at every place */
        bool own = index_kind(u, c, ix) == IX_OWN;
        if (own && !pl->ix) {
            pl->ix = ix;
            u->changed = true;
        }
        if ((!own || (ix != pl->ix && !jit_same_expr(pl->ix, ix))) && !pl->mixed)
            pl->mixed = u->changed = true;
    }
    if (!pl->written || (!pl->whole && !pl->mixed)) return 0;
    if (!pl->whole && o->param && floats(o->t)) {
        if (!pl->racy) pl->racy = o->racy = u->changed = true;
        u->race_checks = true;
        return 0;
    }
    if (pl->whole)
        return jit_race(u, c, at,
                        "%s, which every iteration of the prange loop shares, is written in the "
                        "loop and given whole to a function or a loop over it, which may read "
                        "elements other iterations write, at once on their own threads (a race). "
                        "Read and write %s in the loop's body itself, at the iteration's own "
                        "position (out[o]), or read from an array the loop does not write",
                        o->name, o->name);
    return jit_race(u, c, at,
                    "%s, which every iteration of the prange loop shares, is written and read at "
                    "indices that are not all one element of the iteration's own: an iteration "
                    "may reach an element another writes, at once on their own threads (a race). "
                    "Read and write %s only at the iteration's own position (out[o], one index "
                    "everywhere), or read from an array the loop does not write",
                    o->name, o->name);
}

/* Expression e, given whole at node at (to a call, a loop over it, an elementwise comparison):
 * where e names an array every iteration of the prange loop shares, an access of all of its
 * elements, others' too (prange_access). 0, or -1 after refusing. */
int jit_read_whole(struct unit *u, struct cfn *c, const struct dsl_node *e,
                   const struct dsl_node *at)
{
    if (!u->in_prange || !c->top || e->kind != DSL_N_NAME) return 0;
    struct var *v = jit_find_var(c, e->name);
    if (v && v->alias_of) v = jit_find_var(c, v->alias_of);
    if (!v || (!floats(v->t) && v->t != JT_IARR) || !jit_shared_mem(v)) return 0;
    return jit_prange_access(u, c, v, NULL, at);
}

/* A write into array v inside the prange loop, at node at: by a store whose index is ix (how
 * NULL), or by a call of the function `how` (dep: an argument of it follows from the loop's
 * variable). Iterations run at once on their own threads, so an array they share must not be
 * written at the same elements by two of them. Refused: a store at an index that does not
 * follow from the loop's variable or repeats (y[i % 4]); a shared index buffer filled by a call
 * (to_index's out_index), which every iteration writes whole; a Storage written by a call none
 * of whose arguments follows from the loop's variable. What the analysis cannot see (a position
 * read from data) njit(check_races=True) finds at run time. */
int jit_prange_write(struct unit *u, struct cfn *c, struct var *v, const struct dsl_node *at,
                     const struct dsl_node *ix, const char *how, bool dep)
{
    if (!u->in_prange || !c->top) return 0;
    struct var *o = v->alias_of ? jit_find_var(c, v->alias_of) : v;
    if (!o) o = v;
    if (!v->pwritten) v->pwritten = u->changed = true;
    if (!o->pwritten) o->pwritten = u->changed = true;
    if (!o->pl[u->pno].written) o->pl[u->pno].written = u->changed = true;
    if (o->fills < 2) o->fills++;
    o->fill_own = false;
    if (u->nest > 0 && !o->pfill_inner) o->pfill_inner = u->changed = true;
    if (!jit_shared_mem(v)) return 0;
    char also[96] = "", by[64] = "";
    if (o != v) snprintf(also, sizeof also, ", through %s (another name for it)", v->name);
    if (how) snprintf(by, sizeof by, ", by %s()", how);
    if (o->buflen) {
        return jit_race(u, c, at,
                        "%s is made once, before the prange loop (line %d of %s), and written by "
                        "every iteration%s%s: the iterations run at once on their own threads and "
                        "overwrite each other's values (a race). Make it inside the loop: move "
                        "line %d into the loop's body, so that each iteration has its own",
                        o->name, o->made ? jit_fn_line(c, o->made) : 1, c->f->def->name, also, by,
                        o->made ? jit_fn_line(c, o->made) : 1);
    }
    if (how && ints(v->t)) {
        return jit_race(u, c, at,
                        "%s, an argument of %s(), is written by every iteration of the prange "
                        "loop%s%s: the iterations run at once on their own threads and overwrite "
                        "each other's values (a race). Give each iteration a buffer of its own, "
                        "made inside the loop (idx = np.zeros(MAX_DIMS, np.int32)), and pass that",
                        o->name, c->f->def->name, also, by);
    }
    if (how) { /* what a function stores into, the loop cannot tell apart from another's */
        (void)dep;
        return jit_race(u, c, at,
                        "%s, which every iteration of the prange loop shares, is written by a "
                        "function the loop calls%s%s: which elements it writes, the compiler "
                        "cannot tell from one iteration to the next, and iterations run at once on "
                        "their own threads. Write %s in the loop's body itself, at the iteration's "
                        "own position (out[o] = ...)",
                        o->name, also, by, o->name);
    }
    enum ixk k = index_kind(u, c, ix);
    if (k == IX_SAME) {
        return jit_race(u, c, at,
                        "every iteration of the prange loop writes the same element of %s%s (its "
                        "index does not follow from the loop's variable), at once on their own "
                        "threads (a race). Write %s at a position of the iteration's own, or add "
                        "into a local variable (acc += ...) and store it after the loop",
                        o->name, also, o->name);
    }
    if (k == IX_REPEATS) {
        bool direct =
            ix->kind == DSL_N_BINARY && (ix->op == DSL_T_PERCENT || ix->op == DSL_T_DSLASH);
        return jit_race(u, c, at,
                        "iterations of the prange loop write the same elements of %s%s: the index "
                        "repeats (%s of the loop's variable), and they run at once on their own "
                        "threads (a race). Give each iteration its own element",
                        o->name, also,
                        !direct                   ? "% or //"
                        : ix->op == DSL_T_PERCENT ? "%"
                                                  : "//");
    }
    if (k == IX_UNKNOWN && o->param && floats(o->t)) { /* recorded and checked at run time */
        if (!o->pl[u->pno].racy) o->pl[u->pno].racy = o->racy = u->changed = true;
        u->race_checks = true;
    } else if (k == IX_UNKNOWN) {
        return jit_race(u, c, at,
                        "the prange loop's iterations write %s%s at an index whose values the "
                        "compiler cannot follow from the loop's variable, and they run at once on "
                        "their own threads: write it at a position that is the iteration's own "
                        "(i, or an index made from it by to_index and index_to_position)",
                        o->name, also);
    }
    return jit_prange_access(u, c, o, ix, at);
}

/* The first read, in n (a statement or an expression of a prange loop's body), of a variable
 * first assigned in a prange loop that this iteration may not have assigned yet, or NULL. In
 * Python such a read sees the value an earlier iteration left; here iterations run at once on
 * their own threads, each with variables of its own. *d: the variables (bits of c->vars) every
 * path so far has assigned; after a statement, those every path through it has. */
const struct dsl_node *jit_unset_read(struct cfn *c, const struct dsl_node *n, uint64_t *d)
{
    const struct dsl_node *r = NULL;
    if (!n) return NULL;
    switch (n->kind) {
    case DSL_N_NAME: {
        const struct var *v = jit_find_var(c, n->name);
        size_t i = v ? (size_t)(v - c->vars) : 0;
        return v && v->in_loop && !v->reduce && !(*d >> i & 1) ? n : NULL;
    }
    case DSL_N_ASSIGN:
    case DSL_N_FOR:
        if ((r = jit_unset_read(c, n->a, d))) return r;
        for (size_t i = 0; n->kind == DSL_N_ASSIGN && i < n->nkids; i++) {
            const struct dsl_node *t = n->kids[i];
            bool many = t->kind == DSL_N_TUPLE; /* a, b = ...: each item a target */
            for (size_t j = 0; j < (many ? t->nkids : 1); j++) {
                const struct dsl_node *x = many ? t->kids[j] : t;
                const struct var *v = x->kind == DSL_N_NAME ? jit_find_var(c, x->name) : NULL;
                if (v)
                    *d |= UINT64_C(1) << (v - c->vars);
                else if (x->kind != DSL_N_NAME && (r = jit_unset_read(c, x, d)))
                    return r;
            }
        }
        if (n->kind == DSL_N_FOR) { /* the body may not run: what it assigns, not after it */
            uint64_t in = *d;
            const struct dsl_node *t = n->name ? NULL : n->nkids ? n->kids[0] : NULL;
            for (size_t j = 0; j < (t ? t->nkids : 1); j++) { /* for i / for d, s in ... */
                const char *name =
                    t ? t->kids[j]->kind == DSL_N_NAME ? t->kids[j]->name : NULL : n->name;
                const struct var *v = name ? jit_find_var(c, name) : NULL;
                if (v) in |= UINT64_C(1) << (v - c->vars);
            }
            return jit_unset_read(c, n->b, &in);
        }
        return NULL;
    case DSL_N_WHILE: {
        if ((r = jit_unset_read(c, n->a, d))) return r;
        uint64_t in = *d;
        return jit_unset_read(c, n->b, &in);
    }
    case DSL_N_IF: {
        uint64_t all = ~UINT64_C(0);
        for (size_t i = 0; i + 1 < n->nkids; i += 2) {
            if ((r = jit_unset_read(c, n->kids[i], d))) return r;
            uint64_t in = *d;
            if ((r = jit_unset_read(c, n->kids[i + 1], &in))) return r;
            all &= in;
        }
        uint64_t in = *d;
        if (n->b && (r = jit_unset_read(c, n->b, &in))) return r;
        *d = all & in;
        return NULL;
    }
    case DSL_N_BLOCK:
        for (size_t i = 0; i < n->nkids; i++) {
            if ((r = jit_unset_read(c, n->kids[i], d))) return r;
            enum dsl_node_kind k = n->kids[i]->kind;
            if (k == DSL_N_BREAK || k == DSL_N_CONTINUE || k == DSL_N_RETURN || k == DSL_N_RAISE)
                *d = ~UINT64_C(0); /* what follows does not run: no path out of the block */
        }
        return NULL;
    case DSL_N_CALL: /* the callee is not a read of a variable of the loop */
        for (size_t i = 0; i < n->nkids; i++)
            if ((r = jit_unset_read(c, n->kids[i], d))) return r;
        for (size_t i = 0; i < n->nkw; i++)
            if ((r = jit_unset_read(c, n->kwvals[i], d))) return r;
        return n->a->kind == DSL_N_NAME ? NULL : jit_unset_read(c, n->a, d);
    case DSL_N_DEF:
    case DSL_N_CLASS:
    case DSL_N_LISTCOMP:
    case DSL_N_DICTCOMP:
    case DSL_N_SETCOMP:
    case DSL_N_GENEXP: return NULL; /* names of their own (the compiler takes none of them) */
    default:
        if ((r = jit_unset_read(c, n->a, d)) || (r = jit_unset_read(c, n->b, d))) return r;
        for (size_t i = 0; i < n->nkids; i++)
            if ((r = jit_unset_read(c, n->kids[i], d))) return r;
        return NULL;
    }
}

/* The slot of the prange loop at pos among the function's (var.pl), the same in every pass. */
int jit_prange_slot(struct unit *u, size_t pos)
{
    for (int i = 0; i < u->npl; i++)
        if (u->pl_pos[i] == pos) return i;
    if (u->npl == MAX_PRANGE) return MAX_PRANGE - 1;
    u->pl_pos[u->npl] = pos;
    return u->npl++;
}
