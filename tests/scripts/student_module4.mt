# A student's own Module 4 (Tasks 4.1-4.4) on the kernel's Modules 0-3: fast_conv.py as MiniTorch's
# template has it with `_tensor_conv1d` and `_tensor_conv2d` written as `njit`/`prange` kernels
# over the tensors' storages, and nn.py with tile, avgpool2d, argmax, a `Max(Function)` of their
# own with forward and backward, softmax, logsoftmax, maxpool2d and dropout, written as the
# course's solutions write them (max_reduce = FastOps.reduce(operators.max, -1e9)). Then what
# MiniTorch's tests/test_conv.py and tests/test_nn.py check of them, against values worked here
# from the definitions (loops over the elements) and against central differences (grad_check).
# %%
%%minitorch_file fast_conv.py
from typing import Tuple, TypeVar, Any

import numpy as np
from numba import prange
from numba import njit as _njit

from .autodiff import Context
from .tensor import Tensor
from .tensor_data import (
    MAX_DIMS,
    Index,
    Shape,
    Strides,
    Storage,
    broadcast_index,
    index_to_position,
    to_index,
)
from .tensor_functions import Function

Fn = TypeVar("Fn")


def njit(fn: Fn, **kwargs: Any) -> Fn:
    return _njit(inline="always", **kwargs)(fn)  # type: ignore


to_index = njit(to_index)
index_to_position = njit(index_to_position)
broadcast_index = njit(broadcast_index)


def _tensor_conv1d(
    out: Storage,
    out_shape: Shape,
    out_strides: Strides,
    out_size: int,
    input: Storage,
    input_shape: Shape,
    input_strides: Strides,
    weight: Storage,
    weight_shape: Shape,
    weight_strides: Strides,
    reverse: bool,
) -> None:
    batch_, out_channels, out_width = out_shape
    batch, in_channels, width = input_shape
    out_channels_, in_channels_, kw = weight_shape

    assert (
        batch == batch_
        and in_channels == in_channels_
        and out_channels == out_channels_
    )
    s1 = input_strides
    s2 = weight_strides

    for i in prange(out_size):
        out_index = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, out_index)
        b = out_index[0]
        oc = out_index[1]
        x = out_index[2]
        acc = 0.0
        for ic in range(in_channels):
            for k in range(kw):
                if reverse:
                    w = x - k
                else:
                    w = x + k
                if w >= 0 and w < width:
                    acc += (
                        input[b * s1[0] + ic * s1[1] + w * s1[2]]
                        * weight[oc * s2[0] + ic * s2[1] + k * s2[2]]
                    )
        out[index_to_position(out_index, out_strides)] = acc


tensor_conv1d = njit(_tensor_conv1d, parallel=True)


class Conv1dFun(Function):
    @staticmethod
    def forward(ctx: Context, input: Tensor, weight: Tensor) -> Tensor:
        ctx.save_for_backward(input, weight)
        batch, in_channels, w = input.shape
        out_channels, in_channels2, kw = weight.shape
        assert in_channels == in_channels2

        # Run convolution
        output = input.zeros((batch, out_channels, w))
        tensor_conv1d(
            *output.tuple(), output.size, *input.tuple(), *weight.tuple(), False
        )
        return output

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, Tensor]:
        input, weight = ctx.saved_values
        batch, in_channels, w = input.shape
        out_channels, in_channels, kw = weight.shape
        grad_weight = grad_output.zeros((in_channels, out_channels, kw))
        new_input = input.permute(1, 0, 2)
        new_grad_output = grad_output.permute(1, 0, 2)
        tensor_conv1d(  # type: ignore
            *grad_weight.tuple(),
            grad_weight.size,
            *new_input.tuple(),
            *new_grad_output.tuple(),
            False,  # type: ignore
        )
        grad_weight = grad_weight.permute(1, 0, 2)

        grad_input = input.zeros((batch, in_channels, w))
        new_weight = weight.permute(1, 0, 2)
        tensor_conv1d(  # type: ignore
            *grad_input.tuple(),
            grad_input.size,  # type: ignore
            *grad_output.tuple(),
            *new_weight.tuple(),
            True,  # type: ignore
        )
        return grad_input, grad_weight


conv1d = Conv1dFun.apply


def _tensor_conv2d(
    out: Storage,
    out_shape: Shape,
    out_strides: Strides,
    out_size: int,
    input: Storage,
    input_shape: Shape,
    input_strides: Strides,
    weight: Storage,
    weight_shape: Shape,
    weight_strides: Strides,
    reverse: bool,
) -> None:
    batch_, out_channels, _, _ = out_shape
    batch, in_channels, height, width = input_shape
    out_channels_, in_channels_, kh, kw = weight_shape

    assert (
        batch == batch_
        and in_channels == in_channels_
        and out_channels == out_channels_
    )

    s1 = input_strides
    s2 = weight_strides
    # inners
    s10, s11, s12, s13 = s1[0], s1[1], s1[2], s1[3]
    s20, s21, s22, s23 = s2[0], s2[1], s2[2], s2[3]

    for i in prange(out_size):
        out_index = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, out_index)
        b = out_index[0]
        oc = out_index[1]
        y = out_index[2]
        x = out_index[3]
        acc = 0.0
        for ic in range(in_channels):
            for dy in range(kh):
                for dx in range(kw):
                    if reverse:
                        yy = y - dy
                        xx = x - dx
                    else:
                        yy = y + dy
                        xx = x + dx
                    if yy >= 0 and yy < height and xx >= 0 and xx < width:
                        acc += (
                            input[b * s10 + ic * s11 + yy * s12 + xx * s13]
                            * weight[oc * s20 + ic * s21 + dy * s22 + dx * s23]
                        )
        out[index_to_position(out_index, out_strides)] = acc


tensor_conv2d = njit(_tensor_conv2d, parallel=True, fastmath=True)


class Conv2dFun(Function):
    @staticmethod
    def forward(ctx: Context, input: Tensor, weight: Tensor) -> Tensor:
        ctx.save_for_backward(input, weight)
        batch, in_channels, h, w = input.shape
        out_channels, in_channels2, kh, kw = weight.shape
        assert in_channels == in_channels2
        output = input.zeros((batch, out_channels, h, w))
        tensor_conv2d(
            *output.tuple(), output.size, *input.tuple(), *weight.tuple(), False
        )
        return output

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, Tensor]:
        input, weight = ctx.saved_values
        batch, in_channels, h, w = input.shape
        out_channels, in_channels, kh, kw = weight.shape

        grad_weight = grad_output.zeros((in_channels, out_channels, kh, kw))
        new_input = input.permute(1, 0, 2, 3)
        new_grad_output = grad_output.permute(1, 0, 2, 3)
        tensor_conv2d(  # type: ignore
            *grad_weight.tuple(),
            grad_weight.size,
            *new_input.tuple(),
            *new_grad_output.tuple(),
            False,  # type: ignore
        )
        grad_weight = grad_weight.permute(1, 0, 2, 3)

        grad_input = input.zeros((batch, in_channels, h, w))
        new_weight = weight.permute(1, 0, 2, 3)
        tensor_conv2d(  # type: ignore
            *grad_input.tuple(),
            grad_input.size,  # type: ignore
            *grad_output.tuple(),
            *new_weight.tuple(),
            True,  # type: ignore
        )
        return grad_input, grad_weight


conv2d = Conv2dFun.apply
# %%
%%minitorch_file nn.py
from typing import Tuple

from . import operators
from .autodiff import Context
from .fast_ops import FastOps
from .tensor import Tensor
from .tensor_functions import Function, rand, tensor


def tile(input: Tensor, kernel: Tuple[int, int]) -> Tuple[Tensor, int, int]:
    batch, channel, height, width = input.shape
    kh, kw = kernel
    assert height % kh == 0
    assert width % kw == 0
    new_height = height // kh
    new_width = width // kw
    x = input.contiguous().view(batch, channel, height, new_width, kw)
    x = x.permute(0, 1, 3, 2, 4)
    x = x.contiguous().view(batch, channel, new_width, new_height, kh * kw)
    x = x.permute(0, 1, 3, 2, 4)
    return x, new_height, new_width


def avgpool2d(input: Tensor, kernel: Tuple[int, int]) -> Tensor:
    batch, channel, height, width = input.shape
    t, h, w = tile(input, kernel)
    return t.mean(4).view(batch, channel, h, w)


max_reduce = FastOps.reduce(operators.max, -1e9)


def argmax(input: Tensor, dim: int) -> Tensor:
    out = max_reduce(input, dim)
    return out == input


class Max(Function):
    @staticmethod
    def forward(ctx: Context, input: Tensor, dim: Tensor) -> Tensor:
        out = max_reduce(input, int(dim.item()))
        ctx.save_for_backward(input, out)
        return out

    @staticmethod
    def backward(ctx: Context, grad_output: Tensor) -> Tuple[Tensor, float]:
        input, out = ctx.saved_values
        return (out == input) * grad_output, 0.0


def max(input: Tensor, dim: int) -> Tensor:
    return Max.apply(input, input._ensure_tensor(dim))


def softmax(input: Tensor, dim: int) -> Tensor:
    e = input.exp()
    partition = e.sum(dim=dim)
    return e / partition


def logsoftmax(input: Tensor, dim: int) -> Tensor:
    e = input
    mx = max(e, dim)
    lse = (e - mx).exp().sum(dim=dim).log() + mx
    return e - lse


def maxpool2d(input: Tensor, kernel: Tuple[int, int]) -> Tensor:
    batch, channel, height, width = input.shape
    t, h, w = tile(input, kernel)
    return max(t, 4).view(batch, channel, h, w)


def dropout(input: Tensor, rate: float, ignore: bool = False) -> Tensor:
    if ignore:
        return input
    r = rand(input.shape, backend=input.backend)
    drop = rate < r
    return input * drop
# %% test_conv1d_simple: MiniTorch's values, and the kernel's own convolution agrees
import minitorch
t = minitorch.tensor([0, 1, 2, 3]).view(1, 1, 4)
t.requires_grad_(True)
t2 = minitorch.tensor([[1, 2, 3]]).view(1, 1, 3)
out = minitorch.Conv1dFun.apply(t, t2)
print(out[0, 0, 0], out[0, 0, 1], out[0, 0, 2], out[0, 0, 3])
print(minitorch.fast_conv.conv1d is minitorch.conv1d, issubclass(minitorch.Conv1dFun, minitorch.Function))
# %% the definition, as loops: out[b, o, x] = sum over c, k of input[b, c, x + k] * weight[o, c, k]
def conv1d_loops(x, w, reverse=False):
    batch, cin, width = x.shape
    cout, cin2, kw = w.shape
    out = [[[0.0] * width for _ in range(cout)] for _ in range(batch)]
    for b in range(batch):
        for o in range(cout):
            for i in range(width):
                acc = 0.0
                for c in range(cin):
                    for k in range(kw):
                        j = i - k if reverse else i + k
                        if 0 <= j < width:
                            acc += x[b, c, j] * w[o, c, k]
                out[b][o][i] = acc
    return minitorch.tensor(out)

def conv2d_loops(x, w):
    batch, cin, h, wd = x.shape
    cout, cin2, kh, kw = w.shape
    out = [[[[0.0] * wd for _ in range(h)] for _ in range(cout)] for _ in range(batch)]
    for b in range(batch):
        for o in range(cout):
            for i in range(h):
                for j in range(wd):
                    acc = 0.0
                    for c in range(cin):
                        for di in range(kh):
                            for dj in range(kw):
                                if i + di < h and j + dj < wd:
                                    acc += x[b, c, i + di, j + dj] * w[o, c, di, dj]
                    out[b][o][i][j] = acc
    return minitorch.tensor(out)

seed(4)
x = minitorch.rand((2, 2, 6)) - 0.5
w = minitorch.rand((3, 2, 2)) - 0.5
print("conv1d", minitorch.conv1d(x, w).is_close(conv1d_loops(x, w)).all().item())
x2 = minitorch.rand((2, 2, 6, 6)) - 0.5
w2 = minitorch.rand((3, 2, 2, 4)) - 0.5
print("conv2d", minitorch.conv2d(x2, w2).is_close(conv2d_loops(x2, w2)).all().item())
# %% test_conv1d, test_conv1d_channel, test_conv, test_conv_batch, test_conv_channel, test_conv2:
# the student's backward against central differences
minitorch.grad_check(minitorch.Conv1dFun.apply, minitorch.rand((1, 1, 6)), minitorch.rand((1, 1, 4)))
minitorch.grad_check(minitorch.Conv1dFun.apply, x, w)
minitorch.grad_check(minitorch.Conv2dFun.apply, minitorch.rand((1, 1, 6, 6)), minitorch.rand((1, 1, 2, 4)))
minitorch.grad_check(minitorch.Conv2dFun.apply, minitorch.rand((2, 1, 6, 6)), minitorch.rand((1, 1, 2, 4)))
minitorch.grad_check(minitorch.Conv2dFun.apply, x2, w2)
t = minitorch.tensor([[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3]]).view(1, 1, 4, 4)
t.requires_grad_(True)
k = minitorch.tensor([[1, 1], [1, 1]]).view(1, 1, 2, 2)
k.requires_grad_(True)
out = minitorch.Conv2dFun.apply(t, k)
out.sum().backward()
print(t.grad.view(4, 4).tolist())
print(k.grad.view(2, 2).tolist())
minitorch.grad_check(minitorch.Conv2dFun.apply, t, k)
print("grad_check passed")
# %% test_avg, test_max_pool: pooling against the window's sum and max
p = minitorch.rand((1, 1, 4, 4))
for kernel in [(2, 2), (2, 1), (1, 2)]:
    window = [p[0, 0, i, j] for i in range(kernel[0]) for j in range(kernel[1])]
    a = minitorch.avgpool2d(p, kernel)
    m = minitorch.maxpool2d(p, kernel)
    print(kernel, a.shape, abs(a[0, 0, 0, 0] - sum(window) / len(window)) < 1e-6,
          m[0, 0, 0, 0] == max(window))
minitorch.grad_check(lambda t: minitorch.avgpool2d(t, (2, 2)), p)
tiled, nh, nw = minitorch.tile(minitorch.tensor(list(range(16))).view(1, 1, 4, 4), (2, 2))
print(tiled.shape, nh, nw, [tiled[0, 0, 0, 1, q] for q in range(4)])
# %% test_max: the student's Max(Function): values, argmax backward, grad_check
q = minitorch.rand((2, 3, 4)) - 0.5
for d in range(3):
    mine = minitorch.max(q, d)
    print(d, mine.shape, (mine == q.max(d)).all().item())
q.requires_grad_(True)
minitorch.max(q, 2).sum().backward()
g_mine = q.grad
q2 = q.detach()
q2.requires_grad_(True)
q2.max(2).sum().backward()
print("argmax backward", (g_mine == q2.grad).all().item(), g_mine.sum().item())
minitorch.grad_check(lambda t: minitorch.max(t, 2), q.detach() + minitorch.rand((2, 3, 4)) * 1e-3)
print(minitorch.argmax(minitorch.tensor([[1, 5, 2], [7, 0, 3]]), 1).tolist())
# %% test_softmax, test_log_softmax
s = minitorch.rand((1, 1, 4, 4))
print(round(minitorch.softmax(s, 3).sum(dim=3)[0, 0, 0, 0], 5), round(minitorch.softmax(s, 1).sum(dim=1)[0, 0, 0, 0], 5))
print("logsoftmax", minitorch.logsoftmax(s, 3).exp().is_close(minitorch.softmax(s, 3)).all().item())
minitorch.grad_check(lambda a: minitorch.softmax(a, dim=2), s)
minitorch.grad_check(lambda a: minitorch.logsoftmax(a, dim=2), s)
print("grad_check passed")
# %% test_drop
d = minitorch.rand((3, 4)) + 1.0
print((minitorch.dropout(d, 0.0) == d).all().item(), minitorch.dropout(d, 1.0).sum().item(),
      (minitorch.dropout(d, 1.0, ignore=True) == d).all().item())
# expect: 8.0 14.0 8.0 3.0
# expect: True True
# expect: conv1d 1.0
# expect: conv2d 1.0
# expect: [[1.0, 2.0, 2.0, 2.0], [2.0, 4.0, 4.0, 4.0], [2.0, 4.0, 4.0, 4.0], [2.0, 4.0, 4.0, 4.0]]
# expect: [[24.0, 24.0], [18.0, 18.0]]
# expect: grad_check passed
# expect: (2, 2) (1, 1, 2, 2) True True
# expect: (2, 1) (1, 1, 2, 4) True True
# expect: (1, 2) (1, 1, 4, 2) True True
# expect: (1, 1, 2, 2, 4) 2 2 [2.0, 3.0, 6.0, 7.0]
# expect: 0 (1, 3, 4) 1.0
# expect: 1 (2, 1, 4) 1.0
# expect: 2 (2, 3, 1) 1.0
# expect: argmax backward 1.0 6.0
# expect: [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
# expect: 1.0 1.0
# expect: logsoftmax 1.0
# expect: grad_check passed
# expect: 1.0 0.0 1.0
