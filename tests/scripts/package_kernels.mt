# A package's kernels read the globals of their own file, as Numba's do: MAX_DIMS imported by
# a relative import, numpy and numba imported in the file and nowhere else. Before, compiled
# code looked names up among the notebook's variables only, so fast_ops.py's kernels ran in the
# interpreter and cuda_ops.py's did not compile. Expectations are CPython's with Numba and its
# CUDA simulator on the same package, but the last lines (the kernel's diagnostics).
# %%
%%minitorch_file tensor_data.py
MAX_DIMS = 32


def to_index(ordinal, shape, out_index):
    cur = ordinal + 0
    for d in range(len(shape) - 1, -1, -1):
        out_index[d] = cur % shape[d]
        cur = cur // shape[d]

# %%
%%minitorch_file fast_ops.py
import numpy as np
from numba import njit, prange

from .tensor_data import MAX_DIMS, to_index

to_index = njit(inline="always")(to_index)


def _tmap(out, out_shape, in_storage, scale):
    for i in prange(len(out)):
        out_index = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, out_index)
        out[i] = in_storage[i] * scale + out_index[len(out_shape) - 1]


tmap = njit(parallel=True)(_tmap)

# %%
%%minitorch_file cuda_ops.py
import numba
from numba import cuda

from .tensor_data import MAX_DIMS, to_index

to_index = cuda.jit(device=True)(to_index)
THREADS = 32


def _kmap(out, out_shape, in_storage, size):
    cache = cuda.shared.array(THREADS, numba.float64)
    out_index = cuda.local.array(MAX_DIMS, numba.int32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    pos = cuda.threadIdx.x
    if i < size:
        cache[pos] = in_storage[i] * 0.1
        to_index(i, out_shape, out_index)
        out[i] = cache[pos] + out_index[1]


kmap = cuda.jit()(_kmap)

# %%
import numpy as np
import minitorch.fast_ops
import minitorch.cuda_ops

shape = np.array([2, 3], dtype=np.int32)
src = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
out = np.zeros(6)
minitorch.fast_ops.tmap(out, shape, src, 0.5)
print(out.tolist())
out2 = np.zeros(6)
minitorch.cuda_ops.kmap[1, 32](out2, shape, src, 6)
print(out2.tolist())
# expect: [0.5, 2.0, 3.5, 2.0, 3.5, 5.0]
# expect: [0.1, 1.2, 2.3, 0.4, 1.5, 2.6]
# %%
# the kernel's own words: tmap was compiled (names read from fast_ops.py's globals)
minitorch.fast_ops.tmap.parallel_diagnostics(level=1)
# expect: _tmap(float64 array, int array, float64 array, float): compiled to native code
# expect:   parallel: the prange loop (line 2 of _tmap)
# expect:     over 2 threads (%threads); on one where a loop without inner loops has under 256 iterations
# expect:     in chunks of 1 to 1024 iterations, 8 per thread where the loop is long enough
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int) out_index (32 ints)
# expect:   arrays every iteration shares: out (float64 array, an argument: written at positions that follow from the loop's variable), out_shape (int array, an argument: not written in the loop), in_storage (float64 array, an argument: not written in the loop)
# expect:   index buffers made in the loop (np.zeros, [0] * n): one per chunk, on its thread's stack, each iteration clearing what the one before wrote; nothing is allocated per iteration
# expect:   compiled in and inlined, each for the types it is called with: to_index()
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
