# On a GPU (bench/gpu_kernels.sh, after kernels.py and a header of imports): the student's tiled
# matmul of kernels.py against the built-in cuda matmul (%cuda_matmul auto), on (2, n, n)
# float32 tensors in device memory; each the median of 10 calls after one untimed (the
# student's launch compiled with NVRTC at its first), wall time with the wait for the GPU.
import time

def median(f, k=10):
    f()
    ts = []
    for _ in range(k):
        t0 = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t0)
    return sorted(ts)[k // 2]

# Two more ways a student writes it: a thread per output reading a and b from global memory
# (naive), and the tiled kernel with the row on threadIdx.y and the column on threadIdx.x, so
# that a warp's threads read consecutive elements and write consecutive shared words (the
# simulator's diagnostics count the textbook layout's reads uncoalesced and its shared writes in
# 16-way bank conflicts)
@cuda.jit
def naive(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    batch = cuda.blockIdx.z
    i = cuda.blockIdx.x * cuda.blockDim.y + cuda.threadIdx.y
    j = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    if i < out_shape[1] and j < out_shape[2]:
        acc = 0.0
        for k in range(a_shape[2]):
            acc += a_storage[batch * a_strides[0] + i * a_strides[1] + k * a_strides[2]] * b_storage[batch * b_strides[0] + k * b_strides[1] + j * b_strides[2]]
        out[batch * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc

@cuda.jit
def tiled_rows_on_y(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    batch = cuda.blockIdx.z
    BLOCK_DIM = 32
    a_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    b_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    i = cuda.blockIdx.x * cuda.blockDim.y + cuda.threadIdx.y
    j = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    pi = cuda.threadIdx.y
    pj = cuda.threadIdx.x
    acc = 0.0
    for k0 in range(0, a_shape[2], BLOCK_DIM):
        if i < a_shape[1] and k0 + pj < a_shape[2]:
            a_shared[pi, pj] = a_storage[batch * a_strides[0] + i * a_strides[1] + (k0 + pj) * a_strides[2]]
        else:
            a_shared[pi, pj] = 0.0
        if j < b_shape[2] and k0 + pi < b_shape[1]:
            b_shared[pi, pj] = b_storage[batch * b_strides[0] + (k0 + pi) * b_strides[1] + j * b_strides[2]]
        else:
            b_shared[pi, pj] = 0.0
        cuda.syncthreads()
        for k in range(BLOCK_DIM):
            acc += a_shared[pi, k] * b_shared[k, pj]
        cuda.syncthreads()
    if i < out_shape[1] and j < out_shape[2]:
        out[batch * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc

print("  n      kernel                     ms        GFLOP/s   agree with the built-in")
for n in [256, 1024]:
    A = minitorch.rand((2, n, n)).to("cuda")
    B = minitorch.rand((2, n, n)).to("cuda")
    g = (n + 31) // 32
    for name, k in [("naive", naive), ("tiled, textbook layout", tensor_matrix_multiply), ("tiled, rows on y", tiled_rows_on_y)]:
        C = minitorch.zeros((2, n, n)).to("cuda")
        t = median(lambda: k[(g, g, 2), (32, 32)](*C.tuple(), C.size, *A.tuple(), *B.tuple()))
        d = (C - A @ B).to("fast")
        print("  " + str(n) + "   " + name + "   " + str(round(t * 1e3, 3)) + "   " + str(round(4.0 * n * n * n / t * 1e-9)) + "   " + str(bool(((d * d).sum() < 1e-6 * n * n).item())))

print("  n      student's tiled kernel         built-in cuda matmul        agree")
for n in [256, 512, 1024]:
    A = minitorch.rand((2, n, n)).to("cuda")
    B = minitorch.rand((2, n, n)).to("cuda")
    C = minitorch.zeros((2, n, n)).to("cuda")
    g = (n + 31) // 32
    ts = median(lambda: tensor_matrix_multiply[(g, g, 2), (32, 32)](*C.tuple(), C.size, *A.tuple(), *B.tuple()))
    tb = median(lambda: A @ B)
    d = (C - A @ B).to("fast")
    ok = bool(((d * d).sum() < 1e-6 * n * n).item())
    flops = 2.0 * 2 * n * n * n
    print("  " + str(n) + "    " + str(round(ts * 1e3, 3)) + " ms, " + str(round(flops / ts * 1e-9)) +
          " GFLOP/s     " + str(round(tb * 1e3, 3)) + " ms, " + str(round(flops / tb * 1e-9)) +
          " GFLOP/s     " + str(ok))
parallel_diagnostics(tensor_matrix_multiply)
