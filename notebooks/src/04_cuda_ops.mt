# %% [markdown]
# # 4 · Task 3.3: CUDA operations
#
# Task 3.3 moves map, zip and reduce to the GPU. The idea is Task 3.1's parallel loop taken to
# its extreme: instead of two or sixteen threads each walking a range of the output, **one GPU
# thread per output element**, tens of thousands at once. Threads come in *blocks* (which share
# fast on-chip memory) and blocks in a *grid*.
#
# This kernel's `cuda` backend is that, in `engine/src/cuda/ops.cu`. Tensors on it live in GPU
# memory; `.to("cuda")` and `.to("fast")` copy between the two. The first half of this notebook
# works out what each GPU thread computes, in the language itself (it runs anywhere); the second
# half runs the real kernels when there is a GPU, and says so when there is none.

# %%
gpu = cuda_available()  # true with a usable GPU; the GPU cells below print which

# %% [markdown]
# ## One thread, one output
#
# A launch of `blocks` blocks of `threads` threads gives each thread the number
# `i = blockIdx.x * blockDim.x + threadIdx.x`. For a zip `out = a + b` with `out` of shape
# (3, 4), thread `i` turns `i` into an index of `out` (MiniTorch's `to_index`), maps it into
# each input's shape (`broadcast_index`: a dim of size 1 always reads index 0) and into storage
# positions (`index_to_position`). Here for `a` of shape (3, 4) and `b` of shape (1, 4):

# %%
def to_index(i, shape):
    idx = []
    for d in range(len(shape)):
        idx.append(0)
    for d in range(len(shape) - 1, -1, -1):
        idx[d] = i % shape[d]
        i = i // shape[d]
    return idx

def position(idx, shape, strides):
    p = 0
    for d in range(len(shape)):
        if shape[d] != 1:
            p = p + idx[d] * strides[d]
    return p

a = tensor([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
b = tensor([[100, 200, 300, 400]])
for i in [0, 5, 11]:
    idx = to_index(i, [3, 4])
    print("thread", i, "-> out index", idx, "reads a at", position(idx, a.shape, a.strides),
          "and b at", position(idx, b.shape, b.strides))

# %%
a + b

# %% [markdown]
# The same for a column vector `(3, 1)` zipped with a row `(1, 4)`: each input is read along one
# dim only, so thread 6 (index [1, 2]) reads the column's entry 1 and the row's entry 2:

# %%
col = tensor([[1], [2], [3]])
row = tensor([[10, 20, 30, 40]])
idx = to_index(6, [3, 4])
print(idx, position(idx, col.shape, col.strides), position(idx, row.shape, row.strides))
col * row

# %% [markdown]
# ## Blocks and the grid-stride loop
#
# A block holds at most 1,024 threads; this backend uses 256 per block and launches at most 32
# blocks per streaming multiprocessor (SM) — enough to keep every SM busy — so a big tensor has
# more elements than threads. Each thread then strides by the whole grid: thread `i` handles
# `i`, `i + grid`, `i + 2 * grid`, … A tiny example, 10 elements on 2 blocks of 4 threads:

# %%
n = 10
threads = 4
blocks = 2
grid = threads * blocks
for block in range(blocks):
    for t in range(threads):
        i = block * threads + t
        mine = []
        while i < n:
            mine.append(i)
            i = i + grid
        print("block", block, "thread", t, "handles", mine)

# %% [markdown]
# For a million elements: 3,907 blocks of 256 threads would cover them one each; on a GPU with
# 132 SMs (an H100) the backend launches 132 · 32 = 4,224 blocks at most, so here each thread
# handles one element, and for 64 million, about sixty.

# %%
n = 1000000
print("blocks for one element each:", (n + 255) // 256)
print("elements per thread at 4,224 blocks, 64M elements:", (64 * 1024 * 1024 + 4224 * 256 - 1) // (4224 * 256))

# %% [markdown]
# ## Reductions
#
# A reduction cannot give each output element to a thread when there are few outputs: summing a
# million numbers into one would leave one thread doing everything. Instead a **block** folds one
# output: each thread adds a strided share of the dim, then the block's partial sums fold
# pairwise — first inside each warp of 32 threads with register shuffles, then across the warps
# through shared memory. The fold, pairwise, for 8 partial sums:

# %%
parts = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]
step = len(parts) // 2
while step > 0:
    for j in range(step):
        parts[j] = parts[j] + parts[j + step]
    print("step", step, parts)
    step = step // 2
print("sum:", parts[0])

# %% [markdown]
# When the outputs are too few to fill the GPU — one output, say — each output's dim is cut into
# parts, a block per part, and a second small kernel adds the parts: a grid-wide reduction.
#
# ## On the GPU
#
# With a GPU, the cell below runs map, zip and reduce on `cuda`, checks them against `fast`, and
# shows the launch table of `%diagnostics`: the kernel, the grid and block sizes, shared memory
# and registers, the theoretical occupancy, the time from CUDA events and the rate against the
# device's peak. Elementwise ops on contiguous tensors read `float4` (four floats per load);
# `sum()` of a million elements is the grid-wide reduction above.

# %%
# NBVAL_IGNORE_OUTPUT
seed(0)
x = rand(1000, 1000)
y = rand(1000, 1000)
print("GPU available:", gpu)
if gpu:
    xc = x.to("cuda")
    yc = y.to("cuda")
    zc = (xc * yc + xc).relu().sum(1)
    z = (x * y + x).relu().sum(1)
    print("agrees with fast:", (zc.to("fast") - z).abs().max().item() < 1e-2)
    %diagnostics r = (xc * yc + xc).relu().sum(1)
    %diagnostics r = xc.sum()
else:
    print("no GPU here: skipped")

# %% [markdown]
# ## Where the GPU loses, and where it wins
#
# A kernel launch and the wait for its end cost microseconds whatever the size; a tiny op on the
# CPU costs less than that. `compare` runs the same statement on each backend (on private copies
# of the data there) and times it: on a 10 x 10 tensor the CPU wins, on a million elements the
# GPU. Without a GPU the `cuda` rows say why it cannot run — the build, the NVIDIA driver, the
# GPU, or its generation.

# %%
# NBVAL_IGNORE_OUTPUT
small = rand(10, 10)
compare("(small * small + small).sum()", backends=["fast", "cuda"])
compare("(x * y + x).relu().sum(1)", backends=["fast", "cuda"])

# %% [markdown]
# ## Moving data
#
# A tensor on the GPU is a copy: changing it does not change the CPU tensor it came from, ops
# between the two are refused until one is moved (the error names both backends), and autodiff
# works across `.to`: the gradient of a CPU tensor used on the GPU comes back to the CPU.

# %%
# NBVAL_IGNORE_OUTPUT
if gpu:
    v = tensor([1.0, 2.0, 3.0])
    vc = v.to("cuda")
    vc[0] = 10
    print(v[0], vc[0], vc.backend)
    w = tensor([1.0, 2.0, 3.0], requires_grad=True)
    ((w.to("cuda") * 2).sum()).backward()
    print(w.grad, w.grad.backend)
else:
    print("no GPU here: skipped")

# %% [markdown]
# ## Your own CUDA kernel
#
# MiniTorch's Task 3.3 writes `tensor_map(fn)` with Numba's `cuda.jit`: the Python function
# becomes device code. Here `map(f, x)` on a `cuda` tensor does the same: the function is
# compiled into the CUDA C below (one thread per element, the function's operations in order,
# constants by their exact bits), which NVRTC, the CUDA toolkit's run-time compiler, turns into
# a kernel the first time it runs. `cuda_source` shows it, with or without a GPU:

# %%
def shifted_relu(v):
    return max(v - 0.5, 0.0)

print(cuda_source(shifted_relu))

# %%
# NBVAL_IGNORE_OUTPUT
if gpu:
    xc = rand(1000, 1000, backend="cuda")
    same = (map(shifted_relu, xc).to("fast") == map(shifted_relu, xc.to("fast"))).all().item()
    print("GPU and CPU agree:", same == 1)
    %diagnostics r = map(shifted_relu, xc)
else:
    print("no GPU here: skipped")


# %% [markdown]
# ## Task 3.3 yourself: kernels with `cuda.jit`
#
# The `cuda` backend's kernels above are the engine's. Task 3.3 is to write them yourself, as
# MiniTorch's `cuda_ops.py` has them: Python functions given to Numba's `cuda.jit`, run by every
# thread of a launch `kernel[blocks, threads](...)`, each finding its element from
# `cuda.blockIdx`, `cuda.blockDim` and `cuda.threadIdx`. With a GPU this kernel compiles them to
# CUDA C (NVRTC) and runs them there. Without one — or after `%cuda simulate` — it runs them in
# its **CUDA simulator**: every thread of every block on the CPU, with CUDA's rules (each
# thread's own locals, each block's shared memory, every thread of a block meeting at each
# `cuda.syncthreads()`), and it stops at what a GPU would let pass silently: an index outside an
# array, two threads racing on a shared element, a barrier some thread never reaches, a read of
# shared memory nobody wrote. Each error names the block, the thread, the array, the index and
# the line.
#
# The cells keep MiniTorch's names and signatures, so course code pastes in. Your code goes
# where the template raises `NotImplementedError()`; the cells that call `check` are the graded
# tests.

# %%
import numba
from numba import cuda
import minitorch
from minitorch import MAX_DIMS, to_index, broadcast_index, index_to_position, shape_broadcast

# %%
# NBVAL_IGNORE_OUTPUT
%cuda

# %% [markdown]
# ### Practice: a block's sum in shared memory
#
# `_sum_practice` sums each block's 32 values into `out[block]`: every thread copies its value
# into the block's shared `cache`, then the block folds it pairwise (the fold above), with a
# barrier after each step so that no thread reads a cell another is still writing. MiniTorch
# launches `size // 32 + 1` blocks for an `out` of two cells: with 64 values the third block has
# no cell of its own, and must not write.

# %%
def _sum_practice(out, a, size):
    BLOCK_DIM = 32
    cache = cuda.shared.array(BLOCK_DIM, numba.float64)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    pos = cuda.threadIdx.x
    ### BEGIN SOLUTION
    if i < size:
        cache[pos] = a[i]
    else:
        cache[pos] = 0.0
    cuda.syncthreads()
    s = 1
    while s < BLOCK_DIM:
        if pos % (2 * s) == 0:
            cache[pos] += cache[pos + s]
        s *= 2
        cuda.syncthreads()
    if pos == 0 and cuda.blockIdx.x * BLOCK_DIM < size:
        out[cuda.blockIdx.x] = cache[0]
    ### END SOLUTION


jit_sum_practice = cuda.jit()(_sum_practice)

# %% [markdown]
# ### map, zip and reduce
#
# `tensor_map` and `tensor_zip` give each thread one output element, as the first half of this
# notebook worked out; `tensor_reduce` gives each **block** one output element: its 1,024
# threads load the reduced dim's values into shared memory and fold them pairwise. (MiniTorch's
# `CudaOps.reduce` launches one block per 1,024 values of the dim, so a longer dim is left as
# partial results; the student backend says so if you meet it.)

# %%
def tensor_map(fn):
    def _map(out, out_shape, out_strides, out_size, in_storage, in_shape, in_strides):
        out_index = cuda.local.array(MAX_DIMS, numba.int32)
        in_index = cuda.local.array(MAX_DIMS, numba.int32)
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        ### BEGIN SOLUTION
        if i < out_size:
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])
        ### END SOLUTION

    return cuda.jit()(_map)


def tensor_zip(fn):
    def _zip(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
        out_index = cuda.local.array(MAX_DIMS, numba.int32)
        a_index = cuda.local.array(MAX_DIMS, numba.int32)
        b_index = cuda.local.array(MAX_DIMS, numba.int32)
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        ### BEGIN SOLUTION
        if i < out_size:
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            j = index_to_position(a_index, a_strides)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            k = index_to_position(b_index, b_strides)
            out[o] = fn(a_storage[j], b_storage[k])
        ### END SOLUTION

    return cuda.jit()(_zip)


def tensor_reduce(fn):
    def _reduce(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, reduce_dim, reduce_value):
        BLOCK_DIM = 1024
        cache = cuda.shared.array(BLOCK_DIM, numba.float64)
        out_index = cuda.local.array(MAX_DIMS, numba.int32)
        out_pos = cuda.blockIdx.x
        pos = cuda.threadIdx.x
        ### BEGIN SOLUTION
        cache[pos] = reduce_value
        if out_pos < out_size:
            to_index(out_pos, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            out_index[reduce_dim] = out_index[reduce_dim] * BLOCK_DIM + pos
            if out_index[reduce_dim] < a_shape[reduce_dim]:
                cache[pos] = a_storage[index_to_position(out_index, a_strides)]
            cuda.syncthreads()
            s = 1
            while s < BLOCK_DIM:
                if pos % (2 * s) == 0:
                    cache[pos] = fn(cache[pos], cache[pos + s])
                s *= 2
                cuda.syncthreads()
            if pos == 0:
                out[o] = cache[0]
        ### END SOLUTION

    return cuda.jit()(_reduce)

# %% [markdown]
# MiniTorch's `CudaOps` launches them (given, as in the course's template): 32 threads a block
# for map and zip, a block of 1,024 per output for reduce. `TensorBackend(CudaOps)` makes it the
# session's `student` backend: every op on a tensor there — autodiff's and `train()`'s too —
# runs your kernels.

# %%
THREADS_PER_BLOCK = 32


class CudaOps(minitorch.TensorOps):
    cuda = True

    @staticmethod
    def map(fn):
        f = tensor_map(cuda.jit(device=True)(fn))

        def ret(a, out=None):
            if out is None:
                out = a.zeros(a.shape)
            blockspergrid = (out.size + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK
            f[blockspergrid, THREADS_PER_BLOCK](*out.tuple(), out.size, *a.tuple())
            return out

        return ret

    @staticmethod
    def zip(fn):
        f = tensor_zip(cuda.jit(device=True)(fn))

        def ret(a, b):
            out = a.zeros(shape_broadcast(a.shape, b.shape))
            blockspergrid = (out.size + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK
            f[blockspergrid, THREADS_PER_BLOCK](*out.tuple(), out.size, *a.tuple(), *b.tuple())
            return out

        return ret

    @staticmethod
    def reduce(fn, start=0.0):
        f = tensor_reduce(cuda.jit(device=True)(fn))

        def ret(a, dim):
            out_shape = list(a.shape)
            out_shape[dim] = (a.shape[dim] - 1) // 1024 + 1
            out_a = a.zeros(tuple(out_shape))
            f[out_a.size, 1024](*out_a.tuple(), out_a.size, *a.tuple(), dim, start)
            return out_a

        return ret


GPUBackend = minitorch.TensorBackend(CudaOps)
GPUBackend

# %% [markdown]
# `check("3.3")` runs MiniTorch's Task 3.3 tests: your `jit_sum_practice` launched as the course
# does (16, 64 and 48 values), sums through your backend, then every test of Task 3.1 on it, with
# `simple` giving the expected values. The graded tests take one function each, as in
# notebook 2: `check("3.3", "sum_practice")`, then `"map"`, `"zip"` and `"reduce"` on your
# backend; the whole task's check comes after them.

# %%
# NBGRADER_TESTS test_sum_practice 2
check("3.3", "sum_practice")

# %%
# NBGRADER_TESTS test_cuda_map 2
check("3.3", "map")

# %%
# NBGRADER_TESTS test_cuda_zip 2
check("3.3", "zip")

# %%
# NBGRADER_TESTS test_cuda_reduce 2
check("3.3", "reduce")

# %%
check("3.3")

# %% [markdown]
# Your `jit_sum_practice` at work, launched as the course does on 48 values: two blocks, and
# each block's sum in its cell of `out`:

# %%
x = minitorch.tensor([float(i) for i in range(48)])
out = minitorch.zeros((2,))
jit_sum_practice[48 // 32 + 1, 32](out._tensor._storage, x._tensor._storage, 48)
out.tolist(), [sum(range(32)), sum(range(32, 48))]

# %% [markdown]
# ### What the simulator tells
#
# A block sum without its barriers: each thread reads its neighbour's cell while that neighbour
# may not have written it yet. On a GPU the result depends on how the warps were scheduled; the
# simulator stops at the first such pair, and names both threads and both lines:

# %%
# NBVAL_RAISES_EXCEPTION
%cuda simulate
@cuda.jit
def racy_sum(out, a, size):
    cache = cuda.shared.array(32, numba.float64)
    pos = cuda.threadIdx.x
    cache[pos] = a[pos]
    s = 1
    while s < 32:
        if pos % (2 * s) == 0:
            cache[pos] += cache[pos + s]
        s *= 2
    if pos == 0:
        out[0] = cache[0]

racy_sum[1, 32](out._tensor._storage, x._tensor._storage, 32)

# %% [markdown]
# And the course's `sum_practice` launch on 64 values with the write left unguarded: the third
# block writes `out[2]`, past the end. A GPU writes there silently (whatever lies after `out`
# changes); the simulator, like Numba's, stops:

# %%
# NBVAL_RAISES_EXCEPTION
@cuda.jit
def unguarded(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if cuda.threadIdx.x == 0:
        out[cuda.blockIdx.x] = a[i] if i < size else 0.0

unguarded[64 // 32 + 1, 32](out._tensor._storage, minitorch.ones((64,))._tensor._storage, 64)

# %%
%cuda auto
