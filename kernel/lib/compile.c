/* compile.c — user functions compiled into the engine's register programs (see compile.h).
 *
 * What compiles: numbers; the function's parameters and local variables; + - * / ** and unary
 * minus; comparisons (chained too), and, or, not; `a if c else b`; if/elif/else statements,
 * assignments and augmented assignments; return (also inside if, and before other
 * statements); `for i in range(N)` with N known when map() runs (unrolled); calls of abs, min,
 * max, exp, log, sqrt, sigmoid, tanh, relu, float, and of other user functions (inlined); and
 * global variables holding numbers, read when map() runs. Everything else (a tensor, a string,
 * print or any other builtin, a method, indexing, a while loop, break, recursion) is a
 * CompileError pointing at the offending expression in the function's source.
 *
 * How. The program is straight-line code in SSA form: every expression becomes instructions
 * writing new registers, and control flow becomes selection. Each statement is compiled under a
 * guard, the condition under which it runs (the enclosing ifs' conditions, and "not returned
 * yet" after a return inside an if): an assignment under a guard g writes
 * select(g, new, old), a return under g sets result = select(g, value, result) and
 * returned = returned or g. Both branches of an if are computed for every element, as on a
 * GPU; that is safe because nothing here has side effects or traps (1/0 is inf, log(-1) nan).
 *
 * Python's scoping rules are kept at compile time: reading a local before any assignment is an
 * error, so is reading one assigned only in some branches, and a function that can end without
 * returning a value is refused (it would return None, not a number). Dead code after a return
 * is not compiled, as it never runs. */
#include "lib/compile.h"
#include "lib/jit.h"
#include "lib/operators.h"

#include "lib/tensor_methods.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INLINE_DEPTH 8 /* user functions calling user functions, inlined */
#define MAX_UNROLL 1024    /* for-loop iterations unrolled, all loops of a program together */

/* ---- the program being built ------------------------------------------------------------ */

/* What a session name resolved to while compiling: a compiled program stays valid while every
 * name it read resolves the same way (the same number, the same function object, or still
 * nothing, so that a builtin it called is not shadowed since). */
struct dep {
    char *name;
    enum dsl_kind kind; /* DSL_KIND_COUNT: no variable of that name */
    double num;         /* numbers */
    const void *ptr;    /* functions: the object */
};

struct builder {
    struct dsl_interp *in;
    struct dsl_prog *prog;
    const char *what; /* "map", "zip", "reduce" */
    int unrolled;     /* for-loop iterations so far */
    bool failed;      /* an error was raised: registers returned since mean nothing */
    struct dep *deps; /* the session names read */
    size_t ndeps, capdeps;
};

/* One function body being compiled (an inlined call gets its own). */
struct scope {
    struct builder *b;
    const struct dsl_function *f;
    int *env;             /* per local of f: its register */
    unsigned char *bound; /* per local: BOUND_NO, BOUND_SOME (on some paths), BOUND_YES */
    int pred;             /* the enclosing conditions: a register, -1 when always */
    int done;             /* "returned already": a register, -1 when no return has run */
    int res;              /* the returned value so far, -1 when none */
    int depth;
};

enum { BOUND_NO, BOUND_SOME, BOUND_YES };

static int fail(struct scope *s, const struct dsl_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct scope *s, const struct dsl_node *n, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->b->failed = true;
    return dsl_raise_in(s->b->in, s->f, n->pos, "CompileError", "%s(%s): %s", s->b->what,
                        s->f->def->name, msg);
}

static int oom(struct scope *s)
{
    s->b->failed = true;
    return dsl_raise_status(s->b->in, DSL_V_NOMEM);
}

/* Appends an instruction; returns its register (in SSA form, nargs + its index), or -1 after
 * raising. */
static int emit(struct scope *s, const struct dsl_node *n, enum mt_prog_op op, int a, int b, int c,
                float imm)
{
    struct dsl_prog *p = s->b->prog;
    if (p->p.ninsn == MT_PROG_MAX_INSNS)
        return fail(s, n, "more than %d operations after unrolling loops and inlining calls",
                    MT_PROG_MAX_INSNS);
    if (p->p.ninsn == p->cap) {
        int cap = p->cap ? 2 * p->cap : 32;
        struct mt_prog_insn *q = realloc(p->insn, (size_t)cap * sizeof *q);
        if (!q) return oom(s);
        p->insn = q;
        p->cap = cap;
        p->p.insn = q;
    }
    const int dst = p->p.nargs + p->p.ninsn;
    p->insn[p->p.ninsn++] =
        (struct mt_prog_insn){.op = op, .dst = dst, .a = a, .b = b, .c = c, .imm = imm};
    return dst;
}

static int konst(struct scope *s, const struct dsl_node *n, float v)
{
    const struct dsl_prog *p = s->b->prog;
    for (int i = 0; i < p->p.ninsn; i++) /* one register per constant */
        if (p->insn[i].op == MT_P_CONST && memcmp(&p->insn[i].imm, &v, sizeof v) == 0)
            return p->insn[i].dst;
    return emit(s, n, MT_P_CONST, 0, 0, 0, v);
}

/* Guards are registers, or -1 for "always"; after an error (s->b->failed) their values mean
 * nothing, and every caller checks the flag. */

/* a and b as a guard */
static int both(struct scope *s, const struct dsl_node *n, int a, int b)
{
    if (a < 0) return b;
    if (b < 0) return a;
    return emit(s, n, MT_P_AND, a, b, 0, 0.0f);
}

/* The condition under which the statement being compiled runs. */
static int guard(struct scope *s, const struct dsl_node *n)
{
    if (s->done < 0) return s->pred;
    int live = emit(s, n, MT_P_NOT, s->done, 0, 0, 0.0f);
    return live < 0 ? -1 : both(s, n, s->pred, live);
}

static struct dep snapshot(const struct dsl_value *v)
{
    struct dep d = {.kind = v ? v->kind : DSL_KIND_COUNT};
    if (v && dsl_is_number(*v)) d.num = dsl_as_double(*v);
    if (v && v->kind == DSL_FUNCTION) d.ptr = v->as.fn_user;
    if (v && v->kind == DSL_BUILTIN) d.ptr = v->as.fn;
    return d;
}

static bool same_dep(const struct dep *a, const struct dep *b)
{
    return a->kind == b->kind && memcmp(&a->num, &b->num, sizeof a->num) == 0 && a->ptr == b->ptr;
}

/* The session's variable `name` (NULL: none), recorded as a dependency of the program. */
static struct dsl_value *global(struct scope *s, const char *name)
{
    struct builder *b = s->b;
    struct dsl_value *v = dsl_session_lookup(b->in->session, name);
    for (size_t i = 0; i < b->ndeps; i++)
        if (strcmp(b->deps[i].name, name) == 0) return v;
    if (b->ndeps == b->capdeps) {
        size_t cap = b->capdeps ? 2 * b->capdeps : 8;
        struct dep *q = realloc(b->deps, cap * sizeof *q);
        if (!q) { /* unrecorded: the program is then not kept (see dsl_prog_compile) */
            b->capdeps = (size_t)-1;
            return v;
        }
        b->deps = q;
        b->capdeps = cap;
    }
    struct dep d = snapshot(v);
    d.name = strdup(name);
    if (!d.name) {
        b->capdeps = (size_t)-1;
        return v;
    }
    b->deps[b->ndeps++] = d;
    return v;
}

static int local_index(const struct dsl_function *f, const char *name)
{
    for (size_t i = 0; i < f->nlocals; i++)
        if (strcmp(f->locals[i], name) == 0) return (int)i;
    return -1;
}

/* ---- expressions -------------------------------------------------------------------------- */

static int expr(struct scope *s, const struct dsl_node *n);
static int inline_call(struct scope *s, const struct dsl_node *n, const struct dsl_function *g,
                       const int *args, int nargs);

/* A value known when map() runs (a literal or a global), as the program's float32. */
static int number_value(struct scope *s, const struct dsl_node *n, struct dsl_value v,
                        const char *what)
{
    if (dsl_is_number(v)) return konst(s, n, (float)dsl_as_double(v));
    if (v.kind == DSL_TENSOR)
        return fail(s, n,
                    "%s is a tensor; the function runs on one number at a time (pass tensors "
                    "to map, zip or reduce instead)",
                    what);
    return fail(s, n, "%s is a %s, not a number", what, dsl_type_name(v));
}

static int name_expr(struct scope *s, const struct dsl_node *n)
{
    int i = local_index(s->f, n->name);
    if (i >= 0) {
        if (s->bound[i] == BOUND_NO)
            return fail(s, n, "local variable '%s' is read before it is assigned", n->name);
        if (s->bound[i] == BOUND_SOME)
            return fail(s, n,
                        "'%s' may be unassigned here: it is assigned only in some branches "
                        "before this line",
                        n->name);
        return s->env[i];
    }
    struct dsl_value *v = global(s, n->name);
    if (v) {
        char what[80];
        snprintf(what, sizeof what, "'%s'", n->name);
        if (v->kind == DSL_FUNCTION || v->kind == DSL_BUILTIN)
            return fail(s, n, "'%s' is a function: call it", n->name);
        return number_value(s, n, *v, what);
    }
    if (dsl_builtin_find(n->name)) return fail(s, n, "'%s' is a function: call it", n->name);
    return fail(s, n, "name '%s' is not defined", n->name);
}

static enum mt_prog_op binary_op(enum dsl_tok t)
{
    switch (t) {
    case DSL_T_PLUS: return MT_P_ADD;
    case DSL_T_MINUS: return MT_P_SUB;
    case DSL_T_STAR: return MT_P_MUL;
    case DSL_T_SLASH: return MT_P_DIV;
    case DSL_T_DSTAR: return MT_P_POW;
    case DSL_T_LT: return MT_P_LT;
    case DSL_T_LE: return MT_P_LE;
    case DSL_T_GT: return MT_P_GT;
    case DSL_T_GE: return MT_P_GE;
    case DSL_T_EQ: return MT_P_EQ;
    case DSL_T_NE: return MT_P_NE;
    default: return MT_P_COUNT;
    }
}

static const char *tok_text(enum dsl_tok t)
{
    switch (t) {
    case DSL_T_DSLASH: return "//";
    case DSL_T_PERCENT: return "%";
    case DSL_T_AT: return "@";
    case DSL_T_IN: return "in";
    case DSL_T_IS: return "is";
    case DSL_T_IS_NOT: return "is not";
    case DSL_T_AMP:
    case DSL_T_PIPE:
    case DSL_T_CARET:
    case DSL_T_LSHIFT:
    case DSL_T_RSHIFT: return dsl_op_symbol(t);
    default: return "this operator";
    }
}

/* The numeric builtins a compiled function may call: name, arity (-1: two or more), op. */
static const struct {
    const char *name;
    int arity;
    enum mt_prog_op op;
} numeric[] = {
    {"abs", 1, MT_P_ABS},     {"exp", 1, MT_P_EXP},         {"log", 1, MT_P_LOG},
    {"sqrt", 1, MT_P_SQRT},   {"sigmoid", 1, MT_P_SIGMOID}, {"tanh", 1, MT_P_TANH},
    {"relu", 1, MT_P_RELU},   {"min", -1, MT_P_MIN},        {"max", -1, MT_P_MAX},
    {"float", 1, MT_P_COUNT}, /* the value itself */
};

static int call_expr(struct scope *s, const struct dsl_node *n)
{
    if (n->a->kind == DSL_N_ATTR)
        return fail(s, n,
                    "the method .%s() works on tensors; the function runs on one number at a "
                    "time (exp(x), not x.exp())",
                    n->a->name);
    if (n->a->kind != DSL_N_NAME) return fail(s, n, "only functions called by name compile");
    if (n->nkw) return fail(s, n, "keyword arguments in calls do not compile");
    const char *name = n->a->name;
    if (local_index(s->f, name) >= 0)
        return fail(s, n, "'%s' is a local number, not a function", name);
    int args[16];
    if (n->nkids > 16) return fail(s, n, "%u arguments: at most 16 compile", n->nkids);
    struct dsl_value *g = global(s, name);
    if (g && g->kind == DSL_FUNCTION) {
        for (size_t i = 0; i < n->nkids; i++)
            if ((args[i] = expr(s, n->kids[i])) < 0) return -1;
        return inline_call(s, n, g->as.fn_user, args, (int)n->nkids);
    }
    const struct dsl_builtin *bi = g ? NULL : dsl_builtin_find(name);
    if (g && g->kind != DSL_BUILTIN)
        return fail(s, n, "'%s' is a %s, not a function", name, dsl_type_name(*g));
    if (g) bi = g->as.fn;
    for (size_t k = 0; bi && k < sizeof numeric / sizeof numeric[0]; k++) {
        if (strcmp(numeric[k].name, bi->name) != 0) continue;
        const int want = numeric[k].arity;
        if (want > 0 ? (int)n->nkids != want : n->nkids < 2)
            return fail(s, n, "%s() takes %s argument%s here, not %u", bi->name,
                        want > 0 ? "1" : "2 or more", want == 1 ? "" : "s", n->nkids);
        for (size_t i = 0; i < n->nkids; i++)
            if ((args[i] = expr(s, n->kids[i])) < 0) return -1;
        if (numeric[k].op == MT_P_COUNT) return args[0];
        if (want == 1) return emit(s, n, numeric[k].op, args[0], 0, 0, 0.0f);
        int r = args[0];
        for (size_t i = 1; i < n->nkids && r >= 0; i++)
            r = emit(s, n, numeric[k].op, r, args[i], 0, 0.0f);
        return r;
    }
    if (bi)
        return fail(s, n,
                    "%s() is not a numeric operation; a compiled function may call abs, min, "
                    "max, exp, log, sqrt, sigmoid, tanh, relu, float and user functions",
                    bi->name);
    return fail(s, n, "name '%s' is not defined", name);
}

static int expr(struct scope *s, const struct dsl_node *n)
{
    int a, b, c;
    switch (n->kind) {
    case DSL_N_CONST: return number_value(s, n, n->value, "this constant");
    case DSL_N_NAME: return name_expr(s, n);
    case DSL_N_UNARY:
        if (n->op == DSL_T_TILDE) return fail(s, n, "the operator ~ does not compile");
        if ((a = expr(s, n->a)) < 0) return -1;
        return n->op == DSL_T_MINUS ? emit(s, n, MT_P_NEG, a, 0, 0, 0.0f) : a;
    case DSL_N_NOT:
        if ((a = expr(s, n->a)) < 0) return -1;
        return emit(s, n, MT_P_NOT, a, 0, 0, 0.0f);
    case DSL_N_BINARY: {
        enum mt_prog_op op = binary_op(n->op);
        if (op == MT_P_COUNT)
            return fail(s, n, "the operator %s does not compile", tok_text(n->op));
        if ((a = expr(s, n->a)) < 0 || (b = expr(s, n->b)) < 0) return -1;
        return emit(s, n, op, a, b, 0, 0.0f);
    }
    case DSL_N_AND:
    case DSL_N_OR:
        if ((a = expr(s, n->a)) < 0 || (b = expr(s, n->b)) < 0) return -1;
        return emit(s, n, n->kind == DSL_N_AND ? MT_P_AND : MT_P_OR, a, b, 0, 0.0f);
    case DSL_N_COMPARE: {
        /* a < b < c is (a < b) and (b < c), each operand computed once */
        int prev = expr(s, n->kids[0]), acc = -1;
        for (size_t i = 1; prev >= 0 && i < n->nkids; i++) {
            enum mt_prog_op op = binary_op(n->ops[i - 1]);
            if (op == MT_P_COUNT || op < MT_P_LT)
                return fail(s, n, "the comparison %s does not compile", tok_text(n->ops[i - 1]));
            int next = expr(s, n->kids[i]);
            if (next < 0) return -1;
            int r = emit(s, n, op, prev, next, 0, 0.0f);
            acc = acc < 0 ? r : emit(s, n, MT_P_AND, acc, r, 0, 0.0f);
            if (acc < 0) return -1;
            prev = next;
        }
        return prev < 0 ? -1 : acc;
    }
    case DSL_N_COND:
        if ((c = expr(s, n->kids[0])) < 0 || (a = expr(s, n->a)) < 0 || (b = expr(s, n->b)) < 0)
            return -1;
        return emit(s, n, MT_P_SELECT, c, a, b, 0.0f);
    case DSL_N_CALL: return call_expr(s, n);
    case DSL_N_LIST: return fail(s, n, "a list is not a number");
    case DSL_N_TUPLE: return fail(s, n, "a tuple is not a number");
    case DSL_N_INDEX: return fail(s, n, "indexing does not compile; the function gets numbers");
    case DSL_N_ATTR: return fail(s, n, "attributes (.%s) do not compile", n->name);
    default: return fail(s, n, "this expression does not compile");
    }
}

/* ---- statements --------------------------------------------------------------------------- */

static int block(struct scope *s, const struct dsl_node *n, bool *ends);

/* local i = r, under the current guard */
static int assign(struct scope *s, const struct dsl_node *n, int i, int r)
{
    int g = guard(s, n);
    if (s->b->failed) return -1;
    if (g >= 0 && s->bound[i] != BOUND_NO) {
        r = emit(s, n, MT_P_SELECT, g, r, s->env[i], 0.0f);
        if (r < 0) return -1;
    }
    s->env[i] = r;
    s->bound[i] = BOUND_YES;
    return 0;
}

static int target_index(struct scope *s, const struct dsl_node *t)
{
    if (t->kind != DSL_N_NAME)
        return fail(s, t, "only local names can be assigned (not %s)",
                    t->kind == DSL_N_INDEX  ? "an element"
                    : t->kind == DSL_N_ATTR ? "an attribute"
                                            : "several names at once");
    return local_index(s->f, t->name); /* a name assigned in the body is always a local */
}

static int do_return(struct scope *s, const struct dsl_node *n)
{
    if (!n->a) return fail(s, n, "a bare return gives None, not a number");
    int r = expr(s, n->a);
    if (r < 0) return -1;
    int g = guard(s, n);
    if (s->b->failed) return -1;
    /* the first return, or one that always runs, gives the value; a later guarded one selects */
    s->res = s->res < 0 || g < 0 ? r : emit(s, n, MT_P_SELECT, g, r, s->res, 0.0f);
    if (g >= 0) s->done = s->done < 0 ? g : emit(s, n, MT_P_OR, s->done, g, 0, 0.0f);
    return s->b->failed ? -1 : 0;
}

/* if/elif/else: each branch under its condition and not the earlier ones'; a local is bound
 * after the statement where every branch that goes on (does not return) binds it. */
static int if_stmt(struct scope *s, const struct dsl_node *n, bool *ends)
{
    const size_t nl = s->f->nlocals;
    unsigned char *before = malloc(nl + 1), *merged = malloc(nl + 1);
    if (!before || !merged) {
        free(before);
        free(merged);
        return oom(s);
    }
    memcpy(before, s->bound, nl);
    const int outer = s->pred;
    int taken = -1, r = 0, going_on = 0;
    bool all_end = true;
    const size_t nbranch = n->nkids / 2 + (n->b ? 1 : 0);
    for (size_t k = 0; k < nbranch && r == 0; k++) {
        const bool is_else = k == n->nkids / 2;
        int cond = -1;
        if (!is_else && (cond = expr(s, n->kids[2 * k])) < 0) {
            r = -1;
            break;
        }
        int notyet = taken < 0 ? -1 : emit(s, n, MT_P_NOT, taken, 0, 0, 0.0f);
        s->pred = both(s, n, both(s, n, outer, notyet), cond);
        if (!is_else) taken = taken < 0 ? cond : emit(s, n, MT_P_OR, taken, cond, 0, 0.0f);
        if (s->b->failed) {
            r = -1;
            break;
        }
        memcpy(s->bound, before, nl);
        bool e = false;
        r = block(s, is_else ? n->b : n->kids[2 * k + 1], &e);
        if (r != 0) break;
        all_end = all_end && e;
        if (!e) { /* this branch goes on past the if: merge what it bound */
            for (size_t i = 0; i < nl; i++)
                merged[i] = going_on == 0                ? s->bound[i]
                            : merged[i] == s->bound[i]   ? merged[i]
                            : (merged[i] || s->bound[i]) ? BOUND_SOME
                                                         : BOUND_NO;
            going_on++;
        }
    }
    if (r == 0 && !n->b) { /* no else: the path around the if goes on too */
        all_end = false;
        for (size_t i = 0; i < nl; i++)
            merged[i] = going_on == 0              ? before[i]
                        : merged[i] == before[i]   ? merged[i]
                        : (merged[i] || before[i]) ? BOUND_SOME
                                                   : BOUND_NO;
        going_on++;
    }
    if (r == 0) memcpy(s->bound, going_on ? merged : before, nl);
    s->pred = outer;
    *ends = r == 0 && all_end;
    free(before);
    free(merged);
    return r;
}

/* for NAME in range(...) with arguments known now: the body once per value */
static int for_stmt(struct scope *s, const struct dsl_node *n)
{
    const struct dsl_node *it = n->a;
    if (!n->name) return fail(s, n, "a for loop over several variables does not compile");
    if (it->kind != DSL_N_CALL || it->a->kind != DSL_N_NAME || strcmp(it->a->name, "range") != 0 ||
        it->nkids < 1 || it->nkids > 3 || it->nkw)
        return fail(s, it, "a for loop compiles over range(...) only");
    int64_t v[3] = {0, 0, 1};
    for (size_t k = 0; k < it->nkids; k++) {
        const struct dsl_node *e = it->kids[k];
        struct dsl_value val = dsl_none();
        if (e->kind == DSL_N_CONST)
            val = e->value;
        else if (e->kind == DSL_N_NAME && local_index(s->f, e->name) < 0) {
            struct dsl_value *g = global(s, e->name);
            if (g) val = *g;
        } else if (e->kind == DSL_N_UNARY && e->op == DSL_T_MINUS && e->a->kind == DSL_N_CONST &&
                   dsl_is_intlike(e->a->value)) {
            val = dsl_int(-dsl_as_int(e->a->value));
        }
        if (!dsl_is_intlike(val))
            return fail(s, e,
                        "the loop's trip count must be known when the function is compiled: "
                        "range() of integer constants or global integers");
        v[k] = dsl_as_int(val);
    }
    int64_t start = it->nkids == 1 ? 0 : v[0], stop = it->nkids == 1 ? v[0] : v[1],
            step = it->nkids == 3 ? v[2] : 1;
    if (step == 0) return fail(s, it, "range() arg 3 must not be zero");
    const int var = local_index(s->f, n->name);
    for (int64_t x = start; step > 0 ? x < stop : x > stop;) {
        if (++s->b->unrolled > MAX_UNROLL)
            return fail(s, n, "more than %d loop iterations to unroll", MAX_UNROLL);
        int k = konst(s, n, (float)x);
        if (k < 0 || assign(s, n, var, k) != 0) return -1;
        bool e = false;
        if (block(s, n->b, &e) != 0) return -1;
        if (e) break; /* returned on every path: later iterations never run */
        if (__builtin_add_overflow(x, step, &x)) break; /* past int64: the range has ended */
    }
    return 0;
}

static int stmt(struct scope *s, const struct dsl_node *n, bool *ends)
{
    *ends = false;
    int r, i;
    switch (n->kind) {
    case DSL_N_EXPR:
        if (n->a->kind == DSL_N_CONST) return 0; /* a docstring, or a value thrown away */
        return expr(s, n->a) < 0 ? -1 : 0;
    case DSL_N_ASSIGN:
        if ((r = expr(s, n->a)) < 0) return -1;
        for (size_t k = 0; k < n->nkids; k++) {
            if ((i = target_index(s, n->kids[k])) < 0 || assign(s, n, i, r) != 0) return -1;
        }
        return 0;
    case DSL_N_AUG: {
        enum mt_prog_op op = binary_op(n->op);
        if (op == MT_P_COUNT)
            return fail(s, n, "the operator %s= does not compile", tok_text(n->op));
        if ((i = target_index(s, n->a)) < 0) return -1;
        int old = name_expr(s, n->a), val = old < 0 ? -1 : expr(s, n->b);
        if (val < 0 || (r = emit(s, n, op, old, val, 0, 0.0f)) < 0) return -1;
        return assign(s, n, i, r);
    }
    case DSL_N_RETURN: *ends = true; return do_return(s, n);
    case DSL_N_IF: return if_stmt(s, n, ends);
    case DSL_N_FOR: return for_stmt(s, n);
    case DSL_N_PASS: return 0;
    case DSL_N_BLOCK: return block(s, n, ends);
    case DSL_N_WHILE:
        return fail(s, n,
                    "a while loop does not compile: its trip count is known only when it runs "
                    "(use for i in range(N) with N known in advance)");
    case DSL_N_BREAK:
    case DSL_N_CONTINUE:
        return fail(s, n, "%s does not compile", n->kind == DSL_N_BREAK ? "break" : "continue");
    case DSL_N_DEF: return fail(s, n, "a def inside the function does not compile");
    case DSL_N_MAGIC: return fail(s, n, "a magic does not compile");
    case DSL_N_TRY:
    case DSL_N_RAISE:
        return fail(s, n,
                    "%s does not compile: the function runs on every element at once, with no "
                    "errors of its own",
                    n->kind == DSL_N_TRY ? "try" : "raise");
    case DSL_N_DEL: return fail(s, n, "del does not compile");
    default: return fail(s, n, "this statement does not compile");
    }
}

/* A block's statements; *ends when every path through it returned (what follows is dead). */
static int block(struct scope *s, const struct dsl_node *n, bool *ends)
{
    *ends = false;
    for (size_t k = 0; k < n->nkids; k++) {
        if (stmt(s, n->kids[k], ends) != 0) return -1;
        if (*ends) return 0;
    }
    return 0;
}

/* ---- functions ---------------------------------------------------------------------------- */

/* g's body with its parameters bound to args (missing ones from their defaults), its value's
 * register. */
static int compile_body(struct builder *b, const struct dsl_function *g, const int *args, int nargs,
                        int depth, const struct dsl_node *site, struct scope *caller)
{
    const struct dsl_node *def = g->def;
    struct scope s = {.b = b, .f = g, .pred = -1, .done = -1, .res = -1, .depth = depth};
    if (depth > MAX_INLINE_DEPTH)
        return fail(caller, site, "calls nest deeper than %d (is %s() recursive?)",
                    MAX_INLINE_DEPTH, def->name);
    s.env = calloc(g->nlocals + 1, sizeof *s.env);
    s.bound = calloc(g->nlocals + 1, 1);
    int r = -1;
    if (!s.env || !s.bound) {
        oom(&s);
        goto done;
    }
    if (def->star || def->dstar || def->nargs != def->nkw) {
        /* a compiled function gets numbers, one per positional parameter */
        r = fail(caller ? caller : &s, caller ? site : def,
                 "%s() has *args, **kwargs or keyword-only parameters, which do not compile",
                 def->name);
        goto done;
    }
    if ((size_t)nargs > def->nkw) {
        struct scope *at = caller ? caller : &s;
        r = fail(at, caller ? site : def, "%s() takes %u argument%s, not %d", def->name, def->nkw,
                 def->nkw == 1 ? "" : "s", nargs);
        goto done;
    }
    for (size_t i = 0; i < def->nkw; i++) {
        if ((int)i < nargs) {
            s.env[i] = args[i];
        } else if (def->kwvals[i] && dsl_is_number(g->defaults[i])) {
            if ((s.env[i] = konst(&s, def, (float)dsl_as_double(g->defaults[i]))) < 0) goto done;
        } else {
            struct scope *at = caller ? caller : &s;
            if (def->kwvals[i])
                fail(at, caller ? site : def, "parameter '%s' defaults to a %s, not a number",
                     def->kwnames[i], dsl_type_name(g->defaults[i]));
            else
                fail(at, caller ? site : def, "%s() needs its parameter '%s' (%d given)", def->name,
                     def->kwnames[i], nargs);
            goto done;
        }
        s.bound[i] = BOUND_YES;
    }
    bool ends = false;
    if (block(&s, def->b, &ends) != 0) goto done;
    if (!ends) {
        fail(&s, def, "%s() can end without a return, and would give None, not a number",
             def->name);
        goto done;
    }
    r = s.res;
done:
    free(s.env);
    free(s.bound);
    return r;
}

static int inline_call(struct scope *s, const struct dsl_node *n, const struct dsl_function *g,
                       const int *args, int nargs)
{
    return compile_body(s->b, g, args, nargs, s->depth + 1, n, s);
}

void dsl_prog_free(struct dsl_prog *p)
{
    free(p->insn);
    memset(p, 0, sizeof *p);
}

static void free_deps(struct dep *d, size_t n)
{
    for (size_t i = 0; i < n; i++) free(d[i].name);
    free(d);
}

/* A function's compiled programs, one per number of arguments, each with the session names it
 * read (struct dep): Numba's cache of jitted functions. */
struct kept {
    bool valid;
    struct dsl_prog prog;
    struct dep *deps;
    size_t ndeps;
};
struct dsl_prog_cache {
    struct kept by_nargs[2];
};

void dsl_prog_cache_free(struct dsl_prog_cache *c)
{
    if (!c) return;
    for (int i = 0; i < 2; i++) {
        dsl_prog_free(&c->by_nargs[i].prog);
        free_deps(c->by_nargs[i].deps, c->by_nargs[i].ndeps);
    }
    free(c);
}

/* k still means what it did: every name it read resolves as it did then. */
static bool still_valid(struct dsl_interp *in, const struct kept *k)
{
    if (!k->valid) return false;
    for (size_t i = 0; i < k->ndeps; i++) {
        struct dep now = snapshot(dsl_session_lookup(in->session, k->deps[i].name));
        if (!same_dep(&now, &k->deps[i])) return false;
    }
    return true;
}

/* The struct moved: its program's pointers into it, again. */
static void repoint(struct dsl_prog *p)
{
    p->p.insn = p->insn;
    p->p.name = p->name;
}

/* Drops the instructions whose value nothing reads (an unrolled loop's unused counter, a value
 * a later assignment replaced), renumbering the registers: they would take operations and
 * buffers of the program's limits for nothing. The operands an op does not read are 0 here (as
 * emit's callers pass them), an argument's register, which is always kept. Out of memory, p is
 * left whole (correct, only bigger). */
static void drop_dead(struct dsl_prog *p)
{
    const int nargs = p->p.nargs, n = p->p.ninsn;
    bool *live = calloc((size_t)(nargs + n), sizeof *live);
    int *to = malloc((size_t)(nargs + n) * sizeof *to);
    if (!live || !to) goto done;
    live[p->p.result] = true;
    for (int i = n - 1; i >= 0; i--) {
        const struct mt_prog_insn *q = &p->insn[i];
        if (live[q->dst]) live[q->a] = live[q->b] = live[q->c] = true;
    }
    for (int r = 0; r < nargs; r++) to[r] = r;
    int m = 0;
    for (int i = 0; i < n; i++) {
        struct mt_prog_insn q = p->insn[i];
        if (!live[q.dst]) continue;
        q.a = to[q.a], q.b = to[q.b], q.c = to[q.c];
        to[p->insn[i].dst] = q.dst = nargs + m;
        p->insn[m++] = q;
    }
    p->p.ninsn = m;
    p->p.result = to[p->p.result];
done:
    free(live);
    free(to);
}

/* minitorch.operators' functions (builtin rows whose signature begins "operators."), given to
 * map, zip or reduce as MiniTorch's ops are made (FastOps.reduce(operators.max, -1e9)): each
 * as a program of the float operations of its definition (lib/operators.h), in float32 as the
 * tensors hold their values. Arguments are registers 0 and 1; each instruction writes the next. */
#define OP_INSN(op_, a_, b_, c_, imm_)                                                             \
    {                                                                                              \
        .op = (op_), .a = (a_), .b = (b_), .c = (c_), .imm = (imm_)                                \
    }
static const struct {
    const char *name;
    int nargs, ninsn;
    struct mt_prog_insn insn[5];
} operator_progs[] = {
    {"id", 1, 0, {{0}}},
    {"neg", 1, 1, {OP_INSN(MT_P_NEG, 0, 0, 0, 0)}},
    {"inv", 1, 2, {OP_INSN(MT_P_CONST, 0, 0, 0, 1), OP_INSN(MT_P_DIV, 1, 0, 0, 0)}},
    {"exp", 1, 1, {OP_INSN(MT_P_EXP, 0, 0, 0, 0)}},
    {"log",
     1,
     3, /* log(x + EPS) */
     {OP_INSN(MT_P_CONST, 0, 0, 0, (float)OP_EPS), OP_INSN(MT_P_ADD, 0, 1, 0, 0),
      OP_INSN(MT_P_LOG, 2, 0, 0, 0)}},
    {"sigmoid", 1, 1, {OP_INSN(MT_P_SIGMOID, 0, 0, 0, 0)}},
    {"relu", 1, 1, {OP_INSN(MT_P_RELU, 0, 0, 0, 0)}},
    {"add", 2, 1, {OP_INSN(MT_P_ADD, 0, 1, 0, 0)}},
    {"mul", 2, 1, {OP_INSN(MT_P_MUL, 0, 1, 0, 0)}},
    {"lt", 2, 1, {OP_INSN(MT_P_LT, 0, 1, 0, 0)}},
    {"eq", 2, 1, {OP_INSN(MT_P_EQ, 0, 1, 0, 0)}},
    {"max",
     2,
     2, /* x if x > y else y */
     {OP_INSN(MT_P_GT, 0, 1, 0, 0), OP_INSN(MT_P_SELECT, 2, 0, 1, 0)}},
    {"is_close",
     2,
     4, /* |x - y| < 1e-2 */
     {OP_INSN(MT_P_SUB, 0, 1, 0, 0), OP_INSN(MT_P_ABS, 2, 0, 0, 0),
      OP_INSN(MT_P_CONST, 0, 0, 0, 1e-2f), OP_INSN(MT_P_LT, 3, 4, 0, 0)}},
    {"relu_back",
     2,
     3, /* d if x > 0 else 0 */
     {OP_INSN(MT_P_CONST, 0, 0, 0, 0), OP_INSN(MT_P_GT, 0, 2, 0, 0),
      OP_INSN(MT_P_SELECT, 3, 1, 2, 0)}},
    {"log_back",
     2,
     3, /* d / (x + EPS) */
     {OP_INSN(MT_P_CONST, 0, 0, 0, (float)OP_EPS), OP_INSN(MT_P_ADD, 0, 2, 0, 0),
      OP_INSN(MT_P_DIV, 1, 3, 0, 0)}},
    {"inv_back",
     2,
     5, /* -(1 / (x * x)) * d */
     {OP_INSN(MT_P_MUL, 0, 0, 0, 0), OP_INSN(MT_P_CONST, 0, 0, 0, 1), OP_INSN(MT_P_DIV, 3, 2, 0, 0),
      OP_INSN(MT_P_NEG, 4, 0, 0, 0), OP_INSN(MT_P_MUL, 5, 1, 0, 0)}},
};

/* The program of operators' function `name` of nargs arguments into scratch: 1 when there is
 * one, 0 when name is none of them, -1 after raising. */
static int operator_prog(struct dsl_interp *in, const char *name, int nargs, const char *what,
                         struct dsl_prog *scratch)
{
    for (size_t k = 0; k < sizeof operator_progs / sizeof operator_progs[0]; k++) {
        if (strcmp(operator_progs[k].name, name) != 0) continue;
        const int n = operator_progs[k].ninsn;
        if (operator_progs[k].nargs != nargs)
            return dsl_raise(in, "TypeError", "%s(): operators.%s takes %d argument%s, %s gives %d",
                             what, name, operator_progs[k].nargs,
                             operator_progs[k].nargs == 1 ? "" : "s", what, nargs);
        scratch->insn = malloc(sizeof *scratch->insn * (size_t)(n ? n : 1));
        if (!scratch->insn) return dsl_raise_status(in, DSL_V_NOMEM);
        for (int i = 0; i < n; i++) {
            scratch->insn[i] = operator_progs[k].insn[i];
            scratch->insn[i].dst = nargs + i;
        }
        scratch->cap = n ? n : 1;
        scratch->p.insn = scratch->insn;
        scratch->p.ninsn = n;
        scratch->p.result = nargs + n - 1;
        return 1;
    }
    return 0;
}

int dsl_prog_compile(struct dsl_interp *in, struct dsl_value fn, int nargs, const char *what,
                     const struct mt_prog **out, struct dsl_prog *scratch)
{
    memset(scratch, 0, sizeof *scratch);
    *out = NULL;
    scratch->p.nargs = nargs;
    scratch->p.name = scratch->name;
    if (fn.kind == DSL_BUILTIN) { /* map(exp, x), reduce(max, x, 0, ...) */
        snprintf(scratch->name, sizeof scratch->name, "%s", fn.as.fn->name);
        if (strncmp(fn.as.fn->signature, "operators.", 10) == 0) {
            int r = operator_prog(in, fn.as.fn->name, nargs, what, scratch);
            if (r != 0) {
                if (r > 0) *out = &scratch->p;
                return r > 0 ? 0 : -1;
            }
        }
        for (size_t k = 0; k < sizeof numeric / sizeof numeric[0]; k++) {
            if (strcmp(numeric[k].name, fn.as.fn->name) != 0 || numeric[k].op == MT_P_COUNT)
                continue;
            if ((numeric[k].arity == 1) != (nargs == 1)) break;
            scratch->insn = malloc(sizeof *scratch->insn);
            if (!scratch->insn) return dsl_raise_status(in, DSL_V_NOMEM);
            scratch->insn[0] = (struct mt_prog_insn){
                .op = numeric[k].op, .dst = nargs, .a = 0, .b = nargs > 1 ? 1 : 0};
            scratch->cap = 1;
            scratch->p.insn = scratch->insn;
            scratch->p.ninsn = 1;
            scratch->p.result = nargs;
            *out = &scratch->p;
            return 0;
        }
        return dsl_raise(in, "TypeError", "%s(): %s() is not a numeric function of %d argument%s",
                         what, fn.as.fn->name, nargs, nargs == 1 ? "" : "s");
    }
    if (fn.kind != DSL_FUNCTION)
        return dsl_raise(in, "TypeError", "%s(): the first argument must be a function, not %s",
                         what, dsl_type_name(fn));
    struct dsl_function *f = fn.as.fn_user;
    struct kept *k = f->progs ? &f->progs->by_nargs[nargs - 1] : NULL;
    if (k && still_valid(in, k)) {
        *out = &k->prog.p;
        return 0;
    }
    struct dsl_prog prog = {0};
    snprintf(prog.name, sizeof prog.name, "%s", f->def->name);
    prog.p.nargs = nargs;
    struct builder b = {.in = in, .prog = &prog, .what = what};
    int args[2] = {0, 1};
    int r = compile_body(&b, f, args, nargs, 0, NULL, NULL);
    if (r >= 0) {
        repoint(&prog);
        prog.p.result = r;
        drop_dead(&prog);
        /* what the engine refuses here is a limit of the program's (values alive at once) */
        enum mt_status st = mt_prog_check(in->session->ctx, &prog.p);
        if (st != MT_OK) {
            const char *msg = mt_ctx_error(in->session->ctx), *name = f->def->name;
            const size_t len = strlen(name); /* the engine's message starts with the name */
            if (strncmp(msg, name, len) == 0 && strncmp(msg + len, ": ", 2) == 0) msg += len + 2;
            r = dsl_raise_in(in, f, f->def->pos, "CompileError", "%s(%s): %s", what, name, msg);
        }
    }
    if (r < 0) {
        dsl_prog_free(&prog);
        free_deps(b.deps, b.ndeps);
        return -1;
    }
    if (!f->progs) f->progs = calloc(1, sizeof *f->progs);
    if (!f->progs || b.capdeps == (size_t)-1) { /* not kept (out of memory): used once */
        free_deps(b.deps, b.ndeps);
        *scratch = prog;
        repoint(scratch);
        *out = &scratch->p;
        return 0;
    }
    k = &f->progs->by_nargs[nargs - 1];
    dsl_prog_free(&k->prog);
    free_deps(k->deps, k->ndeps);
    *k = (struct kept){.valid = true, .prog = prog, .deps = b.deps, .ndeps = b.ndeps};
    repoint(&k->prog);
    *out = &k->prog.p;
    return 0;
}

/* ---- the builtins ------------------------------------------------------------------------- */

static struct mt_ctx *ctx_of(struct dsl_interp *in) { return in->session->ctx; }

/* v as a tensor on backend `like` (a number becomes a (1,) tensor): a new reference. */
static int as_tensor(struct dsl_interp *in, struct dsl_value v, const char *what, const char *arg,
                     enum mt_backend like, struct mt_tensor **out)
{
    if (v.kind == DSL_TENSOR) {
        *out = mt_tensor_retain(v.as.t);
        return 0;
    }
    if (!dsl_is_number(v))
        return dsl_raise(in, "TypeError", "%s(): %s must be a tensor or a number, not %s", what,
                         arg, dsl_type_name(v));
    int64_t one = 1;
    enum mt_status st = mt_full(ctx_of(in), like, 1, &one, (float)dsl_as_double(v), out);
    return st == MT_OK ? 0 : dsl_engine_raise(in, st);
}

int dsl_bi_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[1].kind != DSL_TENSOR)
        return dsl_raise(in, "TypeError", "map(): the second argument must be a tensor, not %s",
                         dsl_type_name(a->slot[1]));
    struct mt_tensor *out = NULL;
    if (a->has[2] && a->slot[2].kind != DSL_NONE) {
        if (a->slot[2].kind != DSL_TENSOR)
            return dsl_raise(in, "TypeError", "map(): out must be a tensor, not %s",
                             dsl_type_name(a->slot[2]));
        out = a->slot[2].as.t;
    }
    struct dsl_prog scratch;
    const struct mt_prog *p;
    if (dsl_prog_compile(in, a->slot[0], 1, "map", &p, &scratch) != 0) return -1;
    struct mt_tensor *given = out;
    enum mt_status st = mt_map_prog(ctx_of(in), p, a->slot[1].as.t, &out);
    dsl_prog_free(&scratch);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *ret = dsl_tensor(given ? mt_tensor_retain(given) : out);
    return 0;
}

int dsl_bi_zip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value x = a->slot[1], y = a->slot[2];
    if (x.kind != DSL_TENSOR && y.kind != DSL_TENSOR)
        return dsl_raise(in, "TypeError", "zip(): at least one of a and b must be a tensor");
    enum mt_backend be = (x.kind == DSL_TENSOR ? x : y).as.t->backend;
    struct mt_tensor *ta = NULL, *tb = NULL, *out = NULL;
    if (as_tensor(in, x, "zip", "a", be, &ta) != 0) return -1;
    if (as_tensor(in, y, "zip", "b", be, &tb) != 0) {
        mt_tensor_release(ta);
        return -1;
    }
    struct dsl_prog scratch;
    const struct mt_prog *p;
    int r = dsl_prog_compile(in, a->slot[0], 2, "zip", &p, &scratch);
    if (r == 0) {
        enum mt_status st = mt_zip_prog(ctx_of(in), p, ta, tb, &out);
        dsl_prog_free(&scratch);
        if (st != MT_OK) r = dsl_engine_raise(in, st);
    }
    mt_tensor_release(ta);
    mt_tensor_release(tb);
    if (r == 0) *ret = dsl_tensor(out);
    return r;
}

int dsl_bi_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[1].kind != DSL_TENSOR)
        return dsl_raise(in, "TypeError", "reduce(): the second argument must be a tensor, not %s",
                         dsl_type_name(a->slot[1]));
    if (!dsl_is_intlike(a->slot[2]))
        return dsl_raise(in, "TypeError", "reduce(): dim must be an integer, not %s",
                         dsl_type_name(a->slot[2]));
    double start = 0.0;
    if (a->has[3]) {
        if (!dsl_is_number(a->slot[3]))
            return dsl_raise(in, "TypeError", "reduce(): start must be a number, not %s",
                             dsl_type_name(a->slot[3]));
        start = dsl_as_double(a->slot[3]);
    }
    int64_t dim = dsl_as_int(a->slot[2]);
    if (dim < -MT_MAX_DIMS || dim >= MT_MAX_DIMS)
        return dsl_raise(in, "IndexError", "reduce(): dim %lld is out of range", (long long)dim);
    struct dsl_prog scratch;
    const struct mt_prog *p;
    if (dsl_prog_compile(in, a->slot[0], 2, "reduce", &p, &scratch) != 0) return -1;
    struct mt_tensor *out = NULL;
    enum mt_status st =
        mt_reduce_prog(ctx_of(in), p, a->slot[1].as.t, (int)dim, (float)start, &out);
    dsl_prog_free(&scratch);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *ret = dsl_tensor(out);
    return 0;
}

int dsl_bi_cuda_source(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind == DSL_FUNCTION && a->slot[0].as.fn_user->cuda_kernel)
        return dsl_cuda_kernel_source(in, a->slot[0].as.fn_user, ret);
    const char *kind = "map";
    if (a->has[1]) {
        if (a->slot[1].kind != DSL_STR)
            return dsl_raise(in, "TypeError", "cuda_source(): kind must be a string, not %s",
                             dsl_type_name(a->slot[1]));
        kind = a->slot[1].as.s->data;
    }
    if (strcmp(kind, "map") != 0 && strcmp(kind, "zip") != 0 && strcmp(kind, "reduce") != 0)
        return dsl_raise(in, "ValueError",
                         "cuda_source(): kind is \"map\", \"zip\" or \"reduce\", not \"%s\"", kind);
    struct dsl_prog scratch;
    const struct mt_prog *p;
    if (dsl_prog_compile(in, a->slot[0], strcmp(kind, "map") == 0 ? 1 : 2, kind, &p, &scratch) != 0)
        return -1;
    char *src = mt_prog_cuda_source(p, kind, true);
    dsl_prog_free(&scratch);
    if (!src) return dsl_raise_status(in, DSL_V_NOMEM);
    int st = dsl_str_value(src, strlen(src), ret);
    free(src);
    return st ? dsl_raise_status(in, st) : 0;
}

/* exp(x) and the like: a number gives a float (IEEE, as the tensor ops: log(0) is -inf, log of
 * a negative number nan), a tensor the differentiable tensor op. */
static int numeric_builtin(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                           const char *name, double (*num)(double),
                           enum mt_status (*op)(struct mt_ctx *, struct mt_tensor *,
                                                struct mt_tensor **))
{
    struct dsl_value v = a->slot[0];
    if (dsl_is_number(v)) {
        *ret = dsl_float(num(dsl_as_double(v)));
        return 0;
    }
    if (v.kind != DSL_TENSOR)
        return dsl_raise(in, "TypeError", "%s() takes a number or a tensor, not %s", name,
                         dsl_type_name(v));
    struct mt_tensor *out = NULL;
    enum mt_status st = op(ctx_of(in), v.as.t, &out);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *ret = dsl_tensor(out);
    return 0;
}

int dsl_bi_exp(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return numeric_builtin(in, a, ret, "exp", exp, mt_exp);
}
int dsl_bi_log(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return numeric_builtin(in, a, ret, "log", log, mt_log);
}
int dsl_bi_sqrt(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return numeric_builtin(in, a, ret, "sqrt", sqrt, mt_sqrt);
}
int dsl_bi_sigmoid(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return numeric_builtin(in, a, ret, "sigmoid", op_sigmoid, mt_sigmoid);
}
int dsl_bi_tanh(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return numeric_builtin(in, a, ret, "tanh", tanh, mt_tanh);
}
int dsl_bi_relu(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return numeric_builtin(in, a, ret, "relu", op_relu, mt_relu);
}
