# `is` and `is not`: identity for lists, dicts, strings and functions, by value for None,
# bools and small ints (as CPython behaves for them). Expected lines worked out with python3.
x = None
print(x is None, x is not None, None is None, 0 is None, [] is None)
# expect: True False True False False

flag = True
print(flag is True, flag is False, flag is not False, 1 is True, not flag is False)
# expect: True False True False True

xs = [1, 2]
ys = xs
zs = [1, 2]
print(xs is ys, xs is zs, xs == zs, xs is not zs, ys is not xs)
# expect: True False True True False

d = {"a": 1}
e = d
print(d is e, d is {"a": 1}, d.get("b") is None, d.get("a") is not None)
# expect: True False True True

n = 5
m = 5
print(n is m, n is 5, 5 is not 6)
# expect: True True True

def f():
    return None
g = f
print(f is g, f() is None, print is print)
# expect: True True True

t = (1, 2)
u = t
print(t is u, t[0] is 1, x is None is None, 1 < 2 is not None)
# expect: True True True True

def first_or_none(items):
    for item in items:
        if item is not None:
            return item
    return None
print(first_or_none([None, None, 3, 4]), first_or_none([]) is None)

# expect: 3 True
