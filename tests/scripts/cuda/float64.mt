# cuda.jit kernels given numpy float64 arrays, as MiniTorch's CudaOps gives them its TensorData's
# storages (`*out.tuple()`): float64 arithmetic and shared float64 memory, what the kernel wrote
# copied back into the array (to the GPU and back where there is one), float32 arrays rounded,
# cuda.to_device of an array. Expectations are CPython's with Numba's CUDA simulator
# (NUMBA_ENABLE_CUDASIM=1), except where a comment says the kernel's own words.
# tests/kernel/lib/test_cuda_jit.c compiles these kernels' CUDA C with NVRTC.
import numpy as np
import numba
from numba import cuda


def _axpy(out, a, b, k, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < size:
        out[i] = a[i] * k + b[i]


axpy = cuda.jit()(_axpy)
a = np.array([0.1, 0.2, 1e-20, 3.0, 7.0])
b = np.array([0.2, 0.1, 1.0, -3.0, 0.5])
out = np.zeros(5)
axpy[2, 4](out, a, b, 1.0, 5)
print(out.tolist())
# expect: [0.30000000000000004, 0.30000000000000004, 1.0, 0.0, 7.5]
print(a.tolist(), b.tolist())
# expect: [0.1, 0.2, 1e-20, 3.0, 7.0] [0.2, 0.1, 1.0, -3.0, 0.5]


@cuda.jit
def block_sum(out, a, size):
    BLOCK_DIM = 32
    cache = cuda.shared.array(BLOCK_DIM, numba.float64)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    pos = cuda.threadIdx.x
    if i < size:
        cache[pos] = a[i]
    else:
        cache[pos] = 0.0
    cuda.syncthreads()
    step = 1
    while step < BLOCK_DIM:
        if pos % (2 * step) == 0:
            cache[pos] += cache[pos + step]
        step *= 2
        cuda.syncthreads()
    if pos == 0:
        out[cuda.blockIdx.x] = cache[0]


vals = np.array([1.0 / (k + 1) for k in range(40)])
sums = np.zeros(2)
block_sum[2, 32](sums, vals, 40)
print(sums.tolist())
# expect: [4.058495195436519, 0.2200478434998559]


@cuda.jit
def mm_practice(out, a, b, size):
    BLOCK_DIM = 32
    a_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    b_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    i = cuda.threadIdx.x
    j = cuda.threadIdx.y
    if i < size and j < size:
        a_shared[i, j] = a[i * size + j]
        b_shared[i, j] = b[i * size + j]
    cuda.syncthreads()
    if i < size and j < size:
        acc = 0.0
        for k in range(size):
            acc += a_shared[i, k] * b_shared[k, j]
        out[i * size + j] = acc


n = 3
ma = np.array([0.1 * (k + 1) for k in range(n * n)])
mb = np.array([1.0 / (k + 2) for k in range(n * n)])
mo = np.zeros(n * n)
mm_practice[1, (32, 32)](mo, ma, mb, n)
print(mo.tolist())
# expect: [0.1275, 0.1, 0.08357142857142857, 0.37500000000000006, 0.2833333333333333, 0.23142857142857143, 0.6225, 0.4666666666666667, 0.37928571428571434]

f32 = np.array([0.1, 0.2], dtype=np.float32)
o32 = np.zeros(2, dtype=np.float32)
axpy[1, 2](o32, f32, f32, 3.0, 2)
print(o32.tolist(), o32.dtype)
# expect: [0.4000000059604645, 0.800000011920929] float32

d = cuda.to_device(a)
dout = np.zeros(5)
axpy[1, 8](dout, d, b, 2.0, 5)
print(dout.tolist())
# expect: [0.4, 0.5, 1.0, 3.0, 14.5]
print(np.array(d, dtype=np.float64).tolist())
# expect: [0.1, 0.2, 1e-20, 3.0, 7.0]


# ---- the kernel's own words (Numba's simulator checks no races and counts no memory) ------
# every thread of the block writes out[0]: the simulator names the race, in a float64 array too
@cuda.jit
def all_write_first(out, a):
    out[0] = a[cuda.threadIdx.x]


try:
    all_write_first[1, 4](np.zeros(1), np.array([1.0, 2.0, 3.0, 4.0]))
except Exception as e:
    print(type(e).__name__ + ":", e)
# expect: RuntimeError: thread (1, 0, 0) of block (0, 0, 0) and thread (0, 0, 0) of block (0, 0, 0) both wrote out[0] in all_write_first(), with no barrier of one block between them: on a GPU which value stays is chance. Give each element one writer: a thread past the data (i >= the size) must not write

# a float64 array's element is 8 bytes: a warp's read along it is 8 sectors (256 bytes)
x64 = np.array([0.5 * k for k in range(32)])
%diagnostics axpy[1, 32](np.zeros(32), x64, x64, 2.0, 32)
# expect: _axpy(float64 array, float64 array, float64 array, float, int): a CUDA kernel, run by the kernel's CUDA simulator
# expect-re:   last launch: .*
# expect:   memory as a GPU would serve it, counted over 1 of the 1 blocks: a request is one access of a warp (32 threads in a row) at one place; it takes a transaction per 32-byte sector of global memory, or a wavefront per access to one of shared memory's 32 banks
# expect:     line  array         access        requests       per request  fewest
# expect:     15    a             global read          1      8.00 sectors    8.00
# expect:           coalesced
# expect:     15    b             global read          1      8.00 sectors    8.00
# expect:           coalesced
# expect:     15    out           global write         1      8.00 sectors    8.00
# expect:           coalesced
# expect: _axpy(Storage, Storage, Storage, float, int): a CUDA kernel, run by the kernel's CUDA simulator
# expect-re:   last launch: .*
# expect:   memory as a GPU would serve it, counted over 1 of the 1 blocks: a request is one access of a warp (32 threads in a row) at one place; it takes a transaction per 32-byte sector of global memory, or a wavefront per access to one of shared memory's 32 banks
# expect:     line  array         access        requests       per request  fewest
# expect:     15    a             global read          1      1.00 sectors    1.00
# expect:           coalesced
# expect:     15    b             global read          1      1.00 sectors    1.00
# expect:           coalesced
# expect:     15    out           global write         1      1.00 sectors    1.00
# expect:           coalesced
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
