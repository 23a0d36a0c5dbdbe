/* jit/promote.c — the register-promotion pass (the element an innermost loop accumulates into,
 * kept in a local when a run-time test allows) and the bounds checks of a prange body done once
 * per chunk instead of at every access. */
#include "lib/jit/internal.h"

/* Whether statement n holds a loop of its own (its iterations are then not light). */
bool jit_has_loop(const struct dsl_node *n)
{
    if (!n) return false;
    if (n->kind == DSL_N_FOR || n->kind == DSL_N_WHILE) return true;
    if (jit_has_loop(n->b)) return true;
    for (size_t i = 0; i < n->nkids; i++)
        if (jit_has_loop(n->kids[i])) return true;
    return false;
}

/* Whether n is an access of the prange loop whose bounds each chunk checked (see
 * unchecked_accesses). */
bool jit_elided(const struct unit *u, const struct dsl_node *n)
{
    for (int i = 0; i < u->nelide; i++)
        if (u->elide[i] == n) return true;
    return false;
}

/* ---- an element kept in a register ------------------------------------------------------ */

/* The reduce template's `out[o] = fn(out[o], a[j])` inside `for s in range(n)` reads and
 * writes one element of a storage at every iteration. The C compiler would keep it in a
 * register if it knew that no other access reaches it, which it cannot: the storages may be
 * views of one buffer, and the bounds check guards the first read. So the compiler does it
 * here: an innermost range loop whose stores into storages all go to A[e], with e the same
 * arithmetic of names the loop does not assign, and which reads A only there and calls no
 * function with a storage, runs with A[e] in a local when, at run time, e is inside A and
 * outside every other storage the loop reads; otherwise the loop as written runs. */

bool jit_same_expr(const struct dsl_node *a, const struct dsl_node *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case DSL_N_NAME: return strcmp(a->name, b->name) == 0;
    case DSL_N_CONST:
        return a->value.kind == DSL_INT && b->value.kind == DSL_INT &&
               a->value.as.i == b->value.as.i;
    case DSL_N_UNARY: return a->op == b->op && jit_same_expr(a->a, b->a);
    case DSL_N_BINARY:
        return a->op == b->op && jit_same_expr(a->a, b->a) && jit_same_expr(a->b, b->b);
    default: return false;
    }
}

/* Whether n is a store into the promoted element, or a read of it. */
bool jit_promoted(const struct unit *u, const struct dsl_node *n)
{
    return u->pr_arr && n->kind == DSL_N_INDEX && n->nkids == 1 && n->a->kind == DSL_N_NAME &&
           strcmp(n->a->name, u->pr_arr) == 0 && jit_same_expr(n->kids[0], u->pr_ix);
}

/* Whether a loop body assigns the name (or makes it a loop's variable). */
bool jit_assigns(const struct dsl_node *n, const char *name)
{
    if (!n) return false;
    const struct dsl_node *t = n->kind == DSL_N_AUG ? n->a : NULL;
    if (n->kind == DSL_N_ASSIGN)
        for (size_t i = 0; i < n->nkids; i++)
            if (n->kids[i]->kind == DSL_N_NAME && strcmp(n->kids[i]->name, name) == 0) return true;
    if (t && t->kind == DSL_N_NAME && strcmp(t->name, name) == 0) return true;
    if (n->kind == DSL_N_FOR && n->name && strcmp(n->name, name) == 0) return true;
    if (n->kind == DSL_N_BLOCK || n->kind == DSL_N_IF || n->kind == DSL_N_FOR) {
        for (size_t i = 0; i < n->nkids; i++)
            if (jit_assigns(n->kids[i], name)) return true;
        if (jit_assigns(n->b, name)) return true;
    }
    return false;
}

/* Whether e is arithmetic (+, -, *) of int names the loop (its variable, its body) does not
 * assign, and constants: the same value at every iteration, and computing it cannot fail. */
static bool invariant_index(struct cfn *c, const struct dsl_node *e, const struct dsl_node *loop)
{
    switch (e->kind) {
    case DSL_N_CONST: return e->value.kind == DSL_INT;
    case DSL_N_NAME: {
        const struct var *v = jit_find_var(c, e->name);
        return v && v->t == JT_INT && strcmp(e->name, loop->name) != 0 &&
               !jit_assigns(loop->b, e->name);
    }
    case DSL_N_UNARY: return e->op == DSL_T_MINUS && invariant_index(c, e->a, loop);
    case DSL_N_BINARY:
        return (e->op == DSL_T_PLUS || e->op == DSL_T_MINUS || e->op == DSL_T_STAR) &&
               invariant_index(c, e->a, loop) && invariant_index(c, e->b, loop);
    default: return false;
    }
}

static bool is_storage(struct cfn *c, const struct dsl_node *n)
{
    const struct var *v = n->kind == DSL_N_NAME ? jit_find_var(c, n->name) : NULL;
    return v && floats(v->t);
}

static void promo_scan(struct cfn *c, const struct dsl_node *n, bool store, struct promo *p)
{
    if (!n || p->no) return;
    switch (n->kind) {
    case DSL_N_FOR:
    case DSL_N_WHILE:
    case DSL_N_RETURN:
    case DSL_N_LISTCOMP:
    case DSL_N_GENEXP: p->no = true; return;
    case DSL_N_NAME: /* a storage other than indexed: passed on, or another name for it */
        if (is_storage(c, n)) p->no = true;
        return;
    case DSL_N_CALL:
        if (n->a->kind == DSL_N_NAME && jit_builtin_named(n->a->name, JB_LENGTH) && n->nkids == 1 &&
            is_storage(c, n->kids[0]))
            return;
        break;
    case DSL_N_INDEX:
        if (n->nkids == 1 && is_storage(c, n->a)) {
            if (p->n == MAX_ACCESS) {
                p->no = true;
                return;
            }
            p->at[p->n].arr = n->a->name;
            p->at[p->n].ix = n->kids[0];
            p->at[p->n++].store = store;
            promo_scan(c, n->kids[0], false, p);
            return;
        }
        break;
    case DSL_N_ASSIGN:
        for (size_t i = 0; i < n->nkids; i++) promo_scan(c, n->kids[i], true, p);
        promo_scan(c, n->a, false, p);
        return;
    case DSL_N_AUG:
        promo_scan(c, n->a, true, p);
        promo_scan(c, n->a, false, p);
        promo_scan(c, n->b, false, p);
        return;
    default: break;
    }
    promo_scan(c, n->a, false, p);
    promo_scan(c, n->b, false, p);
    for (size_t i = 0; i < n->nkids; i++) promo_scan(c, n->kids[i], false, p);
}

/* Whether the innermost range loop n can keep a storage element in a local: 0 and the
 * element's access in p->at[0] (the other storages it reads after it), or -1. */
int jit_promotable(struct cfn *c, const struct dsl_node *n, struct promo *p)
{
    *p = (struct promo){0};
    if (jit_has_loop(n->b)) return -1;
    promo_scan(c, n->b, false, p);
    int first = -1;
    for (int i = 0; i < p->n && first < 0; i++)
        if (p->at[i].store) first = i;
    if (p->no || first < 0 || !invariant_index(c, p->at[first].ix, n)) return -1;
    const char *arr = p->at[first].arr;
    const struct dsl_node *ix = p->at[first].ix;
    /* every access to that storage is to the element, and the others are only read */
    for (int i = 0; i < p->n; i++) {
        bool mine = strcmp(p->at[i].arr, arr) == 0;
        if ((mine && !jit_same_expr(p->at[i].ix, ix)) || (!mine && p->at[i].store)) return -1;
    }
    struct promo all = *p;
    int k = 1; /* at[0]: the element; then each other storage once */
    p->at[0] = all.at[first];
    for (int i = 0; i < all.n; i++) {
        bool seen = strcmp(all.at[i].arr, arr) == 0;
        for (int j = 1; j < k && !seen; j++) seen = strcmp(p->at[j].arr, all.at[i].arr) == 0;
        if (!seen) p->at[k++] = all.at[i];
    }
    p->n = k;
    return 0;
}

/* The range loop n, with the element it reads and writes at every iteration in the local
 * pv<k> when that is safe at run time (see promotable), else as written (a copy of its own:
 * k2, whose counts are those of k). */
int jit_range_promoted(struct unit *u, struct cfn *c, const struct dsl_node *n, int k,
                       const struct promo *p, bool quiet)
{
    struct ex a, x;
    ex_init(&a);
    ex_init(&x);
    int r = jit_expr(
        u, c, &(struct dsl_node){.kind = DSL_N_NAME, .pos = n->pos, .name = (char *)p->at[0].arr},
        &a);
    if (r == 0) r = jit_expr(u, c, p->at[0].ix, &x);
    if (r == 0) {
        const char *A = a.s.data;
        jit_emit(u, "int64_t x%d = %s;", k, x.s.data);
        jit_emit(u, "x%d += (%s).n & (x%d >> 63);", k, A, k);
        struct render_buf cond;
        render_buf_init(&cond, 0);
        render_buf_printf(&cond, "e%d > 0 && (uint64_t)x%d < (uint64_t)(%s).n", k, k, A);
        for (int i = 1; i < p->n && r == 0; i++) {
            struct ex b;
            ex_init(&b);
            r = jit_expr(
                u, c,
                &(struct dsl_node){.kind = DSL_N_NAME, .pos = n->pos, .name = (char *)p->at[i].arr},
                &b);
            if (r == 0)
                render_buf_printf(&cond,
                                  " && (uintptr_t)((%s).p + x%d) - (uintptr_t)(%s).p >= "
                                  "(uintptr_t)(%s).n * sizeof *(%s).p",
                                  A, k, b.s.data, b.s.data, b.s.data);
            ex_free(&b);
        }
        if (r == 0) {
            char fail[sizeof u->fail];
            memcpy(fail, u->fail, sizeof fail);
            jit_emit(u, "if (%s) {", cond.data);
            u->loop_depth++;
            jit_emit(u, "%s pv%d = (%s).p[x%d];", jit_elem_c(a.t), k, A, k);
            jit_emit(u, "#undef JIT_FAIL");
            jit_emit(u, "#define JIT_FAIL pw%d", k);
            snprintf(u->fail, sizeof u->fail, "pw%d", k);
            u->pr_arr = p->at[0].arr;
            u->pr_ix = p->at[0].ix;
            u->pr_id = k;
            r = jit_range_body(u, c, n, k, quiet);
            u->pr_arr = NULL;
            memcpy(u->fail, fail, sizeof fail);
            if (u->em->counted) /* the write the loop made, recorded (store) */
                jit_emit(u, "if (jit_gwrite(env, (%s).p, x%d, %lldLL, \"%s\")) goto %s;", A, k,
                         jit_loc(c, n), p->at[0].arr, fail);
            jit_emit(u, "(%s).p[x%d] = pv%d;", A, k, k);
            jit_emit(u, "if (0) { pw%d: (%s).p[x%d] = pv%d; goto %s; }", k, A, k, k, fail);
            jit_emit(u, "#undef JIT_FAIL");
            jit_emit(u, "#define JIT_FAIL %s", fail);
            u->loop_depth--;
            jit_emit(u, "} else {");
            u->loop_depth++;
            int k2 = u->tmp++;
            jit_emit(u, "int64_t r%d = r%d, t%d = t%d, e%d = e%d;", k2, k, k2, k, k2, k);
            if (r == 0) r = jit_range_body(u, c, n, k2, quiet);
            u->loop_depth--;
            jit_emit(u, "}");
        }
        render_buf_free(&cond);
    }
    ex_free(&a);
    ex_free(&x);
    return r;
}

/* Collects, in the subtree n of a statement, the accesses storage[i] (i the prange loop's
 * variable, the storage a parameter) that run whenever the statement does: not under the
 * condition of `a if c else b`, `and` or `or`. */
static void collect_accesses(struct unit *u, struct cfn *c, const struct dsl_node *n,
                             const char *var)
{
    if (!n || n->kind == DSL_N_COND || n->kind == DSL_N_AND || n->kind == DSL_N_OR) return;
    if (n->kind == DSL_N_INDEX && n->nkids == 1 && n->kids[0]->kind == DSL_N_NAME &&
        strcmp(n->kids[0]->name, var) == 0 && n->a->kind == DSL_N_NAME) {
        const struct var *v = jit_find_var(c, n->a->name);
        if (v && v->param && floats(v->t) && u->nelide < 16) u->elide[u->nelide++] = n;
        return;
    }
    collect_accesses(u, c, n->a, var);
    collect_accesses(u, c, n->b, var);
    for (size_t i = 0; i < n->nkids; i++) collect_accesses(u, c, n->kids[i], var);
}

static bool has_continue(const struct dsl_node *n)
{
    if (!n || n->kind == DSL_N_FOR || n->kind == DSL_N_WHILE) return false;
    if (n->kind == DSL_N_CONTINUE) return true;
    if (has_continue(n->b)) return true;
    for (size_t i = 0; i < n->nkids; i++)
        if (has_continue(n->kids[i])) return true;
    return false;
}

/* The stride-aligned shortcut of the course's map (`out[i] = fn(in_storage[i])` over
 * prange(len(out))) is a loop the C compiler vectorises, unless every access is checked. In
 * the body of `for i in prange(n)`, when i is not assigned there and no `continue` skips
 * statements, an access storage[i] in a statement of the body's own (not under an if or a
 * loop) runs at every iteration: each chunk checks once that its last i is inside the storage,
 * and raises the IndexError the first access out of it would (the same index and size; in a
 * parallel loop, which failing iteration's error is raised is not fixed anyway). */
void jit_unchecked_accesses(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    u->nelide = 0;
    if (u->fns[0].f->jit_races || u->race_checks) return; /* every write is recorded */
    if (n->a->nkids != 1 || jit_assigns(n->b, n->name) || has_continue(n->b)) return;
    for (size_t i = 0; i < n->b->nkids; i++) {
        const struct dsl_node *st = n->b->kids[i];
        if (st->kind == DSL_N_ASSIGN || st->kind == DSL_N_AUG || st->kind == DSL_N_EXPR)
            collect_accesses(u, c, st, n->name);
    }
}
