# A student's code that changes what the interpreter is walking, from inside a special method:
# the kernel carries on as CPython does, or raises CPython's error, and never crashes.


class Gone:
    def __add__(self, o):
        del Gone.__add__
        return "added"


print(Gone() + 1)
# expect: added
b = []


class ClearsB:
    def __eq__(self, o):
        b.clear()
        return True


a = [ClearsB(), ClearsB(), ClearsB()]
b.extend([ClearsB(), ClearsB(), ClearsB()])
print(a == b)
# expect: False
xs = []


class Reorders:
    def __init__(self, v):
        self.v = v

    def __lt__(self, o):
        xs.clear()
        xs.append(Reorders(0))
        return self.v < o.v


xs.extend([Reorders(3), Reorders(1), Reorders(2), Reorders(5), Reorders(4)])
try:
    xs.sort()
except ValueError as e:
    print(e, [r.v for r in xs])
# expect: list modified during sort [1, 2, 3, 4, 5]
d = {}


class Rehashes:
    def __hash__(self):
        return 7

    def __eq__(self, o):
        d.clear()
        for i in range(100):
            d[str(i)] = i
        return True


d[Rehashes()] = 1
d[Rehashes()] = 2
print(len(d))
# expect: 101


class Holder:
    def __init__(self):
        self.x = 1
        self.d = self.__dict__


print(Holder().__dict__)
# expect: {'x': 1, 'd': {...}}


class E(Exception):
    pass


e = E()
e.args = (e,)
try:
    str(e)
except RecursionError:
    print("RecursionError")
# expect: RecursionError


class Chain:
    def __init__(self, nxt):
        self.nxt = nxt

    def __eq__(self, o):
        return self.nxt == o.nxt


def chain(n):
    x = None
    for i in range(n):
        x = Chain(x)
    return x


try:
    print(chain(3000) == chain(3000))
except RecursionError:
    print("RecursionError")
# expect: RecursionError


def endless_from():
    yield from Bad()


class Bad:
    def __iter__(self):
        return self

    def __next__(self):
        raise ValueError("bad next")


try:
    list(endless_from())
except ValueError as e:
    print(e)
# expect: bad next


class MyStop(StopIteration):
    pass


class Stops:
    def __init__(self):
        self.n = 0

    def __iter__(self):
        return self

    def __next__(self):
        self.n += 1
        if self.n > 2:
            raise MyStop()
        return self.n


print(list(Stops()))
# expect: [1, 2]


class P:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return isinstance(o, P) and self.v == o.v


ps = [P(1), P(2), P(2)]
print(ps.count(P(2)), ps.index(P(2)), P(2) in ps)
# expect: 2 1 True
ps.remove(P(2))
print(len(ps))
# expect: 2
from dataclasses import dataclass, fields


@dataclass
class Node:
    v: int
    child: object = None


n = Node(1)
n.child = n
print(repr(n))
# expect: Node(v=1, child=...)
m = Node(1)
m.child = m
try:
    n == m
except RecursionError:
    print("RecursionError")
# expect: RecursionError


class Late:
    pass


class Later(Late):
    pass


obj = Later()
Late.size = property(lambda self: 42)
print(obj.size)
# expect: 42

