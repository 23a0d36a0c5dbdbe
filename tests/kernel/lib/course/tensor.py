"""A student's tensor.py, for tests/kernel/lib/test_check_course.c: the parts of MiniTorch's
Tensor that Tasks 2.3 and 2.4 run."""
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from .autodiff import Context, backpropagate
from .tensor_data import TensorData, shape_broadcast
from .tensor_functions import (
    EQ, LT, Add, Copy, Exp, Inv, IsClose, Log, Mul, Neg, Permute, ReLU, Sigmoid, Sum, View,
    tensor, zeros,
)

made = 0


@dataclass
class History:
    last_fn: Any = None
    ctx: Optional[Context] = None
    inputs: Sequence[Any] = ()


class Tensor:
    def __init__(self, v, back=None, name=None, backend=None):
        global made
        made += 1
        self.unique_id = made
        self._tensor = v
        self.history = back
        self.backend = backend
        self.f = backend
        self.grad = None

    @staticmethod
    def make(storage, shape, strides=None, backend=None):
        return Tensor(TensorData(storage, shape, strides), backend=backend)

    def requires_grad_(self, x):
        self.history = History() if x else None

    def requires_grad(self):
        return self.history is not None

    @property
    def shape(self):
        return self._tensor.shape

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def _ensure(self, b):
        return b if isinstance(b, Tensor) else tensor([float(b)], backend=self.backend)

    def __add__(self, b):
        return Add.apply(self, self._ensure(b))

    def __radd__(self, b):
        return Add.apply(self._ensure(b), self)

    def __sub__(self, b):
        return Add.apply(self, Neg.apply(self._ensure(b)))

    def __rsub__(self, b):
        return Add.apply(self._ensure(b), Neg.apply(self))

    def __mul__(self, b):
        return Mul.apply(self, self._ensure(b))

    def __rmul__(self, b):
        return Mul.apply(self._ensure(b), self)

    def __truediv__(self, b):
        return Mul.apply(self, Inv.apply(self._ensure(b)))

    def __rtruediv__(self, b):
        return Mul.apply(self._ensure(b), Inv.apply(self))

    def __neg__(self):
        return Neg.apply(self)

    def __lt__(self, b):
        return LT.apply(self, self._ensure(b))

    def __gt__(self, b):
        return LT.apply(self._ensure(b), self)

    def __eq__(self, b):
        return EQ.apply(self, self._ensure(b))

    def is_close(self, b):
        return IsClose.apply(self, b)

    def sigmoid(self):
        return Sigmoid.apply(self)

    def relu(self):
        return ReLU.apply(self)

    def log(self):
        return Log.apply(self)

    def exp(self):
        return Exp.apply(self)

    def sum(self, dim=None):
        if dim is None:
            return Sum.apply(self.contiguous().view(self.size), self._ensure(0))
        return Sum.apply(self, self._ensure(dim))

    def permute(self, *order):
        return Permute.apply(self, tensor([float(o) for o in order], backend=self.backend))

    def view(self, *shape):
        return View.apply(self, tensor([float(s) for s in shape], backend=self.backend))

    def contiguous(self):
        return Copy.apply(self)

    def item(self):
        return float(self._tensor._storage[0])

    def __getitem__(self, key):
        return self._tensor._storage[self._tensor.index(key if isinstance(key, tuple) else (key,))]

    def zeros(self, shape=None):
        return zeros(self.shape if shape is None else shape, self.backend)

    def tuple(self):
        td = self._tensor
        s = np.array(list(td.shape), dtype=np.int32)
        return td._storage, s, np.array(list(td.strides), dtype=np.int32)

    def detach(self):
        return Tensor(self._tensor, backend=self.backend)

    def expand(self, d):
        """d as this tensor's gradient: broadcast up to the shapes' union, then summed over the
        dims this tensor was broadcast along"""
        if d.shape == self.shape:
            return d
        full = shape_broadcast(self.shape, d.shape)
        out = zeros(full, self.backend)
        self.backend.id_map(d, out)
        if full == self.shape:
            return out
        mine = [1] * (len(full) - len(self.shape)) + list(self.shape)
        for dim in range(len(full)):
            if mine[dim] == 1 and full[dim] != 1:
                out = self.backend.add_reduce(out, dim)
        return Tensor.make(out._tensor._storage, self.shape, backend=self.backend)

    def accumulate_derivative(self, x):
        if self.grad is None:
            self.grad = zeros(self.shape, self.backend)
        self.grad = self.grad.f.add_zip(self.grad, x)

    def is_leaf(self):
        return self.history is not None and self.history.last_fn is None

    def is_constant(self):
        return self.history is None

    @property
    def parents(self):
        return self.history.inputs

    def chain_rule(self, d):
        h = self.history
        grads = h.last_fn._backward(h.ctx, d)
        return [
            (x, x.expand(g))
            for x, g in zip(h.inputs, grads)
            if isinstance(x, Tensor) and not x.is_constant()
        ]

    def backward(self, d=None):
        if d is None:
            d = tensor([1.0], backend=self.backend)
        backpropagate(self, d)
