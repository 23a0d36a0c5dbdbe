# an error inside a function of a package's file: the traceback names the file, as Python's
# name minitorch/scalar.py
# %%
%%minitorch_file helpers.py
def inverse(x):
    return 1 / x
# %%
from minitorch.helpers import inverse
inverse(0)
# expect-tb:   Cell line 2, column 1:
# expect-tb:   In inverse(), line 3, column 14 of minitorch/helpers.py:
# expect-tb:         return 1 / x
# expect-error: ZeroDivisionError: division by zero
