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


# a class of ops of one's own is the student backend (student_backend.mt); one that defines no
# op says which is missing at the first op that needs it
S = minitorch.TensorBackend(MyOps)
print(S, S.cuda)
# expect: TensorBackend('student') False
try:
    minitorch.ones((2,), backend=S).exp()
except NotImplementedError as e:
    print(e)
# expect: MyOps.map is not written yet: the student backend's map(exp) needs it (write it as a @staticmethod of MyOps, then run TensorBackend(MyOps) again)
try:
    minitorch.TensorBackend(minitorch.TensorOps)
except TypeError as e:
    print(e)
# expect: TensorBackend(TensorOps): TensorOps only names the ops; give TensorBackend a class deriving from it that defines them
try:
    minitorch.TensorOps.map(abs)
except NotImplementedError as e:
    print("NotImplementedError:", str(e)[:35])
# expect: NotImplementedError: TensorOps only names map, cmap, zip
minitorch.TensorBackend(3)
# expect-error: TypeError: TensorBackend() takes a class of ops (minitorch.FastOps, SimpleOps or CudaOps), not int
