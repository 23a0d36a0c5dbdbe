# The generated __init__ works out what it needs of a dataclass's fields once, not for every
# instance: more dataclasses than it keeps that work for, a default factory making instances of
# other dataclasses while an __init__ runs, fields stored through a __setattr__ hook or a
# property added afterwards, and __init__ called again must all do what CPython does. As
# CPython's, it calls __post_init__ when the class had one when decorated, looking it up on
# the instance each time (replaced: the new one; deleted: AttributeError), and never one added
# afterwards.
from dataclasses import dataclass, field

made = []
for k in range(12):

    @dataclass
    class C:
        a: int = k
        b: int = 0

    made.append(C)
# expect: [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9), (9, 10), (10, 11), (11, 12)]
print([(c().a, c(b=i + 1).b) for i, c in enumerate(made)])
# expect: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
print([c().a for c in made * 3][24:])


def many():
    return [c(b=len(made)) for c in made]


@dataclass
class Outer:
    x: int
    inner: list = field(default_factory=many)
    y: str = "y"


o = Outer(7)
# expect: 7 y 12 12 11
print(o.x, o.y, len(o.inner), o.inner[3].b, o.inner[-1].a)
# expect: Outer(x=8, inner=[], y='z')
print(Outer(8, [], "z"))

log = []


@dataclass
class P:
    v: int = 1


P(1)
P(2)


def post(self):
    log.append(("post", self.v))


P.__post_init__ = post
P(3)


def post2(self):
    log.append(("post2", self.v))


P.__post_init__ = post2
P(4)
del P.__post_init__
P(5)
# expect: []
print(log)


class Q(P):
    pass


log.clear()
Q(1)
P(2)
P.__post_init__ = post
Q(3)
P(4)


def qpost(self):
    log.append(("qpost", self.v))


Q.__post_init__ = qpost
Q(5)
P(6)
# expect: []
print(log)


@dataclass
class S:
    val: int = 0
    other: int = 0

    def __setattr__(self, name, value):
        log.append(("set", name, value))
        object.__setattr__(self, name, value)


log.clear()
s = S(1, 2)
s.__init__(3)
# expect: 3 0 [('set', 'val', 1), ('set', 'other', 2), ('set', 'val', 3), ('set', 'other', 0)]
print(s.val, s.other, log)


@dataclass
class T:
    t: int = 0


def get_t(self):
    return self._t


def set_t(self, value):
    log.append(("prop", value))
    self._t = value


log.clear()
T(1)
T.t = property(get_t, set_t)
x = T(2)
# expect: 2 [('prop', 2)]
print(x.t, log)


@dataclass
class H:
    h: int = 0

    def __post_init__(self):
        log.append(("H", self.h))


class HSub(H):
    def __post_init__(self):
        log.append(("HSub", self.h))


@dataclass
class HData(H):
    k: int = 1


def hpost(self):
    log.append(("hpost", self.h))


log.clear()
H(1)
HSub(2)
HData(3, 4)
H.__post_init__ = hpost
H(5)
HData(6)
del H.__post_init__
HSub(7)
# expect: [('H', 1), ('HSub', 2), ('H', 3), ('hpost', 5), ('hpost', 6), ('HSub', 7)]
print(log)
try:
    H(8)
except AttributeError as e:
    # expect: 'H' object has no attribute '__post_init__'
    print(e)
