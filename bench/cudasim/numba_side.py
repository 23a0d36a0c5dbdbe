"""Numba's side of run.sh: bench/cudasim/kernels.py under Numba's CUDA simulator
(NUMBA_ENABLE_CUDASIM=1, set before numba is imported), on float32 storages and int32 shapes and
strides as MiniTorch's; prints one JSON line per row: the first launch (compile included) and
the median of the later ones (min-max), in the format of the kernel's side (ours.mt)."""
import json
import os
import sys
import time

os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
import numba  # noqa: E402
import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

MAX_DIMS = 32


# MiniTorch's index helpers (tensor_data.py's meaning), as device functions
@cuda.jit(device=True)
def to_index(ordinal, shape, out_index):
    cur = ordinal
    for i in range(len(shape) - 1, -1, -1):
        out_index[i] = cur % shape[i]
        cur = cur // shape[i]


@cuda.jit(device=True)
def index_to_position(index, strides):
    p = 0
    for i in range(len(strides)):
        p += index[i] * strides[i]
    return p


@cuda.jit(device=True)
def broadcast_index(big_index, big_shape, shape, out_index):
    off = len(big_shape) - len(shape)
    for i in range(len(shape)):
        out_index[i] = big_index[i + off] if shape[i] > 1 else 0


here = os.path.dirname(os.path.abspath(__file__))
exec(open(os.path.join(here, "kernels.py")).read())

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
rng = np.random.default_rng(1)


def strided(shape):
    st, s = [], 1
    for d in reversed(shape):
        st.append(s)
        s *= d
    return np.array(shape, np.int32), np.array(st[::-1], np.int32)


def timed(name, launch, check):
    t0 = time.perf_counter()
    launch()
    first = time.perf_counter() - t0
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        launch()
        ts.append(time.perf_counter() - t0)
    ts.sort()
    assert check(), name
    print(json.dumps({name: {"first_s": first, "median_ms": ts[len(ts) // 2] * 1e3,
                             "min_ms": ts[0] * 1e3, "max_ms": ts[-1] * 1e3, "runs": runs}}))
    sys.stdout.flush()


a = rng.random(48, dtype=np.float32)
out = np.zeros(2, np.float32)
timed("sum_practice (48)", lambda: jit_sum_practice[2, 32](out, a, 48),
      lambda: abs(out[0] - a[:32].sum()) < 1e-3 and abs(out[1] - a[32:].sum()) < 1e-3)

x = rng.random(32 * 32, dtype=np.float32) - 0.5
y = rng.random(32 * 32, dtype=np.float32) - 0.5
z = np.zeros(32 * 32, np.float32)
timed("mm_practice (32 x 32)", lambda: jit_mm_practice[1, (32, 32)](z, x, y, 32),
      lambda: np.allclose(z.reshape(32, 32), x.reshape(32, 32) @ y.reshape(32, 32), atol=1e-4))

m_in = rng.random(10000, dtype=np.float32) - 0.5
m_out = np.zeros(10000, np.float32)
shape, strides = strided((100, 100))
timed("map relu (100, 100)",
      lambda: map_relu[(10000 + 31) // 32, 32](m_out, shape, strides, 10000, m_in, shape, strides),
      lambda: np.array_equal(m_out, np.maximum(m_in, 0)))

A = rng.random(2 * 64 * 64, dtype=np.float32)
B = rng.random(2 * 64 * 64, dtype=np.float32)
C = np.zeros(2 * 64 * 64, np.float32)
s3, t3 = strided((2, 64, 64))
timed("tiled matmul (2, 64, 64)",
      lambda: tensor_matrix_multiply[(2, 2, 2), (32, 32)](C, s3, t3, C.size, A, s3, t3, B, s3, t3),
      lambda: np.allclose(C.reshape(2, 64, 64), A.reshape(2, 64, 64) @ B.reshape(2, 64, 64), atol=1e-3))
