/* operators.h — MiniTorch's scalar operators (operators.py) in double precision, as Python
 * computes them: the one definition of each formula that minitorch.operators
 * (lib/modules/operators.c) and the builtins sigmoid() and relu() of a number (lib/compile.c)
 * compute. The engine's float32 versions, which the tensor ops apply, are engine/src/cpu/scalar.h.
 *
 * Values only: where Python raises (inv(0), log of x <= -OP_EPS), the caller checks first.
 * Self-contained on purpose, <math.h> its one include and nothing but static inline functions
 * and one constant, so that its text can be pasted into C compiled at run time. */
#ifndef KERNEL_LIB_OPERATORS_H
#define KERNEL_LIB_OPERATORS_H

#include <math.h>

/* MiniTorch's operators.EPS: log and log_back add it to x, so that log(0) stays finite. */
#define OP_EPS 1e-6

static inline double op_neg(double x) { return -x; }
static inline double op_relu(double x) { return x > 0 ? x : 0.0; }
/* Two branches, as MiniTorch's, so that exp never overflows for either sign. */
static inline double op_sigmoid(double x)
{
    return x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x));
}
static inline double op_log(double x) { return log(x + OP_EPS); }
static inline double op_inv(double x) { return 1.0 / x; }

static inline double op_lt(double x, double y) { return x < y ? 1.0 : 0.0; }
static inline double op_eq(double x, double y) { return x == y ? 1.0 : 0.0; }
/* MiniTorch's tolerance; a truth value, not 1.0/0.0 as lt and eq. */
static inline int op_is_close(double x, double y) { return fabs(x - y) < 1e-2; }

/* The derivatives times d (d the gradient that flows back). */
static inline double op_relu_back(double x, double d) { return x > 0 ? d : 0.0; }
static inline double op_log_back(double x, double d) { return d / (x + OP_EPS); }
static inline double op_inv_back(double x, double d) { return -(1.0 / (x * x)) * d; }

#endif
