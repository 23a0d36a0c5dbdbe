"""PyTorch's epoch of Module 4's digit classifier, for minitorch.pytorch_digits_epoch() (the
kernel runs this file under a Python that has PyTorch) and for make bench-networks.

The network, data and loop are those of the course's notebook (notebooks/src/m4_networks.mt):
two 3x3 convolutions (4 then 8 channels) with ReLU, 2x2 max pooling, Linear(128, 64) with ReLU,
dropout 0.25, Linear(64, 10) and log-softmax; the first 1500 of scikit-learn's 8x8 digits scaled
to [0, 1], batches of 16, MiniTorch's loss, SGD at rate 0.1. MiniTorch's convolution anchors the
kernel at the input's top-left and reads zeros past the right and bottom edges (an output of the
input's size): in PyTorch, conv2d of the input padded by kw - 1 columns on the right and kh - 1
rows at the bottom.

    python3 pytorch_digits.py DIGITS_CSV_GZ THREADS EPOCHS

prints `torch VERSION` and `epoch_ms MS ...` (each timed epoch, after one untimed); exits with
status 3, saying so, when this Python has no PyTorch.
"""

import gzip
import sys
import time


def conv(F, x, w):
    if x.dim() == 4:
        return F.conv2d(F.pad(x, (0, w.shape[3] - 1, 0, w.shape[2] - 1)), w)
    return F.conv1d(F.pad(x, (0, w.shape[2] - 1)), w)


def epoch_times(path, threads, epochs):
    """the milliseconds of each of `epochs` timed epochs, after one untimed"""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(1)
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
        h = (conv(F, x, w1) + b1).relu()
        h = (conv(F, h, w2) + b2).relu()
        h = F.max_pool2d(h, 2).reshape(x.shape[0], 128)
        h = (h @ l1 + c1).relu()
        h = F.dropout(h, 0.25, True)
        return F.log_softmax(h @ l2 + c2, 1)

    times = []
    for epoch in range(epochs + 1):
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
    return times


def main():
    path, threads, epochs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        import torch
    except ImportError as e:
        print("no PyTorch:", e, flush=True)
        sys.exit(3)
    print("torch", torch.__version__, flush=True)
    print("epoch_ms", " ".join("%.3f" % t for t in epoch_times(path, threads, epochs)), flush=True)


if __name__ == "__main__":
    main()
