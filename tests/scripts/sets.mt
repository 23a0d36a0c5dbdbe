# set and frozenset against CPython 3.11: every expectation is what it prints for this file, but
# those of the last section, on compiled code, which CPython lacks.
# The kernel keeps a set's insertion order where CPython's follows the hashes, so the sets shown
# whole are of small ints added in increasing order (CPython then shows them in that order
# too); others go through sorted().
s = {1, 2, 3}
print(s, {3}, {1, 2, 1, 2.0, True}, set(), frozenset(), frozenset({1, 2}), {(1, 2), (3, 4)})
# expect: {1, 2, 3} {3} {1, 2} set() frozenset() frozenset({1, 2}) {(1, 2), (3, 4)}
print(type(s).__name__, type(frozenset()).__name__, type({}).__name__, type({1: 2}).__name__)
# expect: set frozenset dict dict
print(repr(s), str(s), [s], {"k": s}, (frozenset([1]),), str(frozenset([1, 2])))
# expect: {1, 2, 3} {1, 2, 3} [{1, 2, 3}] {'k': {1, 2, 3}} (frozenset({1}),) frozenset({1, 2})
print(sorted({"pear", "apple", "fig"}), sorted({x % 3 for x in range(10)}), len({"a", "a"}))
# expect: ['apple', 'fig', 'pear'] [0, 1, 2] 1
# displays and comprehensions; {} stays a dict
print({x * x for x in range(5)}, sorted({x for x in range(10) if x % 4 == 0}), {(x, y) for x in (1,) for y in (2,)})
# expect: {0, 1, 4, 9, 16} [0, 4, 8] {(1, 2)}
print({}, {1: 2}, {1, }, {1: 2, 3: 4}, {k: v for k, v in [(1, 2)]}, {x for x in []})
# expect: {} {1: 2} {1} {1: 2, 3: 4} {1: 2} set()
x = 10
print({x for x in range(3)}, x)
# expect: {0, 1, 2} 10
# set() and frozenset() of any iterable
print(set([3, 4, 3]), set((5, 6)), set(range(4)), sorted(set({7: "a", 8: "b"})), sorted(set("abca")))
# expect: {3, 4} {5, 6} {0, 1, 2, 3} [7, 8] ['a', 'b', 'c']
print(frozenset(range(3)), frozenset([1, 1]), set(frozenset([2])), frozenset(set([9])))
# expect: frozenset({0, 1, 2}) frozenset({1}) {2} frozenset({9})
fs = frozenset([1, 2])
print(frozenset(fs) is fs, set(s) is s, set(s) == s, s.copy() == s, s.copy() is s, fs.copy() is fs)
# expect: True False True True False True
# in, len, truth, iteration, unpacking, the builtins that iterate
print(2 in s, 5 in s, 5 not in s, 2.0 in s, True in s, (1, 2) in {(1, 2)}, len(s), len(set()))
# expect: True False True True True True 3 0
print(bool(s), bool(set()), bool(frozenset()), not set(), [v for v in s], list(s), tuple(s))
# expect: True False False True [1, 2, 3] [1, 2, 3] (1, 2, 3)
a, b, c = {1, 2, 3}
print(a, b, c, sum({1, 2, 3}), max({4, 5}), min(frozenset([4, 5])), sorted({2, 1}, reverse=True))
# expect: 1 2 3 6 5 4 [2, 1]
print(any({0}), all({1, 2}), list(enumerate({5, 6})), list(zip({1, 2}, "ab")), [v + 1 for v in {1, 2}])
# expect: False True [(0, 5), (1, 6)] [(1, 'a'), (2, 'b')] [2, 3]
total = 0
for v in frozenset({1, 2, 4}):
    total += v
print(total, list(map(lambda v: v * 2, {1, 2})), dict.fromkeys({1, 2}, 0) if False else "-")
# expect: 7 [2, 4] -
# the operators, and the in-place ones: a set changes itself, a frozenset rebinds
print({1, 2} | {2, 3}, {1, 2, 3} & {2, 3, 4}, {1, 2, 3} - {2}, {1, 2, 3} ^ {3, 4})
# expect: {1, 2, 3} {2, 3} {1, 3} {1, 2, 4}
print({1} | frozenset({2}), frozenset({1}) | {2}, frozenset({1, 2}) & {2}, frozenset({1}) - set())
# expect: {1, 2} frozenset({1, 2}) frozenset({2}) frozenset({1})
print({1, 2} | set(), set() & {1}, {1, 2} - {1, 2}, {1} ^ {1}, {1, 2, 3} - {4} - {1})
# expect: {1, 2} set() set() set() {2, 3}
print({1, 2} | {3} & {3, 4}, {1, 2, 3} - {1} | {5}, {1} | {2} ^ {2, 3}, sorted({1, 2} & {2} | {9}))
# expect: {1, 2, 3} {2, 3, 5} {1, 3} [2, 9]
t = {1, 2}
u = t
u |= {3}
print(t, u is t)
# expect: {1, 2, 3} True
u &= {2, 3, 4}
print(t, u is t)
# expect: {2, 3} True
u -= {2}
print(t, u is t)
# expect: {3} True
u ^= {1, 3}
print(t, u is t)
# expect: {1} True
t |= t
t &= t
print(t)
# expect: {1}
t ^= t
print(t)
# expect: set()
t = {1, 2}
t -= t
print(t)
# expect: set()
f = frozenset({1})
g = f
g |= {2}
print(f, g, g is f, type(g).__name__)
# expect: frozenset({1}) frozenset({1, 2}) False frozenset
g -= {1}
g ^= {3}
g &= {2, 5}
print(g)
# expect: frozenset({2})
# the comparisons are subset tests; == compares elements (a set equals a frozenset)
print({1} < {1, 2}, {1, 2} < {1, 2}, {1, 2} <= {1, 2}, {1, 3} <= {1, 2}, set() < {1}, {1} < set())
# expect: True False True False True False
print({1, 2} > {1}, {1, 2} >= {1, 2}, {1, 2} > {1, 2}, {2} > {1}, {1} >= frozenset({1}))
# expect: True True False False True
print({1, 2} == {2, 1}, {1} == frozenset({1}), {1} != {1}, {1} == [1], {1} == {1: None}, set() == frozenset())
# expect: True True False False False True
print({1.0} == {1}, {(1, 2)} == {(1, 2)}, {1} != frozenset([2]), {1, 2} < {1, 2, 3} < {1, 2, 3, 4})
# expect: True True True True
# hashing: a frozenset is hashable, a set is not
d = {frozenset({1, 2}): "a", frozenset(): "empty"}
print(d[frozenset([2, 1])], d[frozenset()], frozenset({1}) in {frozenset({1})}, {1} in {frozenset({1})})
# expect: a empty True True
nested = {frozenset({1}), frozenset({1, 2}), frozenset([1])}
print(len(nested), frozenset({frozenset()}), {frozenset({1})} == {frozenset([1])})
# expect: 2 frozenset({frozenset()}) True
inner = {frozenset({1})}
inner.remove({1})
inner.add(frozenset([5]))
inner.discard({5})
print(inner)
# expect: set()
# methods
m = {1, 2}
m.add(3)
m.add(2)
print(m, m.add(4), m)
# expect: {1, 2, 3, 4} None {1, 2, 3, 4}
m.remove(4)
m.discard(9)
m.discard(1)
print(m)
# expect: {2, 3}
p = m.pop()
print(p, m)
# expect: 2 {3}
m.clear()
print(m, len(m))
# expect: set() 0
m.update([1, 2], (3,), range(4, 6))
print(m)
# expect: {1, 2, 3, 4, 5}
m.intersection_update([1, 2, 3, 4], {2, 3, 4, 5})
print(m)
# expect: {2, 3, 4}
m.difference_update({4}, [9])
print(m)
# expect: {2, 3}
m.symmetric_difference_update([3, 5, 5])
print(m)
# expect: {2, 5}
q = {1, 2, 3}
print(q.union([4], (5,)), q.union(), q.intersection([2, 3], {3}), q.difference([1]), q.difference())
# expect: {1, 2, 3, 4, 5} {1, 2, 3} {3} {2, 3} {1, 2, 3}
print(q.symmetric_difference([3, 4, 4]), q.issubset([1, 2, 3, 4]), q.issubset({1}), q.issuperset([1, 1]))
# expect: {1, 2, 4} True False True
print(q.isdisjoint([4, 5]), q.isdisjoint((5, 3)), q.isdisjoint(set()), q.issuperset(range(1, 3)))
# expect: True False True True
print(frozenset([1, 2]).union({3}), frozenset([1, 2]).intersection([2]), frozenset([2]).issubset({2}))
# expect: frozenset({1, 2, 3}) frozenset({2}) True
print(q, q.union(q) is q, q.intersection(q) == q, q.update(), q)
# expect: {1, 2, 3} False True None {1, 2, 3}
# which of two equal keys a result keeps (1 or 1.0), as CPython's
print({1} | {1.0}, {1.0} | {1}, {1} & {1.0}, {1, 2} & {1.0}, {1.0} & {1, 2}, {1} ^ {1.0}, {1.0, 2} - {1})
# expect: {1} {1.0} {1.0} {1.0} {1.0} set() {2}
w = {1}
w.add(1.0)
w.update([True])
print(w, {True, 1, 1.0}, {1.0, 1})
# expect: {1} {True} {1.0}
# a set of instances of a class without __hash__: hashed and compared by identity, as in Python
class P:
    def __init__(self, n):
        self.n = n
    def __repr__(self):
        return "P" + str(self.n)
p1 = P(1)
group = {p1, p1}
group.add(P(2))
print(len(group), p1 in group, P(1) in group, sorted(x.n for x in group))
# expect: 2 True False [1, 2]
class K:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        return hash(self.v)
    def __eq__(self, o):
        return isinstance(o, K) and o.v == self.v
ks = {K(1), K(1), K(2)}
print(len(ks), K(1) in ks, K(3) in ks, len({K(1)} | {K(1)}), len({K(1)} - {K(1)}), len({K(2)} & ks))
# expect: 2 True False 1 0 1
ks.remove(K(2))
ks.discard(K(1))
print(ks)
# expect: set()
# hash() of a frozenset is CPython's (of ints, floats and tuples, whose hashes are CPython's too)
print(hash(frozenset({1, 2})), hash(frozenset()), hash(frozenset({(1, 2), 3.5, -1})))
# expect: -1826646154956904602 133146708735736 -4350144100270561967
print(hash(frozenset({frozenset({1})})), hash(frozenset([1, 2])) == hash(frozenset([2, 1, 2])))
# expect: 5515263749738256364 True
# id() and dir(): each set its own object; a frozenset's methods are those that change nothing
s1, s2 = {1}, {1}
print(id(s1) == id(s2), id(s1) == id(s1), "add" in dir(s1), "add" in dir(frozenset()), "union" in dir(frozenset()))
# expect: False True True False True
# errors, caught: CPython's types and messages
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)
attempt(lambda: {[1]})
# expect: TypeError: unhashable type: 'list'
attempt(lambda: {1, {2}})
# expect: TypeError: unhashable type: 'set'
attempt(lambda: {{1: 2}})
# expect: TypeError: unhashable type: 'dict'
attempt(lambda: {x for x in [[1]]})
# expect: TypeError: unhashable type: 'list'
attempt(lambda: set([[1]]))
# expect: TypeError: unhashable type: 'list'
attempt(lambda: {1: 2, {3}: 4})
# expect: TypeError: unhashable type: 'set'
attempt(lambda: {{1}: 2})
# expect: TypeError: unhashable type: 'set'
attempt(lambda: hash({1}))
# expect: TypeError: unhashable type: 'set'
attempt(lambda: hash(frozenset([(1, [2])])))
# expect: TypeError: unhashable type: 'list'
attempt(lambda: {1}.add([2]))
# expect: TypeError: unhashable type: 'list'
attempt(lambda: {1}.remove(2))
# expect: KeyError: 2
attempt(lambda: {1}.remove([1]))
# expect: TypeError: unhashable type: 'list'
attempt(lambda: {1}.discard([1]))
# expect: TypeError: unhashable type: 'list'
attempt(lambda: [1] in {1})
# expect: TypeError: unhashable type: 'list'
attempt(lambda: set().pop())
# expect: KeyError: 'pop from an empty set'
attempt(lambda: frozenset().add(1))
# expect: AttributeError: 'frozenset' object has no attribute 'add'
attempt(lambda: frozenset([1]).remove(1))
# expect: AttributeError: 'frozenset' object has no attribute 'remove'
attempt(lambda: frozenset().update([1]))
# expect: AttributeError: 'frozenset' object has no attribute 'update'
attempt(lambda: {1}.union(5))
# expect: TypeError: 'int' object is not iterable
attempt(lambda: {1}.issubset(5))
# expect: TypeError: 'int' object is not iterable
attempt(lambda: {1}.issubset([[1]]))
# expect: TypeError: unhashable type: 'list'
attempt(lambda: {1}.isdisjoint([[1]]))
# expect: TypeError: unhashable type: 'list'
attempt(lambda: {1}.intersection([[1]]))
# expect: TypeError: unhashable type: 'list'
attempt(lambda: {1}.difference([[1]]))
# expect: TypeError: unhashable type: 'list'
attempt(lambda: {frozenset({1})}.difference([{1}]))
# expect: TypeError: unhashable type: 'set'
attempt(lambda: {frozenset({1})}.isdisjoint([{1}]))
# expect: TypeError: unhashable type: 'set'
attempt(lambda: {frozenset({1})}.intersection([{1}]))
# expect: TypeError: unhashable type: 'set'
attempt(lambda: set(1))
# expect: TypeError: 'int' object is not iterable
attempt(lambda: frozenset(None))
# expect: TypeError: 'NoneType' object is not iterable
attempt(lambda: set([1], [2]))
# expect: TypeError: set expected at most 1 argument, got 2
attempt(lambda: frozenset([1], [2]))
# expect: TypeError: frozenset expected at most 1 argument, got 2
attempt(lambda: set(a=1))
# expect: TypeError: set() takes no keyword arguments
attempt(lambda: {1} | [2])
# expect: TypeError: unsupported operand type(s) for |: 'set' and 'list'
attempt(lambda: [2] & {1})
# expect: TypeError: unsupported operand type(s) for &: 'list' and 'set'
attempt(lambda: {1} - 1)
# expect: TypeError: unsupported operand type(s) for -: 'set' and 'int'
attempt(lambda: {1} ^ (1,))
# expect: TypeError: unsupported operand type(s) for ^: 'set' and 'tuple'
attempt(lambda: {1} + {2})
# expect: TypeError: unsupported operand type(s) for +: 'set' and 'set'
attempt(lambda: {1} * 2)
# expect: TypeError: unsupported operand type(s) for *: 'set' and 'int'
attempt(lambda: {1} | {1: 2})
# expect: TypeError: unsupported operand type(s) for |: 'set' and 'dict'
attempt(lambda: {1} < [1])
# expect: TypeError: '<' not supported between instances of 'set' and 'list'
attempt(lambda: {1} >= 1)
# expect: TypeError: '>=' not supported between instances of 'set' and 'int'
attempt(lambda: {1}[0])
# expect: TypeError: 'set' object is not subscriptable
attempt(lambda: -{1})
# expect: TypeError: bad operand type for unary -: 'set'
attempt(lambda: ~frozenset())
# expect: TypeError: bad operand type for unary ~: 'frozenset'
def grow(items):
    for v in items:
        items.add(v + 10)
attempt(lambda: grow({1, 2}))
# expect: RuntimeError: Set changed size during iteration
def shrink(items):
    for v in items:
        items.discard(v)
attempt(lambda: shrink({1, 2}))
# expect: RuntimeError: Set changed size during iteration
def iand(x, y):
    x &= y
    return x
attempt(lambda: iand({1}, [1]))
# expect: TypeError: unsupported operand type(s) for &=: 'set' and 'list'
attempt(lambda: iand(frozenset({1}), 1))
# expect: TypeError: unsupported operand type(s) for &=: 'frozenset' and 'int'
def setitem(x):
    x[0] = 1
attempt(lambda: setitem({1}))
# expect: TypeError: 'set' object does not support item assignment
def delitem(x):
    del x[0]
attempt(lambda: delitem({1}))
# expect: TypeError: 'set' object doesn't support item deletion
attempt(lambda: dict({1, 2}))
# expect: TypeError: cannot convert dictionary update sequence element #0 to a sequence
attempt(lambda: reversed({1}))
# expect: TypeError: 'set' object is not reversible
attempt(lambda: isinstance(frozenset(), set))
# expect: False
attempt(lambda: (isinstance(set(), set), isinstance(frozenset(), frozenset), isinstance({}, set)))
# expect: (True, True, False)
# Compiled code takes no sets (the kernel's own behaviour): an njit function given one runs in
# the interpreter, a cuda.jit kernel refuses it with its TypeError.
from numba import njit, cuda
@njit
def count(items):
    return len(items)
print(count({1, 2, 3}), count(frozenset()))
# expect: 3 0
def write_len(out, items):
    out[0] = len(items)
launch = cuda.jit(write_len)
attempt(lambda: launch[1, 1](zeros(1).tuple()[0], {1}))
# expect: TypeError: argument 2 of write_len() is a set: a kernel takes Storages (t._tensor._storage, t.tuple()), 1-d numpy arrays of numbers, tuples or lists of ints, ints and floats
print("end")
# expect: end

