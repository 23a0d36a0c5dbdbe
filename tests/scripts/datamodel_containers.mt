# Container methods of user classes: items (ints and tuples), len, iteration (__iter__ with an
# iterator's __next__, an __iter__ returning a list's iteration, or the old protocol of
# __getitem__ until IndexError), `in`, unpacking, calls, and every builtin that iterates. Each
# expectation is what CPython prints.


class Grid:
    "MiniTorch's TensorData in small: a flat storage, indexed by a tuple."

    def __init__(self, rows, cols):
        self.shape = (rows, cols)
        self.storage = [0.0] * (rows * cols)

    def __getitem__(self, key):
        if isinstance(key, int):
            key = (key // self.shape[1], key % self.shape[1])
        i, j = key
        return self.storage[i * self.shape[1] + j]

    def __setitem__(self, key, v):
        i, j = key
        self.storage[i * self.shape[1] + j] = v

    def __len__(self):
        return self.shape[0] * self.shape[1]

    def __contains__(self, v):
        return v in self.storage

    def __call__(self, scale):
        return [v * scale for v in self.storage]


g = Grid(2, 3)
g[0, 1] = 5.0
g[1, 2] = 7.0
g[1, 0] += 1.5
print(g[0, 1], g[1, 2], g[1, 0], g[4], len(g), 7.0 in g, 8.0 in g, 8.0 not in g)
# expect: 5.0 7.0 1.5 0.0 6 True False True
print(g(2))
# expect: [0.0, 10.0, 0.0, 3.0, 0.0, 14.0]
# no __iter__: iterated with __getitem__(0), (1), ... until IndexError
print(list(g), sum(g), max(g), sorted(g)[-2:], [v for v in g if v > 0])
# expect: [0.0, 5.0, 0.0, 1.5, 0.0, 7.0] 13.5 7.0 [5.0, 7.0] [5.0, 1.5, 7.0]


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return CountdownIter(self.n)


class CountdownIter:
    def __init__(self, n):
        self.i = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.i <= 0:
            raise StopIteration
        self.i -= 1
        return self.i + 1


c = Countdown(4)
print(list(c), list(c), [x * x for x in c], 3 in c, 9 in c)
# expect: [4, 3, 2, 1] [4, 3, 2, 1] [16, 9, 4, 1] True False
print(sum(c), min(c), max(c), sorted(c), tuple(c), list(zip(c, "abcd")))
# expect: 10 1 4 [1, 2, 3, 4] (4, 3, 2, 1) [(4, 'a'), (3, 'b'), (2, 'c'), (1, 'd')]
print(list(enumerate(Countdown(2))), any(Countdown(3)), all(Countdown(0)))
# expect: [(0, 2), (1, 1)] True True
a, b = Countdown(2)
print(a, b)
# expect: 2 1
for k in Countdown(3):
    if k == 2:
        break
    print("k", k)
# expect: k 3
d = dict(zip(Countdown(2), ["two", "one"]))
print(d, list(map(lambda v: v + 1, Countdown(2))), list(filter(lambda v: v % 2, Countdown(5))))
# expect: {2: 'two', 1: 'one'} [3, 2] [5, 3, 1]


class Bag:
    def __init__(self, *xs):
        self.xs = list(xs)

    def __iter__(self):
        return ListIter(self.xs)

    def __delitem__(self, i):
        del self.xs[i]

    def __getitem__(self, i):
        return self.xs[i]


class ListIter:
    def __init__(self, xs):
        self.xs, self.k = xs, 0

    def __next__(self):
        if self.k == len(self.xs):
            raise StopIteration()
        self.k += 1
        return self.xs[self.k - 1]


bag = Bag("a", "b", "c")
del bag[1]
print(list(bag), bag[-1], "c" in bag, "b" in bag)
# expect: ['a', 'c'] c True False
xs = [0]
xs.extend(bag)
print(xs)
# expect: [0, 'a', 'c']

class Nothing:
    pass


errors = [
    lambda: len(Countdown(1)),
    lambda: Countdown(1)[0],
    lambda: Bag()[0],
    lambda: list(Nothing()),
]
for attempt in errors:
    try:
        attempt()
    except (TypeError, IndexError) as e:
        print(type(e).__name__, e)
# expect: TypeError object of type 'Countdown' has no len()
# expect: TypeError 'Countdown' object is not subscriptable
# expect: IndexError list index out of range
# expect: TypeError 'Nothing' object is not iterable
for attempt in [lambda: 1 in Nothing(), lambda: Nothing()[0], lambda: len(Nothing())]:
    try:
        attempt()
    except TypeError as e:
        print(e)
# expect: argument of type 'Nothing' is not iterable
# expect: 'Nothing' object is not subscriptable
# expect: object of type 'Nothing' has no len()
n = Nothing()
try:
    n[0] = 1
except TypeError as e:
    print(e)
# expect: 'Nothing' object does not support item assignment
try:
    del n[0]
except TypeError as e:
    print(e)
# expect: 'Nothing' object doesn't support item deletion
try:
    p, q = Nothing()
except TypeError as e:
    print(e)
# expect: cannot unpack non-iterable Nothing object


class NoNext:
    def __iter__(self):
        return Nothing()


try:
    for _ in NoNext():
        pass
except TypeError as e:
    print(e)
# expect: iter() returned non-iterator of type 'Nothing'

