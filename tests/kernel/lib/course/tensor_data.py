"""A student's tensor_data.py (Tasks 2.1 and 2.2), correct, for
tests/kernel/lib/test_check_course.c: the index helpers and the parts of TensorData they test."""
import numpy as np


class IndexingError(RuntimeError):
    pass


def index_to_position(index, strides):
    position = 0
    for i, s in zip(index, strides):
        position += i * s
    return position


def to_index(ordinal, shape, out_index):
    rest = ordinal
    for i in range(len(shape) - 1, -1, -1):
        out_index[i] = rest % shape[i]
        rest = rest // shape[i]


def broadcast_index(big_index, big_shape, shape, out_index):
    offset = len(big_shape) - len(shape)
    for i in range(len(shape)):
        out_index[i] = big_index[i + offset] if shape[i] > 1 else 0


def shape_broadcast(shape1, shape2):
    n = max(len(shape1), len(shape2))
    a = [1] * (n - len(shape1)) + list(shape1)
    b = [1] * (n - len(shape2)) + list(shape2)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise IndexingError("cannot broadcast %s and %s" % (shape1, shape2))
        out.append(y if x == 1 else x)
    return tuple(out)


def strides_from_shape(shape):
    strides = [1]
    for s in reversed(shape[1:]):
        strides.insert(0, strides[0] * s)
    return tuple(strides)


class TensorData:
    def __init__(self, storage, shape, strides=None):
        self._storage = np.array(storage)
        self.shape = tuple(shape)
        self.strides = tuple(strides) if strides is not None else strides_from_shape(shape)
        self.dims = len(self.shape)

    def index(self, index):
        return index_to_position(index, self.strides)

    def permute(self, *order):
        return TensorData(
            self._storage,
            tuple(self.shape[o] for o in order),
            tuple(self.strides[o] for o in order),
        )
