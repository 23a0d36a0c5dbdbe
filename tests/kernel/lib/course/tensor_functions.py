"""A student's tensor_functions.py (Tasks 2.3 and 2.4), correct, for
tests/kernel/lib/test_check_course.c."""
import random

import minitorch

from .autodiff import Context
from .tensor_ops import SimpleBackend


class Function:
    @classmethod
    def apply(cls, *vals):
        need_grad = any(v.requires_grad() for v in vals)
        ctx = Context(not need_grad)
        c = cls.forward(ctx, *[v.detach() for v in vals])
        back = minitorch.History(cls, ctx, vals) if need_grad else None
        return minitorch.Tensor(c._tensor, back, backend=c.backend)

    @classmethod
    def _backward(cls, ctx, d):
        g = cls.backward(ctx, d)
        return g if isinstance(g, tuple) else (g,)


class Neg(Function):
    @staticmethod
    def forward(ctx, a):
        return a.f.neg_map(a)

    @staticmethod
    def backward(ctx, d):
        return d.f.neg_map(d)


class Inv(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a.f.inv_map(a)

    @staticmethod
    def backward(ctx, d):
        (a,) = ctx.saved_values
        return d.f.inv_back_zip(a, d)


class Add(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a.f.add_zip(a, b)

    @staticmethod
    def backward(ctx, d):
        return d, d


class Mul(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a.f.mul_zip(a, b)

    @staticmethod
    def backward(ctx, d):
        a, b = ctx.saved_values
        return d.f.mul_zip(b, d), d.f.mul_zip(a, d)


class Sigmoid(Function):
    @staticmethod
    def forward(ctx, a):
        s = a.f.sigmoid_map(a)
        ctx.save_for_backward(s)
        return s

    @staticmethod
    def backward(ctx, d):
        (s,) = ctx.saved_values
        one_minus = s.f.add_zip(s.f.neg_map(s), tensor([1.0], backend=s.backend))
        return d.f.mul_zip(d.f.mul_zip(s, one_minus), d)


class ReLU(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a.f.relu_map(a)

    @staticmethod
    def backward(ctx, d):
        (a,) = ctx.saved_values
        return d.f.relu_back_zip(a, d)


class Log(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a.f.log_map(a)

    @staticmethod
    def backward(ctx, d):
        (a,) = ctx.saved_values
        return d.f.log_back_zip(a, d)


class Exp(Function):
    @staticmethod
    def forward(ctx, a):
        e = a.f.exp_map(a)
        ctx.save_for_backward(e)
        return e

    @staticmethod
    def backward(ctx, d):
        (e,) = ctx.saved_values
        return d.f.mul_zip(e, d)


class Sum(Function):
    @staticmethod
    def forward(ctx, a, dim):
        ctx.save_for_backward(a.shape, dim)
        return a.f.add_reduce(a, int(dim.item()))

    @staticmethod
    def backward(ctx, d):
        return d, 0.0


class LT(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a.shape, b.shape)
        return a.f.lt_zip(a, b)

    @staticmethod
    def backward(ctx, d):
        a_shape, b_shape = ctx.saved_values
        return zeros(a_shape, d.backend), zeros(b_shape, d.backend)


class EQ(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a.shape, b.shape)
        return a.f.eq_zip(a, b)

    @staticmethod
    def backward(ctx, d):
        a_shape, b_shape = ctx.saved_values
        return zeros(a_shape, d.backend), zeros(b_shape, d.backend)


class IsClose(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a.f.is_close_zip(a, b)


class Permute(Function):
    @staticmethod
    def forward(ctx, a, order):
        o = [int(order[i]) for i in range(order.size)]
        ctx.save_for_backward(o)
        return minitorch.Tensor(a._tensor.permute(*o), backend=a.backend)

    @staticmethod
    def backward(ctx, d):
        (o,) = ctx.saved_values
        back = [o.index(i) for i in range(len(o))]
        return minitorch.Tensor(d._tensor.permute(*back), backend=d.backend), 0.0


class View(Function):
    @staticmethod
    def forward(ctx, a, shape):
        ctx.save_for_backward(a.shape)
        a = a.contiguous()
        s = tuple(int(shape[i]) for i in range(shape.size))
        return minitorch.Tensor.make(a._tensor._storage, s, backend=a.backend)

    @staticmethod
    def backward(ctx, d):
        (shape,) = ctx.saved_values
        d = d.contiguous()
        return minitorch.Tensor.make(d._tensor._storage, shape, backend=d.backend), 0.0


class Copy(Function):
    @staticmethod
    def forward(ctx, a):
        return a.f.id_map(a)

    @staticmethod
    def backward(ctx, d):
        return d


def zeros(shape, backend=SimpleBackend):
    n = 1
    for s in shape:
        n *= s
    return minitorch.Tensor.make([0.0] * n, tuple(shape), backend=backend)


def tensor(ls, backend=SimpleBackend, requires_grad=False):
    t = minitorch.Tensor.make([float(x) for x in ls], (len(ls),), backend=backend)
    t.requires_grad_(requires_grad)
    return t


def rand(shape, backend=SimpleBackend, requires_grad=False):
    n = 1
    for s in shape:
        n *= s
    t = minitorch.Tensor.make([random.random() for _ in range(n)], tuple(shape), backend=backend)
    t.requires_grad_(requires_grad)
    return t
