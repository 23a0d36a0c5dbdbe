import minitorch
from numba import njit, prange
@njit(parallel=True)
def k(out, shape, n):
    for i in prange(len(out)):
        idx = [0] * 4
        idx[0] = i // 2 % 3
        out[i] = idx[0] * n + len(shape) if i > 1 else -1.0
    return n // 2
t = minitorch.zeros((6,))
print(k(t._tensor._storage, t.shape, 2.5), t)
parallel_diagnostics(k)
