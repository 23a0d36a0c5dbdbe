# Generators: a def whose body yields (yield v, yield from xs, an early return) and generator
# expressions, as MiniTorch's TensorData.indices uses them; next(), loops, builtins that iterate.
# Each expectation is what CPython prints.
def count(n):
    i = 0
    while i < n:
        yield i
        i += 1


def indices(shape):
    "MiniTorch's TensorData.indices in small: every index of a shape, in order."
    size = 1
    for s in shape:
        size *= s
    for ordinal in range(size):
        out = []
        rest = ordinal
        for s in reversed(shape):
            out.append(rest % s)
            rest = rest // s
        yield tuple(reversed(out))


def chain(*its):
    for it in its:
        yield from it


def early(xs):
    for x in xs:
        if x < 0:
            return
        yield x


g = count(3)
print(next(g), list(g), next(g, "done"), type(g).__name__)
# expect: 0 [1, 2] done generator
print(list(indices((2, 3))), sum(count(5)), list(chain([1, 2], "ab", count(2))))
# expect: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)] 10 [1, 2, 'a', 'b', 0, 1]
print(list(early([3, 1, -1, 5])), [x * x for x in count(4)], max(count(6)))
# expect: [3, 1] [0, 1, 4, 9] 5
print(sum(x * x for x in range(4)), list(x for x in "ab"), type(x for x in []).__name__)
# expect: 14 ['a', 'b'] generator
gen = (x + 1 for x in [1, 2])
print(next(gen), next(gen), next(gen, None))
# expect: 2 3 None
for i, idx in enumerate(indices((2, 2))):
    print(i, idx)
# expect: 0 (0, 0)
# expect: 1 (0, 1)
# expect: 2 (1, 0)
# expect: 3 (1, 1)


def bare():
    yield
    yield


print(list(bare()), dict(zip("ab", count(2))))
# expect: [None, None] {'a': 0, 'b': 1}

