# a function given to map is compiled for the tensor's backend: a raise in it (MiniTorch's
# template for a task not done yet) is a CompileError that points at the raise
def f(x):
    raise NotImplementedError("Need to implement for Task 3.1")

map(f, ones(3))
# expect-tb:   Cell line 6, column 1:
# expect-tb:   In f(), line 4, column 5 of the cell defining it:
# expect-tb:         raise NotImplementedError("Need to implement for Task 3.1")
# expect-error: CompileError: map(f): raise does not compile: the function runs on every element at once, with no errors of its own
