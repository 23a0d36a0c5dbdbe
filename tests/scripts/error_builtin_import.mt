# A student's autodiff.py without Context: the kernel's scalar.py, which imports it, fails at
# its import line, and the traceback names the kernel's file (<module>: its top level). The
# failed file is forgotten, as a failed import, and minitorch has no Context of the kernel's.
# %%
%%minitorch_file autodiff.py
def backpropagate(variable, deriv):
    pass
# %%
import minitorch
try:
    minitorch.Context
except AttributeError as e:
    print(e)
# expect: module 'minitorch' has no attribute 'Context'
x = minitorch.Scalar(1.0)
# expect-error: ImportError: cannot import name 'Context' from 'minitorch.autodiff'
# expect-tb:   Cell line 7, column 15:
# expect-tb:   In <module>(), line 14, column 23 of minitorch/scalar.py:
# expect-tb:     from .autodiff import Context, Variable, backpropagate, central_difference
