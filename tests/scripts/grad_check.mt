# minitorch.grad_check(f, *vals) as test_tensor.py calls it: every MathTestVariable function
# (one and two arguments, the reductions), a permutation, a view, and inputs computed from
# others (test_two_grad_broadcast's t1.sum(0)); then a function whose backward is wrong, which
# fails with MiniTorch's message. The index checked is x._tensor.sample() after random.seed(10):
# CPython's random.randint draws (2,) for a shape (3,).
import minitorch
from minitorch import MathTestVariable, grad_check, tensor

one_arg, two_arg, red_arg = MathTestVariable._comp_testing()
t1 = tensor([[1.25, -2.0, 3.5], [0.75, 6.0, -1.5]])
t2 = tensor([[0.5, 2.25, -4.0], [3.0, -0.25, 1.75]])
for name, _, tensor_fn in one_arg + red_arg:
    grad_check(tensor_fn, t1)
for name, _, tensor_fn in two_arg:
    grad_check(tensor_fn, t1, t2)
    grad_check(tensor_fn, t1.sum(0), t2)
    grad_check(tensor_fn, t1, t2.sum(0))
grad_check(lambda a: a.permute(1, 0), t1)


def view(a):
    a = a.contiguous()
    return a.view(a.size)


grad_check(view, t1.permute(1, 0))
print("checked", len(one_arg) + len(red_arg) + 3 * len(two_arg) + 2)
# expect: checked 37
print(t1.requires_grad(), minitorch.tensor_functions.grad_check is grad_check)
# expect: True True

# a backward that leaves out half the derivative: d(a * a)/da is 2a, a.detach() passes none
x = tensor([1.5, -2.0, 4.0])
try:
    grad_check(lambda a: a * a.detach(), x)
except AssertionError as e:
    lines = str(e).split("\n")
    print(lines[1])
    print(lines[3].startswith("Gradient check error for function <function <lambda>"))
    at = [i for i, line in enumerate(lines) if line.startswith("Received")][0]
    print(lines[at])
    print(lines[at + 1])
# expect: Not equal to tolerance rtol=0.01, atol=0.01
# expect: True
# expect: Received derivative 4.000000 for argument 0 and index (2,),
# expect-re: but was expecting derivative (7\.99[0-9]+|8\.00[0-9]+) from central difference\.

# values near the ends of MiniTorch's draws (-100..100): conv outputs near 10^4, whose float32
# rounding would swamp a step of 10^-3 (the difference then read 2.35 for a derivative of 1);
# the step grows until it does not, and a derivative left out at that size is still caught
xc = tensor([[[0.0, 100.0, -100.0, 1.0, -1.0, 0.5]]])
wc = tensor([[[0.0, 100.0, -100.0, 1.0]]])
grad_check(minitorch.Conv1dFun.apply, xc, wc)
print("conv near 100 passed")
# expect: conv near 100 passed
ones = tensor([[[1.0, 1.0, 1.0, 1.0]]])
try:
    grad_check(lambda a: minitorch.conv1d(a, wc) + minitorch.conv1d(a.detach(), ones), xc)
    print("not caught")
except AssertionError as e:
    print(str(e).split("\n")[1])
# expect: Not equal to tolerance rtol=0.01, atol=0.01
grad_check(lambda a: a, [1.0])
# expect-error: TypeError: grad_check() checks tensors, not list
