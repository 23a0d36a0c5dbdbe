# A dataclass's __init__, __repr__ and __eq__ are made when @dataclass decorates the class, from
# the fields it finds then: a Field changed or removed afterwards changes nothing they do, while
# fields() and asdict() read the fields as they are now (CPython's behaviour; the kernel keeps the
# decorator's snapshot in the class). A snapshot the program deletes or replaces must not crash
# the kernel, nor change what the methods do while the fields are the ones decorated.
from dataclasses import asdict, dataclass, field, fields


@dataclass
class P:
    x: int
    y: int = 5
    z: list = field(default_factory=list)


p = P(1)
# expect: P(x=1, y=5, z=[]) True
print(p, p == P(1, 5, []))
fields(P)[1].default = 99
fields(P)[0].repr = False
fields(P)[2].compare = False
# expect: P(x=1, y=5, z=[]) False
print(P(1), P(1, 5, [1]) == P(1, 5, [2]))
del P.__dataclass_fields__["z"]
q = P(2, 3, [4])
# expect: P(x=2, y=3, z=[4]) ['x', 'y'] {'x': 2, 'y': 3}
print(q, [f.name for f in fields(P)], asdict(q))


@dataclass
class Q:
    a: int = 0
    b: str = "b"


del Q.__dataclass_params__
# expect: Q(a=1, b='c') Q(a=0, b='b') True
print(Q(1, "c"), Q(), Q(1) == Q(1))


@dataclass
class R:
    a: int = 0


for forged in [((1, 2),), "text", (("a", 0, 0, "no"),), (), ((None, 0, 0, 7),)]:
    R.__dataclass_params__ = forged
    # expect: R(a=3) R(a=0) True
    # expect: R(a=3) R(a=0) True
    # expect: R(a=3) R(a=0) True
    # expect: R(a=3) R(a=0) True
    # expect: R(a=3) R(a=0) True
    print(R(3), R(), R(2) == R(2))


# a subclass that is no dataclass itself takes its base's methods and fields
class S(P):
    pass


# expect: S(x=7, y=5, z=[])
print(S(7))
