/* math.c — Python's math module: the functions on floats MiniTorch's code uses (log, exp,
 * sqrt, ...) and its constants, with CPython's errors (ValueError: math domain error,
 * OverflowError: math range error). */
#include "lib/modules/module.h"

#include <math.h>

static const char *const x_params[] = {"x", NULL};

static int m_log(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, base = 0;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    if (a->has[1] && mod_real_arg(in, a->slot[1], &base) != 0) return -1;
    if (isnan(x)) return *ret = dsl_float(x), 0;
    if (x <= 0 || (a->has[1] && base <= 0)) return mod_domain_error(in);
    double r = log(x);
    if (a->has[1]) {
        double lb = log(base);
        if (lb == 0) return dsl_raise(in, "ZeroDivisionError", "float division by zero");
        r /= lb;
    }
    *ret = dsl_float(r);
    return 0;
}

/* A float result, OverflowError when finite arguments gave an infinity (CPython's rule). */
static int float_result(struct dsl_interp *in, double r, bool finite_args, struct dsl_value *ret)
{
    if (isinf(r) && finite_args) return dsl_raise(in, "OverflowError", "math range error");
    *ret = dsl_float(r);
    return 0;
}

typedef double (*unary_fn)(double);

/* f(x) with CPython's errors: ValueError outside the domain (a NaN from a non-NaN),
 * OverflowError for an infinity from a finite x. */
static int unary(struct dsl_interp *in, const struct dsl_args *a, unary_fn f, struct dsl_value *ret)
{
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    double r = f(x);
    if (isnan(r) && !isnan(x)) return mod_domain_error(in);
    return float_result(in, r, isfinite(x), ret);
}

#define UNARY(name, f)                                                                             \
    static int m_##name(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)    \
    {                                                                                              \
        return unary(in, a, f, ret);                                                               \
    }
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

int mod_math_exp(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return unary(in, a, exp, ret);
}

static int m_sqrt(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    if (x < 0) return mod_domain_error(in);
    *ret = dsl_float(sqrt(x));
    return 0;
}

/* floor and ceil give ints, as in Python 3 (an int stays itself). */
static int rounding(struct dsl_interp *in, const struct dsl_args *a, double (*f)(double),
                    struct dsl_value *ret)
{
    if (dsl_is_intlike(a->slot[0])) return *ret = dsl_int(dsl_as_int(a->slot[0])), 0;
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
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
    if (mod_real_arg(in, a->slot[0], &x) != 0 || mod_real_arg(in, a->slot[1], &y) != 0) return -1;
    if (x == 0 && y < 0) return mod_domain_error(in);
    double r = pow(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y)) return mod_domain_error(in);
    return float_result(in, r, isfinite(x) && isfinite(y), ret);
}

static int m_isclose(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y, rel = 1e-9, abs_tol = 0.0;
    if (mod_real_arg(in, a->slot[0], &x) != 0 || mod_real_arg(in, a->slot[1], &y) != 0) return -1;
    if (a->has[2] && mod_real_arg(in, a->slot[2], &rel) != 0) return -1;
    if (a->has[3] && mod_real_arg(in, a->slot[3], &abs_tol) != 0) return -1;
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
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    *ret = dsl_bool(isnan(x));
    return 0;
}

static int m_isinf(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    *ret = dsl_bool(isinf(x));
    return 0;
}

static int m_isfinite(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
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

static const struct member math_members[] = {
    FN("atan", "math.atan(x)", 1, 1, x_params, m_atan, "The arc tangent of x, in radians."),
    FN("ceil", "math.ceil(x)", 1, 1, x_params, m_ceil, "The smallest integer >= x, as an int."),
    FN("cos", "math.cos(x)", 1, 1, x_params, m_cos, "The cosine of x (radians)."),
    VALUE("e", "math.e", v_e, "Euler's number, 2.718281828459045."),
    FN("exp", "math.exp(x)", 1, 1, x_params, mod_math_exp,
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

const struct module mod_math = {
    .cls = MODULE_CLASS("module: Python's math, the functions on floats MiniTorch's code uses "
                        "(log, exp, sqrt, ...), with CPython's errors."),
    .name = "math",
    .members = MEMBERS(math_members),
};
