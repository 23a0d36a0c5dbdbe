%%minitorch_file my-ops.py
# a file of the package must be a Python module's name, as import could not name it otherwise
x = 1
# expect-tb:   Cell line 1, column 1:
# expect-error: UsageError: %%minitorch_file my-ops.py: a file of the package is NAME.py, NAME a Python name (scalar.py, tensor_functions.py)
