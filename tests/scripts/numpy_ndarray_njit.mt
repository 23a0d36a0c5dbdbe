# numpy arrays passed to functions compiled with numba.njit, as fast_ops.py passes a tensor's
# storage, shape and strides: int arrays are written in place (an int32 array keeps int32
# values), float64 storages are written by the call, and index buffers np.zeros(MAX_DIMS,
# np.int32) made inside a prange loop (tests/scripts/njit_float64.mt has more of float arrays).
# Expectations are CPython's with numpy 2 and Numba.
import numpy as np
from numba import njit, prange
MAX_DIMS = 32
@njit
def fill(out, shape):
    for i in range(len(out)):
        out[i] = shape[i % len(shape)] * 2 + 1
idx = np.zeros(4, np.int32)
fill(idx, np.array([3, 5], dtype=np.int32))
print(repr(idx), idx.dtype, [int(x) for x in idx])
@njit
def big(out):
    out[0] = 3000000000
    out[1] = out[1] - 1
big(idx)
print(repr(idx))
# expect: array([ 7, 11,  7, 11], dtype=int32) int32 [7, 11, 7, 11]
# expect: array([-1294967296,          10,           7,          11], dtype=int32)

@njit
def to_index(ordinal, shape, out_index):
    cur = ordinal
    for i in range(len(shape) - 1, -1, -1):
        out_index[i] = cur % shape[i]
        cur = cur // shape[i]
oi = np.zeros(MAX_DIMS, np.int32)
to_index(7, np.array([3, 5]), oi)
print(repr(oi[:2]), oi.shape)
# expect: array([1, 2], dtype=int32) (32,)

@njit(parallel=True)
def tmap(out, out_shape, out_strides, in_storage, in_shape, in_strides):
    for i in prange(len(out)):
        out_index = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, out_index)
        o = 0
        j = 0
        for d in range(len(out_shape)):
            o += out_index[d] * out_strides[d]
            j += out_index[d] * in_strides[d]
        out[o] = in_storage[j] * 2.0 + 0.5
storage = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
out = np.zeros(6)
shape = np.array([2, 3], dtype=np.int32)
tmap(out, shape, np.array([3, 1], dtype=np.int32), storage, shape, np.array([1, 2], dtype=np.int32))
print(repr(out), out.dtype)
print(out.reshape((2, 3)))

# expect: array([ 2.5,  6.5, 10.5,  4.5,  8.5, 12.5]) float64
# expect: [[ 2.5  6.5 10.5]
# expect:  [ 4.5  8.5 12.5]]

# An int array and a float64 array make two compiled versions of one function. The values are
# CPython's with Numba; the diagnostics' wording is the kernel's own.
@njit
def scale(out, k):
    for i in range(len(out)):
        out[i] = out[i] * k
ia = np.array([1, 2], dtype=np.int32)
fa = np.array([1.5, 2.0])
scale(ia, 3)
scale(fa, 3)
scale(fa, 2)
print(repr(ia), repr(fa))
# expect: array([3, 6], dtype=int32) array([ 9., 12.])
scale.parallel_diagnostics(level=3)
# expect: scale(int array, int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect: scale(float64 array, int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
