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
