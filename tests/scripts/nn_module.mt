# minitorch.Module, Parameter and SGD as MiniTorch's module.py and optim.py define them
import minitorch


class Inner(minitorch.Module):
    def __init__(self):
        super().__init__()
        self.w = minitorch.Parameter(minitorch.tensor([1.0, 2.0]))
        self.label = "inner"


class Outer(minitorch.Module):
    def __init__(self):
        super().__init__()
        self.a = Inner()
        self.scale = minitorch.Parameter(minitorch.tensor([3.0]), "scale")
        self.b = Inner()

    def forward(self, x):
        return (self.a.w.value * x).sum() * self.scale.value + self.b.w.value.sum()


m = Outer()
print([name for name, p in m.named_parameters()])
# expect: ['scale', 'a.w', 'b.w']
print(len(m.parameters()), len(m.modules()), m.modules()[0].label, m.training, m.a.training)
# expect: 3 2 inner True True
m.eval()
print(m.training, m.a.training, m.b.training)
# expect: False False False
m.train()
print(m.training, m.b.training)
# expect: True True
print(m)
# expect: Outer(
# expect:   (a): Inner()
# expect:   (b): Inner()
# expect: )
print(m.scale, repr(m.scale.value.requires_grad()), m.scale.name)
# expect: tensor([3.], shape=(1,), backend=fast, requires_grad=True) True scale
p = m.add_parameter("extra", minitorch.tensor([0.5]))
print(p.name, m.extra is p, [name for name, q in m.named_parameters()])
# expect: extra True ['scale', 'extra', 'a.w', 'b.w']
out = m(minitorch.tensor([1.0, 1.0]))
print(out.tolist())
# expect: [12.0]
del m.extra
opt = minitorch.SGD(m.parameters(), 0.1)
opt.zero_grad()
out.backward()
print(m.a.w.value.grad.tolist(), m.scale.value.grad.tolist(), m.b.w.value.grad.tolist())
# expect: [3.0, 3.0] [3.0] [1.0, 1.0]
opt.step()
print(m.a.w.value.tolist(), m.scale.value.tolist(), m.b.w.value.tolist())
# expect: [0.7, 1.7] [2.7] [0.9, 1.9]
opt.zero_grad()
print(m.a.w.value.grad, m.scale.value.requires_grad())
# expect: None True


# A value of the student's own Tensor class (Module 2's tensor.py: a grad, operators of its
# own): SGD steps it with them, p.update(p.value - lr * p.value.grad), and zero_grad drops its
# grad, as MiniTorch's optim.py does for any value with a grad.
class Vec:
    def __init__(self, xs):
        self.xs = xs
        self.grad = None
        self.leaf = False

    def requires_grad_(self, flag):
        self.leaf = flag

    def __rmul__(self, k):
        return Vec([k * x for x in self.xs])

    def __sub__(self, other):
        return Vec([a - b for a, b in zip(self.xs, other.xs)])


v = minitorch.Parameter(Vec([1.0, 2.0]))
mine = minitorch.SGD([v], 0.5)
mine.step()
print(v.value.xs)
# expect: [1.0, 2.0]
v.value.grad = Vec([4.0, -2.0])
mine.step()
print(v.value.xs, v.value.leaf, v.value.grad)
# expect: [-1.0, 3.0] True None
v.value.grad = Vec([1.0, 1.0])
mine.zero_grad()
print(v.value.grad)
# expect: None
