"""PyTorch's side of bench/networks/run.py: the kernel_side.mt cases, the same computations in
PyTorch on the CPU with the same number of threads, one line per case ("case NAME MS").

MiniTorch's convolution anchors the kernel at the input's top-left and reads zeros past the
right and bottom edges, giving an output of the input's size: in PyTorch, conv2d of the input
padded by kw - 1 columns on the right and kh - 1 rows at the bottom (conv1d likewise).

    python3 torch_side.py DIGITS_CSV_GZ THREADS
"""

import gzip
import statistics
import sys
import time

import torch
import torch.nn.functional as F

CASES = [
    ("conv2d (16,1,28,28)x(4,1,3,3)", (16, 1, 28, 28), (4, 1, 3, 3)),
    ("conv2d (16,4,28,28)x(8,4,5,5)", (16, 4, 28, 28), (8, 4, 5, 5)),
    ("conv2d (64,8,14,14)x(16,8,5,5)", (64, 8, 14, 14), (16, 8, 5, 5)),
    ("conv2d (64,1,8,8)x(8,1,3,3)", (64, 1, 8, 8), (8, 1, 3, 3)),
    ("conv2d (32,16,8,8)x(32,16,3,3)", (32, 16, 8, 8), (32, 16, 3, 3)),
    ("conv1d (16,8,64)x(16,8,5)", (16, 8, 64), (16, 8, 5)),
]
REPS = 7


def conv(x, w):
    if x.dim() == 4:
        return F.conv2d(F.pad(x, (0, w.shape[3] - 1, 0, w.shape[2] - 1)), w)
    return F.conv1d(F.pad(x, (0, w.shape[2] - 1)), w)


def main():
    path, threads = sys.argv[1], int(sys.argv[2])
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    for name, ishape, wshape in CASES:
        x = (torch.rand(ishape) - 0.5).requires_grad_(True)
        w = (torch.rand(wshape) - 0.5).requires_grad_(True)
        times = []
        for r in range(REPS + 2):
            t0 = time.perf_counter()
            conv(x, w).sum().backward()
            t1 = time.perf_counter()
            if r >= 2:
                times.append((t1 - t0) * 1000)
        print("case", name, round(statistics.median(times), 3), flush=True)

    rows = [list(map(float, line.split(","))) for line in gzip.open(path, "rt") if line.strip()]
    X, Y = [], []
    for r in rows[:1500]:
        onehot = [0.0] * 10
        onehot[int(r[64])] = 1.0
        Y.append(onehot)
        X.append([[v / 16.0 for v in r[h * 8:(h + 1) * 8]] for h in range(8)])

    def param(*shape, fan_in):
        return ((2.0 / fan_in ** 0.5) * (torch.rand(shape) - 0.5)).requires_grad_(True)

    ps = [param(4, 1, 3, 3, fan_in=9), param(4, 1, 1, fan_in=9), param(8, 4, 3, 3, fan_in=36),
          param(8, 1, 1, fan_in=36), param(128, 64, fan_in=128), param(64, fan_in=128),
          param(64, 10, fan_in=64), param(10, fan_in=64)]
    w1, b1, w2, b2, l1, c1, l2, c2 = ps

    def forward(x):
        h = (conv(x, w1) + b1).relu()
        h = (conv(h, w2) + b2).relu()
        h = F.max_pool2d(h, 2).reshape(x.shape[0], 128)
        h = (h @ l1 + c1).relu()
        h = F.dropout(h, 0.25, True)
        return F.log_softmax(h @ l2 + c2, 1)

    times = []
    for epoch in range(REPS + 1):
        t0 = time.perf_counter()
        for start in range(0, 1500 - 16 + 1, 16):
            x = torch.tensor(X[start:start + 16]).view(16, 1, 8, 8)
            y = torch.tensor(Y[start:start + 16])
            loss = -((forward(x) * y).sum(1) / 16).sum()
            for p in ps:
                p.grad = None
            loss.backward()
            with torch.no_grad():
                for p in ps:
                    p -= 0.1 * p.grad
        t1 = time.perf_counter()
        if epoch >= 1:
            times.append((t1 - t0) * 1000)
    print("case", "digits epoch (LeNet 8x8, batch 16)", round(statistics.median(times), 3))


if __name__ == "__main__":
    main()
