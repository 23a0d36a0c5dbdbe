# a cell is not in a package (a %%minitorch_file cell is): a relative import is CPython's
# ImportError for a script, raised when it runs, so that MiniTorch's `if TYPE_CHECKING: from
# .tensor import Tensor` does nothing
if False:
    from .tensor import Tensor
print("skipped")
# expect: skipped
from .tensor_data import to_index
# expect-tb:   Cell line 8, column 1:
# expect-tb:     from .tensor_data import to_index
# expect-error: ImportError: attempted relative import with no known parent package (only a file of the package, a cell that starts with %%minitorch_file NAME.py, is in one)
