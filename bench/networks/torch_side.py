"""PyTorch's side of bench/networks/run.py: the kernel_side.mt cases, the same computations in
PyTorch on the CPU with the same number of threads, one line per case ("case NAME MS").

The convolution in MiniTorch's anchoring and the digits epoch are the kernel's own PyTorch
side, kernel/lib/peers/pytorch_digits.py, which minitorch.pytorch_digits_epoch() runs too.

    python3 torch_side.py DIGITS_CSV_GZ THREADS
"""

import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernel",
                                "lib", "peers"))
import pytorch_digits  # noqa: E402  (the network's one definition, which the kernel runs too)

CASES = [
    ("conv2d (16,1,28,28)x(4,1,3,3)", (16, 1, 28, 28), (4, 1, 3, 3)),
    ("conv2d (16,4,28,28)x(8,4,5,5)", (16, 4, 28, 28), (8, 4, 5, 5)),
    ("conv2d (64,8,14,14)x(16,8,5,5)", (64, 8, 14, 14), (16, 8, 5, 5)),
    ("conv2d (64,1,8,8)x(8,1,3,3)", (64, 1, 8, 8), (8, 1, 3, 3)),
    ("conv2d (32,16,8,8)x(32,16,3,3)", (32, 16, 8, 8), (32, 16, 3, 3)),
    ("conv1d (16,8,64)x(16,8,5)", (16, 8, 64), (16, 8, 5)),
]
REPS = 7


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
            pytorch_digits.conv(F, x, w).sum().backward()
            t1 = time.perf_counter()
            if r >= 2:
                times.append((t1 - t0) * 1000)
        print("case", name, round(statistics.median(times), 3), flush=True)

    # the digits epoch: the kernel's own PyTorch side (minitorch.pytorch_digits_epoch), one copy
    times = pytorch_digits.epoch_times(path, threads, REPS)
    print("case", "digits epoch (LeNet 8x8, batch 16)", round(statistics.median(times), 3))


if __name__ == "__main__":
    main()
