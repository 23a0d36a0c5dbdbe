/* jit/jam.c — the loop-jam pass: an inner range loop of a nest whose iterations write
 * elements of their own runs its iterations in groups of JAM, each copy with names of its own,
 * so that gcc can keep the group's values in registers (a matrix multiply's inner product). */
#include "lib/jit/internal.h"

/* Whether n, an int, lies within a few times the length of the int arrays it is made of
 * (len(shape) - 1, -1): small constants, len() of an int array, + and -. */
bool jit_small_int(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    switch (n->kind) {
    case DSL_N_CONST:
        return n->value.kind == DSL_INT && n->value.as.i >= -65536 && n->value.as.i <= 65536;
    case DSL_N_UNARY: return n->op == DSL_T_MINUS && jit_small_int(u, c, n->a);
    case DSL_N_BINARY:
        return (n->op == DSL_T_PLUS || n->op == DSL_T_MINUS) && jit_small_int(u, c, n->a) &&
               jit_small_int(u, c, n->b);
    case DSL_N_CALL: {
        const struct var *v = n->nkids == 1 && !n->nkw && !n->flag && n->kids[0]->kind == DSL_N_NAME
                                  ? jit_find_var(c, n->kids[0]->name)
                                  : NULL;
        const struct jit_builtin *b = v && ints(v->t) ? jit_builtin_of(u, c, n->a) : NULL;
        return b && b->where == JB_PYTHON && b->role == JB_LENGTH;
    }
    default: return false;
    }
}

static bool jam_has(const char *const *list, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0) return true;
    return false;
}

/* Whether expression n is made of what cannot fail and writes nothing (names, numbers, + - *,
 * comparisons, a if c else b, element reads), every name of the copies in it already assigned
 * in the iteration (def), and its storage reads noted in j. */
static bool jam_expr(struct cfn *c, const struct dsl_node *n, struct jam *j, const char *const *def,
                     int ndef)
{
    switch (n->kind) {
    case DSL_N_CONST: return n->value.kind == DSL_INT || n->value.kind == DSL_FLOAT;
    case DSL_N_NAME: return !jam_has(j->names, j->nnames, n->name) || jam_has(def, ndef, n->name);
    case DSL_N_UNARY:
        return (n->op == DSL_T_MINUS || n->op == DSL_T_PLUS) && jam_expr(c, n->a, j, def, ndef);
    case DSL_N_BINARY:
        return (n->op == DSL_T_PLUS || n->op == DSL_T_MINUS || n->op == DSL_T_STAR) &&
               jam_expr(c, n->a, j, def, ndef) && jam_expr(c, n->b, j, def, ndef);
    case DSL_N_COND:
        return jam_expr(c, n->a, j, def, ndef) && jam_expr(c, n->b, j, def, ndef) &&
               jam_expr(c, n->kids[0], j, def, ndef);
    case DSL_N_COMPARE:
        for (size_t i = 0; i + 1 < n->nkids; i++)
            if (n->ops[i] != DSL_T_LT && n->ops[i] != DSL_T_LE && n->ops[i] != DSL_T_GT &&
                n->ops[i] != DSL_T_GE && n->ops[i] != DSL_T_EQ && n->ops[i] != DSL_T_NE)
                return false;
        for (size_t i = 0; i < n->nkids; i++)
            if (!jam_expr(c, n->kids[i], j, def, ndef)) return false;
        return true;
    case DSL_N_INDEX: {
        if (n->a->kind != DSL_N_NAME || n->nkids != 1 || !jam_expr(c, n->kids[0], j, def, ndef) ||
            jam_has(j->names, j->nnames, n->a->name))
            return false;
        const struct var *v = jit_find_var(c, n->a->name);
        if (!v || (!floats(v->t) && !ints(v->t))) return false;
        if (floats(v->t) && !jam_has(j->read, j->nread, n->a->name)) {
            if (j->nread == MAX_ARGS) return false;
            j->read[j->nread++] = n->a->name;
        }
        return true;
    }
    default: return false;
    }
}

/* The names statement n assigns (a name, or an augmented name), added to j->names. */
static bool jam_target(const struct dsl_node *n, struct jam *j)
{
    const char *name = NULL;
    if (n->kind == DSL_N_ASSIGN && n->nkids == 1 && n->kids[0]->kind == DSL_N_NAME)
        name = n->kids[0]->name;
    else if (n->kind == DSL_N_AUG && n->a->kind == DSL_N_NAME)
        name = n->a->name;
    else if (n->kind == DSL_N_FOR)
        name = n->name;
    if (!name || jam_has(j->names, j->nnames, name)) return true;
    if (j->nnames == JAM_NAMES) return false;
    j->names[j->nnames++] = name;
    return true;
}

/* One statement of the group (not the inner loop): an assignment of a name, an augmented
 * assignment of one (+ - *), or, after the inner loop, a store into a storage. */
static bool jam_stmt(struct cfn *c, const struct dsl_node *n, struct jam *j, const char **def,
                     int *ndef, bool after)
{
    if (n->kind == DSL_N_PASS) return true;
    const char *name = NULL;
    if (n->kind == DSL_N_AUG) {
        if (n->a->kind != DSL_N_NAME ||
            (n->op != DSL_T_PLUS && n->op != DSL_T_MINUS && n->op != DSL_T_STAR) ||
            !jam_has(def, *ndef, n->a->name) || !jam_expr(c, n->b, j, def, *ndef))
            return false;
        return true;
    }
    if (n->kind != DSL_N_ASSIGN || n->nkids != 1 || !jam_expr(c, n->a, j, def, *ndef)) return false;
    const struct dsl_node *t = n->kids[0];
    if (t->kind == DSL_N_NAME) {
        name = t->name;
    } else if (t->kind == DSL_N_INDEX && after && t->a->kind == DSL_N_NAME && t->nkids == 1 &&
               jam_expr(c, t->kids[0], j, def, *ndef)) {
        const struct var *v = jit_find_var(c, t->a->name);
        if (!v || !floats(v->t) || jam_has(j->names, j->nnames, t->a->name)) return false;
        if (!jam_has(j->wrote, j->nwrote, t->a->name)) {
            if (j->nwrote == MAX_ARGS) return false;
            j->wrote[j->nwrote++] = t->a->name;
        }
        return true;
    } else {
        return false;
    }
    const struct var *v = jit_find_var(c, name); /* none yet the first time it is compiled */
    if (v && (floats(v->t) || v->reduce)) return false;
    if (!jam_has(def, *ndef, name)) def[(*ndef)++] = name;
    return true;
}

/* Whether the range loop n runs its iterations in groups (see above): its body, statements of
 * jam_stmt around one inner `for k in range(...)` whose body is made of them too (no stores),
 * every variable of theirs assigned before it is read in an iteration, the inner loop's count
 * the same in every iteration. */
bool jit_jam_plan(struct unit *u, struct cfn *c, const struct dsl_node *n, struct jam *j)
{
    *j = (struct jam){0};
    if (c->f->jit_races || u->race_checks || !n->b || n->b->kind != DSL_N_BLOCK ||
        jit_has_jump(n->b) || u->pr_arr)
        return false;
    /* the names each copy has: the loop's variable and all the body assigns */
    if (!jam_target(n, j)) return false;
    for (size_t i = 0; i < n->b->nkids; i++) {
        const struct dsl_node *s = n->b->kids[i];
        if (s->kind == DSL_N_FOR) {
            if (j->inner || !s->name || !s->b || jit_has_loop(s->b)) return false;
            j->inner = s;
            if (!jam_target(s, j)) return false;
            for (size_t k = 0; k < s->b->nkids; k++)
                if (!jam_target(s->b->kids[k], j)) return false;
        } else if (!jam_target(s, j)) {
            return false;
        }
    }
    const struct dsl_node *m = j->inner;
    if (!m) return false;
    const struct dsl_node *it = m->a;
    if (it->kind != DSL_N_CALL || !jit_builtin_as(u, c, it->a, JB_RANGE) || it->nkw || it->flag ||
        it->nkids < 1 || it->nkids > 2)
        return false;
    const char *def[JAM_NAMES];
    int ndef = 0;
    def[ndef++] = n->name;
    bool after = false;
    for (size_t i = 0; i < n->b->nkids; i++) {
        const struct dsl_node *s = n->b->kids[i];
        if (s != m) {
            if (!jam_stmt(c, s, j, def, &ndef, after)) return false;
            continue;
        }
        after = true;
        for (size_t k = 0; k < it->nkids; k++) /* the same count in every copy */
            if (!jam_expr(c, it->kids[k], j, NULL, 0)) return false;
        def[ndef++] = m->name;
        for (size_t k = 0; k < m->b->nkids; k++)
            if (!jam_stmt(c, m->b->kids[k], j, def, &ndef, false)) return false;
    }
    for (int i = 0; i < j->nwrote; i++)
        if (jam_has(j->read, j->nread, j->wrote[i])) return false;
    return true;
}

/* #define (on) or #undef (off) the names of copy g, which is not the last: the last copy has
 * the variables themselves, so that they hold the last iteration's values after the loop. A
 * copy's name, j<g>_<name>, is none of a user's variables (all v_<name>). */
static void jam_names(struct unit *u, const struct jam *j, int g, bool on)
{
    if (g == JAM - 1) return;
    for (int i = 0; i < j->nnames; i++)
        if (on)
            jit_emit(u, "#define v_%s j%d_%s", j->names[i], g, j->names[i]);
        else
            jit_emit(u, "#undef v_%s", j->names[i]);
}

/* The statements of the block n from index from to index to, for each copy in turn. */
static int jam_copies(struct unit *u, struct cfn *c, const struct jam *j, const struct dsl_node *n,
                      size_t from, size_t to)
{
    for (int g = 0; g < JAM; g++) {
        jam_names(u, j, g, true);
        for (size_t i = from; i < to; i++)
            if (jit_stmt(u, c, n->kids[i]) != 0) return -1;
        jam_names(u, j, g, false);
    }
    return 0;
}

/* Appends to cond the test that the memory of each array the jammed loop writes is apart from
 * that of each it reads, which the groups' reordering of reads and writes needs. */
static int disjoint_test(struct unit *u, struct cfn *c, const struct dsl_node *n,
                         const struct jam *j, struct render_buf *cond)
{
    int r = 0;
    for (int w = 0; w < j->nwrote && r == 0; w++)
        for (int i = 0; i < j->nread && r == 0; i++) {
            struct ex a, b;
            ex_init(&a);
            ex_init(&b);
            r = jit_expr(
                u, c,
                &(struct dsl_node){.kind = DSL_N_NAME, .pos = n->pos, .name = (char *)j->wrote[w]},
                &a);
            if (r == 0)
                r = jit_expr(u, c,
                             &(struct dsl_node){
                                 .kind = DSL_N_NAME, .pos = n->pos, .name = (char *)j->read[i]},
                             &b);
            if (r == 0) /* the memory of the one written, apart from that of the one read */
                render_buf_printf(cond,
                                  " && ((uintptr_t)((%s).p + (%s).n) <= (uintptr_t)(%s).p || "
                                  "(uintptr_t)((%s).p + (%s).n) <= (uintptr_t)(%s).p)",
                                  a.s.data, a.s.data, b.s.data, b.s.data, b.s.data, a.s.data);
            ex_free(&a);
            ex_free(&b);
        }
    return r;
}

/* The inner loop m of a jammed nest (its counter q, its range's limits lim), once, its body in
 * each copy of the group; polled between blocks as strip_open's. */
static int jam_inner(struct unit *u, struct cfn *c, const struct jam *j, int q,
                     const struct ex *lim)
{
    const struct dsl_node *m = j->inner, *it = m->a;
    int r = 0;
    /* the inner loop, once, its body in each copy; polled between blocks as strip_open's */
    bool loop = c->top && u->in_prange;
    if (loop && ++u->nest > u->max_nest) u->max_nest = u->nest;
    jit_emit(u, "{");
    jit_emit(u, "int64_t r%d = %s, s%d = %s;", q, it->nkids == 2 ? lim[0].s.data : "0", q,
             it->nkids == 2 ? lim[1].s.data : lim[0].s.data);
    jit_emit(u, "int64_t e%d = s%d > r%d ? s%d - r%d : 0;", q, q, q, q, q);
    jit_emit(u, "for (int64_t i%d = 0; i%d < e%d;) {", q, q, q);
    u->loop_depth++;
    jit_emit(u, "if (i%d && jit_cancelled(env)) goto JIT_FAIL;", q);
    jit_emit(u, "int64_t b%d = e%d - i%d > 65536 ? i%d + 65536 : e%d;", q, q, q, q, q);
    jit_emit(u, "for (; i%d < b%d; i%d++) {", q, q, q);
    u->loop_depth++;
    for (int g = 0; g < JAM && r == 0; g++) {
        jam_names(u, j, g, true);
        jit_emit(u, "v_%s = r%d + i%d;", m->name, q, q);
        r = jit_block(u, c, m->b);
        jam_names(u, j, g, false);
    }
    u->loop_depth -= 2;
    jit_emit(u, "}");
    jit_emit(u, "}");
    jit_emit(u, "}");
    u->nest -= loop;
    return r;
}

/* The range loop n (ids k: r<k>, t<k>, e<k> set) run in groups of JAM iterations, then as
 * written for those left (see jam_plan). */
int jit_range_jammed(struct unit *u, struct cfn *c, const struct dsl_node *n, int k,
                     const struct jam *j)
{
    const struct dsl_node *m = j->inner, *it = m->a;
    size_t mi = 0;
    while (n->b->kids[mi] != m) mi++;
    struct render_buf cond;
    render_buf_init(&cond, 0);
    render_buf_printf(&cond, "e%d >= %d", k, JAM);
    int r = disjoint_test(u, c, n, j, &cond);
    struct ex lim[2];
    ex_init(&lim[0]);
    ex_init(&lim[1]);
    for (size_t i = 0; i < it->nkids && r == 0; i++) {
        r = jit_expr(u, c, it->kids[i], &lim[i]);
        if (r == 0 && lim[i].t != JT_INT && lim[i].t != JT_BOOL)
            r = jit_refuse(u, c, it, "range() of a %s", jit_type_name[lim[i].t]);
    }
    if (r == 0 && cond.nomem) r = dsl_raise_status(u->in, DSL_V_NOMEM);
    if (r == 0) {
        int q = u->tmp++;
        for (int g = 0; g < JAM - 1; g++) {
            struct render_buf d;
            render_buf_init(&d, 0);
            for (int i = 0; i < j->nnames; i++)
                render_buf_printf(&d, "__typeof__(v_%s) j%d_%s = v_%s; ", j->names[i], g,
                                  j->names[i], j->names[i]);
            jit_emit(u, "%s", d.data ? d.data : "");
            render_buf_free(&d);
        }
        jit_emit(u, "int64_t i%d = 0;", k);
        jit_emit(u, "if (%s) {", cond.data);
        u->loop_depth++;
        jit_emit(u, "#undef JIT_OOB");
        jit_emit(u, "#define JIT_OOB(where, j, n, what) goto jam%d", k);
        jit_emit(u, "for (; i%d + %d < e%d; i%d += %d) {", k, JAM - 1, k, k, JAM);
        u->loop_depth++;
        jit_emit(u, "if (((i%d + %d) & 65535) < %d && jit_cancelled(env)) goto JIT_FAIL;", k, JAM,
                 JAM);
        for (int g = 0; g < JAM; g++) {
            jam_names(u, j, g, true);
            jit_emit(u, "v_%s = r%d + (i%d + %d) * t%d;", n->name, k, k, g, k);
            jam_names(u, j, g, false);
        }
        r = jam_copies(u, c, j, n->b, 0, mi);
        struct var *mv;
        if (r == 0) r = jit_assign_var(u, c, m, m->name, JT_INT, 0, &mv); /* as for_loop's */
        if (r == 0 && u->in_prange && jit_expr_dep(c, it)) jit_set_dep(u, mv);
        if (r == 0) r = jam_inner(u, c, j, q, lim);
        if (r == 0) r = jam_copies(u, c, j, n->b, mi + 1, n->b->nkids);
        u->loop_depth--;
        jit_emit(u, "}");
        jit_emit(u, "#undef JIT_OOB");
        jit_emit(u, "#define JIT_OOB(where, j, n, what) JIT_OOB_FAIL(where, j, n, what)");
        u->loop_depth--;
        jit_emit(u, "}");
        jit_emit(u, "jam%d:;", k);
        /* the iterations left, as written */
        jit_emit(u, "for (; i%d < e%d; i%d++) {", k, k, k);
        u->loop_depth++;
        jit_emit(u, "if (((i%d + 1) & 65535) == 0 && jit_cancelled(env)) goto JIT_FAIL;", k);
        jit_emit(u, "v_%s = r%d + i%d * t%d;", n->name, k, k, k);
        int brk = u->brk;
        u->brk = -1;
        if (r == 0) r = jit_block(u, c, n->b);
        u->brk = brk;
        u->loop_depth--;
        jit_emit(u, "}");
        if (u->pass == JIT_PASS_EMIT && !u->jams++) {
            u->jam_line = n;
            u->jam_fn = c->f;
        }
    }
    ex_free(&lim[0]);
    ex_free(&lim[1]);
    render_buf_free(&cond);
    return r;
}
