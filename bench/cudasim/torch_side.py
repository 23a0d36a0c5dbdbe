"""bench/gpu_kernels.sh's cuBLAS row: PyTorch's batched matmul (2, n, n) float32 on the GPU, TF32
off (float32 arithmetic, as the kernels'), CUDA events around 10 calls after a warm-up; the
median, and GFLOP/s."""
import torch

torch.backends.cuda.matmul.allow_tf32 = False
print("  n      PyTorch %s (cuBLAS), TF32 off" % torch.__version__)
for n in (256, 512, 1024):
    a = torch.rand((2, n, n), device="cuda")
    b = torch.rand((2, n, n), device="cuda")
    torch.bmm(a, b)
    torch.cuda.synchronize()
    ts = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.bmm(a, b)
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) / 1e3)
    t = sorted(ts)[5]
    print("  %-6d %.3f ms, %.0f GFLOP/s" % (n, t * 1e3, 2.0 * 2 * n ** 3 / t * 1e-9))
