# A sign before a number literal makes one constant, as CPython folds it (xs[-1] reads no
# operator), and `k in d` of an int or a string key searches the dict or set itself. Both must
# give what the operators give: precedence, -0.0, mixed number keys, and compiled code.
xs = [1, 2, 3]
# expect: 3 -1 -0.0 -4 0.5 3 -3 -3.5 4 -3 2 5.5
print(xs[-1], -1, -0.0, -2 ** 2, 2 ** -1, --3, -+3, +-3.5, -(-4), (-1) * 3, 1 - -1, 5 - -0.5)
# expect: -9223372036854775807 -9223372036854775808 -3 1 -1 True
print(-9223372036854775807, -9223372036854775807 - 1, -5 // 2, -5 % 3, -True, not -0)


def f(a=-1, b=-2.5):
    return a, b


# expect: (-1, -2.5) [5, 3, 1]
print(f(), [x for x in range(5, -1, -2)])

done = {5, "a"}
pending = {7: 1.0, "k": 2}
# expect: True True True False True True
print(5 in done, 6 not in done, "a" in done, "b" in done, 7 in pending, "q" not in pending)
# a key equal to one of another type: 1 == 1.0, True == 1
# expect: True True True False
print(1 in {1.0}, 2.0 in {2}, True in {1}, 1 in {"1"})
try:
    print(5 in 7)
except TypeError as e:
    # expect: argument of type 'int' is not iterable
    print(e)


class Key:
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return hash(self.v)

    def __eq__(self, other):
        return other == self.v


# a set holding an instance asks its __eq__
# expect: True False
print(3 in {Key(3)}, 4 in {Key(3)})

# compiled code takes the folded constants (a negative float after a minus included)
from numba import njit


@njit
def shifted(x):
    return x - -1.5 + x * -2.0 - -3 + 2 ** -1


# expect: 4.0 2.5
print(shifted(1.0), shifted(2.5))

# and a tensor function compiled for the engine keeps the sign of -0.0 as a constant operand,
# as the reference loops do: min(-0.0, 0.0) is -0.0
import minitorch


def lower(x):
    return min(-0.0, x) * 2.0


t = minitorch.tensor([0.0, 1.0, -1.0])
# expect: [-0.0, -0.0, -2.0] [-0.0, -0.0, -2.0]
print(map(lower, t.to("simple")).tolist(), map(lower, t.to("fast")).tolist())
