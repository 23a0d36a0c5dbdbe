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
