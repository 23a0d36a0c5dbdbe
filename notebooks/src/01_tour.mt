# %% [markdown]
# # 1 · A tour of tensors: storage, shape, strides
#
# MiniTorch's tensor (Module 2) is **a flat block of numbers plus a recipe for reading it**: a
# *shape* (how many entries along each dim) and *strides* (how many places to step in storage
# for one step along each dim). Everything in Module 3 — parallel loops, matmul, CUDA — is about
# walking that storage fast, so it pays to see the recipe clearly first.
#
# This kernel's tensors live in its C engine. Every cell here runs on the `fast` backend (the
# default); `simple` runs the same ops as plain serial loops.

# %%
x = tensor([[1, 2, 3], [4, 5, 6]])
x

# %% [markdown]
# As a picture, `heatmap` draws a matrix cell by cell (row 0 at the top):

# %%
heatmap(x, title="x: shape (2, 3), strides (3, 1)")

# %% [markdown]
# The storage is the six numbers in row order. To reach `x[i, j]` the engine computes the
# position `i * strides[0] + j * strides[1]` (MiniTorch's `index_to_position`):

# %%
print("shape", x.shape, " strides", x.strides, " size", x.size, " dims", x.dims)
print("x[1, 2] =", x[1, 2], "at position", 1 * x.strides[0] + 2 * x.strides[1])

# %% [markdown]
# ## Views share the storage
#
# `permute` reorders the dims by reordering shape *and* strides: no number moves. The transposed
# tensor reads the same storage column by column, so it is no longer **contiguous** (its strides
# are not the row-major ones for its shape).

# %%
t = x.permute(1, 0)
print("shape", t.shape, " strides", t.strides, " contiguous:", t.is_contiguous())
t

# %% [markdown]
# The same six storage cells, read in another order. Numbering the storage positions makes it
# visible: `x`'s positions run along its rows, `t`'s down its columns.

# %%
positions = tensor([[0, 1, 2], [3, 4, 5]])
heatmap(positions, title="storage position of each entry of x")
heatmap(positions.permute(1, 0), title="... and of each entry of t = x.permute(1, 0)")

# %% [markdown]
# Writing through one view is seen through the other — they are one storage:

# %%
t[0, 1] = 40
x

# %% [markdown]
# `view` re-reads a contiguous storage with a new shape (strides recomputed, nothing copied).
# A non-contiguous tensor cannot be viewed — the numbers are not in the order the new shape
# needs — and the error says what to do:

# %%
x.view(3, 2)

# %%
# NBVAL_RAISES_EXCEPTION
t.view(6)

# %%
c = t.contiguous()
print("contiguous copy: strides", c.strides)
c.view(6)

# %% [markdown]
# ## Broadcasting
#
# Zipping two tensors of different shapes lines their dims up from the right; a dim of size 1
# (or a missing one) is stretched to match — in the engine by a stride of 0, again without
# copying. `(3, 1) + (2,)` gives `(3, 2)`:

# %%
a = tensor([[1], [2], [3]])
b = tensor([10, 20])
print(a.shape, "+", b.shape, "->", (a + b).shape)
a + b

# %%
heatmap(a + b, title="a (3, 1) + b (2,): a's column repeated across, b's row down")

# %%
# NBVAL_RAISES_EXCEPTION
tensor([1, 2, 3]) + tensor([1, 2])

# %% [markdown]
# ## Reductions keep the dim
#
# As in MiniTorch, `sum(dim)` keeps the reduced dim with size 1, so the result still broadcasts
# against the original: centring the columns is one line.

# %%
m = tensor([[1.0, 2.0], [3.0, 6.0]])
print(m.sum(0), m.mean(1))
m - m.mean(0)

# %% [markdown]
# ## Gradients
#
# Every op records how to differentiate itself; `backward()` walks the graph and fills `.grad`
# of each leaf that asked for it. For `y = sum(w * w)`, dy/dw = 2w:

# %%
w = tensor([1.0, -2.0, 3.0], requires_grad=True)
y = (w * w).sum()
y.backward()
w.grad

# %% [markdown]
# The same numbers on the `simple` backend, whose loops are MiniTorch's reference operators —
# the fast backend must agree with it everywhere, and the tests check that it does:

# %%
ws = w.detach().to("simple")
print(ws.backend, (ws * ws).sum())
