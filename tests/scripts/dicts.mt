# Dicts, as Python's: literals, d[k], d[k] = v, in, len, iteration in insertion order, the
# methods, dict(), ==, repr and truth. Expected lines worked out with python3.
d = {"a": 1, "b": [1, 2]}
print(d, len(d), "a" in d, "z" not in d)
# expect: {'a': 1, 'b': [1, 2]} 2 True True

d["c"] = 3
d[(1, 2)] = "t"
d[1] = "one"
d[1.0] = "uno"
d[True] = "yes"
print(d)
# expect: {'a': 1, 'b': [1, 2], 'c': 3, (1, 2): 't', 1: 'yes'}

print(d[1, 2], d[1], d[1.0])
# expect: t yes yes

for k in d:
    print(k, d[k])
# expect: a 1
# expect: b [1, 2]
# expect: c 3
# expect: (1, 2) t
# expect: 1 yes

print(list(d.keys()), list(d.values()))
# expect: ['a', 'b', 'c', (1, 2), 1] [1, [1, 2], 3, 't', 'yes']

print(list(d.items()))
# expect: [('a', 1), ('b', [1, 2]), ('c', 3), ((1, 2), 't'), (1, 'yes')]

print(d.get("zz"), d.get("a"), d.get("zz", 5))
# expect: None 1 5

print(d.pop("a"), d.pop("zz", "gone"), d)
# expect: 1 gone {'b': [1, 2], 'c': 3, (1, 2): 't', 1: 'yes'}

print(d.setdefault("q", []), d.setdefault("c", 0))
# expect: [] 3

d.update({"x": 1}, y=2)
d.update([("p", 9)])
print(d)
# expect: {'b': [1, 2], 'c': 3, (1, 2): 't', 1: 'yes', 'q': [], 'x': 1, 'y': 2, 'p': 9}

e = d.copy()
e["x"] = 100
print(e == d, d["x"], e["x"])
# expect: False 1 100

e.clear()
print(e, d != e, bool(e), bool(d), len(e))
# expect: {} True False True 0

print(dict(), dict(a=1, b=2), dict([(1, 2), (3, 4)]), dict({"k": "v"}, k="w"))
# expect: {} {'a': 1, 'b': 2} {1: 2, 3: 4} {'k': 'w'}

d["c"] += 10
print(d["c"])
# expect: 13

print({1: {2: {3: []}}, None: None, 2.5: "f", (): 0})
# expect: {1: {2: {3: []}}, None: None, 2.5: 'f', (): 0}

print(d.popitem(), len(d))
# expect: ('p', 9) 7

for k, v in {"a": 1, "b": 2}.items():
    print(k, v)
# expect: a 1
# expect: b 2

a, b = {"x": 1, "y": 2}
print(a, b)
# expect: x y

print({} == {}, {1: 2} == {1.0: 2}, {1: 2} == {1: 3}, {1: 2, 3: 4} == {3: 4, 1: 2})
# expect: True True False True

print(list({"a": 1}), tuple({"a": 1}), sum({1: "x", 2: "y"}))
# expect: ['a'] ('a',) 3

print({"k": 1} == [1], {"k": 1} != "k", "x" in {"x": None})
# expect: False True True

counts = {}
for w in ["a", "b", "a", "c", "a"]:
    counts[w] = counts.get(w, 0) + 1
print(counts)
# expect: {'a': 3, 'b': 1, 'c': 1}

shared = {}
alias = shared
alias["s"] = 1
print(shared)
# expect: {'s': 1}

print({(1, (2, 3)): "nested"})

# expect: {(1, (2, 3)): 'nested'}

# where the kernel differs: keys(), values() and items() are lists, not views
print(d.keys())
# expect: ['b', 'c', (1, 2), 1, 'q', 'x', 'y']
print(type(d))
# expect: <class 'dict'>

# a missing key's KeyError holds the key itself, as Python's (e.args[0], repr(e))
dk = {"a": 1}
try:
    dk["zz"]
except KeyError as e:
    print(repr(e), str(e), e.args[0], e.args)
    # expect: KeyError('zz') 'zz' zz ('zz',)
try:
    del dk[(1, 2)]
except KeyError as e:
    print(repr(e), str(e), e.args)
    # expect: KeyError((1, 2)) (1, 2) ((1, 2),)
try:
    dk.pop("q")
except KeyError as e:
    print(repr(e), e.args)
    # expect: KeyError('q') ('q',)
