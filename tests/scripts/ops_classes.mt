# The kernel's ops classes make functions of tensors from scalar functions, as MiniTorch's
# FastOps does (Module 4's max_reduce = FastOps.reduce(operators.max, -1e9)): map(fn)(a, out),
# zip(fn)(a, b) and reduce(fn, start)(a, dim), each on the tensors' own backend.
# %%
import minitorch
from minitorch import operators, FastOps, SimpleOps, tensor

a = tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
b = tensor([10.0, 20.0, 30.0])
neg_map = FastOps.map(operators.neg)
print(neg_map(a).tolist())
out = a.zeros()
print(neg_map(a, out) is out, out.tolist())
print(FastOps.zip(operators.add)(a, b).tolist())
print(FastOps.reduce(operators.max, -1e9)(a, 1).tolist())
print(FastOps.reduce(operators.mul, 1.0)(a, 0).tolist())
print(FastOps.reduce(operators.add, 100.0)(a, 0).tolist())
s = tensor([[1.0, -2.0, 3.0]], backend=minitorch.SimpleBackend)
r = SimpleOps.reduce(lambda acc, x: acc + x * x)(s, 1)
print(r.tolist(), r.backend)
def clip(x):
    return min(max(x, -1.0), 1.0)
print(FastOps.map(clip)(a).tolist())
# %% every function of minitorch.operators against itself on numbers, element by element
xs = [0.25, 1.5, 2.0, 3.0, 0.75]
ys = [0.25, -1.0, 2.5, 3.0, -0.5]
tx = tensor(xs)
ty = tensor(ys)
for name in ["id", "neg", "inv", "exp", "log", "sigmoid", "relu"]:
    f = getattr(operators, name)
    want = tensor([float(f(x)) for x in xs])
    print(name, FastOps.map(f)(tx).is_close(want).all().item())
for name in ["add", "mul", "lt", "eq", "max", "is_close", "relu_back", "log_back", "inv_back"]:
    f = getattr(operators, name)
    want = tensor([float(f(x, y)) for x, y in zip(xs, ys)])
    print(name, FastOps.zip(f)(tx, ty).is_close(want).all().item())
# %% mistakes
for attempt in [lambda: FastOps.reduce(operators.add, "0")(a, 0),
                lambda: FastOps.reduce(operators.add)(a, 5),
                lambda: FastOps.map(print)(a),
                lambda: FastOps.map(operators.add)(a),
                lambda: minitorch.TensorOps.reduce(operators.add)]:
    try:
        attempt()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)
# expect: [[-1.0, 2.0, -3.0], [4.0, -5.0, 6.0]]
# expect: True [[-1.0, 2.0, -3.0], [4.0, -5.0, 6.0]]
# expect: [[11.0, 18.0, 33.0], [6.0, 25.0, 24.0]]
# expect: [[3.0], [5.0]]
# expect: [[-4.0, -10.0, -18.0]]
# expect: [[97.0, 103.0, 97.0]]
# expect: [[14.0]] simple
# expect: [[1.0, -1.0, 1.0], [-1.0, 1.0, -1.0]]
# expect: id 1.0
# expect: neg 1.0
# expect: inv 1.0
# expect: exp 1.0
# expect: log 1.0
# expect: sigmoid 1.0
# expect: relu 1.0
# expect: add 1.0
# expect: mul 1.0
# expect: lt 1.0
# expect: eq 1.0
# expect: max 1.0
# expect: is_close 1.0
# expect: relu_back 1.0
# expect: log_back 1.0
# expect: inv_back 1.0
# expect: TypeError: reduce(fn, start): start must be a number, not str
# expect: IndexError: reduce(add): dim 5 is out of range for 2 dims
# expect: TypeError: map(): print() is not a numeric function of 1 argument
# expect: TypeError: map(): operators.add takes 2 arguments, map gives 1
# expect: NotImplementedError: TensorOps only names map, cmap, zip, reduce and matrix_multiply: a class of ops (minitorch.FastOps, or one of your own deriving from TensorOps) defines them
