/* modules.c — what `import` finds: math, random, time, numba and minitorch (with
 * minitorch.operators), each a table of members in one place.
 *
 * A module is an engine object (values.h) of its own class, whose state is its table: a
 * member is a function (a builtin row of this file, called as any builtin), another name for a
 * library builtin (time.sleep is sleep, minitorch.tensor's numbers are tensor's), or a value
 * computed when looked up (math.pi, minitorch.operators, minitorch.datasets). Completion and
 * Shift-Tab read the same tables through the class's attr_name, attr_help and attr_class.
 *
 * The random module draws from the session's one generator (the engine context's MT19937,
 * seeded as Python's random.seed), the one seed(), rand() and dataset() draw from, and draws
 * as CPython's random does (random() 53 bits, _randbelow by getrandbits for randint, choice and
 * shuffle), so that `random.seed(1); random.shuffle(xs)` gives CPython's order. */
#include "lib/modules.h"
#include "lib/student.h"

#include "lang/classes.h"
#include "lang/interp.h"
#include "lib/nn.h"
#include "lib/storage.h"
#include "lib/tensor_methods.h"

#include "minitorch/minitorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct mt_ctx *ctx_of(struct dsl_interp *in) { return in->session->ctx; }

/* A module's member. Exactly one of row.fn (a function of this file), builtin (the library
 * builtin of that name) and value (computed on lookup; row.signature and row.doc describe it
 * for help) is set. */
struct member {
    struct dsl_builtin row; /* first: a DSL_BUILTIN value points at it */
    const char *builtin;
    int (*value)(struct dsl_interp *in, struct dsl_value *out);
};

struct module {
    struct dsl_object_class cls; /* first: a module object's class is its module */
    const char *name;
    const struct member *members; /* sorted by name */
    size_t n;
};

static const struct module *module_of(const struct dsl_object_class *cls)
{
    return (const struct module *)cls;
}

static const struct member *member_find(const struct module *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->members[i].row.name, name) == 0) return &m->members[i];
    return NULL;
}

/* The closest member name within edit distance 2, or NULL. */
static const char *member_suggest(const struct module *m, const char *name)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < m->n; i++) {
        size_t d = dsl_edit_distance(name, m->members[i].row.name);
        if (d < best_d && d < strlen(name)) best = m->members[i].row.name, best_d = d;
    }
    return best;
}

static int member_value(struct dsl_interp *in, const struct member *mb, struct dsl_value *out)
{
    if (mb->value) return mb->value(in, out);
    const struct dsl_builtin *fn = mb->builtin ? dsl_builtin_find(mb->builtin) : &mb->row;
    *out = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = fn};
    return 0;
}

static void module_free(void *state) { (void)state; }

static int module_repr(struct render_buf *b, const void *state)
{
    const struct module *m = state;
    render_buf_printf(b, "<module '%s'>", m->name);
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int module_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                          struct dsl_value *out)
{
    const struct module *m = self.as.obj->state;
    const struct member *mb = member_find(m, name);
    if (mb) return member_value(in, mb, out);
    const char *hint = member_suggest(m, name);
    if (hint)
        return dsl_raise(in, "AttributeError",
                         "module '%s' has no attribute '%s', did you mean '%s'?", m->name, name,
                         hint);
    return dsl_raise(in, "AttributeError", "module '%s' has no attribute '%s'", m->name, name);
}

static const char *module_attr_name(const struct dsl_object_class *cls, size_t i)
{
    const struct module *m = module_of(cls);
    return i < m->n ? m->members[i].row.name : NULL;
}

static bool module_attr_help(const struct dsl_object_class *cls, const char *name,
                             struct render_buf *b)
{
    const struct member *mb = member_find(module_of(cls), name);
    if (!mb) return false;
    const struct dsl_builtin *fn = mb->builtin ? dsl_builtin_find(mb->builtin) : &mb->row;
    if (mb->builtin && mb->row.doc) { /* the same function under MiniTorch's name */
        render_buf_printf(b, "%s\n\n%s\n\n", mb->row.signature, mb->row.doc);
        dsl_builtin_help(b, fn);
        return true;
    }
    dsl_builtin_help(b, fn);
    return true;
}

static const struct module mod_operators;
static const struct dsl_object_class *module_attr_class(const struct dsl_object_class *cls,
                                                        const char *name);

#define MODULE_CLASS(doc_)                                                                         \
    {                                                                                              \
        .name = "module", .doc = doc_, .free = module_free, .repr = module_repr,                   \
        .getattr = module_getattr, .attr_name = module_attr_name, .attr_help = module_attr_help,   \
        .attr_class = module_attr_class,                                                           \
    }
#define MEMBERS(arr) arr, sizeof arr / sizeof arr[0]

/* A new module value (its state is the static table). */
static int module_value(struct dsl_interp *in, const struct module *m, struct dsl_value *out)
{
    int st = dsl_object_value(&m->cls, (void *)m, out);
    return st ? dsl_raise_status(in, st) : 0;
}

/* ---- arguments -------------------------------------------------------------------------- */

/* A real number argument, as CPython's math functions take it. */
static int real_arg(struct dsl_interp *in, struct dsl_value v, double *out)
{
    *out = 0;
    if (!dsl_is_number(v))
        return dsl_raise(in, "TypeError", "must be real number, not %s", dsl_type_name(v));
    *out = dsl_as_double(v);
    return 0;
}

static int int_arg(struct dsl_interp *in, struct dsl_value v, int64_t *out)
{
    *out = 0;
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                         dsl_type_name(v));
    *out = dsl_as_int(v);
    return 0;
}

static int domain_error(struct dsl_interp *in)
{
    return dsl_raise(in, "ValueError", "math domain error");
}

/* A float result, OverflowError when finite arguments gave an infinity (CPython's rule). */
static int float_result(struct dsl_interp *in, double r, bool finite_args, struct dsl_value *ret)
{
    if (isinf(r) && finite_args) return dsl_raise(in, "OverflowError", "math range error");
    *ret = dsl_float(r);
    return 0;
}

/* ---- math ------------------------------------------------------------------------------- */

static const char *const x_params[] = {"x", NULL};

static int m_log(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, base = 0;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    if (a->has[1] && real_arg(in, a->slot[1], &base) != 0) return -1;
    if (isnan(x)) return *ret = dsl_float(x), 0;
    if (x <= 0 || (a->has[1] && base <= 0)) return domain_error(in);
    double r = log(x);
    if (a->has[1]) {
        double lb = log(base);
        if (lb == 0) return dsl_raise(in, "ZeroDivisionError", "float division by zero");
        r /= lb;
    }
    *ret = dsl_float(r);
    return 0;
}

typedef double (*unary_fn)(double);

/* f(x) with CPython's errors: ValueError outside the domain (a NaN from a non-NaN),
 * OverflowError for an infinity from a finite x. */
static int unary(struct dsl_interp *in, const struct dsl_args *a, unary_fn f, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    double r = f(x);
    if (isnan(r) && !isnan(x)) return domain_error(in);
    return float_result(in, r, isfinite(x), ret);
}

#define UNARY(name, f)                                                                             \
    static int m_##name(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)    \
    {                                                                                              \
        return unary(in, a, f, ret);                                                               \
    }
UNARY(exp, exp)
UNARY(fabs, fabs)
UNARY(tanh, tanh)
UNARY(sin, sin)
UNARY(cos, cos)
UNARY(tan, tan)
UNARY(atan, atan)
UNARY(log1p_, log1p)
UNARY(log2_, log2)
UNARY(log10_, log10)
UNARY(expm1_, expm1)
#undef UNARY

static int m_sqrt(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    if (x < 0) return domain_error(in);
    *ret = dsl_float(sqrt(x));
    return 0;
}

/* floor and ceil give ints, as in Python 3 (an int stays itself). */
static int rounding(struct dsl_interp *in, const struct dsl_args *a, double (*f)(double),
                    struct dsl_value *ret)
{
    if (dsl_is_intlike(a->slot[0])) return *ret = dsl_int(dsl_as_int(a->slot[0])), 0;
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    if (isnan(x)) return dsl_raise(in, "ValueError", "cannot convert float NaN to integer");
    if (isinf(x)) return dsl_raise(in, "OverflowError", "cannot convert float infinity to integer");
    double r = f(x);
    if (r < -9223372036854775808.0 || r >= 9223372036854775808.0)
        return dsl_raise(in, "OverflowError", "%.17g does not fit in a 64-bit integer", r);
    *ret = dsl_int((int64_t)r);
    return 0;
}

static int m_floor(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return rounding(in, a, floor, ret);
}

static int m_ceil(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return rounding(in, a, ceil, ret);
}

static int m_pow(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y;
    if (real_arg(in, a->slot[0], &x) != 0 || real_arg(in, a->slot[1], &y) != 0) return -1;
    if (x == 0 && y < 0) return domain_error(in);
    double r = pow(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y)) return domain_error(in);
    return float_result(in, r, isfinite(x) && isfinite(y), ret);
}

static int m_isclose(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y, rel = 1e-9, abs_tol = 0.0;
    if (real_arg(in, a->slot[0], &x) != 0 || real_arg(in, a->slot[1], &y) != 0) return -1;
    if (a->has[2] && real_arg(in, a->slot[2], &rel) != 0) return -1;
    if (a->has[3] && real_arg(in, a->slot[3], &abs_tol) != 0) return -1;
    if (rel < 0 || abs_tol < 0)
        return dsl_raise(in, "ValueError", "tolerances must be non-negative");
    if (x == y) return *ret = dsl_bool(true), 0;
    if (isinf(x) || isinf(y)) return *ret = dsl_bool(false), 0;
    double diff = fabs(y - x);
    *ret = dsl_bool((diff <= fabs(rel * y)) || (diff <= fabs(rel * x)) || diff <= abs_tol);
    return 0;
}

static int m_isnan(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    *ret = dsl_bool(isnan(x));
    return 0;
}

static int m_isinf(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    *ret = dsl_bool(isinf(x));
    return 0;
}

static int m_isfinite(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    *ret = dsl_bool(isfinite(x));
    return 0;
}

static int v_pi(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return *out = dsl_float(3.141592653589793), 0;
}
static int v_e(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return *out = dsl_float(2.718281828459045), 0;
}
static int v_tau(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return *out = dsl_float(6.283185307179586), 0;
}
static int v_inf(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return *out = dsl_float(INFINITY), 0;
}
static int v_nan(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return *out = dsl_float(NAN), 0;
}

static const char *const log_params[] = {"x", "base", NULL};
static const char *const xy_params[] = {"x", "y", NULL};
static const char *const isclose_params[] = {"a", "b", "rel_tol", "abs_tol", NULL};

#define FN(name_, sig, lo, hi, params, fn, doc_)                                                   \
    {                                                                                              \
        .row = { name_, sig, lo, hi, params, fn, doc_ }                                            \
    }
#define VALUE(name_, sig, fn, doc_)                                                                \
    {                                                                                              \
        .row = {name_, sig, 0, 0, NULL, NULL, doc_}, .value = fn                                   \
    }
#define ALIAS(name_, sig, builtin_, doc_)                                                          \
    {                                                                                              \
        .row = {name_, sig, 0, 0, NULL, NULL, doc_}, .builtin = builtin_                           \
    }

static const struct member math_members[] = {
    FN("atan", "math.atan(x)", 1, 1, x_params, m_atan, "The arc tangent of x, in radians."),
    FN("ceil", "math.ceil(x)", 1, 1, x_params, m_ceil, "The smallest integer >= x, as an int."),
    FN("cos", "math.cos(x)", 1, 1, x_params, m_cos, "The cosine of x (radians)."),
    VALUE("e", "math.e", v_e, "Euler's number, 2.718281828459045."),
    FN("exp", "math.exp(x)", 1, 1, x_params, m_exp,
       "e to the power x (OverflowError: math range error when it is too large)."),
    FN("expm1", "math.expm1(x)", 1, 1, x_params, m_expm1_, "exp(x) - 1, accurate for small x."),
    FN("fabs", "math.fabs(x)", 1, 1, x_params, m_fabs, "The absolute value of x, as a float."),
    FN("floor", "math.floor(x)", 1, 1, x_params, m_floor, "The largest integer <= x, as an int."),
    VALUE("inf", "math.inf", v_inf, "Positive infinity, float('inf')."),
    FN("isclose", "math.isclose(a, b, rel_tol=1e-09, abs_tol=0.0)", 2, 4, isclose_params, m_isclose,
       "Whether a and b are close: |a - b| <= max(rel_tol * max(|a|, |b|), abs_tol)."),
    FN("isfinite", "math.isfinite(x)", 1, 1, x_params, m_isfinite,
       "Whether x is neither an infinity nor NaN."),
    FN("isinf", "math.isinf(x)", 1, 1, x_params, m_isinf, "Whether x is an infinity."),
    FN("isnan", "math.isnan(x)", 1, 1, x_params, m_isnan, "Whether x is NaN."),
    FN("log", "math.log(x, base=e)", 1, 2, log_params, m_log,
       "The natural logarithm of x, or its logarithm to base (ValueError: math domain error for "
       "x <= 0)."),
    FN("log10", "math.log10(x)", 1, 1, x_params, m_log10_, "The base-10 logarithm of x."),
    FN("log1p", "math.log1p(x)", 1, 1, x_params, m_log1p_, "log(1 + x), accurate for small x."),
    FN("log2", "math.log2(x)", 1, 1, x_params, m_log2_, "The base-2 logarithm of x."),
    VALUE("nan", "math.nan", v_nan, "Not a number, float('nan')."),
    VALUE("pi", "math.pi", v_pi, "The ratio of a circle's circumference to its diameter."),
    FN("pow", "math.pow(x, y)", 2, 2, xy_params, m_pow, "x to the power y, as a float."),
    FN("sin", "math.sin(x)", 1, 1, x_params, m_sin, "The sine of x (radians)."),
    FN("sqrt", "math.sqrt(x)", 1, 1, x_params, m_sqrt,
       "The square root of x (ValueError: math domain error for x < 0)."),
    FN("tan", "math.tan(x)", 1, 1, x_params, m_tan, "The tangent of x (radians)."),
    FN("tanh", "math.tanh(x)", 1, 1, x_params, m_tanh, "The hyperbolic tangent of x."),
    VALUE("tau", "math.tau", v_tau, "2 pi, 6.283185307179586."),
};

static const struct module mod_math = {
    .cls = MODULE_CLASS("module: Python's math, the functions on floats MiniTorch's code uses "
                        "(log, exp, sqrt, ...), with CPython's errors."),
    .name = "math",
    .members = MEMBERS(math_members),
};

/* ---- random ----------------------------------------------------------------------------- */

static int r_random(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    *ret = dsl_float(mt_random(ctx_of(in)));
    return 0;
}

static int r_seed(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    *ret = dsl_none();
    if (a->has[0] && a->slot[0].kind != DSL_NONE)
        return dsl_seed_value(in, a->slot[0], "seed", "a");
    /* seed() or seed(None): from the clock, as CPython seeds from the system's randomness */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    mt_seed(ctx_of(in), (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
    return 0;
}

static int r_uniform(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double lo, hi;
    if (real_arg(in, a->slot[0], &lo) != 0 || real_arg(in, a->slot[1], &hi) != 0) return -1;
    *ret = dsl_float(lo + (hi - lo) * mt_random(ctx_of(in)));
    return 0;
}

/* CPython's randrange(start, stop) for stop > start: start + _randbelow(stop - start). */
static int below(struct dsl_interp *in, int64_t lo, int64_t hi_excl, const char *fn,
                 struct dsl_value *ret)
{
    if (hi_excl <= lo)
        return dsl_raise(in, "ValueError", "empty range for %s (%lld, %lld, %lld)", fn,
                         (long long)lo, (long long)hi_excl, (long long)(hi_excl - lo));
    uint64_t width = (uint64_t)hi_excl - (uint64_t)lo;
    if (width > ((uint64_t)1 << 63))
        return dsl_raise(in, "OverflowError", "%s: the range is wider than 2**63", fn);
    *ret = dsl_int((int64_t)((uint64_t)lo + mt_random_below(ctx_of(in), width)));
    return 0;
}

static int r_randint(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t lo, hi;
    if (int_arg(in, a->slot[0], &lo) != 0 || int_arg(in, a->slot[1], &hi) != 0) return -1;
    if (hi == INT64_MAX) return dsl_raise(in, "OverflowError", "randint(): b is too large");
    return below(in, lo, hi + 1, "randrange()", ret);
}

static int r_randrange(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t lo = 0, hi;
    if (int_arg(in, a->slot[0], &hi) != 0) return -1;
    if (a->has[1] && a->slot[1].kind != DSL_NONE) {
        lo = hi;
        if (int_arg(in, a->slot[1], &hi) != 0) return -1;
    } else if (hi <= 0) {
        return dsl_raise(in, "ValueError", "empty range for randrange()");
    }
    return below(in, lo, hi, "randrange()", ret);
}

static int r_choice(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value seq = a->slot[0];
    int64_t n;
    if (seq.kind == DSL_LIST)
        n = (int64_t)seq.as.l->len;
    else if (seq.kind == DSL_RANGE)
        n = dsl_range_len(seq.as.r);
    else if (seq.kind == DSL_STR)
        n = (int64_t)render_utf8_count(seq.as.s->data, seq.as.s->len);
    else
        return dsl_raise(in, "TypeError", "object of type '%s' has no len()", dsl_type_name(seq));
    if (n == 0) return dsl_raise(in, "IndexError", "Cannot choose from an empty sequence");
    int64_t k = (int64_t)mt_random_below(ctx_of(in), (uint64_t)n);
    struct dsl_iter it;
    if (dsl_iter_init(in, seq, &it) != 0) return -1;
    for (int64_t i = 0;; i++) { /* strings step by character; lists and ranges could index */
        struct dsl_value v;
        int r = dsl_iter_next(in, &it, &v);
        if (r <= 0) return r < 0 ? -1 : dsl_raise(in, "IndexError", "choice(): index out of range");
        if (i == k) return *ret = v, 0;
        dsl_value_release(v);
    }
}

static int r_shuffle(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value xs = a->slot[0];
    if (xs.kind != DSL_LIST || xs.as.l->style == DSL_LIST_TUPLE)
        return dsl_raise(in, "TypeError", "'%s' object does not support item assignment",
                         dsl_type_name(xs));
    struct dsl_list *l = xs.as.l;
    int64_t n = (int64_t)l->len;
    int64_t *perm = malloc((size_t)(n ? n : 1) * sizeof *perm);
    struct dsl_value *old = malloc((size_t)(n ? n : 1) * sizeof *old);
    if (!perm || !old) {
        free(perm);
        free(old);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    for (int64_t i = 0; i < n; i++) perm[i] = i, old[i] = l->items[i];
    /* the same swaps on the positions as CPython makes on the items */
    mt_shuffle(ctx_of(in), perm, n);
    for (int64_t i = 0; i < n; i++) l->items[i] = old[perm[i]];
    free(perm);
    free(old);
    *ret = dsl_none();
    return 0;
}

static const char *const seed_params[] = {"a", NULL};
static const char *const ab_params[] = {"a", "b", NULL};
static const char *const seq_params[] = {"seq", NULL};
static const char *const shuffle_params[] = {"x", NULL};
static const char *const randrange_params[] = {"start", "stop", NULL};

static const struct member random_members[] = {
    FN("choice", "random.choice(seq)", 1, 1, seq_params, r_choice,
       "An item of the non-empty sequence seq, chosen as CPython chooses it."),
    FN("randint", "random.randint(a, b)", 2, 2, ab_params, r_randint,
       "An integer N with a <= N <= b, drawn as CPython draws it."),
    FN("random", "random.random()", 0, 0, NULL, r_random,
       "The next float in [0, 1) from the session's generator: CPython's numbers for the same "
       "seed. seed(), rand() and dataset() draw from the same generator."),
    FN("randrange", "random.randrange(start, stop=None)", 1, 2, randrange_params, r_randrange,
       "An integer in range(start, stop) (or range(start) with one argument)."),
    FN("seed", "random.seed(a=None)", 0, 1, seed_params, r_seed,
       "Seeds the session's generator as CPython's random.seed(a) does for an integer a (the "
       "same as the kernel's seed(a)); without a, from the clock."),
    FN("shuffle", "random.shuffle(x)", 1, 1, shuffle_params, r_shuffle,
       "Shuffles the list x in place, in CPython's order for the same seed (so MiniTorch's "
       "`random.shuffle(c)` of its training loop draws the same batches)."),
    FN("uniform", "random.uniform(a, b)", 2, 2, ab_params, r_uniform,
       "a + (b - a) * random(): a float between a and b."),
};

static const struct module mod_random = {
    .cls = MODULE_CLASS("module: Python's random, drawing from the session's one generator "
                        "(CPython's Mersenne Twister: the same numbers for the same seed)."),
    .name = "random",
    .members = MEMBERS(random_members),
};

/* ---- time ------------------------------------------------------------------------------- */

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int t_time(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in, (void)a;
    *ret = dsl_float(clock_s(CLOCK_REALTIME));
    return 0;
}

static int t_perf_counter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in, (void)a;
    *ret = dsl_float(clock_s(CLOCK_MONOTONIC));
    return 0;
}

static const struct member time_members[] = {
    FN("perf_counter", "time.perf_counter()", 0, 0, NULL, t_perf_counter,
       "Seconds on a monotonic clock, for timing: only differences mean anything."),
    ALIAS("sleep", "time.sleep(seconds)", "sleep", NULL),
    FN("time", "time.time()", 0, 0, NULL, t_time, "Seconds since the epoch, as a float."),
};

static const struct module mod_time = {
    .cls = MODULE_CLASS("module: Python's time: time(), perf_counter() and sleep()."),
    .name = "time",
    .members = MEMBERS(time_members),
};

/* ---- numpy: what the course's kernels use -------------------------------------------------- */

/* The kernels' templates make index buffers with np.zeros(MAX_DIMS, np.int32) and read shapes
 * with np.prod; here such arrays are lists (of ints for an int dtype), which the language and
 * compiled code both index, and which np.array copies. Dtypes are their names. */
static bool int_dtype(struct dsl_interp *in, const struct dsl_args *a, int slot, bool *is_int)
{
    *is_int = false;
    if (!a->has[slot] || a->slot[slot].kind == DSL_NONE) return true;
    struct dsl_value d = a->slot[slot];
    if (d.kind == DSL_CLASS) { /* int or float themselves */
        *is_int = strcmp(d.as.cls->name, "int") == 0 || strcmp(d.as.cls->name, "bool") == 0;
        return true;
    }
    if (d.kind == DSL_STR) {
        const char *n = d.as.s->data;
        if (strcmp(n, "int32") == 0 || strcmp(n, "int64") == 0) return *is_int = true, true;
        if (strcmp(n, "float32") == 0 || strcmp(n, "float64") == 0) return true;
    }
    dsl_raise(in, "TypeError", "numpy here knows the dtypes int32, int64, float32 and float64");
    return false;
}

static int np_zeros(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value shape = a->slot[0];
    if (shape.kind == DSL_LIST && shape.as.l->len == 1) shape = shape.as.l->items[0];
    if (!dsl_is_intlike(shape) || dsl_as_int(shape) < 0)
        return dsl_raise(in, "NotImplementedError",
                         "numpy.zeros makes one-dimensional arrays here: zeros(n, dtype)");
    bool is_int;
    if (!int_dtype(in, a, 1, &is_int)) return -1;
    int64_t n = dsl_as_int(shape);
    if ((uint64_t)n > DSL_MAX_LIST_LEN) return dsl_raise_status(in, DSL_V_TOOBIG);
    struct dsl_list *l = dsl_list_new((size_t)n);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    for (int64_t i = 0; i < n; i++) l->items[i] = is_int ? dsl_int(0) : dsl_float(0.0);
    l->len = (size_t)n;
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

static int np_array(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0];
    if (v.kind != DSL_LIST)
        return dsl_raise(in, "NotImplementedError",
                         "numpy.array makes arrays of a list or tuple of numbers here");
    bool is_int;
    if (!int_dtype(in, a, 1, &is_int)) return -1;
    bool as_float = a->has[1] && a->slot[1].kind != DSL_NONE && !is_int;
    const struct dsl_list *src = v.as.l;
    struct dsl_list *l = dsl_list_new(src->len);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0; i < src->len; i++) {
        struct dsl_value x = src->items[i];
        if (!dsl_is_number(x)) {
            dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = l});
            return dsl_raise(in, "NotImplementedError",
                             "numpy.array makes arrays of numbers here, not of %s",
                             dsl_type_name(x));
        }
        l->items[l->len++] = as_float ? dsl_float(dsl_as_double(x))
                             : is_int ? dsl_int((int64_t)dsl_as_double(x))
                                      : x;
    }
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

static int np_prod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0];
    if (v.kind != DSL_LIST) return dsl_raise(in, "TypeError", "numpy.prod of a list or tuple");
    int64_t pi = 1;
    double pf = 1.0;
    bool ints = true;
    for (size_t i = 0; i < v.as.l->len; i++) {
        struct dsl_value x = v.as.l->items[i];
        if (!dsl_is_number(x)) return dsl_raise(in, "TypeError", "numpy.prod of numbers");
        if (dsl_is_intlike(x))
            pi *= dsl_as_int(x), pf *= (double)dsl_as_int(x);
        else
            ints = false, pf *= x.as.f;
    }
    *ret = ints ? dsl_int(pi) : dsl_float(pf);
    return 0;
}

static int np_array_equal(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value x = a->slot[0], y = a->slot[1];
    if (x.kind != DSL_LIST || y.kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "numpy.array_equal of two lists or tuples");
    bool eq = x.as.l->len == y.as.l->len;
    for (size_t i = 0; eq && i < x.as.l->len; i++) {
        struct dsl_value p = x.as.l->items[i], q = y.as.l->items[i];
        eq = dsl_is_number(p) && dsl_is_number(q) && dsl_as_double(p) == dsl_as_double(q);
    }
    *ret = dsl_bool(eq);
    return 0;
}

static int dtype_value(const char *name, struct dsl_interp *in, struct dsl_value *out)
{
    int st = dsl_str_value(name, strlen(name), out);
    return st ? dsl_raise_status(in, st) : 0;
}
static int v_int32(struct dsl_interp *in, struct dsl_value *out)
{
    return dtype_value("int32", in, out);
}
static int v_int64(struct dsl_interp *in, struct dsl_value *out)
{
    return dtype_value("int64", in, out);
}
static int v_float32(struct dsl_interp *in, struct dsl_value *out)
{
    return dtype_value("float32", in, out);
}
static int v_float64(struct dsl_interp *in, struct dsl_value *out)
{
    return dtype_value("float64", in, out);
}

static const char *const np_shape_params[] = {"shape", "dtype", NULL};
static const char *const np_obj_params[] = {"object", "dtype", NULL};
static const char *const np_a_params[] = {"a", NULL};
static const char *const np_ab_params[] = {"a1", "a2", NULL};

static const struct member numpy_members[] = {
    FN("array", "numpy.array(object, dtype=None)", 1, 2, np_obj_params, np_array,
       "A copy of a list or tuple of numbers, as a list (converted to the dtype when given)."),
    FN("array_equal", "numpy.array_equal(a1, a2)", 2, 2, np_ab_params, np_array_equal,
       "Whether two arrays (lists or tuples of numbers) have the same length and elements."),
    VALUE("float32", "numpy.float32", v_float32, "The dtype name 'float32'."),
    VALUE("float64", "numpy.float64", v_float64, "The dtype name 'float64'."),
    VALUE("int32", "numpy.int32", v_int32, "The dtype name 'int32'."),
    VALUE("int64", "numpy.int64", v_int64, "The dtype name 'int64'."),
    FN("prod", "numpy.prod(a)", 1, 1, np_a_params, np_prod,
       "The product of the numbers of a (an int when they all are): np.prod(shape) is a "
       "tensor's size."),
    FN("zeros", "numpy.zeros(shape, dtype=float)", 1, 2, np_shape_params, np_zeros,
       "A one-dimensional array of shape zeros, as a list (of ints for an int dtype): the "
       "index buffers of the course's kernels, np.zeros(MAX_DIMS, np.int32)."),
};

static const struct module mod_numpy = {
    .cls = MODULE_CLASS("module: the part of numpy the course's kernels use (zeros, array, prod, "
                        "array_equal and the dtypes), its arrays as lists; compiled code (njit) "
                        "takes them as arrays."),
    .name = "numpy",
    .members = MEMBERS(numpy_members),
};

const char *dsl_module_of(struct dsl_value v)
{
    if (v.kind != DSL_OBJECT || v.as.obj->cls->repr != module_repr) return NULL;
    return module_of(v.as.obj->cls)->name;
}

/* ---- numba ------------------------------------------------------------------------------ */

/* njit(fn) gives fn; njit(parallel=True) and friends give a decorator that does. */
static int n_identity(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_value_retain(a->slot[0]);
    return 0;
}

/* njit(fn): fn itself, marked to run compiled (lib/jit.c), its indices checked or not; what
 * is not a def is returned as it is (a builtin is native code already). */
static int mark_jit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                    bool unchecked, bool races)
{
    if (a->slot[0].kind == DSL_FUNCTION) {
        struct dsl_function *f = a->slot[0].as.fn_user;
        if (f->jit_unchecked != unchecked || f->jit_races != races) {
            dsl_jit_cache_free(f->jits); /* what was compiled before checked otherwise */
            f->jits = NULL;
        }
        f->jit = true;
        f->jit_unchecked = unchecked;
        f->jit_races = races;
    }
    return n_identity(in, a, ret);
}
static int n_mark_jit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return mark_jit(in, a, ret, false, false);
}
static int n_mark_jit_unchecked(struct dsl_interp *in, const struct dsl_args *a,
                                struct dsl_value *ret)
{
    return mark_jit(in, a, ret, true, false);
}
static int n_mark_jit_races(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return mark_jit(in, a, ret, false, true);
}

static const struct dsl_builtin njit_apply = {
    "njit",
    "njit(...)(fn)",
    1,
    1,
    NULL,
    n_mark_jit,
    "Compiles fn to native code at its first call with each kind of arguments, as numba's "
    "njit does, and returns it."};
static const struct dsl_builtin njit_apply_unchecked = {
    "njit",
    "njit(..., boundscheck=False)(fn)",
    1,
    1,
    NULL,
    n_mark_jit_unchecked,
    "Compiles fn to native code without checking its indices (an index outside an array reads "
    "or writes other memory), and returns it."};

static const struct dsl_builtin njit_apply_races = {
    "njit",
    "njit(..., check_races=True)(fn)",
    1,
    1,
    NULL,
    n_mark_jit_races,
    "Compiles fn to native code that records which iteration of its prange loop wrote each "
    "element of a storage, so that two iterations writing one element are an error, and "
    "returns it."};

static const char *const njit_params[] = {
    "fn", "parallel", "inline", "fastmath", "cache", "device", "boundscheck", "check_races", NULL};

static int n_njit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    /* boundscheck=False: Numba's default, here asked for (the kernel checks unless told) */
    bool unchecked = a->has[6] && a->slot[6].kind != DSL_NONE && !dsl_value_truthy(a->slot[6]);
    bool races = a->has[7] && dsl_value_truthy(a->slot[7]);
    if (unchecked && races)
        return dsl_raise(in, "ValueError",
                         "njit(check_races=True) checks indices: it cannot be boundscheck=False");
    if (a->has[0] && a->slot[0].kind != DSL_NONE) return mark_jit(in, a, ret, unchecked, races);
    *ret = (struct dsl_value){.kind = DSL_BUILTIN,
                              .as.fn = races       ? &njit_apply_races
                                       : unchecked ? &njit_apply_unchecked
                                                   : &njit_apply};
    return 0;
}

/* cuda.jit(fn): fn marked as a CUDA kernel (launched as fn[blocks, threads](...), lib/jit.c);
 * cuda.jit(device=True)(fn): fn as it is, a function kernels call (compiled into them). */
static int mark_cuda_kernel(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_FUNCTION)
        return dsl_raise(in, "TypeError", "cuda.jit compiles a function (def), not a %s",
                         dsl_type_name(a->slot[0]));
    a->slot[0].as.fn_user->cuda_kernel = true;
    return n_identity(in, a, ret);
}

static const struct dsl_builtin cuda_jit_apply = {
    "jit",
    "cuda.jit(...)(fn)",
    1,
    1,
    NULL,
    mark_cuda_kernel,
    "Makes fn a CUDA kernel, launched as fn[blocks, threads](args...): on the GPU when there is "
    "one, else in the kernel's CUDA simulator."};
static const struct dsl_builtin cuda_device_apply = {
    "jit",
    "cuda.jit(device=True)(fn)",
    1,
    1,
    NULL,
    n_identity,
    "Returns fn, a device function: kernels that call it compile it in."};

static int n_cuda_jit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    bool device = a->has[5] && dsl_value_truthy(a->slot[5]);
    if (a->has[0] && a->slot[0].kind != DSL_NONE)
        return device ? n_identity(in, a, ret) : mark_cuda_kernel(in, a, ret);
    *ret = (struct dsl_value){.kind = DSL_BUILTIN,
                              .as.fn = device ? &cuda_device_apply : &cuda_jit_apply};
    return 0;
}

static const struct member numba_cuda_members[] = {
    ALIAS("is_available", "numba.cuda.is_available()", "cuda_available",
          "Whether the kernel's cuda backend can run here: the kernel's cuda_available()."),
    FN("jit", "numba.cuda.jit(fn=None, device=False, **options)", 0, 1, njit_params, n_cuda_jit,
       "@cuda.jit, cuda.jit()(fn): fn becomes a CUDA kernel, launched as fn[blocks, "
       "threads](args...) with ints or tuples of up to three; in it, cuda.threadIdx, blockIdx, "
       "blockDim and gridDim (.x .y .z), cuda.local.array, cuda.shared.array and "
       "cuda.syncthreads(). It runs on the GPU when there is one (compiled to CUDA C with NVRTC), "
       "else in the kernel's simulator, which names out-of-range indices, shared-memory races, "
       "barriers not every thread reaches and reads of shared memory nobody wrote. "
       "cuda.jit(device=True)(fn) returns fn, which kernels call."),
};

static const struct module mod_numba_cuda = {
    .cls = MODULE_CLASS("module: numba.cuda, of which the kernel has is_available() and jit "
                        "(CUDA kernels, on the GPU or in the kernel's simulator)."),
    .name = "numba.cuda",
    .members = MEMBERS(numba_cuda_members),
};

static int v_numba_cuda(struct dsl_interp *in, struct dsl_value *out)
{
    return module_value(in, &mod_numba_cuda, out);
}

static const struct member numba_members[] = {
    VALUE("cuda", "numba.cuda", v_numba_cuda, "numba.cuda: is_available(), jit."),
    VALUE("float32", "numba.float32", v_float32, "The dtype name 'float32'."),
    VALUE("float64", "numba.float64", v_float64, "The dtype name 'float64'."),
    VALUE("int32", "numba.int32", v_int32, "The dtype name 'int32'."),
    VALUE("int64", "numba.int64", v_int64, "The dtype name 'int64'."),
    FN("jit", "numba.jit(fn=None, **options)", 0, 1, njit_params, n_njit, "The same as njit."),
    FN("njit", "numba.njit(fn=None, parallel=False, inline=None, fastmath=False, cache=False)", 0,
       1, njit_params, n_njit,
       "As MiniTorch's code uses it, `njit(parallel=True)(fn)`, `@njit`: fn compiled to native "
       "code at its first call with each kind of arguments (storages, tuples and lists of ints, "
       "ints, floats), prange loops run on the engine's threads. What the compiler does not "
       "take yet runs as the language runs any function. boundscheck=False leaves indices "
       "unchecked; check_races=True makes two iterations of a prange loop writing one element "
       "of a storage an error."),
    ALIAS("prange", "numba.prange(stop) or prange(start, stop, step=1)", "range",
          "numba's parallel range: here the same as range."),
};

static const struct module mod_numba = {
    .cls = MODULE_CLASS("module: numba's names MiniTorch's code uses (njit, prange, cuda), "
                        "accepted so that the course's code runs unchanged; njit returns the "
                        "function as it is."),
    .name = "numba",
    .members = MEMBERS(numba_members),
};

/* ---- minitorch.operators ---------------------------------------------------------------- */

static int two_reals(struct dsl_interp *in, const struct dsl_args *a, double *x, double *y)
{
    return real_arg(in, a->slot[0], x) != 0 || real_arg(in, a->slot[1], y) != 0 ? -1 : 0;
}

#define EPS 1e-6 /* MiniTorch's operators.EPS: log and log_back add it to x */

static int o_mul(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_binary(in, DSL_T_STAR, a->slot[0], a->slot[1], ret);
}
static int o_add(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_binary(in, DSL_T_PLUS, a->slot[0], a->slot[1], ret);
}
static int o_neg(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    return *ret = dsl_float(-x), 0;
}
static int o_id(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    return *ret = dsl_value_retain(a->slot[0]), 0;
}
static int o_lt(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y;
    if (two_reals(in, a, &x, &y) != 0) return -1;
    return *ret = dsl_float(x < y ? 1.0 : 0.0), 0;
}
static int o_eq(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y;
    if (two_reals(in, a, &x, &y) != 0) return -1;
    return *ret = dsl_float(x == y ? 1.0 : 0.0), 0;
}
static int o_max(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y;
    if (two_reals(in, a, &x, &y) != 0) return -1;
    return *ret = dsl_value_retain(x > y ? a->slot[0] : a->slot[1]), 0;
}
static int o_is_close(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y;
    if (two_reals(in, a, &x, &y) != 0) return -1;
    return *ret = dsl_bool(fabs(x - y) < 1e-2), 0;
}
static int o_sigmoid(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    /* the form that cannot overflow for either sign, as MiniTorch's */
    return *ret = dsl_float(x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x))), 0;
}
static int o_relu(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    return *ret = dsl_float(x > 0 ? x : 0.0), 0;
}
static int o_log(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    if (x + EPS <= 0) return domain_error(in);
    return *ret = dsl_float(log(x + EPS)), 0;
}
static int o_exp(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return m_exp(in, a, ret);
}
static int o_inv(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (real_arg(in, a->slot[0], &x) != 0) return -1;
    if (x == 0) return dsl_raise(in, "ZeroDivisionError", "float division by zero");
    return *ret = dsl_float(1.0 / x), 0;
}
static int o_log_back(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, d;
    if (two_reals(in, a, &x, &d) != 0) return -1;
    if (x + EPS == 0) return dsl_raise(in, "ZeroDivisionError", "float division by zero");
    return *ret = dsl_float(d / (x + EPS)), 0;
}
static int o_inv_back(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, d;
    if (two_reals(in, a, &x, &d) != 0) return -1;
    if (x == 0) return dsl_raise(in, "ZeroDivisionError", "float division by zero");
    return *ret = dsl_float(-(1.0 / (x * x)) * d), 0;
}
static int o_relu_back(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, d;
    if (two_reals(in, a, &x, &d) != 0) return -1;
    return *ret = dsl_float(x > 0 ? d : 0.0), 0;
}

/* The higher-order functions return functions: a method row bound to what they were given
 * (fn, or the tuple (fn, start) for reduce). */
static int call1(struct dsl_interp *in, struct dsl_value fn, const struct dsl_value *args, size_t n,
                 struct dsl_value *out)
{
    return dsl_call(in, fn, args, n, NULL, NULL, 0, out);
}

static int o_map_apply(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_iter it;
    if (dsl_iter_init(in, a->slot[0], &it) != 0) return -1;
    struct dsl_list *l = dsl_list_new(0);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value out = {.kind = DSL_LIST, .as.l = l}, x, y;
    int r;
    while ((r = dsl_iter_next(in, &it, &x)) == 1) {
        int c = call1(in, a->self, &x, 1, &y);
        dsl_value_release(x);
        if (c != 0) break;
        int st = dsl_list_push(l, y);
        if (st != 0) {
            dsl_raise_status(in, st);
            break;
        }
    }
    if (r != 0) {
        dsl_value_release(out);
        return -1;
    }
    return *ret = out, 0;
}

static int o_zip_apply(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_iter i1, i2;
    if (dsl_iter_init(in, a->slot[0], &i1) != 0 || dsl_iter_init(in, a->slot[1], &i2) != 0)
        return -1;
    struct dsl_list *l = dsl_list_new(0);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value out = {.kind = DSL_LIST, .as.l = l}, xy[2], z;
    for (;;) {
        int r1 = dsl_iter_next(in, &i1, &xy[0]);
        if (r1 <= 0) {
            if (r1 == 0) break;
            goto fail;
        }
        int r2 = dsl_iter_next(in, &i2, &xy[1]);
        if (r2 <= 0) {
            dsl_value_release(xy[0]);
            if (r2 == 0) break; /* the shorter list ends it, as zip does */
            goto fail;
        }
        int c = call1(in, a->self, xy, 2, &z);
        dsl_value_release(xy[0]);
        dsl_value_release(xy[1]);
        if (c != 0) goto fail;
        int st = dsl_list_push(l, z);
        if (st != 0) {
            dsl_raise_status(in, st);
            goto fail;
        }
    }
    return *ret = out, 0;
fail:
    dsl_value_release(out);
    return -1;
}

static int o_reduce_apply(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value fn = a->self.as.l->items[0];
    struct dsl_value acc = dsl_value_retain(a->self.as.l->items[1]), x;
    struct dsl_iter it;
    if (dsl_iter_init(in, a->slot[0], &it) != 0) return dsl_value_release(acc), -1;
    int r;
    while ((r = dsl_iter_next(in, &it, &x)) == 1) {
        /* MiniTorch's reduce: fn(x, acc), each item first */
        struct dsl_value args[2] = {x, acc}, next;
        int c = call1(in, fn, args, 2, &next);
        dsl_value_release(x);
        dsl_value_release(acc);
        acc = dsl_none();
        if (c != 0) {
            r = -1;
            break;
        }
        acc = next;
    }
    if (r != 0) return dsl_value_release(acc), -1;
    return *ret = acc, 0;
}

static const char *const ls_params[] = {"ls", NULL};
static const char *const ls2_params[] = {"ls1", "ls2", NULL};
static const struct dsl_builtin map_apply = {"map",       "map(fn)(ls)",        1, 1, ls_params,
                                             o_map_apply, "[fn(x) for x in ls]"};
static const struct dsl_builtin zip_apply = {"zipWith",
                                             "zipWith(fn)(ls1, ls2)",
                                             2,
                                             2,
                                             ls2_params,
                                             o_zip_apply,
                                             "[fn(x, y) for x, y in zip(ls1, ls2)]"};
static const struct dsl_builtin reduce_apply = {
    "reduce",
    "reduce(fn, start)(ls)",
    1,
    1,
    ls_params,
    o_reduce_apply,
    "fn(x_n, ... fn(x_1, fn(x_0, start))): start for an empty list."};

static int check_callable(struct dsl_interp *in, struct dsl_value fn, const char *who)
{
    bool ok = fn.kind == DSL_BUILTIN || fn.kind == DSL_METHOD || fn.kind == DSL_FUNCTION ||
              (fn.kind == DSL_OBJECT && fn.as.obj->cls->call);
    return ok ? 0
              : dsl_raise(in, "TypeError", "%s(): fn must be a function, not %s", who,
                          dsl_type_name(fn));
}

static int bound(struct dsl_interp *in, const struct dsl_builtin *row, struct dsl_value self,
                 struct dsl_value *ret)
{
    int st = dsl_method_value(row, self, ret);
    return st ? dsl_raise_status(in, st) : 0;
}

static int o_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (check_callable(in, a->slot[0], "map") != 0) return -1;
    return bound(in, &map_apply, a->slot[0], ret);
}
static int o_zipWith(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (check_callable(in, a->slot[0], "zipWith") != 0) return -1;
    return bound(in, &zip_apply, a->slot[0], ret);
}
static int o_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (check_callable(in, a->slot[0], "reduce") != 0) return -1;
    struct dsl_list *l = dsl_list_new(2);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    struct dsl_value pair = {.kind = DSL_LIST, .as.l = l};
    int st = dsl_list_push(l, dsl_value_retain(a->slot[0]));
    if (st == 0) st = dsl_list_push(l, dsl_value_retain(a->slot[1]));
    if (st != 0) {
        dsl_value_release(pair);
        return dsl_raise_status(in, st);
    }
    int r = bound(in, &reduce_apply, pair, ret);
    dsl_value_release(pair);
    return r;
}

/* negList, addLists, sum and prod are MiniTorch's compositions of the three above. */
static const struct member *op_row(const char *name) { return member_find(&mod_operators, name); }

static int builtin_of(const char *name, struct dsl_value *out)
{
    *out = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = &op_row(name)->row};
    return 0;
}

static int o_negList(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value neg;
    builtin_of("neg", &neg);
    struct dsl_args b = {.self = neg, .slot = {a->slot[0]}, .has = {true}};
    return o_map_apply(in, &b, ret);
}
static int o_addLists(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value add;
    builtin_of("add", &add);
    struct dsl_args b = {.self = add, .slot = {a->slot[0], a->slot[1]}, .has = {true, true}};
    return o_zip_apply(in, &b, ret);
}

static int fold(struct dsl_interp *in, const struct dsl_args *a, const char *op, double start,
                struct dsl_value *ret)
{
    struct dsl_value fn;
    builtin_of(op, &fn);
    struct dsl_list *l = dsl_list_new(2);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    struct dsl_value pair = {.kind = DSL_LIST, .as.l = l};
    dsl_list_push(l, fn);
    dsl_list_push(l, dsl_float(start));
    struct dsl_args b = {.self = pair, .slot = {a->slot[0]}, .has = {true}};
    int r = o_reduce_apply(in, &b, ret);
    dsl_value_release(pair);
    return r;
}
static int o_sum(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return fold(in, a, "add", 0.0, ret);
}
static int o_prod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return fold(in, a, "mul", 1.0, ret);
}

static const char *const xd_params[] = {"x", "d", NULL};
static const char *const fn_params[] = {"fn", NULL};
static const char *const reduce_params[] = {"fn", "start", NULL};

static const struct member operators_members[] = {
    FN("add", "operators.add(x, y)", 2, 2, xy_params, o_add, "x + y"),
    FN("addLists", "operators.addLists(ls1, ls2)", 2, 2, ls2_params, o_addLists,
       "zipWith(add)(ls1, ls2): the lists added item by item."),
    FN("eq", "operators.eq(x, y)", 2, 2, xy_params, o_eq, "1.0 if x == y else 0.0"),
    FN("exp", "operators.exp(x)", 1, 1, x_params, o_exp, "math.exp(x)"),
    FN("id", "operators.id(x)", 1, 1, x_params, o_id, "x itself."),
    FN("inv", "operators.inv(x)", 1, 1, x_params, o_inv, "1.0 / x"),
    FN("inv_back", "operators.inv_back(x, d)", 2, 2, xd_params, o_inv_back,
       "The derivative of inv at x times d: -(1.0 / x ** 2) * d."),
    FN("is_close", "operators.is_close(x, y)", 2, 2, xy_params, o_is_close,
       "|x - y| < 1e-2 (MiniTorch's tolerance), a bool."),
    FN("log", "operators.log(x)", 1, 1, x_params, o_log,
       "MiniTorch's log: math.log(x + 1e-6) (operators.EPS keeps log(0) finite)."),
    FN("log_back", "operators.log_back(x, d)", 2, 2, xd_params, o_log_back,
       "The derivative of log at x times d: d / (x + 1e-6)."),
    FN("lt", "operators.lt(x, y)", 2, 2, xy_params, o_lt, "1.0 if x < y else 0.0"),
    FN("map", "operators.map(fn)", 1, 1, fn_params, o_map,
       "A function taking a list ls and giving [fn(x) for x in ls] (MiniTorch's map is "
       "higher-order: map(neg)([1, 2]) is [-1.0, -2.0])."),
    FN("max", "operators.max(x, y)", 2, 2, xy_params, o_max, "x if x > y else y"),
    FN("mul", "operators.mul(x, y)", 2, 2, xy_params, o_mul, "x * y"),
    FN("neg", "operators.neg(x)", 1, 1, x_params, o_neg, "-x, as a float."),
    FN("negList", "operators.negList(ls)", 1, 1, ls_params, o_negList,
       "map(neg)(ls): every item negated."),
    FN("prod", "operators.prod(ls)", 1, 1, ls_params, o_prod,
       "reduce(mul, 1.0)(ls): the product of the items."),
    FN("reduce", "operators.reduce(fn, start)", 2, 2, reduce_params, o_reduce,
       "A function taking a list ls and folding it: fn(x_n, ... fn(x_1, fn(x_0, start)))."),
    FN("relu", "operators.relu(x)", 1, 1, x_params, o_relu, "x if x > 0 else 0.0"),
    FN("relu_back", "operators.relu_back(x, d)", 2, 2, xd_params, o_relu_back,
       "The derivative of relu at x times d: d if x > 0 else 0.0."),
    FN("sigmoid", "operators.sigmoid(x)", 1, 1, x_params, o_sigmoid,
       "1 / (1 + e^-x), computed as e^x / (1 + e^x) for x < 0 so that it never overflows."),
    FN("sum", "operators.sum(ls)", 1, 1, ls_params, o_sum,
       "reduce(add, 0.0)(ls): the sum of the items."),
    FN("zipWith", "operators.zipWith(fn)", 1, 1, fn_params, o_zipWith,
       "A function taking two lists and giving [fn(x, y) for x, y in zip(ls1, ls2)]."),
};

const char *dsl_operator_name(const struct dsl_builtin *fn)
{
    /* a member's row is its first field; addresses compared as numbers, fn being any row */
    uintptr_t p = (uintptr_t)fn, lo = (uintptr_t)operators_members;
    uintptr_t hi =
        (uintptr_t)(operators_members + sizeof operators_members / sizeof operators_members[0]);
    return p >= lo && p < hi ? fn->name : NULL;
}

static const struct module mod_operators = {
    .cls = MODULE_CLASS("module: MiniTorch's operators (Task 0.1 and 0.3): the scalar "
                        "functions and the higher-order list functions, with MiniTorch's "
                        "semantics (lt and eq give 1.0/0.0, log is ln(x + 1e-6))."),
    .name = "minitorch.operators",
    .members = MEMBERS(operators_members),
};

static int v_operators(struct dsl_interp *in, struct dsl_value *out)
{
    return module_value(in, &mod_operators, out);
}

/* ---- minitorch: backends ---------------------------------------------------------------- */

static int backend_repr(struct render_buf *b, const void *state)
{
    render_buf_printf(b, "TensorBackend('%s')", mt_backend_name(*(const enum mt_backend *)state));
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int backend_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                           struct dsl_value *out)
{
    enum mt_backend be = *(const enum mt_backend *)self.as.obj->state;
    if (strcmp(name, "cuda") == 0) return *out = dsl_bool(be == MT_BACKEND_CUDA), 0;
    if (strcmp(name, "name") == 0) {
        const char *s = mt_backend_name(be);
        int st = dsl_str_value(s, strlen(s), out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    return dsl_raise(in, "AttributeError", "'TensorBackend' object has no attribute '%s'", name);
}

static const char *const backend_attrs[] = {"cuda", "name", NULL};

const struct dsl_object_class dsl_backend_class = {
    .name = "TensorBackend",
    .doc = "TensorBackend: one of the kernel's backends under MiniTorch's name "
           "(minitorch.SimpleBackend is \"simple\", FastTensorBackend \"fast\", GPUBackend "
           "\"cuda\"); backend= of tensor(), zeros(), rand() ... takes it as it takes the "
           "name.",
    .attrs = backend_attrs,
    .free = module_free,
    .repr = backend_repr,
    .getattr = backend_getattr,
};

static const enum mt_backend backends[] = {MT_BACKEND_SIMPLE, MT_BACKEND_FAST, MT_BACKEND_CUDA,
                                           MT_BACKEND_STUDENT};
_Static_assert(sizeof backends / sizeof backends[0] == MT_BACKEND_COUNT, "one value per backend");

int dsl_backend_value(struct dsl_interp *in, enum mt_backend b, struct dsl_value *out)
{
    int st = dsl_object_value(&dsl_backend_class, (void *)&backends[b], out);
    return st ? dsl_raise_status(in, st) : 0;
}
static int v_simple(struct dsl_interp *in, struct dsl_value *out)
{
    return dsl_backend_value(in, MT_BACKEND_SIMPLE, out);
}
static int v_fast(struct dsl_interp *in, struct dsl_value *out)
{
    return dsl_backend_value(in, MT_BACKEND_FAST, out);
}
static int v_gpu(struct dsl_interp *in, struct dsl_value *out)
{
    return dsl_backend_value(in, MT_BACKEND_CUDA, out);
}

bool dsl_backend_object(struct dsl_value v, enum mt_backend *out)
{
    if (v.kind != DSL_OBJECT || v.as.obj->cls != &dsl_backend_class) return false;
    *out = *(const enum mt_backend *)v.as.obj->state;
    return true;
}

/* ---- minitorch: TensorOps and TensorBackend --------------------------------------------- */

/* MiniTorch builds a backend from a class of ops: TensorBackend(FastOps). The kernel's three
 * backends are such classes (SimpleOps, FastOps, CudaOps, deriving from TensorOps), so that
 * `minitorch.TensorBackend(minitorch.FastOps)` is the kernel's fast backend; TensorOps is the
 * base a student's own ops class derives from. Its methods are what a backend class defines;
 * called on TensorOps itself they say so. */
static int ops_abstract(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    (void)ret;
    return dsl_raise(in, "NotImplementedError",
                     "TensorOps only names map, cmap, zip, reduce and matrix_multiply: a class "
                     "of ops (minitorch.FastOps, or one of your own deriving from TensorOps) "
                     "defines them");
}

static const struct dsl_builtin tensor_ops_methods[] = {
    {"map", "map(fn)", 0, -1, NULL, ops_abstract, "A backend's elementwise map, made from fn."},
    {"cmap", "cmap(fn)", 0, -1, NULL, ops_abstract, "map into an existing output."},
    {"zip", "zip(fn)", 0, -1, NULL, ops_abstract, "A backend's elementwise zip, made from fn."},
    {"reduce", "reduce(fn, start=0.0)", 0, -1, NULL, ops_abstract,
     "A backend's reduction along a dim, made from fn."},
    {"matrix_multiply", "matrix_multiply(a, b)", 0, -1, NULL, ops_abstract,
     "A backend's batched matrix multiply."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};
static const struct dsl_builtin simple_ops_methods[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};
static const struct dsl_builtin fast_ops_methods[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};
static const struct dsl_builtin cuda_ops_methods[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};

static struct dsl_class *tensor_ops_class(void)
{
    struct dsl_class *c = dsl_library_class(
        "TensorOps",
        "minitorch.TensorOps: the base class of a backend's ops (map, zip, reduce, "
        "matrix_multiply); cuda says whether they run on the GPU.",
        dsl_none(), tensor_ops_methods);
    if (!dsl_attrs_find(&c->attrs, "cuda")) dsl_attrs_set(&c->attrs, "cuda", dsl_bool(false));
    return c;
}

/* One of the kernel's ops classes: 0 simple, 1 fast, 2 cuda. */
static struct dsl_class *kernel_ops_class(int which)
{
    static const char *const names[] = {"SimpleOps", "FastOps", "CudaOps"};
    static const char *const docs[] = {
        "minitorch.SimpleOps: the kernel's simple backend (plain loops) as MiniTorch's ops class: "
        "TensorBackend(SimpleOps) is minitorch.SimpleBackend.",
        "minitorch.FastOps: the kernel's fast backend (OpenMP and SIMD) as MiniTorch's ops "
        "class: TensorBackend(FastOps) is minitorch.FastTensorBackend.",
        "minitorch.CudaOps: the kernel's cuda backend as MiniTorch's ops class: "
        "TensorBackend(CudaOps) is minitorch.GPUBackend."};
    static const struct dsl_builtin *const rows[] = {simple_ops_methods, fast_ops_methods,
                                                     cuda_ops_methods};
    struct dsl_value base = {.kind = DSL_CLASS, .as.cls = tensor_ops_class()};
    struct dsl_class *c = dsl_library_class(names[which], docs[which], base, rows[which]);
    if (which == 2 && !dsl_attrs_find(&c->attrs, "cuda"))
        dsl_attrs_set(&c->attrs, "cuda", dsl_bool(true));
    return c;
}

static int ops_value(int which, struct dsl_value *out)
{
    *out = (struct dsl_value){.kind = DSL_CLASS, .as.cls = kernel_ops_class(which)};
    return 0;
}
static int v_tensor_ops(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    *out = (struct dsl_value){.kind = DSL_CLASS, .as.cls = tensor_ops_class()};
    return 0;
}
static int v_simple_ops(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return ops_value(0, out);
}
static int v_fast_ops(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return ops_value(1, out);
}
static int v_cuda_ops(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return ops_value(2, out);
}

bool dsl_ops_class_backend(const struct dsl_class *c, enum mt_backend *out)
{
    for (; c; c = c->base.kind == DSL_CLASS ? c->base.as.cls : NULL)
        for (int which = 0; which < 3; which++)
            if (c == kernel_ops_class(which)) {
                *out = backends[which];
                return true;
            }
    return false;
}

/* TensorBackend(ops): the kernel's backend for one of its ops classes. */
static int tensor_backend_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value ops = a->slot[0];
    for (int which = 0; which < 3; which++)
        if (ops.kind == DSL_CLASS && ops.as.cls == kernel_ops_class(which))
            return dsl_backend_value(in, backends[which], ret);
    if (ops.kind == DSL_CLASS) {
        const struct dsl_class *c = ops.as.cls;
        if (c == tensor_ops_class())
            return dsl_raise(in, "TypeError",
                             "TensorBackend(TensorOps): TensorOps only names the ops; give "
                             "TensorBackend a class deriving from it that defines them");
        for (const struct dsl_class *k = c; k;
             k = k->base.kind == DSL_CLASS ? k->base.as.cls : NULL)
            if (k == tensor_ops_class()) return dsl_student_backend(in, ops, ret);
    }
    return dsl_raise(in, "TypeError",
                     "TensorBackend() takes a class of ops (minitorch.FastOps, SimpleOps or "
                     "CudaOps), not %s",
                     dsl_type_name(ops));
}

/* ---- minitorch: tensors with MiniTorch's signatures ------------------------------------- */

/* tensor(ls, backend=None, requires_grad=False): the kernel's tensor(data, requires_grad,
 * backend), its slots in MiniTorch's order. */
static int mt_tensor_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_args b = {.slot = {a->slot[0], a->slot[2], a->slot[1]},
                         .has = {true, a->has[2], a->has[1]}};
    return dsl_bi_tensor(in, &b, ret);
}

/* zeros/ones/rand(shape, backend=None, requires_grad=False): the shape one tuple or list. */
static int creation(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                    dsl_builtin_fn fn)
{
    struct dsl_args b = {.rest = &a->slot[0],
                         .nrest = 1,
                         .slot = {a->slot[2], a->slot[1]},
                         .has = {a->has[2], a->has[1]}};
    if (a->slot[0].kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "shape must be a tuple of ints, not %s",
                         dsl_type_name(a->slot[0]));
    return fn(in, &b, ret);
}
static int mt_zeros_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return creation(in, a, ret, dsl_bi_zeros);
}
static int mt_ones_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return creation(in, a, ret, dsl_bi_ones);
}
static int mt_rand_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return creation(in, a, ret, dsl_bi_rand);
}

/* ---- minitorch: tensor_data's functions ------------------------------------------------- */

/* A sequence of ints (a tuple or list) as values; TypeError otherwise. */
static int ints_arg(struct dsl_interp *in, struct dsl_value v, const char *what, int64_t *out,
                    size_t *n)
{
    if (v.kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "%s must be a tuple or list of ints, not %s", what,
                         dsl_type_name(v));
    if (v.as.l->len > 32) /* MAX_DIMS */
        return dsl_raise(in, "IndexingError", "%s has %zu dims; MAX_DIMS is 32", what, v.as.l->len);
    for (size_t i = 0; i < v.as.l->len; i++) {
        if (!dsl_is_intlike(v.as.l->items[i]))
            return dsl_raise(in, "TypeError", "%s[%zu] must be an int, not %s", what, i,
                             dsl_type_name(v.as.l->items[i]));
        out[i] = dsl_as_int(v.as.l->items[i]);
    }
    *n = v.as.l->len;
    return 0;
}

static int tuple_of(struct dsl_interp *in, const int64_t *xs, size_t n, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new(n);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    for (size_t i = 0; i < n; i++) dsl_list_push(l, dsl_int(xs[i]));
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

/* out_index[i] = v, out_index a list (MiniTorch writes into a numpy array given by the caller). */
static int store_index(struct dsl_interp *in, struct dsl_value out, size_t i, int64_t v)
{
    if (out.kind != DSL_LIST || out.as.l->style == DSL_LIST_TUPLE)
        return dsl_raise(in, "TypeError", "out_index must be a list, not %s", dsl_type_name(out));
    if (i >= out.as.l->len)
        return dsl_raise(in, "IndexError", "out_index has %zu items; index %zu is out of range",
                         out.as.l->len, i);
    dsl_value_orphan(out.as.l->items[i]);
    dsl_value_release(out.as.l->items[i]);
    out.as.l->items[i] = dsl_int(v);
    return 0;
}

static int td_index_to_position(struct dsl_interp *in, const struct dsl_args *a,
                                struct dsl_value *ret)
{
    int64_t ix[64], st[64];
    size_t n, m;
    if (ints_arg(in, a->slot[0], "index", ix, &n) != 0 ||
        ints_arg(in, a->slot[1], "strides", st, &m) != 0)
        return -1;
    int64_t pos = 0;
    for (size_t i = 0; i < n && i < m; i++) pos += ix[i] * st[i];
    return *ret = dsl_int(pos), 0;
}

static int td_to_index(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t ord, shape[64];
    size_t n;
    if (int_arg(in, a->slot[0], &ord) != 0 || ints_arg(in, a->slot[1], "shape", shape, &n) != 0)
        return -1;
    for (size_t k = n; k-- > 0;) {
        if (shape[k] <= 0) return dsl_raise(in, "ZeroDivisionError", "integer modulo by zero");
        /* Python's % and // (floor), for a negative ordinal too */
        int64_t q = ord / shape[k], r = ord % shape[k];
        if (r < 0) r += shape[k], q--;
        if (store_index(in, a->slot[2], k, r) != 0) return -1;
        ord = q;
    }
    return *ret = dsl_none(), 0;
}

static int td_broadcast_index(struct dsl_interp *in, const struct dsl_args *a,
                              struct dsl_value *ret)
{
    int64_t big[64], big_shape[64], shape[64];
    size_t nb, nbs, ns;
    if (ints_arg(in, a->slot[0], "big_index", big, &nb) != 0 ||
        ints_arg(in, a->slot[1], "big_shape", big_shape, &nbs) != 0 ||
        ints_arg(in, a->slot[2], "shape", shape, &ns) != 0)
        return -1;
    if (ns > nbs)
        return dsl_raise(in, "IndexingError",
                         "shape has %zu dims, more than big_shape's %zu: it cannot broadcast to it",
                         ns, nbs);
    for (size_t i = 0; i < ns; i++) {
        size_t j = i + nbs - ns; /* the big dim this one lines up with, from the right */
        if (j >= nb)
            return dsl_raise(in, "IndexError", "big_index has no dim %zu for shape's dim %zu", j,
                             i);
        if (store_index(in, a->slot[3], i, shape[i] > 1 ? big[j] : 0) != 0) return -1;
    }
    return *ret = dsl_none(), 0;
}

static int td_shape_broadcast(struct dsl_interp *in, const struct dsl_args *a,
                              struct dsl_value *ret)
{
    int64_t s1[64], s2[64], out[64];
    size_t n1, n2;
    if (ints_arg(in, a->slot[0], "shape1", s1, &n1) != 0 ||
        ints_arg(in, a->slot[1], "shape2", s2, &n2) != 0)
        return -1;
    size_t m = n1 > n2 ? n1 : n2;
    for (size_t i = 0; i < m; i++) { /* from the right */
        int64_t x = i < n1 ? s1[n1 - 1 - i] : 1, y = i < n2 ? s2[n2 - 1 - i] : 1;
        if (x != y && x != 1 && y != 1) {
            struct render_buf b;
            render_buf_init(&b, 4096);
            dsl_value_repr(&b, a->slot[0]);
            render_buf_puts(&b, " and ");
            dsl_value_repr(&b, a->slot[1]);
            int r = dsl_raise(in, "IndexingError",
                              "cannot broadcast shapes %s: dim %lld of one is %lld, of the other "
                              "%lld",
                              render_buf_str(&b), -(long long)i - 1, (long long)x, (long long)y);
            render_buf_free(&b);
            return r;
        }
        out[m - 1 - i] = x == 1 ? y : x;
    }
    return tuple_of(in, out, m, ret);
}

static int td_strides_from_shape(struct dsl_interp *in, const struct dsl_args *a,
                                 struct dsl_value *ret)
{
    int64_t shape[64], st[64];
    size_t n;
    if (ints_arg(in, a->slot[0], "shape", shape, &n) != 0) return -1;
    int64_t off = 1;
    for (size_t k = n; k-- > 0;) {
        st[k] = off;
        off *= shape[k];
    }
    return tuple_of(in, st, n, ret);
}

/* central_difference(f, *vals, arg=0, epsilon=1e-6): (f(..x + eps..) - f(..x - eps..)) / (2
 * eps) in argument `arg`, MiniTorch's numerical derivative. */
static int td_central_difference(struct dsl_interp *in, const struct dsl_args *a,
                                 struct dsl_value *ret)
{
    struct dsl_value f = a->rest[0];
    int64_t arg = 0;
    double eps = 1e-6;
    if (check_callable(in, f, "central_difference") != 0) return -1;
    if (a->has[0] && int_arg(in, a->slot[0], &arg) != 0) return -1;
    if (a->has[1] && real_arg(in, a->slot[1], &eps) != 0) return -1;
    size_t n = a->nrest - 1;
    const struct dsl_value *rest = a->rest + 1;
    if (arg < 0 || (size_t)arg >= n)
        return dsl_raise(in, "IndexError",
                         "central_difference(): arg %lld is not one of the %zu values",
                         (long long)arg, n);
    double x;
    if (real_arg(in, rest[arg], &x) != 0) return -1;
    struct dsl_value *vals = malloc(n * sizeof *vals);
    if (!vals) return dsl_raise_status(in, DSL_V_NOMEM);
    memcpy(vals, rest, n * sizeof *vals);
    struct dsl_value hi = dsl_none(), lo = dsl_none();
    vals[arg] = dsl_float(x + eps);
    int r = call1(in, f, vals, n, &hi);
    if (r == 0) {
        vals[arg] = dsl_float(x - eps);
        r = call1(in, f, vals, n, &lo);
    }
    free(vals);
    struct dsl_value diff = dsl_none();
    if (r == 0) r = dsl_binary(in, DSL_T_MINUS, hi, lo, &diff);
    if (r == 0) r = dsl_binary(in, DSL_T_SLASH, diff, dsl_float(2.0 * eps), ret);
    dsl_value_release(hi);
    dsl_value_release(lo);
    dsl_value_release(diff);
    return r;
}

static int v_max_dims(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return *out = dsl_int(32), 0;
}

/* ---- minitorch.datasets ----------------------------------------------------------------- */

struct graph {
    int64_t N, m; /* as asked, and the points made (spiral: 2 * (N // 2)) */
    double *xs;   /* 2m */
    int *ys;      /* m */
};

static void graph_free(void *state)
{
    struct graph *g = state;
    if (!g) return;
    free(g->xs);
    free(g->ys);
    free(g);
}

static int graph_X(struct graph *g, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new((size_t)g->m);
    if (!l) return DSL_V_NOMEM;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (int64_t k = 0; k < g->m; k++) {
        struct dsl_list *p = dsl_list_new(2);
        if (!p) return DSL_V_NOMEM;
        p->style = DSL_LIST_TUPLE;
        dsl_list_push(p, dsl_float(g->xs[2 * k]));
        dsl_list_push(p, dsl_float(g->xs[2 * k + 1]));
        struct dsl_value pv = {.kind = DSL_LIST, .as.l = p};
        int st = dsl_list_push(l, pv);
        if (st != 0) return st;
    }
    return 0;
}

static int graph_y(struct graph *g, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new((size_t)g->m);
    if (!l) return DSL_V_NOMEM;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (int64_t k = 0; k < g->m; k++) dsl_list_push(l, dsl_int(g->ys[k]));
    return 0;
}

static int graph_repr(struct render_buf *b, const void *state)
{
    struct graph *g = (struct graph *)state;
    render_buf_printf(b, "Graph(N=%lld, X=", (long long)g->N);
    struct dsl_value v = dsl_none();
    int st = graph_X(g, &v);
    if (st == 0) st = dsl_value_repr(b, v);
    dsl_value_release(v);
    render_buf_puts(b, ", y=");
    v = dsl_none();
    if (st == 0) st = graph_y(g, &v);
    if (st == 0) st = dsl_value_repr(b, v);
    dsl_value_release(v);
    render_buf_puts(b, ")");
    return st ? st : b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int graph_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                         struct dsl_value *out)
{
    struct graph *g = self.as.obj->state;
    int st;
    if (strcmp(name, "N") == 0) return *out = dsl_int(g->N), 0;
    if (strcmp(name, "X") == 0)
        st = graph_X(g, out);
    else if (strcmp(name, "y") == 0)
        st = graph_y(g, out);
    else
        return dsl_raise(in, "AttributeError",
                         "'Graph' object has no attribute '%s' (it has N, X and y)", name);
    if (st != 0) {
        dsl_value_release(*out);
        *out = dsl_none();
        return dsl_raise_status(in, st);
    }
    return 0;
}

static const char *const graph_attrs[] = {"N", "X", "y", NULL};

static const struct dsl_object_class graph_class = {
    .name = "Graph",
    .doc = "Graph: MiniTorch's dataset record, made by minitorch.datasets[name](N): N, X (a "
           "list of N (x1, x2) tuples of floats, as MiniTorch draws them: the same numbers "
           "for the same seed) and y (a list of N labels, 0 or 1). X and y are new lists at "
           "each lookup: keep them in a variable to change them.",
    .attrs = graph_attrs,
    .free = graph_free,
    .repr = graph_repr,
    .getattr = graph_getattr,
};

static int make_graph(struct dsl_interp *in, const struct dsl_args *a, enum mt_dataset d,
                      struct dsl_value *ret)
{
    int64_t N;
    if (int_arg(in, a->slot[0], &N) != 0) return -1;
    struct mt_ctx *ctx = ctx_of(in);
    int64_t m = d == MT_DATASET_SPIRAL ? 2 * (N / 2) : N;
    struct graph *g = calloc(1, sizeof *g);
    if (g && m > 0 && m <= 100000000) {
        g->xs = malloc((size_t)m * 2 * sizeof *g->xs);
        g->ys = malloc((size_t)m * sizeof *g->ys);
    }
    if (!g || (m > 0 && m <= 100000000 && (!g->xs || !g->ys))) {
        graph_free(g);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    g->N = N;
    g->m = m;
    enum mt_status st = mt_dataset_draw(ctx, d, N, g->xs, g->ys);
    if (st != MT_OK) {
        graph_free(g);
        return dsl_engine_raise(in, st);
    }
    int vs = dsl_object_value(&graph_class, g, ret);
    return vs ? dsl_raise_status(in, vs) : 0;
}

#define DATASET(fname, kind)                                                                       \
    static int ds_##fname(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)  \
    {                                                                                              \
        return make_graph(in, a, kind, ret);                                                       \
    }
DATASET(simple, MT_DATASET_SIMPLE)
DATASET(diag, MT_DATASET_DIAG)
DATASET(split, MT_DATASET_SPLIT)
DATASET(xor, MT_DATASET_XOR)
DATASET(circle, MT_DATASET_CIRCLE)
DATASET(spiral, MT_DATASET_SPIRAL)
#undef DATASET

static const char *const n_params[] = {"N", NULL};
static const struct {
    const char *key;
    struct dsl_builtin row;
} dataset_rows[] = {
    {"Simple", {"simple", "simple(N)", 1, 1, n_params, ds_simple, "label 1 iff x1 < 0.5"}},
    {"Diag", {"diag", "diag(N)", 1, 1, n_params, ds_diag, "label 1 iff x1 + x2 < 0.5"}},
    {"Split", {"split", "split(N)", 1, 1, n_params, ds_split, "label 1 iff x1 < 0.2 or x1 > 0.8"}},
    {"Xor",
     {"xor", "xor(N)", 1, 1, n_params, ds_xor,
      "label 1 iff (x1 < 0.5 and x2 > 0.5) or (x1 > 0.5 and x2 < 0.5)"}},
    {"Circle",
     {"circle", "circle(N)", 1, 1, n_params, ds_circle,
      "label 1 iff (x1 - 0.5)^2 + (x2 - 0.5)^2 > 0.1"}},
    {"Spiral",
     {"spiral", "spiral(N)", 1, 1, n_params, ds_spiral,
      "two arms of N // 2 points each, labels 0 then 1 (draws nothing)"}},
};
#define NDATASETS (sizeof dataset_rows / sizeof dataset_rows[0])

static int datasets_repr(struct render_buf *b, const void *state)
{
    (void)state;
    render_buf_puts(b, "{");
    for (size_t i = 0; i < NDATASETS; i++)
        render_buf_printf(b, "%s'%s': <function %s>", i ? ", " : "", dataset_rows[i].key,
                          dataset_rows[i].row.name);
    render_buf_puts(b, "}");
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int datasets_getitem(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                            struct dsl_value *out)
{
    (void)self;
    if (key.kind == DSL_STR)
        for (size_t i = 0; i < NDATASETS; i++)
            if (strcmp(key.as.s->data, dataset_rows[i].key) == 0) {
                *out = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = &dataset_rows[i].row};
                return 0;
            }
    struct render_buf b;
    render_buf_init(&b, 4096);
    int st = dsl_value_repr(&b, key);
    if (dsl_text_error_drop(in, st)) { /* a key whose repr raises: as dsl_dict_raise_key */
        render_buf_free(&b);
        render_buf_puts(&b, DSL_STR_FAILED);
    } else if (st == DSL_V_RAISED) {
        render_buf_free(&b);
        return -1;
    }
    int r = dsl_raise(in, "KeyError",
                      "%s (the datasets are 'Simple', 'Diag', 'Split', 'Xor', 'Circle', "
                      "'Spiral')",
                      render_buf_str(&b));
    render_buf_free(&b);
    return r;
}

/* datasets.keys(): the names, as a list (MiniTorch's app lists them so) */
static int datasets_keys(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    struct dsl_list *l = dsl_list_new(NDATASETS);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (size_t i = 0; i < NDATASETS; i++) {
        struct dsl_value k;
        int st = dsl_str_value(dataset_rows[i].key, strlen(dataset_rows[i].key), &k);
        if (st == 0) st = dsl_list_push(l, k);
        if (st != 0) {
            dsl_value_release(*ret);
            *ret = dsl_none();
            return dsl_raise_status(in, st);
        }
    }
    return 0;
}

static const struct dsl_builtin datasets_keys_row = {
    "keys",
    "datasets.keys()",
    0,
    0,
    NULL,
    datasets_keys,
    "The names of the six datasets, as a list: Simple, Diag, Split, Xor, Circle, Spiral."};

static int datasets_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                            struct dsl_value *out)
{
    if (strcmp(name, "keys") == 0) return bound(in, &datasets_keys_row, self, out);
    return dsl_raise(in, "AttributeError", "'dict' object has no attribute '%s'", name);
}

static const char *const datasets_attrs[] = {"keys", NULL};

static const struct dsl_object_class datasets_class = {
    .name = "dict",
    .doc = "minitorch.datasets: MiniTorch's dict of dataset functions, "
           "minitorch.datasets[\"Xor\"](N) giving a Graph (N, X, y) drawn from the session's "
           "generator. The kernel's own dataset(name, n) gives the same points as tensors.",
    .attrs = datasets_attrs,
    .free = module_free,
    .repr = datasets_repr,
    .getattr = datasets_getattr,
    .getitem = datasets_getitem,
};

static int v_datasets(struct dsl_interp *in, struct dsl_value *out)
{
    int st = dsl_object_value(&datasets_class, NULL, out);
    return st ? dsl_raise_status(in, st) : 0;
}

/* ---- minitorch -------------------------------------------------------------------------- */

static const char *const tensor_params[] = {"ls", "backend", "requires_grad", NULL};
static const char *const shape_params[] = {"shape", "backend", "requires_grad", NULL};
static const char *const index_to_position_params[] = {"index", "strides", NULL};
static const char *const to_index_params[] = {"ordinal", "shape", "out_index", NULL};
static const char *const broadcast_index_params[] = {"big_index", "big_shape", "shape", "out_index",
                                                     NULL};
static const char *const shape_broadcast_params[] = {"shape1", "shape2", NULL};
static const char *const strides_params[] = {"shape", NULL};
static const char *const central_params[] = {"arg", "epsilon", NULL};
static const char *const tensor_backend_params[] = {"ops", NULL};
static const char *const tensor_data_params[] = {"storage", "shape", "strides", NULL};

/* MiniTorch's classes (lib/nn.c) */
static int nn_class(struct dsl_interp *in, const char *name, struct dsl_value *out)
{
    (void)in;
    *out = dsl_nn_class(name);
    return 0;
}
static int v_module(struct dsl_interp *in, struct dsl_value *out)
{
    return nn_class(in, "Module", out);
}
static int v_parameter(struct dsl_interp *in, struct dsl_value *out)
{
    return nn_class(in, "Parameter", out);
}
static int v_optimizer(struct dsl_interp *in, struct dsl_value *out)
{
    return nn_class(in, "Optimizer", out);
}
static int v_sgd(struct dsl_interp *in, struct dsl_value *out) { return nn_class(in, "SGD", out); }

static const struct member minitorch_members[] = {
    VALUE("CudaOps", "class minitorch.CudaOps", v_cuda_ops,
          "The kernel's cuda backend as MiniTorch's ops class: TensorBackend(CudaOps)."),
    VALUE("FastOps", "class minitorch.FastOps", v_fast_ops,
          "The kernel's fast backend as MiniTorch's ops class: TensorBackend(FastOps) is "
          "FastTensorBackend."),
    VALUE("FastTensorBackend", "minitorch.FastTensorBackend", v_fast,
          "The kernel's fast backend (OpenMP, SIMD) under MiniTorch's name: "
          "tensor(..., backend=minitorch.FastTensorBackend)."),
    VALUE("GPUBackend", "minitorch.GPUBackend", v_gpu,
          "The kernel's cuda backend (what run_fast_tensor.py builds as "
          "TensorBackend(CudaOps)); using it where no GPU is raises."),
    VALUE("MAX_DIMS", "minitorch.MAX_DIMS", v_max_dims,
          "MiniTorch's limit on a tensor's dims, 32 (the kernel's own tensors have at most 8)."),
    VALUE("Module", "class minitorch.Module", v_module,
          "The base of a network: derive from it, call super().__init__(), set Parameters and "
          "child Modules as attributes, write forward(self, x). help(minitorch.Module) lists "
          "its methods."),
    VALUE("Optimizer", "class minitorch.Optimizer(parameters)", v_optimizer,
          "The base of SGD: keeps self.parameters."),
    VALUE("Parameter", "class minitorch.Parameter(x, name=None)", v_parameter,
          "A value a Module learns: p.value, p.update(x)."),
    VALUE("SGD", "class minitorch.SGD(parameters, lr=1.0)", v_sgd,
          "Stochastic gradient descent: zero_grad(), step() does p.update(p.value - lr * "
          "p.value.grad)."),
    VALUE("SimpleBackend", "minitorch.SimpleBackend", v_simple,
          "The kernel's simple backend (plain loops) under MiniTorch's name."),
    VALUE("SimpleOps", "class minitorch.SimpleOps", v_simple_ops,
          "The kernel's simple backend as MiniTorch's ops class: TensorBackend(SimpleOps) is "
          "SimpleBackend."),
    FN("TensorBackend", "minitorch.TensorBackend(ops)", 1, 1, tensor_backend_params,
       tensor_backend_fn,
       "The backend a class of ops makes: TensorBackend(minitorch.FastOps) is "
       "FastTensorBackend, SimpleOps SimpleBackend, CudaOps GPUBackend."),
    FN("TensorData", "minitorch.TensorData(storage, shape, strides=None)", 2, 3, tensor_data_params,
       dsl_bi_tensor_data,
       "A tensor's layout and memory, as MiniTorch's TensorData: the numbers of storage (a list "
       "or tuple) laid out by shape and strides (row-major when strides is None)."),
    VALUE("TensorOps", "class minitorch.TensorOps", v_tensor_ops,
          "The base class of a backend's ops: map, cmap, zip, reduce, matrix_multiply; cuda."),
    FN("broadcast_index", "minitorch.broadcast_index(big_index, big_shape, shape, out_index)", 4, 4,
       broadcast_index_params, td_broadcast_index,
       "Writes into the list out_index the index into `shape` that big_index (an index into "
       "big_shape) broadcasts from: the aligned dims, 0 where shape's dim is 1. Returns None."),
    FN("central_difference", "minitorch.central_difference(f, *vals, arg=0, epsilon=1e-6)", 1, -1,
       central_params, td_central_difference,
       "(f(..., x + epsilon, ...) - f(..., x - epsilon, ...)) / (2 * epsilon) for x the value "
       "number `arg`: MiniTorch's numerical derivative."),
    VALUE("datasets", "minitorch.datasets", v_datasets,
          "MiniTorch's dict of datasets: minitorch.datasets[\"Simple\"](50) is a Graph with N, "
          "X and y. Keys: Simple, Diag, Split, Xor, Circle, Spiral."),
    FN("index_to_position", "minitorch.index_to_position(index, strides)", 2, 2,
       index_to_position_params, td_index_to_position,
       "The storage position of a multidimensional index: sum of index[i] * strides[i]."),
    FN("ones", "minitorch.ones(shape, backend=None, requires_grad=False)", 1, 3, shape_params,
       mt_ones_fn, "A tensor of ones of the shape (a tuple)."),
    VALUE("operators", "minitorch.operators", v_operators,
          "minitorch.operators: mul, add, neg, id, lt, eq, max, is_close, sigmoid, relu, log, "
          "exp, inv, log_back, inv_back, relu_back, map, zipWith, reduce, negList, addLists, "
          "sum, prod."),
    FN("rand", "minitorch.rand(shape, backend=None, requires_grad=False)", 1, 3, shape_params,
       mt_rand_fn,
       "A tensor of the shape (a tuple) of uniform [0, 1) numbers from the session's "
       "generator, one draw per element in order, as MiniTorch's rand."),
    FN("shape_broadcast", "minitorch.shape_broadcast(shape1, shape2)", 2, 2, shape_broadcast_params,
       td_shape_broadcast,
       "The shape two shapes broadcast to, as a tuple; IndexingError when they cannot."),
    FN("strides_from_shape", "minitorch.strides_from_shape(shape)", 1, 1, strides_params,
       td_strides_from_shape, "The contiguous (row-major) strides of a shape, as a tuple."),
    FN("tensor", "minitorch.tensor(ls, backend=None, requires_grad=False)", 1, 3, tensor_params,
       mt_tensor_fn,
       "A tensor from a number or nested lists or tuples of numbers (MiniTorch's argument "
       "order; the kernel's tensor(data, requires_grad, backend) is the same function)."),
    FN("to_index", "minitorch.to_index(ordinal, shape, out_index)", 3, 3, to_index_params,
       td_to_index,
       "Writes into the list out_index the multidimensional index of position `ordinal` in a "
       "contiguous tensor of `shape`. Returns None."),
    FN("zeros", "minitorch.zeros(shape, backend=None, requires_grad=False)", 1, 3, shape_params,
       mt_zeros_fn, "A tensor of zeros of the shape (a tuple)."),
};

static const struct module mod_minitorch = {
    .cls = MODULE_CLASS("module: MiniTorch's API as the kernel provides it: tensor, zeros, "
                        "rand, the backends, datasets, operators and tensor_data's functions, "
                        "under MiniTorch's names and signatures."),
    .name = "minitorch",
    .members = MEMBERS(minitorch_members),
};

/* ---- the modules ------------------------------------------------------------------------ */

static const struct module *const all_modules[] = {
    &mod_math,       &mod_minitorch, &mod_operators, &mod_numba,
    &mod_numba_cuda, &mod_numpy,     &mod_random,    &mod_time,
};
#define NMODULES (sizeof all_modules / sizeof all_modules[0])

static const struct dsl_object_class *module_attr_class(const struct dsl_object_class *cls,
                                                        const char *name)
{
    /* a submodule is the module whose name is this one's, a dot, and name */
    const struct module *m = module_of(cls);
    size_t len = strlen(m->name);
    for (size_t i = 0; i < NMODULES; i++) {
        const char *full = all_modules[i]->name;
        if (strncmp(full, m->name, len) == 0 && full[len] == '.' &&
            strcmp(full + len + 1, name) == 0)
            return &all_modules[i]->cls;
    }
    if (m == &mod_minitorch && strcmp(name, "datasets") == 0) return &datasets_class;
    return NULL;
}

const struct dsl_object_class *dsl_module_class(const char *name)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (strcmp(all_modules[i]->name, name) == 0) return &all_modules[i]->cls;
    return NULL;
}

const char *dsl_module_name(size_t i) { return i < NMODULES ? all_modules[i]->name : NULL; }

int dsl_module_import(struct dsl_interp *in, const char *name, struct dsl_value *out)
{
    *out = dsl_none();
    for (size_t i = 0; i < NMODULES; i++)
        if (strcmp(all_modules[i]->name, name) == 0) return module_value(in, all_modules[i], out);
    return dsl_raise(in, "ModuleNotFoundError",
                     "No module named '%s' (the kernel has math, random, time, numba, part of "
                     "numpy, and minitorch with minitorch.operators)",
                     name);
}

int dsl_module_from(struct dsl_interp *in, struct dsl_value module, const char *name,
                    struct dsl_value *out)
{
    *out = dsl_none();
    const struct module *m = module.as.obj->state;
    const struct member *mb = member_find(m, name);
    if (mb) return member_value(in, mb, out);
    const char *hint = member_suggest(m, name);
    if (hint)
        return dsl_raise(in, "ImportError", "cannot import name '%s' from '%s', did you mean '%s'?",
                         name, m->name, hint);
    return dsl_raise(in, "ImportError", "cannot import name '%s' from '%s'", name, m->name);
}
