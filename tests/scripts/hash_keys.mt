# A dict or set places a key by Python's hash(), the one the builtin returns: an instance whose
# __hash__ and __eq__ equal an int's finds that int's entry, inside tuples and frozensets too;
# an instance with __eq__ and no __hash__ is unhashable inside a tuple. Expectations: CPython's.
class I:
    def __init__(self, v): self.v = v
    def __eq__(self, o): return self.v == (o.v if isinstance(o, I) else o)
    def __hash__(self): return hash(self.v)
print({I(1): "one"}.get(1), {1: "x"}.get(I(1)))
class K(I): pass
print({(K("c"), 1): 3}.get((K("c"), 1)))
print(frozenset([K(2)]) in {frozenset([K(2)]): 1}, hash(frozenset([K(1)])) == hash(frozenset([1])))
print(K(5) in {5, 6}, {I(2)} == {2}, hash(I(7)) == hash(7), hash((1, "a")) == hash((1, "a")))
d = {1: "a", 2.0: "b", (1, 2): "c", "s": "d", None: "e", frozenset({1}): "f"}
print(d[1.0], d[2], d[(1, 2)], d["s"], d[None], d[frozenset({1})], {1} in {frozenset({1})})
class U:
    def __eq__(self, o): return True
try:
    {(U(),): 1}
except TypeError as e:
    print(e)
# expect: one x
# expect: 3
# expect: True True
# expect: True True True True
# expect: a b c d e f True
# expect: unhashable type: 'U'
