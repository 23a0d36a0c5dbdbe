# list.sort(key=..., reverse=...) as Python sorts: stable, each key called once in order while
# the list is empty, the list as it was when a key or a comparison raises. Expectations are
# CPython's.
xs = [3, 1, 2, -5]
xs.sort(key=lambda v: abs(v))
print(xs)
# expect: [1, 2, 3, -5]
xs.sort(key=abs, reverse=True)
print(xs)
# expect: [-5, 3, 2, 1]
ws = ["bb", "a", "ccc", "dd"]
ws.sort(key=len)
print(ws)
# expect: ['a', 'bb', 'dd', 'ccc']
ws.sort(key=len, reverse=True)
print(ws)
# expect: ['ccc', 'bb', 'dd', 'a']
print(sorted(ws), sorted(ws, key=lambda w: w[::-1]))
# expect: ['a', 'bb', 'ccc', 'dd'] ['a', 'bb', 'ccc', 'dd']
pairs = [(1, "b"), (0, "a"), (1, "a")]
pairs.sort(key=lambda p: p[0])
print(pairs)
# expect: [(0, 'a'), (1, 'b'), (1, 'a')]
try:
    [1, "a"].sort(key=lambda v: v)
except TypeError as e:
    print("TypeError:", e)
# expect: TypeError: '<' not supported between instances of 'str' and 'int'
bad = [3, 2, 1]
try:
    bad.sort(key=lambda v: 1 / (v - 2))
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e, bad)
# expect: ZeroDivisionError: division by zero [3, 2, 1]
seen = []
def k(v):
    seen.append(len(lst))
    return -v
lst = [1, 2, 3]
lst.sort(key=k)
print(lst, seen)
# expect: [3, 2, 1] [0, 0, 0]
empty = []
empty.sort(key=len)
empty.sort()
print(empty, sorted([], key=len), sorted(()))
# expect: [] [] []

