/* jit/expr.c — expressions: names, constants, reads of array elements (bounds-checked, and
 * counted per access site in the simulator), arithmetic with Python's meaning (// and % floor,
 * division by zero an error), comparisons. Calls are jit/builtins.c's. */
#include "lib/jit/internal.h"

/* arr[i] as a bounds-checked read. */
/* A memory access site of the simulator's unit (kind 0 global read, 1 global write, 2 shared
 * read, 3 shared write, of elements of `size` bytes): its number, registered in the final pass
 * (the site table is the final C's). */
int jit_access_site(struct unit *u, const struct cfn *c, const struct dsl_node *n, int kind,
                    int size, const char *name)
{
    if (u->pass != JIT_PASS_EMIT) return 0;
    render_buf_printf(&u->sites, "    {%lldLL, \"%s\", %d, %d},\n", jit_loc(c, n), name, kind,
                      size);
    return u->nsites++;
}

/* The shared array n indexes (n an INDEX node), or NULL. */
struct var *jit_shared_of(struct cfn *c, const struct dsl_node *n)
{
    struct var *v = n->a->kind == DSL_N_NAME ? jit_find_var(c, n->a->name) : NULL;
    return v && v->t == JT_SARR ? v : NULL;
}

/* The element of shared array v that index node n reaches: its number in the array, each
 * index checked against its dim, into *k. */
int jit_shared_index(struct unit *u, struct cfn *c, const struct dsl_node *n, const struct var *v,
                     struct render_buf *k)
{
    if ((int)n->nkids != v->sh_nd)
        return jit_refuse(u, c, n, "%s, of %d dims, indexed with %u values", v->name, v->sh_nd,
                          n->nkids);
    c->may_fail = true;
    render_buf_puts(k, "(INT64_C(0)");
    for (int d = 0; d < v->sh_nd; d++) {
        struct ex i;
        ex_init(&i);
        int r = jit_expr(u, c, n->kids[d], &i);
        if (r == 0 && i.t != JT_INT && i.t != JT_BOOL)
            r = jit_refuse(u, c, n, "an index that is a %s", jit_type_name[i.t]);
        if (r == 0)
            render_buf_printf(k, " * INT64_C(%lld) + CHK(%s, INT64_C(%lld), %lldLL, \"%s\")",
                              (long long)v->sh_dim[d], i.s.data, (long long)v->sh_dim[d],
                              jit_loc(c, n), v->name);
        ex_free(&i);
        if (r != 0) return r;
    }
    render_buf_puts(k, ")");
    return 0;
}

static int index_load(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    struct var *sv = jit_shared_of(c, n);
    if (sv) { /* the simulator records who read it, for its races and unwritten reads */
        struct render_buf k;
        render_buf_init(&k, 0);
        int r = jit_shared_index(u, c, n, sv, &k);
        e->t = sv->sh_dt == 'd' || sv->sh_dt == 'f' ? JT_FLOAT : JT_INT;
        if (r == 0) u->em->shared_read(u, c, n, sv, k.data, e);
        render_buf_free(&k);
        return r;
    }
    if (n->nkids != 1) return jit_refuse(u, c, n, "an index of several values");
    struct ex a, i;
    ex_init(&a);
    ex_init(&i);
    int r = -1;
    if (jit_expr(u, c, n->a, &a) != 0 || jit_expr(u, c, n->kids[0], &i) != 0) goto done;
    if (!floats(a.t) && !ints(a.t)) {
        jit_refuse(u, c, n, "indexing a %s", jit_type_name[a.t]);
        goto done;
    }
    if (i.t != JT_INT && i.t != JT_BOOL) {
        jit_refuse(u, c, n, "an index that is a %s", jit_type_name[i.t]);
        goto done;
    }
    e->t = floats(a.t) ? JT_FLOAT : JT_INT;
    /* a read of an array the prange loop's iterations share: of the iteration's own element,
     * or recorded (racy) where the loop writes the array */
    struct var *rv =
        u->in_prange && c->top && n->a->kind == DSL_N_NAME ? jit_find_var(c, n->a->name) : NULL;
    if (rv && rv->alias_of) rv = jit_find_var(c, rv->alias_of);
    if (rv && jit_shared_mem(rv) && rv->t != JT_ITUP &&
        jit_prange_access(u, c, rv, n->kids[0], n) != 0)
        goto done;
    if (jit_promoted(u, n)) {
        render_buf_printf(&e->s, "(double)pv%d", u->pr_id);
        r = 0;
        goto done;
    }
    if (jit_elided(u, n)) {
        render_buf_printf(&e->s, "%s(%s).p[%s]", floats(a.t) ? "(double)" : "", a.s.data, i.s.data);
        r = 0;
        goto done;
    }
    c->may_fail = true;
    const char *an = n->a->kind == DSL_N_NAME ? n->a->name : "an array";
    bool racy = rv && rv->pl[u->pno].racy;
    if (rv && rv->param && floats(rv->t) && rv->pl[u->pno].written && (racy || c->f->jit_races))
        render_buf_printf(&e->s,
                          "({ int64_t k_ = CHK(%s, (%s).n, %lldLL, \"%s\"); "
                          "RACE_READ%s(%d, k_, (%s).n, %s%s, %lldLL, \"%s\"); "
                          "(double)(%s).p[k_]; })",
                          i.s.data, a.s.data, jit_loc(c, n), an, racy ? "_ALWAYS" : "",
                          (int)(rv - c->vars), a.s.data, ITERATION(u), jit_loc(c, n), rv->name,
                          a.s.data);
    else if (u->em->counted && floats(a.t)) /* a kernel's array: global memory, counted */
        render_buf_printf(
            &e->s, "(double)*(%s *)jit_gmem(env, %d, &(%s).p[CHK(%s, (%s).n, %lldLL, \"%s\")])",
            jit_elem_c(a.t), jit_access_site(u, c, n, 0, jit_elem_size(a.t), an), a.s.data,
            i.s.data, a.s.data, jit_loc(c, n), an);
    else
        render_buf_printf(&e->s, "%s(%s).p[CHK(%s, (%s).n, %lldLL, \"%s\")]",
                          floats(a.t) ? "(double)" : "", a.s.data, i.s.data, a.s.data,
                          jit_loc(c, n), an);
    r = 0;
done:
    ex_free(&a);
    ex_free(&i);
    return r;
}

int jit_binary(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    struct ex a, b;
    ex_init(&a);
    ex_init(&b);
    int r = -1;
    if (jit_expr(u, c, n->a, &a) != 0 || jit_expr(u, c, n->b, &b) != 0) goto done;
    if (!numeric(a.t) || !numeric(b.t)) {
        jit_refuse(u, c, n, "arithmetic on a %s and a %s", jit_type_name[a.t], jit_type_name[b.t]);
        goto done;
    }
    enum jt t = join(a.t, b.t);
    if (t == JT_BOOL) t = JT_INT; /* True + True is 2, as Python's bools are ints */
    long long line = jit_loc(c, n);
    switch (n->op) {
    case DSL_T_PLUS:
    case DSL_T_MINUS:
    case DSL_T_STAR:
        e->t = t;
        render_buf_printf(&e->s, "(%s %c %s)", a.s.data,
                          n->op == DSL_T_PLUS    ? '+'
                          : n->op == DSL_T_MINUS ? '-'
                                                 : '*',
                          b.s.data);
        break;
    case DSL_T_SLASH:
        c->may_fail = u->soft_fail = true;
        e->t = JT_FLOAT;
        render_buf_printf(&e->s, "py_fdiv(env, %s, %s, %lldLL, \"%sdivision by zero\")", a.s.data,
                          b.s.data, line, a.t == JT_FLOAT || b.t == JT_FLOAT ? "float " : "");
        break;
    case DSL_T_DSLASH:
    case DSL_T_PERCENT:
        c->may_fail = u->soft_fail = true;
        e->t = t;
        render_buf_printf(&e->s, "%s_%s(env, %s, %s, %lldLL)", t == JT_FLOAT ? "pyf" : "py",
                          n->op == DSL_T_DSLASH ? "div" : "mod", a.s.data, b.s.data, line);
        break;
    case DSL_T_DSTAR:
        /* Python: an int to a power that is a non-negative int is an int */
        if (t != JT_FLOAT && n->b->kind == DSL_N_CONST && dsl_is_intlike(n->b->value) &&
            dsl_as_int(n->b->value) >= 0) {
            e->t = JT_INT;
            c->may_fail = u->soft_fail = true;
            render_buf_printf(&e->s, "py_ipow(env, %s, %s, %lldLL)", a.s.data, b.s.data, line);
        } else if (t != JT_FLOAT && u->em->kernel) {
            /* a kernel's 2 ** x: an int, as Numba types it (a negative power is an error) */
            e->t = JT_INT;
            c->may_fail = u->soft_fail = true;
            render_buf_printf(&e->s, "py_ipow(env, %s, %s, %lldLL)", a.s.data, b.s.data, line);
        } else {
            e->t = JT_FLOAT;
            c->may_fail = u->soft_fail = true;
            render_buf_printf(&e->s, "pyf_pow(env, (double)(%s), (double)(%s), %lldLL)", a.s.data,
                              b.s.data, line);
        }
        break;
    default: jit_refuse(u, c, n, "this operator"); goto done;
    }
    r = 0;
done:
    ex_free(&a);
    ex_free(&b);
    return r;
}

static int compare(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    e->t = JT_BOOL;
    render_buf_puts(&e->s, "(1");
    for (size_t k = 0; k + 1 < n->nkids; k++) { /* a < b < c: each pair, as Python */
        struct ex a, b;
        ex_init(&a);
        ex_init(&b);
        int r = jit_expr(u, c, n->kids[k], &a);
        if (r == 0) r = jit_expr(u, c, n->kids[k + 1], &b);
        const char *op = NULL;
        switch (n->ops[k]) {
        case DSL_T_LT: op = "<"; break;
        case DSL_T_LE: op = "<="; break;
        case DSL_T_GT: op = ">"; break;
        case DSL_T_GE: op = ">="; break;
        case DSL_T_EQ: op = "=="; break;
        case DSL_T_NE: op = "!="; break;
        default: break;
        }
        if (r == 0 && (!op || !numeric(a.t) || !numeric(b.t)))
            r = jit_refuse(u, c, n, "this comparison");
        if (r == 0) render_buf_printf(&e->s, " && (%s %s %s)", a.s.data, op, b.s.data);
        ex_free(&a);
        ex_free(&b);
        if (r != 0) return -1;
    }
    render_buf_puts(&e->s, ")");
    return 0;
}

/* An int constant as C: the smallest int as an expression, since -9223372036854775808 is the
 * negation of a literal that does not fit (an unsigned one for tcc). */
static void put_int(struct render_buf *b, int64_t x)
{
    if (x == INT64_MIN)
        render_buf_puts(b, "JIT_INT64_MIN");
    else
        render_buf_printf(b, "INT64_C(%lld)", (long long)x);
}

/* A float constant as C: exact (hexadecimal), infinities and NaN by the prelude's names (C has
 * no literal for them; printf's "inf" is not C). */
static void put_double(struct render_buf *b, double x)
{
    if (isnan(x))
        render_buf_puts(b, "JIT_NAN");
    else if (isinf(x))
        render_buf_puts(b, x > 0 ? "JIT_INF" : "(-JIT_INF)");
    else
        render_buf_printf(b, signbit(x) ? "(%a)" : "%a", x); /* -1.0 after a minus: not "--" */
}

/* A name: a local, or a global or enclosing int or float, written into the C as a constant. */
static int name_load(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    struct var *v = jit_find_var(c, n->name);
    if (v) {
        if (v->t == JT_NONE) return jit_refuse(u, c, n, "a variable read before it is assigned");
        if (v->t == JT_SARR)
            return jit_refuse(u, c, n, "the shared array %s other than indexed", n->name);
        if (v->in_loop && !u->in_prange)
            return jit_refuse(u, c, n, "%s read after the prange loop that assigns it", n->name);
        if (v->reduce && u->in_prange && !v->in_loop && (!u->aug || strcmp(u->aug, v->name)) &&
            jit_race(u, c, n,
                     "%s is summed up by the prange loop (%s %c= ...) and read inside it: "
                     "each thread has its own partial %s until the loop ends, so the value "
                     "read would be none of them. Read it after the loop",
                     v->name, v->name, v->reduce, v->name) != 0)
            return -1;
        e->t = v->t;
        render_buf_printf(&e->s, "v_%s", n->name);
        return 0;
    }
    const struct dsl_value *g = jit_outer_value(u, c, n->name);
    if (g && dsl_is_intlike(*g)) {
        e->t = JT_INT;
        put_int(&e->s, dsl_as_int(*g));
        return 0;
    }
    if (g && g->kind == DSL_FLOAT) {
        e->t = JT_FLOAT;
        put_double(&e->s, g->as.f);
        return 0;
    }
    return jit_refuse(u, c, n, "the name %s here", n->name);
}

/* An attribute of the table (cuda.threadIdx.x and its kin, this thread's place in the launch;
 * cuda.warpsize): its row's C, of the member named after it where the row takes one. */
static int attribute(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    const struct jit_builtin *b = jit_builtin_as(u, c, n, JB_ATTRIBUTE);
    const char *member = NULL;
    if (!b && n->a->kind == DSL_N_ATTR) {
        b = jit_builtin_as(u, c, n->a, JB_ATTRIBUTE);
        member = n->name;
    }
    bool dim = member && member[0] >= 'x' && member[0] <= 'z' && !member[1];
    if (!b || (b->nargs == 1) != dim) return jit_refuse(u, c, n, "the attribute .%s here", n->name);
    if (!u->em->kernel) return jit_refuse(u, c, n, "cuda.%s outside a cuda.jit kernel", b->name);
    const char *fmt = b->emit[u->em->target] ? b->emit[u->em->target] : b->emit[JIT_HOST];
    e->t = b->ret;
    render_buf_printf(&e->s, fmt, member);
    return 0;
}

int jit_expr(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    switch (n->kind) {
    case DSL_N_CONST:
        if (n->value.kind == DSL_INT || n->value.kind == DSL_BOOL) {
            e->t = n->value.kind == DSL_BOOL ? JT_BOOL : JT_INT;
            put_int(&e->s, dsl_as_int(n->value));
            return 0;
        }
        if (n->value.kind == DSL_FLOAT) {
            e->t = JT_FLOAT;
            put_double(&e->s, n->value.as.f);
            return 0;
        }
        return jit_refuse(u, c, n, "a constant of type %s", dsl_type_name(n->value));
    case DSL_N_NAME: return name_load(u, c, n, e);
    case DSL_N_UNARY: {
        if (n->op == DSL_T_TILDE) return jit_refuse(u, c, n, "this operator");
        int r = jit_expr(u, c, n->a, e);
        if (r != 0) return r;
        if (!numeric(e->t)) return jit_refuse(u, c, n, "a sign on a %s", jit_type_name[e->t]);
        if (e->t == JT_BOOL) e->t = JT_INT;
        struct render_buf s;
        render_buf_init(&s, 0);
        render_buf_printf(&s, "(%s%s)", n->op == DSL_T_MINUS ? "-" : "+", e->s.data);
        render_buf_free(&e->s);
        e->s = s;
        return 0;
    }
    case DSL_N_NOT:
    case DSL_N_AND:
    case DSL_N_OR: {
        struct ex a, b;
        ex_init(&a);
        ex_init(&b);
        int r = jit_expr(u, c, n->a, &a);
        if (r == 0 && n->kind != DSL_N_NOT) r = jit_expr(u, c, n->b, &b);
        if (r == 0 && (!numeric(a.t) || (n->kind != DSL_N_NOT && !numeric(b.t))))
            r = jit_refuse(u, c, n, "and, or, not of values that are not numbers");
        enum jt t = n->kind == DSL_N_NOT ? JT_BOOL : join(a.t, b.t);
        if (r == 0 && t == JT_BOOL) {
            e->t = JT_BOOL;
            if (n->kind == DSL_N_NOT)
                render_buf_printf(&e->s, "(!(%s))", a.s.data);
            else
                render_buf_printf(&e->s, "((%s) %s (%s))", a.s.data,
                                  n->kind == DSL_N_AND ? "&&" : "||", b.s.data);
        } else if (r == 0) { /* `a and b` is a when a is false, else b (b runs only then) */
            e->t = t;
            char f[200];
            render_buf_printf(&e->s,
                              jit_sx(u,
                                     n->kind == DSL_N_AND
                                         ? "({%s _a = (%s)(%s); _a ? (%s)(%s) : _a;})"
                                         : "({%s _a = (%s)(%s); _a ? _a : (%s)(%s);})",
                                     f, sizeof f),
                              jit_c_type[t], jit_c_type[t], a.s.data, jit_c_type[t], b.s.data);
        }
        ex_free(&a);
        ex_free(&b);
        return r;
    }
    case DSL_N_BINARY: return jit_binary(u, c, n, e);
    case DSL_N_COMPARE: return compare(u, c, n, e);
    case DSL_N_COND: {
        struct ex a, b, k;
        ex_init(&a);
        ex_init(&b);
        ex_init(&k);
        int r = jit_expr(u, c, n->a, &a);
        if (r == 0) r = jit_expr(u, c, n->b, &b);
        if (r == 0) r = jit_expr(u, c, n->kids[0], &k);
        if (r == 0 && (!numeric(a.t) || !numeric(b.t) || !numeric(k.t)))
            r = jit_refuse(u, c, n, "a conditional expression of values that are not numbers");
        if (r == 0) {
            e->t = join(a.t, b.t);
            render_buf_printf(&e->s, "((%s) ? (%s)(%s) : (%s)(%s))", k.s.data, jit_c_type[e->t],
                              a.s.data, jit_c_type[e->t], b.s.data);
        }
        ex_free(&a);
        ex_free(&b);
        ex_free(&k);
        return r;
    }
    case DSL_N_INDEX: return index_load(u, c, n, e);
    case DSL_N_ATTR: return attribute(u, c, n, e);
    case DSL_N_CALL: return jit_call(u, c, n, e);
    default: return jit_refuse(u, c, n, "this expression");
    }
}
