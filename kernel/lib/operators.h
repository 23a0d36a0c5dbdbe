/* operators.h — MiniTorch's scalar operators (operators.py) in double precision, as Python
 * computes them: the one definition of each formula that minitorch.operators
 * (lib/modules/operators.c) and the builtins sigmoid() and relu() of a number (lib/compile.c)
 * compute. The engine's float32 versions, which the tensor ops apply, are engine/src/cpu/scalar.h.
 *
 * Values only: where Python raises (inv(0), log of x <= -OP_EPS), the caller checks first.
 * Self-contained on purpose, <math.h> its one include and nothing but inline functions and one
 * constant: CMake embeds its text into the C that njit and cuda.jit compile (jit/rt/), which
 * declares the functions as its target needs (OP_FN: __device__ ones for a GPU). */
#ifndef KERNEL_LIB_OPERATORS_H
#define KERNEL_LIB_OPERATORS_H

#include <math.h>

#ifndef OP_FN
#define OP_FN static inline
#endif

/* MiniTorch's operators.EPS: log and log_back add it to x, so that log(0) stays finite. */
#define OP_EPS 1e-6

OP_FN double op_neg(double x) { return -x; }
OP_FN double op_relu(double x) { return x > 0 ? x : 0.0; }
/* Two branches, as MiniTorch's, so that exp never overflows for either sign. */
OP_FN double op_sigmoid(double x)
{
    return x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x));
}
OP_FN double op_log(double x) { return log(x + OP_EPS); }
OP_FN double op_inv(double x) { return 1.0 / x; }

OP_FN double op_lt(double x, double y) { return x < y ? 1.0 : 0.0; }
OP_FN double op_eq(double x, double y) { return x == y ? 1.0 : 0.0; }
/* MiniTorch's tolerance; a truth value, not 1.0/0.0 as lt and eq. */
OP_FN int op_is_close(double x, double y) { return fabs(x - y) < 1e-2; }

/* The derivatives times d (d the gradient that flows back). */
OP_FN double op_relu_back(double x, double d) { return x > 0 ? d : 0.0; }
OP_FN double op_log_back(double x, double d) { return d / (x + OP_EPS); }
OP_FN double op_inv_back(double x, double d) { return -(1.0 / (x * x)) * d; }

#endif
