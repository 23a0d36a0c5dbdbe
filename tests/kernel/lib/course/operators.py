"""A student's operators.py (Tasks 0.1 and 0.3), correct, for tests/kernel/lib/test_check_course.c,
which plants a bug in one function at a time by replacing one line of it."""
import math


def mul(x, y):
    return x * y


def id(x):
    return x


def add(x, y):
    return x + y


def neg(x):
    return -1.0 * x


def lt(x, y):
    return 1.0 if x < y else 0.0


def eq(x, y):
    return 1.0 if x == y else 0.0


def max(x, y):
    return x if x > y else y


def is_close(x, y):
    return abs(x - y) < 1e-2


def sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    return math.exp(x) / (1.0 + math.exp(x))


def relu(x):
    return x if x > 0 else 0.0


def log(x):
    return math.log(x)


def exp(x):
    return math.exp(x)


def inv(x):
    return 1.0 / x


def log_back(x, d):
    return d / x


def inv_back(x, d):
    return -d / (x * x)


def relu_back(x, d):
    return d if x > 0 else 0.0


def map(fn):
    def apply(ls):
        return [fn(x) for x in ls]

    return apply


def zipWith(fn):
    def apply(a, b):
        return [fn(x, y) for x, y in zip(a, b)]

    return apply


def reduce(fn, start):
    def apply(ls):
        acc = start
        for x in ls:
            acc = fn(x, acc)
        return acc

    return apply


def negList(ls):
    return map(neg)(ls)


def addLists(a, b):
    return zipWith(add)(a, b)


def sum(ls):
    return reduce(add, 0.0)(ls)


def prod(ls):
    return reduce(mul, 1.0)(ls)
