# Python's rules where an interpreter's shortcuts for common cases end: a list growing past a
# few items, unpacking a tuple of the right and of the wrong length, f(*args) of many
# arguments and of exactly the callee's (a classmethod's cls.forward(*vals), a callee that
# deletes itself), calls one argument per parameter and not, a wide dataclass and one made
# inside another's __init__, operators of instances (reflected, unary, comparisons), xs[i] of
# lists and tuples (negative, a bool, out of range, not an int), comparisons of numbers (NaN,
# int with float, chained) and `is`, one method call written once for receivers of several
# types (a list then a tuple, a set then a frozenset: what one has, the other may lack), a
# def's docstring, unpacking into names of every scope, o.w and o.h.w read again (and tested
# against None) once a class has changed, a function's locals beside a comprehension, a class
# body and a nested function running in its call, and builtins and the methods of lists and
# dicts called with their arguments (errors raised in them included). The expectations are
# CPython's output.
xs = [1, 2, 3]
for i in range(7):
    xs.append(i * 10)
print(len(xs), xs[0], xs[7], xs[-1])
t = tuple(range(8))
ys = list(t) + [8]
ys.append(9)
print(ys)
a, b = (1, 2)
print(a, b)
try:
    a, b = (1, 2, 3)
except ValueError as e:
    print("ValueError:", e)
try:
    a, b, c = [1, 2]
except ValueError as e:
    print("ValueError:", e)
[p, q] = "ab"
print(p, q)


def f(*args, **kw):
    return len(args), args[-1], kw


print(f(*range(12), *(1, 2), x=1))
print(f(*(), *[[1]]))
print(f(*tuple(range(9))))


def g(a, b=2, *, c=3):
    return a, b, c


print(g(1), g(1, 5), g(1, c=9), g(a=4))
try:
    g()
except TypeError as e:
    print("TypeError:", e)
try:
    g(1, 2, 3)
except TypeError as e:
    print("TypeError:", e)

from dataclasses import dataclass, field


@dataclass
class Inner:
    v: int = 7


@dataclass
class Outer:
    a: int
    inner: Inner = field(default_factory=Inner)
    c: int = 3


for i in range(2):
    print(Outer(i), Outer(1, Inner(2), c=4))


@dataclass
class Wide:
    f1: int = 1
    f2: int = 2
    f3: int = 3
    f4: int = 4
    f5: int = 5
    f6: int = 6
    f7: int = 7
    f8: int = 8
    f9: int = 9
    f10: int = 10


print(Wide(), Wide(3, f10=0) == Wide(3, f10=0))
try:
    Outer()
except TypeError as e:
    print("TypeError:", e)


class V:
    def __init__(self, x):
        self.x = x

    def __add__(self, o):
        return V(self.x + (o.x if isinstance(o, V) else o))

    def __radd__(self, o):
        return V(o + self.x)

    def __neg__(self):
        return V(-self.x)

    def __lt__(self, o):
        return self.x < o.x

    def __eq__(self, o):
        return isinstance(o, V) and self.x == o.x

    def __bool__(self):
        return self.x != 0


class W(V):
    def __radd__(self, o):
        return "W.__radd__ first"


print((V(1) + V(2)).x, (1 + V(2)).x, (-V(3)).x, V(1) < V(2), V(2) > V(1))
print(V(1) == V(1), V(1) != V(2), bool(V(0)), V(1) + W(2))
try:
    ~V(1)
except TypeError as e:
    print("TypeError:", e)
zs = [10, 20, 30]
k = 1
print(zs[0], zs[-1], zs[k], zs[-k], zs[True], (7, 8)[k], [[1, 2], [3, 4]][k][0])
for bad in (3, -4):
    try:
        zs[bad]
    except IndexError as e:
        print("IndexError:", e)
try:
    (1, 2)[5]
except IndexError as e:
    print("IndexError:", e)
try:
    zs["a"]
except TypeError as e:
    print("TypeError:", e)
try:
    zs[1.0]
except TypeError as e:
    print("TypeError:", e)
nan = float("nan")
print(1 < 2, 2.5 >= 2.5, nan == nan, nan != nan, nan < 1.0, 1 == 1.0, 2 ** 62 > 2 ** 61, -3 <= -3)
print(1 < 2 < 3, 3 > 2 > 2, True == 1, None is None, [1] == [1], (1, 2) != (1, 2), 2 > 1.5)


x, y = object(), object()
print(x is x, x is not y, 1.5 is not None, None is not None, (x is y) is False)


def count_ones(v):
    return v.count(1)


def add_two(v):
    try:
        v.add(2)
        return sorted(v)
    except AttributeError as e:
        return "AttributeError: %s" % e


def grow(v):
    try:
        v.append(5)
        return v
    except AttributeError as e:
        return "AttributeError: %s" % e


print([count_ones(v) for v in ([1, 1, 2], (1, 2, 1, 1), [3], (1,))])
print([add_two(v) for v in ({1}, frozenset([1]), set(), frozenset())])
print([grow(v) for v in ([1], (1,), [], ())])
print([v.copy() for v in ({1: 2}, {3}, frozenset([4]), [5])])

# expect: 10 1 40 60
# expect: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
# expect: 1 2
# expect: ValueError: too many values to unpack (expected 2)
# expect: ValueError: not enough values to unpack (expected 3, got 2)
# expect: a b
# expect: (14, 2, {'x': 1})
# expect: (1, [1], {})
# expect: (9, 8, {})
# expect: (1, 2, 3) (1, 5, 3) (1, 2, 9) (4, 2, 3)
# expect: TypeError: g() missing 1 required positional argument: 'a'
# expect: TypeError: g() takes from 1 to 2 positional arguments but 3 were given
# expect: Outer(a=0, inner=Inner(v=7), c=3) Outer(a=1, inner=Inner(v=2), c=4)
# expect: Outer(a=1, inner=Inner(v=7), c=3) Outer(a=1, inner=Inner(v=2), c=4)
# expect: Wide(f1=1, f2=2, f3=3, f4=4, f5=5, f6=6, f7=7, f8=8, f9=9, f10=10) True
# expect: TypeError: Outer.__init__() missing 1 required positional argument: 'a'
# expect: 3 3 -3 True True
# expect: True True False W.__radd__ first
# expect: TypeError: bad operand type for unary ~: 'V'
# expect: 10 30 20 30 20 8 3
# expect: IndexError: list index out of range
# expect: IndexError: list index out of range
# expect: IndexError: tuple index out of range
# expect: TypeError: list indices must be integers or slices, not str
# expect: TypeError: list indices must be integers or slices, not float
# expect: True True False True False True True True
# expect: True False True True True False True
# expect: True True True False True
# expect: [2, 3, 0, 1]
# expect: [[1, 2], "AttributeError: 'frozenset' object has no attribute 'add'", [2], "AttributeError: 'frozenset' object has no attribute 'add'"]
# expect: [[1, 5], "AttributeError: 'tuple' object has no attribute 'append'", [5], "AttributeError: 'tuple' object has no attribute 'append'"]
# expect: [{1: 2}, {3}, frozenset({4}), [5]]


# A def's docstring is its __doc__ and runs as no statement; a string later in the body is a
# statement.
def only_doc():
    """Only a docstring."""


def doc_then(x):
    "doc"
    return x + 1


def gen_doc():
    """a generator's"""
    yield 1


def not_doc():
    x = 1
    "not a docstring"
    return x


print(only_doc(), only_doc.__doc__, doc_then(1), doc_then.__doc__)
print(list(gen_doc()), gen_doc.__doc__, not_doc(), not_doc.__doc__)


# Unpacking into names: locals, a global, a class body's names, a name the value itself holds.
def swap(a, b):
    a, b = b, a
    return a, b


G1 = G2 = 0


def set_globals(p):
    global G1
    G1, G2 = p
    return G2


class K:
    u, v = [7, 8]


def rebind():
    pair = [1, 2]
    pair, other = [pair, 3]
    return pair, other


print(swap(1, 2), set_globals((5, 6)), G1, G2, K.u, K.v, rebind())


# o.w of an instance in a local, read again after its class gains a property of that name,
# loses it, and for instances whose attributes lie in another order, and for values that are
# no instance.
class P:
    def __init__(self, w):
        self.w = w


class Q:
    def __init__(self):
        self.a = 0
        self.w = "q"


class C:
    w = "class attribute"


def read(o):
    return o.w


p = P(1)
print(read(p), read(p), read(Q()), read(P([1])), read(P(None)), read(P(1.5)), read(C))
P.w = property(lambda self: "property")
print(read(p), read(Q()))
del P.w
print(read(p))
del p.w
try:
    read(p)
except AttributeError as e:
    print("AttributeError:", e)
p.w = "again"
print(read(p))
# expect: None Only a docstring. 2 doc
# expect: [1] a generator's 1 None
# expect: (2, 1) 6 5 0 7 8 ([1, 2], 3)
# expect: 1 1 q [1] None 1.5 class attribute
# expect: property q
# expect: 1
# expect: AttributeError: 'P' object has no attribute 'w'
# expect: again


# f(*args) of a function taking exactly those arguments: through a classmethod as
# ScalarFunction.apply calls forward, of a function that deletes itself, raising, and given
# too few.
class Fn:
    @classmethod
    def apply(cls, *vals):
        return cls.forward(*vals)


class Twice(Fn):
    @staticmethod
    def forward(a, b):
        return a * 2 + b


class Del:
    @staticmethod
    def m(a, b):
        del Del.m
        return [a, b]


def boom(a, b):
    return a / b


pair = (1, 2)
print(Twice.apply(1, 2), Twice.apply(*[3, 4]), Del.m(*pair), hasattr(Del, "m"))
for args in [(1, 0), (1,), [2, 4]]:
    try:
        print(boom(*args))
    except (ZeroDivisionError, TypeError) as e:
        print(type(e).__name__ + ":", e)
# expect: 4 10 [1, 2] False
# expect: ZeroDivisionError: division by zero
# expect: TypeError: boom() missing 1 required positional argument: 'b'
# expect: 0.5


# A function's locals beside the scopes that run inside its call: a comprehension's variable of
# a local's name, a class body binding a name the function also binds, a local shared with a
# nested function (nonlocal), deleted and bound again.
def scopes():
    x = "local"
    ys = [x for x in range(3)]

    class Inner:
        x = "class"
        y = x + "!"

    count = 0

    def bump():
        nonlocal count
        count += 1
        return count

    bump()
    bump()
    z = 1
    del z
    try:
        print(z)
    except NameError as e:
        print(type(e).__name__)
    z = 2
    return x, ys, Inner.x, Inner.y, count, bump(), z


print(scopes())
# expect: UnboundLocalError
# expect: ('local', [0, 1, 2], 'class', 'class!', 2, 3, 2)


# Builtins called by name and methods of lists, dicts and sets with their positional
# arguments: an error raised inside one, one raised by user code a builtin ran, too few and
# too many arguments, optional ones given and not.
class Bad:
    def __repr__(self):
        raise ValueError("no repr")


def builtins_by_name(xs, d):
    out = [len(xs), isinstance(xs, list), isinstance(d, (list, dict)), d.get("a"),
           d.get("z", 0), xs.pop(), xs.pop(0), xs]
    for call in (lambda: len(5), lambda: repr(Bad())):
        try:
            call()
        except (TypeError, ValueError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    for call in (lambda: xs.append(), lambda: xs.append(1, 2), lambda: d.get(),
                 lambda: isinstance(1)):
        try:
            call()
        except TypeError as e:  # CPython words each builtin's differently
            out.append(type(e).__name__)
    return out


for item in builtins_by_name([1, 2, 3, 4], {"a": 1}):
    print(item)
# expect: 4
# expect: True
# expect: True
# expect: 1
# expect: 0
# expect: 4
# expect: 1
# expect: [2, 3]
# expect: TypeError: object of type 'int' has no len()
# expect: ValueError: no repr
# expect: TypeError
# expect: TypeError
# expect: TypeError
# expect: TypeError


# o.h.w, an attribute of an attribute, read again as either class gains a property.
class Inner:
    pass


class Outer:
    def __init__(self, h):
        self.h = h


def chain(o):
    return o.h.w, o.h.w is None


first, second = Inner(), Inner()
first.w, second.w = 1, None
o = Outer(first)
print(chain(o), chain(o), chain(Outer(second)))
Inner.w = property(lambda self: "inner property")
print(chain(o))
del Inner.w
Outer.h = property(lambda self: second)
print(chain(o))
del Outer.h
print(chain(o))
# expect: (1, False) (1, False) (None, True)
# expect: ('inner property', False)
# expect: (None, True)
# expect: (1, False)
