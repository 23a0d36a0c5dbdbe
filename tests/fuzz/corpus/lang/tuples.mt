a = (1, 2)
b = 1, 2.5, "x"
c = (4,)
e = ()
x, y = y, x = a
(p, (q, r)) = [0, (1, 2)]
for i, (u, v) in [(0, (1, 2)), (1, (3, 4))]:
    assert i >= 0, (i, u)
def pair(n):
    return n, n * n
m, n = pair(3)
print(a + c, a * 2, a == [1, 2], a < (1, 3), 2 in a, tuple("ab"), list(a), zeros((2, 3)).shape)
t = a
t += (9,)
a[0] = 1
a, b = 1, 2, 3
assert False
