# lambda: a function value like a def's, its body one expression
double = lambda x: x * 2
print(double(21), double("ab"))
# expect: 42 abab
add = lambda a, b=1: a + b
print(add(1), add(1, 2), add(b=10, a=5))
# expect: 2 3 15
print((lambda: "no parameters")())
# expect: no parameters
print((lambda *a, **k: (a, k))(1, 2, x=3))
# expect: ((1, 2), {'x': 3})
print((lambda x, *, scale: x * scale)(3, scale=4))
# expect: 12
# a conditional expression as the body
sign = lambda x: 1 if x > 0 else (-1 if x < 0 else 0)
print(list(map(sign, [3, -2, 0])))
# expect: [1, -1, 0]
# as arguments: sorted's key, map, filter
pairs = [(1, "b"), (0, "z"), (2, "a")]
print(sorted(pairs, key=lambda p: p[1]))
# expect: [(2, 'a'), (1, 'b'), (0, 'z')]
print(list(map(lambda p: p[0] * 10, pairs)))
# expect: [10, 0, 20]
print(list(filter(lambda p: p[0] > 0, pairs)))
# expect: [(1, 'b'), (2, 'a')]
# in lists, returned from functions, as defaults
ops = [lambda x: x + 1, lambda x: x * x]
print(ops[0](3), ops[1](3))
# expect: 4 9
def pick(n):
    if n == 0:
        return lambda x: -x
    return abs
print(pick(0)(5), pick(1)(-5))
# expect: -5 5
def apply(x, fn=lambda v: v * 100):
    return fn(x)
print(apply(2), apply(2, double))
# expect: 200 4
# defaults are evaluated when the lambda is made
k = 5
addk = lambda x, k=k: x + k
k = 50
print(addk(1))
# expect: 6
# a lambda reads the variables of its cell when it runs
scale = 3
times = lambda x: x * scale
scale = 4
print(times(2))
# expect: 8
# a lambda's value is a function, as a def's
square = lambda x: x * x
def square_def(x):
    return x * x
print(square(7) == square_def(7), square == square, square == square_def)
# expect: True True False

# how a lambda shows: as a def's function, named <lambda>
print(double, lambda *a, k=1, **kw: 0)
# expect: <function <lambda>(x)> <function <lambda>(*a, k=..., **kw)>
help(add)
# expect: <lambda>(a, b=...)
# expect:
# expect: A function made by lambda in this session.
