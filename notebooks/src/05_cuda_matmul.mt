# %% [markdown]
# # 5 · Task 3.4: CUDA matrix multiplication
#
# Task 3.4 is the classic GPU exercise: a matmul that uses **shared memory**. This kernel keeps
# three versions side by side (`engine/src/cuda/ops.cu`), and `%cuda_matmul` chooses which one
# the `cuda` backend's matmul runs:
#
# | kernel | what each thread does | what it teaches |
# |---|---|---|
# | `naive` | one output: a K-long loop reading a row of `a` and a column of `b` from global memory | every input is read N (or M) times from DRAM |
# | `tiled` | one output of a 32 x 32 block; the block stages 32 x 32 tiles of `a` and `b` in shared memory | each input is read from DRAM once per tile: 32 times less traffic |
# | `register` | an 8 x 8 block of outputs kept in registers, from 128 x 128 tiles, `float4` loads, two shared-memory buffers so that loading the next tile overlaps computing on this one | arithmetic intensity: 64 multiply-adds per pair of values read from shared memory |
#
# `auto` (the default) picks `register` once the matrices give enough 128 x 128 tiles to fill half
# the GPU, else `tiled`. Every kernel handles any shape (edges are padded with zeros), batches
# and broadcast batch dims.
#
# Without a GPU the cells below say so; the timing table still shows the CPU column.

# %%
gpu = cuda_available()  # true with a usable GPU; the GPU cells below print which

# %%
%cuda_matmul

# %% [markdown]
# `%cuda_matmul NAME` sets the kernel for the following matmuls on `cuda` (with or without a GPU:
# it is a setting); `auto` goes back to the default:

# %%
%cuda_matmul tiled
%cuda_matmul auto

# %% [markdown]
# ## MiniTorch's timing table
#
# The course's `timing.py`: for n = 64 … 1024, the mean time of `x @ y` on two random (2, n, n)
# batches, on `fast` and `cuda`, as a table and a log-log chart. A matmul is n³ work on n²
# data, so the GPU pulls away as n grows:

# %%
# NBVAL_IGNORE_OUTPUT
timing("matmul", sizes=[64, 128, 256, 512, 1024], backends=["fast", "cuda"])

# %% [markdown]
# ## Why tiles: counting the reads
#
# For an n x n product each of the n² outputs needs a row of `a` and a column of `b`: 2n³ reads
# in the naive kernel, all from DRAM (caches help little at these sizes). A 32 x 32 tile loads
# each value once per tile instead of once per output: 32 times fewer DRAM reads. The register
# kernel's 128 x 128 tiles cut them 128-fold, and each thread reuses every value it reads from
# shared memory for 8 multiply-adds.

# %%
n = 1024
print("naive:    ", 2 * n * n * n * 4 // (1024 * 1024), "MiB read")
print("tiled 32: ", 2 * n * n * n * 4 // 32 // (1024 * 1024), "MiB read")
print("tiled 128:", 2 * n * n * n * 4 // 128 // (1024 * 1024), "MiB read")
print("data itself:", 3 * n * n * 4 // (1024 * 1024), "MiB")

# %% [markdown]
# The tiled algorithm, written in the language for a 4 x 4 product with 2 x 2 tiles: the outer
# loops walk the output's tiles (the GPU's blocks, all at once), the middle loop walks the
# tiles along K (staged in shared memory on the GPU), the inner loops are one tile's work (the
# block's threads). It computes the same numbers as `@`:

# %%
def tiled_matmul(a, b, n, tile):
    c = zeros(n, n)
    for bi in range(0, n, tile):
        for bj in range(0, n, tile):
            for k0 in range(0, n, tile):
                for i in range(bi, bi + tile):
                    for j in range(bj, bj + tile):
                        acc = c[i, j]
                        for k in range(k0, k0 + tile):
                            acc = acc + a[i, k] * b[k, j]
                        c[i, j] = acc
    return c

seed(4)
s1 = rand(4, 4)
s2 = rand(4, 4)
print("tiled loops agree with @:", (tiled_matmul(s1, s2, 4, 2) - s1 @ s2).abs().max().item() < 1e-6)

# %% [markdown]
# ## The three kernels on the GPU
#
# With a GPU, the cell below runs one 1024 x 1024 product with each kernel: `%diagnostics`
# shows the grid and block each launches, its shared memory and registers, the occupancy, and
# the rate against the GPU's FP32 peak; then each result is checked against the CPU's (to
# float32 rounding: they add the K products in different orders, and the GPU fuses
# multiply-adds), and a batched product whose sizes are not multiples of any tile (45 x 33 times
# 33 x 40, three batches) is checked too — the tiles run past the edges, where threads load
# zeros and write nothing.

# %%
# NBVAL_IGNORE_OUTPUT
seed(0)
p = rand(1024, 1024)
q = rand(1024, 1024)
print("GPU available:", gpu)
if gpu:
    pc = p.to("cuda")
    qc = q.to("cuda")
    ref = p @ q
    %cuda_matmul naive
    %diagnostics r = pc @ qc
    print("naive agrees with fast:", (r.to("fast") - ref).abs().max().item() < 0.05)
    %cuda_matmul tiled
    %diagnostics r = pc @ qc
    print("tiled agrees with fast:", (r.to("fast") - ref).abs().max().item() < 0.05)
    %cuda_matmul register
    %diagnostics r = pc @ qc
    print("register agrees with fast:", (r.to("fast") - ref).abs().max().item() < 0.05)
    %cuda_matmul auto
    a3 = rand(3, 45, 33)
    b3 = rand(33, 40)
    print("45 x 33 @ 33 x 40 agrees:", ((a3.to("cuda") @ b3.to("cuda")).to("fast") - a3 @ b3).abs().max().item() < 1e-3)
else:
    print("no GPU here: skipped")

# %% [markdown]
# Batched products with broadcast batch dims work on every backend alike; on the CPU, for
# reference (this cell runs everywhere):

# %%
seed(1)
c = rand(3, 45, 33) @ rand(33, 40)
print(c.shape, c.backend)

# %% [markdown]
# ## Task 3.4 yourself: a tiled matmul with `cuda.jit`
#
# Task 3.4 is to write the tiled kernel yourself with Numba's `cuda.jit`, as MiniTorch's
# `cuda_ops.py` has it: first `_mm_practice`, one block of 32 x 32 threads multiplying two
# square matrices of at most 32 x 32 through shared memory, then `_tensor_matrix_multiply`, any
# shapes and batches, a 32 x 32 tile of the output per block and the batch on `blockIdx.z`.
# They run on the GPU when there is one, else in this kernel's CUDA simulator (see notebook 4).
# Your code goes where the template raises `NotImplementedError()`.

# %%
import numba
from numba import cuda
import minitorch
from minitorch import shape_broadcast

# %%
def _mm_practice(out, a, b, size):
    BLOCK_DIM = 32
    ### BEGIN SOLUTION
    a_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    b_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    i = cuda.threadIdx.y
    j = cuda.threadIdx.x
    if i < size and j < size:
        a_shared[i, j] = a[i * size + j]
        b_shared[i, j] = b[i * size + j]
    cuda.syncthreads()
    if i < size and j < size:
        acc = 0.0
        for k in range(size):
            acc += a_shared[i, k] * b_shared[k, j]
        out[i * size + j] = acc
    ### END SOLUTION


jit_mm_practice = cuda.jit()(_mm_practice)


def _tensor_matrix_multiply(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    a_batch_stride = a_strides[0] if a_shape[0] > 1 else 0
    b_batch_stride = b_strides[0] if b_shape[0] > 1 else 0
    batch = cuda.blockIdx.z
    BLOCK_DIM = 32
    a_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    b_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    ### BEGIN SOLUTION
    # the row on threadIdx.y, the column on threadIdx.x: the 32 threads of a warp (consecutive x)
    # read consecutive elements of a row, and write consecutive words of shared memory
    i = cuda.blockIdx.x * cuda.blockDim.y + cuda.threadIdx.y
    j = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    pi = cuda.threadIdx.y
    pj = cuda.threadIdx.x
    acc = 0.0
    for k0 in range(0, a_shape[2], BLOCK_DIM):
        if i < a_shape[1] and k0 + pj < a_shape[2]:
            a_shared[pi, pj] = a_storage[batch * a_batch_stride + i * a_strides[1] + (k0 + pj) * a_strides[2]]
        else:
            a_shared[pi, pj] = 0.0
        if j < b_shape[2] and k0 + pi < b_shape[1]:
            b_shared[pi, pj] = b_storage[batch * b_batch_stride + (k0 + pi) * b_strides[1] + j * b_strides[2]]
        else:
            b_shared[pi, pj] = 0.0
        cuda.syncthreads()
        for k in range(BLOCK_DIM):
            acc += a_shared[pi, k] * b_shared[k, pj]
        cuda.syncthreads()
    if i < out_shape[1] and j < out_shape[2]:
        out[batch * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc
    ### END SOLUTION


tensor_matrix_multiply = cuda.jit()(_tensor_matrix_multiply)

# %% [markdown]
# `CudaMatmulOps.matrix_multiply` launches it as the course does (given): a block of 32 x 32
# threads per 32 x 32 tile of the output, the batch on the grid's z. Map, zip and reduce here are
# the kernel's own `fast` ones (inherited from `minitorch.FastOps`), so that this notebook stands
# on its own; notebook 4 has them as your kernels.

# %%
THREADS_PER_BLOCK = 32


class CudaMatmulOps(minitorch.FastOps):
    cuda = True

    @staticmethod
    def matrix_multiply(a, b):
        both_2d = 0
        if len(a.shape) == 2:
            a = a.contiguous().view(1, a.shape[0], a.shape[1])
            both_2d += 1
        if len(b.shape) == 2:
            b = b.contiguous().view(1, b.shape[0], b.shape[1])
            both_2d += 1
        ls = list(shape_broadcast(a.shape[:-2], b.shape[:-2]))
        ls.append(a.shape[-2])
        ls.append(b.shape[-1])
        out = a.zeros(tuple(ls))
        blockspergrid = ((out.shape[1] + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK,
                         (out.shape[2] + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK, out.shape[0])
        threadsperblock = (THREADS_PER_BLOCK, THREADS_PER_BLOCK, 1)
        tensor_matrix_multiply[blockspergrid, threadsperblock](*out.tuple(), out.size, *a.tuple(), *b.tuple())
        if both_2d == 2:
            out = out.view(out.shape[1], out.shape[2])
        return out


GPUBackend = minitorch.TensorBackend(CudaMatmulOps)

# %% [markdown]
# `check("3.4")` runs MiniTorch's Task 3.4 tests: your `jit_mm_practice` on 2 x 2 and 32 x 32,
# `x @ y` through your backend on 2 x 2, 33 x 33 (two tiles a side), a batch of those and
# (2, 45, 33) @ (2, 33, 40), then Task 3.2's matmul tests with gradients. The graded tests take
# one function each: `check("3.4", "mm_practice")` and `check("3.4", "matrix_multiply")` (your
# tiled kernel through the backend, forward); the whole task's check comes after them.

# %%
# NBGRADER_TESTS test_mm_practice 2
check("3.4", "mm_practice")

# %%
# NBGRADER_TESTS test_cuda_matrix_multiply 4
check("3.4", "matrix_multiply")

# %%
check("3.4")

# %% [markdown]
# ## What a GPU's memory would do, without a GPU
#
# The simulator also counts what a GPU's memory would make of each access. A **warp** is 32
# threads of a block in a row (consecutive `threadIdx.x`); the n-th access of each of its threads
# at one place of the kernel is one *request*. Global memory serves a request in 32-byte sectors:
# 32 threads reading 32 consecutive floats take 4; reading 32 floats far apart, 32. Shared memory
# is 32 banks of 4-byte words; a request takes as many passes (*wavefronts*) as the most distinct
# words asked of one bank. `%diagnostics` shows both per access, against the fewest the request
# could take.
#
# MiniTorch's template puts the output's row on `threadIdx.x`. Then the 32 threads of a warp
# hold 32 different rows: each reads a different row of `a` (32 sectors where 4 would do) and
# writes a different row of the shared tile (one bank, 32 words: with float64's two words each,
# a 16-way conflict). The same tiles with the row on `threadIdx.y` — the solution above — have
# every access coalesced and conflict-free. A naive kernel, one thread per output reading `a` and
# `b` from global memory, reads coalesced too, but 32 times as often. Counted here in the
# simulator on (2, 64, 64):

# %%
%cuda simulate
@cuda.jit
def template_layout(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    batch = cuda.blockIdx.z
    a_shared = cuda.shared.array((32, 32), numba.float64)
    b_shared = cuda.shared.array((32, 32), numba.float64)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    j = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    pi = cuda.threadIdx.x
    pj = cuda.threadIdx.y
    acc = 0.0
    for k0 in range(0, a_shape[2], 32):
        a_shared[pi, pj] = a_storage[batch * a_strides[0] + i * a_strides[1] + (k0 + pj) * a_strides[2]]
        b_shared[pi, pj] = b_storage[batch * b_strides[0] + (k0 + pi) * b_strides[1] + j * b_strides[2]]
        cuda.syncthreads()
        for k in range(32):
            acc += a_shared[pi, k] * b_shared[k, pj]
        cuda.syncthreads()
    out[batch * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc


@cuda.jit
def naive(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    batch = cuda.blockIdx.z
    i = cuda.blockIdx.x * cuda.blockDim.y + cuda.threadIdx.y
    j = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    acc = 0.0
    for k in range(a_shape[2]):
        acc += a_storage[batch * a_strides[0] + i * a_strides[1] + k * a_strides[2]] * b_storage[batch * b_strides[0] + k * b_strides[1] + j * b_strides[2]]
    out[batch * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc


A = minitorch.rand((2, 64, 64))
B = minitorch.rand((2, 64, 64))
C = minitorch.zeros((2, 64, 64))

# %%
%diagnostics template_layout[(2, 2, 2), (32, 32)](*C.tuple(), C.size, *A.tuple(), *B.tuple())

# %%
%diagnostics tensor_matrix_multiply[(2, 2, 2), (32, 32)](*C.tuple(), C.size, *A.tuple(), *B.tuple())

# %%
%diagnostics naive[(2, 2, 2), (32, 32)](*C.tuple(), C.size, *A.tuple(), *B.tuple())

# %% [markdown]
# (Each table's time is the simulator's, on the CPU.) On an NVIDIA H100, (2, 1024, 1024)
# float32 took 10.2 ms with the template's layout, 2.45 ms with the row on `threadIdx.y`, 6.84 ms
# naive, 0.14 ms with the built-in `cuda` matmul and 0.11 ms with cuBLAS
# (`bench/results/gpu-2026-11-27-b-NVIDIA_H100_80GB_HBM3.txt`): the layout the simulator counts
# as clean is four times faster than the one it counts as uncoalesced and conflicted.
#
# ## Your kernel in the timing table
#
# `timing` with the `student` backend times your `CudaMatmulOps` beside `fast` and the built-in `cuda`,
# at the course's sizes on a GPU. Its column says when your kernels ran in the simulator, which
# runs a matmul's CUDA threads one after another on each CPU core (2 million of them for
# (2, 256, 256)): there the sizes stop at 256.

# %%
# NBVAL_IGNORE_OUTPUT
%cuda auto
sizes = [64, 128, 256, 512, 1024] if gpu else [64, 128, 256]
timing("matmul", sizes=sizes, backends=["fast", "student", "cuda"])
