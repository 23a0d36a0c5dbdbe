"""Numba side of the code-generator experiment (run.sh): MiniTorch's textbook Task 3.1/3.2 solutions
and Task 4.1's and 4.2's convolutions
(index math per element, prange over the output) on float32 storage; first call (compile) and
steady-state times."""
import os, sys, time, json
import numpy as np
from numba import njit, prange, set_num_threads

MAX_DIMS = 32

@njit(inline="always")
def to_index(ordinal, shape, out_index):
    cur = ordinal + 0
    for i in range(len(shape) - 1, -1, -1):
        sh = shape[i]
        out_index[i] = int(cur % sh)
        cur = cur // sh

@njit(inline="always")
def index_to_position(index, strides):
    position = 0
    for ind, stride in zip(index, strides):
        position += ind * stride
    return position

@njit(inline="always")
def broadcast_index(big_index, big_shape, shape, out_index):
    for i, s in enumerate(shape):
        if s > 1:
            out_index[i] = big_index[i + (len(big_shape) - len(shape))]
        else:
            out_index[i] = 0

def tensor_map(fn, aligned=False):
    # aligned: with the stride-aligned shortcut the task asks for (out and in laid out alike
    # are one loop over the storage)
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        if aligned and np.array_equal(out_strides, in_strides) and np.array_equal(out_shape, in_shape):
            for i in prange(len(out)):
                out[i] = fn(in_storage[i])
            return
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            in_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])
    return njit(parallel=True)(_map)

def tensor_zip(fn):
    def _zip(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            a_index = np.zeros(MAX_DIMS, np.int32)
            b_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            j = index_to_position(a_index, a_strides)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            k = index_to_position(b_index, b_strides)
            out[o] = fn(a_storage[j], b_storage[k])
    return njit(parallel=True)(_zip)

def tensor_reduce(fn):
    def _reduce(out, out_shape, out_strides, a_storage, a_shape, a_strides, reduce_dim):
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            reduce_size = a_shape[reduce_dim]
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            for s in range(reduce_size):
                out_index[reduce_dim] = s
                j = index_to_position(out_index, a_strides)
                out[o] = fn(out[o], a_storage[j])
    return njit(parallel=True)(_reduce)

def _mm(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    a_batch_stride = a_strides[0] if a_shape[0] > 1 else 0
    b_batch_stride = b_strides[0] if b_shape[0] > 1 else 0
    for n in prange(out_shape[0]):
        for i in range(out_shape[1]):
            for j in range(out_shape[2]):
                a_inner = n * a_batch_stride + i * a_strides[1]
                b_inner = n * b_batch_stride + j * b_strides[2]
                acc = 0.0
                for k in range(a_shape[2]):
                    acc += a_storage[a_inner] * b_storage[b_inner]
                    a_inner += a_strides[2]
                    b_inner += b_strides[1]
                out[n * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc

def _conv1d(out, out_shape, out_strides, out_size, input, input_shape, input_strides,
            weight, weight_shape, weight_strides, reverse):
    # Task 4.1 as MiniTorch's template writes it (shapes and strides unpacked, an assert)
    batch_, out_channels, out_width = out_shape
    batch, in_channels, width = input_shape
    out_channels_, in_channels_, kw = weight_shape
    assert batch == batch_ and in_channels == in_channels_ and out_channels == out_channels_
    s1 = input_strides
    s2 = weight_strides
    for i in prange(out_size):
        out_index = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, out_index)
        b = out_index[0]
        oc = out_index[1]
        x = out_index[2]
        acc = 0.0
        for ic in range(in_channels):
            for k in range(kw):
                xx = x - k if reverse else x + k
                if xx >= 0 and xx < width:
                    acc += (input[b * s1[0] + ic * s1[1] + xx * s1[2]]
                            * weight[oc * s2[0] + ic * s2[1] + k * s2[2]])
        out[index_to_position(out_index, out_strides)] = acc

def _conv2d(out, out_shape, out_strides, out_size, input, input_shape, input_strides,
            weight, weight_shape, weight_strides, reverse):
    # Task 4.2 as MiniTorch's template writes it (shapes and strides unpacked, an assert)
    batch_, out_channels, _, _ = out_shape
    batch, in_channels, height, width = input_shape
    out_channels_, in_channels_, kh, kw = weight_shape
    assert batch == batch_ and in_channels == in_channels_ and out_channels == out_channels_
    s1 = input_strides
    s2 = weight_strides
    s10, s11, s12, s13 = s1[0], s1[1], s1[2], s1[3]
    s20, s21, s22, s23 = s2[0], s2[1], s2[2], s2[3]
    for i in prange(out_size):
        out_index = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, out_index)
        b = out_index[0]
        oc = out_index[1]
        y = out_index[2]
        x = out_index[3]
        acc = 0.0
        for ic in range(in_channels):
            for dy in range(kh):
                for dx in range(kw):
                    if reverse:
                        yy = y - dy
                        xx = x - dx
                    else:
                        yy = y + dy
                        xx = x + dx
                    if yy >= 0 and yy < height and xx >= 0 and xx < width:
                        acc += (input[b * s10 + ic * s11 + yy * s12 + xx * s13]
                                * weight[oc * s20 + ic * s21 + dy * s22 + dx * s23])
        out[index_to_position(out_index, out_strides)] = acc

relu = njit()(lambda x: x if x > 0 else 0.0)
add = njit()(lambda x, y: x + y)

def tup(a):
    """(storage, shape, strides) of a numpy array viewed as MiniTorch's TensorData."""
    base = a if a.base is None else a.base
    st = np.array([s // 4 for s in a.strides], dtype=np.int32)
    return base.reshape(-1), np.array(a.shape, dtype=np.int32), st

def rows():
    x = np.random.rand(1000, 1000).astype(np.float32)
    row = np.random.rand(1, 1000).astype(np.float32)
    a2 = np.random.rand(2, 256, 256).astype(np.float32)
    a1 = np.random.rand(1, 512, 512).astype(np.float32)
    return x, row, a2, a1

def main():
    threads = int(sys.argv[1])
    first_only = sys.argv[2:] == ["first"]  # each row's first call only (bench/jit/run.sh)
    set_num_threads(threads)
    x, row, a2, a1 = rows()
    out = np.zeros((1000, 1000), np.float32)
    res = {}
    def timeit(name, fn, first):
        t0 = time.perf_counter(); first(); t1 = time.perf_counter()
        if first_only:
            res[name] = {"first_s": t1 - t0}
            return
        t2 = time.perf_counter()
        while time.perf_counter() - t2 < 0.2:  # as the kernel's side: a fifth of a second untimed
            fn()
        ts = []
        for _ in range(15):
            s = time.perf_counter(); fn(); ts.append(time.perf_counter() - s)
        ts.sort()
        res[name] = {"first_s": t1 - t0, "median_ms": ts[7] * 1e3, "min_ms": ts[0] * 1e3, "max_ms": ts[-1] * 1e3}
    m = tensor_map(relu)
    f = lambda: m(*tup(out), *tup(x))
    timeit("map relu contiguous", f, f)
    xt = x.T
    f = lambda: m(*tup(out), *tup(xt))
    timeit("map relu transposed", f, f)
    ma = tensor_map(relu, True)
    f = lambda: ma(*tup(out), *tup(x))
    timeit("map relu aligned shortcut", f, f)
    z = tensor_zip(add)
    f = lambda: z(*tup(out), *tup(x), *tup(row))
    timeit("zip add broadcast row", f, f)
    r = tensor_reduce(add)
    o0 = np.zeros((1, 1000), np.float32); o1 = np.zeros((1000, 1), np.float32)
    f = lambda: r(*tup(o0), *tup(x), 0)
    timeit("sum dim 0", f, f)
    f = lambda: r(*tup(o1), *tup(x), 1)
    timeit("sum dim 1", f, f)
    f = lambda: r(*tup(o0), *tup(x), 0)
    timeit("sum dim 0, unchecked", f, f)  # Numba checks no bounds unless asked
    mm = njit(parallel=True)(_mm)
    o2 = np.zeros((2, 256, 256), np.float32)
    f = lambda: mm(*tup(o2), *tup(a2), *tup(a2))
    timeit("matmul (2,256,256)", f, f)
    o3 = np.zeros((1, 512, 512), np.float32)
    f = lambda: mm(*tup(o3), *tup(a1), *tup(a1))
    timeit("matmul (1,512,512)", f, f)
    c1 = njit(parallel=True)(_conv1d)
    c1i = np.random.rand(16, 8, 256).astype(np.float32)
    c1w = np.random.rand(16, 8, 5).astype(np.float32)
    o5 = np.zeros((16, 16, 256), np.float32)
    f = lambda: c1(*tup(o5), o5.size, *tup(c1i), *tup(c1w), False)
    timeit("conv1d (16,8,256)x(16,8,5)", f, f)
    cv = njit(parallel=True)(_conv2d)
    ci = np.random.rand(16, 4, 28, 28).astype(np.float32)
    cw = np.random.rand(8, 4, 5, 5).astype(np.float32)
    o4 = np.zeros((16, 8, 28, 28), np.float32)
    f = lambda: cv(*tup(o4), o4.size, *tup(ci), *tup(cw), False)
    timeit("conv2d (16,4,28,28)x(8,4,5,5)", f, f)
    print(json.dumps(res))

if __name__ == "__main__":
    main()
