# %% [markdown]
# # 3 · Task 3.2: matrix multiplication
#
# Before Task 3.2, MiniTorch multiplies matrices the only way map/zip/reduce allow: **broadcast
# then reduce**. For `a` of shape (M, K) and `b` of shape (K, N), view `a` as (M, K, 1) and `b`
# as (1, K, N), zip them with `*` into an (M, K, N) tensor of every product, and sum over K.
# Task 3.2 replaces this with one fused kernel that never builds the (M, K, N) tensor.

# %%
%threads 2
seed(1)
a = rand(64, 128)
b = rand(128, 32)
via_zip = (a.view(64, 128, 1) * b.view(1, 128, 32)).sum(1).view(64, 32)
fused = a @ b
print(via_zip.shape, fused.shape)
print("same result:", (via_zip - fused).abs().max().item() < 1e-4)

# %% [markdown]
# ## Memory
#
# The broadcast version materialises M·K·N products: here 64 · 128 · 32 floats, four bytes each,
# before the sum throws most of them away. The fused kernel writes only the M·N outputs:

# %%
print("broadcast-then-reduce holds", 64 * 128 * 32 * 4 / 1024, "KiB of products")
print("fused matmul writes       ", 64 * 32 * 4 / 1024, "KiB of results")

# %% [markdown]
# The diagnostics show the two routes side by side: a `mul` over the whole (64, 128, 32)
# product and a reduce, against one `matmul` on a packed GEMM path (panels of `a` and `b` copied
# into cache-sized blocks and multiplied by a register-blocked micro-kernel with FMA):

# %%
%diagnostics r = (a.view(64, 128, 1) * b.view(1, 128, 32)).sum(1)

# %%
%diagnostics r = a @ b

# %% [markdown]
# ## How close to the machine?
#
# A matmul does 2·M·N·K floating-point operations. The last column compares the rate with the
# machine's FMA peak, measured by the kernel once (`mt_probe_fma_gflops`: independent FMA chains
# on every core). Larger matrices amortise the packing and come closer:

# %%
seed(2)
p = rand(512, 512)
q = rand(512, 512)
%diagnostics r = p @ q

# %% [markdown]
# ## Batched matmul with broadcast batch dims
#
# As in MiniTorch (and numpy), leading dims are batch dims and broadcast like any zip: a
# (2, 1, 8, 16) batch times a (3, 16, 4) batch is (2, 3, 8, 4): batch (i, j) is A[i] @ B[j].
# A check of that: summed over both batch dims, C is (A[0] + A[1]) @ (B[0] + B[1] + B[2]).

# %%
seed(3)
A = rand(2, 1, 8, 16)
B = rand(3, 16, 4)
C = A @ B
print(A.shape, "@", B.shape, "->", C.shape)
lhs = C.sum(0).sum(1).view(8, 4)
rhs = A.sum(0).view(8, 16) @ B.sum(0).view(16, 4)
print("sum over the batches agrees:", (lhs - rhs).abs().max().item() < 1e-3)

# %% [markdown]
# A plain matrix on either side is shared by every batch:

# %%
W = rand(16, 5)
print((A @ W).shape)

# %%
# NBVAL_RAISES_EXCEPTION
rand(2, 8, 16) @ rand(3, 15, 4)

# %% [markdown]
# ## Speed against the reference loops
#
# `simple` multiplies with three nested loops and index arithmetic per element; `fast` uses the
# packed GEMM on all threads. (This machine's numbers; the tests only check that it runs.)

# %%
# NBVAL_IGNORE_OUTPUT
compare("a @ b", backends=["simple", "fast"])

# %% [markdown]
# The gradient of a matmul is two more matmuls — `grad_a = grad @ b^T` and `grad_b = a^T @ grad`
# — which autodiff builds from transposed *views*, so they run through the same kernel without
# copying:

# %%
x = rand(4, 3, requires_grad=True)
w = rand(3, 2, requires_grad=True)
(x @ w).sum().backward()
print(x.grad.shape, w.grad.shape)
print("w.grad is the column sums of x:", (w.grad - x.sum(0).permute(1, 0) * ones(1, 2)).abs().max().item() < 1e-6)

# %% [markdown]
# ## Task 3.2 yourself: `_tensor_matrix_multiply`
#
# Task 3.2 is the matrix multiply of MiniTorch's `fast_ops.py`: a kernel over raw storage for
# batches of matrices (`out[n] = a[n] @ b[n]`, a batch of 1 broadcast), its outer loop a
# `prange`, and no index buffers in the inner loop (only multiply-adds and stride steps). Write
# it where the template raises `NotImplementedError()`; `njit` compiles it to native code at its
# first call.

# %%
import minitorch
from minitorch import shape_broadcast
from numba import njit, prange

# %%
def _tensor_matrix_multiply(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    """out[n, i, j] = sum over k of a[n, i, k] * b[n, k, j], for tensors of 3 dims; a batch
    dim of size 1 in a or b is broadcast. The batch loop is parallel."""
    a_batch_stride = a_strides[0] if a_shape[0] > 1 else 0
    b_batch_stride = b_strides[0] if b_shape[0] > 1 else 0
    ### BEGIN SOLUTION
    for n in prange(out_shape[0]):
        for i in range(out_shape[1]):
            for j in range(out_shape[2]):
                a_inner = n * a_batch_stride + i * a_strides[1]
                b_inner = n * b_batch_stride + j * b_strides[2]
                acc = 0.0
                for k in range(a_shape[2]):
                    acc += a_storage[a_inner] * b_storage[b_inner]
                    a_inner += a_strides[2]
                    b_inner += b_strides[1]
                out[n * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc
    ### END SOLUTION


tensor_matrix_multiply = njit(parallel=True, fastmath=True)(_tensor_matrix_multiply)

# %% [markdown]
# As in the course, `matrix_multiply` turns 2-dim tensors into batches of one and makes the
# output. The class derives from `minitorch.FastOps`, so the ops it does not write (map, zip,
# reduce: Task 3.1's, in the previous notebook) stay the built-in ones, and only the matmul is
# yours.

# %%
class MatmulOps(minitorch.FastOps):
    @staticmethod
    def matrix_multiply(a, b):
        both_2d = 0
        if len(a.shape) == 2:
            a = a.contiguous().view(1, a.shape[0], a.shape[1])
            both_2d += 1
        if len(b.shape) == 2:
            b = b.contiguous().view(1, b.shape[0], b.shape[1])
            both_2d += 1
        both_2d = both_2d == 2
        ls = list(shape_broadcast(a.shape[:-2], b.shape[:-2]))
        ls.append(a.shape[-2])
        ls.append(b.shape[-1])
        out = a.zeros(tuple(ls))
        tensor_matrix_multiply(*out.tuple(), *a.tuple(), *b.tuple())
        if both_2d:
            out = out.view(out.shape[1], out.shape[2])
        return out

# %% [markdown]
# `TensorBackend(MatmulOps)` makes it this session's student backend, and `check("3.2")` runs
# MiniTorch's Task 3.2 tests on it (the graded test: values and gradients of `mm` and `bmm`).

# %%
FastTensorBackend = minitorch.TensorBackend(MatmulOps)

# %%
# NBGRADER_TESTS test_matrix_multiply 4
check("3.2")

# %% [markdown]
# Your kernel beside the built-in matmul on the same (2, 256, 256) batch (this machine's
# numbers): the course's triple loop against a packed, vectorised GEMM.

# %%
a2 = rand(2, 256, 256)
o2 = zeros(2, 256, 256)
tensor_matrix_multiply(*o2.tuple(), *a2.tuple(), *a2.tuple())
print("largest difference from the built-in:", (o2 - a2 @ a2).abs().max().item() < 1e-3)

# %%
# NBVAL_IGNORE_OUTPUT
%timeit -r 5 -n 20 tensor_matrix_multiply(*o2.tuple(), *a2.tuple(), *a2.tuple())
%timeit -r 5 -n 200 r = a2 @ a2

# %% [markdown]
# The matrix multiply's part of MiniTorch's `project/parallel_check.py`, as the course wrote
# it: its output goes into your README with that of notebook 02's map, zip and reduce.

# %%
# NBVAL_IGNORE_OUTPUT
print("MATRIX MULTIPLY")
out, a, b = (
    minitorch.zeros((1, 10, 10)),
    minitorch.zeros((1, 10, 20)),
    minitorch.zeros((1, 20, 10)),
)
tmm = tensor_matrix_multiply
tmm(*out.tuple(), *a.tuple(), *b.tuple())
print(tmm.parallel_diagnostics(level=3))
