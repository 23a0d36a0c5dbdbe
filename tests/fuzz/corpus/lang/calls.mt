def f(a, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, kw)
print(f(*[1, 2], *(3,), c=5, **{"z": 6}))
g = lambda x, *, k=1: x * k
@print
def h(*s, backend):
    return s
pairs = sorted(zip([3, 1], "ab"), key=lambda p: p[0], reverse=True)
print(list(zip(*pairs)), max(pairs, key=lambda p: p[1]), reduce(lambda a, b: a + b, [1, 2], 0))
print(list(enumerate(map(g, range(3)), start=1)), any(filter(None, [0, 1])), reversed("ab"))
