# MiniTorch's backends from classes of ops: TensorBackend(FastOps) as run_fast_tensor.py builds it
import minitorch

FastTensorBackend = minitorch.TensorBackend(minitorch.FastOps)
print(FastTensorBackend == minitorch.FastTensorBackend, minitorch.TensorBackend(minitorch.SimpleOps) == minitorch.SimpleBackend)
# expect: True True
x = minitorch.tensor([1.0, 2.0], backend=FastTensorBackend)
print(x.backend, minitorch.tensor([1.0], backend=minitorch.TensorBackend(minitorch.SimpleOps)).backend)
# expect: fast simple
print(minitorch.TensorOps.cuda, minitorch.FastOps.cuda, minitorch.CudaOps.cuda, issubclass(minitorch.FastOps, minitorch.TensorOps))
# expect: False False True True


class MyOps(minitorch.TensorOps):
    pass


try:
    minitorch.TensorBackend(MyOps)
except NotImplementedError as e:
    print("NotImplementedError:", str(e)[:40])
# expect: NotImplementedError: TensorBackend(MyOps): a backend made fro
try:
    minitorch.TensorOps.map(abs)
except NotImplementedError as e:
    print("NotImplementedError:", str(e)[:35])
# expect: NotImplementedError: TensorOps only names map, cmap, zip
minitorch.TensorBackend(3)
# expect-error: TypeError: TensorBackend() takes a class of ops (minitorch.FastOps, SimpleOps or CudaOps), not int
