# A name of the builtins read by one expression again and again (the evaluator remembers what
# it found there) still means the variable of that name whenever one is bound: a global, a
# local, a class body's, a comprehension's, and the builtin again once the variable is
# deleted. The values are CPython's.
def size(xs):
    return len(xs), isinstance(xs, list), float(max(xs))


print(size([1, 2]))
len = lambda xs: "global"
print(size([1, 2]))
del len
print(size([1, 2, 3]))


def local_float(flag):
    for _ in range(2):
        if flag:
            float = str
        flag = not flag
        print(float(2))


local_float(True)


class Body:
    first = len("ab")
    len = 5
    second = len


print(Body.first, Body.second, [len for len in range(2)], len("abc"))
# expect: (2, True, 2.0)
# expect: ('global', True, 2.0)
# expect: (3, True, 3.0)
# expect: 2
# expect: 2
# expect: 2 5 [0, 1] 3
