# Task 3.1/3.2 as a file of the package, in the shape the course's fast_ops.py has: relative
# imports of the kernel's tensor_data and tensor_ops (MAX_DIMS, the index functions, MapProto,
# TensorOps), TYPE_CHECKING-only imports, njit(inline="always") over the imported index
# functions, a FastOps class of static methods; then TensorBackend over it is the student
# backend, and its ops agree with the simple backend's.
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
    def reduce(fn: Callable[[float, float], float], start: float = 0.0) -> Callable[[Tensor, int], Tensor]:
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
            out[index_to_position(oi, out_strides)] = fn(in_storage[index_to_position(ii, in_strides)])

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
import minitorch
from minitorch import fast_ops

Student = minitorch.TensorBackend(fast_ops.FastOps)
seed(3)
for shape in [(5,), (3, 4), (2, 3, 4)]:
    a, b = rand(*shape), rand(*shape)
    sa, sb = a.to("student"), b.to("student")
    for name, f in [("relu", lambda t: (t - 0.5).relu()), ("mul", lambda t: t * (t + 1.0)),
                    ("sum", lambda t: t.sum(0)), ("mean", lambda t: t.mean())]:
        assert (f(sa).to("simple") - f(a.to("simple"))).abs().max().item() < 1e-5, (name, shape)
    assert ((sa * sb).to("simple") - (a * b).to("simple")).abs().max().item() < 1e-5
m, n = rand(2, 3, 4), rand(2, 4, 5)
got = (m.to("student") @ n.to("student")).to("simple")
assert (got - (m.to("simple") @ n.to("simple"))).abs().max().item() < 1e-5
print(got.shape, type(fast_ops.FastOps).__name__, fast_ops.FastOps.__base__.__name__)
print(minitorch.fast_ops.FastOps is fast_ops.FastOps, minitorch.FastOps is fast_ops.FastOps)
# expect: (2, 3, 5) type TensorOps
# expect: True True
