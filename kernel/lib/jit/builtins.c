/* jit/builtins.c — calls in compiled code: of the user's functions (compiled into the unit),
 * of the engine's scalar functions, and of the builtins the compiler knows: the table
 * jit_builtins[] below is the one place a builtin is named, for the calls and for the passes
 * that ask about one (len, to_index, the arrays an assignment makes, what a for loop runs over,
 * cuda's attributes, the dtypes). A row says where the builtin is found (a Python builtin, a
 * module's member), how many arguments it takes, the types it takes them of (check), its C for
 * each target (emit, or emit_fn where a format cannot say it), and whether it can fail or runs
 * a loop. Adding one: docs/ARCHITECTURE.md, "Adding a builtin to compiled code". */
#include "lib/jit/internal.h"

/* fmt, a GNU statement expression "({ declarations; value; })", as the unit's target writes
 * it: unchanged for gcc, a lambda called at once for NVRTC (C++, without statement
 * expressions). The value is what follows the last ';' before the end. */
const char *jit_sx(const struct unit *u, const char *fmt, char *buf, size_t n)
{
    if (!u->em->cxx) return fmt;
    size_t len = strlen(fmt);
    const char *end = fmt + len - 2; /* at "})"; then after the value */
    while (end > fmt + 2 && (end[-1] == ' ' || end[-1] == ';')) end--;
    const char *semi = end - 1; /* the ';' ending the declarations */
    while (semi > fmt + 2 && *semi != ';') semi--;
    snprintf(buf, n, "([&]() {%.*s; return%.*s; }())", (int)(semi - fmt - 2), fmt + 2,
             (int)(end - semi - 1), semi + 1);
    return buf;
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
    if (guarded && u->em->cxx) { /* NVRTC: a lambda called at once (sx) */
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

/* A call of a builtin being compiled: where and what, the row it matched, its arguments. */
struct bcall {
    struct unit *u;
    struct cfn *c;
    const struct dsl_node *n;
    const struct jit_builtin *b;
    const char *name;
    struct ex *a;
    int na;
};

/* ---- the rows' checks: 1 the row takes these arguments (*t its result's type, the row's ret
 * unless set), 0 not (another row of the name may; else "this call" is refused), -1 refused
 * with a sentence of its own ------------------------------------------------------------------ */

static bool all_numbers(const struct bcall *k)
{
    for (int i = 0; i < k->na; i++)
        if (!numeric(k->a[i].t)) return false;
    return true;
}

/* Numbers (the row's ret): math's, float(), the operators'. */
static int ck_numbers(const struct bcall *k, enum jt *t)
{
    (void)t;
    return all_numbers(k);
}

/* operators.id: its argument as it is */
static int ck_same(const struct bcall *k, enum jt *t)
{
    int r = ck_numbers(k, t);
    if (r == 1) *t = k->a[0].t;
    return r;
}

/* operators.max: one of the two, as given, so both of one type */
static int ck_same_two(const struct bcall *k, enum jt *t)
{
    int r = ck_numbers(k, t);
    if (r != 1) return r;
    if (k->a[0].t != k->a[1].t)
        return jit_refuse(k->u, k->c, k->n, "operators.%s of %s and %s values", k->name,
                          jit_type_name[k->a[0].t], jit_type_name[k->a[1].t]);
    *t = k->a[0].t;
    return 1;
}

/* min, max: the wider of two numbers' types */
static int ck_join(const struct bcall *k, enum jt *t)
{
    if (!all_numbers(k)) return 0;
    *t = join(k->a[0].t, k->a[1].t);
    return 1;
}

static int ck_float(const struct bcall *k, enum jt *t)
{
    (void)t;
    return k->a[0].t == JT_FLOAT;
}

/* an int or a bool (not a float) */
static int ck_integral(const struct bcall *k, enum jt *t)
{
    (void)t;
    return numeric(k->a[0].t) && k->a[0].t != JT_FLOAT;
}

static int ck_len(const struct bcall *k, enum jt *t)
{
    (void)t;
    if (floats(k->a[0].t) || ints(k->a[0].t)) return 1;
    return jit_refuse(k->u, k->c, k->n, "len() of a %s", jit_type_name[k->a[0].t]);
}

/* arrays of ints (numpy's prod, array_equal) */
static int ck_ints(const struct bcall *k, enum jt *t)
{
    (void)t;
    for (int i = 0; i < k->na; i++)
        if (!ints(k->a[i].t)) return 0;
    return 1;
}

/* cuda.grid(1), the only dimension compiled */
static int ck_grid_1(const struct bcall *k, enum jt *t)
{
    (void)t;
    const struct dsl_node *d = k->n->kids[0];
    return d->kind == DSL_N_CONST && dsl_is_intlike(d->value) && dsl_as_int(d->value) == 1;
}

static int ck_any(const struct bcall *k, enum jt *t)
{
    (void)k, (void)t;
    return 1;
}

/* MiniTorch's index helpers: to_index(ordinal, shape, out_index), the others int arrays; the
 * array a helper fills is a list, as Python's tuple cannot be written */
static int ck_index(const struct bcall *k, enum jt *t)
{
    (void)t;
    for (int i = 0; i < k->na; i++)
        if (i == 0 && k->b->role == JB_TO_INDEX ? !numeric(k->a[i].t) || k->a[i].t == JT_FLOAT
                                                : !ints(k->a[i].t))
            return jit_refuse(k->u, k->c, k->n, "%s() of a %s", k->name, jit_type_name[k->a[i].t]);
    if (k->b->ret == JT_NONE && k->a[k->na - 1].t == JT_ITUP) /* Python's TypeError */
        return jit_refuse(k->u, k->c, k->n, "%s() writing into a tuple (its last argument)",
                          k->name);
    return 1;
}

/* ---- the rows' C, where a format cannot say it ------------------------------------------- */

/* operators.add, mul: x + y, x * y, Python's */
static int em_arith(const struct bcall *k, struct ex *e)
{
    struct dsl_node b = {.kind = DSL_N_BINARY,
                         .pos = k->n->pos,
                         .op = strcmp(k->name, "add") == 0 ? DSL_T_PLUS : DSL_T_STAR,
                         .a = k->n->kids[0],
                         .b = k->n->kids[1]};
    return jit_binary(k->u, k->c, &b, e);
}

/* (a != b).any(), (a == b).all(): the arrays compared element by element, as numpy's */
static int em_cmp_reduce(const struct bcall *k, struct ex *e)
{
    struct unit *u = k->u;
    struct cfn *c = k->c;
    const struct dsl_node *n = k->n, *cmp = n->a->a;
    struct ex x, y;
    ex_init(&x);
    ex_init(&y);
    int r = jit_expr(u, c, cmp->kids[0], &x);
    if (r == 0) r = jit_expr(u, c, cmp->kids[1], &y);
    if (r == 0 && (!ints(x.t) || !ints(y.t)))
        r = jit_refuse(u, c, n, ".%s() of a comparison of a %s and a %s", k->name,
                       jit_type_name[x.t], jit_type_name[y.t]);
    if (r == 0) {
        c->may_fail = u->soft_fail = true;
        e->t = JT_BOOL;
        calls_loop(u, c);
        render_buf_printf(&e->s, "jit_cmp_reduce(env, %s, %s, %d, %d, %lldLL)", x.s.data, y.s.data,
                          cmp->ops[0] == DSL_T_NE, k->name[1] == 'n', jit_loc(c, n));
    }
    for (int i = 0; i < 2 && r == 0; i++) r = jit_read_whole(u, c, cmp->kids[i], n);
    ex_free(&x);
    ex_free(&y);
    return r;
}

/* cuda.syncthreads(): every thread of the block meets here; in the simulator the thread's
 * stack is left for the next thread's, until all have come (or one failed) */
static int em_syncthreads(const struct bcall *k, struct ex *e)
{
    k->c->may_fail = true;
    k->u->em->sync(k->u, k->c, k->n, e);
    return 0;
}

/* to_index, broadcast_index (which fill their last argument's first elements) and
 * index_to_position, as the course defines them */
static int em_index(const struct bcall *k, struct ex *e)
{
    struct unit *u = k->u;
    struct cfn *c = k->c;
    const struct dsl_node *n = k->n;
    int na = k->na;
    bool fills = k->b->ret == JT_NONE;
    bool after_failure = u->soft_fail && fills; /* (as f<n>'s) */
    if (k->b->fails == JB_SETS) c->may_fail = u->soft_fail = true;
    calls_loop(u, c);
    const struct dsl_node *w = n->kids[na - 1];
    struct var *out = fills && w->kind == DSL_N_NAME ? jit_find_var(c, w->name) : NULL;
    if (out) {
        jit_mark_written(u, c, out);
        if (jit_prange_write(u, c, out, n, NULL, k->name, true) != 0) return -1;
        jit_own_fill(u, c, out, n);
    }
    char fname[32], tail[96];
    snprintf(fname, sizeof fname, "jit_%s", k->name);
    int tl = snprintf(tail, sizeof tail, ", %lldLL", jit_loc(c, n));
    if (fills) { /* how far it wrote a local array, which is then zeroed only that far */
        if (out && out->buflen && !out->escapes)
            snprintf(tail + tl, sizeof tail - (size_t)tl, ", &d_%s", out->name);
        else /* gcc's unit has no NULL */
            snprintf(tail + tl, sizeof tail - (size_t)tl, ", (int64_t *)0");
    }
    return call_text(u, &e->s, fname, jit_c_type[e->t], k->a, na, tail, after_failure);
}

/* ---- the table ---------------------------------------------------------------------------- */

/* The rows are read as a table: one a line, fields in struct jit_builtin's order (where, name,
 * nargs, role, ret, check, emit per target, emit_fn, typed, fails, loops, dtype); a row leaves
 * off its dtype, which only the dtypes have. */
/* clang-format off */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* A math function of one float with CPython's errors: ValueError where a NaN comes of a
 * number (math domain error), OverflowError where an infinity comes of a finite one (math
 * range error); f is its C of _m. */
#define MATH(name, f) {JB_MATH, name, 1, JB_VALUE, JT_FLOAT, ck_numbers, \
    {"({ double _m = (double)(%s); jit_math(env, _m, " f ", %lldLL); })"}, NULL, false, JB_SETS, false}
/* minitorch.operators' function of numbers, its C a format of its arguments (as doubles) */
#define OP(name, n, ret, c, fails) \
    {JB_OPERATORS, name, n, JB_VALUE, ret, ck_numbers, {c}, NULL, false, fails, false}
/* what a for loop runs over (jit/loops.c) */
#define LOOP(where, name, role) {where, name, -1, role, JT_NONE, NULL, {NULL}, NULL, false, JB_NEVER, false}
/* a dtype, of numpy and numba: its element */
#define DTYPE(where, name, ret, code) \
    {where, name, 0, JB_DTYPE, ret, NULL, {NULL}, NULL, false, JB_NEVER, false, code}
/* cuda.<group>.x, .y, .z: the thread's place in the launch */
#define PLACE(group, sim) {JB_CUDA, group, 1, JB_ATTRIBUTE, JT_INT, NULL, \
    {[JIT_SIM] = "env->" sim "['%s' - 'x']", [JIT_GPU] = "((int64_t)" group ".%s)"}, NULL, false, JB_NEVER, false}

const struct jit_builtin jit_builtins[] = {
    /* Python's */
    {JB_PYTHON, "len", 1, JB_LENGTH, JT_INT, ck_len, {"(%s).n"}, NULL, false, JB_NEVER, false},
    {JB_PYTHON, "int", 1, JB_VALUE, JT_INT, ck_integral, {"(int64_t)(%s)"}, NULL, false, JB_NEVER, false},
    /* of a float: NaN a ValueError, what 64 bits cannot hold an OverflowError */
    {JB_PYTHON, "int", 1, JB_VALUE, JT_INT, ck_float, {"py_int(env, %s, %lldLL)"}, NULL, false, JB_SETS, false},
    {JB_PYTHON, "float", 1, JB_VALUE, JT_FLOAT, ck_numbers, {"(double)(%s)"}, NULL, false, JB_NEVER, false},
    /* the first of equal values, as Python's */
    {JB_PYTHON, "min", 2, JB_VALUE, JT_NONE, ck_join,
     {"({%s _x = %s, _y = %s; _y < _x ? _y : _x;})"}, NULL, true, JB_NEVER, false},
    {JB_PYTHON, "max", 2, JB_VALUE, JT_NONE, ck_join,
     {"({%s _x = %s, _y = %s; _y > _x ? _y : _x;})"}, NULL, true, JB_NEVER, false},
    /* abs(-0.0) is 0.0 */
    {JB_PYTHON, "abs", 1, JB_VALUE, JT_FLOAT, ck_float, {"fabs(%s)"}, NULL, false, JB_NEVER, false},
    {JB_PYTHON, "abs", 1, JB_VALUE, JT_INT, ck_integral,
     {"({%s _x = %s; _x < 0 ? -_x : _x;})"}, NULL, true, JB_NEVER, false},
    LOOP(JB_PYTHON, "range", JB_RANGE),
    LOOP(JB_NUMBA, "prange", JB_PRANGE), /* the called function's outermost: in parallel */
    LOOP(JB_PYTHON, "enumerate", JB_ENUMERATE),
    LOOP(JB_PYTHON, "zip", JB_ZIP),
    DTYPE(JB_PYTHON, "int", JT_INT, 'l'),
    DTYPE(JB_PYTHON, "float", JT_FLOAT, 'd'),
    DTYPE(JB_NUMPY, "float64", JT_FLOAT, 'd'),
    DTYPE(JB_NUMPY, "float32", JT_FLOAT, 'f'),
    DTYPE(JB_NUMPY, "int64", JT_INT, 'l'),
    DTYPE(JB_NUMPY, "int32", JT_INT, 'i'),
    DTYPE(JB_NUMBA, "float64", JT_FLOAT, 'd'),
    DTYPE(JB_NUMBA, "float32", JT_FLOAT, 'f'),
    DTYPE(JB_NUMBA, "int64", JT_INT, 'l'),
    DTYPE(JB_NUMBA, "int32", JT_INT, 'i'),
    /* math's, as the interpreter's math module computes them */
    MATH("exp", "exp(_m)"),
    MATH("expm1", "expm1(_m)"),
    MATH("log", "_m <= 0 ? JIT_NAN : log(_m)"), /* log(0): a domain error, not -inf */
    MATH("log1p", "log1p(_m)"),
    MATH("log2", "log2(_m)"),
    MATH("log10", "log10(_m)"),
    MATH("sqrt", "sqrt(_m)"),
    MATH("fabs", "fabs(_m)"),
    MATH("tanh", "tanh(_m)"),
    MATH("sin", "sin(_m)"),
    MATH("cos", "cos(_m)"),
    MATH("tan", "tan(_m)"),
    MATH("atan", "atan(_m)"),
    /* numpy's, of int arrays; np.zeros(n, np.int32), a local array (jit/stmt.c) */
    {JB_NUMPY, "prod", 1, JB_VALUE, JT_INT, ck_ints, {"jit_prod(%s)"}, NULL, false, JB_NEVER, true},
    {JB_NUMPY, "array_equal", 2, JB_VALUE, JT_BOOL, ck_ints, {"jit_array_equal(%s, %s)"}, NULL, false, JB_NEVER, true},
    {JB_NUMPY, "zeros", -1, JB_LOCAL_ARRAY, JT_IARR, NULL, {NULL}, NULL, false, JB_NEVER, false},
    /* (a != b).any(), (a == b).all() */
    {JB_METHOD, "any", 0, JB_VALUE, JT_BOOL, ck_any, {NULL}, em_cmp_reduce, false, JB_SETS, true},
    {JB_METHOD, "all", 0, JB_VALUE, JT_BOOL, ck_any, {NULL}, em_cmp_reduce, false, JB_SETS, true},
    /* numba.cuda's, in a kernel; its arrays (jit/stmt.c) */
    {JB_CUDA, "syncthreads", 0, JB_VALUE, JT_NONE, ck_any, {NULL}, em_syncthreads, false, JB_LEAVES, false},
    {JB_CUDA, "grid", 1, JB_VALUE, JT_INT, ck_grid_1,
     {[JIT_SIM] = "(env->bid[0] * env->block[0] + env->tid[0])",
      [JIT_GPU] = "((int64_t)blockIdx.x * blockDim.x + threadIdx.x)"}, NULL, false, JB_NEVER, false},
    PLACE("threadIdx", "tid"),
    PLACE("blockIdx", "bid"),
    PLACE("blockDim", "block"),
    PLACE("gridDim", "grid"),
    {JB_CUDA, "warpsize", 0, JB_ATTRIBUTE, JT_INT, NULL, {"INT64_C(32)"}, NULL, false, JB_NEVER, false},
    {JB_CUDA_LOCAL, "array", 2, JB_LOCAL_ARRAY, JT_IARR, NULL, {NULL}, NULL, false, JB_NEVER, false},
    {JB_CUDA_SHARED, "array", -1, JB_SHARED_ARRAY, JT_SARR, NULL, {NULL}, NULL, false, JB_NEVER, false},
    /* MiniTorch's index helpers (minitorch.to_index, ...), imported */
    {JB_MINITORCH, "to_index", 3, JB_TO_INDEX, JT_NONE, ck_index, {NULL}, em_index, false, JB_SETS, true},
    {JB_MINITORCH, "broadcast_index", 4, JB_VALUE, JT_NONE, ck_index, {NULL}, em_index, false, JB_SETS, true},
    {JB_MINITORCH, "index_to_position", 2, JB_POSITION, JT_INT, ck_index, {NULL}, em_index, false, JB_NEVER, true},
    /* minitorch.operators' (fn in the course's tensor_map(njit()(operators.neg))), as the
     * interpreter computes them (lib/operators.h, in the unit): Python's float arithmetic in
     * doubles, and its errors (inv(0), log of x <= -1e-6, exp overflowing) */
    {JB_OPERATORS, "add", 2, JB_VALUE, JT_NONE, ck_numbers, {NULL}, em_arith, false, JB_NEVER, false},
    {JB_OPERATORS, "mul", 2, JB_VALUE, JT_NONE, ck_numbers, {NULL}, em_arith, false, JB_NEVER, false},
    {JB_OPERATORS, "id", 1, JB_VALUE, JT_NONE, ck_same, {"(%s)"}, NULL, false, JB_NEVER, false},
    {JB_OPERATORS, "max", 2, JB_VALUE, JT_NONE, ck_same_two,
     {"({%s _x = %s, _y = %s; (double)_x > (double)_y ? _x : _y;})"}, NULL, true, JB_NEVER, false},
    OP("neg", 1, JT_FLOAT, "op_neg((double)(%s))", JB_NEVER),
    OP("relu", 1, JT_FLOAT, "op_relu((double)(%s))", JB_NEVER),
    OP("sigmoid", 1, JT_FLOAT, "op_sigmoid((double)(%s))", JB_NEVER),
    OP("log", 1, JT_FLOAT, "jop_log(env, (double)(%s), %lldLL)", JB_SETS),
    OP("exp", 1, JT_FLOAT, "jop_exp(env, (double)(%s), %lldLL)", JB_SETS),
    OP("inv", 1, JT_FLOAT, "jop_inv(env, (double)(%s), %lldLL)", JB_SETS),
    OP("lt", 2, JT_FLOAT, "op_lt((double)(%s), (double)(%s))", JB_NEVER),
    OP("eq", 2, JT_FLOAT, "op_eq((double)(%s), (double)(%s))", JB_NEVER),
    OP("is_close", 2, JT_BOOL, "op_is_close((double)(%s), (double)(%s))", JB_NEVER),
    OP("relu_back", 2, JT_FLOAT, "op_relu_back((double)(%s), (double)(%s))", JB_NEVER),
    OP("log_back", 2, JT_FLOAT, "jop_log_back(env, (double)(%s), (double)(%s), %lldLL)", JB_SETS),
    OP("inv_back", 2, JT_FLOAT, "jop_inv_back(env, (double)(%s), (double)(%s), %lldLL)", JB_SETS),
};
#pragma GCC diagnostic pop
/* clang-format on */
#undef MATH
#undef OP
#undef LOOP
#undef DTYPE
#undef PLACE
#define N_BUILTINS (sizeof jit_builtins / sizeof jit_builtins[0])

/* ---- finding a call's row ------------------------------------------------------------------ */

/* Where the builtin callee names is looked for, and under which name in *name; JB_NOWHERE when
 * it is none (a local, a user function, a value). A name bound to a builtin of a module
 * (from minitorch import to_index) is JB_IMPORTED. */
static enum jb_where where_of(struct unit *u, struct cfn *c, const struct dsl_node *callee,
                              const char **name)
{
    *name = callee->name;
    if (callee->kind == DSL_N_ATTR) {
        if (jit_cuda_module(u, c, callee->a)) return JB_CUDA;
        if (jit_cuda_member(u, c, callee, "local")) return JB_CUDA_LOCAL;
        if (jit_cuda_member(u, c, callee, "shared")) return JB_CUDA_SHARED;
        if (jit_numpy_attr(u, c, callee)) return JB_NUMPY;
        const struct dsl_node *m = callee->a;
        if (m->kind == DSL_N_COMPARE && m->nkids == 2 &&
            (m->ops[0] == DSL_T_NE || m->ops[0] == DSL_T_EQ))
            return JB_METHOD;
        if (m->kind != DSL_N_NAME || jit_find_var(c, m->name)) return JB_NOWHERE;
        const struct dsl_value *v = jit_outer_value(u, c, m->name);
        const char *mod = v ? dsl_module_of(*v) : NULL;
        if (mod && strcmp(mod, "minitorch.operators") == 0) return JB_OPERATORS;
        if (mod && strcmp(mod, "math") == 0) return JB_MATH;
        if (mod && strcmp(mod, "numba") == 0) return JB_NUMBA;
        return JB_NOWHERE;
    }
    if (callee->kind != DSL_N_NAME || jit_find_var(c, callee->name)) return JB_NOWHERE;
    const struct dsl_value *v = jit_outer_value(u, c, callee->name);
    if (!v) return JB_PYTHON;
    if (v->kind != DSL_BUILTIN) return JB_NOWHERE;
    const char *op = dsl_operator_name(v->as.fn);
    if (op) return *name = op, JB_OPERATORS;
    *name = v->as.fn->name; /* a builtin under another name: known by its own */
    return JB_IMPORTED;
}

static bool row_of(const struct jit_builtin *b, enum jb_where w, const char *name)
{
    bool here = b->where == w ||
                (w == JB_IMPORTED &&
                 (b->where == JB_MINITORCH || b->where == JB_PYTHON || b->where == JB_NUMBA));
    return here && strcmp(b->name, name) == 0;
}

/* The first row of name found at w, or NULL. */
static const struct jit_builtin *first_row(enum jb_where w, const char *name)
{
    for (size_t i = 0; w != JB_NOWHERE && i < N_BUILTINS; i++)
        if (row_of(&jit_builtins[i], w, name)) return &jit_builtins[i];
    return NULL;
}

const struct jit_builtin *jit_builtin_of(struct unit *u, struct cfn *c,
                                         const struct dsl_node *callee)
{
    const char *name;
    enum jb_where w = where_of(u, c, callee, &name);
    return first_row(w, name);
}

const struct jit_builtin *jit_builtin_as(struct unit *u, struct cfn *c, const struct dsl_node *n,
                                         enum jb_role role)
{
    const char *name;
    enum jb_where w = where_of(u, c, n, &name);
    for (size_t i = 0; w != JB_NOWHERE && i < N_BUILTINS; i++)
        if (jit_builtins[i].role == role && row_of(&jit_builtins[i], w, name))
            return &jit_builtins[i];
    return NULL;
}

bool jit_builtin_named(const char *name, enum jb_role role)
{
    for (size_t i = 0; i < N_BUILTINS; i++)
        if (jit_builtins[i].role == role && strcmp(jit_builtins[i].name, name) == 0) return true;
    return false;
}

/* ---- calls ------------------------------------------------------------------------------- */

/* The row's C of the call, from its format for the unit's target. */
static int emit_row(const struct bcall *k, struct ex *e)
{
    const struct jit_builtin *b = k->b;
    if (b->emit_fn) return b->emit_fn(k, e); /* which says itself what it may do */
    if (b->fails == JB_SETS) k->c->may_fail = k->u->soft_fail = true;
    if (b->loops) calls_loop(k->u, k->c);
    enum jit_target tg = k->u->em->target;
    const char *fmt = b->emit[tg] ? b->emit[tg] : b->emit[JIT_HOST];
    char f[200];
    if (fmt[0] == '(' && fmt[1] == '{') fmt = jit_sx(k->u, fmt, f, sizeof f);
    const char *s[3] = {NULL};
    int ns = 0;
    if (b->typed) s[ns++] = jit_c_type[e->t];
    for (int i = 0; i < k->na; i++) s[ns++] = k->a[i].s.data;
    long long at = jit_loc(k->c, k->n);
    switch (ns) { /* printf's arguments: the strings, then the place (a row uses it or not) */
    case 0: render_buf_printf(&e->s, fmt, at); break;
    case 1: render_buf_printf(&e->s, fmt, s[0], at); break;
    case 2: render_buf_printf(&e->s, fmt, s[0], s[1], at); break;
    default: render_buf_printf(&e->s, fmt, s[0], s[1], s[2], at); break;
    }
    return 0;
}

/* The call n of a builtin found at w under name, its arguments' C in a[0..na). */
static int call_builtin(struct unit *u, struct cfn *c, const struct dsl_node *n, enum jb_where w,
                        const char *name, struct ex *a, int na, struct ex *e)
{
    if (w == JB_CUDA && !u->em->kernel)
        return jit_refuse(u, c, n, "cuda.%s() outside a cuda.jit kernel", name);
    for (int i = 0; w == JB_OPERATORS && i < na; i++) /* an operator's meaning is a number's */
        if (!numeric(a[i].t))
            return jit_refuse(u, c, n, "operators.%s of a %s", name, jit_type_name[a[i].t]);
    bool named = false;
    for (size_t i = 0; i < N_BUILTINS; i++) {
        const struct jit_builtin *b = &jit_builtins[i];
        if (!row_of(b, w, name) || b->role >= JB_LOCAL_ARRAY) continue;
        named = true;
        if (b->nargs != na) continue;
        struct bcall k = {u, c, n, b, name, a, na};
        enum jt t = b->ret;
        int r = b->check(&k, &t);
        if (r < 0) return -1;
        if (r == 0) continue;
        e->t = t;
        return emit_row(&k, e);
    }
    if (w == JB_CUDA) return jit_refuse(u, c, n, "cuda.%s() with %d arguments", name, na);
    if (w == JB_OPERATORS)
        return named ? jit_refuse(u, c, n, "operators.%s of %d values", name, na)
                     : jit_refuse(u, c, n, "operators.%s", name);
    return jit_refuse(u, c, n, "this call");
}

/* The call n of user function fn, compiled into the unit for its arguments' types. */
static int call_user(struct unit *u, struct cfn *c, const struct dsl_node *n,
                     const struct dsl_function *fn, struct ex *a, int na, struct ex *e)
{
    enum jt ts[MAX_ARGS];
    for (int i = 0; i < na; i++) ts[i] = a[i].t;
    for (int i = 0; i < na; i++) { /* the callee may write any of their elements */
        struct var *av = n->kids[i]->kind == DSL_N_NAME ? jit_find_var(c, n->kids[i]->name) : NULL;
        if (av && av->buflen && !av->escapes) av->escapes = u->changed = true;
    }
    int id;
    if (jit_compile_fn(u, fn, ts, na, &id) != 0) return -1;
    if (u->fns[id].loops) calls_loop(u, c);
    /* the arrays the callee writes, this function writes */
    bool dep = false;
    for (int i = 0; i < na; i++) dep = dep || jit_expr_dep(c, n->kids[i]);
    for (int i = 0; i < na; i++) {
        struct var *av = n->kids[i]->kind == DSL_N_NAME ? jit_find_var(c, n->kids[i]->name) : NULL;
        if (!av || !u->fns[id].vars[i].written) continue;
        jit_mark_written(u, c, av);
        if (jit_prange_write(u, c, av, n, NULL, fn->def->name, dep) != 0) return -1;
        if (i == na - 1) jit_own_fill(u, c, av, n); /* the student's own to_index */
    }
    if (u->fns[id].stack > c->callee_stack) {
        c->callee_stack = u->fns[id].stack;
        c->deepest = id;
    }
    e->t = u->fns[id].ret;
    /* what failed before it in the statement (its arguments) ends the statement there, as
     * Python would: the call, which may write arrays, does not run */
    bool after_failure = u->soft_fail;
    if (u->fns[id].may_fail) c->may_fail = u->soft_fail = true;
    char fname[16];
    snprintf(fname, sizeof fname, "f%d", id);
    return call_text(u, &e->s, fname, jit_c_type[e->t], a, na, NULL, after_failure);
}

/* The call n of an engine scalar function (the student backend's neg, add, ...): the engine's
 * own float32 function, whose source is in the unit. */
static int call_scalar(struct unit *u, struct cfn *c, const struct dsl_node *n,
                       const struct dsl_builtin *fn, int kind, int op, struct ex *a, int na,
                       struct ex *e)
{
    if (na != kind) return jit_refuse(u, c, n, "%s takes %d numbers", fn->name, kind);
    for (int i = 0; i < na; i++)
        if (!numeric(a[i].t))
            return jit_refuse(u, c, n, "%s of a %s", fn->name, jit_type_name[a[i].t]);
    e->t = JT_FLOAT;
    if (kind == 1)
        render_buf_printf(&e->s, "(double)mt_s_%s((float)(%s))", mt_map_name((enum mt_map_op)op),
                          a[0].s.data);
    else
        render_buf_printf(&e->s, "(double)mt_s_%s((float)(%s), (float)(%s))",
                          mt_zip_name((enum mt_zip_op)op), a[0].s.data, a[1].s.data);
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
    const char *name;
    enum jb_where w = where_of(u, c, callee, &name);
    const struct dsl_value *v = callee->kind == DSL_N_NAME && !jit_find_var(c, callee->name)
                                    ? jit_outer_value(u, c, callee->name)
                                    : NULL;
    int kind, op;
    if (v && v->kind == DSL_FUNCTION)
        r = call_user(u, c, n, v->as.fn_user, a, na, e);
    else if (v && v->kind == DSL_BUILTIN && dsl_student_scalar(v->as.fn, &kind, &op))
        r = call_scalar(u, c, n, v->as.fn, kind, op, a, na, e);
    else if (w != JB_NOWHERE)
        r = call_builtin(u, c, n, w, name, a, na, e);
    else if (v)
        r = jit_refuse(u, c, n, "a call of %s (%s)", callee->name, dsl_type_name(*v));
    else
        r = jit_refuse(u, c, n, "this call");
    /* an array given to a function may be read anywhere (a shared one the loop writes, another
     * iteration's elements), but not by a builtin that takes only its length */
    const struct jit_builtin *b = r == 0 ? first_row(w, name) : NULL;
    for (int i = 0; i < na && r == 0 && !(b && b->role == JB_LENGTH && na == 1); i++)
        r = jit_read_whole(u, c, n->kids[i], n);
done:
    for (int i = 0; i < na; i++) ex_free(&a[i]);
    return r;
}
