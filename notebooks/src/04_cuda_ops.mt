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
    w = tensor([1.0, 2.0, 3.0], requires_grad=true)
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

