# %% [markdown]
# # Hello, MiniTorch
#
# This notebook runs on **minitorch-kernel**, a Jupyter kernel written in C. Code cells are in a
# small Python-like language: numbers, strings, lists, variables, `for`/`if`/`while` blocks, and —
# as the kernel grows — tensors computed by its own C tensor engine (`simple`, `fast` and `cuda`
# backends).
#
# The value of a cell's last expression is shown as its result; `print` writes to stdout,
# `display` shows a value as rich output, and `warn` writes a warning to stderr.
# Run each cell with **Shift-Enter**.

# %%
print("hello, world")

# %%
x = 6
x * 7

# %%
for i in range(3):
    print(i)

# %%
display("a display")

# %%
warn("a warning")

# %% [markdown]
# Errors are Python-like: a type, a message, and where it happened. The kernel keeps every variable.

# %%
# NBVAL_RAISES_EXCEPTION
total = x * 2
totl + 1

# %% [markdown]
# A display can be updated in place: this is how training shows live progress.

# %%
# NBVAL_IGNORE_OUTPUT
display("step 0 of 3", display_id="progress")
for step in range(1, 4):
    sleep(0.1)
    update_display("step " + str(step) + " of 3", display_id="progress")

# %% [markdown]
# `sleep(seconds)` (or any long loop) can be stopped with **Kernel → Interrupt**: the cell ends with `KeyboardInterrupt` and `total` is still there.

# %%
total
