# %% [markdown]
# # 2 · Task 3.1: parallel map, zip and reduce
#
# MiniTorch's Task 3.1 asks for `tensor_map`, `tensor_zip` and `tensor_reduce` compiled with
# Numba's `parallel=True`: the outer loop over output elements split between threads (`prange`),
# index buffers kept out of the inner loop, and a fast path when the operands are laid out
# alike. Here the same three kernels are the engine's **`fast`** backend, written in C with
# OpenMP (the threads) and SIMD (several floats per instruction), and **`simple`** keeps the
# serial reference loops (`to_index` → `broadcast_index` → `index_to_position` per element).
#
# The notebook pins two threads so that its tables read the same on every machine.

# %%
%threads 2
seed(0)
x = rand(1000, 1000)
y = rand(1000, 1000)
print(x.shape, x.backend)

# %% [markdown]
# ## What the parallel loops did
#
# `%diagnostics STATEMENT` runs the statement (here an assignment, so that no big result is
# shown) and shows, for every engine op it ran: the shapes
# and strides, the **path** the backend took, the threads, how the loop was cut into chunks
# (OpenMP's static schedule), the SIMD width, bytes moved, time, and the rate against this
# machine's measured peak. (Times and rates differ from run to run; the tests mask them.)
# Each op runs a few times: the time is its median run and the spread its fastest and slowest,
# so a first call's one-time costs do not decide it. When other programs were using the cores
# meanwhile, a note under the table says so: timings are then slower and noisier, and two
# threads can even look slower than one.

# %%
%diagnostics r = (x * y + x).relu().sum(1)

# %% [markdown]
# Read it row by row:
# - `mul` and `add` see operands of one shape, contiguous: the **contiguous** path is a single
#   loop over the storage, no index arithmetic at all — Task 3.1's "stride-aligned" fast path.
# - `relu` is a map over a contiguous tensor: the same path.
# - `sum(1)` reduces along the last dim: each output is a dot-product-like run over contiguous
#   memory, vectorised.
#
# A transposed operand is not aligned with the output; the backend falls back to a strided loop
# (still parallel and vectorised along the output's last dim), and moves the same bytes slower:

# %%
%diagnostics r = x.permute(1, 0) + y

# %% [markdown]
# Strided or contiguous, the numbers are the same — only the speed differs:

# %%
print(((x.permute(1, 0) + y) == (x.permute(1, 0).contiguous() + y)).all().item() == 1)

# %% [markdown]
# ## Same results
#
# Parallel and vectorised code must give the same numbers as the reference. Elementwise ops agree
# bit for bit; sums may differ in the last bits because the fast backend adds in a different
# order (several partial sums at once):

# %%
xs = x.to("simple")
ys = y.to("simple")
print("map/zip identical:", ((x * y + x).relu() == (xs * ys + xs).relu().to("fast")).all().item() == 1)
d = (x.sum(1) - xs.sum(1).to("fast")).abs().max().item()
print("largest difference of a row sum of 1000 floats:", d < 1e-3)

# %% [markdown]
# ## Speed-up
#
# `compare` runs a statement on each backend (each on private copies of the variables it uses),
# checks that the results agree, and times it. The chart and table are this machine's; the tests
# only check that this cell runs.

# %%
# NBVAL_IGNORE_OUTPUT
compare("(x * y + x).relu().sum(1)", backends=["simple", "fast"])

# %% [markdown]
# ## When parallelism does not pay
#
# Starting threads and splitting a loop costs about a microsecond; a tiny tensor's whole op is
# less than that. The fast backend therefore runs small ops **serially** (no OpenMP region at
# all) and keeps the threads for big ones. The diagnostics say which:

# %%
small = rand(10, 10)
%diagnostics r = small * small

# %%
%diagnostics r = x * x

# %% [markdown]
# ## Your own kernels: `map`, `zip` and `reduce` with a function
#
# In MiniTorch, `tensor_map(fn)` takes a plain Python function of one number and Numba compiles
# it (`njit`) into the parallel loop. Here `map(f, x)`, `zip(f, x, y)` and
# `reduce(f, x, dim, start)` do the same with a `def`: the function is compiled into a small
# register program and run over the tensor by the `fast` backend, in parallel.

# %%
def shifted_relu(v):
    return max(v - 0.5, 0.0)

def blend(a, b):
    return 0.3 * a + 0.7 * b

def larger(a, b):
    return a if a > b else b

t = tensor([[0.2, 0.9, 0.5], [1.5, -2.0, 0.7]])
print(map(shifted_relu, t))
print(zip(blend, t, tensor([1.0, 2.0, 3.0])))
reduce(larger, t, 1, start=-1e9)

# %% [markdown]
# ### Fusion: one pass instead of one per op
#
# `x * 2 + 1` is two ops, and each is a pass over memory: the multiply reads `x` and writes a
# temporary, the add reads the temporary and writes the result. Written as a function, both
# operations run on a block of 2,048 elements while it sits in the L1 cache, and `x` is read and
# the result written once. Compare the bytes column:

# %%
def f(v):
    return v * 2 + 1

%diagnostics y = x * 2 + 1

# %%
%diagnostics y = map(f, x)

# %% [markdown]
# The function must work on one number at a time: arithmetic, comparisons, `if`/`else`,
# `return`, locals, `for` over a `range` known in advance, and `abs min max exp log sqrt
# sigmoid tanh relu`. Anything else is an error at its line, before anything runs:

# %%
# NBVAL_RAISES_EXCEPTION
def noisy(v):
    print(v)
    return v

map(noisy, x)

# %% [markdown]
# ## Backends in one session
#
# `%backend` sets where new tensors go; `.to(...)` moves one. An op on tensors of two backends
# runs on the left one's, as MiniTorch's does: the right operand is moved there first.

# %%
%backend simple
s = ones(3)
%backend fast
f = ones(3)
print(s.backend, f.backend)

# %%
(s + f).backend, (f + s).backend
