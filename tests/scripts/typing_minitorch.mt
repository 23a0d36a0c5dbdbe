# The first lines of MiniTorch's own files run as written: their imports, a TypeAlias of numpy's
# NDArray, a TYPE_CHECKING block of relative imports, a Protocol whose __call__ takes `out=...`
# positionally only, and a Generic class. Expected lines: python3 (with numpy 2.4) running it.
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Optional, Sequence, Tuple
from typing import Type, TypeVar, Union

import numpy as np
import numpy.typing as npt
from numpy import array, float64
from typing_extensions import Protocol, TypeAlias

if TYPE_CHECKING:
    from .tensor import Tensor
    from .tensor_data import Index, Shape, Storage, Strides

Storage: TypeAlias = npt.NDArray[np.float64]
OutIndex: TypeAlias = npt.NDArray[np.int32]
UserShape: TypeAlias = Sequence[int]
print(Storage)
# expect: numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.float64]]
print(OutIndex, UserShape)
# expect: numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.int32]] typing.Sequence[int]
print(npt.NDArray, float64 == np.float64)
# expect: numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[~_ScalarT]] True
print([float(x) for x in array([1.0, 2.0])])
# expect: [1.0, 2.0]


def strides_from_shape(shape: UserShape) -> Tuple[int, ...]:
    layout = [1]
    offset = 1
    for s in reversed(shape):
        layout.append(s * offset)
        offset = s * offset
    return tuple(reversed(layout[:-1]))
print(strides_from_shape((2, 3, 4)))
# expect: (12, 4, 1)


class MapProto(Protocol):
    def __call__(self, x: Tensor, out: Optional[Tensor] = ..., /) -> Tensor:
        ...


class ListOps:
    @staticmethod
    def map(fn: Callable[[float], float]) -> MapProto:
        def _map(a: Sequence[float], out: Optional[list] = None, /) -> list:
            if out is None:
                out = [0.0] * len(a)
            for i, x in enumerate(a):
                out[i] = fn(x)
            return out
        return _map
neg_map = ListOps.map(lambda x: -x)
print(neg_map([1.0, 2.5]), neg_map([3.0], [9.0, 9.0]))
# expect: [-1.0, -2.5] [-3.0, 9.0]


class Doubler(MapProto):
    def __call__(self, x: Tensor, out: Optional[Tensor] = ..., /) -> Tensor:
        return [2 * v for v in x] if out is ... else out
print(Doubler()([1, 2]), Doubler()([1, 2], "given"))
# expect: [2, 4] given
try:
    Doubler()([1.0], out=[0.0])
except TypeError as e:
    print(e)
# expect: Doubler.__call__() got some positional-only arguments passed as keyword arguments: 'out'

A = TypeVar("A")


class MathTest(Generic[A]):
    @staticmethod
    def neg(a: A) -> A:
        "Negate the argument"
        return -a


class MathTestVariable(MathTest):
    @staticmethod
    def square(a: A) -> A:
        return a * a
print(MathTest.neg(3), MathTestVariable.neg(1.5), MathTestVariable.square(4), A)
# expect: -3 -1.5 16 ~A
