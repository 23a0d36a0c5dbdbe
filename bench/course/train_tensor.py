# Task 2.5 for bench/course: the same task as train_scalar.py with the student's Module 2 tensors
# (their tensor_ops.py loops run every op): 50 points as one batch, two hidden layers of 3, a
# Linear layer as MiniTorch's Module 2 writes it (broadcast multiply, then sum), the binary
# cross-entropy, SGD at rate 0.5.
import random
import time

import minitorch
from minitorch.module import Module, Parameter
from minitorch.optim import SGD
from minitorch.tensor_functions import tensor

random.seed(1)
points = [(random.random(), random.random()) for _ in range(50)]
labels = [1.0 if x1 < 0.5 else 0.0 for x1, _ in points]


def parameter(module, name, *shape):
    n = 1
    for s in shape:
        n *= s
    t = tensor([2 * (random.random() - 0.5) for _ in range(n)]).view(*shape).detach()
    t.requires_grad_(True)
    return module.add_parameter(name, t)


class Linear(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w = parameter(self, "w", n_in, n_out)
        self.b = parameter(self, "b", n_out)
        self.n_in, self.n_out = n_in, n_out

    def forward(self, x):
        batch = x.shape[0]
        w = self.w.value.view(1, self.n_in, self.n_out)
        prod = (x.view(batch, self.n_in, 1) * w).sum(1)
        return prod.view(batch, self.n_out) + self.b.value.view(1, self.n_out)


class Network(Module):
    def __init__(self, hidden):
        super().__init__()
        self.layer1 = Linear(2, hidden)
        self.layer2 = Linear(hidden, hidden)
        self.layer3 = Linear(hidden, 1)

    def forward(self, x):
        h = self.layer1.forward(x).relu()
        h = self.layer2.forward(h).relu()
        return self.layer3.forward(h).sigmoid()


model = Network(3)
opt = SGD(model.parameters(), 0.5)
X = tensor([v for p in points for v in p]).view(len(points), 2)
y = tensor(labels).view(len(points), 1)
start = time.perf_counter()
for epoch in range(1, EPOCHS + 1):
    opt.zero_grad()
    out = model.forward(X)
    prob = out * y + (out * -1.0 + 1.0) * (y * -1.0 + 1.0)
    loss = (prob.log() * -1.0).sum() / float(len(points))
    loss.backward()
    opt.step()
    if epoch % 10 == 0 or epoch == EPOCHS:
        correct = 0
        for i in range(len(points)):
            correct += 1 if (out[i, 0] > 0.5) == (labels[i] == 1.0) else 0
        print("epoch", epoch, "loss %.6f" % (loss.item() * len(points)), "correct", correct)
print("seconds %.3f" % (time.perf_counter() - start))
