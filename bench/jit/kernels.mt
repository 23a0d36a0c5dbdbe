# kernels.mt — the benchmark rows of students' njit kernels (run.sh): MiniTorch's textbook
# Task 3.1/3.2 solutions and Task 4.1's and 4.2's convolutions written in the language, timed beside the built-in op on the same
# shapes; one JSON member per row on stdout. The same code under Numba: ../jit_choice/numba_side.py.
# run.sh sets FIRST_ONLY before this text: 1 times each row's first call only.
import time
import minitorch
from minitorch import MAX_DIMS
from numba import njit, prange
import numpy as np


def to_index(ordinal, shape, out_index):
    cur = ordinal + 0
    for i in range(len(shape) - 1, -1, -1):
        sh = shape[i]
        out_index[i] = int(cur % sh)
        cur = cur // sh


def index_to_position(index, strides):
    position = 0
    for ind, stride in zip(index, strides):
        position += ind * stride
    return position


def broadcast_index(big_index, big_shape, shape, out_index):
    for i, s in enumerate(shape):
        if s > 1:
            out_index[i] = big_index[i + (len(big_shape) - len(shape))]
        else:
            out_index[i] = 0


to_index = njit(inline="always")(to_index)
index_to_position = njit(inline="always")(index_to_position)
broadcast_index = njit(inline="always")(broadcast_index)


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


def tensor_reduce(fn, checked=True):
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
    return njit(parallel=True, boundscheck=checked)(_reduce)


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

def relu(x):
    return x if x > 0 else 0.0


def add(x, y):
    return x + y


def timeit(name, f, builtin):
    t0 = time.perf_counter()
    f()
    first = time.perf_counter() - t0
    t0 = time.perf_counter()  # the call that switches to gcc's build, waiting for it if needed
    f()
    second = time.perf_counter() - t0
    if FIRST_ONLY:  # (the second call still ran: no gcc is left running into the next row)
        print(f'"{name}": {{"first_s": {first}}},')
        return
    # calls in the first tens of ms after gcc exits run up to twice slower on the shared VM
    # (bench/results/jit-2026-11-26-g.txt, part 5): a fifth of a second of calls, not timed
    t = time.perf_counter()
    while time.perf_counter() - t < 0.2:
        f()
    ts = []
    bs = []
    for _ in range(15):  # back to back, as Numba's side times its calls
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    for _ in range(15):  # then the built-in op on the same shapes (it allocates its output)
        t = time.perf_counter()
        builtin()
        bs.append(time.perf_counter() - t)
    ts = sorted(ts)
    bs = sorted(bs)
    print(f'"{name}": {{"first_s": {first}, "second_s": {second}, "median_ms": {ts[7] * 1e3}, '
          f'"min_ms": {ts[0] * 1e3}, "max_ms": {ts[14] * 1e3}, "builtin_ms": {bs[7] * 1e3}}},')


x = minitorch.rand((1000, 1000))
xt = x.permute(1, 0)
row = minitorch.rand((1, 1000))
a2 = minitorch.rand((2, 256, 256))
a1 = minitorch.rand((1, 512, 512))
out = minitorch.zeros((1000, 1000))
m = tensor_map(njit()(relu))
timeit("map relu contiguous", lambda: m(*out.tuple(), *x.tuple()), lambda: x.relu())
timeit("map relu transposed", lambda: m(*out.tuple(), *xt.tuple()), lambda: xt.relu())
ma = tensor_map(njit()(relu), True)
timeit("map relu aligned shortcut", lambda: ma(*out.tuple(), *x.tuple()), lambda: x.relu())
z = tensor_zip(njit()(add))
timeit("zip add broadcast row", lambda: z(*out.tuple(), *x.tuple(), *row.tuple()), lambda: x + row)
r = tensor_reduce(njit()(add))
o0 = minitorch.zeros((1, 1000))
o1 = minitorch.zeros((1000, 1))
timeit("sum dim 0", lambda: r(*o0.tuple(), *x.tuple(), 0), lambda: x.sum(0))
timeit("sum dim 1", lambda: r(*o1.tuple(), *x.tuple(), 1), lambda: x.sum(1))
# what the bounds checks cost: the same reduce with boundscheck=False (Numba's default)
ru = tensor_reduce(njit()(add), False)
timeit("sum dim 0, unchecked", lambda: ru(*o0.tuple(), *x.tuple(), 0), lambda: x.sum(0))
mm = njit(parallel=True)(_mm)
o2 = minitorch.zeros((2, 256, 256))
timeit("matmul (2,256,256)", lambda: mm(*o2.tuple(), *a2.tuple(), *a2.tuple()), lambda: a2 @ a2)
o3 = minitorch.zeros((1, 512, 512))
timeit("matmul (1,512,512)", lambda: mm(*o3.tuple(), *a1.tuple(), *a1.tuple()), lambda: a1 @ a1)
c1 = njit(parallel=True)(_conv1d)
c1i = minitorch.rand((16, 8, 256))
c1w = minitorch.rand((16, 8, 5))
o5 = minitorch.zeros((16, 16, 256))
timeit("conv1d (16,8,256)x(16,8,5)",
       lambda: c1(*o5.tuple(), o5.size, *c1i.tuple(), *c1w.tuple(), False),
       lambda: minitorch.conv1d(c1i, c1w))
cv = njit(parallel=True)(_conv2d)
ci = minitorch.rand((16, 4, 28, 28))
cw = minitorch.rand((8, 4, 5, 5))
o4 = minitorch.zeros((16, 8, 28, 28))
timeit("conv2d (16,4,28,28)x(8,4,5,5)",
       lambda: cv(*o4.tuple(), o4.size, *ci.tuple(), *cw.tuple(), False),
       lambda: minitorch.conv2d(ci, cw))
# the compiled kernels' last results against the built-in ops
ok = ((o3 - a1 @ a1).abs().max().item() < 1e-3 and (out - (x + row)).abs().max().item() == 0.0
      and (o4 - minitorch.conv2d(ci, cw)).abs().max().item() < 1e-3
      and (o5 - minitorch.conv1d(c1i, c1w)).abs().max().item() < 1e-3)
print(f'"checked": {{"ok": {"true" if ok else "false"}}},')
