# raise in a function: the traceback shows the call in the cell, then the raise, and the last
# line is Python's `NotImplementedError: message` (MiniTorch's templates raise exactly this)
def backward(ctx, grad_output):
    "MiniTorch's template for a task not done yet."
    raise NotImplementedError("Need to implement for Task 3.5")

x = 1
backward(None, x)
# expect-tb:   Cell line 8, column 1:
# expect-tb:     backward(None, x)
# expect-tb:   In backward(), line 5, column 5 of the cell defining it:
# expect-tb:         raise NotImplementedError("Need to implement for Task 3.5")
# expect-tb:         ^
# expect-error: NotImplementedError: Need to implement for Task 3.5
