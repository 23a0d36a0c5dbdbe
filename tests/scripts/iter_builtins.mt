# Python's builtins over iterables; over tensors, map, zip and reduce are MiniTorch's compiled
# forms (user_functions.mt). These return lists where Python 3 returns iterators: list() of
# them, a for loop over them and zip(*pairs) give Python's results.
c = [(0.1, 0.2, 1), (0.5, 0.3, 0), (0.9, 0.8, 1)]
x1, x2, y = zip(*c)
print(x1, x2, y)
# expect: (0.1, 0.5, 0.9) (0.2, 0.3, 0.8) (1, 0, 1)
print(list(zip([1, 2, 3], "ab")), list(zip()), list(zip(range(3))))
# expect: [(1, 'a'), (2, 'b')] [] [(0,), (1,), (2,)]
print(list(zip(*zip([1, 2], [3, 4]))))
# expect: [(1, 2), (3, 4)]
for a, b in zip("xyz", [1, 2, 3]):
    print(a, b)
# expect: x 1
# expect: y 2
# expect: z 3

# map: a function over one or more iterables side by side
print(list(map(abs, [-1, 2, -3])), list(map(max, [1, 5], [4, 2], [3, 3])))
# expect: [1, 2, 3] [4, 5]
def inc(v):
    return v + 1
print(list(map(inc, range(3))), list(map(str, (1, 2))))
# expect: [1, 2, 3] ['1', '2']

# filter
print(list(filter(None, [0, 1, "", "a", [], [0]])), list(filter(inc, [-1, 0, 1])))
# expect: [1, 'a', [0]] [0, 1]

# enumerate
print(list(enumerate("ab")), list(enumerate([5, 6], start=10)), list(enumerate([], 3)))
# expect: [(0, 'a'), (1, 'b')] [(10, 5), (11, 6)] []
for i, (p, q) in enumerate([(1, 2), (3, 4)]):
    print(i, p + q)
# expect: 0 3
# expect: 1 7

# sorted: stable, key=, reverse=
print(sorted([3, 1, 2]), sorted("bca"), sorted((2.5, 1, True)), sorted([]))
# expect: [1, 2, 3] ['a', 'b', 'c'] [1, True, 2.5] []
words = ["bb", "a", "ccc", "dd"]
print(sorted(words, key=len), sorted(words, key=len, reverse=True), sorted(words, reverse=True))
# expect: ['a', 'bb', 'dd', 'ccc'] ['ccc', 'bb', 'dd', 'a'] ['dd', 'ccc', 'bb', 'a']
print(sorted({"b": 1, "a": 2}), words)
# expect: ['a', 'b'] ['bb', 'a', 'ccc', 'dd']
print(sorted([[2, 1], [1, 5], [1, 2]]))
# expect: [[1, 2], [1, 5], [2, 1]]

# reversed
print(list(reversed([1, 2, 3])), list(reversed("abc")), list(reversed(range(1, 7, 2))), list(reversed(())))
# expect: [3, 2, 1] ['c', 'b', 'a'] [5, 3, 1] []

# any and all
print(any([]), all([]), any([0, "", 3]), all([1, "a", 0]), any(range(0)), all(range(1, 4)))
# expect: False True True False False True

# min and max: several values, one iterable, key=, default=
print(max(3, 9, 2), min([4, 1, 8]), max("hello"), min((2, 1.5)))
# expect: 9 1 o 1.5
print(max(words, key=len), min(words, key=len), max([], default="none"), min([], default=0))
# expect: ccc a none 0
print(max([1, 3, 3.0], key=lambda v: v), max([(1, "x"), (1, "y")], key=lambda p: p[0]))
# expect: 3 (1, 'x')

# reduce: Python's functools.reduce when given an iterable
print(reduce(lambda a, b: a * b, [1, 2, 3, 4]), reduce(lambda a, b: a + b, [], 10), reduce(max, [3, 8, 1], 5))
# expect: 24 10 8
print(reduce(lambda acc, s: acc + s, ["a", "b", "c"]))
# expect: abc

# sum
print(sum([1, 2, 3]), sum((0.5, 0.25), 1), sum(range(5)), sum([[1], [2]], []))
# expect: 6 1.75 10 [1, 2]

# The rule (lib/iterables.c): the tensor form when an argument after the function is a tensor
# or a keyword is given, Python's form otherwise. Values worked out by hand.
t = tensor([1.0, -2.0])
print(map(abs, t).tolist(), map(lambda v: v * 2, t).tolist())
# expect: [1.0, 2.0] [2.0, -4.0]
print(zip(lambda a, b: a + b, t, 1.0).tolist(), reduce(lambda a, b: a + b, t, 0).tolist())
# expect: [2.0, -1.0] [-1.0]
o = zeros(2)
map(lambda v: v + 1, t, out=o)
print(o.tolist(), reduce(max, t, dim=0, start=-5).tolist())
# expect: [2.0, -1.0] [1.0]
# a list of tensors is an iterable: Python's map calls the function on each tensor
print(map(lambda u: u.sum().item(), [t, o]))
# expect: [-1.0, 1.0]
# Python's forms give lists at once (Python 3: iterators; list() of them is the same)
print(zip([1, 2], "ab"), map(abs, [-1]), enumerate("a"), reversed([1, 2]), filter(None, [0, 2]))
# expect: [(1, 'a'), (2, 'b')] [1] [(0, 'a')] [2, 1] [2]
