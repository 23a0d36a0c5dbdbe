# MiniTorch's testing.py as the kernel has it: MathTest's functions on numbers, MathTestVariable's
# on values with their own methods and operators, and _comp_testing()'s triples, used the way
# the course's test_scalar.py and test_tensor.py parametrize over them (fixed draws in place of
# hypothesis's). Expected values: CPython running MiniTorch's testing.py semantics with the
# course's operators (tests/scripts/README.md: worked out outside the kernel).
import math
import minitorch
import minitorch.testing
from minitorch import MathTest, MathTestVariable, tensor


def assert_close(a, b):
    assert minitorch.operators.is_close(a, b), "Failure x=%f y=%f" % (a, b)


print(minitorch.testing.MathTest is MathTest, issubclass(MathTestVariable, MathTest))
# expect: True True
one_arg, two_arg, red_arg = MathTest._tests()
print([name for name, fn in one_arg])
# expect: ['addConstant', 'complex', 'cube', 'div', 'exp', 'explog', 'inv', 'log', 'multConstant', 'neg', 'relu', 'sig', 'square', 'subConstant']
print([name for name, fn in two_arg], [name for name, fn in red_arg])
# expect: ['add2', 'div2', 'eq2', 'gt2', 'lt2', 'mul2'] ['mean_full_red', 'mean_red', 'sum_red']
print([(name, fn(-1.25)) for name, fn in one_arg])
# expect: [('addConstant', 3.75), ('complex', 1.9999989998361336e-08), ('cube', -1.953125), ('div', -0.25), ('exp', 3.964929932682316e-88), ('explog', 11.512912964902103), ('inv', 0.4444444444444444), ('log', 11.512912964902103), ('multConstant', -6.25), ('neg', 1.25), ('relu', 4.25), ('sig', 0.22270013882530884), ('square', 1.5625), ('subConstant', -6.25)]
print([(name, fn(0.5, -4.25)) for name, fn in two_arg])
# expect: [('add2', -3.75), ('div2', 0.4), ('eq2', 0.0), ('gt2', 1.0), ('lt2', 0.0), ('mul2', -2.125)]
print([(name, fn([1.5, -2.0, 8.25])) for name, fn in red_arg])
# expect: [('mean_full_red', 2.5833333333333335), ('mean_red', 2.5833333333333335), ('sum_red', 7.75)]

# _comp_testing(): (name, MathTest's function, MathTestVariable's), the pairs test_tensor.py
# parametrizes over; a subclass's _tests() finds its own functions through cls
one_arg, two_arg, red_arg = MathTestVariable._comp_testing()
print(len(one_arg), len(two_arg), len(red_arg), one_arg[8][0], one_arg[8][1] is MathTest.multConstant)
# expect: 14 6 3 multConstant True
print(one_arg[6][2] is MathTestVariable.inv, one_arg[6][1] is MathTest.inv, red_arg[2][2] is MathTestVariable.sum_red)
# expect: True True True


# a student's own Scalar with operator methods, as Module 1's: MathTestVariable dispatches on it
class Scalar:
    def __init__(self, v):
        self.data = float(v)

    def _v(self, b):
        return b.data if isinstance(b, Scalar) else float(b)

    def __add__(self, b):
        return Scalar(self.data + self._v(b))

    def __radd__(self, b):
        return Scalar(self._v(b) + self.data)

    def __sub__(self, b):
        return Scalar(self.data - self._v(b))

    def __mul__(self, b):
        return Scalar(self.data * self._v(b))

    def __rmul__(self, b):
        return Scalar(self._v(b) * self.data)

    def __truediv__(self, b):
        return Scalar(self.data / self._v(b))

    def __rtruediv__(self, b):
        return Scalar(self._v(b) / self.data)

    def __neg__(self):
        return Scalar(-self.data)

    def __lt__(self, b):
        return Scalar(1.0 if self.data < self._v(b) else 0.0)

    def __gt__(self, b):
        return Scalar(1.0 if self.data > self._v(b) else 0.0)

    def __eq__(self, b):
        return Scalar(1.0 if self.data == self._v(b) else 0.0)

    def sigmoid(self):
        return Scalar(1.0 / (1.0 + math.exp(-self.data)))

    def relu(self):
        return Scalar(self.data if self.data > 0 else 0.0)

    def log(self):
        return Scalar(math.log(self.data))

    def exp(self):
        return Scalar(math.exp(self.data))


print([(name, round(fn(Scalar(3.5)).data, 6)) for name, base, fn in one_arg])
# expect: [('addConstant', 8.5), ('complex', 0.0), ('cube', 42.875), ('div', 0.7), ('exp', 0.0), ('explog', 11.51296), ('inv', 0.142857), ('log', 11.51296), ('multConstant', 17.5), ('neg', -3.5), ('relu', 9.0), ('sig', 0.970688), ('square', 12.25), ('subConstant', -1.5)]
print([(name, round(fn(Scalar(3.5), Scalar(-2.0)).data, 6)) for name, base, fn in two_arg])
# expect: [('add2', 1.5), ('div2', 1.0), ('eq2', 1.0), ('gt2', 1.0), ('lt2', 0.0), ('mul2', -7.0)]

# test_tensor.py's test_one_args / test_two_args / the reductions, on the kernel's tensors
draws = [[[-3.25, 0.25], [7.75, -60.0]], [[99.0, -0.5, 12.0]], [[[1.0]], [[-2.25]]]]
checked = 0
for name, base_fn, tensor_fn in one_arg:
    for d in draws:
        t1 = tensor(d)
        t2 = tensor_fn(t1)
        for ind in t2._tensor.indices():
            assert_close(t2[ind], base_fn(t1[ind]))
            checked += 1
for name, base_fn, tensor_fn in two_arg:
    for d in draws:
        t1 = tensor(d)
        t2 = t1 * 0.5 - 1.0
        t3 = tensor_fn(t1, t2)
        for ind in t3._tensor.indices():
            assert_close(t3[ind], base_fn(t1[ind], t2[ind]))
            checked += 1
for name, base_fn, tensor_fn in red_arg:
    t1 = tensor([2.0, -4.5, 10.0])
    assert_close(tensor_fn(t1)[0], base_fn([2.0, -4.5, 10.0]))
    checked += 1
print(checked)
# expect: 183
print(MathTestVariable.mean_full_red(tensor([[1.0, 2.0], [3.0, 6.0]])).shape, MathTestVariable.mean_red(tensor([[1.0, 2.0], [3.0, 6.0]])).tolist())
# expect: (1,) [[2.0, 4.0]]
