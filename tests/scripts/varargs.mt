# *args, keyword-only parameters and **kwargs, as Python binds them; f(*xs) and f(**d) at calls
def f(a, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, kw)

print(f(1, c=3))
# expect: (1, 2, (), 3, 4, {})
print(f(1, 2, 3, 4, c=5, z=6))
# expect: (1, 2, (3, 4), 5, 4, {'z': 6})
print(f(c=0, a=9, y=[1]))
# expect: (9, 2, (), 0, 4, {'y': [1]})

# MiniTorch's own: def RParam(*shape, backend)
def RParam(*shape, backend):
    return (shape, backend)

print(RParam(2, 3, backend="fast"))
# expect: ((2, 3), 'fast')
print(RParam(backend="simple"))
# expect: ((), 'simple')

def total(*xs):
    s = 0
    for x in xs:
        s += x
    return s

print(total(), total(1, 2, 3), total(1.5))
# expect: 0 6 1.5

# a bare * makes the rest keyword-only
def clip(x, *, lo=0, hi=1):
    return min(max(x, lo), hi)

print(clip(5), clip(-2), clip(5, hi=10), clip(-2, lo=-1))
# expect: 1 0 5 -1

def opts(**kw):
    return kw

print(opts(), opts(a=1, b="two"))
# expect: {} {'a': 1, 'b': 'two'}
print(len(opts(x=1, y=2)), "x" in opts(x=1))
# expect: 2 True

# several * in one call, mixed with positionals and keywords
xs = [1, 2]
t = (3, 4)
print(f(*xs, *t, c=5))
# expect: (1, 2, (3, 4), 5, 4, {})
print(f(*t, 7, *xs, d=0, c=1))
# expect: (3, 4, (7, 1, 2), 1, 0, {})
print(f(0, *"ab", **{"c": 1, "q": 2}))
# expect: (0, 'a', ('b',), 1, 4, {'q': 2})
print(total(*range(5)), total(*[]))
# expect: 10 0
print(RParam(*t, **{"backend": "cuda"}))
# expect: ((3, 4), 'cuda')
args = {"a": 1, "c": 2}
print(f(**args), f(**args, d=3))
# expect: (1, 2, (), 2, 4, {}) (1, 2, (), 2, 3, {})
# unpacking works for builtins and methods too
print(max(*[3, 9, 2]), min(*"bca"))
# expect: 9 a
print(*[1, 2, 3], sep="-")
# expect: 1-2-3
print(*"xy", **{"sep": "+", "end": "!\n"})
# expect: x+y!
ys = []
ys.append(*[5])
print(ys)
# expect: [5]
print(dict(**{"k": 1}, j=2))
# expect: {'k': 1, 'j': 2}
# *args is a tuple, **kwargs a new dict each call
def show(*a, **k):
    return (len(a), len(k))

print(show(1, 2, x=3))
# expect: (2, 1)
def grow(**k):
    k["n"] = len(k)
    return k

d = {"m": 1}
print(grow(**d), d)
# expect: {'m': 1, 'n': 1} {'m': 1}

# forwarding every argument, as wrappers do
def forward(*args, **kwargs):
    return f(*args, **kwargs)

print(forward(1, c=2, extra=3), forward(*[forward(0, c=0)[0]], c=9))
# expect: (1, 2, (), 2, 4, {'extra': 3}) (0, 2, (), 9, 4, {})

# how the parameters show (repr, help)
print(f, RParam, clip)
# expect: <function f(a, b=..., *args, c, d=..., **kw)> <function RParam(*shape, backend)> <function clip(x, *, lo=..., hi=...)>
