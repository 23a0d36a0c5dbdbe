# `for` loops and comprehensions over zip(...): the iterables are walked side by side, one row
# at a time, as Python's lazy zip walks them (no list of tuples made first): a list the body
# grows is seen, an iterator's __next__ runs between the bodies, a local rebound in the body
# leaves the walk alone, and the first iterable to run out ends it. Targets: a tuple of names,
# one name (the row's tuple), a nested tuple, a count that raises; a zip of one and of more
# iterables than a walk takes; a function's own `zip`. Each expectation is what CPython prints.
xs = [1, 2, 3]
ys = "abcd"
for a, b in zip(xs, ys):
    print(a, b)
# expect: 1 a
# expect: 2 b
# expect: 3 c
for p in zip(xs, ys):
    print(p)
# expect: (1, 'a')
# expect: (2, 'b')
# expect: (3, 'c')
print([(b, a) for a, b in zip(xs, ys) if a != 2])
# expect: [('a', 1), ('c', 3)]
print({a: b for a, b in zip(xs, ys)})
# expect: {1: 'a', 2: 'b', 3: 'c'}
print([a + c for a, c in zip(xs, [10, 20]) for q in zip(ys)])
# expect: [11, 11, 11, 11, 22, 22, 22, 22]
print([q for a in xs for q in zip([a], ys)])
# expect: [(1, 'a'), (2, 'a'), (3, 'a')]

l = [1, 2]
out = []
for a, b in zip(l, range(5)):
    out.append(a)
    if len(l) < 4:
        l.append(a * 10)
print(out, l)
# expect: [1, 2, 10, 20] [1, 2, 10, 20]


def rebinds(xs, ys):
    r = []
    for a, b in zip(xs, ys):
        xs = None
        r.append(a * b)
    return r


print(rebinds([1, 2, 3], [4, 5, 6]))
# expect: [4, 10, 18]

try:
    for a, b, c in zip(xs, ys):
        pass
except ValueError as e:
    print("ValueError", e)
# expect: ValueError not enough values to unpack (expected 3, got 2)
try:
    for a in zip(xs, 5):
        pass
except TypeError as e:
    print("TypeError", e)
# expect: TypeError 'int' object is not iterable


class Counter:
    def __init__(self, name, n):
        self.name, self.n, self.i = name, n, 0

    def __iter__(self):
        print("iter", self.name)
        return self

    def __next__(self):
        if self.i >= self.n:
            print("stop", self.name)
            raise StopIteration
        self.i += 1
        print("next", self.name, self.i)
        return self.i


for a, b in zip(Counter("A", 2), Counter("B", 3)):
    print("body", a, b)
# expect: iter A
# expect: iter B
# expect: next A 1
# expect: next B 1
# expect: body 1 1
# expect: next A 2
# expect: next B 2
# expect: body 2 2
# expect: stop A
print([a * b for a, b in zip(Counter("C", 1), Counter("D", 1))])
# expect: iter C
# expect: iter D
# expect: next C 1
# expect: next D 1
# expect: stop C
# expect: [1]


def own_zip():
    zip = lambda *a: [(1, 2)]
    for a, b in zip([5], [6]):
        print("own zip", a, b)


own_zip()
# expect: own zip 1 2

for a, b in zip([1, 2], [3, 4]):
    if a == 2:
        break
    print("break", a, b)
# expect: break 1 3


def returns():
    for a, b in zip([1, 2], [3, 4]):
        return a + b


print(returns())
# expect: 4
for (a, b), c in zip([(1, 2), (3, 4)], "xy"):
    print(a, b, c)
# expect: 1 2 x
# expect: 3 4 y
print(list(zip()), [t for t in zip([1], [2], [3], [4], [5])])
# expect: [] [(1, 2, 3, 4, 5)]
for (a,) in zip([7, 8]):
    print("one", a)
# expect: one 7
# expect: one 8


class Fails:
    def __iter__(self):
        return self

    def __next__(self):
        raise KeyError("inside next")


try:
    print([a for a, b in zip([1], Fails())])
except KeyError as e:
    print("KeyError", e)
# expect: KeyError 'inside next'
for a, b in zip([1, 2], Fails()):
    print("never")
# expect-error: KeyError: 'inside next'
