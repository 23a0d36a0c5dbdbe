# Modules: every import form (plain, as, from, dotted, inside a function, where it binds a
# local), modules as values, __name__, minitorch's names with MiniTorch's signatures
# (tuples as data and shapes, backend= taking the backend values), numba's names accepted,
# time. Expected values worked out by hand from Python's and MiniTorch's semantics.
import minitorch
import minitorch as mt
from minitorch import tensor, zeros as z
from minitorch import operators, datasets
import minitorch.operators
import minitorch.operators as ops
import math, random as rnd
import time
import numba
from numba import njit, prange
import numba.cuda
# expect: <module 'minitorch'> <module 'minitorch'> <module 'minitorch.operators'> <module 'random'> <module 'numba.cuda'>
print(minitorch, mt, ops, rnd, numba.cuda)
# expect: 42 3 -1.0
print(minitorch.operators.mul(6, 7), ops.add(1, 2), operators.neg(1))
# expect: __main__
print(__name__)
if __name__ == "__main__":
    # expect: running as a script
    print("running as a script")
def area(r):
    import math as m
    from math import pi
    return m.pi * r * r == pi * r * r
# expect: True
print(area(2.0))
# expect: tensor([1., 2., 3.], shape=(3,), backend=fast)
print(tensor((1, 2, 3)))
# expect: (2, 2)
print(mt.tensor(((1, 2), (3, 4))).shape)
x = mt.tensor([1.0, 2.0], backend=mt.SimpleBackend, requires_grad=True)
# expect: simple True
print(x.backend, x.requires_grad())
# expect: fast
print(mt.tensor([1], mt.FastTensorBackend).backend)
# expect: (2, 3) fast tensor([[1., 1.]], shape=(1, 2), backend=fast)
print(z((2, 3)).shape, mt.zeros((2, 3), backend=mt.FastTensorBackend).backend, mt.ones((1, 2)))
# expect: TensorBackend('simple') fast False
print(mt.SimpleBackend, mt.FastTensorBackend.name, mt.FastTensorBackend.cuda)
# expect: simple
print(zeros(2, backend=minitorch.SimpleBackend).backend)
seed(5)
a = rand(2, 3)
seed(5)
b = mt.rand((2, 3))
# expect: True (2, 3)
print(a.tolist() == b.tolist(), b.shape)
g = datasets["Simple"](10)
# expect: 10 10 10 <class 'Graph'> <class 'tuple'>
print(g.N, len(g.X), len(g.y), type(g), type(g.X[0]))
# expect: 6
print(len(mt.datasets["Spiral"](7).X))
def twice(v):
    return 2 * v
twice = njit(twice)
# expect: 8 10 12 2
print(twice(4), njit(parallel=True)(twice)(5), njit(inline="always")(twice)(6), numba.njit(twice)(1))
# expect: [0, 1, 2] [1, 3, 5] True
print(list(prange(3)), list(prange(1, 7, 2)), numba.cuda.is_available() == cuda_available())
t0 = time.perf_counter()
time.sleep(0.01)
# expect: True True
print(time.perf_counter() - t0 >= 0.01, time.time() > 1.7e9)
# expect: {'Simple': <function simple>, 'Diag': <function diag>, 'Split': <function split>, 'Xor': <function xor>, 'Circle': <function circle>, 'Spiral': <function spiral>}
print(mt.datasets)
from numba import cuda
# expect: 6 True
print(cuda.jit(device=True)(twice)(3), cuda.jit(twice) is twice)
# expect: TypeError twice() is a CUDA kernel (cuda.jit): launch it with a grid, as twice[blocks, threads](...)
try:
    twice(4)
except TypeError as e:
    print("TypeError", e)
import math as m1
from minitorch import FastTensorBackend
# expect: True True False
print(m1 == math, FastTensorBackend == minitorch.FastTensorBackend, mt.SimpleBackend == mt.FastTensorBackend)
# expect: ['Simple', 'Diag', 'Split', 'Xor', 'Circle', 'Spiral']
print(minitorch.datasets.keys())
# statements after `;`: an import there stays an import, not a `from` import
import random as r2; from math import sqrt as sq; import time as t2; x2 = sq(9.0)
# expect: <module 'random'> 3.0 <module 'time'>
print(r2, x2, t2)
