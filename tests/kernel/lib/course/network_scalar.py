# Task 1.5's cell, answered: the network of Scalars as MiniTorch's project/run_scalar.py has it
# (the notebook's Linear and Network), run as a notebook cell.
import random

import minitorch


class Network(minitorch.Module):
    def __init__(self, hidden_layers):
        super().__init__()
        self.layer1 = Linear(2, hidden_layers)
        self.layer2 = Linear(hidden_layers, hidden_layers)
        self.layer3 = Linear(hidden_layers, 1)

    def forward(self, x):
        middle = [h.relu() for h in self.layer1.forward(x)]
        end = [h.relu() for h in self.layer2.forward(middle)]
        return self.layer3.forward(end)[0].sigmoid()


class Linear(minitorch.Module):
    def __init__(self, in_size, out_size):
        super().__init__()
        self.weights = []
        self.bias = []
        for i in range(in_size):
            self.weights.append([])
            for j in range(out_size):
                w = minitorch.Scalar(2 * (random.random() - 0.5))
                self.weights[i].append(self.add_parameter(f"weight_{i}_{j}", w))
        for j in range(out_size):
            b = minitorch.Scalar(2 * (random.random() - 0.5))
            self.bias.append(self.add_parameter(f"bias_{j}", b))

    def forward(self, inputs):
        out = [b.value for b in self.bias]
        for i, x in enumerate(inputs):
            for j in range(len(out)):
                out[j] = out[j] + x * self.weights[i][j].value
        return out
