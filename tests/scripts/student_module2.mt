# A student's own Module 2 as files of the minitorch package (operators.py, autodiff.py,
# tensor_data.py, tensor_ops.py, tensor_functions.py, tensor.py, module.py: Tasks 2.1-2.4
# answered), written the way MiniTorch's files are, then what the course's
# tests/test_tensor_data.py and tests/test_tensor.py check, with seeded draws where the course
# draws with hypothesis and try/except where it uses `with pytest.raises`. The expectations are
# what CPython with numpy prints for the same files in a real package.
# %%
%%minitorch_file operators.py
"""The float functions every other file of the package is built from."""

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


def max(x: float, y: float) -> float:
    return x if x > y else y


def is_close(x: float, y: float) -> float:
    return 1.0 if abs(x - y) < 1e-2 else 0.0


def sigmoid(x: float) -> float:
    # Two forms so that exp never sees a large positive argument.
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def relu(x: float) -> float:
    return x if x > 0.0 else 0.0


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
    return -d / (x * x)


def relu_back(x: float, d: float) -> float:
    return d if x > 0.0 else 0.0


def map(fn: Callable[[float], float]) -> Callable[[Iterable[float]], Iterable[float]]:
    def apply(ls: Iterable[float]) -> Iterable[float]:
        return [fn(x) for x in ls]

    return apply


def zipWith(
    fn: Callable[[float, float], float]
) -> Callable[[Iterable[float], Iterable[float]], Iterable[float]]:
    def apply(ls1: Iterable[float], ls2: Iterable[float]) -> Iterable[float]:
        return [fn(x, y) for x, y in zip(ls1, ls2)]

    return apply


def reduce(
    fn: Callable[[float, float], float], start: float
) -> Callable[[Iterable[float]], float]:
    def apply(ls: Iterable[float]) -> float:
        acc = start
        for x in ls:
            acc = fn(acc, x)
        return acc

    return apply


def negList(ls: Iterable[float]) -> Iterable[float]:
    return map(neg)(ls)


def addLists(ls1: Iterable[float], ls2: Iterable[float]) -> Iterable[float]:
    return zipWith(add)(ls1, ls2)


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
    """The slope of `f` along argument `arg`, from two evaluations `epsilon` either side."""
    up = [v + epsilon if i == arg else v for i, v in enumerate(vals)]
    down = [v - epsilon if i == arg else v for i, v in enumerate(vals)]
    return (f(*up) - f(*down)) / (2.0 * epsilon)


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
    """Every variable `variable` depends on, each after all the variables that use it."""
    seen = set()
    finished: List[Variable] = []

    def visit(v: Variable) -> None:
        if v.unique_id in seen or v.is_constant():
            return
        seen.add(v.unique_id)
        if not v.is_leaf():
            for parent in v.parents:
                visit(parent)
        finished.append(v)

    visit(variable)
    # A depth-first walk finishes a variable after its parents: reversed, users come first.
    return list(reversed(finished))


def backpropagate(variable: Variable, deriv: Any) -> None:
    """Hands `deriv` back through the graph, leaving each leaf's total in its derivative."""
    pending = {variable.unique_id: deriv}
    for v in topological_sort(variable):
        d = pending.pop(v.unique_id, None)
        if d is None:
            continue
        if v.is_leaf():
            v.accumulate_derivative(d)
            continue
        for parent, d_parent in v.chain_rule(d):
            if parent.is_constant():
                continue
            if parent.unique_id in pending:
                pending[parent.unique_id] = pending[parent.unique_id] + d_parent
            else:
                pending[parent.unique_id] = d_parent


@dataclass
class Context:
    """What a Function's forward keeps for its backward."""

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
%%minitorch_file tensor_data.py
from __future__ import annotations

import random
from typing import Iterable, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt
from numpy import array, float64
from typing_extensions import TypeAlias

from .operators import prod

MAX_DIMS = 32


class IndexingError(RuntimeError):
    "An index or a shape that does not fit the tensor."
    pass


Storage: TypeAlias = npt.NDArray[np.float64]
OutIndex: TypeAlias = npt.NDArray[np.int32]
Index: TypeAlias = npt.NDArray[np.int32]
Shape: TypeAlias = npt.NDArray[np.int32]
Strides: TypeAlias = npt.NDArray[np.int32]

UserIndex: TypeAlias = Sequence[int]
UserShape: TypeAlias = Sequence[int]
UserStrides: TypeAlias = Sequence[int]


def index_to_position(index: Index, strides: Strides) -> int:
    """Where the element at `index` lies in storage: the index weighted by the strides."""
    position = 0
    for i in range(len(strides)):
        position += index[i] * strides[i]
    return position


def to_index(ordinal: int, shape: Shape, out_index: OutIndex) -> None:
    """Writes into `out_index` the `ordinal`-th index of `shape`, the last dim fastest."""
    rest = ordinal + 0
    for i in range(len(shape) - 1, -1, -1):
        out_index[i] = int(rest % shape[i])
        rest = rest // shape[i]


def broadcast_index(
    big_index: Index, big_shape: Shape, shape: Shape, out_index: OutIndex
) -> None:
    """The index into `shape` that `big_index` of the broadcast `big_shape` reads from."""
    # `shape` lines up with the trailing dims of `big_shape`; its dims of size 1 repeat.
    extra = len(big_shape) - len(shape)
    for i in range(len(shape)):
        if shape[i] == 1:
            out_index[i] = 0
        else:
            out_index[i] = big_index[i + extra]


def shape_broadcast(shape1: UserShape, shape2: UserShape) -> UserShape:
    """The shape two tensors of these shapes broadcast to, or IndexingError."""
    n = len(shape1) if len(shape1) > len(shape2) else len(shape2)
    a = [1] * (n - len(shape1)) + list(shape1)
    b = [1] * (n - len(shape2)) + list(shape2)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise IndexingError(f"Cannot broadcast {shape1} with {shape2}.")
        out.append(x if x != 1 else y)
    return tuple(out)


def strides_from_shape(shape: UserShape) -> UserStrides:
    strides = []
    step = 1
    for s in reversed(shape):
        strides.append(step)
        step *= s
    return tuple(reversed(strides))


class TensorData:
    _storage: Storage
    _strides: Strides
    _shape: Shape
    strides: UserStrides
    shape: UserShape
    dims: int

    def __init__(
        self,
        storage: Union[Sequence[float], Storage],
        shape: UserShape,
        strides: Optional[UserStrides] = None,
    ):
        if isinstance(storage, np.ndarray):
            self._storage = storage
        else:
            self._storage = array(storage, dtype=float64)

        if strides is None:
            strides = strides_from_shape(shape)

        assert isinstance(strides, tuple), "Strides must be tuple"
        assert isinstance(shape, tuple), "Shape must be tuple"
        if len(strides) != len(shape):
            raise IndexingError(f"Len of strides {strides} must match {shape}.")
        self._strides = array(strides)
        self._shape = array(shape)
        self.strides = strides
        self.dims = len(strides)
        self.size = int(prod(shape))
        self.shape = shape
        assert len(self._storage) == self.size

    def is_contiguous(self) -> bool:
        """True when the strides shrink from the outer dims to the inner ones."""
        last = 1e9
        for stride in self._strides:
            if stride > last:
                return False
            last = stride
        return True

    @staticmethod
    def shape_broadcast(shape_a: UserShape, shape_b: UserShape) -> UserShape:
        return shape_broadcast(shape_a, shape_b)

    def index(self, index: Union[int, UserIndex]) -> int:
        aindex: Index = array([index] if isinstance(index, int) else index)
        if aindex.shape[0] != len(self.shape):
            raise IndexingError(f"Index {aindex} must be size of {self.shape}.")
        for i in range(len(self.shape)):
            if aindex[i] < 0:
                raise IndexingError(f"Negative indexing for {aindex} not supported.")
            if aindex[i] >= self.shape[i]:
                raise IndexingError(f"Index {aindex} out of range {self.shape}.")
        return index_to_position(aindex, self._strides)

    def indices(self) -> Iterable[UserIndex]:
        shape: Shape = array(self.shape)
        out_index: Index = np.zeros(len(self.shape), np.int32)
        for ordinal in range(self.size):
            to_index(ordinal, shape, out_index)
            yield tuple(out_index)

    def sample(self) -> UserIndex:
        return tuple((random.randint(0, s - 1) for s in self.shape))

    def get(self, key: UserIndex) -> float:
        x: float = self._storage[self.index(key)]
        return x

    def set(self, key: UserIndex, val: float) -> None:
        self._storage[self.index(key)] = val

    def tuple(self) -> Tuple[Storage, Shape, Strides]:
        return (self._storage, self._shape, self._strides)

    def permute(self, *order: int) -> TensorData:
        """A view of the same storage with its dims in the order `order` gives."""
        assert list(sorted(order)) == list(
            range(len(self.shape))
        ), f"Must give a position to each dimension. Shape: {self.shape} Order: {order}"
        return TensorData(
            self._storage,
            tuple(self.shape[o] for o in order),
            tuple(self.strides[o] for o in order),
        )

    def to_string(self) -> str:
        text = ""
        for index in self.indices():
            # A bracket opens for each trailing dim at its first entry ...
            opening = ""
            for i in range(len(index) - 1, -1, -1):
                if index[i] != 0:
                    break
                opening = "\n%s[" % ("\t" * i) + opening
            text += opening + f"{self.get(index):3.2f}"
            # ... and closes at its last one.
            closing = ""
            for i in range(len(index) - 1, -1, -1):
                if index[i] != self.shape[i] - 1:
                    break
                closing += "]"
            text += closing if closing else " "
        return text


# %%
%%minitorch_file tensor_ops.py
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Type

import numpy as np
from typing_extensions import Protocol

from . import operators
from .tensor_data import (
    MAX_DIMS,
    broadcast_index,
    index_to_position,
    shape_broadcast,
    to_index,
)

if TYPE_CHECKING:
    from .tensor import Tensor
    from .tensor_data import Index, Shape, Storage, Strides


class MapProto(Protocol):
    def __call__(self, x: Tensor, out: Optional[Tensor] = ..., /) -> Tensor:
        ...


class TensorOps:
    @staticmethod
    def map(fn: Callable[[float], float]) -> MapProto:
        pass

    @staticmethod
    def cmap(fn: Callable[[float], float]) -> Callable[[Tensor, Tensor], Tensor]:
        pass

    @staticmethod
    def zip(fn: Callable[[float, float], float]) -> Callable[[Tensor, Tensor], Tensor]:
        pass

    @staticmethod
    def reduce(
        fn: Callable[[float, float], float], start: float = 0.0
    ) -> Callable[[Tensor, int], Tensor]:
        pass

    @staticmethod
    def matrix_multiply(a: Tensor, b: Tensor) -> Tensor:
        raise NotImplementedError("Not implemented in this assignment")

    cuda = False


class TensorBackend:
    def __init__(self, ops: Type[TensorOps]):
        """The tensor functions `ops`' map, zip and reduce make of the float operators."""
        self.neg_map = ops.map(operators.neg)
        self.sigmoid_map = ops.map(operators.sigmoid)
        self.relu_map = ops.map(operators.relu)
        self.log_map = ops.map(operators.log)
        self.exp_map = ops.map(operators.exp)
        self.id_map = ops.map(operators.id)
        self.id_cmap = ops.cmap(operators.id)
        self.inv_map = ops.map(operators.inv)

        self.add_zip = ops.zip(operators.add)
        self.mul_zip = ops.zip(operators.mul)
        self.lt_zip = ops.zip(operators.lt)
        self.eq_zip = ops.zip(operators.eq)
        self.is_close_zip = ops.zip(operators.is_close)
        self.relu_back_zip = ops.zip(operators.relu_back)
        self.log_back_zip = ops.zip(operators.log_back)
        self.inv_back_zip = ops.zip(operators.inv_back)

        self.add_reduce = ops.reduce(operators.add, 0.0)
        self.mul_reduce = ops.reduce(operators.mul, 1.0)
        self.matrix_multiply = ops.matrix_multiply
        self.cuda = ops.cuda


class SimpleOps(TensorOps):
    @staticmethod
    def map(fn: Callable[[float], float]) -> MapProto:
        f = tensor_map(fn)

        def ret(a: Tensor, out: Optional[Tensor] = None) -> Tensor:
            if out is None:
                out = a.zeros(a.shape)
            f(*out.tuple(), *a.tuple())
            return out

        return ret

    @staticmethod
    def zip(
        fn: Callable[[float, float], float]
    ) -> Callable[["Tensor", "Tensor"], "Tensor"]:
        f = tensor_zip(fn)

        def ret(a: "Tensor", b: "Tensor") -> "Tensor":
            if a.shape != b.shape:
                c_shape = shape_broadcast(a.shape, b.shape)
            else:
                c_shape = a.shape
            out = a.zeros(c_shape)
            f(*out.tuple(), *a.tuple(), *b.tuple())
            return out

        return ret

    @staticmethod
    def reduce(
        fn: Callable[[float, float], float], start: float = 0.0
    ) -> Callable[["Tensor", int], "Tensor"]:
        f = tensor_reduce(fn)

        def ret(a: "Tensor", dim: int) -> "Tensor":
            out_shape = list(a.shape)
            out_shape[dim] = 1
            out = a.zeros(tuple(out_shape))
            # Each output cell starts from the reduction's identity, not from zero.
            out._tensor._storage[:] = start
            f(*out.tuple(), *a.tuple(), dim)
            return out

        return ret

    @staticmethod
    def matrix_multiply(a: "Tensor", b: "Tensor") -> "Tensor":
        raise NotImplementedError("Not implemented in this assignment")

    is_cuda = False


def tensor_map(fn: Callable[[float], float]) -> Any:
    """`fn` of each input element, into `out`, which the input broadcasts to."""

    def _map(
        out: Storage,
        out_shape: Shape,
        out_strides: Strides,
        in_storage: Storage,
        in_shape: Shape,
        in_strides: Strides,
    ) -> None:
        out_index: Index = np.zeros(MAX_DIMS, np.int32)
        in_index: Index = np.zeros(MAX_DIMS, np.int32)
        for i in range(len(out)):
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            x = in_storage[index_to_position(in_index, in_strides)]
            out[index_to_position(out_index, out_strides)] = fn(x)

    return _map


def tensor_zip(fn: Callable[[float, float], float]) -> Any:
    """`fn` of each pair of elements of `a` and `b`, both broadcast to `out`."""

    def _zip(
        out: Storage,
        out_shape: Shape,
        out_strides: Strides,
        a_storage: Storage,
        a_shape: Shape,
        a_strides: Strides,
        b_storage: Storage,
        b_shape: Shape,
        b_strides: Strides,
    ) -> None:
        out_index: Index = np.zeros(MAX_DIMS, np.int32)
        a_index: Index = np.zeros(MAX_DIMS, np.int32)
        b_index: Index = np.zeros(MAX_DIMS, np.int32)
        for i in range(len(out)):
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            x = a_storage[index_to_position(a_index, a_strides)]
            y = b_storage[index_to_position(b_index, b_strides)]
            out[index_to_position(out_index, out_strides)] = fn(x, y)

    return _zip


def tensor_reduce(fn: Callable[[float, float], float]) -> Any:
    """Folds `a` along `reduce_dim` with `fn` into `out`, where that dim has size 1."""

    def _reduce(
        out: Storage,
        out_shape: Shape,
        out_strides: Strides,
        a_storage: Storage,
        a_shape: Shape,
        a_strides: Strides,
        reduce_dim: int,
    ) -> None:
        out_index: Index = np.zeros(MAX_DIMS, np.int32)
        for i in range(len(out)):
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            # Walk the reduced dim from the output cell's own index (0 there).
            for j in range(a_shape[reduce_dim]):
                out_index[reduce_dim] = j
                x = a_storage[index_to_position(out_index, a_strides)]
                out[o] = fn(out[o], x)

    return _reduce


SimpleBackend = TensorBackend(SimpleOps)


# %%
%%minitorch_file tensor_functions.py
"""
The autodifferentiation Functions of Tensor: a forward on the backend's ops and its backward.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

import minitorch

from . import operators
from .autodiff import Context
from .tensor_ops import SimpleBackend, TensorBackend

if TYPE_CHECKING:
    from typing import Any, List, Tuple

    from .tensor import Tensor
    from .tensor_data import UserIndex, UserShape


def wrap_tuple(x):  # type: ignore
    "A tuple as it is; anything else as a tuple of one."
    if isinstance(x, tuple):
        return x
    return (x,)


class Function:
    @classmethod
    def _backward(cls, ctx: Context, grad_out: Tensor) -> Tuple[Tensor, ...]:
        return wrap_tuple(cls.backward(ctx, grad_out))  # type: ignore

    @classmethod
    def _forward(cls, ctx: Context, *inps: Tensor) -> Tensor:
        return cls.forward(ctx, *inps)  # type: ignore

    @classmethod
    def apply(cls, *vals: Tensor) -> Tensor:
        need_grad = any(v.requires_grad() for v in vals)
        # forward sees the values without their histories.
        raw_vals = [v.detach() for v in vals]
        ctx = Context(not need_grad)
        c = cls._forward(ctx, *raw_vals)
        back = minitorch.History(cls, ctx, vals) if need_grad else None
        return minitorch.Tensor(c._tensor, back, backend=c.backend)


class Neg(Function):
    @staticmethod
    def forward(ctx: Context, t1: Tensor) -> Tensor:
        return t1.f.neg_map(t1)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tensor:
        return grad_output.f.neg_map(grad_output)


class Inv(Function):
    @staticmethod
    def forward(ctx: Context, t1: Tensor) -> Tensor:
        ctx.save_for_backward(t1)
        return t1.f.inv_map(t1)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tensor:
        (t1,) = ctx.saved_values
        return grad_output.f.inv_back_zip(t1, grad_output)


class Add(Function):
    @staticmethod
    def forward(ctx: Context, t1: Tensor, t2: Tensor) -> Tensor:
        return t1.f.add_zip(t1, t2)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, Tensor]:
        return grad_output, grad_output


class Mul(Function):
    @staticmethod
    def forward(ctx: Context, a: Tensor, b: Tensor) -> Tensor:
        ctx.save_for_backward(a, b)
        return a.f.mul_zip(a, b)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, Tensor]:
        a, b = ctx.saved_values
        f = grad_output.f
        return f.mul_zip(grad_output, b), f.mul_zip(grad_output, a)


class Sigmoid(Function):
    @staticmethod
    def forward(ctx: Context, t1: Tensor) -> Tensor:
        s = t1.f.sigmoid_map(t1)
        ctx.save_for_backward(s)
        return s

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tensor:
        (s,) = ctx.saved_values
        # sigmoid' is s * (1 - s); s has no history, so this records none.
        return grad_output * s * (-s + 1.0)


class ReLU(Function):
    @staticmethod
    def forward(ctx: Context, t1: Tensor) -> Tensor:
        ctx.save_for_backward(t1)
        return t1.f.relu_map(t1)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tensor:
        (t1,) = ctx.saved_values
        return grad_output.f.relu_back_zip(t1, grad_output)


class Log(Function):
    @staticmethod
    def forward(ctx: Context, t1: Tensor) -> Tensor:
        ctx.save_for_backward(t1)
        return t1.f.log_map(t1)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tensor:
        (t1,) = ctx.saved_values
        return grad_output.f.log_back_zip(t1, grad_output)


class Exp(Function):
    @staticmethod
    def forward(ctx: Context, t1: Tensor) -> Tensor:
        e = t1.f.exp_map(t1)
        ctx.save_for_backward(e)
        return e

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tensor:
        (e,) = ctx.saved_values
        return grad_output.f.mul_zip(grad_output, e)


class Sum(Function):
    @staticmethod
    def forward(ctx: Context, a: Tensor, dim: Tensor) -> Tensor:
        ctx.save_for_backward(a.shape, dim)
        return a.f.add_reduce(a, int(dim.item()))

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, float]:
        # The summed dim has size 1 in grad_output: Tensor.expand broadcasts it back.
        return grad_output, 0.0


class All(Function):
    @staticmethod
    def forward(ctx: Context, a: Tensor, dim: Tensor) -> Tensor:
        if dim is not None:
            return a.f.mul_reduce(a, int(dim.item()))
        return a.f.mul_reduce(a.contiguous().view(int(operators.prod(a.shape))), 0)


class LT(Function):
    @staticmethod
    def forward(ctx: Context, a: Tensor, b: Tensor) -> Tensor:
        ctx.save_for_backward(a.shape, b.shape)
        return a.f.lt_zip(a, b)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, Tensor]:
        a_shape, b_shape = ctx.saved_values
        return grad_output.zeros(a_shape), grad_output.zeros(b_shape)


class EQ(Function):
    @staticmethod
    def forward(ctx: Context, a: Tensor, b: Tensor) -> Tensor:
        ctx.save_for_backward(a.shape, b.shape)
        return a.f.eq_zip(a, b)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, Tensor]:
        a_shape, b_shape = ctx.saved_values
        return grad_output.zeros(a_shape), grad_output.zeros(b_shape)


class IsClose(Function):
    @staticmethod
    def forward(ctx: Context, a: Tensor, b: Tensor) -> Tensor:
        return a.f.is_close_zip(a, b)


class Permute(Function):
    @staticmethod
    def forward(ctx: Context, a: Tensor, order: Tensor) -> Tensor:
        dims = [int(order[i]) for i in range(order.size)]
        ctx.save_for_backward(dims)
        return a._new(a._tensor.permute(*dims))

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, float]:
        (dims,) = ctx.saved_values
        # The inverse permutation puts each dim back where it came from.
        back = [0] * len(dims)
        for i, d in enumerate(dims):
            back[d] = i
        return grad_output._new(grad_output._tensor.permute(*back)), 0.0


class View(Function):
    @staticmethod
    def forward(ctx: Context, a: Tensor, shape: Tensor) -> Tensor:
        assert a._tensor.is_contiguous(), "Must be contiguous to view"
        ctx.save_for_backward(a.shape)
        new_shape = tuple(int(shape[i]) for i in range(shape.size))
        # The same storage read with the new shape's own strides.
        return minitorch.Tensor.make(a._tensor._storage, new_shape, backend=a.backend)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, float]:
        (old_shape,) = ctx.saved_values
        back = minitorch.Tensor.make(
            grad_output._tensor._storage, old_shape, backend=grad_output.backend
        )
        return back, 0.0


class Copy(Function):
    @staticmethod
    def forward(ctx: Context, a: Tensor) -> Tensor:
        return a.f.id_map(a)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tensor:
        return grad_output


class MatMul(Function):
    """Module 3's: SimpleOps has no matrix multiply, so its forward raises here."""

    @staticmethod
    def forward(ctx: Context, t1: Tensor, t2: Tensor) -> Tensor:
        ctx.save_for_backward(t1, t2)
        return t1.f.matrix_multiply(t1, t2)

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, Tensor]:
        t1, t2 = ctx.saved_values

        def swap_last(a: Tensor) -> Tensor:
            order = list(range(a.dims))
            order[-1], order[-2] = order[-2], order[-1]
            return a._new(a._tensor.permute(*order))

        mm = grad_output.f.matrix_multiply
        return mm(grad_output, swap_last(t2)), mm(swap_last(t1), grad_output)


def zeros(shape: UserShape, backend: TensorBackend = SimpleBackend) -> Tensor:
    """A tensor of zeros of `shape`."""
    return minitorch.Tensor.make(
        [0] * int(operators.prod(shape)), shape, backend=backend
    )


def rand(
    shape: UserShape,
    backend: TensorBackend = SimpleBackend,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of `shape` with values drawn uniformly from [0, 1)."""
    vals = [random.random() for _ in range(int(operators.prod(shape)))]
    tensor = minitorch.Tensor.make(vals, shape, backend=backend)
    tensor.requires_grad_(requires_grad)
    return tensor


def _tensor(
    ls: Any,
    shape: UserShape,
    backend: TensorBackend = SimpleBackend,
    requires_grad: bool = False,
) -> Tensor:
    tensor = minitorch.Tensor.make(ls, shape, backend=backend)
    tensor.requires_grad_(requires_grad)
    return tensor


def tensor(
    ls: Any, backend: TensorBackend = SimpleBackend, requires_grad: bool = False
) -> Tensor:
    """A tensor of the values of the nested lists `ls`, in their shape."""

    def shape_of(ls: Any) -> List[int]:
        if not isinstance(ls, (list, tuple)):
            return []
        return [len(ls)] + shape_of(ls[0])

    def flat(ls: Any) -> List[float]:
        if not isinstance(ls, (list, tuple)):
            return [ls]
        out: List[float] = []
        for x in ls:
            out.extend(flat(x))
        return out

    return _tensor(
        flat(ls), tuple(shape_of(ls)), backend=backend, requires_grad=requires_grad
    )


def grad_central_difference(
    f: Any, *vals: Tensor, arg: int = 0, epsilon: float = 1e-6, ind: UserIndex
) -> float:
    """The slope of `f(...).sum()` along element `ind` of argument `arg`."""
    x = vals[arg]
    step = zeros(x.shape)
    step[ind] = epsilon
    plus = [v + step if j == arg else v for j, v in enumerate(vals)]
    minus = [v - step if j == arg else v for j, v in enumerate(vals)]
    delta: Tensor = f(*plus).sum() - f(*minus).sum()
    return delta[0] / (2.0 * epsilon)


def grad_check(f: Any, *vals: Tensor) -> None:
    """Backward's gradient against the central difference, at one index of each input."""
    for x in vals:
        x.requires_grad_(True)
        x.zero_grad_()
    # Seeded, so that a failing check samples the same indices when run again.
    random.seed(10)
    f(*vals).sum().backward()
    for i, x in enumerate(vals):
        ind = x._tensor.sample()
        expected = grad_central_difference(f, *vals, arg=i, ind=ind)
        assert x.grad is not None
        got = x.grad[ind]
        np.testing.assert_allclose(
            got,
            expected,
            1e-2,
            1e-2,
            err_msg=f"grad_check of {f}: argument {i} at {ind}: backward gave {got:f}, "
            f"the central difference {expected:f}",
        )


# %%
%%minitorch_file tensor.py
"""
Tensor: a Variable holding an n-dimensional array, its operators made of tensor Functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import operators
from .autodiff import Context, Variable, backpropagate
from .tensor_data import TensorData
from .tensor_functions import (
    EQ,
    LT,
    Add,
    All,
    Copy,
    Exp,
    Inv,
    IsClose,
    Log,
    MatMul,
    Mul,
    Neg,
    Permute,
    ReLU,
    Sigmoid,
    Sum,
    View,
    tensor,
)

if TYPE_CHECKING:
    from typing import Any, Iterable, List, Optional, Sequence, Tuple, Type, Union

    import numpy.typing as npt

    from .tensor_data import Shape, Storage, Strides, UserIndex, UserShape, UserStrides
    from .tensor_functions import Function
    from .tensor_ops import TensorBackend

    TensorLike = Union[float, int, "Tensor"]


@dataclass
class History:
    """The Function, its context and its inputs that made a tensor."""

    last_fn: Optional[Type[Function]] = None
    ctx: Optional[Context] = None
    inputs: Sequence[Tensor] = ()


_tensor_count = 0


class Tensor:
    backend: TensorBackend
    history: Optional[History]
    grad: Optional[Tensor]
    _tensor: TensorData
    unique_id: int
    name: str

    def __init__(
        self,
        v: TensorData,
        back: Optional[History] = None,
        name: Optional[str] = None,
        backend: Optional[TensorBackend] = None,
    ):
        global _tensor_count
        _tensor_count += 1
        self.unique_id = _tensor_count
        assert isinstance(v, TensorData)
        assert backend is not None
        self._tensor = v
        self.history = back
        self.backend = backend
        self.grad = None
        self.name = name if name is not None else str(self.unique_id)
        self.f = backend

    def requires_grad_(self, x: bool) -> None:
        self.history = History()

    def requires_grad(self) -> bool:
        return self.history is not None

    def to_numpy(self) -> npt.NDArray[np.float64]:
        return self.contiguous()._tensor._storage.reshape(self.shape)

    @property
    def shape(self) -> UserShape:
        return self._tensor.shape

    @property
    def size(self) -> int:
        return self._tensor.size

    @property
    def dims(self) -> int:
        return self._tensor.dims

    def _ensure_tensor(self, b: TensorLike) -> Tensor:
        "A number as a tensor of one element on this tensor's backend."
        if isinstance(b, (int, float)):
            return Tensor.make([b], (1,), backend=self.backend)
        b._type_(self.backend)
        return b

    def __add__(self, b: TensorLike) -> Tensor:
        return Add.apply(self, self._ensure_tensor(b))

    def __sub__(self, b: TensorLike) -> Tensor:
        return Add.apply(self, -self._ensure_tensor(b))

    def __mul__(self, b: TensorLike) -> Tensor:
        return Mul.apply(self, self._ensure_tensor(b))

    def __truediv__(self, b: TensorLike) -> Tensor:
        return Mul.apply(self, Inv.apply(self._ensure_tensor(b)))

    def __rtruediv__(self, b: TensorLike) -> Tensor:
        return Mul.apply(self._ensure_tensor(b), Inv.apply(self))

    def __matmul__(self, b: Tensor) -> Tensor:
        return MatMul.apply(self, b)

    def __lt__(self, b: TensorLike) -> Tensor:
        return LT.apply(self, self._ensure_tensor(b))

    def __eq__(self, b: TensorLike) -> Tensor:  # type: ignore[override]
        return EQ.apply(self, self._ensure_tensor(b))

    def __gt__(self, b: TensorLike) -> Tensor:
        return LT.apply(self._ensure_tensor(b), self)

    def __neg__(self) -> Tensor:
        return Neg.apply(self)

    def __radd__(self, b: TensorLike) -> Tensor:
        return self + b

    def __rmul__(self, b: TensorLike) -> Tensor:
        return self * b

    def all(self, dim: Optional[int] = None) -> Tensor:
        if dim is None:
            return All.apply(self.view(self.size), self._ensure_tensor(0))
        return All.apply(self, self._ensure_tensor(dim))

    def is_close(self, y: Tensor) -> Tensor:
        return IsClose.apply(self, y)

    def sigmoid(self) -> Tensor:
        return Sigmoid.apply(self)

    def relu(self) -> Tensor:
        return ReLU.apply(self)

    def log(self) -> Tensor:
        return Log.apply(self)

    def exp(self) -> Tensor:
        return Exp.apply(self)

    def item(self) -> float:
        assert self.size == 1
        return self[0]

    def sum(self, dim: Optional[int] = None) -> Tensor:
        "The sum over `dim`, which keeps size 1; over every element without one."
        if dim is None:
            return Sum.apply(self.contiguous().view(self.size), self._ensure_tensor(0))
        return Sum.apply(self, self._ensure_tensor(dim))

    def mean(self, dim: Optional[int] = None) -> Tensor:
        if dim is None:
            return self.sum() / self.size
        return self.sum(dim) / self.shape[dim]

    def permute(self, *order: int) -> Tensor:
        return Permute.apply(self, tensor(list(order)))

    def view(self, *shape: int) -> Tensor:
        return View.apply(self, tensor(list(shape)))

    def contiguous(self) -> Tensor:
        return Copy.apply(self)

    def __repr__(self) -> str:
        return self._tensor.to_string()

    def __getitem__(self, key: Union[int, UserIndex]) -> float:
        return self._tensor.get((key,) if isinstance(key, int) else key)

    def __setitem__(self, key: Union[int, UserIndex], val: float) -> None:
        self._tensor.set((key,) if isinstance(key, int) else key, val)

    def _type_(self, backend: TensorBackend) -> None:
        self.backend = backend
        if backend.cuda:  # pragma: no cover
            self._tensor.to_cuda_()

    def _new(self, tensor_data: TensorData) -> Tensor:
        return Tensor(tensor_data, backend=self.backend)

    @staticmethod
    def make(
        storage: Union[Storage, List[float]],
        shape: UserShape,
        strides: Optional[UserStrides] = None,
        backend: Optional[TensorBackend] = None,
    ) -> Tensor:
        return Tensor(TensorData(storage, shape, strides), backend=backend)

    def expand(self, other: Tensor) -> Tensor:
        """`other`, a derivative of a broadcast result, summed back to this tensor's shape."""
        if self.shape == other.shape:
            return other

        # First broadcast other to the shape both make, ...
        full_shape = TensorData.shape_broadcast(self.shape, other.shape)
        buf = self.zeros(full_shape)
        self.backend.id_map(other, buf)
        if self.shape == full_shape:
            return buf

        # ... then sum away the dims this tensor has as 1 (or lacks).
        out = buf
        padded = [1] * (len(out.shape) - len(self.shape)) + list(self.shape)
        for dim in range(len(out.shape)):
            if padded[dim] == 1 and out.shape[dim] != 1:
                out = self.backend.add_reduce(out, dim)
        assert out.size == self.size, f"{out.shape} {self.shape}"
        return Tensor.make(out._tensor._storage, self.shape, backend=self.backend)

    def zeros(self, shape: Optional[UserShape] = None) -> Tensor:
        shape = self.shape if shape is None else shape
        out = Tensor.make(
            [0.0] * int(operators.prod(shape)), shape, backend=self.backend
        )
        out._type_(self.backend)
        return out

    def tuple(self) -> Tuple[Storage, Shape, Strides]:
        return self._tensor.tuple()

    def detach(self) -> Tensor:
        return Tensor(self._tensor, backend=self.backend)

    def accumulate_derivative(self, x: Any) -> None:
        assert self.is_leaf(), "Only leaf variables can have derivatives."
        if self.grad is None:
            self.grad = Tensor.make(
                [0] * int(operators.prod(self.shape)), self.shape, backend=self.backend
            )
        self.grad += x

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
        assert h is not None and h.last_fn is not None and h.ctx is not None
        grads = h.last_fn._backward(h.ctx, d_output)
        assert len(grads) == len(h.inputs), f"Bug in function {h.last_fn}"
        # A number (the 0.0 of a dim or an order argument) becomes a tensor first.
        return [
            (inp, inp.expand(self._ensure_tensor(d)))
            for inp, d in zip(h.inputs, grads)
        ]

    def backward(self, grad_output: Optional[Tensor] = None) -> None:
        if grad_output is None:
            assert self.shape == (1,), "Must provide grad_output if non-scalar"
            grad_output = Tensor.make([1.0], (1,), backend=self.backend)
        backpropagate(self, grad_output)

    def zero_grad_(self) -> None:
        self.grad = None


# %%
%%minitorch_file module.py
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple


class Module:
    """A tree of modules, each with its own parameters and a mode, train or eval."""

    _modules: Dict[str, Module]
    _parameters: Dict[str, Parameter]
    training: bool

    def __init__(self) -> None:
        self._modules = {}
        self._parameters = {}
        self.training = True

    def modules(self) -> Sequence[Module]:
        return list(self.__dict__["_modules"].values())

    def train(self) -> None:
        for m in self.modules():
            m.train()
        self.training = True

    def eval(self) -> None:
        for m in self.modules():
            m.eval()
        self.training = False

    def named_parameters(self) -> Sequence[Tuple[str, Parameter]]:
        named = list(self._parameters.items())
        for prefix, m in self._modules.items():
            named += [(f"{prefix}.{n}", p) for n, p in m.named_parameters()]
        return named

    def parameters(self) -> Sequence[Parameter]:
        return [p for _, p in self.named_parameters()]

    def add_parameter(self, k: str, v: Any) -> Parameter:
        val = Parameter(v, k)
        self.__dict__["_parameters"][k] = val
        return val

    def __setattr__(self, key: str, val: Any) -> None:
        # Parameters and modules go to their dicts, where __getattr__ finds them.
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
    """A value a Module trains: a tensor in it asks for its gradient."""

    def __init__(self, x: Any, name: Optional[str] = None) -> None:
        self.value = x
        self.name = name
        self.update(x)

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


# %% fixed draws in place of the course's hypothesis strategies (tests/tensor_strategies.py)
import random

import numpy as np

import minitorch
from minitorch import Tensor, TensorData, grad_check, operators, tensor


def shapes():
    return tuple(random.randint(1, 3) for _ in range(random.randint(1, 4)))


def floats(n):
    return [round(random.uniform(-100, 100), 4) for _ in range(n)]


def tensor_data(shape=None):
    # Values laid out in a shuffled order of the dims, then permuted back to `shape`, so that
    # most draws are not contiguous, as the course's strategy makes them.
    if shape is None:
        shape = shapes()
    data = floats(int(minitorch.prod(shape)))
    order = list(range(len(shape)))
    random.shuffle(order)
    stored_shape = tuple([shape[i] for i in order])
    back = [a[0] for a in sorted(enumerate(order), key=lambda a: a[1])]
    td = minitorch.TensorData(data, stored_shape).permute(*back)
    assert td.shape == shape
    return td


def indices(td):
    return tuple(random.randint(0, s - 1) for s in td.shape)


def tensors():
    return minitorch.Tensor(tensor_data(), backend=minitorch.SimpleBackend)


def shaped_tensors(n):
    td = tensor_data()
    return [
        minitorch.Tensor(
            minitorch.TensorData(floats(td.size), td.shape, td.strides),
            backend=minitorch.SimpleBackend,
        )
        for _ in range(n)
    ]


def draws(strategy, n, seed):
    # Drawn before any check runs: grad_check reseeds the one generator with 10.
    random.seed(seed)
    return [strategy() for _ in range(n)]


def assert_close(a, b):
    assert minitorch.operators.is_close(a, b), "Failure x=%f y=%f" % (a, b)


# %% tests/test_tensor_data.py
def test_layout():
    data = [0] * 3 * 5
    tensor_data = minitorch.TensorData(data, (3, 5), (5, 1))
    assert tensor_data.is_contiguous()
    assert tensor_data.shape == (3, 5)
    assert tensor_data.index((1, 0)) == 5
    assert tensor_data.index((1, 2)) == 7

    tensor_data = minitorch.TensorData(data, (5, 3), (1, 5))
    assert tensor_data.shape == (5, 3)
    assert not tensor_data.is_contiguous()

    data = [0] * 4 * 2 * 2
    tensor_data = minitorch.TensorData(data, (4, 2, 2))
    assert tensor_data.strides == (4, 2, 1)
    print("layout", tensor_data.strides, tensor_data.size, tensor_data.dims)


def test_layout_bad():
    try:
        minitorch.TensorData([0] * 3 * 5, (3, 5), (6,))
    except minitorch.IndexingError as e:
        print("layout_bad", type(e).__name__, e)


def test_enumeration(tensor_data):
    indices = list(tensor_data.indices())
    assert len(indices) == tensor_data.size
    assert len(set(tensor_data.indices())) == len(indices)
    for ind in tensor_data.indices():
        for i, p in enumerate(ind):
            assert p >= 0 and p < tensor_data.shape[i]


def test_index(tensor_data):
    for ind in tensor_data.indices():
        pos = tensor_data.index(ind)
        assert pos >= 0 and pos < tensor_data.size

    base = [0] * tensor_data.dims
    try:
        base[0] = -1
        tensor_data.index(tuple(base))
        assert False, "no IndexingError"
    except minitorch.IndexingError:
        pass

    if tensor_data.dims > 1:
        try:
            base = [0] * (tensor_data.dims - 1)
            tensor_data.index(tuple(base))
            assert False, "no IndexingError"
        except minitorch.IndexingError:
            pass


def test_permute(td, ind):
    td_rev = td.permute(*list(reversed(range(td.dims))))
    assert td.index(ind) == td_rev.index(tuple(reversed(ind)))
    td2 = td_rev.permute(*list(reversed(range(td_rev.dims))))
    assert td.index(ind) == td2.index(ind)


def test_shape_broadcast():
    c = minitorch.shape_broadcast((1,), (5, 5))
    assert c == (5, 5)
    c = minitorch.shape_broadcast((5, 5), (1,))
    assert c == (5, 5)
    c = minitorch.shape_broadcast((1, 5, 5), (5, 5))
    assert c == (1, 5, 5)
    c = minitorch.shape_broadcast((5, 1, 5, 1), (1, 5, 1, 5))
    assert c == (5, 5, 5, 5)
    for bad in [((5, 7, 5, 1), (1, 5, 1, 5)), ((5, 2), (5,))]:
        try:
            c = minitorch.shape_broadcast(*bad)
            print(c)
        except minitorch.IndexingError as e:
            print("shape_broadcast", e)
    c = minitorch.shape_broadcast((2, 5), (5,))
    assert c == (2, 5)
    print("shape_broadcast", c, TensorData.shape_broadcast((3, 1), (1, 4)))


def test_string(tensor_data):
    tensor_data.to_string()


test_layout()
# expect: layout (4, 2, 1) 16 3
test_layout_bad()
# expect: layout_bad IndexingError Len of strides (6,) must match (3, 5).
tds = draws(tensor_data, 25, 1)
for td in tds:
    test_enumeration(td)
    test_index(td)
    test_string(td)
print("enumeration, index, string:", len(tds), "draws, shapes", [td.shape for td in tds[:6]])
# expect: enumeration, index, string: 25 draws, shapes [(3, 1), (1, 2), (3,), (2,), (2,), (3,)]
random.seed(2)
cases = [(td, indices(td)) for td in draws(tensor_data, 25, 2)]
for td, ind in cases:
    test_permute(td, ind)
td, ind = [c for c in cases if c[0].dims >= 3][0]
print("permute", td.shape, td.strides, ind, int(td.index(ind)))
# expect: permute (3, 2, 1, 1) (2, 1, 6, 6) (1, 0, 0, 0) 2
test_shape_broadcast()
# expect: shape_broadcast Cannot broadcast (5, 7, 5, 1) with (1, 5, 1, 5).
# expect: shape_broadcast Cannot broadcast (5, 2) with (5,).
# expect: shape_broadcast (2, 5) (3, 4)

# %% the index functions themselves, into numpy index arrays as the course's kernels use them
from minitorch.tensor_data import broadcast_index, index_to_position, to_index

shape = np.array([2, 3, 4])
out_index = np.zeros(3, np.int32)
seen = []
for ordinal in [0, 1, 4, 11, 12, 23]:
    to_index(ordinal, shape, out_index)
    seen.append(out_index.tolist())
print("to_index", seen)
# expect: to_index [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 2, 3], [1, 0, 0], [1, 2, 3]]
print("index_to_position", int(index_to_position(np.array([1, 2, 3]), np.array([12, 4, 1]))))
# expect: index_to_position 23
small = np.zeros(2, np.int32)
broadcast_index(np.array([1, 2, 3]), shape, np.array([3, 1]), small)
print("broadcast_index", small.tolist(), small.dtype)
# expect: broadcast_index [2, 0] int32
td = TensorData([float(i) for i in range(6)], (2, 3))
print("to_string", repr(td.to_string()))
# expect: to_string '\n[\n\t[0.00 1.00 2.00]\n\t[3.00 4.00 5.00]]'
print(td.permute(1, 0).to_string())
# expect:
# expect: [
# expect: 	[0.00 3.00]
# expect: 	[1.00 4.00]
# expect: 	[2.00 5.00]]
try:
    td.index((0, 3))
except minitorch.IndexingError as e:
    print("IndexingError:", e)
# expect: IndexingError: Index [0 3] out of range (2, 3).
try:
    td.permute(0, 0)
except AssertionError as e:
    print("AssertionError:", e)
# expect: AssertionError: Must give a position to each dimension. Shape: (2, 3) Order: (0, 0)
# %% tests/test_tensor.py, with MathTestVariable's functions as lambdas: (name, on floats, on tensors)
def same(f):
    return f


one_arg = [
    ("neg", lambda a: -a, lambda a: -a),
    ("addConstant", lambda a: 5 + a, lambda a: 5 + a),
    ("square", lambda a: a * a, lambda a: a * a),
    ("cube", lambda a: a * a * a, lambda a: a * a * a),
    ("subConstant", lambda a: a - 5, lambda a: a - 5),
    ("multConstant", lambda a: 5 * a, lambda a: 5 * a),
    ("div", lambda a: a / 5, lambda a: a / 5),
    ("inv", lambda a: operators.inv(a + 3.5), lambda a: 1.0 / (a + 3.5)),
    ("sig", lambda a: operators.sigmoid(a), lambda a: a.sigmoid()),
    ("log", lambda a: operators.log(a + 100000), lambda a: (a + 100000).log()),
    ("relu", lambda a: operators.relu(a + 5.5), lambda a: (a + 5.5).relu()),
    ("exp", lambda a: operators.exp(a - 200), lambda a: (a - 200).exp()),
    (
        "explog",
        lambda a: operators.log(a + 100000) + operators.exp(a - 200),
        lambda a: (a + 100000).log() + (a - 200).exp(),
    ),
    (
        "complex",
        lambda a: operators.log(
            operators.sigmoid(operators.relu(operators.relu(a * 10 + 7) * 6 + 5) * 10)
        )
        / 50,
        lambda a: (((a * 10 + 7).relu() * 6 + 5).relu() * 10).sigmoid().log() / 50,
    ),
]
two_arg = [
    ("add2", lambda a, b: a + b, lambda a, b: a + b),
    ("mul2", lambda a, b: a * b, lambda a, b: a * b),
    ("div2", lambda a, b: a / (b + 5.5), lambda a, b: a / (b + 5.5)),
    ("gt2", lambda a, b: operators.lt(b, a + 1.2), lambda a, b: a + 1.2 > b),
    ("lt2", lambda a, b: operators.lt(a + 1.2, b), lambda a, b: a + 1.2 < b),
    ("eq2", lambda a, b: operators.eq(a, b + 5.5), lambda a, b: a == (b + 5.5)),
]
red_arg = [
    ("sum_red", lambda a: operators.sum(a), lambda a: a.sum(0)),
    ("mean_red", lambda a: operators.sum(a) / float(len(a)), lambda a: a.mean(0)),
    ("mean_full_red", lambda a: operators.sum(a) / float(len(a)), lambda a: a.mean()),
]


def test_create(t1):
    t2 = tensor(t1)
    for i in range(len(t1)):
        assert t1[i] == t2[i]


def test_one_args(fn, t1):
    name, base_fn, tensor_fn = fn
    t2 = tensor_fn(t1)
    for ind in t2._tensor.indices():
        assert_close(t2[ind], base_fn(t1[ind]))


def test_two_args(fn, ts):
    name, base_fn, tensor_fn = fn
    t1, t2 = ts
    t3 = tensor_fn(t1, t2)
    for ind in t3._tensor.indices():
        assert_close(t3[ind], base_fn(t1[ind], t2[ind]))


def test_one_derivative(fn, t1):
    name, _, tensor_fn = fn
    grad_check(tensor_fn, t1)


def test_permute(permutation, t1):
    def permute(a):
        return a.permute(*permutation)

    grad_check(permute, t1)


def test_grad_size():
    a = tensor([1], requires_grad=True)
    b = tensor([[1, 1]], requires_grad=True)
    c = (a * b).sum()
    c.backward()
    assert c.shape == (1,)
    assert a.grad is not None
    assert b.grad is not None
    assert a.shape == a.grad.shape
    assert b.shape == b.grad.shape
    print("grad_size", a.grad.shape, b.grad.shape, float(a.grad[0]), float(b.grad[0, 1]))


def test_grad_reduce(fn, t1):
    name, _, tensor_fn = fn
    grad_check(tensor_fn, t1)


def test_two_grad(fn, ts):
    name, _, tensor_fn = fn
    t1, t2 = ts
    grad_check(tensor_fn, t1, t2)


def test_two_grad_broadcast(fn, ts):
    name, base_fn, tensor_fn = fn
    t1, t2 = ts
    grad_check(tensor_fn, t1, t2)
    grad_check(tensor_fn, t1.sum(0), t2)
    grad_check(tensor_fn, t1, t2.sum(0))


def test_fromlist():
    t = tensor([[2, 3, 4], [4, 5, 7]])
    assert t.shape == (2, 3)
    t = tensor([[[2, 3, 4], [4, 5, 7]]])
    assert t.shape == (1, 2, 3)


def test_view():
    t = tensor([[2, 3, 4], [4, 5, 7]])
    assert t.shape == (2, 3)
    t2 = t.view(6)
    assert t2.shape == (6,)
    t2 = t2.view(1, 6)
    assert t2.shape == (1, 6)
    t2 = t2.view(6, 1)
    assert t2.shape == (6, 1)
    t2 = t2.view(2, 3)
    assert t.is_close(t2).all().item() == 1.0


def test_back_view(t1):
    def view(a):
        a = a.contiguous()
        return a.view(a.size)

    grad_check(view, t1)


def test_permute_view():
    t = tensor([[2, 3, 4], [4, 5, 7]])
    assert t.shape == (2, 3)
    t2 = t.permute(1, 0)
    try:
        t2.view(6)
    except AssertionError as e:
        print("permute_view", e)


def test_index():
    t = tensor([[2, 3, 4], [4, 5, 7]])
    assert t.shape == (2, 3)
    try:
        t[50, 2]
    except minitorch.IndexingError as e:
        print("index", e)


def test_fromnumpy():
    t = tensor([[2, 3, 4], [4, 5, 7]])
    print(t)
    assert t.shape == (2, 3)
    n = t.to_numpy()
    t2 = tensor(n.tolist())
    for ind in t._tensor.indices():
        assert t[ind] == t2[ind]
    print("fromnumpy", type(n).__name__, n.shape, n.tolist())


def test_reduce_forward_one_dim():
    t = tensor([[2, 3], [4, 6], [5, 7]])
    t_summed = t.sum(0)
    t_sum_expected = tensor([[11, 16]])
    assert t_summed.is_close(t_sum_expected).all().item()


def test_reduce_forward_one_dim_2():
    t = tensor([[2, 3], [4, 6], [5, 7]])
    t_summed_2 = t.sum(1)
    t_sum_2_expected = tensor([[5], [10], [12]])
    assert t_summed_2.is_close(t_sum_2_expected).all().item()


def test_reduce_forward_all_dims():
    t = tensor([[2, 3], [4, 6], [5, 7]])
    t_summed_all = t.sum()
    t_summed_all_expected = tensor([27])
    assert_close(t_summed_all[0], t_summed_all_expected[0])


random.seed(3)
for n in range(1, 8):
    test_create(floats(n))
N = 5
for k, fn in enumerate(one_arg):
    for t1 in draws(tensors, N, 100 + k):
        test_one_args(fn, t1)
    for t1 in draws(tensors, N, 200 + k):
        test_one_derivative(fn, t1)
print("one_args, one_derivative:", [name for name, _, _ in one_arg])
# expect: one_args, one_derivative: ['neg', 'addConstant', 'square', 'cube', 'subConstant', 'multConstant', 'div', 'inv', 'sig', 'log', 'relu', 'exp', 'explog', 'complex']
for k, fn in enumerate(two_arg):
    for ts in draws(lambda: shaped_tensors(2), N, 300 + k):
        test_two_args(fn, ts)
    for ts in draws(lambda: shaped_tensors(2), N, 400 + k):
        test_two_grad(fn, ts)
    for ts in draws(lambda: shaped_tensors(2), N, 500 + k):
        test_two_grad_broadcast(fn, ts)
print("two_args, two_grad, two_grad_broadcast:", [name for name, _, _ in two_arg])
# expect: two_args, two_grad, two_grad_broadcast: ['add2', 'mul2', 'div2', 'gt2', 'lt2', 'eq2']
for k, fn in enumerate(red_arg):
    for t1 in draws(tensors, N, 600 + k):
        test_grad_reduce(fn, t1)
print("grad_reduce:", [name for name, _, _ in red_arg])
# expect: grad_reduce: ['sum_red', 'mean_red', 'mean_full_red']
random.seed(7)
cases = []
for _ in range(2 * N):
    t1 = tensors()
    permutation = list(range(len(t1.shape)))
    random.shuffle(permutation)
    cases.append((permutation, t1))
for permutation, t1 in cases:
    test_permute(permutation, t1)
print("permute", [(p, t.shape) for p, t in cases])
# expect: permute [([2, 0, 1], (1, 2, 3)), ([1, 0], (1, 3)), ([3, 2, 0, 1], (1, 1, 1, 3)), ([2, 1, 0], (1, 3, 3)), ([3, 1, 0, 2], (2, 3, 2, 2)), ([0, 2, 1], (1, 3, 1)), ([0, 1, 3, 2], (1, 1, 2, 2)), ([1, 0], (1, 1)), ([0], (2,)), ([1, 0, 2], (1, 1, 2))]
for t1 in draws(tensors, 2 * N, 8):
    test_back_view(t1)
test_grad_size()
# expect: grad_size (1,) (1, 2) 2.0 1.0
test_fromlist()
test_view()
test_permute_view()
# expect: permute_view Must be contiguous to view
test_index()
# expect: index Index [50  2] out of range (2, 3).
test_fromnumpy()
# expect:
# expect: [
# expect: 	[2.00 3.00 4.00]
# expect: 	[4.00 5.00 7.00]]
# expect: fromnumpy ndarray (2, 3) [[2.0, 3.0, 4.0], [4.0, 5.0, 7.0]]
test_reduce_forward_one_dim()
test_reduce_forward_one_dim_2()
test_reduce_forward_all_dims()
# %% values and gradients through the student's files; a wrong backward caught; the module
a = tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -2.5]], requires_grad=True)
b = tensor([[1.0], [2.0]], requires_grad=True)
out = ((a * b).sigmoid() + (a + 3.0).log() * b - a.relu() / 4).sum()
out.backward()
print("value", round(out.item(), 6))
# expect: value 9.605904
print("a.grad", [round(x, 6) for x in a.grad.to_numpy().flatten().tolist()])
# expect: a.grad [0.270718, 0.696612, 0.054994, 0.284798, 1.166666, 4.013288]
print("b.grad", b.grad.shape, [round(x, 6) for x in b.grad.to_numpy().flatten().tolist()])
# expect: b.grad (2, 1) [3.686226, 1.96069]
p = a.permute(1, 0)
print("permuted", p.shape, p._tensor.strides, p._tensor.is_contiguous(), float(p[2, 1]))
# expect: permuted (3, 2) (1, 3) False -2.5
c = p.contiguous()
print("contiguous", c._tensor.strides, c._tensor.is_contiguous(), c.view(6).shape)
# expect: contiguous (2, 1) True (6,)
m = tensor([[1.0, 2.0], [3.0, 4.0]]).mean(1)
print("mean(1)", m.shape, [float(x) for x in m.to_numpy().flatten().tolist()])
# expect: mean(1) (2, 1) [1.5, 3.5]
print("lt, eq, all", (a < 0.6).to_numpy().tolist(), (a == 0.0).sum().item(), a.all().item())
# expect: lt, eq, all [[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]] 1.0 0.0
print(
    minitorch.Mul is minitorch.tensor_functions.Mul,
    minitorch.tensor is minitorch.tensor_functions.tensor,
    minitorch.Tensor.__module__,
    minitorch.prod is minitorch.operators.prod,
)
# expect: True True minitorch.tensor True


class WrongExp(minitorch.Function):
    @staticmethod
    def forward(ctx, t1):
        ctx.save_for_backward(t1)
        return t1.f.exp_map(t1)

    @staticmethod
    def backward(ctx, grad_output):
        (t1,) = ctx.saved_values
        # exp's derivative is exp(x), not x: grad_check must say so.
        return grad_output.f.mul_zip(grad_output, t1)


try:
    grad_check(lambda a: WrongExp.apply(a), tensor([[0.5, 1.5, 2.5]]))
    print("wrong backward passed")
except AssertionError as e:
    print("wrong backward caught:", str(e).strip().split("\n")[0])
# expect: wrong backward caught: Not equal to tolerance rtol=0.01, atol=0.01


class Inner(minitorch.Module):
    def __init__(self) -> None:
        super().__init__()
        self.bias = minitorch.Parameter(tensor([0.5, -0.5]))

    def forward(self, x):
        return x + self.bias.value


class Net(minitorch.Module):
    def __init__(self) -> None:
        super().__init__()
        self.weight = minitorch.Parameter(tensor([[1.0, 2.0], [3.0, 4.0]]))
        self.inner = Inner()
        self.scale = 3

    def forward(self, x):
        return self.inner((self.weight.value * x).sum(1).view(2))


net = Net()
net.eval()
print([name for name, _ in net.named_parameters()], net.training, net.inner.training, net.scale)
# expect: ['weight', 'inner.bias'] False False 3
net.train()
y = net(tensor([[2.0, -1.0]]))
y.sum().backward()
print("net", [float(v) for v in y.to_numpy().tolist()], net.training, net.inner.training)
# expect: net [0.5, 1.5] True True
print("grads", net.weight.value.grad.to_numpy().tolist(), net.inner.bias.value.grad.to_numpy().tolist())
# expect: grads [[2.0, -1.0], [2.0, -1.0]] [1.0, 1.0]
