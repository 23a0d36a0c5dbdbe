# ==, != and the subset tests of dicts and sets ask an instance's __hash__ and __eq__, inside
# lists and nested containers too; an __eq__ that empties a container while it is compared
# does no harm. Expectations: CPython's output.
class K:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return isinstance(o, K) and self.v == o.v
    def __hash__(self):
        return hash(self.v)
print({K(1)} <= {K(1)}, {K(1)} == {K(1)}, {1: K(2)} == {1: K(2)}, {K(1): 1} == {K(1): 1})
print([K(1)] == [K(1)], (K(1),) == (K(1),), K(1) in {K(1)}, {K(1)} - {K(1)})
print({1, 2} == {2, 1}, {1: 2} == {1: 2.0}, {1.0} == {1})
a = {K(1), K(2), 3}
b = {3, K(2), K(1), K(4)}
print(a < b, a <= b, b > a, b >= a, a == b, a != b, b < a, a.issubset(b), b.issuperset(a))
print({"x": [K(1), {K(2)}]} == {"x": [K(1), {K(2)}]}, {"x": [K(1)]} == {"x": [K(3)]})
print([{1: K(1)}] == [{1: K(1)}], {1: 2} != {1: 2}, {1: 2} == {1: 2, 3: 4})
class Evil:
    def __init__(self, d):
        self.d = d
    def __eq__(self, o):
        self.d.clear()
        return True
    def __hash__(self):
        return 1
d1 = {}
d2 = {}
d1[Evil(d1)] = 1
d1["z"] = 2
d2[Evil(d2)] = 1
d2["z"] = 2
print(d1 == d2)
s1 = set()
s1.add(Evil(s1)); s1.add(5)
s2 = {Evil(set()), 5}
print(s1 == s2, s1 <= s2)
# expect: True True True True
# expect: True True True set()
# expect: True True True
# expect: True True True True False True False True True
# expect: True False
# expect: True False False
# expect: False
# expect: True True
