# Slicing of lists, tuples, strings and ranges, and slice assignment to lists, as Python's.
# Expected lines worked out with python3.
xs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
print(xs[2:5], xs[:3], xs[7:], xs[:], xs[-3:], xs[:-7], xs[-100:2], xs[8:100])
# expect: [2, 3, 4] [0, 1, 2] [7, 8, 9] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] [7, 8, 9] [0, 1, 2] [0, 1] [8, 9]

print(xs[::2], xs[1::3], xs[::-1], xs[8:2:-2], xs[-1:-4:-1], xs[5:2], xs[::-3])
# expect: [0, 2, 4, 6, 8] [1, 4, 7] [9, 8, 7, 6, 5, 4, 3, 2, 1, 0] [8, 6, 4] [9, 8, 7] [] [9, 6, 3, 0]

print(xs[2:5:None], xs[None:None], xs[True:3])
# expect: [2, 3, 4] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] [1, 2]

t = (1, 2, 3, 4)
print(t[1:3], t[:1], t[3:], t[::-1], t[4:], t[1:3] == (2, 3), t[1:3] == [2, 3])
# expect: (2, 3) (1,) (4,) (4, 3, 2, 1) () True False

s = "héllo wörld"
print(s[1:4], s[::-1], s[-5:], s[::2], s[100:], repr(s[3:3]))
# expect: éll dlröw olléh wörld hlowrd  ''

r = range(0, 20, 3)
print(r[2:5], r[::-1], r[1:100:2], list(r[::-2]), range(10)[::-1], range(5)[3:1])
# expect: range(6, 15, 3) range(18, -3, -3) range(3, 21, 6) [18, 12, 6, 0] range(9, -1, -1) range(3, 1)

X_shuf = tuple(range(10))
BATCH = 4
for i in range(0, len(X_shuf), BATCH):
    print(X_shuf[i : i + BATCH])
# expect: (0, 1, 2, 3)
# expect: (4, 5, 6, 7)
# expect: (8, 9)

copy = xs[:]
copy.append(10)
print(len(xs), len(copy))
# expect: 10 11

ys = [0, 1, 2, 3, 4]
ys[1:3] = ["a", "b", "c"]
print(ys)
# expect: [0, 'a', 'b', 'c', 3, 4]

ys[:] = range(3)
print(ys)
# expect: [0, 1, 2]

ys[1:1] = (7, 8)
print(ys)
# expect: [0, 7, 8, 1, 2]

ys[::2] = "xyz"
print(ys)
# expect: ['x', 7, 'y', 1, 'z']

ys[3:] = []
print(ys)
# expect: ['x', 7, 'y']

ys[:0] = ys
print(ys)
# expect: ['x', 7, 'y', 'x', 7, 'y']

zs = [1, 2, 3]
alias = zs
zs[:] = [9]
print(alias)
# expect: [9]

n = 0
ws = [1, 2, 3, 4]
ws[1:3] += [n]
print(ws)
# expect: [1, 2, 3, 0, 4]

nested = [[1, 2], [3, 4]]
part = nested[:1]
part[0].append(5)
print(nested)
# expect: [[1, 2, 5], [3, 4]]
