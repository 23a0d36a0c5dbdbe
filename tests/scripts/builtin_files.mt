# The kernel's own files of the package (kernel/lib/minitorch/) as the kernel shows them: the
# module's repr, a student's cell replacing a file that already ran, %reset forgetting both
# (the next Scalar is number 1 again), and a traceback through the kernel's files naming each
# file. Kernel-only messages, written by hand; the same lines as a student's file's otherwise.
# %%
import minitorch
print(minitorch.scalar)
# expect: <module 'minitorch.scalar' (the kernel's minitorch/scalar.py)>
print(minitorch.scalar.__file__, minitorch.scalar.__name__, minitorch.autodiff.__name__)
# expect: scalar.py minitorch.scalar minitorch.autodiff
print(minitorch.Scalar(1.0).unique_id, minitorch.Scalar(1.0).unique_id)
# expect: 1 2
# %%
%%minitorch_file scalar.py
class Scalar:
    pass
# %%
print(minitorch.scalar, minitorch.Scalar is minitorch.scalar.Scalar)
# expect: <module 'minitorch.scalar' (%%minitorch_file scalar.py)> True
print(hasattr(minitorch.scalar, "derivative_check"), hasattr(minitorch, "derivative_check"))
# expect: False False
# %%
%reset -f
# expect: Forgot 1 variable and 3 files of the package.
# %%
import minitorch
print(minitorch.Scalar(2.0).unique_id, minitorch.scalar)
# expect: 1 <module 'minitorch.scalar' (the kernel's minitorch/scalar.py)>
y = minitorch.Scalar(1.0) / 0.0
# expect-error: ZeroDivisionError: float division by zero
# expect-tb:   Cell line 4, column 27:
# expect-tb:   In __truediv__(), line 102, column 36 of minitorch/scalar.py:
# expect-tb:             return Mul.apply(self, Inv.apply(b))
# expect-tb:   In apply(), line 76, column 19 of minitorch/scalar_functions.py:
# expect-tb:   In forward(), line 132, column 26 of minitorch/scalar_functions.py:
# expect-tb:             return operators.inv(a)
