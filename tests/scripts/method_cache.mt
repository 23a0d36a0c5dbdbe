# A method call remembers where its class chain had the method (the class, how far up, the
# slot) and asks again only when a name came or went on that chain. Every change a program can
# make between two calls of the same call site must be seen: a method rebound, deleted to show
# the base's, added to a subclass or the class, shadowed by the instance's own attribute,
# another class at the call site, a classmethod replaced, and rows a decorator adds.
class Base:
    def who(self):
        return "Base.who"

    @classmethod
    def make(cls):
        return "Base.make " + cls.__name__


class Mid(Base):
    pass


class Leaf(Mid):
    def who(self):
        return "Leaf.who"


def call(o):
    return o.who()  # one call site for everything below


def make(c):
    return c.make()


leaf, mid = Leaf(), Mid()
# expect: Leaf.who Base.who Leaf.who Base.who
print(call(leaf), call(mid), call(leaf), call(mid))
Leaf.who = lambda self: "Leaf.who again"  # rebound: the same slot, a new value
# expect: Leaf.who again
print(call(leaf))
del Leaf.who  # gone: the base's is found
# expect: Base.who
print(call(leaf))
Mid.who = lambda self: "Mid.who"  # added on the way up
# expect: Mid.who Mid.who
print(call(leaf), call(mid))
leaf.who = lambda: "own"  # the instance's own attribute comes first
# expect: own Mid.who
print(call(leaf), call(mid))
del leaf.who
Base.who = lambda self: "Base.who new"
del Mid.who
# expect: Base.who new
print(call(leaf))


class Other:
    def who(self):
        return "Other.who"


other = Other()  # another class at the same call site
# expect: Other.who Base.who new
print(call(other), call(leaf))
Other.who = staticmethod(lambda: "static")  # no plain method any more: the whole way
# expect: static
print(call(other))

# expect: Base.make Leaf Base.make Mid
print(make(Leaf), make(Mid))
Mid.make = classmethod(lambda cls: "Mid.make " + cls.__name__)
# expect: Mid.make Leaf Base.make Base
print(make(Leaf), make(Base))
Mid.make = 5  # a value: calling it is Python's error
try:
    make(Leaf)
except TypeError as e:
    # expect: 'int' object is not callable (.make is a value, not a method: drop the parentheses)
    print(e)


# classes made one after another at what may be the same address: each is its own
def fresh(tag):
    class K:
        def who(self):
            return tag

    return K()


# expect: a b c
print(call(fresh("a")), call(fresh("b")), call(fresh("c")))

# a dataclass decorated after a call: its generated __repr__ row comes before object's
from dataclasses import dataclass


class P:
    x: int = 1


def show(o):
    return o.__repr__()


p = P()
# expect: True
print(show(p).startswith("<__main__.P object at"))
P = dataclass(P)
# expect: P(x=1)
print(show(P()))
