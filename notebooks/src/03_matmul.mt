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
x = rand(4, 3, requires_grad=true)
w = rand(3, 2, requires_grad=true)
(x @ w).sum().backward()
print(x.grad.shape, w.grad.shape)
print("w.grad is the column sums of x:", (w.grad - x.sum(0).permute(1, 0) * ones(1, 2)).abs().max().item() < 1e-6)
