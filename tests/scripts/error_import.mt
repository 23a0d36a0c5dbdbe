# an unknown module is Python's ModuleNotFoundError, and says which modules there are
import math
import foo
# expect-tb:   Cell line 3, column 8:
# expect-tb:     import foo
# expect-tb:            ^
# expect-error: ModuleNotFoundError: No module named 'foo' (the kernel has math, random, time, argparse, dataclasses, typing, typing_extensions, numba, part of numpy, IPython.display, and minitorch with its files minitorch.operators, minitorch.tensor_data, ...; a cell that starts with %%minitorch_file NAME.py adds one)
