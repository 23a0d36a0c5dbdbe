# MiniTorch's Tensor is the class of the kernel's tensors: `from minitorch import Tensor` for
# annotations and isinstance (MiniTorch's own test files import it), and Tensor(td, backend=...)
# makes a tensor over a TensorData's memory, as MiniTorch's tensor_strategies builds its tensors.
# The same class is minitorch.tensor's Tensor, the file a student's tensor.py replaces.
# %%
import minitorch
from minitorch import Tensor, TensorData
from minitorch.tensor import Tensor as FileTensor

t = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(isinstance(t, Tensor), type(t) is Tensor, FileTensor is Tensor, isinstance(2.0, Tensor))
# expect: True True True False
def double(x: Tensor) -> Tensor:
    return x * 2
print(double(t).tolist())
# expect: [[2.0, 4.0], [6.0, 8.0]]
# %% over a TensorData: its layout (a permuted view here), its memory shared
td = TensorData([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (3, 2))
p = td.permute(1, 0)
x = Tensor(p, backend=minitorch.SimpleBackend)
print(x.shape, x.tolist(), x.backend)
# expect: (2, 3) [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]] simple
x[0, 1] = 30.0
print(td.get((1, 0)), p.get((0, 1)))
# expect: 30.0 30.0
y = Tensor(td, backend=minitorch.FastTensorBackend)
print(y.shape, y.backend, y.requires_grad())
# expect: (3, 2) fast False
# %% a tensor's own TensorData: a new tensor without its history, on its backend
g = minitorch.tensor([1.0, 2.0])
g.requires_grad_(True)
h = Tensor(g._tensor)
print(h.requires_grad(), h.tolist(), h.backend == g.backend)
# expect: False [1.0, 2.0] True
