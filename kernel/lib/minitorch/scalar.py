"""The kernel's reference of MiniTorch's scalar.py: Scalar, a float that records the
ScalarFunctions that made it so that backward() can give the derivative of a result with
respect to each Scalar it came from; ScalarHistory, that record; derivative_check.

A built-in file (kernel/lib/minitorch/README.md): a student's own scalar.py replaces it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence, Tuple, Type, Union

import numpy as np

from .autodiff import Context, Variable, backpropagate, central_difference
from .scalar_functions import (
    EQ,
    LT,
    Add,
    Exp,
    Inv,
    Log,
    Mul,
    Neg,
    ReLU,
    ScalarFunction,
    Sigmoid,
)

__all__ = ["ScalarLike", "ScalarHistory", "Scalar", "derivative_check"]

ScalarLike = Union[float, int, "Scalar"]


@dataclass
class ScalarHistory:
    """How a Scalar was made: the function (last_fn), the Context its forward filled, and its
    inputs. All empty for a Scalar the user made (a leaf)."""

    last_fn: Optional[Type[ScalarFunction]] = None
    ctx: Optional[Context] = None
    inputs: Sequence[Scalar] = ()


# How many Scalars this session made: each one's unique_id
_var_count = 0


class Scalar:
    """A float that records its history. Its operators and methods are ScalarFunctions, so
    every result made from a Scalar is one too, and backward() fills in `derivative` of
    each leaf it came from."""

    history: Optional[ScalarHistory]
    derivative: Optional[float]
    data: float
    unique_id: int
    name: str

    def __init__(
        self,
        v: float,
        back: ScalarHistory = ScalarHistory(),
        name: Optional[str] = None,
    ):
        global _var_count
        _var_count += 1
        self.unique_id = _var_count
        self.data = float(v)
        self.history = back
        self.derivative = None
        self.name = str(self.unique_id) if name is None else name

    def __repr__(self) -> str:
        return "Scalar(%f)" % self.data

    def __bool__(self) -> bool:
        return bool(self.data)

    def __add__(self, b: ScalarLike) -> Scalar:
        ### BEGIN SOLUTION
        return Add.apply(self, b)
        ### END SOLUTION

    def __radd__(self, b: ScalarLike) -> Scalar:
        return self + b

    def __sub__(self, b: ScalarLike) -> Scalar:
        ### BEGIN SOLUTION
        return Add.apply(self, Neg.apply(b))
        ### END SOLUTION

    def __rsub__(self, b: ScalarLike) -> Scalar:
        return Add.apply(b, Neg.apply(self))

    def __mul__(self, b: ScalarLike) -> Scalar:
        return Mul.apply(self, b)

    def __rmul__(self, b: ScalarLike) -> Scalar:
        return self * b

    def __truediv__(self, b: ScalarLike) -> Scalar:
        return Mul.apply(self, Inv.apply(b))

    def __rtruediv__(self, b: ScalarLike) -> Scalar:
        return Mul.apply(b, Inv.apply(self))

    def __neg__(self) -> Scalar:
        ### BEGIN SOLUTION
        return Neg.apply(self)
        ### END SOLUTION

    def __lt__(self, b: ScalarLike) -> Scalar:
        ### BEGIN SOLUTION
        return LT.apply(self, b)
        ### END SOLUTION

    def __gt__(self, b: ScalarLike) -> Scalar:
        ### BEGIN SOLUTION
        return LT.apply(b, self)
        ### END SOLUTION

    def __eq__(self, b: ScalarLike) -> Scalar:  # type: ignore[override]
        ### BEGIN SOLUTION
        return EQ.apply(self, b)
        ### END SOLUTION

    def log(self) -> Scalar:
        ### BEGIN SOLUTION
        return Log.apply(self)
        ### END SOLUTION

    def exp(self) -> Scalar:
        ### BEGIN SOLUTION
        return Exp.apply(self)
        ### END SOLUTION

    def sigmoid(self) -> Scalar:
        ### BEGIN SOLUTION
        return Sigmoid.apply(self)
        ### END SOLUTION

    def relu(self) -> Scalar:
        ### BEGIN SOLUTION
        return ReLU.apply(self)
        ### END SOLUTION

    # ---- what autodiff asks of a Variable

    def accumulate_derivative(self, x: Any) -> None:
        """Adds x to this leaf's derivative (None until the first)."""
        assert self.is_leaf(), "Only leaf variables can have derivatives."
        if self.derivative is None:
            self.derivative = 0.0
        self.derivative += x

    def is_leaf(self) -> bool:
        """Made by the user, not by a function."""
        return self.history is not None and self.history.last_fn is None

    def is_constant(self) -> bool:
        """Has no history at all: autodiff never walks into it."""
        return self.history is None

    @property
    def parents(self) -> Iterable[Variable]:
        assert self.history is not None
        return self.history.inputs

    def chain_rule(self, d_output: Any) -> Iterable[Tuple[Variable, Any]]:
        """(input, derivative of the output with respect to it) for each input that is not
        a constant, given the output's derivative d_output."""
        h = self.history
        assert h is not None
        assert h.last_fn is not None
        assert h.ctx is not None
        ### BEGIN SOLUTION
        derivs = h.last_fn._backward(h.ctx, d_output)
        return [(x, d) for x, d in zip(h.inputs, derivs) if not x.is_constant()]
        ### END SOLUTION

    def backward(self, d_output: Optional[float] = None) -> None:
        """Fills in the derivative of every leaf this Scalar came from, starting from
        d_output (1.0 when left out)."""
        backpropagate(self, 1.0 if d_output is None else d_output)


def derivative_check(f: Any, *scalars: Scalar) -> None:
    """Asserts that backward() through f(*scalars) gives each argument the derivative a
    central difference estimates, within rtol = atol = 1e-2, as MiniTorch's tests do; prints
    each comparison as MiniTorch's derivative_check does."""
    out = f(*scalars)
    out.backward()
    message = (
        "\nDerivative check at arguments f(%s) and received derivative f'=%f for argument %d,"
        "\nbut was expecting derivative f'=%f from central difference."
    )
    args = str([x.data for x in scalars])
    for i, x in enumerate(scalars):
        check = central_difference(f, *scalars, arg=i)
        print(args, x.derivative, i, check)
        assert x.derivative is not None
        np.testing.assert_allclose(
            x.derivative,
            check.data,
            1e-2,
            1e-2,
            err_msg=message % (args, x.derivative, i, check.data),
        )
