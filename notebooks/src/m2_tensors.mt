# %% [markdown]
# # Module 2 · Tensors
#
# Module 1 differentiated one number at a time: a network of a hundred weights built a graph of
# thousands of `Scalar`s for every point. Module 2 replaces the numbers by *tensors*, arrays of
# any number of dimensions, and the graph's nodes by whole-array operations: a layer is a
# handful of tensor operations whatever its size.
#
# You write four of MiniTorch's files here, as in the earlier modules, each in a
# `%%minitorch_file` cell that makes it the module `minitorch.NAME`:
#
# - `tensor_data.py`: how a tensor's numbers are laid out in memory (Task 2.1) and how two
#   shapes combine (Task 2.2, broadcasting);
# - `tensor_ops.py`: `map`, `zip` and `reduce` over whole tensors, the three loops every
#   operation is made of (Task 2.3);
# - `tensor_functions.py`: each differentiable operation, its forward (Task 2.3) and its
#   backward (Task 2.4);
# - `tensor.py`, the `Tensor` class, is given: you read it, and it calls your code.
#
# Task 2.5 then trains a network of tensors. Your code goes where the template raises
# `NotImplementedError()`; the cells that call `check` are the graded tests, each running the
# course's tests of one function on inputs drawn afresh, and saying for a failure the smallest
# input that fails, what was expected and what your code gave.
#
# The files import each other (`tensor.py` from `tensor_functions.py`, which imports
# `tensor_ops.py`, which imports `tensor_data.py`), as in Python: after you change a file, run
# its cell **and the file cells below it** again, so that they import the new definitions.
#
# First, Module 1's `autodiff.py`, given: `Context`, in which a function's forward keeps what
# its backward needs, and `backpropagate`, which runs the backwards through the graph. The
# operations on numbers are the kernel's `minitorch.operators` (yours of Module 0 if you run
# your `operators.py` cell first).

# %% file kernel/lib/minitorch/autodiff.py

# %% [markdown]
# ## Task 2.1: storage, shape and strides
#
# A tensor keeps its numbers in one flat array, its *storage*, and finds an element from its
# index with its *strides*: stride `k` is how far apart in storage two elements are whose
# indices differ by one in dimension `k`. The element at index `(i, j)` of a tensor with strides
# `(s0, s1)` is at position `i * s0 + j * s1`. A tensor of shape `(2, 3)` laid out row after
# row has strides `(3, 1)`; `strides_from_shape` (given) makes these *contiguous* strides.
#
# Strides are what make a view cheap: `permute` reorders a tensor's dimensions without moving a
# number, by reordering its shape and its strides alike, and the new tensor shares the storage.
#
# Write, in the cell below:
#
# - `index_to_position(index, strides)`: the storage position of an index;
# - `to_index(ordinal, shape, out_index)`: the index of the `ordinal`-th element when the
#   elements of `shape` are counted in order, the last dimension fastest (as a contiguous
#   storage holds them): for shape `(2, 3)`, ordinals 0, 1, 2, 3 are `(0, 0)`, `(0, 1)`,
#   `(0, 2)`, `(1, 0)`. It writes the index into `out_index` and returns nothing (the course's
#   kernels call it in a loop, and Module 3 compiles them, so it must not make a new list);
# - `TensorData.permute(*order)`: a `TensorData` over the same storage, whose dimension `k` is
#   dimension `order[k]` of this one.
#
# The same cell holds Task 2.2's functions, `broadcast_index` and `shape_broadcast`; leave them
# for now.

# %%
%%minitorch_file tensor_data.py
"""How a tensor's numbers are laid out: storage, shape and strides, and broadcasting."""
from __future__ import annotations

import random
from typing import Iterable, Optional, Sequence, Tuple, Union

import numpy as np

from .operators import prod

MAX_DIMS = 32


class IndexingError(RuntimeError):
    """An index or a shape that does not fit the tensor."""


Storage = np.ndarray  # float64, flat
Index = np.ndarray  # int32, one entry per dim (also OutIndex, Shape, Strides)
UserIndex = Sequence[int]  # also UserShape, UserStrides
UserShape = Sequence[int]
UserStrides = Sequence[int]

# ## Task 2.1


def index_to_position(index: Index, strides: Index) -> int:
    """The position in storage of the element at `index`: the sum over the dims of index times
    stride."""
    ### BEGIN SOLUTION
    position = 0
    for i, s in zip(index, strides):
        position += i * s
    return position
    ### END SOLUTION


def to_index(ordinal: int, shape: Index, out_index: Index) -> None:
    """Writes into out_index the index of the ordinal-th element of `shape`, counting the last
    dim fastest (0 <= ordinal < the number of elements)."""
    ### BEGIN SOLUTION
    rest = ordinal
    for k in range(len(shape) - 1, -1, -1):
        out_index[k] = rest % shape[k]
        rest = rest // shape[k]
    ### END SOLUTION


# ## Task 2.2


def broadcast_index(big_index: Index, big_shape: Index, shape: Index, out_index: Index) -> None:
    """Writes into out_index the index, in the smaller `shape`, of the element that broadcasting
    reads for `big_index` of `big_shape`: shape's dims line up with big_shape's last ones, and
    a dim of size 1 is always read at 0."""
    ### BEGIN SOLUTION
    offset = len(big_shape) - len(shape)
    for k in range(len(shape)):
        out_index[k] = big_index[k + offset] if shape[k] > 1 else 0
    ### END SOLUTION


def shape_broadcast(shape1: UserShape, shape2: UserShape) -> UserShape:
    """The shape that shape1 and shape2 broadcast to, as a tuple; IndexingError when they do
    not: the shorter is padded with 1s on the left, and in each dim the sizes must be equal or
    one of them 1."""
    ### BEGIN SOLUTION
    n = max(len(shape1), len(shape2))
    a = [1] * (n - len(shape1)) + list(shape1)
    b = [1] * (n - len(shape2)) + list(shape2)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise IndexingError(f"shapes {tuple(shape1)} and {tuple(shape2)} do not broadcast")
        out.append(y if x == 1 else x)
    return tuple(out)
    ### END SOLUTION


def strides_from_shape(shape: UserShape) -> UserStrides:
    """The contiguous strides of shape: the last dim's 1, each other dim's the product of the
    sizes after it."""
    strides = [1]
    for size in reversed(shape[1:]):
        strides.insert(0, strides[0] * size)
    return tuple(strides)


class TensorData:
    """A tensor's numbers: the flat storage, and the shape and strides that lay it out."""

    def __init__(
        self,
        storage: Union[Sequence[float], Storage],
        shape: UserShape,
        strides: Optional[UserStrides] = None,
    ):
        if isinstance(storage, np.ndarray):
            self._storage = storage
        else:
            self._storage = np.array(storage, dtype=np.float64)
        if strides is None:
            strides = strides_from_shape(shape)
        assert isinstance(strides, tuple), "strides must be a tuple"
        assert isinstance(shape, tuple), "shape must be a tuple"
        if len(strides) != len(shape):
            raise IndexingError(f"strides {strides} do not fit shape {shape}")
        self._strides = np.array(strides, dtype=np.int32)
        self._shape = np.array(shape, dtype=np.int32)
        self.strides = strides
        self.shape = shape
        self.dims = len(strides)
        self.size = int(prod(shape))
        assert len(self._storage) == self.size

    def is_contiguous(self) -> bool:
        """Whether the strides never grow from one dim to the next (an outer dim steps farther
        than an inner one)."""
        last = 1e9
        for stride in self.strides:
            if stride > last:
                return False
            last = stride
        return True

    @staticmethod
    def shape_broadcast(shape_a: UserShape, shape_b: UserShape) -> UserShape:
        return shape_broadcast(shape_a, shape_b)

    def index(self, index: Union[int, UserIndex]) -> int:
        """The storage position of a user's index (an int for a 1-D tensor), checked."""
        if isinstance(index, int):
            index = (index,)
        if len(index) != len(self.shape):
            raise IndexingError(f"index {index} does not fit shape {self.shape}")
        for k in range(len(index)):
            if index[k] < 0 or index[k] >= self.shape[k]:
                raise IndexingError(f"index {index} is out of shape {self.shape}")
        return index_to_position(np.array(index, dtype=np.int32), self._strides)

    def indices(self) -> Iterable[UserIndex]:
        """Every index of the shape, the last dim fastest."""
        out_index = np.zeros(self.dims, dtype=np.int32)
        for i in range(self.size):
            to_index(i, self._shape, out_index)
            yield tuple(int(v) for v in out_index)

    def sample(self) -> UserIndex:
        """An index drawn at random."""
        return tuple(random.randint(0, s - 1) for s in self.shape)

    def get(self, key: UserIndex) -> float:
        return self._storage[self.index(key)]

    def set(self, key: UserIndex, val: float) -> None:
        self._storage[self.index(key)] = val

    def tuple(self) -> Tuple[Storage, Index, Index]:
        """What the low-level kernels take: storage, shape and strides."""
        return (self._storage, self._shape, self._strides)

    def permute(self, *order: int) -> TensorData:
        """The same storage with its dims reordered: dim k of the result is dim order[k] of this
        one, in its shape and in its strides."""
        assert sorted(order) == list(range(len(self.shape))), (
            f"order {order} must name each dim of shape {self.shape} once")
        ### BEGIN SOLUTION
        return TensorData(
            self._storage,
            tuple(self.shape[o] for o in order),
            tuple(self.strides[o] for o in order),
        )
        ### END SOLUTION

    def to_string(self) -> str:
        """The numbers as nested brackets, a row per line."""
        s = ""
        for index in self.indices():
            opened = ""
            for k in range(len(index) - 1, -1, -1):
                if index[k] != 0:
                    break
                opened = "\n" + "\t" * k + "[" + opened
            s += opened + f"{self.get(index):3.2f}"
            closed = ""
            for k in range(len(index) - 1, -1, -1):
                if index[k] != self.shape[k] - 1:
                    break
                closed += "]"
            s += closed if closed else " "
        return s
# %% [markdown]
# Your `TensorData` drawn. On the left a tensor of shape `(2, 3)` and its storage below it;
# on the right the same storage seen through `permute(1, 0)`, of shape `(3, 2)`. Each cell of a
# tensor says the storage position your `index_to_position` finds for it and has that storage
# cell's colour: the permuted tensor reads the same six cells, in another order. (The drawing
# is given code, in the next cell: SVG shown with `IPython.display.HTML`, scaled to the page.)

# %%
import numpy as np
from IPython.display import HTML, display, update_display

import minitorch
from minitorch.tensor_data import TensorData, broadcast_index, index_to_position, to_index

COLOURS = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69",
           "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"]


def box(x, y, w, h, fill, text, small=""):
    """An SVG cell at (x, y) with a number and, under it, a smaller line."""
    parts = [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" stroke="#333"/>',
             f'<text x="{x + w / 2}" y="{y + h / 2 + (0 if small else 5)}" font-size="14" '
             f'text-anchor="middle">{text}</text>']
    if small:
        parts.append(f'<text x="{x + w / 2}" y="{y + h / 2 + 16}" font-size="10" '
                     f'text-anchor="middle" fill="#333">{small}</text>')
    return parts


def label(x, y, text, size=13, anchor="start"):
    return f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}">{text}</text>'


def svg(width, height, parts):
    """The drawing, width x height pixels, or narrower with the page: scaled down to fit where
    the output area is narrower (an open side panel, a small window)."""
    return HTML(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}" style="max-width:100%;height:auto" '
                f'font-family="sans-serif">' + "".join(parts) + "</svg>")


def layout_parts(td, name, x0, y0):
    """A 2-D TensorData as a grid, each cell coloured as the storage cell it reads, and its
    storage below: the SVG parts and the height used."""
    w, h = 58, 44
    rows, cols = td.shape
    parts = [label(x0, y0 + 14, f"{name}: shape {tuple(td.shape)}, strides {tuple(td.strides)}")]
    for i in range(rows):
        for j in range(cols):
            p = index_to_position(np.array([i, j], dtype=np.int32), td._strides)
            v = td._storage[p]
            parts += box(x0 + j * w, y0 + 24 + i * h, w, h, COLOURS[p % len(COLOURS)],
                         f"{v:g}", f"({i},{j}) → {p}")
    y = y0 + 24 + rows * h + 18
    parts.append(label(x0, y + 14, "storage"))
    for k in range(len(td._storage)):
        parts += box(x0 + k * 40, y + 22, 40, 34, COLOURS[k % len(COLOURS)],
                     f"{td._storage[k]:g}", "")
        parts.append(label(x0 + k * 40 + 20, y + 70, str(k), 10, "middle"))
    return parts, y + 76 - y0


def layout_svg(a, b, name_a, name_b):
    """Two TensorDatas side by side, each with its storage."""
    pa, ha = layout_parts(a, name_a, 10, 4)
    pb, hb = layout_parts(b, name_b, 320, 4)
    return svg(640, max(ha, hb) + 10, pa + pb)

# %%
x = TensorData([float(v) for v in range(6)], (2, 3))
layout_svg(x, x.permute(1, 0), "x", "x.permute(1, 0)")

# %% [markdown]
# `to_index` counts the elements of a shape in order. Its indices, read at your positions, give
# the numbers of a contiguous tensor in storage order, and those of a permuted one in the order
# of its own shape (the transpose here):

# %%
def in_order(td):
    index = np.zeros(len(td.shape), dtype=np.int32)
    out = []
    for ordinal in range(td.size):
        to_index(ordinal, td._shape, index)
        position = index_to_position(index, td._strides)
        out.append((tuple(int(i) for i in index), td._storage[position]))
    return out


print(in_order(x))
print(in_order(x.permute(1, 0)))
y = TensorData([float(v) for v in range(24)], (2, 3, 4))
print("shape (2, 3, 4) permuted (2, 0, 1):", y.permute(2, 0, 1).shape, y.permute(2, 0, 1).strides)

# %% [markdown]
# The graded tests of Task 2.1, a cell for each function:

# %%
# NBGRADER_TESTS test_index_to_position 2
check("2.1", "index_to_position")

# %%
# NBGRADER_TESTS test_to_index 2
check("2.1", "to_index")

# %%
# NBGRADER_TESTS test_tensordata_permute 2
check("2.1", "permute")

# %% [markdown]
# ## Task 2.2: broadcasting
#
# Two tensors of different shapes combine element by element when their shapes *broadcast*:
# lined up from the right, each dimension is the same size in both or 1 in one of them (a
# missing dimension counts as 1). A dimension of size 1 is repeated along the other's: `a` of
# shape `(3, 1)` plus `b` of shape `(4,)` is a tensor of shape `(3, 4)` whose element `(i, j)` is
# `a[i, 0] + b[j]`. Nothing is copied: the loop that makes the result reads `a` and `b` at the
# index `broadcast_index` finds for each of its elements.
#
# Write `shape_broadcast(shape1, shape2)` (the shape they broadcast to, or an `IndexingError`)
# and `broadcast_index(big_index, big_shape, shape, out_index)` in the `tensor_data.py` cell
# above, and run it again.

# %% [markdown]
# Your broadcasting drawn: `a` of shape `(3, 1)`, `b` of shape `(4,)` and the result of shape
# `shape_broadcast((3, 1), (4,))`; each cell of the result says which element of `a` and of
# `b` your `broadcast_index` reads for it, and is coloured as that element of `a`.

# %%
from minitorch.tensor_data import shape_broadcast


def broadcast_svg(a_shape, b_shape):
    """The tensors of shapes a_shape and b_shape (up to 2 dims) and their broadcast result,
    each result cell labelled with the indices of a and b that it reads."""
    out_shape = shape_broadcast(a_shape, b_shape)
    w, h = 70, 44

    def as2(shape):
        return (1, shape[0]) if len(shape) == 1 else tuple(shape)

    parts, x0 = [], 10
    for name, shape in (("a", a_shape), ("b", b_shape)):
        rows, cols = as2(shape)
        parts.append(label(x0, 18, f"{name}: shape {tuple(shape)}"))
        for i in range(rows):
            for j in range(cols):
                idx = (i, j) if len(shape) == 2 else (j,)
                fill = COLOURS[(i * cols + j) % len(COLOURS)] if name == "a" else "#eeeeee"
                parts += box(x0 + j * 44, 28 + i * h, 44, h, fill, str(idx).replace(",)", ")"))
        x0 += max(cols * 44, 110) + 30
    rows, cols = as2(out_shape)
    parts.append(label(x0, 18, f"shape_broadcast: {tuple(out_shape)}"))
    a_rows, a_cols = as2(a_shape)
    big = np.array(out_shape, dtype=np.int32)
    for i in range(rows):
        for j in range(cols):
            index = np.array([i, j] if len(out_shape) == 2 else [j], dtype=np.int32)
            ai = np.zeros(len(a_shape), dtype=np.int32)
            bi = np.zeros(len(b_shape), dtype=np.int32)
            broadcast_index(index, big, np.array(a_shape, dtype=np.int32), ai)
            broadcast_index(index, big, np.array(b_shape, dtype=np.int32), bi)
            a_flat = ai[0] * a_cols + ai[1] if len(a_shape) == 2 else ai[0]
            parts += box(x0 + j * w, 28 + i * h, w, h, COLOURS[a_flat % len(COLOURS)],
                         f"a{tuple(int(v) for v in ai)}".replace(",)", ")"),
                         f"b{tuple(int(v) for v in bi)}".replace(",)", ")"))
    return svg(x0 + cols * w + 10, 40 + rows * h, parts)


broadcast_svg((3, 1), (4,))

# %%
broadcast_svg((2, 3), (1, 3))

# %% [markdown]
# Shapes that do not broadcast are an `IndexingError`:

# %%
print(shape_broadcast((5, 1, 4), (3, 1)), shape_broadcast((2, 3), (3,)))
try:
    shape_broadcast((2, 3), (2,))
except minitorch.IndexingError as e:
    print("IndexingError:", e)

# %% [markdown]
# The graded tests of Task 2.2:

# %%
# NBGRADER_TESTS test_shape_broadcast 2
check("2.2", "shape_broadcast")

# %%
# NBGRADER_TESTS test_broadcast_index 2
check("2.2", "broadcast_index")
# %% [markdown]
# ## Task 2.3: tensor operations
#
# Every operation on tensors is one of three loops over their elements, which `tensor_ops.py`
# writes once:
#
# - `tensor_map(fn)`: `out[i] = fn(in[i])` at every index `i` of `out` (`in` broadcast to `out`);
# - `tensor_zip(fn)`: `out[i] = fn(a[i], b[i])`, `a` and `b` broadcast to `out`;
# - `tensor_reduce(fn)`: folds one dimension, `reduce_dim`, of `a` into size 1:
#   `out[i] = fn(out[i], a[j])` for each `j` that differs from `i` only in that dim, `out`
#   filled beforehand with the fold's start value.
#
# Each returns a function over raw storage, shapes and strides (`out`, `out_shape`,
# `out_strides`, then the same of each input): walk the ordinals of `out` with `to_index`, find
# the input's index with `broadcast_index`, and both positions with `index_to_position`. Inputs
# may be laid out in any order (a permuted tensor): read storage only through positions.
# `SimpleOps` (given) turns them into functions of tensors, and `TensorBackend` (given) makes
# from those the backend a `Tensor` calls: `neg_map`, `add_zip`, `mul_reduce`, ... Run the cell
# again after Task 2.2: the kernels call your `tensor_data.py`.

# %%
%%minitorch_file tensor_ops.py
"""map, zip and reduce over tensors: the loops every tensor operation is made of."""
from __future__ import annotations

from typing import Any, Callable, Optional, Type

import numpy as np

from . import operators
from .tensor_data import broadcast_index, index_to_position, shape_broadcast, to_index


class TensorOps:
    """The three higher-order functions a backend is made from (and matrix_multiply, from
    Module 3 on)."""

    @staticmethod
    def map(fn: Callable[[float], float]) -> Callable:
        pass

    @staticmethod
    def cmap(fn: Callable[[float], float]) -> Callable:
        pass

    @staticmethod
    def zip(fn: Callable[[float, float], float]) -> Callable:
        pass

    @staticmethod
    def reduce(fn: Callable[[float, float], float], start: float = 0.0) -> Callable:
        pass

    @staticmethod
    def matrix_multiply(a: Any, b: Any) -> Any:
        raise NotImplementedError("matrix_multiply comes in Module 3")

    cuda = False


class TensorBackend:
    """The tensor functions a Tensor calls, made once from an ops class."""

    def __init__(self, ops: Type[TensorOps]):
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
    """The ops of tensor_map, tensor_zip and tensor_reduce below, as functions of tensors."""

    @staticmethod
    def map(fn: Callable[[float], float]) -> Callable:
        """fn_map(a, out=None): fn of each element of a, into out (which a broadcasts to) or
        into a new tensor of a's shape."""
        f = tensor_map(fn)

        def ret(a: Any, out: Optional[Any] = None) -> Any:
            if out is None:
                out = a.zeros(a.shape)
            f(*out.tuple(), *a.tuple())
            return out

        return ret

    @staticmethod
    def cmap(fn: Callable[[float], float]) -> Callable:
        return SimpleOps.map(fn)

    @staticmethod
    def zip(fn: Callable[[float, float], float]) -> Callable:
        """fn_zip(a, b): fn of the elements of a and b, broadcast to one shape."""
        f = tensor_zip(fn)

        def ret(a: Any, b: Any) -> Any:
            shape = a.shape if a.shape == b.shape else shape_broadcast(a.shape, b.shape)
            out = a.zeros(shape)
            f(*out.tuple(), *a.tuple(), *b.tuple())
            return out

        return ret

    @staticmethod
    def reduce(fn: Callable[[float, float], float], start: float = 0.0) -> Callable:
        """fn_reduce(a, dim): a folded along dim with fn from start; dim kept, of size 1."""
        f = tensor_reduce(fn)

        def ret(a: Any, dim: int) -> Any:
            out_shape = list(a.shape)
            out_shape[dim] = 1
            out = a.zeros(tuple(out_shape))
            out._tensor._storage[:] = start
            f(*out.tuple(), *a.tuple(), dim)
            return out

        return ret

    @staticmethod
    def matrix_multiply(a: Any, b: Any) -> Any:
        raise NotImplementedError("matrix_multiply comes in Module 3")

    is_cuda = False


# ## Task 2.3


def tensor_map(fn: Callable[[float], float]) -> Callable:
    """The loop of map over storages: _map(out, out_shape, out_strides, in_storage, in_shape,
    in_strides) sets every element of out to fn of the element of in that broadcasting reads
    for it (in_shape broadcasts to out_shape; either may be laid out in any order)."""

    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides) -> None:
        ### BEGIN SOLUTION
        out_index = np.zeros(len(out_shape), dtype=np.int32)
        in_index = np.zeros(len(in_shape), dtype=np.int32)
        for i in range(len(out)):
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])
        ### END SOLUTION

    return _map


def tensor_zip(fn: Callable[[float, float], float]) -> Callable:
    """The loop of zip over storages: _zip(out, out_shape, out_strides, a_storage, a_shape,
    a_strides, b_storage, b_shape, b_strides) sets every element of out to fn of the elements
    of a and b that broadcasting reads for it."""

    def _zip(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape,
             b_strides) -> None:
        ### BEGIN SOLUTION
        out_index = np.zeros(len(out_shape), dtype=np.int32)
        a_index = np.zeros(len(a_shape), dtype=np.int32)
        b_index = np.zeros(len(b_shape), dtype=np.int32)
        for i in range(len(out)):
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(a_index, a_strides)
            k = index_to_position(b_index, b_strides)
            out[o] = fn(a_storage[j], b_storage[k])
        ### END SOLUTION

    return _zip


def tensor_reduce(fn: Callable[[float, float], float]) -> Callable:
    """The loop of reduce over storages: _reduce(out, out_shape, out_strides, a_storage,
    a_shape, a_strides, reduce_dim) folds each line of a along reduce_dim into the element of
    out at the same index (out_shape is a_shape with that dim 1): out[o] = fn(out[o], x) for
    each x of the line in order, out already holding the start value."""

    def _reduce(out, out_shape, out_strides, a_storage, a_shape, a_strides,
                reduce_dim) -> None:
        ### BEGIN SOLUTION
        index = np.zeros(len(out_shape), dtype=np.int32)
        for i in range(len(out)):
            to_index(i, out_shape, index)
            o = index_to_position(index, out_strides)
            for s in range(a_shape[reduce_dim]):
                index[reduce_dim] = s
                j = index_to_position(index, a_strides)
                out[o] = fn(out[o], a_storage[j])
        ### END SOLUTION

    return _reduce


SimpleBackend = TensorBackend(SimpleOps)
# %% [markdown]
# `tensor_functions.py` holds the differentiable operations, each a `Function` with a `forward`
# and a `backward` as in Module 1, but over whole tensors: `forward(ctx, *inputs)` computes the
# output with the backend's functions (`a.f.mul_zip(a, b)`, `a.f.sigmoid_map(a)`, ...; `a.f` is
# `a`'s backend) and keeps in `ctx` what the backward will need; `backward(ctx, d)` returns the
# derivative with respect to each input, `d` being the derivative of the final result with
# respect to this output (Task 2.4: leave the backwards for now). `Neg`, `Inv`, `Add`, `Sum`,
# `View` and `Copy` are given, as examples.
#
# Write the forwards of `Mul`, `Sigmoid`, `ReLU`, `Log`, `Exp`, `LT`, `EQ`, `IsClose` (each one
# call of the backend) and `Permute`: `forward(ctx, a, order)` gets the order as a tensor of
# numbers, and returns a tensor over `a`'s storage with its dims reordered (your
# `TensorData.permute`; `a._new(tensor_data)` makes a `Tensor` of a `TensorData` on `a`'s
# backend).

# %%
%%minitorch_file tensor_functions.py
"""The differentiable operations on tensors, and the functions that make tensors."""
from __future__ import annotations

import random
from typing import Any, List, Tuple

import minitorch

from . import operators
from .autodiff import Context
from .tensor_ops import SimpleBackend, TensorBackend


def wrap_tuple(x: Any) -> tuple:
    """x as a tuple: itself if it is one, else (x,)."""
    if isinstance(x, tuple):
        return x
    return (x,)


class Function:
    """An operation that autodiff can go back through: its forward computes, its backward
    gives the derivatives of its inputs."""

    @classmethod
    def _backward(cls, ctx: Context, grad_out: Any) -> Tuple[Any, ...]:
        return wrap_tuple(cls.backward(ctx, grad_out))

    @classmethod
    def _forward(cls, ctx: Context, *inps: Any) -> Any:
        return cls.forward(ctx, *inps)

    @classmethod
    def apply(cls, *vals: Any) -> Any:
        """The forward on vals, without their history; the result records this function, its
        context and vals when one of them needs a gradient."""
        need_grad = any(v.requires_grad() for v in vals)
        ctx = Context(not need_grad)
        c = cls._forward(ctx, *[v.detach() for v in vals])
        back = minitorch.History(cls, ctx, vals) if need_grad else None
        return minitorch.Tensor(c._tensor, back, backend=c.backend)


class Neg(Function):
    @staticmethod
    def forward(ctx: Context, t1: Any) -> Any:
        return t1.f.neg_map(t1)

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Any:
        return grad_output.f.neg_map(grad_output)


class Inv(Function):
    @staticmethod
    def forward(ctx: Context, t1: Any) -> Any:
        ctx.save_for_backward(t1)
        return t1.f.inv_map(t1)

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Any:
        (t1,) = ctx.saved_values
        return grad_output.f.inv_back_zip(t1, grad_output)


class Add(Function):
    @staticmethod
    def forward(ctx: Context, t1: Any, t2: Any) -> Any:
        return t1.f.add_zip(t1, t2)

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Tuple[Any, Any]:
        return grad_output, grad_output


class Mul(Function):
    @staticmethod
    def forward(ctx: Context, a: Any, b: Any) -> Any:
        ### BEGIN SOLUTION
        ctx.save_for_backward(a, b)
        return a.f.mul_zip(a, b)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Tuple[Any, Any]:
        ### BEGIN SOLUTION
        a, b = ctx.saved_values
        f = grad_output.f
        return f.mul_zip(grad_output, b), f.mul_zip(grad_output, a)
        ### END SOLUTION


class Sigmoid(Function):
    @staticmethod
    def forward(ctx: Context, t1: Any) -> Any:
        ### BEGIN SOLUTION
        s = t1.f.sigmoid_map(t1)
        ctx.save_for_backward(s)
        return s
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Any:
        ### BEGIN SOLUTION
        (s,) = ctx.saved_values
        f = grad_output.f
        # sigmoid' = s * (1 - s) = s - s * s
        slope = f.add_zip(s, f.neg_map(f.mul_zip(s, s)))
        return f.mul_zip(grad_output, slope)
        ### END SOLUTION


class ReLU(Function):
    @staticmethod
    def forward(ctx: Context, t1: Any) -> Any:
        ### BEGIN SOLUTION
        ctx.save_for_backward(t1)
        return t1.f.relu_map(t1)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Any:
        ### BEGIN SOLUTION
        (t1,) = ctx.saved_values
        return grad_output.f.relu_back_zip(t1, grad_output)
        ### END SOLUTION


class Log(Function):
    @staticmethod
    def forward(ctx: Context, t1: Any) -> Any:
        ### BEGIN SOLUTION
        ctx.save_for_backward(t1)
        return t1.f.log_map(t1)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Any:
        ### BEGIN SOLUTION
        (t1,) = ctx.saved_values
        return grad_output.f.log_back_zip(t1, grad_output)
        ### END SOLUTION


class Exp(Function):
    @staticmethod
    def forward(ctx: Context, t1: Any) -> Any:
        ### BEGIN SOLUTION
        e = t1.f.exp_map(t1)
        ctx.save_for_backward(e)
        return e
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Any:
        ### BEGIN SOLUTION
        (e,) = ctx.saved_values
        return grad_output.f.mul_zip(grad_output, e)
        ### END SOLUTION


class Sum(Function):
    @staticmethod
    def forward(ctx: Context, a: Any, dim: Any) -> Any:
        ctx.save_for_backward(a.shape, dim)
        return a.f.add_reduce(a, int(dim.item()))

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Tuple[Any, float]:
        # d of shape a.shape with dim 1: Tensor.expand broadcasts it back to a's shape
        return grad_output, 0.0


class All(Function):
    @staticmethod
    def forward(ctx: Context, a: Any, dim: Any) -> Any:
        if dim is not None:
            return a.f.mul_reduce(a, int(dim.item()))
        return a.f.mul_reduce(a.contiguous().view(int(operators.prod(a.shape))), 0)


class LT(Function):
    @staticmethod
    def forward(ctx: Context, a: Any, b: Any) -> Any:
        ### BEGIN SOLUTION
        ctx.save_for_backward(a.shape, b.shape)
        return a.f.lt_zip(a, b)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Tuple[Any, Any]:
        ### BEGIN SOLUTION
        a_shape, b_shape = ctx.saved_values
        return grad_output.zeros(a_shape), grad_output.zeros(b_shape)
        ### END SOLUTION


class EQ(Function):
    @staticmethod
    def forward(ctx: Context, a: Any, b: Any) -> Any:
        ### BEGIN SOLUTION
        ctx.save_for_backward(a.shape, b.shape)
        return a.f.eq_zip(a, b)
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Tuple[Any, Any]:
        ### BEGIN SOLUTION
        a_shape, b_shape = ctx.saved_values
        return grad_output.zeros(a_shape), grad_output.zeros(b_shape)
        ### END SOLUTION


class IsClose(Function):
    @staticmethod
    def forward(ctx: Context, a: Any, b: Any) -> Any:
        ### BEGIN SOLUTION
        return a.f.is_close_zip(a, b)
        ### END SOLUTION


class Permute(Function):
    @staticmethod
    def forward(ctx: Context, a: Any, order: Any) -> Any:
        ### BEGIN SOLUTION
        dims = [int(order[k]) for k in range(order.size)]
        ctx.save_for_backward(dims)
        return a._new(a._tensor.permute(*dims))
        ### END SOLUTION

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Tuple[Any, float]:
        ### BEGIN SOLUTION
        (dims,) = ctx.saved_values
        # dim k of the output was dim dims[k] of the input: put each back where it came from
        back = [0] * len(dims)
        for k in range(len(dims)):
            back[dims[k]] = k
        return grad_output._new(grad_output._tensor.permute(*back)), 0.0
        ### END SOLUTION


class View(Function):
    @staticmethod
    def forward(ctx: Context, a: Any, shape: Any) -> Any:
        ctx.save_for_backward(a.shape)
        assert a._tensor.is_contiguous(), "view needs a contiguous tensor: call .contiguous()"
        dims = [int(shape[k]) for k in range(shape.size)]
        return minitorch.Tensor.make(a._tensor._storage, tuple(dims), backend=a.backend)

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Tuple[Any, float]:
        (original,) = ctx.saved_values
        g = grad_output.contiguous()
        return minitorch.Tensor.make(g._tensor._storage, original, backend=g.backend), 0.0


class Copy(Function):
    @staticmethod
    def forward(ctx: Context, a: Any) -> Any:
        return a.f.id_map(a)

    @staticmethod
    def backward(ctx: Context, grad_output: Any) -> Any:
        return grad_output


# ## Making tensors


def zeros(shape: Any, backend: TensorBackend = SimpleBackend) -> Any:
    """A tensor of zeros of the given shape (a tuple)."""
    return minitorch.Tensor.make([0.0] * int(operators.prod(shape)), shape, backend=backend)


def rand(shape: Any, backend: TensorBackend = SimpleBackend, requires_grad: bool = False) -> Any:
    """A tensor of the given shape of numbers drawn uniformly from [0, 1)."""
    vals = [random.random() for _ in range(int(operators.prod(shape)))]
    t = minitorch.Tensor.make(vals, shape, backend=backend)
    t.requires_grad_(requires_grad)
    return t


def _tensor(ls: Any, shape: Any, backend: TensorBackend = SimpleBackend,
            requires_grad: bool = False) -> Any:
    t = minitorch.Tensor.make(ls, shape, backend=backend)
    t.requires_grad_(requires_grad)
    return t


def tensor(ls: Any, backend: TensorBackend = SimpleBackend, requires_grad: bool = False) -> Any:
    """A tensor of nested lists of numbers, its shape theirs: tensor([[1, 2], [3, 4]])."""

    def shape(ls: Any) -> List[int]:
        if isinstance(ls, (list, tuple)):
            return [len(ls)] + shape(ls[0])
        return []

    def flatten(ls: Any) -> List[float]:
        if isinstance(ls, (list, tuple)):
            return [y for x in ls for y in flatten(x)]
        return [float(ls)]

    return _tensor(flatten(ls), tuple(shape(ls)), backend=backend, requires_grad=requires_grad)


# ## Checking gradients


def grad_central_difference(f: Any, *vals: Any, arg: int = 0, epsilon: float = 1e-6,
                            ind: Any = None) -> float:
    """The derivative of f(*vals).sum() with respect to element ind of vals[arg], estimated by
    a central difference."""
    x = vals[arg]
    up = zeros(x.shape, backend=x.backend)
    up[ind] = epsilon
    plus = [v if j != arg else v + up for j, v in enumerate(vals)]
    minus = [v if j != arg else v - up for j, v in enumerate(vals)]
    delta = f(*plus).sum() - f(*minus).sum()
    return delta[0] / (2.0 * epsilon)


def grad_check(f: Any, *vals: Any) -> None:
    """Asserts that backward's gradient of f(*vals).sum() agrees with central differences at
    an element of each input drawn at random."""
    for x in vals:
        x.requires_grad_(True)
        x.zero_grad_()
    f(*vals).sum().backward()
    for i, x in enumerate(vals):
        ind = x._tensor.sample()
        want = grad_central_difference(f, *vals, arg=i, ind=ind)
        got = x.grad[ind]
        assert abs(got - want) < 1e-2 * max(1.0, abs(want)), (
            f"the derivative of {f} with respect to input {i} at {ind}: backward gives {got}, "
            f"a central difference {want}")
# %% [markdown]
# `tensor.py` is given: the `Tensor` class. Its operators and methods are the functions above
# (`a * b` is `Mul.apply(a, b)`, `a.sigmoid()` is `Sigmoid.apply(a)`, `a - b` is
# `Add.apply(a, -b)`), and `expand` sums a gradient back to its input's shape where the forward
# broadcast the input. Run it after `tensor_functions.py` (and again after each run of that).

# %%
%%minitorch_file tensor.py
"""Tensor: the value autodiff works on in Module 2, an n-dimensional array of numbers."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence, Tuple, Type

import numpy as np

from . import operators
from .autodiff import Context, backpropagate
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
    Mul,
    Neg,
    Permute,
    ReLU,
    Sigmoid,
    Sum,
    View,
    tensor,
)


@dataclass
class History:
    """How a tensor was computed: the Function, its context, and its inputs."""

    last_fn: Optional[Type[Any]] = None
    ctx: Optional[Context] = None
    inputs: Sequence[Any] = ()


_tensor_count = 0


class Tensor:
    """An n-dimensional array of numbers (its TensorData), with the backend that computes on it
    (f) and, when it needs a gradient, its history and grad."""

    def __init__(self, v: TensorData, back: Optional[History] = None,
                 name: Optional[str] = None, backend: Any = None):
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
        """From now on a leaf that gets a gradient (x true), or a constant."""
        self.history = History() if x else None

    def requires_grad(self) -> bool:
        return self.history is not None

    def to_numpy(self) -> Any:
        return self.contiguous()._tensor._storage.reshape(self.shape)

    @property
    def shape(self) -> Tuple[int, ...]:
        return self._tensor.shape

    @property
    def size(self) -> int:
        return self._tensor.size

    @property
    def dims(self) -> int:
        return self._tensor.dims

    def _ensure_tensor(self, b: Any) -> Tensor:
        """b as a tensor on this tensor's backend (a number becomes one of shape (1,))."""
        if isinstance(b, (int, float)):
            return Tensor.make([b], (1,), backend=self.backend)
        b._type_(self.backend)
        return b

    def __add__(self, b: Any) -> Tensor:
        return Add.apply(self, self._ensure_tensor(b))

    def __sub__(self, b: Any) -> Tensor:
        return Add.apply(self, -self._ensure_tensor(b))

    def __mul__(self, b: Any) -> Tensor:
        return Mul.apply(self, self._ensure_tensor(b))

    def __truediv__(self, b: Any) -> Tensor:
        return Mul.apply(self, Inv.apply(self._ensure_tensor(b)))

    def __rtruediv__(self, b: Any) -> Tensor:
        return Mul.apply(self._ensure_tensor(b), Inv.apply(self))

    def __lt__(self, b: Any) -> Tensor:
        return LT.apply(self, self._ensure_tensor(b))

    def __eq__(self, b: Any) -> Tensor:
        return EQ.apply(self, self._ensure_tensor(b))

    def __gt__(self, b: Any) -> Tensor:
        return LT.apply(self._ensure_tensor(b), self)

    def __neg__(self) -> Tensor:
        return Neg.apply(self)

    def __radd__(self, b: Any) -> Tensor:
        return self + b

    def __rmul__(self, b: Any) -> Tensor:
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
        return self[0] if self.dims == 1 else self._tensor._storage[0]

    def sum(self, dim: Optional[int] = None) -> Tensor:
        """The sum along dim (kept, of size 1), or of every element (shape (1,))."""
        if dim is None:
            return Sum.apply(self.contiguous().view(self.size), self._ensure_tensor(0))
        return Sum.apply(self, self._ensure_tensor(dim))

    def mean(self, dim: Optional[int] = None) -> Tensor:
        if dim is not None:
            return self.sum(dim) / self.shape[dim]
        return self.sum() / self.size

    def permute(self, *order: int) -> Tensor:
        """The same numbers with the dims reordered: dim k is dim order[k] of this tensor."""
        return Permute.apply(self, tensor(list(order)))

    def view(self, *shape: int) -> Tensor:
        """The same numbers (contiguous) seen as another shape of the same size."""
        return View.apply(self, tensor(list(shape)))

    def contiguous(self) -> Tensor:
        """A copy laid out contiguously."""
        return Copy.apply(self)

    def __repr__(self) -> str:
        return self._tensor.to_string()

    def __getitem__(self, key: Any) -> float:
        return self._tensor.get((key,) if isinstance(key, int) else key)

    def __setitem__(self, key: Any, val: float) -> None:
        self._tensor.set((key,) if isinstance(key, int) else key, val)

    # Internal methods used for autodiff.

    def _type_(self, backend: Any) -> None:
        self.backend = backend
        self.f = backend

    def _new(self, tensor_data: TensorData) -> Tensor:
        """A tensor of tensor_data on this tensor's backend."""
        return Tensor(tensor_data, backend=self.backend)

    @staticmethod
    def make(storage: Any, shape: Any, strides: Any = None, backend: Any = None) -> Tensor:
        """A new tensor of storage (a list or an array) with shape and strides."""
        return Tensor(TensorData(storage, shape, strides), backend=backend)

    def expand(self, other: Tensor) -> Tensor:
        """other, a gradient for this tensor that a broadcast left larger (or smaller), summed
        (or broadcast) to this tensor's shape."""
        if self.shape == other.shape:
            return other
        true_shape = TensorData.shape_broadcast(self.shape, other.shape)
        buf = self.zeros(true_shape)
        self.backend.id_map(other, buf)
        if self.shape == true_shape:
            return buf
        out = buf
        orig_shape = [1] * (len(out.shape) - len(self.shape)) + list(self.shape)
        for dim, size in enumerate(out.shape):
            if orig_shape[dim] == 1 and size != 1:
                out = self.backend.add_reduce(out, dim)
        assert out.size == self.size, f"{out.shape} {self.shape}"
        return Tensor.make(out._tensor._storage, self.shape, backend=self.backend)

    def zeros(self, shape: Optional[Any] = None) -> Tensor:
        """A tensor of zeros on this tensor's backend, of its shape or the one given."""
        shape = self.shape if shape is None else shape
        return Tensor.make([0.0] * int(operators.prod(shape)), shape, backend=self.backend)

    def tuple(self) -> Tuple[Any, Any, Any]:
        return self._tensor.tuple()

    def detach(self) -> Tensor:
        """The same numbers without history."""
        return Tensor(self._tensor, backend=self.backend)

    # Variable elements for backprop

    def accumulate_derivative(self, x: Any) -> None:
        """Adds x to the gradient of this leaf."""
        assert self.is_leaf(), "only leaf tensors have derivatives"
        if self.grad is None:
            self.grad = Tensor.make([0.0] * int(operators.prod(self.shape)), self.shape,
                                    backend=self.backend)
        self.grad += x

    def is_leaf(self) -> bool:
        """Made by the user (requires_grad_), not computed."""
        return self.history is not None and self.history.last_fn is None

    def is_constant(self) -> bool:
        return self.history is None

    @property
    def parents(self) -> Iterable[Any]:
        assert self.history is not None
        return self.history.inputs

    def chain_rule(self, d_output: Any) -> Iterable[Tuple[Any, Any]]:
        """(input, its derivative) for each input of the Function that made this tensor, each
        derivative of the input's shape."""
        h = self.history
        x = h.last_fn._backward(h.ctx, d_output)
        assert len(x) == len(h.inputs), f"{h.last_fn} gave {len(x)} derivatives"
        return [(inp, inp.expand(self._ensure_tensor(d))) for inp, d in zip(h.inputs, x)]

    def backward(self, grad_output: Optional[Tensor] = None) -> None:
        """Backpropagates from this tensor (of shape (1,) unless grad_output is given)."""
        if grad_output is None:
            assert self.shape == (1,), "backward() of more than one number needs grad_output"
            grad_output = Tensor.make([1.0], (1,), backend=self.backend)
        backpropagate(self, grad_output)

    def zero_grad_(self) -> None:
        self.grad = None
# %% [markdown]
# Your tensors at work: made with `minitorch.tensor` (yours), computed with your backend
# (`SimpleBackend`, your `SimpleOps` over your kernels), shown by `TensorData.to_string`:

# %%
from minitorch import tensor

a = tensor([[0.5, -1.0, 2.0], [3.0, -0.25, 1.0]])
b = tensor([10.0, 20.0, 30.0])
print("a * b, b broadcast down the rows:", a * b)
print("a.sigmoid():", a.sigmoid())
print("a.relu():", a.relu())
print("(a < 1.0):", a < 1.0)
print("a.permute(1, 0):", a.permute(1, 0), " shape", a.permute(1, 0).shape)
print("a.sum(0):", a.sum(0), " a.sum(1):", a.sum(1), " a.sum():", a.sum())

# %% [markdown]
# The graded tests of Task 2.3. The kernels first, called as `SimpleOps` calls them: on inputs
# laid out in reverse order, broadcast, and reduced along every dim.

# %%
# NBGRADER_TESTS test_tensor_map 3
check("2.3", "map")

# %%
# NBGRADER_TESTS test_tensor_zip 3
check("2.3", "zip")

# %%
# NBGRADER_TESTS test_tensor_reduce 3
check("2.3", "reduce")

# %% [markdown]
# Then each function's forward, through its `Tensor` method (`a * b`, `a.sigmoid()`, `a < b`,
# ...), on your `Tensor` and `TensorBackend` over `map`, `zip` and `reduce` of check's own: a
# forward is graded on its own, whatever your kernels do.

# %%
# NBGRADER_TESTS test_mul_forward 1
check("2.3", "mul")

# %%
# NBGRADER_TESTS test_sigmoid_forward 1
check("2.3", "sigmoid")

# %%
# NBGRADER_TESTS test_relu_forward 1
check("2.3", "relu")

# %%
# NBGRADER_TESTS test_log_forward 1
check("2.3", "log")

# %%
# NBGRADER_TESTS test_exp_forward 1
check("2.3", "exp")

# %%
# NBGRADER_TESTS test_lt_forward 1
check("2.3", "lt")

# %%
# NBGRADER_TESTS test_eq_forward 1
check("2.3", "eq")

# %%
# NBGRADER_TESTS test_is_close_forward 1
check("2.3", "is_close")

# %%
# NBGRADER_TESTS test_permute_forward 2
check("2.3", "permute")

# %% [markdown]
# ## Task 2.4: gradients
#
# A tensor function's backward is its scalar version's, element by element: `backward(ctx, d)`
# gets `d`, the derivative of the final result with respect to each element of this function's
# output, and returns for each input the tensor of the final result's derivatives with respect
# to its elements. For `Mul` that is `d * b` for `a` and `d * a` for `b`; for `Sigmoid`,
# `d * s * (1 - s)` with `s` the forward's output; `LT` and `EQ` are flat wherever they have a
# derivative, so theirs are zeros of their inputs' shapes; and `Permute`'s puts `d`'s dims back in
# the order of the input's (the inverse permutation). Where the forward broadcast an input, the
# given `Tensor.expand` sums the returned gradient back to the input's shape.
#
# Write the backwards in the `tensor_functions.py` cell above, then run it and the `tensor.py`
# cell again.

# %% [markdown]
# Backpropagation through tensors: `x` of shape `(2, 3)` and `w` of shape `(3,)`, broadcast in
# `x * w`; the gradient of each has its shape. `grad_check` (given, in `tensor_functions.py`)
# compares your gradients with central differences at an element of each input drawn at random.

# %%
import random

from minitorch.tensor_functions import grad_check

x = tensor([[0.5, -1.0, 2.0], [3.0, -0.25, 1.0]], requires_grad=True)
w = tensor([0.1, 0.2, 0.3], requires_grad=True)
loss = ((x * w).sigmoid() + (x * w).relu()).sum()
loss.backward()
print("loss", loss, "\nx.grad", x.grad, "\nw.grad", w.grad)

random.seed(4)
for name, f in [("mul", lambda a, b: a * b), ("sigmoid", lambda a, b: (a * b).sigmoid()),
                ("relu", lambda a, b: (a + b).relu()), ("log", lambda a, b: (a * a + b * b).log()),
                ("exp", lambda a, b: (a - b).exp()), ("permute", lambda a, b: a.permute(1, 0) * b)]:
    grad_check(f, tensor([[0.3, -0.7], [1.1, 0.4]]), tensor([[0.9, 0.2], [-0.6, 0.5]]))
    print(name, "agrees with central differences")

# %% [markdown]
# The graded tests of Task 2.4: each backward on its own, after its forward, on check's ops.

# %%
# NBGRADER_TESTS test_mul_backward 2
check("2.4", "mul")

# %%
# NBGRADER_TESTS test_sigmoid_backward 2
check("2.4", "sigmoid")

# %%
# NBGRADER_TESTS test_relu_backward 1
check("2.4", "relu")

# %%
# NBGRADER_TESTS test_log_backward 1
check("2.4", "log")

# %%
# NBGRADER_TESTS test_exp_backward 1
check("2.4", "exp")

# %%
# NBGRADER_TESTS test_lt_backward 1
check("2.4", "lt")

# %%
# NBGRADER_TESTS test_eq_backward 1
check("2.4", "eq")

# %%
# NBGRADER_TESTS test_permute_backward 2
check("2.4", "permute")
# %% [markdown]
# Last, each task whole, as the course runs its tests (not graded: the cells above are). The
# whole of Tasks 2.3 and 2.4 also runs MiniTorch's `MathTest` functions, forward and their
# gradients, on your own backend: your kernels and your functions together.

# %%
check("2.1")
check("2.2")

# %%
check("2.3")
check("2.4")

# %% [markdown]
# ## Task 2.5: training
#
# Module 1's network again, now with tensors: a layer takes the whole batch at once. `x` of
# shape `(batch, in_size)` and the weights of shape `(in_size, out_size)` give the layer's output
# of shape `(batch, out_size)`, `out[n, j] = sum_i x[n, i] * weights[i, j] + bias[j]`, without a
# matrix multiply (Module 3's): view `x` as `(batch, in_size, 1)` and the weights as
# `(1, in_size, out_size)`, multiply (broadcasting makes `(batch, in_size, out_size)`), sum over
# dim 1 and view the result as `(batch, out_size)`; the bias broadcasts over the batch.
#
# Write `Linear.forward`, and `Network.forward`: two hidden layers with `relu`, the output
# layer's one number per point through `sigmoid`, of shape `(batch, 1)`.

# %%
def RParam(*shape):
    """A parameter of the given shape drawn uniformly from [-1, 1)."""
    return minitorch.Parameter(2 * (minitorch.rand(shape) - 0.5))


class Network(minitorch.Module):
    def __init__(self, hidden_layers):
        super().__init__()
        self.layer1 = Linear(2, hidden_layers)
        self.layer2 = Linear(hidden_layers, hidden_layers)
        self.layer3 = Linear(hidden_layers, 1)

    def forward(self, x):
        ### BEGIN SOLUTION
        h = self.layer1.forward(x).relu()
        h = self.layer2.forward(h).relu()
        return self.layer3.forward(h).sigmoid()
        ### END SOLUTION


class Linear(minitorch.Module):
    def __init__(self, in_size, out_size):
        super().__init__()
        self.weights = RParam(in_size, out_size)
        self.bias = RParam(out_size)
        self.out_size = out_size

    def forward(self, x):
        ### BEGIN SOLUTION
        batch, in_size = x.shape
        w = self.weights.value.view(1, in_size, self.out_size)
        products = x.view(batch, in_size, 1) * w
        return products.sum(1).view(batch, self.out_size) + self.bias.value.view(self.out_size)
        ### END SOLUTION

# %% [markdown]
# Before training them, `check("2.5", part)` grades the two classes as `check("1.5")` graded
# Module 1's: `"Linear"` runs `Linear.forward` on a batch and checks its output and the grads
# `backward()` leaves in the input, the weights and the bias; `"Network"` checks the layers'
# shapes, the parameters and one probability per point; `"training"` runs three epochs of the
# course's loop (below), check taking each SGD step, and compares the loss and every parameter
# after each epoch with its own. check gives the parameters values of its own draws, and runs
# your classes on tensors of its own (with the operations MiniTorch's layers use: `view`,
# `permute`, broadcasting arithmetic, `sum`, `mean`, `relu`, `sigmoid`, `log`, `exp`), so that
# this task's grade is your network's alone.

# %%
# NBGRADER_TESTS test_linear 2
check("2.5", "Linear")

# %%
# NBGRADER_TESTS test_network 2
check("2.5", "Network")

# %%
# NBGRADER_TESTS test_training 2
check("2.5", "training")

# %% [markdown]
# Each epoch runs the whole set forward as one batch, takes the binary cross-entropy of each
# point's probability of its class (`out` for class 1, `1 - out` for class 0), backpropagates
# their mean and takes an SGD step. The picture (given code) is redrawn in place every few
# epochs: the network's probability of class 1 over the square, blue for 0 and red for 1, the
# points on it, and the loss so far. Your Python tensors run far slower than the engine's
# (Module 3 makes them fast), so the network and the set are small.

# %%
def boundary_svg(model, data, losses, title, n=12):
    """The model's probability of class 1 on an n x n grid over the unit square (one batch),
    the points of data on it, and beside it the loss of each epoch so far."""
    grid = [[(j + 0.5) / n, 1 - (i + 0.5) / n] for i in range(n) for j in range(n)]
    prob = model.forward(minitorch.tensor(grid))
    side, parts = 240, [label(10, 16, title)]
    cell = side / n
    for i in range(n):
        for j in range(n):
            p = prob[i * n + j, 0]
            red, blue = int(255 * p), int(255 * (1 - p))
            fill = f"rgb({150 + red * 105 // 255},{150},{150 + blue * 105 // 255})"
            parts.append(f'<rect x="{10 + j * cell}" y="{26 + i * cell}" width="{cell + 0.5}" '
                         f'height="{cell + 0.5}" fill="{fill}"/>')
    for (x1, x2), c in zip(data.X, data.y):
        colour = "#c00" if c == 1 else "#00c"
        parts.append(f'<circle cx="{10 + x1 * side}" cy="{26 + (1 - x2) * side}" r="4" '
                     f'fill="{colour}" stroke="white"/>')
    x0, top = side + 50, max(losses) if losses else 1.0
    parts.append(f'<rect x="{x0}" y="26" width="{side}" height="{side}" fill="none" '
                 f'stroke="#999"/>')
    parts.append(label(x0, 280, f"loss by epoch, 0 to {top:.1f}", 11))
    points = [f"{x0 + side * k / max(1, len(losses) - 1):.1f},"
              f"{26 + side * (1 - v / top):.1f}" for k, v in enumerate(losses)]
    if len(points) > 1:
        parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="#333"/>')
    return svg(side * 2 + 70, 290, parts)


def train(data, hidden, rate, epochs, every, name):
    """A new Network(hidden) trained on data with SGD; the picture redrawn every `every`
    epochs under the display id `name`. Returns the model and the loss of every epoch."""
    model = Network(hidden)
    optim = minitorch.SGD(model.parameters(), rate)
    X = minitorch.tensor(data.X)
    y = minitorch.tensor([float(c) for c in data.y])
    losses = []
    display(boundary_svg(model, data, losses, "epoch 0"), display_id=name)
    for epoch in range(1, epochs + 1):
        optim.zero_grad()
        out = model.forward(X).view(data.N)
        prob = out * y + (out - 1.0) * (y - 1.0)
        loss = -prob.log()
        (loss / data.N).sum().backward()
        losses.append(loss.sum()[0])
        optim.step()
        if epoch % every == 0 or epoch == epochs:
            correct = int(((out.detach() > 0.5) == y).sum()[0])
            title = f"epoch {epoch}: loss {losses[-1]:.3f}, {correct} of {data.N} correct"
            update_display(boundary_svg(model, data, losses, title), display_id=name)
    return model, losses

# %% [markdown]
# MiniTorch's `Simple` set (the same points as in Python for the same seed), 3 hidden units,
# rate 0.3.
# (The picture is redrawn while the cell runs; the tests run this cell but compare the results
# in the cell after it.)

# %%
# NBVAL_IGNORE_OUTPUT
random.seed(1)
simple = minitorch.datasets["Simple"](30)
model, losses = train(simple, 3, 0.3, 100, 10, "train-simple")

# %%
def accuracy(model, data):
    out = model.forward(minitorch.tensor(data.X))
    return sum(1 for n in range(data.N) if (out[n, 0] > 0.5) == (data.y[n] == 1))


print("loss", round(losses[0], 3), "->", round(losses[-1], 3))
print("correct:", accuracy(model, simple), "of", simple.N)
