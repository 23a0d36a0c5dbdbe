# A student's Modules 0-1 as files of the minitorch package, written the way MiniTorch's files
# are (relative imports, typing, dataclasses, classmethods, TYPE_CHECKING), each in a cell of
# its own, then used through `import minitorch` as MiniTorch's tests use them. The expectations
# are what CPython prints for the same files in a real package.
# %%
%%minitorch_file operators.py
"""Collection of the core mathematical operators used throughout the code base."""

import math
from typing import Callable, Iterable


def mul(x: float, y: float) -> float:
    return x * y


def id(x: float) -> float:
    return x


def add(x: float, y: float) -> float:
    return x + y


def neg(x: float) -> float:
    return -x


def lt(x: float, y: float) -> float:
    return 1.0 if x < y else 0.0


def eq(x: float, y: float) -> float:
    return 1.0 if x == y else 0.0


def is_close(x: float, y: float) -> bool:
    return abs(x - y) < 1e-2


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    return math.exp(x) / (1.0 + math.exp(x))


def relu(x: float) -> float:
    return x if x > 0 else 0.0


EPS = 1e-6


def log(x: float) -> float:
    return math.log(x + EPS)


def exp(x: float) -> float:
    return math.exp(x)


def log_back(x: float, d: float) -> float:
    return d / (x + EPS)


def inv(x: float) -> float:
    return 1.0 / x


def inv_back(x: float, d: float) -> float:
    return -(1.0 / x**2) * d


def relu_back(x: float, d: float) -> float:
    return d if x > 0 else 0.0


def map(fn: Callable[[float], float]) -> Callable[[Iterable[float]], Iterable[float]]:
    def _map(ls: Iterable[float]) -> Iterable[float]:
        return [fn(x) for x in ls]

    return _map


def zipWith(
    fn: Callable[[float, float], float]
) -> Callable[[Iterable[float], Iterable[float]], Iterable[float]]:
    def _zipWith(ls1: Iterable[float], ls2: Iterable[float]) -> Iterable[float]:
        return [fn(x, y) for x, y in zip(ls1, ls2)]

    return _zipWith


def reduce(
    fn: Callable[[float, float], float], start: float
) -> Callable[[Iterable[float]], float]:
    def _reduce(ls: Iterable[float]) -> float:
        val = start
        for x in ls:
            val = fn(val, x)
        return val

    return _reduce


def sum(ls: Iterable[float]) -> float:
    return reduce(add, 0.0)(ls)


def prod(ls: Iterable[float]) -> float:
    return reduce(mul, 1.0)(ls)


# %%
%%minitorch_file autodiff.py
from dataclasses import dataclass
from typing import Any, Iterable, List, Tuple

from typing_extensions import Protocol


def central_difference(f: Any, *vals: Any, arg: int = 0, epsilon: float = 1e-6) -> Any:
    vals1 = [v for v in vals]
    vals2 = [v for v in vals]
    vals1[arg] = vals1[arg] + epsilon
    vals2[arg] = vals2[arg] - epsilon
    delta = f(*vals1) - f(*vals2)
    return delta / (2 * epsilon)


variable_count = 1


class Variable(Protocol):
    def accumulate_derivative(self, x: Any) -> None:
        pass

    @property
    def unique_id(self) -> int:
        pass

    def is_leaf(self) -> bool:
        pass

    def is_constant(self) -> bool:
        pass

    @property
    def parents(self) -> Iterable["Variable"]:
        pass

    def chain_rule(self, d_output: Any) -> Iterable[Tuple["Variable", Any]]:
        pass


def topological_sort(variable: Variable) -> Iterable[Variable]:
    order: List[Variable] = []
    seen = set()

    def visit(var: Variable) -> None:
        if var.unique_id in seen or var.is_constant():
            return
        if not var.is_leaf():
            for m in var.parents:
                if not m.is_constant():
                    visit(m)
        seen.add(var.unique_id)
        order.insert(0, var)

    visit(variable)
    return order


def backpropagate(variable: Variable, deriv: Any) -> None:
    queue = topological_sort(variable)
    derivatives = {}
    derivatives[variable.unique_id] = deriv
    for var in queue:
        deriv = derivatives[var.unique_id]
        if var.is_leaf():
            var.accumulate_derivative(deriv)
        else:
            for v, d in var.chain_rule(deriv):
                if v.is_constant():
                    continue
                derivatives.setdefault(v.unique_id, 0.0)
                derivatives[v.unique_id] = derivatives[v.unique_id] + d


@dataclass
class Context:
    """Context class is used by `Function` to store information during the forward pass."""

    no_grad: bool = False
    saved_values: Tuple[Any, ...] = ()

    def save_for_backward(self, *values: Any) -> None:
        if self.no_grad:
            return
        self.saved_values = values

    @property
    def saved_tensors(self) -> Tuple[Any, ...]:
        return self.saved_values


# %%
%%minitorch_file scalar_functions.py
from __future__ import annotations

from typing import TYPE_CHECKING

import minitorch

from . import operators
from .autodiff import Context

if TYPE_CHECKING:
    from typing import Tuple

    from .scalar import Scalar, ScalarLike


def wrap_tuple(x):  # type: ignore
    if isinstance(x, tuple):
        return x
    return (x,)


def unwrap_tuple(x):  # type: ignore
    if len(x) == 1:
        return x[0]
    return x


class ScalarFunction:
    @classmethod
    def _backward(cls, ctx: Context, d_out: float) -> Tuple[float, ...]:
        return wrap_tuple(cls.backward(ctx, d_out))  # type: ignore

    @classmethod
    def _forward(cls, ctx: Context, *inps: float) -> float:
        return cls.forward(ctx, *inps)  # type: ignore

    @classmethod
    def apply(cls, *vals: "ScalarLike") -> Scalar:
        raw_vals = []
        scalars = []
        for v in vals:
            if isinstance(v, minitorch.scalar.Scalar):
                scalars.append(v)
                raw_vals.append(v.data)
            else:
                scalars.append(minitorch.scalar.Scalar(v))
                raw_vals.append(v)

        ctx = Context(False)
        c = cls._forward(ctx, *raw_vals)
        assert isinstance(c, float), "Expected return type float got %s" % (type(c))

        back = minitorch.scalar.ScalarHistory(cls, ctx, scalars)
        return minitorch.scalar.Scalar(c, back)


class Add(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float, b: float) -> float:
        return a + b

    @staticmethod
    def backward(ctx: Context, d_output: float) -> Tuple[float, ...]:
        return d_output, d_output


class Log(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        ctx.save_for_backward(a)
        return operators.log(a)

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        (a,) = ctx.saved_values
        return operators.log_back(a, d_output)


class Mul(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float, b: float) -> float:
        ctx.save_for_backward(a, b)
        return float(operators.mul(a, b))

    @staticmethod
    def backward(ctx: Context, d_output: float) -> Tuple[float, float]:
        a, b = ctx.saved_values
        return b * d_output, a * d_output


class Inv(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        ctx.save_for_backward(a)
        return operators.inv(a)

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        (a,) = ctx.saved_values
        return operators.inv_back(a, d_output)


class Neg(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        return float(operators.neg(a))

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        return operators.neg(d_output)


class Sigmoid(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        out = operators.sigmoid(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        sigma: float = ctx.saved_values[0]
        return sigma * (1.0 - sigma) * d_output


class ReLU(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        ctx.save_for_backward(a)
        return operators.relu(a)

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        (a,) = ctx.saved_values
        return operators.relu_back(a, d_output)


class Exp(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float) -> float:
        out = operators.exp(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Context, d_output: float) -> float:
        out: float = ctx.saved_values[0]
        return d_output * out


class LT(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float, b: float) -> float:
        return operators.lt(a, b)

    @staticmethod
    def backward(ctx: Context, d_output: float) -> Tuple[float, float]:
        return 0.0, 0.0


class EQ(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, a: float, b: float) -> float:
        return operators.eq(a, b)

    @staticmethod
    def backward(ctx: Context, d_output: float) -> Tuple[float, float]:
        return 0.0, 0.0


# %%
%%minitorch_file scalar.py
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

ScalarLike = Union[float, int, "Scalar"]


@dataclass
class ScalarHistory:
    last_fn: Optional[Type[ScalarFunction]] = None
    ctx: Optional[Context] = None
    inputs: Sequence[Scalar] = ()


_var_count = 0


class Scalar:
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
        if name is not None:
            self.name = name
        else:
            self.name = str(self.unique_id)

    def __repr__(self) -> str:
        return "Scalar(%f)" % self.data

    def __mul__(self, b: ScalarLike) -> Scalar:
        return Mul.apply(self, b)

    def __truediv__(self, b: ScalarLike) -> Scalar:
        return Mul.apply(self, Inv.apply(b))

    def __rtruediv__(self, b: ScalarLike) -> Scalar:
        return Mul.apply(b, Inv.apply(self))

    def __add__(self, b: ScalarLike) -> Scalar:
        return Add.apply(self, b)

    def __bool__(self) -> bool:
        return bool(self.data)

    def __lt__(self, b: ScalarLike) -> Scalar:
        return LT.apply(self, b)

    def __gt__(self, b: ScalarLike) -> Scalar:
        return LT.apply(b, self)

    def __eq__(self, b: ScalarLike) -> Scalar:  # type: ignore[override]
        return EQ.apply(self, b)

    def __sub__(self, b: ScalarLike) -> Scalar:
        return Add.apply(self, Neg.apply(b))

    def __neg__(self) -> Scalar:
        return Neg.apply(self)

    def __radd__(self, b: ScalarLike) -> Scalar:
        return self + b

    def __rmul__(self, b: ScalarLike) -> Scalar:
        return self * b

    def log(self) -> Scalar:
        return Log.apply(self)

    def exp(self) -> Scalar:
        return Exp.apply(self)

    def sigmoid(self) -> Scalar:
        return Sigmoid.apply(self)

    def relu(self) -> Scalar:
        return ReLU.apply(self)

    def accumulate_derivative(self, x: Any) -> None:
        assert self.is_leaf(), "Only leaf variables can have derivatives."
        if self.derivative is None:
            self.derivative = 0.0
        self.derivative += x

    def is_leaf(self) -> bool:
        return self.history is not None and self.history.last_fn is None

    def is_constant(self) -> bool:
        return self.history is None

    @property
    def parents(self) -> Iterable[Variable]:
        assert self.history is not None
        return self.history.inputs

    def chain_rule(self, d_output: Any) -> Iterable[Tuple[Variable, Any]]:
        h = self.history
        assert h is not None
        assert h.last_fn is not None
        assert h.ctx is not None
        x = h.last_fn._backward(h.ctx, d_output)
        return list(zip(h.inputs, x))

    def backward(self, d_output: Optional[float] = None) -> None:
        if d_output is None:
            d_output = 1.0
        backpropagate(self, d_output)


def derivative_check(f: Any, *scalars: Scalar) -> None:
    out = f(*scalars)
    out.backward()

    err_msg = """
Derivative check at arguments f(%s) and received derivative f'=%f for argument %d,
but was expecting derivative f'=%f from central difference."""
    for i, x in enumerate(scalars):
        check = central_difference(f, *scalars, arg=i)
        print(str([x.data for x in scalars]), x.derivative, i, check)
        assert x.derivative is not None
        np.testing.assert_allclose(
            x.derivative,
            check.data,
            1e-2,
            1e-2,
            err_msg=err_msg
            % (str([x.data for x in scalars]), x.derivative, i, check.data),
        )


# %%
%%minitorch_file module.py
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple


class Module:
    _modules: Dict[str, Module]
    _parameters: Dict[str, Parameter]
    training: bool

    def __init__(self) -> None:
        self._modules = {}
        self._parameters = {}
        self.training = True

    def modules(self) -> Sequence[Module]:
        m: Dict[str, Module] = self.__dict__["_modules"]
        return list(m.values())

    def train(self) -> None:
        self.training = True
        for m in self.modules():
            m.train()

    def eval(self) -> None:
        self.training = False
        for m in self.modules():
            m.eval()

    def named_parameters(self) -> Sequence[Tuple[str, Parameter]]:
        out = list(self._parameters.items())
        for name, m in self._modules.items():
            out.extend((f"{name}.{k}", p) for k, p in m.named_parameters())
        return out

    def parameters(self) -> Sequence[Parameter]:
        return [p for _, p in self.named_parameters()]

    def add_parameter(self, k: str, v: Any) -> Parameter:
        val = Parameter(v, k)
        self.__dict__["_parameters"][k] = val
        return val

    def __setattr__(self, key: str, val: Parameter) -> None:
        if isinstance(val, Parameter):
            self.__dict__["_parameters"][key] = val
        elif isinstance(val, Module):
            self.__dict__["_modules"][key] = val
        else:
            super().__setattr__(key, val)

    def __getattr__(self, key: str) -> Any:
        if key in self.__dict__["_parameters"]:
            return self.__dict__["_parameters"][key]

        if key in self.__dict__["_modules"]:
            return self.__dict__["_modules"][key]
        return None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)


class Parameter:
    def __init__(self, x: Any, name: Optional[str] = None) -> None:
        self.value = x
        self.name = name
        if hasattr(x, "requires_grad_"):
            self.value.requires_grad_(True)
            if self.name:
                self.value.name = self.name

    def update(self, x: Any) -> None:
        self.value = x
        if hasattr(x, "requires_grad_"):
            self.value.requires_grad_(True)
            if self.name:
                self.value.name = self.name

    def __repr__(self) -> str:
        return repr(self.value)

    def __str__(self) -> str:
        return str(self.value)


# %% the tests, as MiniTorch's test_scalar.py and test_module.py write them
import minitorch
from minitorch import Context, ScalarFunction, ScalarHistory, Scalar, central_difference, operators
from minitorch.scalar import derivative_check


class Function1(ScalarFunction):
    @staticmethod
    def forward(ctx: Context, x: float, y: float) -> float:
        return x + y + 10

    @staticmethod
    def backward(ctx: Context, d_output: float):
        return d_output, d_output


def test_chain_rule1() -> None:
    x = minitorch.Scalar(0.0)
    constant = minitorch.Scalar(0.0, ScalarHistory(Function1, ctx=Context(), inputs=[x, x]))
    back = constant.chain_rule(d_output=5)
    assert len(list(back)) == 2
    print("chain_rule1", [d for _, d in back])


def test_backprop1() -> None:
    var = minitorch.Scalar(0)
    var2 = Function1.apply(0, var)
    var2.backward(d_output=5)
    assert var.derivative == 5
    print("backprop1", var.derivative)


one_arg = [
    ("neg", lambda a: -a),
    ("sig", lambda a: a.sigmoid()),
    ("log", lambda a: (a + 100000).log()),
    ("relu", lambda a: (a + 5.5).relu()),
    ("exp", lambda a: (a - 200).exp()),
    ("div", lambda a: a / 5.0),
    ("rdiv", lambda a: 10 / (a * a + 1.0)),
]
two_arg = [
    ("add", lambda a, b: a + b),
    ("mul", lambda a, b: a * b),
    ("lt", lambda a, b: a < b + 1.5),
    ("sub", lambda a, b: a - b),
]
draws = [-2.5, -0.75, 0.5, 1.25, 3.0]
for name, fn in one_arg:
    for t in draws:
        derivative_check(fn, minitorch.Scalar(t))
for name, fn in two_arg:
    for t1, t2 in zip(draws, reversed(draws)):
        derivative_check(fn, minitorch.Scalar(t1), minitorch.Scalar(t2))

test_chain_rule1()
test_backprop1()
print(operators.sum([1.0, 2.0, 3.5]), operators.prod([2.0, 3.0]), minitorch.operators.relu(-1))
print(central_difference(operators.mul, 3.0, 4.0, arg=1))
print(minitorch.Mul is minitorch.scalar_functions.Mul, type(minitorch.Context(False)).__name__)
print(minitorch.Context(False, (1, 2)))
print(minitorch.Scalar, minitorch.Context, Function1, minitorch.Scalar.__module__, Function1.__module__)


class ModuleA1(minitorch.Module):
    def __init__(self) -> None:
        super().__init__()
        self.p1 = minitorch.Parameter(5)
        self.non_param = 10
        self.a = ModuleA2()
        self.b = ModuleA3()


class ModuleA2(minitorch.Module):
    def __init__(self) -> None:
        super().__init__()
        self.p2 = minitorch.Parameter(10)


class ModuleA3(minitorch.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c = ModuleA4()


class ModuleA4(minitorch.Module):
    def __init__(self) -> None:
        super().__init__()
        self.p3 = minitorch.Parameter(15)


def test_stacked_demo() -> None:
    mod = ModuleA1()
    np_ = dict(mod.named_parameters())
    print(sorted(np_), len(mod.parameters()), mod.non_param)
    assert mod.p1.value == 5
    assert np_["a.p2"].value == 10
    assert np_["b.c.p3"].value == 15
    mod.eval()
    assert not mod.training and not mod.a.training and not mod.b.c.training
    mod.train()
    assert mod.b.c.training
    print(mod.missing, mod.p1)


test_stacked_demo()
x = minitorch.Parameter(minitorch.Scalar(2.0), "x")
print(x.value.name, x)
# expected (what CPython prints for the same package):
# expect: [-2.5] -1.0 0 Scalar(-1.000000)
# expect: [-0.75] -1.0 0 Scalar(-1.000000)
# expect: [0.5] -1.0 0 Scalar(-1.000000)
# expect: [1.25] -1.0 0 Scalar(-1.000000)
# expect: [3.0] -1.0 0 Scalar(-1.000000)
# expect: [-2.5] 0.07010371654510816 0 Scalar(0.070104)
# expect: [-0.75] 0.21789499376181398 0 Scalar(0.217895)
# expect: [0.5] 0.2350037122015945 0 Scalar(0.235004)
# expect: [1.25] 0.17310478699249707 0 Scalar(0.173105)
# expect: [3.0] 0.045176659730912 0 Scalar(0.045177)
# expect: [-2.5] 1.0000250006150152e-05 0 Scalar(0.000010)
# expect: [-0.75] 1.0000075000462503e-05 0 Scalar(0.000010)
# expect: [0.5] 9.99995000015e-06 0 Scalar(0.000010)
# expect: [1.25] 9.999875001462484e-06 0 Scalar(0.000010)
# expect: [3.0] 9.999700008899736e-06 0 Scalar(0.000010)
# expect: [-2.5] 1.0 0 Scalar(1.000000)
# expect: [-0.75] 1.0 0 Scalar(1.000000)
# expect: [0.5] 1.0 0 Scalar(1.000000)
# expect: [1.25] 1.0 0 Scalar(1.000000)
# expect: [3.0] 1.0 0 Scalar(1.000000)
# expect: [-2.5] 1.1359714449280343e-88 0 Scalar(0.000000)
# expect: [-0.75] 6.537064316848962e-88 0 Scalar(0.000000)
# expect: [0.5] 2.2816596400788878e-87 0 Scalar(0.000000)
# expect: [1.25] 4.830273495951474e-87 0 Scalar(0.000000)
# expect: [3.0] 2.779630478564191e-86 0 Scalar(0.000000)
# expect: [-2.5] 0.2 0 Scalar(0.200000)
# expect: [-0.75] 0.2 0 Scalar(0.200000)
# expect: [0.5] 0.2 0 Scalar(0.200000)
# expect: [1.25] 0.2 0 Scalar(0.200000)
# expect: [3.0] 0.2 0 Scalar(0.200000)
# expect: [-2.5] 0.9512485136741973 0 Scalar(0.951249)
# expect: [-0.75] 6.144 0 Scalar(6.144000)
# expect: [0.5] -6.4 0 Scalar(-6.400000)
# expect: [1.25] -3.80725758477097 0 Scalar(-3.807258)
# expect: [3.0] -0.6000000000000001 0 Scalar(-0.600000)
# expect: [-2.5, 3.0] 1.0 0 Scalar(1.000000)
# expect: [-2.5, 3.0] 1.0 1 Scalar(1.000000)
# expect: [-0.75, 1.25] 1.0 0 Scalar(1.000000)
# expect: [-0.75, 1.25] 1.0 1 Scalar(1.000000)
# expect: [0.5, 0.5] 1.0 0 Scalar(1.000000)
# expect: [0.5, 0.5] 1.0 1 Scalar(1.000000)
# expect: [1.25, -0.75] 1.0 0 Scalar(1.000000)
# expect: [1.25, -0.75] 1.0 1 Scalar(1.000000)
# expect: [3.0, -2.5] 1.0 0 Scalar(1.000000)
# expect: [3.0, -2.5] 1.0 1 Scalar(1.000000)
# expect: [-2.5, 3.0] 3.0 0 Scalar(3.000000)
# expect: [-2.5, 3.0] -2.5 1 Scalar(-2.500000)
# expect: [-0.75, 1.25] 1.25 0 Scalar(1.250000)
# expect: [-0.75, 1.25] -0.75 1 Scalar(-0.750000)
# expect: [0.5, 0.5] 0.5 0 Scalar(0.500000)
# expect: [0.5, 0.5] 0.5 1 Scalar(0.500000)
# expect: [1.25, -0.75] -0.75 0 Scalar(-0.750000)
# expect: [1.25, -0.75] 1.25 1 Scalar(1.250000)
# expect: [3.0, -2.5] -2.5 0 Scalar(-2.500000)
# expect: [3.0, -2.5] 3.0 1 Scalar(3.000000)
# expect: [-2.5, 3.0] 0.0 0 Scalar(0.000000)
# expect: [-2.5, 3.0] 0.0 1 Scalar(0.000000)
# expect: [-0.75, 1.25] 0.0 0 Scalar(0.000000)
# expect: [-0.75, 1.25] 0.0 1 Scalar(0.000000)
# expect: [0.5, 0.5] 0.0 0 Scalar(0.000000)
# expect: [0.5, 0.5] 0.0 1 Scalar(0.000000)
# expect: [1.25, -0.75] 0.0 0 Scalar(0.000000)
# expect: [1.25, -0.75] 0.0 1 Scalar(0.000000)
# expect: [3.0, -2.5] 0.0 0 Scalar(0.000000)
# expect: [3.0, -2.5] 0.0 1 Scalar(0.000000)
# expect: [-2.5, 3.0] 1.0 0 Scalar(1.000000)
# expect: [-2.5, 3.0] -1.0 1 Scalar(-1.000000)
# expect: [-0.75, 1.25] 1.0 0 Scalar(1.000000)
# expect: [-0.75, 1.25] -1.0 1 Scalar(-1.000000)
# expect: [0.5, 0.5] 1.0 0 Scalar(1.000000)
# expect: [0.5, 0.5] -1.0 1 Scalar(-1.000000)
# expect: [1.25, -0.75] 1.0 0 Scalar(1.000000)
# expect: [1.25, -0.75] -1.0 1 Scalar(-1.000000)
# expect: [3.0, -2.5] 1.0 0 Scalar(1.000000)
# expect: [3.0, -2.5] -1.0 1 Scalar(-1.000000)
# expect: chain_rule1 [5, 5]
# expect: backprop1 5.0
# expect: 6.5 6.0 0.0
# expect: 2.9999999995311555
# expect: True Context
# expect: Context(no_grad=False, saved_values=(1, 2))
# expect: <class 'minitorch.scalar.Scalar'> <class 'minitorch.autodiff.Context'> <class '__main__.Function1'> minitorch.scalar __main__
# expect: ['a.p2', 'b.c.p3', 'p1'] 3 10
# expect: None 5
# expect: 1321 Scalar(2.000000)
