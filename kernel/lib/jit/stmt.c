/* jit/stmt.c — statements: assignments (a local's type made or widened), stores into arrays,
 * local and shared arrays, if, while, return, raise and blocks. */
#include "lib/jit/internal.h"

/* assert cond or assert cond, "message": AssertionError with the message when cond is false
 * (MiniTorch's convolution templates check their shapes so) */
static int stmt_assert(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    const struct dsl_node *m = n->b;
    if (m && (m->kind != DSL_N_CONST || m->value.kind != DSL_STR))
        return jit_refuse(u, c, n, "an assert whose message is not a string constant");
    struct ex e;
    ex_init(&e);
    int r = jit_expr(u, c, n->a, &e);
    if (r == 0 && !numeric(e.t))
        r = jit_refuse(u, c, n, "a condition that is a %s", jit_type_name[e.t]);
    if (r == 0) {
        /* the message as a C string: octal escapes for anything but plain printable ASCII */
        struct render_buf lit;
        render_buf_init(&lit, 0);
        for (const unsigned char *p = m ? (const unsigned char *)m->value.as.s->data
                                        : (const unsigned char *)"";
             *p; p++) {
            if (*p >= 32 && *p < 127 && *p != '"' && *p != '\\' && *p != '?')
                render_buf_putc(&lit, (char)*p);
            else
                render_buf_printf(&lit, "\\%03o", *p);
        }
        c->may_fail = true;
        jit_emit(u,
                 "if (!(%s)) { jit_fail(env, JIT_E_ASSERT, %lldLL, 0, 0, \"%s\"); goto JIT_FAIL; }",
                 e.s.data, jit_loc(c, n), render_buf_str(&lit));
        render_buf_free(&lit);
    }
    ex_free(&e);
    return r;
}

static int stmt_body(struct unit *u, struct cfn *c, const struct dsl_node *n);

/* The local `name` assigned a value of type t here: created or widened. */
int jit_assign_var(struct unit *u, struct cfn *c, const struct dsl_node *at, const char *name,
                   enum jt t, int64_t buflen, struct var **out)
{
    struct var *v = jit_find_var(c, name);
    if (!v) { /* as in Python, a name assigned in the body is a local of it */
        if (c->nvars == MAX_VARS)
            return jit_refuse(u, c, at, "more than %d local variables", MAX_VARS);
        v = &c->vars[c->nvars++];
        *v = (struct var){.name = name, .t = t, .in_loop = u->in_prange, .buflen = buflen};
        u->changed = true;
    } else {
        if (u->in_prange && !v->in_loop &&
            jit_race(u, c, at,
                     "%s is assigned before the prange loop and again inside it: every "
                     "iteration runs at once on its own thread, so they would all write "
                     "the same variable (a race). Assign it inside the loop only, or "
                     "accumulate into the output array at the iteration's own position",
                     name) != 0)
            return -1;
        if ((v->buflen != 0) != (buflen != 0) || (buflen && v->buflen != buflen))
            return jit_refuse(u, c, at, "%s holding arrays of different lengths", name);
        enum jt j = v->t == JT_NONE ? t : join(v->t, t);
        if (j == JT_NONE)
            return jit_refuse(u, c, at, "%s holding a %s and a %s", name, jit_type_name[v->t],
                              jit_type_name[t]);
        if (j != v->t) {
            v->t = j;
            u->changed = true;
        }
    }
    if (u->in_prange && c->top) { /* where, within an iteration, it takes its values */
        if (!v->pset) v->pset = at;
        /* but the variable of each of the function's prange loops, each loop's own */
        if (v->pset != at && !u->prange_head && !v->ptwice) v->ptwice = u->changed = true;
        if (u->nest > 0 && !v->pinner) v->pinner = u->changed = true;
    }
    *out = v;
    return 0;
}

static int64_t const_int(struct unit *u, struct cfn *c, const struct dsl_node *k)
{
    int64_t val;
    if (k->kind == DSL_N_CONST && dsl_is_intlike(k->value)) return dsl_as_int(k->value);
    if (k->kind == DSL_N_NAME && jit_find_var(c, k->name) && jit_local_const(c, k->name, &val))
        return val;
    if (k->kind == DSL_N_NAME && !jit_find_var(c, k->name)) {
        const struct dsl_value *g = jit_outer_value(u, c, k->name);
        if (g && dsl_is_intlike(*g)) return dsl_as_int(*g);
    }
    return 0;
}

/* The length n of a local array of n int zeros, one of n at most MAX_ARRAY: the length
 * given as a constant (or a global or enclosing int). */
static int64_t array_length(struct unit *u, struct cfn *c, const struct dsl_node *v,
                            const struct dsl_node *k, const char *what)
{
    int64_t len = const_int(u, c, k);
    if (len > 0 && len <= MAX_ARRAY) return len;
    if (len > MAX_ARRAY)
        return jit_refuse(u, c, v,
                          "%s of %lld elements: a local array has at most %d (it lives on "
                          "each thread's stack)",
                          what, (long long)len, MAX_ARRAY);
    return jit_refuse(u, c, v, "%s whose length is not a positive int constant", what);
}

/* The length of [0] * n or np.zeros(n, np.int32), n a constant (or a global or enclosing
 * int): a local int array of zeros; 0 when v is not that, -1 after refusing one that is (too
 * long, or of another kind). */
static int64_t array_literal(struct unit *u, struct cfn *c, const struct dsl_node *v)
{
    const struct jit_builtin *b =
        v->kind == DSL_N_CALL && !v->flag ? jit_builtin_of(u, c, v->a) : NULL;
    if (b && b->role == JB_LOCAL_ARRAY && b->where == JB_CUDA_LOCAL && v->nkw == 0 &&
        v->nkids == 2) {
        /* cuda.local.array(n, numba.int32): each CUDA thread's own ints */
        char dt = jit_dtype_code(u, c, v->kids[1]);
        if (dt != 'i' && dt != 'l')
            return jit_refuse(u, c, v,
                              "cuda.local.array of %s (compiled code keeps int32 and int64 "
                              "local arrays)",
                              dt ? "floats" : "this dtype");
        return array_length(u, c, v, v->kids[0], "cuda.local.array");
    }
    if (v->kind == DSL_N_CALL && !v->flag) { /* np.zeros(n, np.int32), dtype= too */
        const struct dsl_node *dtype = v->nkids == 2 ? v->kids[1] : NULL;
        if (v->nkw == 1 && strcmp(v->kwnames[0], "dtype") == 0 && !dtype)
            dtype = v->kwvals[0];
        else if (v->nkw)
            return 0;
        char dt = dtype ? jit_dtype_code(u, c, dtype) : 0;
        if (!b || b->role != JB_LOCAL_ARRAY || b->where != JB_NUMPY || v->nkids < 1 ||
            v->nkids > 2 || (dt != 'i' && dt != 'l'))
            return 0;
        return array_length(u, c, v, v->kids[0], "np.zeros");
    }
    if (v->kind != DSL_N_BINARY || v->op != DSL_T_STAR) return 0;
    const struct dsl_node *l = v->a, *k = v->b;
    if (l->kind != DSL_N_LIST) l = v->b, k = v->a;
    if (l->kind != DSL_N_LIST || l->nkids != 1 || l->kids[0]->kind != DSL_N_CONST ||
        !dsl_is_intlike(l->kids[0]->value) || dsl_as_int(l->kids[0]->value) != 0)
        return 0;
    int64_t len = const_int(u, c, k);
    if (len > MAX_ARRAY) return array_length(u, c, v, k, "[0] * n");
    return len > 0 ? len : 0;
}

/* name = value: the local made or widened; another name for an array stands for that array. */
static int store_name(struct unit *u, struct cfn *c, const struct dsl_node *target,
                      const char *value, enum jt vt, const struct dsl_node *at,
                      const struct dsl_node *from)
{
    struct var *v;
    struct var *src = NULL;
    if (from && from->kind == DSL_N_NAME && (ints(vt) || floats(vt))) { /* another name */
        src = jit_find_var(c, from->name);
        if (src && src->buflen && !src->escapes) src->escapes = u->changed = true;
    }
    /* an array name stands for one array: what it writes is recorded (for backward, the
     * copy back from a GPU, the race records) as that array's */
    const struct var *old = src && vt != JT_ITUP ? jit_find_var(c, target->name) : NULL;
    const char *root = src ? (src->alias_of ? src->alias_of : src->name) : NULL;
    if (old && (floats(old->t) || old->t == JT_IARR) && strcmp(root, target->name) != 0 &&
        (old->param || old->buflen || (old->alias_of && strcmp(old->alias_of, root) != 0)))
        return jit_refuse(u, c, at, "%s given two different arrays (%s, then %s)", target->name,
                          old->alias_of ? old->alias_of : target->name, root);
    if (jit_assign_var(u, c, at, target->name, vt, 0, &v) != 0) return -1;
    if (src && !v->alias_of) { /* its memory is the first name's: an iteration's, or not */
        v->alias_of = src->alias_of ? src->alias_of : src->name;
        u->changed = true;
    }
    if (src && u->in_prange && v->in_loop && jit_shared_mem(src) && !v->alias_shared)
        v->alias_shared = u->changed = true;
    if (u->in_prange && jit_expr_dep(c, from)) jit_set_dep(u, v);
    if (u->in_prange && numeric(vt)) jit_index_assigned(u, c, v, from);
    jit_emit(u, "v_%s = %s;", target->name, value);
    return 0;
}

/* shared[i] = value, into block memory sv (the simulator records who wrote it). */
static int store_shared(struct unit *u, struct cfn *c, const struct dsl_node *target,
                        struct var *sv, const char *value, enum jt vt, const struct dsl_node *at)
{
    if (!numeric(vt)) return jit_refuse(u, c, at, "storing a %s", jit_type_name[vt]);
    if ((sv->sh_dt == 'i' || sv->sh_dt == 'l') && vt == JT_FLOAT)
        return jit_refuse(u, c, at, "storing a float into %s, an int array", sv->name);
    struct render_buf k;
    render_buf_init(&k, 0);
    int r = jit_shared_index(u, c, target, sv, &k);
    if (r == 0) u->em->shared_write(u, c, at, target, sv, k.data, value);
    render_buf_free(&k);
    return r;
}

/* a[i] = value: bounds-checked, and recorded where a race may be (the prange loop's shared
 * storage, the simulator's global memory); into a register's copy where promoted. */
static int store_element(struct unit *u, struct cfn *c, const struct dsl_node *target,
                         const char *value, enum jt vt, const struct dsl_node *at)
{
    struct ex a, i;
    ex_init(&a);
    ex_init(&i);
    int r = jit_expr(u, c, target->a, &a);
    if (r == 0) r = jit_expr(u, c, target->kids[0], &i);
    if (r == 0 && !floats(a.t) && a.t != JT_IARR) /* a tuple too: Python's TypeError */
        r = jit_refuse(u, c, at, "assigning into a %s", jit_type_name[a.t]);
    if (r == 0 && i.t != JT_INT && i.t != JT_BOOL)
        r = jit_refuse(u, c, at, "an index that is a %s", jit_type_name[i.t]);
    if (r == 0 && !numeric(vt)) r = jit_refuse(u, c, at, "storing a %s", jit_type_name[vt]);
    if (r == 0 && a.t == JT_IARR && vt == JT_FLOAT)
        r = jit_refuse(u, c, at, "storing a float into an int array");
    struct var *lv = target->a->kind == DSL_N_NAME ? jit_find_var(c, target->a->name) : NULL;
    if (r == 0 && lv) r = jit_prange_write(u, c, lv, at, target->kids[0], NULL, false);
    if (r == 0 && lv) jit_mark_written(u, c, lv);
    c->may_fail = true;
    /* the value first, then the index, as Python evaluates them; where either may have
     * failed and gone on (a division by zero), nothing is stored, as in Python */
    const char *held = u->soft_fail ? " if (env->failed) goto JIT_FAIL;" : "";
    struct var *pv = lv && !lv->param && lv->alias_of ? jit_find_var(c, lv->alias_of) : lv;
    const char *an = target->a->kind == DSL_N_NAME ? target->a->name : "an array";
    const char *et = jit_elem_c(a.t);
    if (r == 0 && jit_promoted(u, target))
        jit_emit(u, "{ %s w_ = (%s)(%s);%s pv%d = w_; }", et, et, value, held, u->pr_id);
    else if (r == 0 && jit_elided(u, target))
        jit_emit(u, "{ %s w_ = (%s)(%s);%s (%s).p[%s] = w_; }", et, et, value, held, a.s.data,
                 i.s.data);
    else if (r == 0 && lv && lv->buflen && !lv->escapes) /* a local array: note how far written */
        jit_emit(u,
                 "{ int64_t w_ = (int64_t)(%s), k_ = CHK(%s, (%s).n, %lldLL, \"%s\");%s "
                 "(%s).p[k_] = w_; if (k_ >= d_%s) d_%s = k_ + 1; }",
                 value, i.s.data, a.s.data, jit_loc(c, at), lv->name, held, a.s.data, lv->name,
                 lv->name);
    else if (r == 0 && u->in_prange && pv && pv->param && floats(pv->t)) {
        /* a storage the iterations share: who writes is recorded where a store's index
         * is not known to be the iteration's own (racy), or under check_races */
        int arg = (int)(pv - c->vars);
        jit_emit(u,
                 "{ %s w_ = (%s)(%s); int64_t k_ = CHK(%s, (%s).n, %lldLL, \"%s\");%s "
                 "RACE%s(%d, k_, (%s).n, %s%s, %lldLL, \"%s\"); (%s).p[k_] = w_; }",
                 et, et, value, i.s.data, a.s.data, jit_loc(c, at), lv->name, held,
                 pv->pl[u->pno].racy ? "_ALWAYS" : "", arg, a.s.data, ITERATION(u), jit_loc(c, at),
                 pv->name, a.s.data);
    } else if (r == 0 && u->em->counted && floats(a.t)) {
        /* the simulator records who writes each element of a Storage: two threads that
         * nothing orders writing one is a race */
        jit_emit(u,
                 "{ %s w_ = (%s)(%s); int64_t k_ = CHK(%s, (%s).n, %lldLL, \"%s\");%s "
                 "if (jit_gwrite(env, (%s).p, k_, %lldLL, \"%s\")) goto JIT_FAIL; "
                 "*(%s *)jit_gmem(env, %d, &(%s).p[k_]) = w_; }",
                 et, et, value, i.s.data, a.s.data, jit_loc(c, at), an, held, a.s.data,
                 jit_loc(c, at), an, et, jit_access_site(u, c, target, 1, jit_elem_size(a.t), an),
                 a.s.data);
    } else if (r == 0 && *held) {
        jit_emit(u,
                 "{ %s w_ = (%s)(%s); int64_t k_ = CHK(%s, (%s).n, %lldLL, \"%s\");%s "
                 "(%s).p[k_] = w_; }",
                 et, et, value, i.s.data, a.s.data, jit_loc(c, at), an, held, a.s.data);
    } else if (r == 0)
        jit_emit(u, "{ %s w_ = (%s)(%s); (%s).p[CHK(%s, (%s).n, %lldLL, \"%s\")] = w_; }", et, et,
                 value, a.s.data, i.s.data, a.s.data, jit_loc(c, at), an);
    ex_free(&a);
    ex_free(&i);
    return r;
}

/* target = value (value the C of expression from, of type vt), for statement at. */
int jit_store(struct unit *u, struct cfn *c, const struct dsl_node *target, const char *value,
              enum jt vt, const struct dsl_node *at, const struct dsl_node *from)
{
    if (vt == JT_NONE) return jit_refuse(u, c, at, "assigning what returns None");
    if (target->kind == DSL_N_NAME) return store_name(u, c, target, value, vt, at, from);
    struct var *sv = target->kind == DSL_N_INDEX ? jit_shared_of(c, target) : NULL;
    if (sv) return store_shared(u, c, target, sv, value, vt, at);
    if (target->kind == DSL_N_INDEX && target->nkids == 1)
        return store_element(u, c, target, value, vt, at);
    return jit_refuse(u, c, at, "assigning to this target");
}

/* name = cuda.shared.array(shape, dtype): memory of the block, shape a constant or a tuple of
 * two (an int, or a name given an int once). Nothing runs there: the array is the block's
 * for the whole kernel, as CUDA declares it. */
static int shared_array(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    const struct dsl_node *call = n->a, *shape = call->nkids ? call->kids[0] : NULL;
    const struct dsl_node *dtype = call->nkids > 1 ? call->kids[1] : NULL;
    for (size_t i = 0; i < call->nkw; i++) {
        if (strcmp(call->kwnames[i], "shape") == 0) shape = call->kwvals[i];
        if (strcmp(call->kwnames[i], "dtype") == 0) dtype = call->kwvals[i];
    }
    if (!u->em->kernel) return jit_refuse(u, c, n, "cuda.shared.array outside a kernel");
    char dt = dtype ? jit_dtype_code(u, c, dtype) : 0;
    if (!shape || !dt || call->flag)
        return jit_refuse(u, c, n,
                          "cuda.shared.array(shape, dtype) with a dtype of numba or numpy");
    int64_t dim[2] = {0, 0};
    int nd = 1;
    if (shape->kind == DSL_N_TUPLE) {
        nd = (int)shape->nkids;
        if (nd < 1 || nd > 2) return jit_refuse(u, c, n, "a shared array of %d dims", nd);
        for (int d = 0; d < nd; d++) dim[d] = const_int(u, c, shape->kids[d]);
    } else {
        dim[0] = const_int(u, c, shape);
        dim[1] = 1;
    }
    int64_t count = dim[0] * dim[1], size = dt == 'f' || dt == 'i' ? 4 : 8;
    if (dim[0] <= 0 || dim[1] <= 0 || count > (1 << 16))
        return jit_refuse(u, c, n,
                          "a shared array whose shape is not a constant (up to 65536 elements)");
    const char *name = n->kids[0]->name;
    struct var *v = jit_find_var(c, name);
    if (v && (v->t != JT_SARR || v->sh_dt != dt || v->sh_nd != nd || v->sh_dim[0] != dim[0] ||
              v->sh_dim[1] != dim[1]))
        return jit_refuse(u, c, n, "%s given two different arrays", name);
    if (v) return 0;
    if (jit_assign_var(u, c, n, name, JT_SARR, 0, &v) != 0) return -1;
    v->sh_dt = dt;
    v->sh_nd = nd;
    v->sh_dim[0] = dim[0];
    v->sh_dim[1] = dim[1];
    v->sh_off = u->sh_bytes;
    v->sh_base = u->sh_elems;
    u->sh_bytes += (count * size + 15) / 16 * 16;
    u->sh_elems += count;
    return 0;
}

int jit_stmt(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    bool soft = u->soft_fail;
    u->soft_fail = false;
    bool loop = c->top && u->in_prange && (n->kind == DSL_N_FOR || n->kind == DSL_N_WHILE);
    if (loop && ++u->nest > u->max_nest) u->max_nest = u->nest;
    int r = stmt_body(u, c, n);
    u->nest -= loop;
    /* what set env->failed and went on is caught here, before anything else runs (the
     * conditions of if and while: at the end of the statement) */
    if (r == 0 && u->soft_fail) jit_emit(u, "if (env->failed) goto JIT_FAIL;");
    u->soft_fail = soft;
    return r;
}

/* an expression statement: a call (a docstring is skipped) */
static int stmt_expr(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    int r = 0;
    if (n->a->kind == DSL_N_CONST && n->a->value.kind == DSL_STR) return 0; /* docstring */
    struct ex e;
    ex_init(&e);
    r = n->a->kind == DSL_N_CALL ? jit_expr(u, c, n->a, &e)
                                 : jit_refuse(u, c, n, "an expression statement");
    if (r == 0) jit_emit(u, "(void)(%s);", e.s.data);
    ex_free(&e);
    if (r == 0) jit_call_deps(u, c, n->a);
    return r;
}

/* a, b = x, y (every value computed before any name is bound, as Python does: a, b = b, a
 * swaps) and a, b, c = shape (a tuple or int array of exactly as many ints, else Python's
 * ValueError): MiniTorch's kernels unpack their shapes and strides so. */
static int assign_unpack(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    const struct dsl_node *t = n->kids[0], *v = n->a;
    const size_t k = t->nkids;
    int r = 0;
    if (v->kind == DSL_N_TUPLE) {
        if (v->nkids != k)
            return jit_refuse(u, c, n, "unpacking %zu values into %zu names", (size_t)v->nkids, k);
        enum jt types[16];
        int first = u->tmp;
        if (k > 16) return jit_refuse(u, c, n, "unpacking more than 16 values");
        u->tmp += (int)k;
        for (size_t i = 0; i < k && r == 0; i++) {
            struct ex e;
            ex_init(&e);
            r = jit_expr(u, c, v->kids[i], &e);
            if (r == 0 && e.t == JT_NONE) r = jit_refuse(u, c, n, "assigning what returns None");
            if (r == 0 && (e.t == JT_SARR || !*jit_c_type[e.t]))
                r = jit_refuse(u, c, n, "unpacking a %s", jit_type_name[e.t]);
            if (r == 0) {
                types[i] = e.t;
                jit_emit(u, "%s u%d = (%s);", jit_c_type[e.t], first + (int)i, e.s.data);
            }
            ex_free(&e);
        }
        for (size_t i = 0; i < k && r == 0; i++) {
            char name[32];
            snprintf(name, sizeof name, "u%d", first + (int)i);
            r = jit_store(u, c, t->kids[i], name, types[i], n, v->kids[i]);
        }
        return r;
    }
    struct ex e;
    ex_init(&e);
    r = jit_expr(u, c, v, &e);
    if (r == 0 && !ints(e.t))
        r = jit_refuse(u, c, n, "unpacking a %s (a tuple or an int array unpacks)",
                       jit_type_name[e.t]);
    int tmp = u->tmp++;
    if (r == 0) {
        c->may_fail = true;
        jit_emit(u, "iarr u%d = (%s);", tmp, e.s.data);
        jit_emit(u,
                 "if (u%d.n != %zu) { jit_fail(env, JIT_E_UNPACK, %lldLL, u%d.n, %zu, \"\"); "
                 "goto JIT_FAIL; }",
                 tmp, k, jit_loc(c, n), tmp, k);
    }
    ex_free(&e);
    for (size_t i = 0; i < k && r == 0; i++) {
        char item[48];
        snprintf(item, sizeof item, "u%d.p[%zu]", tmp, i);
        r = jit_store(u, c, t->kids[i], item, JT_INT, n, NULL);
    }
    return r;
}

/* x = value: a local array of zeros made, or a value stored */
static int stmt_assign(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    int r = 0;
    if (n->nkids != 1) return jit_refuse(u, c, n, "chained assignment");
    const struct dsl_node *t = n->kids[0];
    if (t->kind == DSL_N_TUPLE) return assign_unpack(u, c, n);
    const struct jit_builtin *b = n->a->kind == DSL_N_CALL ? jit_builtin_of(u, c, n->a->a) : NULL;
    if (t->kind == DSL_N_NAME && b && b->role == JB_SHARED_ARRAY) return shared_array(u, c, n);
    int64_t len = t->kind == DSL_N_NAME ? array_literal(u, c, n->a) : 0;
    if (len < 0) return -1;
    if (len) {
        struct var *v;
        if (jit_assign_var(u, c, n, t->name, JT_IARR, len, &v) != 0) return -1;
        if (!v->made) v->made = n;
        /* a new array of zeros: the elements written since the last one are cleared */
        if (v->escapes)
            jit_emit(u, "memset(b_%s, 0, sizeof b_%s);", t->name, t->name);
        else
            jit_emit(u, "memset(b_%s, 0, d_%s * sizeof *b_%s); d_%s = 0;", t->name, t->name,
                     t->name, t->name);
        return 0;
    }
    struct ex e;
    ex_init(&e);
    r = jit_expr(u, c, n->a, &e);
    if (r == 0) r = jit_store(u, c, t, e.s.data, e.t, n, n->a);
    ex_free(&e);
    return r;
}

/* x += value and the others: a reduction of the prange loop, or x = x + value */
static int stmt_aug(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    int r = 0;
    struct dsl_node bin = {.kind = DSL_N_BINARY, .pos = n->pos, .op = n->op, .a = n->a, .b = n->b};
    struct ex e;
    ex_init(&e);
    struct var *v = n->a->kind == DSL_N_NAME ? jit_find_var(c, n->a->name) : NULL;
    char op = n->op == DSL_T_PLUS ? '+' : n->op == DSL_T_STAR ? '*' : 0;
    if (v && u->in_prange && !v->in_loop && op && numeric(v->t)) {
        /* acc += x[i] in a prange loop: a reduction, as Numba makes it; each thread sums
         * its own part from 0 (1 for *=), the parts are added to acc when the loop ends */
        if (v->reduce && v->reduce != op) {
            r = jit_race(u, c, n, "%s is reduced with both += and *= in the prange loop", v->name);
        } else if (!v->reduce) {
            v->reduce = op;
            u->changed = true;
        }
        u->aug = v->name;
        if (r == 0) r = jit_binary(u, c, &bin, &e);
        u->aug = NULL;
        if (r == 0 && join(v->t, e.t) != v->t)
            r = jit_refuse(u, c, n, "%s, an int, reduced with a float", v->name);
        if (r == 0) jit_emit(u, "v_%s = %s;", v->name, e.s.data);
    } else {
        r = jit_binary(u, c, &bin, &e);
        if (r == 0) r = jit_store(u, c, n->a, e.s.data, e.t, n, n);
    }
    ex_free(&e);
    return r;
}

/* if / elif / else */
static int stmt_if(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    int r = 0;
    int opened = 0; /* blocks opened to test a condition's failure before its branch */
    for (size_t i = 0; i + 1 < n->nkids && r == 0; i += 2) {
        struct ex e;
        ex_init(&e);
        bool before = u->soft_fail;
        u->soft_fail = false;
        r = jit_expr(u, c, n->kids[i], &e);
        bool fails = u->soft_fail;
        u->soft_fail = before || fails;
        if (r == 0 && !numeric(e.t))
            r = jit_refuse(u, c, n, "a condition that is a %s", jit_type_name[e.t]);
        if (r == 0 && fails) { /* a condition that failed picks no branch, as in Python */
            int k = u->tmp++;
            jit_emit(u, "%s{", i ? "} else " : "");
            jit_emit(u, "%s c%d = (%s);", jit_c_type[e.t], k, e.s.data);
            jit_emit(u, "if (env->failed) goto JIT_FAIL;");
            jit_emit(u, "if (c%d) {", k);
            opened++;
        } else if (r == 0) {
            jit_emit(u, "%sif (%s) {", i ? "} else " : "", e.s.data);
        }
        if (r == 0) {
            u->loop_depth++;
            r = jit_block(u, c, n->kids[i + 1]);
            u->loop_depth--;
        }
        ex_free(&e);
    }
    if (r == 0 && n->b) {
        jit_emit(u, "} else {");
        u->loop_depth++;
        r = jit_block(u, c, n->b);
        u->loop_depth--;
    }
    jit_emit(u, "}");
    while (opened--) jit_emit(u, "}");
    return r;
}

/* while, polling the interrupt */
static int stmt_while(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    int r = 0;
    struct ex e;
    ex_init(&e);
    r = jit_expr(u, c, n->a, &e);
    if (r == 0 && !numeric(e.t))
        r = jit_refuse(u, c, n, "a condition that is a %s", jit_type_name[e.t]);
    if (r == 0) {
        int k = u->tmp++, brk = u->brk;
        c->may_fail = true;
        u->brk = -1;
        jit_emit(u, "{");
        jit_emit(u, "int64_t q%d = 0;", k);
        if (u->soft_fail) { /* a condition that failed ends the loop there, as in Python */
            jit_emit(u, "while (1) {");
            jit_emit(u, "%s c%d = (%s);", jit_c_type[e.t], k, e.s.data);
            jit_emit(u, "if (env->failed) goto JIT_FAIL;");
            jit_emit(u, "if (!c%d) break;", k);
        } else {
            jit_emit(u, "while (%s) {", e.s.data);
        }
        u->loop_depth++;
        if (jit_has_loop(n->b)) /* as strip_open's loops */
            jit_emit(u, "if (jit_cancelled(env)) goto JIT_FAIL;");
        else
            jit_emit(u, "if ((++q%d & 65535) == 0 && jit_cancelled(env)) goto JIT_FAIL;", k);
        r = jit_block(u, c, n->b);
        u->loop_depth--;
        jit_emit(u, "}");
        jit_emit(u, "}");
        u->brk = brk;
    }
    ex_free(&e);
    return r;
}

/* return, its type joined with the function's other returns */
static int stmt_return(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    int r = 0;
    if (u->in_prange) return jit_refuse(u, c, n, "return inside a prange loop");
    struct ex e;
    ex_init(&e);
    if (n->a && n->a->kind != DSL_N_CONST)
        r = jit_expr(u, c, n->a, &e);
    else if (n->a && n->a->value.kind != DSL_NONE)
        r = jit_expr(u, c, n->a, &e);
    if (r == 0 && e.t != JT_NONE && !numeric(e.t))
        r = jit_refuse(u, c, n, "returning a %s", jit_type_name[e.t]);
    if (r == 0) {
        enum jt t = c->ret_seen ? join(c->ret, e.t) : e.t;
        if (c->ret_seen && (t == JT_NONE) != (c->ret == JT_NONE && e.t == JT_NONE))
            r = jit_refuse(u, c, n, "returning a value on one path and none on another");
        if (r == 0 && t != c->ret) u->changed = true;
        c->ret = t;
        c->ret_seen = true;
    }
    if (r == 0) {
        if (c->top)
            jit_emit(u, e.t == JT_NONE ? "return 0;" : "{ *(%s *)slots[%d] = %s; return 0; }",
                     jit_c_type[c->ret], c->nargs, e.s.data);
        else
            jit_emit(u, e.t == JT_NONE ? "return;" : "return %s;", e.s.data);
    }
    ex_free(&e);
    return r;
}

/* raise in a kernel: the thread stops with that error, which the launch raises */
static int stmt_raise(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    /* in a kernel, raise E or E("message"): the thread stops with that error, which the
     * launch raises (the template's NotImplementedError) */
    const struct dsl_node *x = n->a;
    const struct dsl_node *cls = x && x->kind == DSL_N_CALL ? x->a : x;
    if (!u->em->kernel || !cls || cls->kind != DSL_N_NAME || n->b ||
        (x->kind == DSL_N_CALL && (x->nkw || x->nkids > 1 ||
                                   (x->nkids == 1 && (x->kids[0]->kind != DSL_N_CONST ||
                                                      x->kids[0]->value.kind != DSL_STR)))))
        return jit_refuse(u, c, n,
                          "this raise (a kernel raises an exception class with at most "
                          "a string)");
    int id = -1;
    for (int i = 0; i < u->nraises; i++)
        if (u->raises[i] == n) id = i;
    if (id < 0 && u->nraises == 16) return jit_refuse(u, c, n, "more than 16 raise statements");
    if (id < 0) u->raises[id = u->nraises++] = n;
    c->may_fail = true;
    jit_emit(u, "{ jit_fail(env, JIT_E_RAISE, %lldLL, %d, 0, \"raise\"); goto JIT_FAIL; }",
             jit_loc(c, n), id);
    return 0;
}

static int stmt_body(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    switch (n->kind) {
    case DSL_N_PASS: return 0;
    case DSL_N_EXPR: return stmt_expr(u, c, n);
    case DSL_N_ASSIGN: return stmt_assign(u, c, n);
    case DSL_N_AUG: return stmt_aug(u, c, n);
    case DSL_N_IF: return stmt_if(u, c, n);
    case DSL_N_WHILE: return stmt_while(u, c, n);
    case DSL_N_FOR: return jit_for_loop(u, c, n);
    case DSL_N_BREAK:
    case DSL_N_CONTINUE:
        if (n->kind == DSL_N_BREAK && u->brk == -2)
            return jit_refuse(u, c, n, "break out of a prange loop");
        if (n->kind == DSL_N_BREAK && u->brk >= 0)
            jit_emit(u, "goto brk%d;", u->brk);
        else
            jit_emit(u, n->kind == DSL_N_BREAK ? "break;" : "continue;");
        return 0;
    case DSL_N_RETURN: return stmt_return(u, c, n);
    case DSL_N_RAISE: return stmt_raise(u, c, n);
    case DSL_N_ASSERT: return stmt_assert(u, c, n);
    default: return jit_refuse(u, c, n, "this statement");
    }
}

int jit_block(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    for (size_t i = 0; i < n->nkids; i++)
        if (jit_stmt(u, c, n->kids[i]) != 0) return -1;
    return 0;
}
