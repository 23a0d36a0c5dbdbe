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

# %% [markdown]
# ## Task 3.1 yourself: `tensor_map`, `tensor_zip` and `tensor_reduce`
#
# The backends above are the engine's. Task 3.1 is to write the three kernels yourself, as
# MiniTorch's `fast_ops.py` has them: loops over a tensor's raw storage with Task 2.1's index
# helpers (`to_index`, `broadcast_index`, `index_to_position`), given to Numba's
# `njit(parallel=True)` with the outer loop a `prange`. Here `njit` compiles them to native code
# with this machine's C compiler at their first call, and the `prange` loop runs on `%threads`
# threads. The cells keep MiniTorch's names and signatures, so course code pastes in. Your code
# goes where the template raises `NotImplementedError()` (the instructor's copy has a solution
# there, with the stride-aligned shortcut the task asks for in `tensor_map`). The cells that
# call `check` are the graded tests: each tests one of your functions.

# %%
import minitorch
from minitorch import MAX_DIMS, to_index, broadcast_index, index_to_position, shape_broadcast
from numba import njit, prange
import numpy as np

# %%
def tensor_map(fn):
    """A kernel applying fn to every element of in_storage, broadcast into out. When out and in
    have the same shape and strides it is one loop over the storage; otherwise each output
    index is turned into an input position. The outer loop is parallel."""

    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        ### BEGIN SOLUTION
        if np.array_equal(out_strides, in_strides) and np.array_equal(out_shape, in_shape):
            for i in prange(len(out)):
                out[i] = fn(in_storage[i])
            return
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            in_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])
        ### END SOLUTION

    return njit(parallel=True)(_map)

# %%
def tensor_zip(fn):
    """A kernel applying fn to pairs of elements of a_storage and b_storage, both broadcast to
    out's shape. The outer loop is parallel."""

    def _zip(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
        ### BEGIN SOLUTION
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            a_index = np.zeros(MAX_DIMS, np.int32)
            b_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            j = index_to_position(a_index, a_strides)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            k = index_to_position(b_index, b_strides)
            out[o] = fn(a_storage[j], b_storage[k])
        ### END SOLUTION

    return njit(parallel=True)(_zip)

# %%
def tensor_reduce(fn):
    """A kernel folding fn along reduce_dim of a_storage into out, whose size in that dim is 1
    and which starts filled with the reduction's start value. One output per iteration of the
    parallel loop; the inner loop runs along the reduced dim."""

    def _reduce(out, out_shape, out_strides, a_storage, a_shape, a_strides, reduce_dim):
        ### BEGIN SOLUTION
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            reduce_size = a_shape[reduce_dim]
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            for s in range(reduce_size):
                out_index[reduce_dim] = s
                j = index_to_position(out_index, a_strides)
                out[o] = fn(out[o], a_storage[j])
        ### END SOLUTION

    return njit(parallel=True)(_reduce)

# %% [markdown]
# The class of ops that makes them a backend is given, as in the course: `map(fn)`, `zip(fn)`
# and `reduce(fn, start)` each compile a kernel for one scalar function and return the function
# of tensors that runs it. `minitorch.TensorBackend(FastOps)` makes it this session's
# **`student`** backend: every tensor op there, `backward()` and `train()` included, runs your
# kernels.

# %%
class FastOps(minitorch.TensorOps):
    @staticmethod
    def map(fn):
        f = tensor_map(njit()(fn))

        def ret(a, out=None):
            if out is None:
                out = a.zeros(a.shape)
            f(*out.tuple(), *a.tuple())
            return out

        return ret

    @staticmethod
    def zip(fn):
        f = tensor_zip(njit()(fn))

        def ret(a, b):
            c_shape = shape_broadcast(a.shape, b.shape)
            out = a.zeros(c_shape)
            f(*out.tuple(), *a.tuple(), *b.tuple())
            return out

        return ret

    @staticmethod
    def reduce(fn, start=0.0):
        f = tensor_reduce(njit()(fn))

        def ret(a, dim):
            out_shape = list(a.shape)
            out_shape[dim] = 1
            out = a.zeros(tuple(out_shape))
            out._tensor._storage[:] = start
            f(*out.tuple(), *a.tuple(), dim)
            return out

        return ret


FastTensorBackend = minitorch.TensorBackend(FastOps)
FastTensorBackend

# %% [markdown]
# `check("3.1")` runs MiniTorch's Task 3.1 tests on your backend, with `simple` giving the
# expected values. For each test that fails it shows the smallest input that fails, what was
# expected and what your kernels gave (or the error they raised); the cell then fails.
#
# The three graded tests come first: `check("3.1", "map")` runs only the tests whose results
# your `tensor_map` alone computes (functions of one tensor, forward), and so on for `zip` and
# `reduce`, so that a mistake in one function costs that function's marks only.

# %%
# NBGRADER_TESTS test_tensor_map 3
check("3.1", "map")

# %%
# NBGRADER_TESTS test_tensor_zip 3
check("3.1", "zip")

# %%
# NBGRADER_TESTS test_tensor_reduce 3
check("3.1", "reduce")

# %% [markdown]
# Then the whole task, as the course runs it: the gradients go through all three functions at
# once, so this cell is not graded on its own (the three above are), but it is the course's test.

# %%
check("3.1")

# %% [markdown]
# Your backend at work: `relu` of a transposed tensor on it runs your `tensor_map`.
# `parallel_diagnostics()` without an argument describes the compiled functions this cell ran,
# here your map for the backend, with the time the built-in `fast` op takes on the same shapes
# and strides beside your kernel's.

# %%
xs = minitorch.rand((1000, 1000), backend=FastTensorBackend)
ys = xs.permute(1, 0).relu()
ys = xs.permute(1, 0).relu()
parallel_diagnostics()

# %% [markdown]
# What the compiler made of your map: which loop runs in parallel and how it is split, what
# each iteration has to itself (the index buffers are not allocated per iteration), what was
# compiled in, how many machine instructions each loop over elements runs per element (fewer
# per element where gcc vectorised the aligned shortcut), and the last call's time and rate
# against this machine's memory bandwidth. The
# aligned shortcut and the indexed loop take arguments of the same types, so they are one
# compiled function; a transposed input takes the indexed loop.

# %%
def relu(v):
    return v if v > 0.0 else 0.0

my_relu = tensor_map(njit()(relu))
out = zeros(1000, 1000)
my_relu(*out.tuple(), *x.tuple())  # aligned: the shortcut
my_relu(*out.tuple(), *x.permute(1, 0).tuple())  # transposed: the indexed loop
print("same as the built-in:", (out == x.permute(1, 0).relu()).all().item() == 1)
parallel_diagnostics(my_relu)

# %% [markdown]
# And its speed beside the built-in `fast` map on the same tensor (this machine's numbers; `-r 5
# -n 20` is 5 runs of 20 calls, where a bare `%timeit` would take seconds to choose its counts):

# %%
# NBVAL_IGNORE_OUTPUT
%timeit -r 5 -n 20 my_relu(*out.tuple(), *x.permute(1, 0).tuple())
%timeit -r 5 -n 200 r = x.permute(1, 0).relu()

# %% [markdown]
# MiniTorch's `project/parallel_check.py` runs here as the course wrote it, on your
# `tensor_map`, `tensor_zip` and `tensor_reduce`, with MiniTorch's `operators` as the functions
# they apply: its output is what the course asks you to paste into your README (the matrix
# multiply's part is in notebook 03). `fn.parallel_diagnostics(level=3)` is Numba's method: it
# prints the same report at every level, then `None`, as Numba's does.

# %%
# NBVAL_IGNORE_OUTPUT
from minitorch import operators

print("MAP")
tmap = tensor_map(njit()(operators.id))
out, a = minitorch.zeros((10,)), minitorch.zeros((10,))
tmap(*out.tuple(), *a.tuple())
print(tmap.parallel_diagnostics(level=3))

print("ZIP")
out, a, b = minitorch.zeros((10,)), minitorch.zeros((10,)), minitorch.zeros((10,))
tzip = tensor_zip(njit()(operators.eq))
tzip(*out.tuple(), *a.tuple(), *b.tuple())
print(tzip.parallel_diagnostics(level=3))

print("REDUCE")
out, a = minitorch.zeros((1,)), minitorch.zeros((10,))
treduce = tensor_reduce(njit()(operators.add))
treduce(*out.tuple(), *a.tuple(), 0)
print(treduce.parallel_diagnostics(level=3))
