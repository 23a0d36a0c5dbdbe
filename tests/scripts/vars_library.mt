# vars() and __dict__ of the library's classes' instances: a Parameter's and an SGD's attributes
# as MiniTorch's classes set them, live (a store through the view is an attribute), argparse's
# Namespace (vars(args), as scripts use it), a subclass of Module; vars() of what has no
# __dict__ is CPython's TypeError. The expectations are CPython's output for the same program
# with MiniTorch's module.py and optim.py as the minitorch package.
import argparse
import minitorch
p = minitorch.Parameter(1.5)
print(vars(p))
print(p.__dict__, vars(p) == {"value": 1.5, "name": None})
q = minitorch.Parameter(2.0, "w")
print(vars(q), list(vars(q)))
vars(q)["value"] = 3.0
print(q.value, "value" in vars(q), len(q.__dict__))
q.extra = "e"
print(sorted(vars(q).items()))
# expect: {'value': 1.5, 'name': None}
# expect: {'value': 1.5, 'name': None} True
# expect: {'value': 2.0, 'name': 'w'} ['value', 'name']
# expect: 3.0 True 2
# expect: [('extra', 'e'), ('name', 'w'), ('value', 3.0)]

opt = minitorch.SGD([p, q], lr=0.5)
d = vars(opt)
print(sorted(d), d["lr"], len(d["parameters"]))
# expect: ['lr', 'parameters'] 0.5 2

class Net(minitorch.Module):
    def __init__(self):
        super().__init__()
        self.p1 = minitorch.Parameter(5.0)
net = Net()
print(vars(net)["training"], "p1" in vars(net) or "p1" in vars(net)["_parameters"])
# expect: True True

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=0.1)
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args(["--lr", "0.5"])
print(vars(args))
print(sorted(vars(args).items()))
# expect: {'lr': 0.5, 'epochs': 3}
# expect: [('epochs', 3), ('lr', 0.5)]

def t(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__ + ":", e)
t(lambda: vars(object()))
t(lambda: vars(iter([1, 2])))
t(lambda: vars(x for x in [1]))
t(lambda: vars(3.5))
t(lambda: vars([1]))
t(lambda: object().__dict__)
# expect: TypeError: vars() argument must have __dict__ attribute
# expect: TypeError: vars() argument must have __dict__ attribute
# expect: TypeError: vars() argument must have __dict__ attribute
# expect: TypeError: vars() argument must have __dict__ attribute
# expect: TypeError: vars() argument must have __dict__ attribute
# expect: AttributeError: 'object' object has no attribute '__dict__'
