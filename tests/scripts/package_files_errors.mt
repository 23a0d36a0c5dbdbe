# The package's files: a file's globals are its own, running the cell again reloads it in the
# same module, the star-import order decides minitorch.NAME, and what is wrong with a file
# cell is a located error naming it.
# %%
%%minitorch_file tensor_functions.py
class Mul:
    where = "tensor_functions"
def tensor(ls):
    return ("student tensor", ls)
count = 0
def bump():
    global count
    count += 1
    return count
# %%
%%minitorch_file scalar_functions.py
class Mul:
    where = "scalar_functions"
_hidden = 1
__all__ = ["Mul", "only_listed"]
only_listed = 2
not_listed = 3
# %%
import minitorch
print(minitorch.Mul.where, minitorch.tensor([1]), minitorch.tensor_functions.Mul.where)
print(minitorch.tensor_functions.bump(), minitorch.tensor_functions.bump())
count = 100
print(minitorch.tensor_functions.count, count)
print(minitorch.only_listed, hasattr(minitorch, "not_listed"), hasattr(minitorch, "_hidden"))
print(minitorch.scalar_functions.not_listed)
# %%
%%minitorch_file tensor_functions.py
# run again: the same module, its names kept unless rebound
count = 10
# %%
print(minitorch.tensor_functions.bump(), minitorch.tensor([2])[0])
import minitorch.tensor_functions as tf
print(tf, tf.__name__, tf.__file__, tf.__package__, type(tf).__name__)
try:
    tf.bmp
except AttributeError as e:
    print(e)
try:
    from minitorch.scalar_functions import nothing
except ImportError as e:
    print(e)
try:
    import minitorch.layers
except ModuleNotFoundError as e:
    print(e)
# %% a statement a magic runs in a file, and dir(), see the file's globals
%%minitorch_file tensor_ops.py
secret = 7
%time y = secret * 2
names = dir()
# %%
print(minitorch.tensor_ops.y, minitorch.tensor_ops.names)
# %% %reset forgets the files: minitorch's names are the kernel's again
%reset -f
# %%
import minitorch
print(hasattr(minitorch.tensor_functions, "bump"), minitorch.tensor([2]))
# %%
%%minitorch_file nn.py
from . import tensor_functions
from .tensor_functions import tensor, zeros
from ..other import x
# expect: scalar_functions ('student tensor', [1]) tensor_functions
# expect: 1 2
# expect: 2 100
# expect: 2 False False
# expect: 3
# expect: 11 student tensor
# expect: <module 'minitorch.tensor_functions' (%%minitorch_file tensor_functions.py)> minitorch.tensor_functions tensor_functions.py minitorch module
# expect: module 'minitorch.tensor_functions' has no attribute 'bmp', did you mean 'bump'?
# expect: cannot import name 'nothing' from 'minitorch.scalar_functions'
# expect: No module named 'minitorch.layers': the kernel's minitorch has no such file; write yours in a cell that starts with %%minitorch_file layers.py
# expect-re: Wall time: .*
# expect: 14 ['__doc__', '__file__', '__name__', '__package__', 'secret', 'y']
# expect: Forgot 3 variables and 3 files of the package.
# expect: False tensor([2.], shape=(1,), backend=fast)
# expect-tb:     from ..other import x
# expect-error: ImportError: attempted relative import beyond top-level package
