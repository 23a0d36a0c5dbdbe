/* numbers.c — Python's arithmetic on ints (int64) and floats (double): / is true division,
 * // and % floor, ** of ints stays exact or raises OverflowError, and dividing by zero raises
 * ZeroDivisionError; the bitwise operators of ints and bools, on the two's complement Python's
 * ints behave as (see operators.h). */
#include "lang/operators.h"

#include "lang/interp.h"

#include <math.h>
#include <stdint.h>

static int overflow(struct dsl_interp *in, enum dsl_tok op)
{
    return dsl_raise(in, "OverflowError",
                     "integer overflow in '%s': the result does not fit in "
                     "64 bits",
                     dsl_op_symbol(op));
}

static int int_pow(struct dsl_interp *in, int64_t base, int64_t exp, struct dsl_value *out)
{
    if (exp < 0) {
        if (base == 0)
            return dsl_raise(in, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
        *out = dsl_float(pow((double)base, (double)exp));
        return 0;
    }
    int64_t result = 1;
    while (exp > 0) {
        if (exp & 1) {
            if (__builtin_mul_overflow(result, base, &result)) return overflow(in, DSL_T_DSTAR);
        }
        exp >>= 1;
        if (exp > 0 && __builtin_mul_overflow(base, base, &base)) return overflow(in, DSL_T_DSTAR);
    }
    *out = dsl_int(result);
    return 0;
}

/* a >> n, n >= 0, rounding towards minus infinity as Python's does for negative a (C leaves
 * the shift of a negative int to the compiler). */
static int64_t shift_right(int64_t a, int64_t n)
{
    if (n > 63) n = 63; /* every bit shifted out: 0, or -1 for a negative a */
    return a >= 0 ? a >> n : ~(~a >> n);
}

/* a << n or a >> n; a left shift that does not fit in 64 bits is the OverflowError where
 * CPython's int would grow. */
static int int_shift(struct dsl_interp *in, enum dsl_tok op, int64_t a, int64_t n,
                     struct dsl_value *out)
{
    if (n < 0) return dsl_raise(in, "ValueError", "negative shift count");
    if (op == DSL_T_RSHIFT || a == 0) {
        *out = dsl_int(op == DSL_T_RSHIFT ? shift_right(a, n) : 0);
        return 0;
    }
    int64_t r = n > 63 ? 0 : (int64_t)((uint64_t)a << n);
    if (n > 63 || shift_right(r, n) != a) return overflow(in, op);
    *out = dsl_int(r);
    return 0;
}

int64_t dsl_int_floordiv(int64_t a, int64_t b, int64_t *mod)
{
    if (b == -1) { /* a % -1 is 0; -INT64_MIN wraps, which a % b would trap on */
        if (mod) *mod = 0;
        return (int64_t)(0 - (uint64_t)a);
    }
    int64_t q = a / b, r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) q--, r += b;
    if (mod) *mod = r;
    return q;
}

double dsl_float_floordiv(double a, double b, double *mod)
{
    /* CPython's float_divmod */
    double m = fmod(a, b);
    double div = (a - m) / b;
    if (m != 0.0) {
        if ((b < 0) != (m < 0)) {
            m += b;
            div -= 1.0;
        }
    } else {
        m = copysign(0.0, b);
    }
    double floordiv;
    if (div != 0.0) {
        floordiv = floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
    } else {
        floordiv = copysign(0.0, a / b);
    }
    *mod = m;
    return floordiv;
}

static int int_arith(struct dsl_interp *in, enum dsl_tok op, int64_t a, int64_t b,
                     struct dsl_value *out)
{
    int64_t r;
    switch (op) {
    case DSL_T_PLUS:
        if (__builtin_add_overflow(a, b, &r)) return overflow(in, op);
        break;
    case DSL_T_MINUS:
        if (__builtin_sub_overflow(a, b, &r)) return overflow(in, op);
        break;
    case DSL_T_STAR:
        if (__builtin_mul_overflow(a, b, &r)) return overflow(in, op);
        break;
    case DSL_T_SLASH:
        if (b == 0) return dsl_raise(in, "ZeroDivisionError", "division by zero");
        /* ints beyond 2**53 would round twice through double; long double holds every
         * int64 exactly, so the quotient is rounded (nearly always) once, like Python's */
        *out = dsl_float((double)((long double)a / (long double)b));
        return 0;
    case DSL_T_DSLASH:
        if (b == 0) return dsl_raise(in, "ZeroDivisionError", "integer division or modulo by zero");
        if (a == INT64_MIN && b == -1) return overflow(in, op);
        r = dsl_int_floordiv(a, b, NULL);
        break;
    case DSL_T_PERCENT:
        if (b == 0) return dsl_raise(in, "ZeroDivisionError", "integer modulo by zero");
        dsl_int_floordiv(a, b, &r);
        break;
    case DSL_T_DSTAR: return int_pow(in, a, b, out);
    case DSL_T_AMP: r = a & b; break;
    case DSL_T_PIPE: r = a | b; break;
    case DSL_T_CARET: r = a ^ b; break;
    case DSL_T_LSHIFT:
    case DSL_T_RSHIFT: return int_shift(in, op, a, b, out);
    default: return -1;
    }
    *out = dsl_int(r);
    return 0;
}

static int float_arith(struct dsl_interp *in, enum dsl_tok op, double a, double b,
                       struct dsl_value *out)
{
    double r;
    switch (op) {
    case DSL_T_PLUS: r = a + b; break;
    case DSL_T_MINUS: r = a - b; break;
    case DSL_T_STAR: r = a * b; break;
    case DSL_T_SLASH:
        if (b == 0.0) return dsl_raise(in, "ZeroDivisionError", "float division by zero");
        r = a / b;
        break;
    case DSL_T_DSLASH:
    case DSL_T_PERCENT: {
        if (b == 0.0)
            return dsl_raise(in, "ZeroDivisionError", "float %s by zero",
                             op == DSL_T_DSLASH ? "floor division" : "modulo");
        double mod, floordiv = dsl_float_floordiv(a, b, &mod);
        r = op == DSL_T_DSLASH ? floordiv : mod;
        break;
    }
    case DSL_T_DSTAR:
        if (a == 0.0 && b < 0.0)
            return dsl_raise(in, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
        if (a < 0.0 && isfinite(b) && b != floor(b))
            return dsl_raise(in, "ValueError",
                             "negative number cannot be raised to a fractional power");
        r = pow(a, b);
        if (isinf(r) && isfinite(a) && isfinite(b))
            return dsl_raise(in, "OverflowError", "float power overflow: result too large");
        break;
    default: return -1;
    }
    *out = dsl_float(r);
    return 0;
}

int dsl_number_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                      struct dsl_value b, struct dsl_value *out)
{
    if (a.kind == DSL_FLOAT || b.kind == DSL_FLOAT)
        return float_arith(in, op, dsl_as_double(a), dsl_as_double(b), out);
    if (a.kind == DSL_BOOL && b.kind == DSL_BOOL &&
        (op == DSL_T_AMP || op == DSL_T_PIPE || op == DSL_T_CARET)) { /* bool's own: a bool */
        bool x = a.as.b, y = b.as.b;
        *out = dsl_bool(op == DSL_T_AMP ? x && y : op == DSL_T_PIPE ? x || y : x != y);
        return 0;
    }
    return int_arith(in, op, dsl_as_int(a), dsl_as_int(b), out);
}
