# A student's own Module 3 run end to end on MiniTorch's float64 numpy storages: the Module 2
# files of student_module2.mt (TensorData's float64 storage, its shape and strides numpy int
# arrays; a `to_cuda_` added, which CudaOps' `cuda = True` calls), fast_ops.py (Tasks 3.1-3.2:
# `njit` kernels compiled on those arrays) and cuda_ops.py (Tasks 3.3-3.4 in the shape of
# MiniTorch's: `cuda.jit` kernels with local index arrays, a shared-memory tree reduction, the
# practice kernels, a tiled batched matmul), then the same tensors through SimpleBackend,
# TensorBackend(FastOps) and TensorBackend(CudaOps): maps, broadcast zips, reductions, matmuls,
# gradients, the practice kernels on numpy arrays and a few steps of training. Where there is no
# GPU, cuda.jit kernels run in a simulator (the kernel's own; Numba's under
# NUMBA_ENABLE_CUDASIM=1). The expectations are what CPython with Numba's simulator prints for
# the same files in a real package, but for the last cell's, which are the kernel's own words.
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

    def to_cuda_(self) -> None:
        # MiniTorch moves the storage with numba.cuda.to_device. It stays a host numpy array
        # here: a cuda.jit launch copies a numpy argument to the device and back (Numba's rule),
        # so that get, set and to_numpy read it on the host on every backend, and Numba's
        # simulator (whose device arrays are a type of their own) runs the same code.
        assert isinstance(self._storage, np.ndarray)

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


# %%
%%minitorch_file fast_ops.py
from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numba import njit as _njit
from numba import prange

from .tensor_data import MAX_DIMS, broadcast_index, index_to_position, shape_broadcast, to_index
from .tensor_ops import MapProto, TensorOps

if TYPE_CHECKING:
    from typing import Callable, Optional

    from .tensor import Tensor
    from .tensor_data import Shape, Storage, Strides

Fn = TypeVar("Fn")


def njit(fn: Fn, **kwargs: Any) -> Fn:
    return _njit(inline="always", **kwargs)(fn)  # type: ignore


to_index = njit(to_index)
index_to_position = njit(index_to_position)
broadcast_index = njit(broadcast_index)


class FastOps(TensorOps):
    @staticmethod
    def map(fn: Callable[[float], float]) -> MapProto:
        kernel = tensor_map(njit(fn))

        def apply(a: Tensor, out: Optional[Tensor] = None) -> Tensor:
            if out is None:
                out = a.zeros(a.shape)
            kernel(*out.tuple(), *a.tuple())
            return out

        return apply

    @staticmethod
    def zip(fn: Callable[[float, float], float]) -> Callable[[Tensor, Tensor], Tensor]:
        kernel = tensor_zip(njit(fn))

        def apply(a: Tensor, b: Tensor) -> Tensor:
            out = a.zeros(shape_broadcast(a.shape, b.shape))
            kernel(*out.tuple(), *a.tuple(), *b.tuple())
            return out

        return apply

    @staticmethod
    def reduce(
        fn: Callable[[float, float], float], start: float = 0.0
    ) -> Callable[[Tensor, int], Tensor]:
        kernel = tensor_reduce(njit(fn))

        def apply(a: Tensor, dim: int) -> Tensor:
            shape = list(a.shape)
            shape[dim] = 1
            out = a.zeros(tuple(shape))
            out._tensor._storage[:] = start
            kernel(*out.tuple(), *a.tuple(), dim)
            return out

        return apply

    @staticmethod
    def matrix_multiply(a: Tensor, b: Tensor) -> Tensor:
        squeeze = len(a.shape) == 2 and len(b.shape) == 2
        if len(a.shape) == 2:
            a = a.contiguous().view(1, a.shape[0], a.shape[1])
        if len(b.shape) == 2:
            b = b.contiguous().view(1, b.shape[0], b.shape[1])
        shape = list(shape_broadcast(a.shape[:-2], b.shape[:-2])) + [a.shape[-2], b.shape[-1]]
        out = a.zeros(tuple(shape))
        tensor_matrix_multiply(*out.tuple(), *a.tuple(), *b.tuple())
        if squeeze:
            out = out.view(out.shape[1], out.shape[2])
        return out


def tensor_map(fn: Callable[[float], float]) -> Any:
    def _map(out: Storage, out_shape: Shape, out_strides: Strides,
             in_storage: Storage, in_shape: Shape, in_strides: Strides) -> None:
        for i in prange(len(out)):
            oi = np.zeros(MAX_DIMS, np.int32)
            ii = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, oi)
            broadcast_index(oi, out_shape, in_shape, ii)
            x = in_storage[index_to_position(ii, in_strides)]
            out[index_to_position(oi, out_strides)] = fn(x)

    return njit(_map, parallel=True)


def tensor_zip(fn: Callable[[float, float], float]) -> Any:
    def _zip(out: Storage, out_shape: Shape, out_strides: Strides,
             a: Storage, a_shape: Shape, a_strides: Strides,
             b: Storage, b_shape: Shape, b_strides: Strides) -> None:
        for i in prange(len(out)):
            oi = np.zeros(MAX_DIMS, np.int32)
            ai = np.zeros(MAX_DIMS, np.int32)
            bi = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, oi)
            broadcast_index(oi, out_shape, a_shape, ai)
            broadcast_index(oi, out_shape, b_shape, bi)
            x = a[index_to_position(ai, a_strides)]
            y = b[index_to_position(bi, b_strides)]
            out[index_to_position(oi, out_strides)] = fn(x, y)

    return njit(_zip, parallel=True)


def tensor_reduce(fn: Callable[[float, float], float]) -> Any:
    def _reduce(out: Storage, out_shape: Shape, out_strides: Strides,
                a: Storage, a_shape: Shape, a_strides: Strides, dim: int) -> None:
        for i in prange(len(out)):
            oi = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, oi)
            o = index_to_position(oi, out_strides)
            start = index_to_position(oi, a_strides)
            acc = out[o]
            for s in range(a_shape[dim]):
                acc = fn(acc, a[start + s * a_strides[dim]])
            out[o] = acc

    return njit(_reduce, parallel=True)


def _tensor_matrix_multiply(out: Storage, out_shape: Shape, out_strides: Strides,
                            a: Storage, a_shape: Shape, a_strides: Strides,
                            b: Storage, b_shape: Shape, b_strides: Strides) -> None:
    a_batch = a_strides[0] if a_shape[0] > 1 else 0
    b_batch = b_strides[0] if b_shape[0] > 1 else 0
    for n in prange(out_shape[0]):
        for i in range(out_shape[1]):
            for j in range(out_shape[2]):
                acc = 0.0
                for k in range(a_shape[2]):
                    acc += a[n * a_batch + i * a_strides[1] + k * a_strides[2]] * b[
                        n * b_batch + k * b_strides[1] + j * b_strides[2]
                    ]
                out[n * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc


tensor_matrix_multiply = njit(_tensor_matrix_multiply, parallel=True)
# %%
%%minitorch_file cuda_ops.py
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

import numba
from numba import cuda

from .tensor_data import (
    MAX_DIMS,
    TensorData,
    broadcast_index,
    index_to_position,
    shape_broadcast,
    to_index,
)
from .tensor_ops import MapProto, TensorOps

if TYPE_CHECKING:
    from .tensor import Tensor
    from .tensor_data import Shape, Storage, Strides

device_jit = cuda.jit(device=True)
jit = cuda.jit

# The index functions of tensor_data.py, compiled into every kernel that calls them.
to_index = device_jit(to_index)
index_to_position = device_jit(index_to_position)
broadcast_index = device_jit(broadcast_index)

THREADS_PER_BLOCK = 32


class CudaOps(TensorOps):
    cuda = True

    @staticmethod
    def map(fn: Callable[[float], float]) -> MapProto:
        f = tensor_map(device_jit(fn))

        def ret(a: Tensor, out: Optional[Tensor] = None) -> Tensor:
            if out is None:
                out = a.zeros(a.shape)
            # One thread per output element, the last block partly idle.
            blocks = (out.size + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK
            f[blocks, THREADS_PER_BLOCK](*out.tuple(), out.size, *a.tuple())
            return out

        return ret

    @staticmethod
    def zip(fn: Callable[[float, float], float]) -> Callable[[Tensor, Tensor], Tensor]:
        f = tensor_zip(device_jit(fn))

        def ret(a: Tensor, b: Tensor) -> Tensor:
            out = a.zeros(shape_broadcast(a.shape, b.shape))
            blocks = (out.size + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK
            f[blocks, THREADS_PER_BLOCK](*out.tuple(), out.size, *a.tuple(), *b.tuple())
            return out

        return ret

    @staticmethod
    def reduce(
        fn: Callable[[float, float], float], start: float = 0.0
    ) -> Callable[[Tensor, int], Tensor]:
        f = tensor_reduce(device_jit(fn))

        def ret(a: Tensor, dim: int) -> Tensor:
            out_shape = list(a.shape)
            out_shape[dim] = 1
            out = a.zeros(tuple(out_shape))
            # One block per output element; its threads share the reduced dim.
            f[out.size, THREADS_PER_BLOCK](*out.tuple(), out.size, *a.tuple(), dim, start)
            return out

        return ret

    @staticmethod
    def matrix_multiply(a: Tensor, b: Tensor) -> Tensor:
        both_2d = len(a.shape) == 2 and len(b.shape) == 2
        if len(a.shape) == 2:
            a = a.contiguous().view(1, a.shape[0], a.shape[1])
        if len(b.shape) == 2:
            b = b.contiguous().view(1, b.shape[0], b.shape[1])
        assert a.shape[-1] == b.shape[-2]
        shape = list(shape_broadcast(a.shape[:-2], b.shape[:-2]))
        shape.append(a.shape[-2])
        shape.append(b.shape[-1])
        out = a.zeros(tuple(shape))
        # A block per tile of the output's rows and columns, blockIdx.z the batch.
        blocks = (
            (out.shape[1] + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK,
            (out.shape[2] + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK,
            out.shape[0],
        )
        threads = (THREADS_PER_BLOCK, THREADS_PER_BLOCK, 1)
        tensor_matrix_multiply[blocks, threads](*out.tuple(), out.size, *a.tuple(), *b.tuple())
        if both_2d:
            out = out.view(out.shape[1], out.shape[2])
        return out


def tensor_map(fn: Callable[[float], float]) -> Any:
    def _map(
        out: Storage,
        out_shape: Shape,
        out_strides: Strides,
        out_size: int,
        in_storage: Storage,
        in_shape: Shape,
        in_strides: Strides,
    ) -> None:
        out_index = cuda.local.array(MAX_DIMS, numba.int32)
        in_index = cuda.local.array(MAX_DIMS, numba.int32)
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < out_size:
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            x = in_storage[index_to_position(in_index, in_strides)]
            out[index_to_position(out_index, out_strides)] = fn(x)

    return jit(_map)


def tensor_zip(fn: Callable[[float, float], float]) -> Any:
    def _zip(
        out: Storage,
        out_shape: Shape,
        out_strides: Strides,
        out_size: int,
        a_storage: Storage,
        a_shape: Shape,
        a_strides: Strides,
        b_storage: Storage,
        b_shape: Shape,
        b_strides: Strides,
    ) -> None:
        out_index = cuda.local.array(MAX_DIMS, numba.int32)
        a_index = cuda.local.array(MAX_DIMS, numba.int32)
        b_index = cuda.local.array(MAX_DIMS, numba.int32)
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < out_size:
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            x = a_storage[index_to_position(a_index, a_strides)]
            y = b_storage[index_to_position(b_index, b_strides)]
            out[index_to_position(out_index, out_strides)] = fn(x, y)

    return jit(_zip)


def _sum_practice(out: Storage, a: Storage, size: int) -> None:
    """Sums each block's 32 elements of `a` into out[blockIdx.x], through shared memory."""
    BLOCK_DIM = 32
    cache = cuda.shared.array(BLOCK_DIM, numba.float64)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    pos = cuda.threadIdx.x
    if i < size:
        cache[pos] = a[i]
    else:
        cache[pos] = 0.0
    cuda.syncthreads()
    # Neighbours first: after the round of `step`, cache[pos] holds the sum of 2 * step
    # elements wherever pos is a multiple of 2 * step.
    step = 1
    while step < BLOCK_DIM:
        if pos % (2 * step) == 0:
            cache[pos] = cache[pos] + cache[pos + step]
        cuda.syncthreads()
        step = step * 2
    if pos == 0:
        out[cuda.blockIdx.x] = cache[0]


jit_sum_practice = jit(_sum_practice)


def sum_practice(a: Tensor) -> TensorData:
    (size,) = a.shape
    blocks = size // THREADS_PER_BLOCK + 1
    out = TensorData([0.0 for i in range(blocks)], (blocks,))
    out.to_cuda_()
    jit_sum_practice[blocks, THREADS_PER_BLOCK](out.tuple()[0], a._tensor._storage, size)
    return out


def tensor_reduce(fn: Callable[[float, float], float]) -> Any:
    def _reduce(
        out: Storage,
        out_shape: Shape,
        out_strides: Strides,
        out_size: int,
        a_storage: Storage,
        a_shape: Shape,
        a_strides: Strides,
        reduce_dim: int,
        reduce_value: float,
    ) -> None:
        BLOCK_DIM = 32
        cache = cuda.shared.array(BLOCK_DIM, numba.float64)
        out_index = cuda.local.array(MAX_DIMS, numba.int32)
        out_pos = cuda.blockIdx.x
        pos = cuda.threadIdx.x
        # Each thread folds every BLOCK_DIM-th element of its block's run along the dim, so
        # that a dim longer than the block needs no second launch ...
        acc = reduce_value
        if out_pos < out_size:
            to_index(out_pos, out_shape, out_index)
            # out_index is 0 along reduce_dim: the run's first element.
            first = index_to_position(out_index, a_strides)
            for j in range(pos, a_shape[reduce_dim], BLOCK_DIM):
                acc = fn(acc, a_storage[first + j * a_strides[reduce_dim]])
        cache[pos] = acc
        cuda.syncthreads()
        # ... then the block folds the partial results in halves: the lower half of the live
        # threads takes in the upper half's.
        half = BLOCK_DIM // 2
        while half > 0:
            if pos < half:
                cache[pos] = fn(cache[pos], cache[pos + half])
            cuda.syncthreads()
            half = half // 2
        if pos == 0 and out_pos < out_size:
            out[index_to_position(out_index, out_strides)] = cache[0]

    return jit(_reduce)


def _mm_practice(out: Storage, a: Storage, b: Storage, size: int) -> None:
    """out = a @ b for square row-major matrices of `size` < 32, in one block."""
    BLOCK_DIM = 32
    a_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    b_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    i = cuda.threadIdx.x
    j = cuda.threadIdx.y
    # Each element of a and b read from global memory once, by the thread of its position.
    if i < size and j < size:
        a_shared[i, j] = a[i * size + j]
        b_shared[i, j] = b[i * size + j]
    cuda.syncthreads()
    if i < size and j < size:
        acc = 0.0
        for k in range(size):
            acc += a_shared[i, k] * b_shared[k, j]
        out[i * size + j] = acc


jit_mm_practice = jit(_mm_practice)


def mm_practice(a: Tensor, b: Tensor) -> TensorData:
    (size, _) = a.shape
    out = TensorData([0.0 for i in range(size * size)], (size, size))
    out.to_cuda_()
    threads = (THREADS_PER_BLOCK, THREADS_PER_BLOCK)
    jit_mm_practice[1, threads](out.tuple()[0], a._tensor._storage, b._tensor._storage, size)
    return out


def _tensor_matrix_multiply(
    out: Storage,
    out_shape: Shape,
    out_strides: Strides,
    out_size: int,
    a_storage: Storage,
    a_shape: Shape,
    a_strides: Strides,
    b_storage: Storage,
    b_shape: Shape,
    b_strides: Strides,
) -> None:
    # A batch of size 1 broadcasts: every batch reads its one matrix.
    a_batch_stride = a_strides[0] if a_shape[0] > 1 else 0
    b_batch_stride = b_strides[0] if b_shape[0] > 1 else 0
    batch = cuda.blockIdx.z

    BLOCK_DIM = 32
    a_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    b_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)

    # This thread's output element out[batch, i, j] and its place in the tile.
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    j = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    pi = cuda.threadIdx.x
    pj = cuda.threadIdx.y

    inner = a_shape[2]
    acc = 0.0
    for t in range(0, inner, BLOCK_DIM):
        # Each thread copies one element of a's tile and one of b's; past the matrices' edges
        # a zero, so that the last, partial tile adds nothing and every shared cell is written.
        k = t + pj
        if i < a_shape[1] and k < inner:
            a_shared[pi, pj] = a_storage[
                batch * a_batch_stride + i * a_strides[1] + k * a_strides[2]
            ]
        else:
            a_shared[pi, pj] = 0.0
        k = t + pi
        if k < inner and j < b_shape[2]:
            b_shared[pi, pj] = b_storage[
                batch * b_batch_stride + k * b_strides[1] + j * b_strides[2]
            ]
        else:
            b_shared[pi, pj] = 0.0
        cuda.syncthreads()
        for kk in range(BLOCK_DIM):
            acc += a_shared[pi, kk] * b_shared[kk, pj]
        # No thread may overwrite the tiles while another still reads them.
        cuda.syncthreads()
    if i < out_shape[1] and j < out_shape[2]:
        out[batch * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc


tensor_matrix_multiply = jit(_tensor_matrix_multiply)
# %% three backends over the same values: SimpleBackend, and the student's FastOps and CudaOps
import random

import numpy as np

import minitorch
from minitorch import CudaOps, FastOps, SimpleBackend, Tensor, TensorBackend

FastTensorBackend = TensorBackend(FastOps)
CudaTensorBackend = TensorBackend(CudaOps)
BACKENDS = [("simple", SimpleBackend), ("fast", FastTensorBackend), ("cuda", CudaTensorBackend)]
print(FastTensorBackend.cuda, CudaTensorBackend.cuda, minitorch.cuda_ops.CudaOps is CudaOps)
# expect: False True True


def values(n, k):
    "n numbers in [-1.875, 1.875], repeating every 11, so that eq finds equal pairs."
    return [((i * 7 + k) % 11 - 5) * 0.375 for i in range(n)]


def make(n, k, shape, backend):
    return Tensor.make(values(n, k), shape, backend=backend)


def raw(t):
    "A tensor's values in the order of its indices, as Python floats."
    return [float(t[idx]) for idx in t._tensor.indices()]


def rounded(xs):
    return [round(x, 6) for x in xs]


def agree(xs, ys):
    return len(xs) == len(ys) and all(abs(x - y) <= 1e-9 for x, y in zip(xs, ys))


def inputs(backend):
    a = make(24, 1, (2, 3, 4), backend)
    return {
        "a": a,
        # a view of a's storage whose strides do not shrink: not contiguous
        "ap": a.permute(2, 0, 1),
        "col": make(3, 4, (3, 1), backend),
        "row": make(4, 2, (4,), backend),
        "q": make(6, 3, (2, 3), backend),
    }


CASES = [
    ("neg ap", lambda t: -t["ap"]),
    ("relu ap", lambda t: t["ap"].relu()),
    ("exp a", lambda t: t["a"].exp()),
    ("add a + row", lambda t: t["a"] + t["row"]),
    ("add col + row", lambda t: t["col"] + t["row"]),
    ("mul ap * q", lambda t: t["ap"] * t["q"]),
    ("lt a < col", lambda t: t["a"] < t["col"]),
    ("eq a == row", lambda t: t["a"] == t["row"]),
    ("eq ap == q", lambda t: t["ap"] == t["q"]),
    ("sum a 0", lambda t: t["a"].sum(0)),
    ("sum a 1", lambda t: t["a"].sum(1)),
    ("sum a 2", lambda t: t["a"].sum(2)),
    ("sum ap 0", lambda t: t["ap"].sum(0)),
    ("sum ap 2", lambda t: t["ap"].sum(2)),
    ("sum all", lambda t: t["ap"].sum()),
]
ins = [(name, inputs(b)) for name, b in BACKENDS]
print("ap", ins[0][1]["ap"].shape, ins[0][1]["ap"]._tensor.strides,
      ins[0][1]["ap"]._tensor.is_contiguous())
for label, f in CASES:
    results = [(name, f(t)) for name, t in ins]
    ref = raw(results[0][1])
    print(label, results[0][1].shape, rounded(ref))
    print("  ", [(name, r.shape == results[0][1].shape and agree(raw(r), ref))
                 for name, r in results[1:]])
# expect: ap (4, 2, 3) (1, 12, 4) False
# expect: neg ap (4, 2, 3) [1.5, -0.75, 1.125, -1.125, 0.75, -1.5, -1.125, 0.75, -1.5, 0.375, -1.875, -0.0, 0.375, -1.875, -0.0, 1.875, -0.375, 1.5, 1.875, -0.375, 1.5, -0.75, 1.125, -1.125]
# expect:    [('fast', True), ('cuda', True)]
# expect: relu ap (4, 2, 3) [0.0, 0.75, 0.0, 1.125, 0.0, 1.5, 1.125, 0.0, 1.5, 0.0, 1.875, 0.0, 0.0, 1.875, 0.0, 0.0, 0.375, 0.0, 0.0, 0.375, 0.0, 0.75, 0.0, 1.125]
# expect:    [('fast', True), ('cuda', True)]
# expect: exp a (2, 3, 4) [0.22313, 3.080217, 0.687289, 0.153355, 2.117, 0.472367, 6.520819, 1.454991, 0.324652, 4.481689, 1.0, 0.22313, 3.080217, 0.687289, 0.153355, 2.117, 0.472367, 6.520819, 1.454991, 0.324652, 4.481689, 1.0, 0.22313, 3.080217]
# expect:    [('fast', True), ('cuda', True)]
# expect: add a + row (2, 3, 4) [-2.625, 2.625, -0.375, -3.375, -0.375, 0.75, 1.875, -1.125, -2.25, 3.0, 0.0, -3.0, 0.0, 1.125, -1.875, -0.75, -1.875, 3.375, 0.375, -2.625, 0.375, 1.5, -1.5, -0.375]
# expect:    [('fast', True), ('cuda', True)]
# expect: add col + row (3, 4) [-1.5, 1.125, -0.375, -1.875, -3.0, -0.375, -1.875, -3.375, -0.375, 2.25, 0.75, -0.75]
# expect:    [('fast', True), ('cuda', True)]
# expect: mul ap * q (4, 2, 3) [1.125, 1.40625, -0.421875, -1.265625, -1.125, 0.0, -0.84375, -1.40625, 0.5625, 0.421875, 2.8125, 0.0, 0.28125, 3.515625, 0.0, 2.109375, 0.5625, -0.0, 1.40625, 0.703125, -0.5625, -0.84375, -1.6875, 0.0]
# expect:    [('fast', True), ('cuda', True)]
# expect: lt a < col (2, 3, 4) [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0]
# expect:    [('fast', True), ('cuda', True)]
# expect: eq a == row (2, 3, 4) [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
# expect:    [('fast', True), ('cuda', True)]
# expect: eq ap == q (4, 2, 3) [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
# expect:    [('fast', True), ('cuda', True)]
# expect: sum a 0 (1, 3, 4) [-0.375, 0.75, -2.25, -1.125, 0.0, 1.125, 2.25, -0.75, 0.375, 1.5, -1.5, -0.375]
# expect:    [('fast', True), ('cuda', True)]
# expect: sum a 1 (2, 1, 4) [-1.875, 1.875, 1.5, -3.0, 1.875, 1.5, -3.0, 0.75]
# expect:    [('fast', True), ('cuda', True)]
# expect: sum a 2 (2, 3, 1) [-2.625, 2.25, -1.125, -0.375, 0.375, 1.125]
# expect:    [('fast', True), ('cuda', True)]
# expect: sum ap 0 (1, 2, 3) [-2.625, 2.25, -1.125, -0.375, 0.375, 1.125]
# expect:    [('fast', True), ('cuda', True)]
# expect: sum ap 2 (4, 2, 1) [-1.875, 1.875, 1.875, 1.5, 1.5, -3.0, -3.0, 0.75]
# expect:    [('fast', True), ('cuda', True)]
# expect: sum all (1,) [-0.375]
# expect:    [('fast', True), ('cuda', True)]
# %% matmul on fast and cuda against the definition (SimpleOps has none, as in MiniTorch)
def mm_ref(x, y):
    "x @ y by the definition, a batch of size 1 (or a 2-d operand) read by every batch."

    def at(t, b, i, j):
        if len(t.shape) == 2:
            return float(t[i, j])
        return float(t[b if t.shape[0] > 1 else 0, i, j])

    nb = 1
    for t in (x, y):
        if len(t.shape) == 3 and t.shape[0] > nb:
            nb = t.shape[0]
    out = []
    for b in range(nb):
        for i in range(x.shape[-2]):
            for j in range(y.shape[-1]):
                acc = 0.0
                for k in range(x.shape[-1]):
                    acc += at(x, b, i, k) * at(y, b, k, j)
                out.append(acc)
    return out


MM_CASES = [
    ("2-d (3, 4) @ (4, 2)", lambda B: (make(12, 5, (3, 4), B), make(8, 6, (4, 2), B))),
    ("3-d (2, 3, 4) @ (1, 4, 5)", lambda B: (make(24, 1, (2, 3, 4), B), make(20, 2, (1, 4, 5), B))),
    ("3-d (1, 2, 3) @ (3, 3, 2)", lambda B: (make(6, 7, (1, 2, 3), B), make(18, 3, (3, 3, 2), B))),
    ("3-d @ 2-d (2, 3, 4) @ (4, 2)", lambda B: (make(24, 1, (2, 3, 4), B), make(8, 6, (4, 2), B))),
    # a's last two dims swapped: a view whose strides do not shrink
    (
        "transposed (2, 4, 3) @ (3, 2)",
        lambda B: (make(24, 1, (2, 3, 4), B).permute(0, 2, 1), make(6, 9, (3, 2), B)),
    ),
    # the shared dim over two tiles of 32; the rows over two blocks
    ("2-d (2, 40) @ (40, 3)", lambda B: (make(80, 3, (2, 40), B), make(120, 8, (40, 3), B))),
    ("2-d (33, 2) @ (2, 3)", lambda B: (make(66, 4, (33, 2), B), make(6, 1, (2, 3), B))),
]
for label, args in MM_CASES:
    ref = mm_ref(*args(SimpleBackend))
    x, y = args(FastTensorBackend)
    fast = x @ y
    x, y = args(CudaTensorBackend)
    cu = x @ y
    print(label, fast.shape, rounded(ref[:12]), len(ref))
    print("  ", [("fast", agree(raw(fast), ref)),
                 ("cuda", cu.shape == fast.shape and agree(raw(cu), ref))])
# expect: 2-d (3, 4) @ (4, 2) (3, 2) [-3.796875, 1.96875, 0.84375, -2.25, -3.796875, 1.265625] 6
# expect:    [('fast', True), ('cuda', True)]
# expect: 3-d (2, 3, 4) @ (1, 4, 5) (2, 3, 5) [-0.984375, -3.234375, 3.796875, 0.0, 2.390625, 0.5625, 0.28125, 1.546875, -0.28125, -3.65625, -0.984375, -3.9375] 30
# expect:    [('fast', True), ('cuda', True)]
# expect: 3-d (1, 2, 3) @ (3, 3, 2) (3, 2, 2) [1.96875, 2.25, 1.546875, 1.96875, 0.5625, 0.84375, 0.984375, 1.40625, 2.25, -3.65625, 1.96875, -3.796875] 12
# expect:    [('fast', True), ('cuda', True)]
# expect: 3-d @ 2-d (2, 3, 4) @ (4, 2) (2, 3, 2) [2.390625, 4.78125, -3.796875, 0.5625, 2.390625, 4.078125, 2.390625, -4.78125, 2.390625, 3.375, 2.390625, -5.484375] 12
# expect:    [('fast', True), ('cuda', True)]
# expect: transposed (2, 4, 3) @ (3, 2) (2, 4, 2) [-2.953125, 2.953125, 2.25, -3.65625, -3.375, 2.109375, -2.8125, 3.234375, 2.25, -3.65625, -3.375, 2.109375] 16
# expect:    [('fast', True), ('cuda', True)]
# expect: 2-d (2, 40) @ (40, 3) (2, 3) [-2.8125, -18.84375, 23.90625, -15.1875, 24.890625, -13.921875] 6
# expect:    [('fast', True), ('cuda', True)]
# expect: 2-d (33, 2) @ (2, 3) (33, 3) [4.078125, -1.828125, 1.546875, 0.28125, 0.28125, 0.28125, -3.515625, 2.390625, -0.984375, -1.125, -0.140625, -0.703125] 99
# expect:    [('fast', True), ('cuda', True)]
# %% gradients: an expression on all three backends, then matmul's on fast and cuda
def expression(backend):
    x = make(6, 1, (2, 3), backend)
    y = make(3, 2, (3,), backend)
    x.requires_grad_(True)
    y.requires_grad_(True)
    z = (x * y).relu() + (x.permute(1, 0) * 0.5).exp().permute(1, 0) - y.sigmoid()
    loss = (z * z).sum(1).sum() + (x * x + 1.0).log().mean()
    loss.backward()
    return [float(loss[0])], raw(x.grad), raw(y.grad)


results = [(name, expression(b)) for name, b in BACKENDS]
loss, dx, dy = results[0][1]
print("loss", rounded(loss), "x.grad", rounded(dx), "y.grad", rounded(dy))
print("  ", [(name, all(agree(g, h) for g, h in zip(r, results[0][1]))) for name, r in results[1:]])
# expect: loss [19.650126] x.grad [-3.557626, 12.647441, 0.163186, -4.330752, 8.011552, -0.031278] y.grad [-15.747257, 7.241101, -0.258159]
# expect:    [('fast', True), ('cuda', True)]


def matmul_grads(backend):
    x = make(6, 5, (2, 3), backend)
    x3 = make(12, 6, (2, 2, 3), backend)
    w = make(12, 3, (3, 4), backend)
    for t in (x, x3, w):
        t.requires_grad_(True)
    ((x @ w).sum() + (x3 @ w).exp().sum() * 0.25).backward()
    return raw(x.grad), raw(x3.grad), raw(w.grad)


# d/dx of sum(x @ w) is w's row sums at every row of x; the other gradients, which the exp
# term enters, are checked by agreement between the backends.
ws = make(12, 3, (3, 4), SimpleBackend)
w_rows = [sum(float(ws[k, j]) for j in range(4)) for k in range(3)]
print("x.grad by hand", rounded(w_rows * 2))
# expect: x.grad by hand [0.375, 1.125, -2.25, 0.375, 1.125, -2.25]
fast = matmul_grads(FastTensorBackend)
cu = matmul_grads(CudaTensorBackend)
print("fast x.grad", rounded(fast[0]), agree(fast[0], w_rows * 2))
print("fast x3.grad", rounded(fast[1]))
print("fast w.grad", rounded(fast[2]))
print("cuda agrees", [agree(g, h) for g, h in zip(cu, fast)])
# expect: fast x.grad [0.375, 1.125, -2.25, 0.375, 1.125, -2.25] True
# expect: fast x3.grad [1.821847, -7.140432, 3.517994, 2.089621, -8.22407, 4.05792, 2.396321, -9.469273, 4.67846, -8.767086, 13.567779, -5.13854]
# expect: fast w.grad [-5.13389, -0.397746, -0.96983, -3.091827, 8.450348, -3.454612, -28.911381, 3.310308, 4.315895, 1.988732, 20.032782, 3.295947]
# expect: cuda agrees [True, True, True]
# %% the practice kernels launched directly on numpy float64 arrays, then as the course does
from minitorch import cuda_ops

a = np.array(values(40, 3), dtype=np.float64)
out = np.zeros(2, np.float64)
cuda_ops.jit_sum_practice[2, 32](out, a, 40)
print("sum_practice", out.tolist(), [sum(values(40, 3)[:32]), sum(values(40, 3)[32:])])
# expect: sum_practice [-0.75, 1.125] [-0.75, 1.125]
size = 5
a = np.array(values(25, 2), dtype=np.float64)
b = np.array(values(25, 6), dtype=np.float64)
out = np.zeros(25, np.float64)
cuda_ops.jit_mm_practice[1, (32, 32)](out, a, b, size)
expected = [
    sum(float(a[i * size + k]) * float(b[k * size + j]) for k in range(size))
    for i in range(size)
    for j in range(size)
]
print("mm_practice", rounded(out.tolist()))
print("  ", agree(out.tolist(), expected))
# expect: mm_practice [2.671875, 1.125, -3.515625, 2.671875, 1.125, -1.125, 4.078125, 3.09375, -0.984375, 4.21875, 2.8125, -2.25, 0.421875, 3.09375, -1.96875, -4.078125, -2.390625, 3.9375, -3.65625, -1.96875, -3.234375, -0.984375, 2.8125, -4.21875, -1.96875]
# expect:    True
t = make(40, 3, (40,), CudaTensorBackend)
print("sum_practice(t)", cuda_ops.sum_practice(t)._storage.tolist())
ta, tb = make(25, 2, (5, 5), CudaTensorBackend), make(25, 6, (5, 5), CudaTensorBackend)
print("mm_practice(a, b)", agree(cuda_ops.mm_practice(ta, tb)._storage.tolist(), expected))
# expect: sum_practice(t) [-0.75, 1.125]
# expect: mm_practice(a, b) True
# %% run_fast_tensor's Network on each backend: a few steps of gradient descent
POINTS = [[0.1, 0.9], [0.8, 0.2], [0.3, 0.4], [0.9, 0.7], [0.2, 0.1], [0.6, 0.8]]
LABELS = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]


class Linear(minitorch.Module):
    def __init__(self, in_size, out_size, backend):
        super().__init__()
        r = minitorch.rand((in_size, out_size), backend=backend) - 0.5
        self.weights = minitorch.Parameter(r)
        self.bias = minitorch.Parameter(minitorch.zeros((out_size,), backend=backend) + 0.1)
        self.out_size = out_size
        self.backend = backend

    def forward(self, x):
        batch, in_size = x.shape
        if self.backend is SimpleBackend:
            # Module 2's form, the products summed over the shared dim: SimpleOps has no matmul.
            w = self.weights.value.view(1, in_size, self.out_size)
            prod = (x.view(batch, in_size, 1) * w).sum(1)
            return prod.view(batch, self.out_size) + self.bias.value
        return x.view(batch, in_size) @ self.weights.value + self.bias.value


class Network(minitorch.Module):
    def __init__(self, hidden, backend):
        super().__init__()
        self.layer1 = Linear(2, hidden, backend)
        self.layer2 = Linear(hidden, 1, backend)

    def forward(self, x):
        return self.layer2.forward(self.layer1.forward(x).relu()).sigmoid()


def train(backend, steps=3, rate=0.5):
    random.seed(7)
    model = Network(3, backend)
    X = minitorch.tensor(POINTS, backend=backend)
    y = minitorch.tensor(LABELS, backend=backend)
    losses = []
    for step in range(steps):
        for p in model.parameters():
            p.value.grad = None
        out = model.forward(X).view(y.shape[0])
        prob = (out * y) + (out - 1.0) * (y - 1.0)
        loss = -prob.log()
        (loss / y.shape[0]).sum().view(1).backward()
        losses.append(float(loss.sum().view(1)[0]))
        for p in model.parameters():
            p.update(p.value - rate * p.value.grad)
    return losses, [raw(p.value) for p in model.parameters()]


trained = [(name, train(b)) for name, b in BACKENDS]
for name, (losses, params) in trained:
    print(name, "losses", rounded(losses))
# expect: simple losses [4.117017, 4.092639, 4.075459]
# expect: fast losses [4.117017, 4.092639, 4.075459]
# expect: cuda losses [4.117017, 4.092639, 4.075459]
simple_losses, simple_params = trained[0][1]
print("losses and weights agree with simple", [
    (name, agree(losses, simple_losses)
     and all(agree(p, q) for p, q in zip(params, simple_params)))
    for name, (losses, params) in trained[1:]
])
# expect: losses and weights agree with simple [('fast', True), ('cuda', True)]
# %% the kernel's own words, which only it prints (CPython prints Numba's report instead): the
# `_map` FastOps.map makes, compiled to native code on MiniTorch's float64 storages
from minitorch import fast_ops, operators

neg = fast_ops.tensor_map(fast_ops.njit(operators.neg))
t = make(6, 1, (2, 3), FastTensorBackend).permute(1, 0)
o = t.zeros(t.shape)
neg(*o.tuple(), *t.tuple())
print(raw(o))
# expect: [1.5, 1.875, -1.125, -0.75, 0.375, 0.75]
neg.parallel_diagnostics(level=1)
# expect: _map(float64 array, int array, int array, float64 array, int array, int array): compiled to native code
# expect-re:   parallel: the prange loop \(line 3 of _map\)
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect-re:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int) oi (32 ints) ii (32 ints) x (float)
# expect:   arrays every iteration shares: out (float64 array, an argument: written at positions that follow from the loop's variable), out_shape (int array, an argument: not written in the loop), out_strides (int array, an argument: not written in the loop), in_storage (float64 array, an argument: not written in the loop), in_shape (int array, an argument: not written in the loop), in_strides (int array, an argument: not written in the loop)
# expect-re:   index buffers made in the loop .*
# expect:   compiled in and inlined, each for the types it is called with: to_index() broadcast_index() index_to_position() neg()
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect-re:   integers: .*
