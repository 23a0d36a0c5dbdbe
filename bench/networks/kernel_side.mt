# The kernel's side of bench/networks/run.py: each case's median time in ms, one line per case
# ("case NAME MS"), after warm-up runs. Conv cases: forward and backward of MiniTorch's conv2d
# (or conv1d) on the fast backend with both operands requiring grad; the epoch: one pass of
# the 8x8-digit LeNet over 1500 digits in batches of 16 (the notebook's m4_networks loop, on
# the kernel's own nn.py and convolution).
import minitorch
import time

CASES = [
    ("conv2d (16,1,28,28)x(4,1,3,3)", (16, 1, 28, 28), (4, 1, 3, 3)),
    ("conv2d (16,4,28,28)x(8,4,5,5)", (16, 4, 28, 28), (8, 4, 5, 5)),
    ("conv2d (64,8,14,14)x(16,8,5,5)", (64, 8, 14, 14), (16, 8, 5, 5)),
    ("conv2d (64,1,8,8)x(8,1,3,3)", (64, 1, 8, 8), (8, 1, 3, 3)),
    ("conv2d (32,16,8,8)x(32,16,3,3)", (32, 16, 8, 8), (32, 16, 3, 3)),
    ("conv1d (16,8,64)x(16,8,5)", (16, 8, 64), (16, 8, 5)),
]
REPS = 7


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]


seed(1)
for name, ishape, wshape in CASES:
    x = minitorch.rand(ishape) - 0.5
    w = minitorch.rand(wshape) - 0.5
    x.requires_grad_(True)
    w.requires_grad_(True)
    conv = minitorch.conv2d if len(ishape) == 4 else minitorch.conv1d
    times = []
    for r in range(REPS + 2):
        t0 = time.perf_counter()
        conv(x, w).sum().backward()
        t1 = time.perf_counter()
        if r >= 2:
            times.append((t1 - t0) * 1000)
    print("case", name, round(median(times), 3))

images, labels = minitorch.load_digits()
X, Y = [], []
for i in range(1500):
    onehot = [0.0] * 10
    onehot[labels[i]] = 1.0
    Y.append(onehot)
    X.append([[v / 16.0 for v in row] for row in images[i]])


def param(*shape, fan_in=1):
    return minitorch.Parameter((2.0 / fan_in ** 0.5) * (minitorch.rand(shape) - 0.5))


class Net(minitorch.Module):
    def __init__(self):
        super().__init__()
        self.w1 = param(4, 1, 3, 3, fan_in=9)
        self.b1 = param(4, 1, 1, fan_in=9)
        self.w2 = param(8, 4, 3, 3, fan_in=36)
        self.b2 = param(8, 1, 1, fan_in=36)
        self.l1 = param(128, 64, fan_in=128)
        self.c1 = param(64, fan_in=128)
        self.l2 = param(64, 10, fan_in=64)
        self.c2 = param(10, fan_in=64)

    def forward(self, x):
        h = (minitorch.conv2d(x, self.w1.value) + self.b1.value).relu()
        h = (minitorch.conv2d(h, self.w2.value) + self.b2.value).relu()
        h = minitorch.maxpool2d(h, (2, 2)).view(x.shape[0], 128)
        h = (h @ self.l1.value + self.c1.value).relu()
        h = minitorch.dropout(h, 0.25, not self.training)
        return minitorch.logsoftmax(h @ self.l2.value + self.c2.value, 1)


model = Net()
optim = minitorch.SGD(model.parameters(), 0.1)
times = []
for epoch in range(REPS + 1):
    t0 = time.perf_counter()
    for start in range(0, 1500 - 16 + 1, 16):
        x = minitorch.tensor(X[start:start + 16]).view(16, 1, 8, 8)
        y = minitorch.tensor(Y[start:start + 16])
        loss = -((model.forward(x) * y).sum(1) / 16).sum()
        optim.zero_grad()
        loss.view(1).backward()
        optim.step()
    t1 = time.perf_counter()
    if epoch >= 1:
        times.append((t1 - t0) * 1000)
print("case", "digits epoch (LeNet 8x8, batch 16)", round(median(times), 3))
