"""The kernel's reference of MiniTorch's scalar_functions.py: ScalarFunction, whose apply
runs a function forward on floats and records how its result was made, and the functions
Scalar's operators use (Add, Log, Mul, Inv, Neg, Sigmoid, ReLU, Exp, LT, EQ).

A built-in file (kernel/lib/minitorch/README.md): a student's own scalar_functions.py
replaces it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import minitorch

from . import operators
from .autodiff import Context

if TYPE_CHECKING:
    from typing import Tuple

    from .scalar import Scalar, ScalarLike

__all__ = [
    "wrap_tuple",
    "unwrap_tuple",
    "ScalarFunction",
    "Add",
    "Log",
    "Mul",
    "Inv",
    "Neg",
    "Sigmoid",
    "ReLU",
    "Exp",
    "LT",
    "EQ",
]


def wrap_tuple(x):  # type: ignore
    """x itself when it is a tuple, else the tuple (x,)."""
    return x if isinstance(x, tuple) else (x,)


def unwrap_tuple(x):  # type: ignore
    """The one item of a 1-tuple, else x itself."""
    return x[0] if len(x) == 1 else x


class ScalarFunction:
    """A function of Scalars: forward computes on floats, backward gives the derivative with
    respect to each input. Never instantiated; its subclasses group the two static methods."""

    @classmethod
    def _backward(cls, ctx: Context, d_out: float) -> Tuple[float, ...]:
        return wrap_tuple(cls.backward(ctx, d_out))  # type: ignore

    @classmethod
    def _forward(cls, ctx: Context, *inps: float) -> float:
        return cls.forward(ctx, *inps)  # type: ignore

    @classmethod
    def apply(cls, *vals: ScalarLike) -> Scalar:
        # Scalar is read from the package when called, not imported: scalar.py imports this
        # file, and a student's own scalar.py, written later, must be the one used
        scalar = minitorch.scalar
        inputs = []
        floats = []
        for v in vals:
            if isinstance(v, scalar.Scalar):
                inputs.append(v)
                floats.append(v.data)
            else:
                inputs.append(scalar.Scalar(v))
                floats.append(v)
        ctx = Context(False)
        out = cls._forward(ctx, *floats)
        assert isinstance(out, float), "Expected return type float got %s" % (type(out))
        return scalar.Scalar(out, scalar.ScalarHistory(cls, ctx, inputs))


class Add(ScalarFunction):
    """f(x, y) = x + y"""

    @staticmethod
    def forward(ctx: Context, a: float, b: float) -> float:
        return operators.add(a, b)

    @staticmethod
    def backward(ctx: Context, d_output: float) -> Tuple[float, ...]:
        return d_output, d_output


class Log(ScalarFunction):
    """f(x) = log(x)"""

    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        ctx.save_for_backward(a)
        return operators.log(a)

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        (a,) = ctx.saved_values
        return operators.log_back(a, d_output)


class Mul(ScalarFunction):
    """f(x, y) = x * y"""

    @staticmethod
    def forward(ctx: Context, a: float, b: float) -> float:
        ### BEGIN SOLUTION
        ctx.save_for_backward(a, b)
        return operators.mul(a, b)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, d_output: float) -> Tuple[float, float]:
        ### BEGIN SOLUTION
        a, b = ctx.saved_values
        return operators.mul(b, d_output), operators.mul(a, d_output)
        ### END SOLUTION


class Inv(ScalarFunction):
    """f(x) = 1 / x"""

    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        ### BEGIN SOLUTION
        ctx.save_for_backward(a)
        return operators.inv(a)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        ### BEGIN SOLUTION
        (a,) = ctx.saved_values
        return operators.inv_back(a, d_output)
        ### END SOLUTION


class Neg(ScalarFunction):
    """f(x) = -x"""

    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        ### BEGIN SOLUTION
        return operators.neg(a)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        ### BEGIN SOLUTION
        return operators.neg(d_output)
        ### END SOLUTION


class Sigmoid(ScalarFunction):
    """f(x) = 1 / (1 + e^-x); f'(x) = f(x) (1 - f(x))"""

    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        ### BEGIN SOLUTION
        s = operators.sigmoid(a)
        ctx.save_for_backward(s)
        return s
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        ### BEGIN SOLUTION
        (s,) = ctx.saved_values
        return operators.mul(operators.mul(s, 1.0 - s), d_output)
        ### END SOLUTION


class ReLU(ScalarFunction):
    """f(x) = max(x, 0)"""

    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        ### BEGIN SOLUTION
        ctx.save_for_backward(a)
        return operators.relu(a)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        ### BEGIN SOLUTION
        (a,) = ctx.saved_values
        return operators.relu_back(a, d_output)
        ### END SOLUTION


class Exp(ScalarFunction):
    """f(x) = e^x, its own derivative"""

    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        ### BEGIN SOLUTION
        e = operators.exp(a)
        ctx.save_for_backward(e)
        return e
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        ### BEGIN SOLUTION
        (e,) = ctx.saved_values
        return operators.mul(e, d_output)
        ### END SOLUTION


class LT(ScalarFunction):
    """f(x, y) = 1.0 when x < y else 0.0; flat, so both derivatives are 0"""

    @staticmethod
    def forward(ctx: Context, a: float, b: float) -> float:
        ### BEGIN SOLUTION
        return operators.lt(a, b)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, d_output: float) -> Tuple[float, float]:
        ### BEGIN SOLUTION
        return 0.0, 0.0
        ### END SOLUTION


class EQ(ScalarFunction):
    """f(x, y) = 1.0 when x == y else 0.0; flat, so both derivatives are 0"""

    @staticmethod
    def forward(ctx: Context, a: float, b: float) -> float:
        ### BEGIN SOLUTION
        return operators.eq(a, b)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, d_output: float) -> Tuple[float, float]:
        ### BEGIN SOLUTION
        return 0.0, 0.0
        ### END SOLUTION
