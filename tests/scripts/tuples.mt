# tuples: literals, repr, len, indexing, iteration, in, ==, <, + and *, tuple()/list(), truth
a = (1, 2)
print(a, (1,), (), (3))
# expect: (1, 2) (1,) () 3
print(len(a), len(()), a[0], a[-1], a[-2])
# expect: 2 0 1 2 1
b = 1, 2.5, "x"
print(b, len(b))
# expect: (1, 2.5, 'x') 3
c = 4,
print(c, c == (4,))
# expect: (4,) True
print((1, (2, 3)), ((),))
# expect: (1, (2, 3)) ((),)
for v in (5, 6):
    print(v)
# expect: 5
# expect: 6
print(2 in a, 3 in a, 3 not in a, "x" in b)
# expect: True False True True
print(a == (1, 2), a != (1, 2), a == (2, 1), a == [1, 2], a != [1, 2], () == [])
# expect: True False False False True False
print((1, 2) < (1, 3), (1, 2) < (1, 2, 0), (2,) > (1, 9), (1, 2) <= (1, 2))
# expect: True True True True
print(a + (3,), a * 2, 2 * a, () * 3, a * 0)
# expect: (1, 2, 3) (1, 2, 1, 2) (1, 2, 1, 2) () ()
t = a
t += (9,)
print(t, a)
# expect: (1, 2, 9) (1, 2)
print(tuple([1, 2]), tuple("ab"), tuple(range(3)), tuple(), list((1, 2)))
# expect: (1, 2) ('a', 'b') (0, 1, 2) () [1, 2]
print(bool(()), bool((0,)), len(tuple([])))
# expect: False True 0
print(a.count(1), (1, 2, 1).count(1), (4, 5, 6).index(6))
# expect: 1 2 2
def pair(n):
    return n, n * n
print(pair(3))
# expect: (3, 9)
def first(t):
    return t[0]
print(first((7, 8)))
# unpacking
# expect: 7
x, y = 10, 20
x, y = y, x
print(x, y)
# expect: 20 10
(p, q) = [5, 6]
print(p, q)
# expect: 5 6
[r, s] = "hi"
print(r, s)
# expect: h i
m, (n, o) = 1, (2, 3)
print(m, n, o)
# expect: 1 2 3
i, j, k = range(3)
print(i, j, k)
# expect: 0 1 2
u, w = pair(4)
print(u, w)
# expect: 4 16
e = f = 1, 2
print(e, f)
# expect: (1, 2) (1, 2)
for idx, ch in [(0, "a"), (1, "b")]:
    print(idx, ch)
# expect: 0 a
# expect: 1 b
for (g, (h, z)) in [(1, (2, 3)), (4, (5, 6))]:
    print(g + h + z)
# expect: 6
# expect: 15
def swap_sum(pairs):
    total = 0
    for lo, hi in pairs:
        lo, hi = hi, lo
        total = total + hi - lo
    return total
print(swap_sum([(1, 5), (2, 3)]))
# expect: -5
# names a function unpacks into are its locals: the global stays as it was
lo = "global"
def spread(t):
    lo, (mid, hi) = t
    for k, v in [(1, 2)]:
        pass
    return hi - lo + mid + k + v
print(spread((2, (1, 7))), lo)
# expect: 9 global
rows, cols = zeros((2, 3)).shape
print(rows, cols)
# expect: 2 3
# a shape is a tuple, and a tuple is a shape
x = zeros((2, 3))
print(x.shape == (2, 3), x.shape == [2, 3], ones((4,)).shape, rand((2, 3)).view((3, 2)).shape)
# expect: True False (4,) (3, 2)
# a bare tuple as the cell's result
1, "two"
# expect: (1, 'two')
