# The kernel's own Module 1 (kernel/lib/minitorch/: autodiff.py, scalar_functions.py, scalar.py)
# with no file of the student's: what MiniTorch's tests/test_scalar.py and test_autodiff.py
# check, on fixed draws, and a few steps of training a tiny Scalar network as run_scalar.py
# does. The expectations are what CPython prints running the same files as a package
# (/work/tools/mkexpect_builtin.py).
# %%
import minitorch
from minitorch import Context, Scalar, ScalarFunction, ScalarHistory, derivative_check, operators

x = Scalar(2.5)
print(x, x.data, x.derivative, x.is_leaf(), x.is_constant(), x.history)
# expect: Scalar(2.500000) 2.5 None True False ScalarHistory(last_fn=None, ctx=None, inputs=())
print(Scalar(4, name="four").name, type(Scalar(3).data).__name__)
# expect: four float
print(x + 1, 1 + x, x - 1, 1 - x, x * 2, 2 * x, x / 2, 2 / x, -x)
# expect: Scalar(3.500000) Scalar(3.500000) Scalar(1.500000) Scalar(-1.500000) Scalar(5.000000) Scalar(5.000000) Scalar(1.250000) Scalar(0.800000) Scalar(-2.500000)
print(x < 3, x > 3, x == 2.5, 3 < x, bool(Scalar(0.0)), bool(x))
# expect: Scalar(1.000000) Scalar(0.000000) Scalar(1.000000) Scalar(0.000000) False True
print(x.log(), x.exp(), x.sigmoid(), x.relu(), (-x).relu())
# expect: Scalar(0.916291) Scalar(12.182494) Scalar(0.924142) Scalar(2.500000) Scalar(0.000000)
y = x * 3
print(y.is_leaf(), y.history.last_fn.__name__, [v.data for v in y.parents])
# expect: False Mul [2.5, 3.0]
print(minitorch.Mul is minitorch.scalar_functions.Mul, minitorch.Context is Context)
# expect: True True

# %%
# forward: every MathTest function on Scalars against the same on floats
one_arg, two_arg, _ = minitorch.MathTestVariable._comp_testing()
draws = [-7.25, -0.5, 0.75, 3.0, 42.5]
for name, base_fn, scalar_fn in one_arg:
    for a in draws:
        got = scalar_fn(Scalar(a)).data
        assert operators.is_close(got, base_fn(a)), (name, a, got, base_fn(a))
    print(name, [round(scalar_fn(Scalar(a)).data, 6) for a in draws])
# expect: addConstant [-2.25, 4.5, 5.75, 8.0, 47.5]
# expect: complex [0.0, 0.0, 0.0, 0.0, 0.0]
# expect: cube [-381.078125, -0.125, 0.421875, 27.0, 76765.625]
# expect: div [-1.45, -0.1, 0.15, 0.6, 8.5]
# expect: exp [0.0, 0.0, 0.0, 0.0, 0.0]
# expect: explog [11.512853, 11.51292, 11.512933, 11.512955, 11.51335]
# expect: inv [-0.266667, 0.333333, 0.235294, 0.153846, 0.021739]
# expect: log [11.512853, 11.51292, 11.512933, 11.512955, 11.51335]
# expect: multConstant [-36.25, -2.5, 3.75, 15.0, 212.5]
# expect: neg [7.25, 0.5, -0.75, -3.0, -42.5]
# expect: relu [0.0, 5.0, 6.25, 8.5, 48.0]
# expect: sig [0.00071, 0.377541, 0.679179, 0.952574, 1.0]
# expect: square [52.5625, 0.25, 0.5625, 9.0, 1806.25]
# expect: subConstant [-12.25, -5.5, -4.25, -2.0, 37.5]
pairs = [(-7.25, 3.0), (0.75, -0.5), (42.5, 1.0), (3.0, -2.5)]
for name, base_fn, scalar_fn in two_arg:
    for a, b in pairs:
        got = scalar_fn(Scalar(a), Scalar(b)).data
        assert operators.is_close(got, base_fn(a, b)), (name, a, b, got)
    print(name, [round(scalar_fn(Scalar(a), Scalar(b)).data, 6) for a, b in pairs])
# expect: add2 [-4.25, 0.25, 43.5, 0.5]
# expect: div2 [-0.852941, 0.15, 6.538462, 1.0]
# expect: eq2 [0.0, 0.0, 0.0, 1.0]
# expect: gt2 [0.0, 1.0, 1.0, 1.0]
# expect: lt2 [1.0, 0.0, 0.0, 0.0]
# expect: mul2 [-21.75, -0.375, 42.5, -7.5]

# %%
# derivatives: derivative_check of every one- and two-argument function (it prints each
# comparison, as MiniTorch's does)
for name, _, scalar_fn in one_arg:
    print(name)
    for a in draws:
        derivative_check(scalar_fn, Scalar(a))
# expect: addConstant
# expect: [-7.25] 1.0 0 Scalar(1.000000)
# expect: [-0.5] 1.0 0 Scalar(1.000000)
# expect: [0.75] 1.0 0 Scalar(1.000000)
# expect: [3.0] 1.0 0 Scalar(1.000000)
# expect: [42.5] 1.0 0 Scalar(1.000000)
# expect: complex
# expect: [-7.25] 0.0 0 Scalar(0.000000)
# expect: [-0.5] 0.0 0 Scalar(0.000000)
# expect: [0.75] 0.0 0 Scalar(0.000000)
# expect: [3.0] 0.0 0 Scalar(0.000000)
# expect: [42.5] 0.0 0 Scalar(0.000000)
# expect: cube
# expect: [-7.25] 157.6875 0 Scalar(157.687500)
# expect: [-0.5] 0.75 0 Scalar(0.750000)
# expect: [0.75] 1.6875 0 Scalar(1.687500)
# expect: [3.0] 27.0 0 Scalar(27.000000)
# expect: [42.5] 5418.75 0 Scalar(5418.749985)
# expect: div
# expect: [-7.25] 0.2 0 Scalar(0.200000)
# expect: [-0.5] 0.2 0 Scalar(0.200000)
# expect: [0.75] 0.2 0 Scalar(0.200000)
# expect: [3.0] 0.2 0 Scalar(0.200000)
# expect: [42.5] 0.2 0 Scalar(0.200000)
# expect: exp
# expect: [-7.25] 9.828078700965888e-91 0 Scalar(0.000000)
# expect: [-0.5] 8.393756733356555e-88 0 Scalar(0.000000)
# expect: [0.75] 2.929708970091896e-87 0 Scalar(0.000000)
# expect: [3.0] 2.779630478564191e-86 0 Scalar(0.000000)
# expect: [42.5] 3.968433437067895e-69 0 Scalar(0.000000)
# expect: explog
# expect: [-7.25] 1.0000725052466297e-05 0 Scalar(0.000010)
# expect: [-0.5] 1.000005000015e-05 0 Scalar(0.000010)
# expect: [0.75] 9.999925000462498e-06 0 Scalar(0.000010)
# expect: [3.0] 9.999700008899736e-06 0 Scalar(0.000010)
# expect: [42.5] 9.995751805382756e-06 0 Scalar(0.000010)
# expect: inv
# expect: [-7.25] -0.07111111111111111 0 Scalar(-0.071111)
# expect: [-0.5] -0.1111111111111111 0 Scalar(-0.111111)
# expect: [0.75] -0.05536332179930796 0 Scalar(-0.055363)
# expect: [3.0] -0.023668639053254437 0 Scalar(-0.023669)
# expect: [42.5] -0.0004725897920604915 0 Scalar(-0.000473)
# expect: log
# expect: [-7.25] 1.0000725052466297e-05 0 Scalar(0.000010)
# expect: [-0.5] 1.000005000015e-05 0 Scalar(0.000010)
# expect: [0.75] 9.999925000462498e-06 0 Scalar(0.000010)
# expect: [3.0] 9.999700008899736e-06 0 Scalar(0.000010)
# expect: [42.5] 9.995751805382756e-06 0 Scalar(0.000010)
# expect: multConstant
# expect: [-7.25] 5.0 0 Scalar(5.000000)
# expect: [-0.5] 5.0 0 Scalar(5.000000)
# expect: [0.75] 5.0 0 Scalar(5.000000)
# expect: [3.0] 5.0 0 Scalar(5.000000)
# expect: [42.5] 5.0 0 Scalar(5.000000)
# expect: neg
# expect: [-7.25] -1.0 0 Scalar(-1.000000)
# expect: [-0.5] -1.0 0 Scalar(-1.000000)
# expect: [0.75] -1.0 0 Scalar(-1.000000)
# expect: [3.0] -1.0 0 Scalar(-1.000000)
# expect: [42.5] -1.0 0 Scalar(-1.000000)
# expect: relu
# expect: [-7.25] 0.0 0 Scalar(0.000000)
# expect: [-0.5] 1.0 0 Scalar(1.000000)
# expect: [0.75] 1.0 0 Scalar(1.000000)
# expect: [3.0] 1.0 0 Scalar(1.000000)
# expect: [42.5] 1.0 0 Scalar(1.000000)
# expect: sig
# expect: [-7.25] 0.0007091667670252286 0 Scalar(0.000709)
# expect: [-0.5] 0.23500371220159447 0 Scalar(0.235004)
# expect: [0.75] 0.21789499376181404 0 Scalar(0.217895)
# expect: [3.0] 0.045176659730912 0 Scalar(0.045177)
# expect: [42.5] 0.0 0 Scalar(0.000000)
# expect: square
# expect: [-7.25] -14.5 0 Scalar(-14.500000)
# expect: [-0.5] -1.0 0 Scalar(-1.000000)
# expect: [0.75] 1.5 0 Scalar(1.500000)
# expect: [3.0] 6.0 0 Scalar(6.000000)
# expect: [42.5] 85.0 0 Scalar(85.000000)
# expect: subConstant
# expect: [-7.25] 1.0 0 Scalar(1.000000)
# expect: [-0.5] 1.0 0 Scalar(1.000000)
# expect: [0.75] 1.0 0 Scalar(1.000000)
# expect: [3.0] 1.0 0 Scalar(1.000000)
# expect: [42.5] 1.0 0 Scalar(1.000000)
for name, _, scalar_fn in two_arg:
    print(name)
    for a, b in pairs:
        derivative_check(scalar_fn, Scalar(a), Scalar(b))
# expect: add2
# expect: [-7.25, 3.0] 1.0 0 Scalar(1.000000)
# expect: [-7.25, 3.0] 1.0 1 Scalar(1.000000)
# expect: [0.75, -0.5] 1.0 0 Scalar(1.000000)
# expect: [0.75, -0.5] 1.0 1 Scalar(1.000000)
# expect: [42.5, 1.0] 1.0 0 Scalar(1.000000)
# expect: [42.5, 1.0] 1.0 1 Scalar(1.000000)
# expect: [3.0, -2.5] 1.0 0 Scalar(1.000000)
# expect: [3.0, -2.5] 1.0 1 Scalar(1.000000)
# expect: div2
# expect: [-7.25, 3.0] 0.11764705882352941 0 Scalar(0.117647)
# expect: [-7.25, 3.0] 0.10034602076124567 1 Scalar(0.100346)
# expect: [0.75, -0.5] 0.2 0 Scalar(0.200000)
# expect: [0.75, -0.5] -0.03 1 Scalar(-0.030000)
# expect: [42.5, 1.0] 0.15384615384615385 0 Scalar(0.153846)
# expect: [42.5, 1.0] -1.0059171597633136 1 Scalar(-1.005917)
# expect: [3.0, -2.5] 0.3333333333333333 0 Scalar(0.333333)
# expect: [3.0, -2.5] -0.3333333333333333 1 Scalar(-0.333333)
# expect: eq2
# expect: [-7.25, 3.0] 0.0 0 Scalar(0.000000)
# expect: [-7.25, 3.0] 0.0 1 Scalar(0.000000)
# expect: [0.75, -0.5] 0.0 0 Scalar(0.000000)
# expect: [0.75, -0.5] 0.0 1 Scalar(0.000000)
# expect: [42.5, 1.0] 0.0 0 Scalar(0.000000)
# expect: [42.5, 1.0] 0.0 1 Scalar(0.000000)
# expect: [3.0, -2.5] 0.0 0 Scalar(0.000000)
# expect: [3.0, -2.5] 0.0 1 Scalar(0.000000)
# expect: gt2
# expect: [-7.25, 3.0] 0.0 0 Scalar(0.000000)
# expect: [-7.25, 3.0] 0.0 1 Scalar(0.000000)
# expect: [0.75, -0.5] 0.0 0 Scalar(0.000000)
# expect: [0.75, -0.5] 0.0 1 Scalar(0.000000)
# expect: [42.5, 1.0] 0.0 0 Scalar(0.000000)
# expect: [42.5, 1.0] 0.0 1 Scalar(0.000000)
# expect: [3.0, -2.5] 0.0 0 Scalar(0.000000)
# expect: [3.0, -2.5] 0.0 1 Scalar(0.000000)
# expect: lt2
# expect: [-7.25, 3.0] 0.0 0 Scalar(0.000000)
# expect: [-7.25, 3.0] 0.0 1 Scalar(0.000000)
# expect: [0.75, -0.5] 0.0 0 Scalar(0.000000)
# expect: [0.75, -0.5] 0.0 1 Scalar(0.000000)
# expect: [42.5, 1.0] 0.0 0 Scalar(0.000000)
# expect: [42.5, 1.0] 0.0 1 Scalar(0.000000)
# expect: [3.0, -2.5] 0.0 0 Scalar(0.000000)
# expect: [3.0, -2.5] 0.0 1 Scalar(0.000000)
# expect: mul2
# expect: [-7.25, 3.0] 3.0 0 Scalar(3.000000)
# expect: [-7.25, 3.0] -7.25 1 Scalar(-7.250000)
# expect: [0.75, -0.5] -0.5 0 Scalar(-0.500000)
# expect: [0.75, -0.5] 0.75 1 Scalar(0.750000)
# expect: [42.5, 1.0] 1.0 0 Scalar(1.000000)
# expect: [42.5, 1.0] 42.5 1 Scalar(42.500000)
# expect: [3.0, -2.5] -2.5 0 Scalar(-2.500000)
# expect: [3.0, -2.5] 3.0 1 Scalar(3.000000)

# %%
# a wrong derivative is caught
class BadSquare(ScalarFunction):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a

    @staticmethod
    def backward(ctx, d_output):
        (a,) = ctx.saved_values
        return a * d_output


try:
    derivative_check(lambda s: BadSquare.apply(s), Scalar(3.0))
except AssertionError as e:
    print("caught:", str(e).strip().split("\n")[0])
# expect: [3.0] 3.0 0 Scalar(6.000000)
# expect: caught: Not equal to tolerance rtol=0.01, atol=0.01

# %%
# the chain rule and backpropagation (test_autodiff.py's Function1 and Function2)
class Function1(ScalarFunction):
    @staticmethod
    def forward(ctx, x, y):
        return x + y + 10

    @staticmethod
    def backward(ctx, d_output):
        return d_output, d_output


class Function2(ScalarFunction):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y + x

    @staticmethod
    def backward(ctx, d_output):
        x, y = ctx.saved_values
        return d_output * (y + 1), d_output * x


v = Scalar(0.0)
c = Scalar(0.0, ScalarHistory(Function1, ctx=Context(), inputs=[v, v]))
print([d for _, d in c.chain_rule(d_output=5)])
# expect: [5, 5]
y = Function2.apply(10, Scalar(5))
print([(s.data, d) for s, d in y.chain_rule(d_output=5)])
# expect: [(10.0, 30.0), (5.0, 50)]
y = Function2.apply(Scalar(5), Scalar(10))
print([(s.data, d) for s, d in y.chain_rule(d_output=5)])
# expect: [(5.0, 55.0), (10.0, 25.0)]
k = Scalar(7.0, None)
y = Function2.apply(k, Scalar(2.0))
print(k.is_constant(), [(s.data, d) for s, d in y.chain_rule(d_output=1.0)])
# expect: True [(2.0, 7.0)]

v0 = Scalar(0)
v1 = Function1.apply(0, v0)
v4 = Function1.apply(Function1.apply(0, v1), Function1.apply(0, v1))
v4.backward(d_output=5)
print(v0.derivative, v1.derivative)
# expect: 10.0 None

ctx = Context(no_grad=True)
ctx.save_for_backward(1.0, 2.0)
print(ctx.saved_values, Context().saved_tensors)
# expect: () ()

# %%
# topological_sort: the output first, each variable once before everything it came from,
# constants left out; backpropagate on the same graph
a = Scalar(2.0, name="a")
b = Scalar(-3.0, name="b")
k = Scalar(4.0, None, name="k")
e = Mul = None
e = a * b
e.name = "e"
f = e + a
f.name = "f"
g = f * e
g.name = "g"
h = g.sigmoid() + k
h.name = "h"
order = minitorch.topological_sort(h)
print([s.name for s in order if s.name in "abefgh"], len(order))
# expect: ['h', 'g', 'f', 'e', 'b', 'a'] 7
minitorch.backpropagate(h, 1.0)
print(a.derivative, b.derivative, k.derivative)
# expect: 9.06032582258733e-10 -7.550271518822776e-10 None
a.derivative = None
b.derivative = None
h.backward()
print(a.derivative, b.derivative)
# expect: 9.06032582258733e-10 -7.550271518822776e-10
print(minitorch.topological_sort(k))
# expect: []

# %%
# a tiny Scalar network (run_scalar.py's, 2 hidden units), a few steps of SGD
class Linear(minitorch.Module):
    def __init__(self, weights, bias):
        super().__init__()
        self.weights = []
        self.bias = []
        for i, row in enumerate(weights):
            self.weights.append([])
            for j, w in enumerate(row):
                self.weights[i].append(self.add_parameter(f"weight_{i}_{j}", Scalar(w)))
        for j, w in enumerate(bias):
            self.bias.append(self.add_parameter(f"bias_{j}", Scalar(w)))

    def forward(self, inputs):
        out = [bias.value for bias in self.bias]
        for i, x in enumerate(inputs):
            for j in range(len(out)):
                out[j] = out[j] + x * self.weights[i][j].value
        return out


class Network(minitorch.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = Linear([[0.5, -0.25], [0.75, 0.5]], [0.1, -0.2])
        self.layer2 = Linear([[0.3, -0.6], [-0.4, 0.8]], [0.05, 0.0])
        self.layer3 = Linear([[0.9], [-0.7]], [0.2])

    def forward(self, x):
        middle = [h.relu() for h in self.layer1.forward(x)]
        end = [h.relu() for h in self.layer2.forward(middle)]
        return self.layer3.forward(end)[0].sigmoid()


X = [(0.1, 0.9), (0.8, 0.2), (0.3, 0.4), (0.9, 0.7), (0.2, 0.1), (0.6, 0.95)]
Y = [1, 0, 1, 0, 1, 1]
model = Network()
optim = minitorch.SGD(model.parameters(), 0.5)
print(len(model.parameters()))
# expect: 15
for epoch in range(1, 6):
    total = 0.0
    correct = 0
    optim.zero_grad()
    for (x1, x2), yv in zip(X, Y):
        out = model.forward((Scalar(x1), Scalar(x2)))
        if yv == 1:
            prob = out
            correct += 1 if out.data > 0.5 else 0
        else:
            prob = -out + 1.0
            correct += 1 if out.data < 0.5 else 0
        loss = -prob.log()
        (loss / len(X)).backward()
        total += loss.data
    optim.step()
    print("epoch", epoch, "loss", round(total, 9), "correct", correct)
# expect: epoch 1 loss 3.975617646 correct 4
# expect: epoch 2 loss 3.940112371 correct 4
# expect: epoch 3 loss 3.91473051 correct 4
# expect: epoch 4 loss 3.896207174 correct 4
# expect: epoch 5 loss 3.886158505 correct 4
print([round(p.value.data, 9) for p in model.layer3.parameters()])
# expect: [0.889369414, -0.7, 0.298412362]
