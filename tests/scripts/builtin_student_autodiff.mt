# A student's own autodiff.py replaces the kernel's (kernel/lib/minitorch/autodiff.py): the
# kernel's scalar_functions.py and scalar.py import the student's Context, topological_sort
# and backpropagate. The expectations are what CPython prints with the same files as a package
# (/work/tools/mkexpect_builtin.py).
# %%
%%minitorch_file autodiff.py
from dataclasses import dataclass
from typing import Any, Tuple

calls = []


def central_difference(f, *vals, arg=0, epsilon=1e-6):
    calls.append("central_difference")
    up = list(vals)
    down = list(vals)
    up[arg] = up[arg] + epsilon
    down[arg] = down[arg] - epsilon
    return (f(*up) - f(*down)) / (2 * epsilon)


class Variable:
    pass


def topological_sort(variable):
    calls.append("topological_sort")
    seen, order = [], []

    def visit(v):
        if v.is_constant() or v.unique_id in seen:
            return
        seen.append(v.unique_id)
        if not v.is_leaf():
            for p in v.parents:
                visit(p)
        order.insert(0, v)

    visit(variable)
    return order


def backpropagate(variable, deriv):
    calls.append("backpropagate")
    ds = {variable.unique_id: deriv}
    for v in topological_sort(variable):
        d = ds.get(v.unique_id, 0.0)
        if v.is_leaf():
            v.accumulate_derivative(d)
        else:
            for p, dp in v.chain_rule(d):
                ds[p.unique_id] = ds.get(p.unique_id, 0.0) + dp


@dataclass
class Context:
    no_grad: bool = False
    saved_values: Tuple[Any, ...] = ()

    def save_for_backward(self, *values):
        calls.append("save")
        self.saved_values = values

    @property
    def saved_tensors(self):
        return self.saved_values
# %%
import minitorch
from minitorch import Scalar

a = Scalar(1.5)
b = Scalar(-2.0)
out = (a * b).sigmoid() + a.exp() / b
out.backward()
print(out, a.derivative, b.derivative)
# expect: Scalar(-2.193419) -2.3311978546308567 -1.052657277988148
print(minitorch.autodiff.calls)
# expect: ['save', 'save', 'save', 'save', 'save', 'backpropagate', 'topological_sort']
print(minitorch.Context is minitorch.autodiff.Context, type(out.history.ctx).__module__)
# expect: True minitorch.autodiff
minitorch.autodiff.calls.clear()
minitorch.derivative_check(lambda p, q: p * q + p.log(), Scalar(2.0), Scalar(0.5))
# expect: [2.0, 0.5] 0.999999750000125 0 Scalar(1.000000)
# expect: [2.0, 0.5] 2.0 1 Scalar(2.000000)
print(minitorch.autodiff.calls)
# expect: ['save', 'save', 'backpropagate', 'topological_sort', 'central_difference', 'save', 'save', 'save', 'save', 'save', 'save', 'central_difference', 'save', 'save', 'save', 'save', 'save', 'save']
print(minitorch.central_difference is minitorch.autodiff.central_difference)
# expect: True
