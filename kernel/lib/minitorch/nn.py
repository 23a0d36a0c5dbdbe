"""The kernel's reference of MiniTorch's nn.py (Module 4): pooling by tiling, max and argmax
along a dim, softmax and logsoftmax, dropout. Each is made of the tensor ops (view, permute,
contiguous, mean, max, exp, log, sum), so it runs on every backend, differentiates through
them, and shows each op in %diagnostics.

A built-in file (kernel/lib/minitorch/README.md): a student's own nn.py replaces it.
"""
from typing import Tuple

from .tensor import Tensor
from .tensor_functions import rand

__all__ = ["tile", "avgpool2d", "max", "argmax", "softmax", "logsoftmax", "maxpool2d", "dropout"]


def tile(input: Tensor, kernel: Tuple[int, int]) -> Tuple[Tensor, int, int]:
    """input (batch, channel, height, width) cut into kernel's blocks: (batch, channel,
    new_height, new_width, kh * kw), each block's cells in its last dim, with new_height and
    new_width."""
    batch, channel, height, width = input.shape
    kh, kw = kernel
    assert height % kh == 0, "pooling %s by a %dx%d kernel: %d rows do not split into %d" % (
        input.shape, kh, kw, height, kh)
    assert width % kw == 0, "pooling %s by a %dx%d kernel: %d columns do not split into %d" % (
        input.shape, kh, kw, width, kw)
    ### BEGIN SOLUTION
    new_height = height // kh
    new_width = width // kw
    # the columns of each block next to each other, then the rows of a block below them
    t = input.contiguous().view(batch, channel, height, new_width, kw)
    t = t.permute(0, 1, 3, 2, 4).contiguous()
    t = t.view(batch, channel, new_width, new_height, kh * kw)
    return t.permute(0, 1, 3, 2, 4), new_height, new_width
    ### END SOLUTION


def avgpool2d(input: Tensor, kernel: Tuple[int, int]) -> Tensor:
    """The mean of each kernel-sized block of input (batch, channel, height, width)."""
    batch, channel, height, width = input.shape
    ### BEGIN SOLUTION
    t, new_height, new_width = tile(input, kernel)
    return t.mean(4).view(batch, channel, new_height, new_width)
    ### END SOLUTION


def max(input: Tensor, dim: int) -> Tensor:
    """The largest value along dim (kept, of size 1); its gradient goes to the cells that
    hold it (every one of them where several do)."""
    ### BEGIN SOLUTION
    return input.max(dim)
    ### END SOLUTION


def argmax(input: Tensor, dim: int) -> Tensor:
    """1.0 where a cell holds the largest value along dim, 0.0 elsewhere (ties: every one)."""
    ### BEGIN SOLUTION
    return input == input.max(dim).detach()
    ### END SOLUTION


def softmax(input: Tensor, dim: int) -> Tensor:
    """exp(x) / sum(exp(x)) along dim, computed from x - max(x) (the same value, and no
    overflow)."""
    ### BEGIN SOLUTION
    e = (input - input.max(dim).detach()).exp()
    return e / e.sum(dim)
    ### END SOLUTION


def logsoftmax(input: Tensor, dim: int) -> Tensor:
    """x - log(sum(exp(x))) along dim, computed as s - log(sum(exp(s))) for s = x - max(x): the
    same value, with no overflow and no rounding of max(x) added back."""
    ### BEGIN SOLUTION
    shifted = input - input.max(dim).detach()
    return shifted - shifted.exp().sum(dim).log()
    ### END SOLUTION


def maxpool2d(input: Tensor, kernel: Tuple[int, int]) -> Tensor:
    """The largest value of each kernel-sized block of input (batch, channel, height, width)."""
    batch, channel, height, width = input.shape
    ### BEGIN SOLUTION
    t, new_height, new_width = tile(input, kernel)
    return max(t, 4).view(batch, channel, new_height, new_width)
    ### END SOLUTION


def dropout(input: Tensor, rate: float, ignore: bool = False) -> Tensor:
    """input with each cell zeroed with probability rate (the session's generator); input
    itself when ignore."""
    ### BEGIN SOLUTION
    if ignore:
        return input
    return input * (rand(input.shape, backend=input.backend) > rate)
    ### END SOLUTION
