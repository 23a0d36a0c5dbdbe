# Positional-only parameters (before a `/`), bound as CPython binds them: MiniTorch's
# `def __call__(self, x, out=..., /)`. Expected lines: python3 running this file.
def f(a, b, /, c, *, d=4):
    return (a, b, c, d)
print(f(1, 2, 3), f(1, 2, c=3), f(1, 2, 3, d=5))
# expect: (1, 2, 3, 4) (1, 2, 3, 4) (1, 2, 3, 5)

# a keyword of a positional-only name is an error, naming every such keyword...
for call in [lambda: f(1, b=2, c=3), lambda: f(a=1, b=2, c=3), lambda: f(1, 2, 3, a=4)]:
    try:
        call()
    except TypeError as e:
        print(e)
# expect: f() got some positional-only arguments passed as keyword arguments: 'b'
# expect: f() got some positional-only arguments passed as keyword arguments: 'a, b'
# expect: f() got some positional-only arguments passed as keyword arguments: 'a'

# ...unless **kwargs takes it: the name stays free for a keyword
def g(a, /, **kw):
    return (a, kw)
print(g(1, a=2, b=3))
# expect: (1, {'a': 2, 'b': 3})

# defaults, and the other binding errors as before
def h(x, out=None, /):
    return (x, out)
print(h(1), h(1, 2))
# expect: (1, None) (1, 2)
for call in [lambda: h(), lambda: h(1, 2, 3), lambda: f(1, 2, c=3, e=0), lambda: f(1)]:
    try:
        call()
    except TypeError as e:
        print(e)
# expect: h() missing 1 required positional argument: 'x'
# expect: h() takes from 1 to 2 positional arguments but 3 were given
# expect: f() got an unexpected keyword argument 'e'
# expect: f() missing 2 required positional arguments: 'b' and 'c'

# everything after the slash may still be given by keyword; a lambda takes one too
add = lambda a, /, b: a + b
print(add(1, 2), add(1, b=2))
# expect: 3 3

# MiniTorch's protocol: __call__(self, x, out=..., /)
class MapProto:
    def __call__(self, x, out=..., /):
        return (x, out)
m = MapProto()
print(m(1), m(1, 2))
# expect: (1, Ellipsis) (1, 2)
try:
    m(1, out=2)
except TypeError as e:
    print(e)
# expect: MapProto.__call__() got some positional-only arguments passed as keyword arguments: 'out'
