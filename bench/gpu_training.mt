# The training loop of notebook 06 ("the same loop, written by hand") in the language, on the
# cuda backend: the milliseconds of an epoch (split, 50 points, batch 10, rate 0.01) at hidden
# 10, 100 and 500, median (min-max) of 20 epochs after 5. Each batch reads its loss back, as
# train() does. bench/gpu_kernels.sh runs it as it is and with CUDA_LAUNCH_BLOCKING=1, which
# makes every launch wait for its kernel, as the library's calls all did before they queued.
%backend cuda
import time

for hidden in [10, 100, 500]:
    seed(20)
    m = mlp(2, hidden, 1)
    data = dataset("split", 50, seed=5)
    opt = sgd(m.parameters(), 0.01)
    times = []
    for epoch in range(25):
        t0 = time.perf_counter()
        total = 0.0
        for b in data.batches(10):
            x = b[0]
            y = b[1]
            opt.zero_grad()
            out = m(x).view(y.shape[0])
            prob = out * y + (out - 1) * (y - 1)
            loss = -prob.log()
            (loss / y.shape[0]).sum().view(1).backward()
            opt.step()
            total = total + loss.sum()[0]
        times.append(time.perf_counter() - t0)
    t = sorted(times[5:])
    print(f"  hidden {hidden:3d}: {t[len(t) // 2] * 1e3:7.2f} ms an epoch "
          f"({t[0] * 1e3:.2f}-{t[-1] * 1e3:.2f}), last loss {total:.4f}, backend {x.backend}")
