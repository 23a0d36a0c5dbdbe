/* testing.c — what MiniTorch's tests import to check a student's code: testing.py's MathTest and
 * MathTestVariable, and tensor_functions' grad_check.
 *
 * MathTest's static methods are the functions every unit is tested on, written with
 * minitorch.operators on numbers (looked up when called, so a student's own operators file
 * answers when a cell wrote one); MathTestVariable derives from it and writes some of them again
 * with the methods and operators of the value (x.sigmoid(), a == b, a.sum(0)), so that they run
 * on the kernel's tensors and on a student's own Scalar or Tensor class alike. Each function is
 * a short program in postfix notation over the value's operators (see run_postfix). */
#include "lib/modules/module.h"

#include "lang/classes.h"
#include "lang/eval.h"
#include "lib/tensor_methods.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the functions, as postfix programs -------------------------------------------------- */

/* Runs program p on a (and b): its words, separated by spaces, push the arguments `a` and `b`
 * or a number (an int unless written with a point), apply an operator to the two values on top
 * (+ - * / < > ==, left operand below) or unary minus (`neg`), call minitorch.operators' function
 * (`o.inv`; `o.lt` and `o.eq` take two values), a method of the value on top (`.sigmoid`, and
 * `.sum(0)` with an int argument), or the builtins `len` and `float`. */
#define POSTFIX_DEPTH 8

static int call_operator(struct dsl_interp *in, const char *name, const struct dsl_value *args,
                         size_t n, struct dsl_value *out)
{
    struct dsl_value m = dsl_none(), ops = dsl_none(), fn = dsl_none();
    int r = dsl_module_import(in, "minitorch", &m);
    if (r == 0) r = dsl_getattr(in, m, "operators", &ops);
    if (r == 0) r = dsl_getattr(in, ops, name, &fn);
    if (r == 0) r = mod_call(in, fn, args, n, out);
    dsl_value_release(m);
    dsl_value_release(ops);
    dsl_value_release(fn);
    return r;
}

static int call_method(struct dsl_interp *in, struct dsl_value self, const char *word,
                       struct dsl_value *out)
{
    char name[32];
    size_t len = strcspn(word, "( ");
    memcpy(name, word, len < sizeof name ? len : sizeof name - 1);
    name[len < sizeof name ? len : sizeof name - 1] = '\0';
    bool arg = word[len] == '(' && word[len + 1] != ')';
    struct dsl_value fn, dim = dsl_int(arg ? strtol(word + len + 1, NULL, 10) : 0);
    if (dsl_getattr(in, self, name, &fn) != 0) return -1;
    int r = mod_call(in, fn, &dim, arg ? 1 : 0, out);
    dsl_value_release(fn);
    return r;
}

static int apply_word(struct dsl_interp *in, const char *w, size_t len, struct dsl_value *stack,
                      size_t *top, const struct dsl_args *a)
{
    static const struct {
        const char *word;
        enum dsl_tok op;
    } binary[] = {{"+", DSL_T_PLUS}, {"-", DSL_T_MINUS}, {"*", DSL_T_STAR}, {"/", DSL_T_SLASH},
                  {"<", DSL_T_LT},   {">", DSL_T_GT},    {"==", DSL_T_EQ}};
    struct dsl_value v = dsl_none();
    int r = 0;
    size_t pop = 0;
    if (len == 1 && (*w == 'a' || *w == 'b')) {
        v = dsl_value_retain(a->slot[*w == 'b']);
    } else if (*w >= '0' && *w <= '9') {
        bool point = memchr(w, '.', len) != NULL;
        v = point ? dsl_float(strtod(w, NULL)) : dsl_int(strtol(w, NULL, 10));
    } else if (strncmp(w, "neg", len) == 0 && len == 3) {
        r = dsl_unary(in, DSL_T_MINUS, stack[*top - 1], &v), pop = 1;
    } else if (strncmp(w, "o.", 2) == 0) {
        char name[32] = "";
        memcpy(name, w + 2, len - 2 < sizeof name ? len - 2 : sizeof name - 1);
        pop = strcmp(name, "lt") == 0 || strcmp(name, "eq") == 0 ? 2 : 1;
        r = call_operator(in, name, stack + *top - pop, pop, &v);
    } else if (*w == '.') {
        r = call_method(in, stack[*top - 1], w + 1, &v), pop = 1;
    } else if ((len == 3 && strncmp(w, "len", 3) == 0) || (len == 5 && !strncmp(w, "float", 5))) {
        struct dsl_value fn = {.kind = DSL_BUILTIN,
                               .as.fn = dsl_builtin_find(*w == 'l' ? "len" : "float")};
        r = mod_call(in, fn, &stack[*top - 1], 1, &v), pop = 1;
    } else {
        pop = 2;
        for (size_t i = 0; i < sizeof binary / sizeof binary[0]; i++) {
            if (strlen(binary[i].word) != len || strncmp(w, binary[i].word, len) != 0) continue;
            r = binary[i].op == DSL_T_LT || binary[i].op == DSL_T_GT || binary[i].op == DSL_T_EQ
                    ? dsl_compare_value(in, binary[i].op, stack[*top - 2], stack[*top - 1], &v)
                    : dsl_binary(in, binary[i].op, stack[*top - 2], stack[*top - 1], &v);
        }
    }
    for (size_t i = 0; i < pop; i++) dsl_value_release(stack[--*top]);
    if (r != 0) return -1;
    stack[(*top)++] = v;
    return 0;
}

static int run_postfix(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                       const char *p)
{
    struct dsl_value stack[POSTFIX_DEPTH];
    size_t top = 0;
    int r = 0;
    for (const char *w = p; *w && r == 0;) {
        size_t len = strcspn(w, " ");
        r = apply_word(in, w, len, stack, &top, a);
        w += len + (w[len] == ' ');
    }
    if (r == 0) {
        *ret = stack[--top];
        return 0;
    }
    while (top) dsl_value_release(stack[--top]);
    return -1;
}

/* One static method per row: fn_NAME runs its program. */
#define POSTFIX(cls, name_, program)                                                               \
    static int cls##_##name_(struct dsl_interp *in, const struct dsl_args *a,                      \
                             struct dsl_value *ret)                                                \
    {                                                                                              \
        return run_postfix(in, a, ret, program);                                                   \
    }

/* MathTest: in dir() order, as MiniTorch's _tests() lists them */
POSTFIX(math, add2, "a b +")
POSTFIX(math, addConstant, "5 a +")
POSTFIX(math, complex, "a 10 * 7 + o.relu 6 * 5 + o.relu 10 * o.sigmoid o.log 50 /")
POSTFIX(math, cube, "a a * a *")
POSTFIX(math, div, "a 5 /")
POSTFIX(math, div2, "a b 5.5 + /")
POSTFIX(math, eq2, "a b 5.5 + o.eq")
POSTFIX(math, exp, "a 200 - o.exp")
POSTFIX(math, explog, "a 100000 + o.log a 200 - o.exp +")
POSTFIX(math, gt2, "b a 1.2 + o.lt")
POSTFIX(math, inv, "a 3.5 + o.inv")
POSTFIX(math, log, "a 100000 + o.log")
POSTFIX(math, lt2, "a 1.2 + b o.lt")
POSTFIX(math, mean_full_red, "a o.sum a len float /")
POSTFIX(math, mean_red, "a o.sum a len float /")
POSTFIX(math, mul2, "a b *")
POSTFIX(math, multConstant, "5 a *")
POSTFIX(math, neg, "a neg")
POSTFIX(math, relu, "a 5.5 + o.relu")
POSTFIX(math, sig, "a o.sigmoid")
POSTFIX(math, square, "a a *")
POSTFIX(math, subConstant, "a 5 -")
POSTFIX(math, sum_red, "a o.sum")

/* MathTestVariable's own: the value's methods and operators */
POSTFIX(mvar, complex, "a 10 * 7 + .relu 6 * 5 + .relu 10 * .sigmoid .log 50 /")
POSTFIX(mvar, eq2, "a b 5.5 + ==")
POSTFIX(mvar, exp, "a 200 - .exp")
POSTFIX(mvar, explog, "a 100000 + .log a 200 - .exp +")
POSTFIX(mvar, gt2, "a 1.2 + b >")
POSTFIX(mvar, inv, "1.0 a 3.5 + /")
POSTFIX(mvar, log, "a 100000 + .log")
POSTFIX(mvar, lt2, "a 1.2 + b <")
POSTFIX(mvar, mean_full_red, "a .mean()")
POSTFIX(mvar, mean_red, "a .mean(0)")
POSTFIX(mvar, relu, "a 5.5 + .relu")
POSTFIX(mvar, sig, "a .sigmoid")
POSTFIX(mvar, sum_red, "a .sum(0)")

static const char *const a_params[] = {"a", NULL};
static const char *const ab_params[] = {"a", "b", NULL};

#define ONE(cls, name_, doc_)                                                                      \
    {                                                                                              \
#name_, #name_ "(a)", 1, 1, a_params, cls##_##name_, doc_                                  \
    }
#define TWO(cls, name_, doc_)                                                                      \
    {                                                                                              \
#name_, #name_ "(a, b)", 2, 2, ab_params, cls##_##name_, doc_                              \
    }

static const struct dsl_builtin math_test_fns[] = {
    TWO(math, add2, "a + b"),
    ONE(math, addConstant, "5 + a"),
    ONE(math, complex, "log(sigmoid(relu(relu(a * 10 + 7) * 6 + 5) * 10)) / 50, by operators"),
    ONE(math, cube, "a * a * a"),
    ONE(math, div, "a / 5"),
    TWO(math, div2, "a / (b + 5.5)"),
    TWO(math, eq2, "operators.eq(a, b + 5.5)"),
    ONE(math, exp, "operators.exp(a - 200)"),
    ONE(math, explog, "operators.log(a + 100000) + operators.exp(a - 200)"),
    TWO(math, gt2, "operators.lt(b, a + 1.2)"),
    ONE(math, inv, "operators.inv(a + 3.5)"),
    ONE(math, log, "operators.log(a + 100000)"),
    TWO(math, lt2, "operators.lt(a + 1.2, b)"),
    ONE(math, mean_full_red, "operators.sum(a) / float(len(a)), of a list"),
    ONE(math, mean_red, "operators.sum(a) / float(len(a)), of a list"),
    TWO(math, mul2, "a * b"),
    ONE(math, multConstant, "5 * a"),
    ONE(math, neg, "-a"),
    ONE(math, relu, "operators.relu(a + 5.5)"),
    ONE(math, sig, "operators.sigmoid(a)"),
    ONE(math, square, "a * a"),
    ONE(math, subConstant, "a - 5"),
    ONE(math, sum_red, "operators.sum(a), of a list"),
};
static const struct dsl_builtin math_test_variable_fns[] = {
    ONE(mvar, complex, "(((a * 10 + 7).relu() * 6 + 5).relu() * 10).sigmoid().log() / 50"),
    TWO(mvar, eq2, "a == (b + 5.5)"),
    ONE(mvar, exp, "(a - 200).exp()"),
    ONE(mvar, explog, "(a + 100000).log() + (a - 200).exp()"),
    TWO(mvar, gt2, "a + 1.2 > b"),
    ONE(mvar, inv, "1.0 / (a + 3.5)"),
    ONE(mvar, log, "(a + 100000).log()"),
    TWO(mvar, lt2, "a + 1.2 < b"),
    ONE(mvar, mean_full_red, "a.mean()"),
    ONE(mvar, mean_red, "a.mean(0)"),
    ONE(mvar, relu, "(a + 5.5).relu()"),
    ONE(mvar, sig, "a.sigmoid()"),
    ONE(mvar, sum_red, "a.sum(0)"),
};
#define COUNT(arr) (sizeof(arr) / sizeof(arr)[0])

/* ---- _tests() and _comp_testing() -------------------------------------------------------- */

static struct dsl_class *math_test_class(void);

static int new_list(struct dsl_interp *in, size_t n, bool tuple, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new(n);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    if (tuple) l->style = DSL_LIST_TUPLE;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

/* Pushes v (owned) onto list l: 0, or -1 after MemoryError. */
static int push(struct dsl_interp *in, struct dsl_value l, struct dsl_value v)
{
    int st = dsl_list_push(l.as.l, v);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

/* cls._tests(): MathTest's functions as (name, getattr(cls, name)) pairs in three lists, one
 * argument, two (a name ending "2") and reductions (ending "red"). */
static int mt_tests(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value groups = dsl_none(), lists[3] = {dsl_none(), dsl_none(), dsl_none()};
    int r = new_list(in, 3, true, &groups);
    for (int k = 0; k < 3 && r == 0; k++) r = new_list(in, 0, false, &lists[k]);
    for (size_t i = 0; i < COUNT(math_test_fns) && r == 0; i++) {
        const char *name = math_test_fns[i].name;
        size_t len = strlen(name);
        int k = name[len - 1] == '2' ? 1 : len > 3 && strcmp(name + len - 3, "red") == 0 ? 2 : 0;
        struct dsl_value pair = dsl_none(), fn = dsl_none(), s = dsl_none();
        r = dsl_getattr(in, a->self, name, &fn);
        if (r == 0 && dsl_str_value(name, len, &s) != DSL_V_OK)
            r = dsl_raise_status(in, DSL_V_NOMEM);
        if (r == 0) r = new_list(in, 2, true, &pair);
        if (r == 0) r = push(in, pair, s), s = dsl_none();
        if (r == 0) r = push(in, pair, fn), fn = dsl_none();
        if (r == 0) r = push(in, lists[k], pair), pair = dsl_none();
        dsl_value_release(pair);
        dsl_value_release(fn);
        dsl_value_release(s);
    }
    for (int k = 0; k < 3; k++)
        if (r == 0) r = push(in, groups, lists[k]), lists[k] = dsl_none();
    for (int k = 0; k < 3; k++) dsl_value_release(lists[k]);
    if (r != 0) return dsl_value_release(groups), -1;
    *ret = groups;
    return 0;
}

/* The three lists of cls._tests() (called through cls, as a subclass may write its own). */
static int tests_of(struct dsl_interp *in, struct dsl_value cls, struct dsl_value *out)
{
    struct dsl_value fn;
    if (dsl_getattr(in, cls, "_tests", &fn) != 0) return -1;
    int r = mod_call(in, fn, NULL, 0, out);
    dsl_value_release(fn);
    if (r == 0 && (out->kind != DSL_LIST || out->as.l->len != 3)) {
        dsl_value_release(*out);
        return dsl_raise(in, "TypeError", "_tests() must return three lists");
    }
    return r;
}

/* cls._comp_testing(): (name, MathTest's function, cls's function) for each of the three lists,
 * paired in order. */
static int mt_comp_testing(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value base = {.kind = DSL_CLASS, .as.cls = math_test_class()};
    struct dsl_value mine = dsl_none(), theirs = dsl_none(), groups = dsl_none();
    int r = tests_of(in, a->self, &mine);
    if (r == 0) r = tests_of(in, base, &theirs);
    if (r == 0) r = new_list(in, 3, true, &groups);
    for (int k = 0; k < 3 && r == 0; k++) {
        struct dsl_value x = mine.as.l->items[k], y = theirs.as.l->items[k], l = dsl_none();
        if (x.kind != DSL_LIST || y.kind != DSL_LIST) {
            r = dsl_raise(in, "TypeError", "_tests() must return three lists");
            break;
        }
        size_t n = x.as.l->len < y.as.l->len ? x.as.l->len : y.as.l->len;
        r = new_list(in, n, false, &l);
        for (size_t i = 0; i < n && r == 0; i++) {
            struct dsl_value p = x.as.l->items[i], q = y.as.l->items[i], t = dsl_none();
            if (p.kind != DSL_LIST || p.as.l->len != 2 || q.kind != DSL_LIST || q.as.l->len != 2) {
                r = dsl_raise(in, "TypeError", "_tests() must give (name, function) pairs");
                break;
            }
            r = new_list(in, 3, true, &t);
            if (r == 0) r = push(in, t, dsl_value_retain(p.as.l->items[0]));
            if (r == 0) r = push(in, t, dsl_value_retain(q.as.l->items[1]));
            if (r == 0) r = push(in, t, dsl_value_retain(p.as.l->items[1]));
            if (r == 0) r = push(in, l, t), t = dsl_none();
            dsl_value_release(t);
        }
        if (r == 0) r = push(in, groups, l), l = dsl_none();
        dsl_value_release(l);
    }
    dsl_value_release(mine);
    dsl_value_release(theirs);
    if (r != 0) return dsl_value_release(groups), -1;
    *ret = groups;
    return 0;
}

static const struct dsl_builtin class_fns[] = {
    {"_comp_testing", "_comp_testing()", 0, 0, NULL, mt_comp_testing,
     "The three lists of (name, MathTest's function, this class's function): what MiniTorch's "
     "tests parametrize over, comparing a function on numbers with the same on values."},
    {"_tests", "_tests()", 0, 0, NULL, mt_tests,
     "Three lists of (name, function) for MathTest's functions, as this class has them: those "
     "of one argument, of two (a name ending 2) and the reductions (ending red)."},
};
static const struct dsl_builtin no_methods[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};
static const struct dsl_builtin no_methods_variable[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};

static struct dsl_class *math_test_class(void)
{
    return dsl_library_class(
        "MathTest",
        "minitorch.MathTest: the functions MiniTorch's tests check every unit on, as static "
        "methods written with minitorch.operators (for numbers); _tests() and _comp_testing() "
        "list them.",
        dsl_none(), no_methods);
}

static struct dsl_class *math_test_variable_class(void)
{
    struct dsl_value base = {.kind = DSL_CLASS, .as.cls = math_test_class()};
    return dsl_library_class(
        "MathTestVariable",
        "minitorch.MathTestVariable(MathTest): MathTest's functions written with the value's own "
        "methods and operators (x.sigmoid(), a.sum(0), a < b), for Scalars and tensors.",
        base, no_methods_variable);
}

/* A class of this file, its attributes bound at its first use. */
static int class_value(struct dsl_interp *in, struct dsl_class *c, const struct dsl_builtin *fns,
                       size_t n, struct dsl_value *out)
{
    if (!dsl_attrs_find(&c->attrs, fns[0].name) &&
        (mod_class_wrap(in, c, fns, n, DSL_WRAP_STATIC) != 0 ||
         (c == math_test_class() &&
          mod_class_wrap(in, c, class_fns, COUNT(class_fns), DSL_WRAP_CLASS) != 0)))
        return -1;
    *out = (struct dsl_value){.kind = DSL_CLASS, .as.cls = c};
    return 0;
}

int mod_math_test_value(struct dsl_interp *in, struct dsl_value *out)
{
    return class_value(in, math_test_class(), math_test_fns, COUNT(math_test_fns), out);
}

int mod_math_test_variable_value(struct dsl_interp *in, struct dsl_value *out)
{
    struct dsl_value base;
    if (mod_math_test_value(in, &base) != 0) return -1; /* its functions are inherited */
    return class_value(in, math_test_variable_class(), math_test_variable_fns,
                       COUNT(math_test_variable_fns), out);
}

/* ---- grad_check ---------------------------------------------------------------------------- */

/* MiniTorch's grad_check(f, *vals): every input made to require grad, its gradient cleared,
 * random.seed(10), backward() from f(*vals).sum(); then for each input, at one index its
 * TensorData samples, the gradient against a central difference, within rtol = atol = 1e-2.
 *
 * The kernel's tensors are float32, where MiniTorch's difference (a step of 1e-6, then
 * f(...).sum() - f(...).sum()) would measure rounding: x + 1e-6 is x itself past 8, and the sums
 * of every other element swamp the change. So the difference is taken as the same quantity in
 * a float32's terms: a step of 1e-3 times max(1, |x|) at the index (larger where the outputs'
 * rounding would swamp it, see gc_central), divided by the step the float32 inputs actually
 * take, and the two outputs subtracted element by element before they are summed (the
 * elements the step does not reach cancel exactly). */
struct gc_case {
    struct dsl_value f;
    struct dsl_value *vals; /* owned tensors: the inputs, leaves */
    size_t n;
};

/* f(*vals) with vals[arg] replaced by x: its tensor in *out (a new reference). */
static int gc_call(struct dsl_interp *in, const struct gc_case *c, size_t arg, struct mt_tensor *x,
                   struct mt_tensor **out)
{
    struct dsl_value *args = malloc(c->n * sizeof *args), r = dsl_none();
    if (!args) return dsl_raise_status(in, DSL_V_NOMEM);
    memcpy(args, c->vals, c->n * sizeof *args);
    if (x) args[arg] = dsl_tensor(x);
    int st = mod_call(in, c->f, args, c->n, &r);
    free(args);
    if (st != 0) return -1;
    if (r.kind != DSL_TENSOR) {
        dsl_value_release(r);
        return dsl_raise(in, "TypeError", "grad_check(): f must return a tensor, not %s",
                         dsl_type_name(r));
    }
    *out = mt_tensor_retain(r.as.t);
    dsl_value_release(r);
    return 0;
}

/* The index x._tensor.sample() draws, into idx. */
static int gc_sample(struct dsl_interp *in, struct dsl_value x, int64_t *idx)
{
    struct dsl_value td = dsl_none(), fn = dsl_none(), ix = dsl_none();
    int r = dsl_getattr(in, x, "_tensor", &td);
    if (r == 0) r = dsl_getattr(in, td, "sample", &fn);
    if (r == 0) r = mod_call(in, fn, NULL, 0, &ix);
    for (int d = 0; r == 0 && d < x.as.t->ndim; d++) idx[d] = dsl_as_int(ix.as.l->items[d]);
    dsl_value_release(td);
    dsl_value_release(fn);
    dsl_value_release(ix);
    return r;
}

static int gc_fail(struct dsl_interp *in, const struct gc_case *c, size_t arg, const int64_t *idx,
                   double got, double want)
{
    struct render_buf f, v, ix;
    render_buf_init(&f, 4096);
    render_buf_init(&v, 1 << 16);
    render_buf_init(&ix, 256);
    int st = dsl_value_repr(&f, c->f);
    render_buf_puts(&v, "(");
    for (size_t i = 0; i < c->n && st == DSL_V_OK; i++) {
        if (i) render_buf_puts(&v, ", ");
        st = dsl_value_repr(&v, c->vals[i]);
    }
    render_buf_puts(&v, c->n == 1 ? ",)" : ")");
    render_buf_puts(&ix, "(");
    for (int d = 0; d < c->vals[arg].as.t->ndim; d++)
        render_buf_printf(&ix, "%s%lld", d ? ", " : "", (long long)idx[d]);
    render_buf_puts(&ix, c->vals[arg].as.t->ndim == 1 ? ",)" : ")");
    int r = st != DSL_V_OK
                ? dsl_raise_status(in, st)
                : dsl_raise(in, "AssertionError",
                            "\nNot equal to tolerance rtol=0.01, atol=0.01\n\nGradient check "
                            "error for function %s.\n\nInput %s\n\nReceived derivative %f for "
                            "argument %zu and index %s,\nbut was expecting derivative %f from "
                            "central difference.\n",
                            render_buf_str(&f), render_buf_str(&v), got, arg, render_buf_str(&ix),
                            want);
    render_buf_free(&f);
    render_buf_free(&v);
    render_buf_free(&ix);
    return r;
}

/* The difference quotient of f in argument arg at idx for a step of `step` (float32's own
 * step, hi - lo, divides): the outputs subtracted element by element, the changed ones summed
 * in double, into *out; into *round, a bound on what float32 rounding of those outputs adds to
 * it (half an ulp of each, over the step). */
static int gc_quotient(struct dsl_interp *in, const struct gc_case *c, size_t arg,
                       const int64_t *idx, float step, double *out, double *round)
{
    struct mt_ctx *ctx = ctx_of(in);
    struct mt_tensor *x = c->vals[arg].as.t, *up = NULL, *xs[2] = {NULL, NULL}, *ys[2] = {NULL};
    float hi = 0.0f, lo = 0.0f, *y[2] = {NULL, NULL};
    enum mt_status st = mt_zeros(ctx, x->backend, x->ndim, x->shape, &up);
    if (st == MT_OK) st = mt_tensor_set(ctx, up, x->ndim, idx, step);
    if (st == MT_OK) st = mt_zip(ctx, MT_ZIP_ADD, x, up, &xs[0]);
    if (st == MT_OK) st = mt_zip(ctx, MT_ZIP_SUB, x, up, &xs[1]);
    if (st == MT_OK) st = mt_tensor_get(ctx, xs[0], x->ndim, idx, &hi);
    if (st == MT_OK) st = mt_tensor_get(ctx, xs[1], x->ndim, idx, &lo);
    int r = st != MT_OK ? dsl_engine_raise(in, st) : 0;
    for (int k = 0; k < 2 && r == 0; k++) r = gc_call(in, c, arg, xs[k], &ys[k]);
    if (r == 0 && ys[0]->size != ys[1]->size)
        r = dsl_raise(in, "ValueError", "grad_check(): f gave outputs of different sizes");
    for (int k = 0; k < 2 && r == 0; k++) {
        y[k] = malloc((size_t)(ys[k]->size ? ys[k]->size : 1) * sizeof *y[k]);
        if (!y[k]) r = dsl_raise_status(in, DSL_V_NOMEM);
        if (r == 0 && (st = mt_tensor_copy_out(ys[k], y[k])) != MT_OK) r = dsl_engine_raise(in, st);
    }
    double sum = 0.0, mag = 0.0;
    for (int64_t i = 0; r == 0 && i < ys[0]->size; i++) {
        float d = y[0][i] - y[1][i]; /* what the step does not reach cancels exactly */
        if (d == 0.0f) continue;
        sum += d;
        mag += fabs(y[0][i]) + fabs(y[1][i]);
    }
    *out = sum / ((double)hi - (double)lo);
    *round = mag * 0x1p-24 / ((double)hi - (double)lo);
    struct mt_tensor *all[] = {up, xs[0], xs[1], ys[0], ys[1]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) mt_tensor_release(all[i]);
    free(y[0]);
    free(y[1]);
    return r;
}

/* The central difference of f in argument arg at idx, as the comment above says. Where the
 * outputs' rounding could move it by more than a quarter of the tolerance (outputs far larger
 * than their change: a convolution of values near 100 changes outputs of 10^4 by 10^-1), the
 * step grows by the factor that brings the bound there, up to 256 times, and the difference is
 * taken again: a sum of products is linear in each value, and a smooth function's error from
 * the larger step (its square times the third derivative) stays far below the rounding. */
static int gc_central(struct dsl_interp *in, const struct gc_case *c, size_t arg,
                      const int64_t *idx, double *out)
{
    float at = 0.0f;
    enum mt_status st =
        mt_tensor_get(ctx_of(in), c->vals[arg].as.t, c->vals[arg].as.t->ndim, idx, &at);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    float step = 1e-3f * fmaxf(1.0f, fabsf(at));
    double round = 0.0;
    if (gc_quotient(in, c, arg, idx, step, out, &round) != 0) return -1;
    double target = 0.25 * (1e-2 + 1e-2 * fabs(*out));
    if (!(round > target)) return 0;
    double grow = fmin(256.0, round / target);
    return gc_quotient(in, c, arg, idx, (float)(step * grow), out, &round);
}

/* Each input as a leaf that requires grad and has none: MiniTorch's requires_grad_(True) gives
 * a computed tensor a fresh history, here its detached view (the same storage). */
static int gc_inputs(struct dsl_interp *in, const struct dsl_args *a, struct gc_case *c)
{
    for (size_t i = 0; i + 1 < a->nrest; i++) {
        struct dsl_value v = a->rest[i + 1];
        if (v.kind != DSL_TENSOR)
            return dsl_raise(in, "TypeError", "grad_check() checks tensors, not %s",
                             dsl_type_name(v));
        struct mt_tensor *t = mt_tensor_retain(v.as.t);
        enum mt_status st = MT_OK;
        if (t->node) {
            mt_tensor_release(t);
            t = NULL;
            st = mt_detach(ctx_of(in), v.as.t, &t);
        }
        if (t) { /* owned by c from here */
            mt_zero_grad(t);
            c->vals[c->n++] = dsl_tensor(t);
        }
        if (st == MT_OK) st = mt_tensor_requires_grad(t, true);
        if (st != MT_OK) return dsl_engine_raise(in, st);
    }
    return 0;
}

int mod_grad_check(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct gc_case c = {.f = a->rest[0], .n = 0}; /* n: the inputs made so far */
    if (mod_check_callable(in, c.f, "grad_check") != 0) return -1;
    c.vals = calloc(a->nrest, sizeof *c.vals);
    if (!c.vals) return dsl_raise_status(in, DSL_V_NOMEM);
    struct mt_tensor *out = NULL, *s = NULL;
    int r = gc_inputs(in, a, &c);
    if (r == 0) r = dsl_seed_value(in, dsl_int(10), "seed", "a");
    if (r == 0) r = gc_call(in, &c, 0, NULL, &out);
    enum mt_status st = MT_OK;
    if (r == 0) st = mt_sum(ctx_of(in), out, MT_ALL_DIMS, &s);
    if (r == 0 && st == MT_OK) st = mt_backward(ctx_of(in), s, NULL);
    if (r == 0 && st != MT_OK) r = dsl_engine_raise(in, st);
    for (size_t i = 0; i < c.n && r == 0; i++) {
        struct mt_tensor *x = c.vals[i].as.t;
        int64_t idx[MT_MAX_DIMS];
        double want_d = 0.0;
        float got = 0.0f;
        r = gc_sample(in, c.vals[i], idx);
        if (r == 0) r = gc_central(in, &c, i, idx, &want_d);
        if (r == 0 && !x->grad)
            r = dsl_raise(in, "AssertionError",
                          "grad_check(): argument %zu has no gradient after backward()", i);
        if (r == 0 && (st = mt_tensor_get(ctx_of(in), x->grad, x->ndim, idx, &got)) != MT_OK)
            r = dsl_engine_raise(in, st);
        bool both_nan = isnan(got) && isnan(want_d);
        if (r == 0 && !both_nan && !(fabs(got - want_d) <= 1e-2 + 1e-2 * fabs(want_d)))
            r = gc_fail(in, &c, i, idx, got, want_d);
    }
    mt_tensor_release(out);
    mt_tensor_release(s);
    for (size_t i = 0; i < c.n; i++) dsl_value_release(c.vals[i]);
    free(c.vals);
    if (r != 0) return -1;
    *ret = dsl_none();
    return 0;
}
