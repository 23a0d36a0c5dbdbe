# `n += 1` on a variable holding a number replaces the number in the variable's own slot
# (local, global, nonlocal), `xs[i] += 1` the number in the list's, str(n) writes an int's
# digits without printf, and a new attribute's store appends it without a second search. Each
# must give what the whole way gives: the same variable bound, the same errors, the same digits.
count = 0


def bump():
    global count
    count += 1
    count *= 3
    count -= 1
    return count


# expect: 2 8
print(bump(), bump())


def outer():
    n = 10

    def inner():
        nonlocal n
        n += 0.5
        return n

    inner()
    return n, inner()


# expect: (10.5, 11.0)
print(outer())


def local_mix():
    i = 7
    i += 2.5
    j = 2.0
    j *= 3
    k = 5
    k -= 8
    return i, j, k


# expect: (9.5, 6.0, -3)
print(local_mix())

# a bool is no int here: True += 1 is 2, an int
flag = True
flag += 1
# expect: 2 int
print(flag, type(flag).__name__)

# an int that would overflow goes the whole way, to its error, and the variable keeps its value
big = 9223372036854775807
try:
    big += 1
except OverflowError as e:
    # expect: OverflowError 9223372036854775807
    print(type(e).__name__, big)

# a class body reads a global but binds its own name
z = 1


class C:
    z += 41


# expect: 42 1
print(C.z, z)

# a comprehension's variable is its own: the outer one keeps its number
t = 100
vals = [t for t in range(3)]
t += 1
# expect: [0, 1, 2] 101
print(vals, t)

# a list's number plus a constant, in place; anything else the whole way (a tuple's error, an
# index out of range, a right side that changes the list before the store)
top = [None, 0, 1.5, True]
top[1] += 1
top[-3] += 2
top[2] *= 2
top[3] += 1
# expect: [None, 3, 3.0, 2]
print(top)
pair = (1, 2)
try:
    pair[0] += 1
except TypeError as e:
    # expect: 'tuple' object does not support item assignment
    print(e)
try:
    top[7] += 1
except IndexError as e:
    # expect: list index out of range
    print(e)
ys = [10, 20, 30]
ys[0] += ys.pop()
# expect: [40, 20]
print(ys)

# str and repr of ints, the extremes included
# expect: 0 -1 9223372036854775807 -9223372036854775808 -120 [1, -20, 300]
print(str(0), str(-1), str(9223372036854775807), str(-9223372036854775807 - 1), repr(-120), [1, -20, 300])
# expect: 05 '-42' 42
print(str(0) + str(5), repr(str(-42)), "%s" % 42)


# new attributes, then the same names again, then a deleted one set again
class P:
    def __init__(self, v):
        self.a = v
        self.b = v + 1
        self.c = v + 2


p, q = P(1), P(10)
q.c = 0
del p.b
p.b = 5
p.d = 6
# expect: {'a': 1, 'c': 3, 'b': 5, 'd': 6} {'a': 10, 'b': 11, 'c': 0}
print(vars(p), vars(q))

# hasattr and getattr with a default find no attribute quietly; an error shown still names the
# nearest name
# expect: False 7 True
print(hasattr(p, "aa"), getattr(p, "dd", 7), hasattr(p, "d"))
try:
    p.aa
except AttributeError as e:
    # expect: 'P' object has no attribute 'aa'. Did you mean: 'a'?
    print(e)
