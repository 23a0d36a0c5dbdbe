import math, random as rnd
import minitorch as mt
import minitorch.operators
from minitorch import operators, datasets, tensor, zeros as z
from numba import njit, prange, cuda
rnd.seed(3)
c = [1, 2, 3]
rnd.shuffle(c)
g = datasets["Xor"](4)
x = tensor(g.X, backend=mt.FastTensorBackend)
y = mt.zeros((2, 3), backend=mt.SimpleBackend)
def f(v):
    import math as m
    return m.log(v + 1) * operators.sigmoid(v)
print(mt.central_difference(f, 0.5), operators.map(f)([1, 2]), math.floor(rnd.uniform(0, 9)))
out = [0, 0]
mt.to_index(5, (2, 3), out)
if __name__ == "__main__":
    print(mt.shape_broadcast((2, 1), (3,)), njit(parallel=True)(f)(1.0), list(prange(2)))
