/* jit/builtins.c — calls in compiled code: of the user's functions (compiled into the unit),
 * of the engine's scalar functions, and of the builtins the compiler knows. */
#include "lib/jit/internal.h"

/* fmt, a GNU statement expression "({ declarations; value; })", as the unit's target writes
 * it: unchanged for gcc, a lambda called at once for NVRTC (C++, without statement
 * expressions). The value is what follows the last ';' before the end. */
const char *jit_sx(const struct unit *u, const char *fmt, char *buf, size_t n)
{
    if (u->target != JIT_GPU) return fmt;
    size_t len = strlen(fmt);
    const char *end = fmt + len - 2; /* at "})"; then after the value */
    while (end > fmt + 2 && (end[-1] == ' ' || end[-1] == ';')) end--;
    const char *semi = end - 1; /* the ';' ending the declarations */
    while (semi > fmt + 2 && *semi != ';') semi--;
    snprintf(buf, n, "([&]() {%.*s; return%.*s; }())", (int)(semi - fmt - 2), fmt + 2,
             (int)(end - semi - 1), semi + 1);
    return buf;
}

/* A call of one of minitorch.operators' scalar functions (fn in the course's
 * tensor_map(njit()(operators.neg))), as the interpreter computes it (lib/modules.c): Python's
 * float arithmetic in doubles, and its errors (inv(0), log of x <= -1e-6, exp overflowing). */
static int operator_call(struct unit *u, struct cfn *c, const struct dsl_node *n, const char *op,
                         const struct ex *a, int na, struct ex *e)
{
    static const struct {
        const char *name;
        int nargs;
        const char *c; /* its C: %s each argument as a double, then %lld its place if it fails */
    } ops[] = {
        {"neg", 1, "(-(double)(%s))"},
        {"relu", 1, "({ double _x = (double)(%s); _x > 0 ? _x : 0.0; })"},
        {"sigmoid", 1, "jop_sigmoid((double)(%s))"},
        {"log", 1, "jop_log(env, (double)(%s), %lldLL)"},
        {"exp", 1, "jop_exp(env, (double)(%s), %lldLL)"},
        {"inv", 1, "jop_inv(env, (double)(%s), %lldLL)"},
        {"lt", 2, "((double)(%s) < (double)(%s) ? 1.0 : 0.0)"},
        {"eq", 2, "((double)(%s) == (double)(%s) ? 1.0 : 0.0)"},
        {"is_close", 2, "(fabs((double)(%s) - (double)(%s)) < 1e-2)"},
        {"relu_back", 2, "({ double _x = (double)(%s), _d = (double)(%s); _x > 0 ? _d : 0.0; })"},
        {"log_back", 2, "jop_log_back(env, (double)(%s), (double)(%s), %lldLL)"},
        {"inv_back", 2, "jop_inv_back(env, (double)(%s), (double)(%s), %lldLL)"}};
    for (int i = 0; i < na; i++)
        if (!numeric(a[i].t))
            return jit_refuse(u, c, n, "operators.%s of a %s", op, jit_type_name[a[i].t]);
    if (strcmp(op, "add") == 0 || strcmp(op, "mul") == 0) { /* x + y, x * y: Python's */
        if (na != 2) return jit_refuse(u, c, n, "operators.%s of %d values", op, na);
        struct dsl_node b = {.kind = DSL_N_BINARY,
                             .pos = n->pos,
                             .op = op[0] == 'a' ? DSL_T_PLUS : DSL_T_STAR,
                             .a = n->kids[0],
                             .b = n->kids[1]};
        return jit_binary(u, c, &b, e);
    }
    if (strcmp(op, "id") == 0 && na == 1) {
        e->t = a[0].t;
        render_buf_printf(&e->s, "(%s)", a[0].s.data);
        return 0;
    }
    if (strcmp(op, "max") == 0 && na == 2) { /* x if x > y else y: one of the two, as given */
        if (a[0].t != a[1].t)
            return jit_refuse(u, c, n, "operators.max of %s and %s values", jit_type_name[a[0].t],
                              jit_type_name[a[1].t]);
        e->t = a[0].t;
        char f[160];
        render_buf_printf(
            &e->s,
            jit_sx(u, "({%s _x = %s, _y = %s; (double)_x > (double)_y ? _x : _y;})", f, sizeof f),
            jit_c_type[e->t], a[0].s.data, a[1].s.data);
        return 0;
    }
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        if (strcmp(ops[k].name, op) != 0) continue;
        if (na != ops[k].nargs) return jit_refuse(u, c, n, "operators.%s of %d values", op, na);
        e->t = strcmp(op, "is_close") == 0 ? JT_BOOL : JT_FLOAT;
        if (strstr(ops[k].c, "%lld")) c->may_fail = u->soft_fail = true;
        char f[160];
        const char *fmt =
            ops[k].c[0] == '(' && ops[k].c[1] == '{' ? jit_sx(u, ops[k].c, f, sizeof f) : ops[k].c;
        if (na == 1)
            render_buf_printf(&e->s, fmt, a[0].s.data, jit_loc(c, n));
        else
            render_buf_printf(&e->s, fmt, a[0].s.data, a[1].s.data, jit_loc(c, n));
        return 0;
    }
    return jit_refuse(u, c, n, "operators.%s", op);
}

/* c calls a function that loops (a user function holding a loop, an index helper, a numpy
 * array predicate): so does c, and so do the iterations of the prange loop being compiled,
 * whose chunks are then JIT_CHUNK's, not JIT_CHUNK_LIGHT's. */
static void calls_loop(struct unit *u, struct cfn *c)
{
    c->loops = true;
    bool seen = false;
    for (int i = 0; i < u->ncalls_loops; i++) seen = seen || u->calls_loops[i] == u->cur_prange;
    if (u->in_prange && !seen && u->ncalls_loops < 8)
        u->calls_loops[u->ncalls_loops++] = u->cur_prange;
}

/* The C of a call of the unit's function fn (returning ret) with the arguments a[0..na) and
 * the text tail after them: fn(env, a..., tail). Where something before it in the statement
 * may have failed and gone on (guarded: its arguments), the arguments are evaluated first and
 * the call skipped if anything failed, as Python's call never happens: the function may write
 * arrays. 0, or -1 after raising (out of memory). */
static int call_text(struct unit *u, struct render_buf *b, const char *fn, const char *ret,
                     const struct ex *a, int na, const char *tail, bool guarded)
{
    struct render_buf t;
    render_buf_init(&t, 0);
    if (!guarded) {
        render_buf_printf(&t, "%s(env", fn);
        for (int i = 0; i < na; i++) render_buf_printf(&t, ", %s", a[i].s.data);
        render_buf_printf(&t, "%s)", tail ? tail : "");
    } else {
        int k = u->tmp++;
        render_buf_puts(&t, "({ ");
        for (int i = 0; i < na; i++)
            render_buf_printf(&t, "%s g%d_%d = %s; ", jit_c_type[a[i].t], k, i, a[i].s.data);
        render_buf_printf(&t, "env->failed ? (%s)0 : %s(env", ret, fn);
        for (int i = 0; i < na; i++) render_buf_printf(&t, ", g%d_%d", k, i);
        render_buf_printf(&t, "%s); })", tail ? tail : "");
    }
    if (t.nomem) {
        render_buf_free(&t);
        return dsl_raise_status(u->in, DSL_V_NOMEM);
    }
    if (guarded && u->target == JIT_GPU) { /* NVRTC: a lambda called at once (sx) */
        size_t n = t.len + 64;
        char *buf = malloc(n);
        if (!buf) {
            render_buf_free(&t);
            return dsl_raise_status(u->in, DSL_V_NOMEM);
        }
        render_buf_puts(b, jit_sx(u, t.data, buf, n));
        free(buf);
    } else {
        render_buf_puts(b, t.data);
    }
    render_buf_free(&t);
    return 0;
}

/* A call of a user function, an engine scalar function, or a builtin the compiler knows. */
int jit_call(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    if (n->nkw || n->flag) return jit_refuse(u, c, n, "keyword or * arguments in a call");
    const struct dsl_node *callee = n->a;
    struct ex a[MAX_ARGS];
    int na = (int)n->nkids;
    if (na > MAX_ARGS) return jit_refuse(u, c, n, "a call with more than %d arguments", MAX_ARGS);
    for (int i = 0; i < na; i++) ex_init(&a[i]);
    int r = -1;
    for (int i = 0; i < na; i++)
        if (jit_expr(u, c, n->kids[i], &a[i]) != 0) goto done;
    const char *name = callee->kind == DSL_N_NAME ? callee->name : NULL;
    if (callee->kind == DSL_N_ATTR && jit_cuda_module(u, c, callee->a)) {
        if (u->target == JIT_HOST) {
            jit_refuse(u, c, n, "cuda.%s() outside a cuda.jit kernel", callee->name);
            goto done;
        }
        if (strcmp(callee->name, "syncthreads") == 0 && na == 0) {
            /* every thread of the block meets here; in the simulator the thread's stack is
             * left for the next thread's, until all have come (or one failed) */
            e->t = JT_NONE;
            c->may_fail = true;
            if (u->target == JIT_GPU)
                render_buf_puts(&e->s, "__syncthreads()");
            else
                render_buf_printf(&e->s, "({ if (jit_sync(env, %lldLL)) goto JIT_FAIL; })",
                                  jit_loc(c, n));
            r = 0;
            goto done;
        }
        if (strcmp(callee->name, "grid") == 0 && na == 1 && n->kids[0]->kind == DSL_N_CONST &&
            dsl_is_intlike(n->kids[0]->value) && dsl_as_int(n->kids[0]->value) == 1) {
            e->t = JT_INT;
            render_buf_puts(&e->s, u->target == JIT_GPU
                                       ? "((int64_t)blockIdx.x * blockDim.x + threadIdx.x)"
                                       : "(env->bid[0] * env->block[0] + env->tid[0])");
            r = 0;
            goto done;
        }
        jit_refuse(u, c, n, "cuda.%s() with %d arguments", callee->name, na);
        goto done;
    }
    if (callee->kind == DSL_N_ATTR && callee->a->kind == DSL_N_NAME &&
        !jit_find_var(c, callee->a->name)) { /* operators.mul(x, y), the module under any name */
        const struct dsl_value *m = jit_outer_value(u, c, callee->a->name);
        const char *mod = m ? dsl_module_of(*m) : NULL;
        if (mod && strcmp(mod, "minitorch.operators") == 0) {
            r = operator_call(u, c, n, callee->name, a, na, e);
            goto done;
        }
    }
    if (callee->kind == DSL_N_ATTR && na == 0 &&
        (strcmp(callee->name, "any") == 0 || strcmp(callee->name, "all") == 0) &&
        callee->a->kind == DSL_N_COMPARE && callee->a->nkids == 2 &&
        (callee->a->ops[0] == DSL_T_NE || callee->a->ops[0] == DSL_T_EQ)) {
        /* (a != b).any(): the arrays compared element by element, as numpy's */
        struct ex x, y;
        ex_init(&x);
        ex_init(&y);
        r = jit_expr(u, c, callee->a->kids[0], &x);
        if (r == 0) r = jit_expr(u, c, callee->a->kids[1], &y);
        if (r == 0 && (!ints(x.t) || !ints(y.t)))
            r = jit_refuse(u, c, n, ".%s() of a comparison of a %s and a %s", callee->name,
                           jit_type_name[x.t], jit_type_name[y.t]);
        if (r == 0) {
            c->may_fail = u->soft_fail = true;
            e->t = JT_BOOL;
            calls_loop(u, c);
            render_buf_printf(&e->s, "jit_cmp_reduce(env, %s, %s, %d, %d, %lldLL)", x.s.data,
                              y.s.data, callee->a->ops[0] == DSL_T_NE, callee->name[1] == 'n',
                              jit_loc(c, n));
        }
        for (int i = 0; i < 2 && r == 0; i++) r = jit_read_whole(u, c, callee->a->kids[i], n);
        ex_free(&x);
        ex_free(&y);
        goto done;
    }
    const char *np = jit_numpy_attr(u, c, callee);
    if (np && strcmp(np, "prod") == 0 && na == 1 && ints(a[0].t)) {
        e->t = JT_INT;
        calls_loop(u, c);
        render_buf_printf(&e->s, "jit_prod(%s)", a[0].s.data);
        r = 0;
        goto done;
    }
    if (np && strcmp(np, "array_equal") == 0 && na == 2 && ints(a[0].t) && ints(a[1].t)) {
        e->t = JT_BOOL;
        calls_loop(u, c);
        render_buf_printf(&e->s, "jit_array_equal(%s, %s)", a[0].s.data, a[1].s.data);
        r = 0;
        goto done;
    }
    if (callee->kind == DSL_N_NAME && !jit_find_var(c, name)) {
        const struct dsl_value *v = jit_outer_value(u, c, name);
        if (v && v->kind == DSL_FUNCTION) {
            enum jt ts[MAX_ARGS];
            for (int i = 0; i < na; i++) ts[i] = a[i].t;
            for (int i = 0; i < na; i++) { /* the callee may write any of their elements */
                struct var *av =
                    n->kids[i]->kind == DSL_N_NAME ? jit_find_var(c, n->kids[i]->name) : NULL;
                if (av && av->buflen && !av->escapes) av->escapes = u->changed = true;
            }
            int id;
            if (jit_compile_fn(u, v->as.fn_user, ts, na, &id) != 0) goto done;
            if (u->fns[id].loops) calls_loop(u, c);
            /* the arrays the callee writes, this function writes */
            bool dep = false;
            for (int i = 0; i < na; i++) dep = dep || jit_expr_dep(c, n->kids[i]);
            for (int i = 0; i < na; i++) {
                struct var *av =
                    n->kids[i]->kind == DSL_N_NAME ? jit_find_var(c, n->kids[i]->name) : NULL;
                if (!av || !u->fns[id].vars[i].written) continue;
                jit_mark_written(u, c, av);
                if (jit_prange_write(u, c, av, n, NULL, v->as.fn_user->def->name, dep) != 0)
                    goto done;
                if (i == na - 1) jit_own_fill(u, c, av, n); /* the student's own to_index */
            }
            if (u->fns[id].stack > c->callee_stack) {
                c->callee_stack = u->fns[id].stack;
                c->deepest = id;
            }
            e->t = u->fns[id].ret;
            /* what failed before it in the statement (its arguments) ends the statement there,
             * as Python would: the call, which may write arrays, does not run */
            bool after_failure = u->soft_fail;
            if (u->fns[id].may_fail) c->may_fail = u->soft_fail = true;
            char fname[16];
            snprintf(fname, sizeof fname, "f%d", id);
            r = call_text(u, &e->s, fname, jit_c_type[e->t], a, na, NULL, after_failure);
            goto done;
        }
        if (v && v->kind == DSL_BUILTIN) {
            int kind, op;
            if (dsl_student_scalar(v->as.fn, &kind, &op)) {
                if (na != kind) {
                    jit_refuse(u, c, n, "%s takes %d numbers", v->as.fn->name, kind);
                    goto done;
                }
                for (int i = 0; i < na; i++)
                    if (!numeric(a[i].t)) {
                        jit_refuse(u, c, n, "%s of a %s", v->as.fn->name, jit_type_name[a[i].t]);
                        goto done;
                    }
                e->t = JT_FLOAT;
                if (kind == 1)
                    render_buf_printf(&e->s, "(double)mt_s_%s((float)(%s))",
                                      mt_map_name((enum mt_map_op)op), a[0].s.data);
                else
                    render_buf_printf(&e->s, "(double)mt_s_%s((float)(%s), (float)(%s))",
                                      mt_zip_name((enum mt_zip_op)op), a[0].s.data, a[1].s.data);
                r = 0;
                goto done;
            }
            const char *opname = dsl_operator_name(v->as.fn);
            if (opname) {
                r = operator_call(u, c, n, opname, a, na, e);
                goto done;
            }
            name = v->as.fn->name; /* a builtin under another name: known by its own */
        } else if (v) {
            jit_refuse(u, c, n, "a call of %s (%s)", name, dsl_type_name(*v));
            goto done;
        }
        bool imported = v != NULL; /* a builtin the session holds: from a module */
        /* MiniTorch's index helpers (minitorch.to_index, ...), as the course defines them */
        static const struct {
            const char *name;
            int nargs;
            enum jt ret;
        } helpers[] = {{"to_index", 3, JT_NONE},
                       {"broadcast_index", 4, JT_NONE},
                       {"index_to_position", 2, JT_INT}};
        for (size_t h = 0; h < sizeof helpers / sizeof helpers[0]; h++) {
            if (!imported || strcmp(name, helpers[h].name) != 0 || na != helpers[h].nargs) continue;
            for (int i = 0; i < na; i++)
                if (i == 0 && h == 0 ? !numeric(a[i].t) || a[i].t == JT_FLOAT : !ints(a[i].t)) {
                    jit_refuse(u, c, n, "%s() of a %s", name, jit_type_name[a[i].t]);
                    goto done;
                }
            if (helpers[h].ret == JT_NONE && a[na - 1].t == JT_ITUP) { /* Python's TypeError */
                jit_refuse(u, c, n, "%s() writing into a tuple (its last argument)", name);
                goto done;
            }
            e->t = helpers[h].ret;
            bool after_failure = u->soft_fail && helpers[h].ret == JT_NONE; /* (as f<n>'s) */
            if (h != 2) c->may_fail = u->soft_fail = true; /* index_to_position cannot fail */
            calls_loop(u, c);
            struct var *out = helpers[h].ret == JT_NONE && n->kids[na - 1]->kind == DSL_N_NAME
                                  ? jit_find_var(c, n->kids[na - 1]->name)
                                  : NULL;
            if (out) jit_mark_written(u, c, out);
            if (out && jit_prange_write(u, c, out, n, NULL, name, true) != 0) goto done;
            if (out) jit_own_fill(u, c, out, n);
            char fname[32], tail[96];
            snprintf(fname, sizeof fname, "jit_%s", name);
            int tl = snprintf(tail, sizeof tail, ", %lldLL", jit_loc(c, n));
            if (helpers[h].ret == JT_NONE) { /* it writes its last argument's first elements */
                const struct dsl_node *w = n->kids[na - 1];
                const struct var *wv = w->kind == DSL_N_NAME ? jit_find_var(c, w->name) : NULL;
                if (wv && wv->buflen && !wv->escapes)
                    snprintf(tail + tl, sizeof tail - (size_t)tl, ", &d_%s", wv->name);
                else /* gcc's unit has no NULL */
                    snprintf(tail + tl, sizeof tail - (size_t)tl, ", (int64_t *)0");
            }
            r = call_text(u, &e->s, fname, jit_c_type[e->t], a, na, tail, after_failure);
            goto done;
        }
        if (strcmp(name, "len") == 0 && na == 1) {
            if (a[0].t != JT_FARR && !ints(a[0].t)) {
                jit_refuse(u, c, n, "len() of a %s", jit_type_name[a[0].t]);
                goto done;
            }
            e->t = JT_INT;
            render_buf_printf(&e->s, "(%s).n", a[0].s.data);
            r = 0;
            goto done;
        }
        if ((strcmp(name, "int") == 0 || strcmp(name, "float") == 0) && na == 1 &&
            numeric(a[0].t)) {
            bool to_int = name[0] == 'i';
            e->t = to_int ? JT_INT : JT_FLOAT;
            if (to_int && a[0].t != JT_FLOAT)
                render_buf_printf(&e->s, "(int64_t)(%s)", a[0].s.data);
            else if (to_int) {
                c->may_fail = u->soft_fail = true;
                render_buf_printf(&e->s, "py_int(env, %s, %lldLL)", a[0].s.data, jit_loc(c, n));
            } else
                render_buf_printf(&e->s, "(double)(%s)", a[0].s.data);
            r = 0;
            goto done;
        }
        if ((strcmp(name, "min") == 0 || strcmp(name, "max") == 0) && na == 2 && numeric(a[0].t) &&
            numeric(a[1].t)) {
            e->t = join(a[0].t, a[1].t);
            const char *cmp = name[1] == 'i' ? "<" : ">";
            /* Python: the first of equal values */
            char f[160];
            render_buf_printf(
                &e->s, jit_sx(u, "({%s _x = %s, _y = %s; _y %s _x ? _y : _x;})", f, sizeof f),
                jit_c_type[e->t], a[0].s.data, a[1].s.data, cmp);
            r = 0;
            goto done;
        }
        if (strcmp(name, "abs") == 0 && na == 1 && a[0].t == JT_FLOAT) { /* abs(-0.0) is 0.0 */
            e->t = JT_FLOAT;
            render_buf_printf(&e->s, "fabs(%s)", a[0].s.data);
            r = 0;
            goto done;
        }
        if (strcmp(name, "abs") == 0 && na == 1 && numeric(a[0].t)) {
            e->t = JT_INT;
            char f[160];
            render_buf_printf(&e->s, jit_sx(u, "({%s _x = %s; _x < 0 ? -_x : _x;})", f, sizeof f),
                              jit_c_type[e->t], a[0].s.data);
            r = 0;
            goto done;
        }
    }
    jit_refuse(u, c, n, "this call");
done:
    /* an array given to a function (but len) may be read anywhere: a shared one the loop
     * writes, another iteration's elements */
    for (int i = 0; i < na && r == 0 && !(name && strcmp(name, "len") == 0 && na == 1); i++)
        r = jit_read_whole(u, c, n->kids[i], n);
    for (int i = 0; i < na; i++) ex_free(&a[i]);
    return r;
}
