# The kernel's side of run.sh (after a header with the imports and kernels.py): each row's
# first launch (compile included, an empty cache), then RUNS launches timed one by one; prints
# one JSON line per row, as numba_side.py does. The simulator's checks and counts are on.
import time


def timed(name, launch, check):
    t0 = time.perf_counter()
    launch()
    first = time.perf_counter() - t0
    ts = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        launch()
        ts.append(time.perf_counter() - t0)
    ts = sorted(ts)
    assert check(), name
    print('{"' + name + '": {"first_s": ' + repr(first) + ', "median_ms": ' +
          repr(ts[len(ts) // 2] * 1e3) + ', "min_ms": ' + repr(ts[0] * 1e3) + ', "max_ms": ' +
          repr(ts[-1] * 1e3) + ', "runs": ' + str(RUNS) + '}}')


def close(x, y):
    return bool((((x - y) * (x - y)).sum() < 1e-6).item())


vals = [float(i % 7) for i in range(48)]
a = minitorch.tensor(vals)
out = minitorch.zeros((2,))
timed("sum_practice (48)", lambda: jit_sum_practice[2, 32](out._tensor._storage, a._tensor._storage, 48),
      lambda: out.tolist() == [sum(vals[:32]), sum(vals[32:])])

x = minitorch.rand((32, 32)) - 0.5
y = minitorch.rand((32, 32)) - 0.5
z = minitorch.zeros((32, 32))
timed("mm_practice (32 x 32)",
      lambda: jit_mm_practice[1, (32, 32)](z._tensor._storage, x._tensor._storage, y._tensor._storage, 32),
      lambda: close(z, x @ y))

m_in = minitorch.rand((100, 100)) - 0.5
m_out = minitorch.zeros((100, 100))
timed("map relu (100, 100)",
      lambda: map_relu[(10000 + 31) // 32, 32](*m_out.tuple(), m_out.size, *m_in.tuple()),
      lambda: bool((m_out == m_in.relu()).all().item()))

A = minitorch.rand((2, 64, 64))
B = minitorch.rand((2, 64, 64))
C = minitorch.zeros((2, 64, 64))
timed("tiled matmul (2, 64, 64)",
      lambda: tensor_matrix_multiply[(2, 2, 2), (32, 32)](*C.tuple(), C.size, *A.tuple(), *B.tuple()),
      lambda: close(C, A @ B))
