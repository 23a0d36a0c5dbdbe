# dataclasses.asdict() and astuple() against CPython 3.11: nested dataclasses, lists, tuples and
# dicts (keys and values) converted, other values copied as copy.deepcopy copies them.
from dataclasses import dataclass, field, asdict, astuple

@dataclass
class A:
    x: int
    y: list = field(default_factory=list)
    w: str = "w"

@dataclass
class E:
    items: dict
    a: A

e = E({"k": A(1), "j": [A(2), (A(3), 4)]}, A(2, [A(5)]))
print(asdict(e))
# expect: {'items': {'k': {'x': 1, 'y': [], 'w': 'w'}, 'j': [{'x': 2, 'y': [], 'w': 'w'}, ({'x': 3, 'y': [], 'w': 'w'}, 4)]}, 'a': {'x': 2, 'y': [{'x': 5, 'y': [], 'w': 'w'}], 'w': 'w'}}
print(astuple(e))
# expect: ({'k': (1, [], 'w'), 'j': [(2, [], 'w'), ((3, [], 'w'), 4)]}, (2, [(5, [], 'w')], 'w'))
d = asdict(e)
print(d["a"]["y"] is e.a.y, d["items"] is e.items)
# expect: False False
t = astuple(e)
print(type(t).__name__, type(t[0]["j"][1]).__name__)
# expect: tuple tuple

# dict keys are converted too
@dataclass
class K:
    table: dict
print(asdict(K({(1, 2): [3], "n": {"m": A(0)}})))
# expect: {'table': {(1, 2): [3], 'n': {'m': {'x': 0, 'y': [], 'w': 'w'}}}}
print(astuple(K({(1, 2): [3]})))
# expect: ({(1, 2): [3]},)

# other values are deep copies: a plain object, a set, shared and self-referencing objects
class Plain:
    def __init__(self, v):
        self.v = v
        self.seen = [v]

@dataclass
class Holder:
    p: object
    s: set
    pair: tuple

shared = [1, 2]
p = Plain(7)
p.a = shared
p.b = shared
p.me = p
h = Holder(p, {1, 2, (3, 4)}, (shared, shared))
dh = asdict(h)
q = dh["p"]
print(type(q).__name__, q is p, q.v, q.seen, q.seen is p.seen)
# expect: Plain False 7 [7] False
print(q.a is q.b, q.a is shared, q.me is q)
# expect: True False True
print(dh["s"] == h.s, dh["s"] is h.s)
# expect: True False
print(dh["pair"], dh["pair"][0] is dh["pair"][1], dh["pair"][0] is shared)
# expect: ([1, 2], [1, 2]) False False
print(astuple(h)[0].me is astuple(h)[0])
# expect: False

# a frozenset, a tuple of numbers, functions and classes
def f():
    return 1

@dataclass
class Misc:
    fs: frozenset
    nums: tuple
    fn: object
    cls: object
m = asdict(Misc(frozenset({1}), (1, 2.5, "s", None, True), f, A))
print(m["fs"], m["nums"], m["fn"] is f, m["cls"] is A)
# expect: frozenset({1}) (1, 2.5, 's', None, True) True True

# dict_factory and tuple_factory
def pairs(kv):
    return ["pairs"] + kv
print(asdict(A(1, [A(2)]), dict_factory=pairs))
# expect: ['pairs', ('x', 1), ('y', [['pairs', ('x', 2), ('y', []), ('w', 'w')]]), ('w', 'w')]
print(astuple(A(1, [A(2)]), tuple_factory=list))
# expect: [1, [[2, [], 'w']], 'w']

# what is no dataclass instance
for bad in [A, 5, [A(1)]]:
    try:
        asdict(bad)
    except TypeError as err:
        print("TypeError:", err)
# expect: TypeError: asdict() should be called on dataclass instances
# expect: TypeError: asdict() should be called on dataclass instances
# expect: TypeError: asdict() should be called on dataclass instances
try:
    astuple(A)
except TypeError as err:
    print("TypeError:", err)
# expect: TypeError: astuple() should be called on dataclass instances
