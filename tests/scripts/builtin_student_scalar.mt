# A student's own scalar.py replaces the kernel's (kernel/lib/minitorch/scalar.py) while the
# kernel's autodiff.py and scalar_functions.py stay: the student's file imports them, and the
# kernel's ScalarFunction.apply makes the student's Scalars. The expectations are what CPython
# prints with the same files as a package (/work/tools/mkexpect_builtin.py).
# %%
%%minitorch_file scalar.py
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from .autodiff import Context, backpropagate, central_difference
from .scalar_functions import Add, Inv, Log, Mul, Neg, ScalarFunction

made = 0


@dataclass
class ScalarHistory:
    last_fn: Any = None
    ctx: Optional[Context] = None
    inputs: Sequence[Any] = ()


class Scalar:
    def __init__(self, v, back=ScalarHistory(), name=None):
        global made
        made += 1
        self.unique_id = 1000 + made
        self.data = float(v)
        self.history = back
        self.derivative = None
        self.name = name or "s%d" % made

    def __repr__(self):
        return "StudentScalar(%s)" % self.data

    def __add__(self, b):
        return Add.apply(self, b)

    def __mul__(self, b):
        return Mul.apply(self, b)

    def __sub__(self, b):
        return Add.apply(self, Neg.apply(b))

    def __truediv__(self, b):
        return Mul.apply(self, Inv.apply(b))

    def log(self):
        return Log.apply(self)

    def is_leaf(self):
        return self.history is not None and self.history.last_fn is None

    def is_constant(self):
        return self.history is None

    @property
    def parents(self):
        return self.history.inputs

    def accumulate_derivative(self, x):
        self.derivative = (self.derivative or 0.0) + x

    def chain_rule(self, d_output):
        h = self.history
        ds = h.last_fn._backward(h.ctx, d_output)
        return [(x, d) for x, d in zip(h.inputs, ds) if not x.is_constant()]

    def backward(self, d_output=None):
        backpropagate(self, 1.0 if d_output is None else d_output)


def derivative_check(f, *scalars):
    print("the student's derivative_check")
# %%
import minitorch
from minitorch import Scalar, Context, ScalarFunction

x = Scalar(3.0)
y = Scalar(4.0)
z = x * y + x.log() - y
print(z, type(z).__name__, z.history.last_fn.__name__, minitorch.scalar.made)
# expect: StudentScalar(9.098612622001387) Scalar Add 7
z.backward()
print(x.derivative, y.derivative)
# expect: 4.333333222222259 2.0
print(minitorch.Scalar is minitorch.scalar.Scalar, minitorch.Add is minitorch.scalar_functions.Add)
# expect: True True
print(minitorch.Context is minitorch.autodiff.Context, isinstance(z.history.ctx, Context))
# expect: True True
print([s.name for s in minitorch.topological_sort(z)][:2])
# expect: ['s7', 's6']
minitorch.derivative_check(lambda a: a, x)
# expect: the student's derivative_check
print(minitorch.central_difference(lambda a: a * a, Scalar(5.0)).data)
# expect: 10.00000000139778
print(hasattr(minitorch, "ScalarLike"))
# expect: False
