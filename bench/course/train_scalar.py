# Task 1.5 for bench/course: a network of Scalars (the student's Module 1 files) trained on 50
# points with the course's loop (run_scalar.py's shape, written here): two hidden layers of 3,
# sigmoid output, the binary cross-entropy, SGD at rate 0.5. The points are drawn with
# random.seed(1), so CPython and the kernel train on the same numbers and print the same losses.
import random
import time

import minitorch
from minitorch.module import Module, Parameter
from minitorch.optim import SGD
from minitorch.scalar import Scalar

random.seed(1)
points = [(random.random(), random.random()) for _ in range(50)]
labels = [1 if x1 < 0.5 else 0 for x1, _ in points]


class Linear(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weights = [[self.add_parameter("w_%d_%d" % (i, j), Scalar(2 * (random.random() - 0.5)))
                         for j in range(n_out)] for i in range(n_in)]
        self.bias = [self.add_parameter("b_%d" % j, Scalar(2 * (random.random() - 0.5)))
                     for j in range(n_out)]

    def forward(self, inputs):
        out = []
        for j in range(len(self.bias)):
            total = self.bias[j].value
            for i in range(len(inputs)):
                total = total + inputs[i] * self.weights[i][j].value
            out.append(total)
        return out


class Network(Module):
    def __init__(self, hidden):
        super().__init__()
        self.layer1 = Linear(2, hidden)
        self.layer2 = Linear(hidden, hidden)
        self.layer3 = Linear(hidden, 1)

    def forward(self, x):
        h = [v.relu() for v in self.layer1.forward(x)]
        h = [v.relu() for v in self.layer2.forward(h)]
        return self.layer3.forward(h)[0].sigmoid()


model = Network(3)
opt = SGD(model.parameters(), 0.5)
start = time.perf_counter()
for epoch in range(1, EPOCHS + 1):
    total = 0.0
    correct = 0
    opt.zero_grad()
    for (x1, x2), y in zip(points, labels):
        out = model.forward([Scalar(x1), Scalar(x2)])
        prob = out if y == 1 else -out + 1.0
        correct += 1 if (out.data > 0.5) == (y == 1) else 0
        loss = -prob.log()
        (loss / len(points)).backward()
        total += loss.data
    opt.step()
    if epoch % 10 == 0 or epoch == EPOCHS:
        print("epoch", epoch, "loss %.6f" % total, "correct", correct)
print("seconds %.3f" % (time.perf_counter() - start))
