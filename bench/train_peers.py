"""train_peers.py — MiniTorch's Task 3.5 loop in numpy and in PyTorch, for mt_train_bench.

The same work as train(): mlp(2, hidden, 1) (Linear -> ReLU -> Linear -> ReLU -> Linear ->
sigmoid, weights U(-0.5, 0.5), bias 0.1), a fresh shuffle every epoch, batches of 10, the
batch-mean binary cross-entropy of prob = out*y + (out-1)*(y-1), SGD at rate 0.05, and the
evaluation on every point each 10 epochs. numpy: forward and backward written out (float32).
PyTorch (when importable): autograd and torch.optim.SGD, one thread as ours. Prints the median
time per epoch and the min-max spread over --reps runs, in mt_train_bench's format. With
--device cuda --no-eval, PyTorch alone on the GPU, timed as mt_gpu_bench times the cuda
backend's autodiff-ops epoch.

With --accuracy, the reference for mt_train_bench's accuracy over many seeds instead: the same
loop in float64 (MiniTorch's own precision) on the random stream mt_train_bench's runs draw —
random.seed(seed), the points (x1 then x2, labels decided on the doubles), the three layers'
weights row by row, then one shuffle per epoch — so that for each seed it trains the same
network on the same data in the same batch order as ours, which computes in float32. It prints
how many seeds reach >= 48 of 50 correct after the last epoch, and with --ours (our counts,
seed by seed) how many give the same count.
"""

import argparse
import random
import statistics
import time

import numpy as np


RULES = {
    "simple": lambda x1, x2: x1 < 0.5,
    "split": lambda x1, x2: x1 < 0.2 or x1 > 0.8,
    "xor": lambda x1, x2: (x1 < 0.5 and x2 > 0.5) or (x1 > 0.5 and x2 < 0.5),
}


def dataset(name, n, rng):
    X = np.array([[rng.random(), rng.random()] for _ in range(n)], dtype=np.float32)
    x1, x2 = X[:, 0].astype(np.float64), X[:, 1].astype(np.float64)
    if name == "simple":
        y = x1 < 0.5
    elif name == "split":
        y = (x1 < 0.2) | (x1 > 0.8)
    elif name == "xor":
        y = ((x1 < 0.5) & (x2 > 0.5)) | ((x1 > 0.5) & (x2 < 0.5))
    else:
        raise SystemExit(f"train_peers.py: dataset {name} not supported")
    return X, y.astype(np.float32)


def init(hidden, rng, dtype=np.float32):
    sizes = [2, hidden, hidden, 1]
    params = []
    for i in range(3):
        w = np.array([[rng.random() - 0.5 for _ in range(sizes[i + 1])] for _ in range(sizes[i])],
                     dtype=dtype)
        params += [w, np.full(sizes[i + 1], 0.1, dtype=dtype)]
    return params


def numpy_epoch(params, X, y, rng, rate, batch):
    """One epoch of steps; returns its loss (-log(prob) summed over every point)."""
    total = 0.0
    idx = list(range(len(X)))
    rng.shuffle(idx)
    W1, b1, W2, b2, W3, b3 = params
    real = W1.dtype.type  # float32 for the timing, float64 for the accuracy reference
    for i in range(0, len(idx), batch):
        j = idx[i:i + batch]
        x, t = X[j], y[j]
        bs = real(len(j))
        z1 = x @ W1 + b1
        h1 = np.maximum(z1, 0)
        z2 = h1 @ W2 + b2
        h2 = np.maximum(z2, 0)
        out = 1 / (1 + np.exp(-(h2 @ W3 + b3)[:, 0]))
        prob = out * t + (out - 1) * (t - 1)
        total += float(-np.log(prob).sum())
        g_out = (-1 / bs) / prob * (t + (t - 1))
        gz3 = (g_out * out * (1 - out))[:, None]
        gW3, gb3 = h2.T @ gz3, gz3.sum(0)
        gz2 = (gz3 @ W3.T) * (z2 > 0)
        gW2, gb2 = h1.T @ gz2, gz2.sum(0)
        gz1 = (gz2 @ W2.T) * (z1 > 0)
        gW1, gb1 = x.T @ gz1, gz1.sum(0)
        for p, g in zip(params, (gW1, gb1, gW2, gb2, gW3, gb3)):
            p -= real(rate) * g
    return total


def numpy_correct(params, X, y):
    W1, b1, W2, b2, W3, b3 = params
    h = np.maximum(X @ W1 + b1, 0)
    h = np.maximum(h @ W2 + b2, 0)
    out = 1 / (1 + np.exp(-(h @ W3 + b3)[:, 0]))
    return int(((out > 0.5) == (y > 0.5)).sum())


def run_numpy(a, seed):
    rng = random.Random(seed)
    X, y = dataset(a.dataset, a.points, rng)
    params = init(a.hidden, rng)
    t0 = time.perf_counter()
    for e in range(a.epochs):
        numpy_epoch(params, X, y, rng, 0.05, 10)
        if e % 10 == 0:
            numpy_correct(params, X, y)
    return (time.perf_counter() - t0) / a.epochs


def reference_run(name, seed, hidden, points, epochs):
    """In float64 on mt_train_bench's random stream: every epoch's loss, and the points right
    after the last epoch."""
    rng = random.Random(seed)
    pts = [(rng.random(), rng.random()) for _ in range(points)]
    X = np.array(pts, dtype=np.float64)
    y = np.array([1.0 if RULES[name](x1, x2) else 0.0 for x1, x2 in pts])
    params = init(hidden, rng, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):  # a saturated sigmoid: as MiniTorch
        losses = [numpy_epoch(params, X, y, rng, 0.05, 10) for _ in range(epochs)]
        return losses, numpy_correct(params, X, y)


def accuracy(a):
    counts = [reference_run(a.dataset, s, a.hidden, a.points, a.epochs)[1]
              for s in range(1, a.seeds + 1)]
    good = sum(c >= 48 for c in counts)
    line = (f"  {'':7}  numpy float64: >= 48 in {good:3d} of {len(counts)} "
            f"(min {min(counts)}, median {statistics.median_high(counts)})")
    if a.ours:
        ours = [int(c) for c in a.ours.split(",")]
        same = sum(o == c for o, c in zip(ours, counts))
        line += f"; the same count as ours for {same} of {len(counts)} seeds"
    print(line)


def run_torch(a, seed, torch):
    rng = random.Random(seed)
    X, y = dataset(a.dataset, a.points, rng)
    dev = a.device
    params = [torch.tensor(p, requires_grad=True, device=dev) for p in init(a.hidden, rng)]
    Xt, yt = torch.tensor(X, device=dev), torch.tensor(y, device=dev)
    opt = torch.optim.SGD(params, lr=0.05)
    W1, b1, W2, b2, W3, b3 = params

    def model(x):
        h = torch.relu(x @ W1 + b1)
        h = torch.relu(h @ W2 + b2)
        return torch.sigmoid(h @ W3 + b3)

    t0 = time.perf_counter()
    for e in range(a.epochs):
        idx = list(range(len(X)))
        rng.shuffle(idx)
        for i in range(0, len(idx), 10):
            j = torch.tensor(idx[i:i + 10], device=dev)
            x, t = Xt[j], yt[j]
            opt.zero_grad()
            out = model(x).view(len(j))
            prob = out * t + (out - 1) * (t - 1)
            loss = -prob.log()
            (loss / len(j)).sum().backward()
            opt.step()
        if e % 10 == 0 and not a.no_eval:
            with torch.no_grad():
                int(((model(Xt).view(-1) > 0.5) == (yt > 0.5)).sum())
    if dev == "cuda":
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) / a.epochs


def show(name, s):
    s = sorted(s)
    med = statistics.median(s)
    if med < 1e-3:
        print(f"  {name:<22} {med * 1e6:10.1f} us/epoch  ({s[0] * 1e6:.1f}-{s[-1] * 1e6:.1f})")
    else:
        print(f"  {name:<22} {med * 1e3:10.3f} ms/epoch  ({s[0] * 1e3:.3f}-{s[-1] * 1e3:.3f})")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dataset", default="split")
    p.add_argument("--hidden", type=int, default=100)
    p.add_argument("--points", type=int, default=50)
    p.add_argument("--epochs", type=int, default=500)
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--accuracy", action="store_true",
                   help="the float64 reference over seeds 1..--seeds instead of the timings")
    p.add_argument("--seeds", type=int, default=100)
    p.add_argument("--ours", default="", help="our correct counts for seeds 1.., comma-separated")
    p.add_argument("--device", default="cpu",
                   help="cuda: PyTorch alone, on the GPU (beside the cuda backend's epoch)")
    p.add_argument("--no-eval", action="store_true",
                   help="PyTorch without the evaluation each 10 epochs (as mt_gpu_bench's epoch)")
    a = p.parse_args()
    if a.accuracy:
        accuracy(a)
        return
    reps = max(1, a.reps // 2) if a.points >= 1000 else a.reps
    if a.device == "cpu":
        show(f"numpy {np.__version__}", [run_numpy(a, 1) for _ in range(reps)])
    try:
        import torch
    except ImportError:
        print("  PyTorch                 not installed (pip install torch to compare)")
        return
    torch.set_num_threads(1)
    name = f"PyTorch {torch.__version__}" + (f" on {a.device}" if a.device != "cpu" else "")
    if a.device == "cuda":
        run_torch(a, 1, torch)  # CUDA's start and the kernels' first loads, untimed
    show(name, [run_torch(a, 1, torch) for _ in range(reps)])


if __name__ == "__main__":
    main()
