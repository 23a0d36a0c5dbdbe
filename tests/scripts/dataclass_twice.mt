# @dataclass applied to a class that is one already, against CPython 3.11: the methods the
# first pass made stay, the second adds those it did not make; the fields are the first pass's.
from dataclasses import dataclass, field, fields, is_dataclass

class P:
    x: int
    y: int = 0

Q = dataclass(dataclass(P))
print(Q is P, Q(1, 2), Q(1) == Q(1, 0), [f.name for f in fields(Q)])
# expect: True P(x=1, y=2) True ['x', 'y']

@dataclass
class F:
    a: list = field(default_factory=list)
    b: int = 3

G = dataclass(F)
print(G(), G([1], 2), [f.name for f in fields(G)])
# expect: F(a=[], b=3) F(a=[1], b=2) ['a', 'b']

@dataclass(repr=False)
class R:
    x: int = 1

print(repr(R()).startswith("<__main__.R object"))
# expect: True
dataclass(R)
print(R(), R(5) == R(5))
# expect: R(x=1) True

@dataclass(eq=False, init=False)
class S:
    x: int = 1

print(S() == S())
# expect: False
dataclass(S)
print(S(4), S(4) == S(4), is_dataclass(S))
# expect: S(x=4) True True
try:
    hash(S(4))
except TypeError as e:
    print("TypeError:", e)
# expect: TypeError: unhashable type: 'S'

@dataclass
class T:
    x: int = 0
    def __repr__(self):
        return "own repr"

print(dataclass(repr=True)(T)(), T(3) == T(3))
# expect: own repr True
