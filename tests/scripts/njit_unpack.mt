# Compiled code (njit) unpacking tuples and shapes, and assert statements, as MiniTorch's
# convolution templates write them (`batch, in_channels, width = input_shape`,
# `s10, s11 = s1[0], s1[1]`, `assert batch == batch_ and ...`). Each result is what the
# interpreter gives for the same function (Python's semantics, worked out by hand).
from numba import njit, prange
import numpy as np


def shape_sum(out, out_shape, a):
    batch, channels, width = out_shape
    s0, s1 = a[0], a[1]
    s0, s1 = s1, s0
    assert batch * channels * width == len(out), "sizes differ"
    for i in prange(len(out)):
        out[i] = s0 * 10.0 + s1 + batch
    return batch + channels * 100 + width * 10000


f = njit(parallel=True)(shape_sum)
out = np.zeros(6)
shape = np.array([1, 2, 3], dtype=np.int32)
a = np.array([1.0, 2.0])
print(f(out, shape, a), out[0], shape_sum(np.zeros(6), shape, a))
parallel_diagnostics(f)
# expect: 30201 22.0 30201
# expect: shape_sum(float64 array, int array, float64 array): compiled to native code
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect-re:   each iteration.*
# expect-re:   arrays every .*
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect-re:   integers: .*


# too many and too few values, and a failed assert: the interpreter's errors
def unpack2(out, shape):
    a, b = shape
    out[0] = a + b


g = njit(unpack2)
for s in [np.array([1, 2, 3], dtype=np.int32), np.array([1], dtype=np.int32)]:
    try:
        g(np.zeros(1), s)
    except ValueError as e:
        print("ValueError:", e)
try:
    f(np.zeros(5), shape, a)
except AssertionError as e:
    print("AssertionError:", e)
# expect: ValueError: too many values to unpack (expected 2)
# expect: ValueError: not enough values to unpack (expected 2, got 1)
# expect: AssertionError: sizes differ


@njit
def bare(x):
    assert x > 0
    return x


try:
    bare(-1)
except AssertionError as e:
    print("AssertionError:", repr(str(e)))
print(bare(3))
# expect: AssertionError: ''
# expect: 3
