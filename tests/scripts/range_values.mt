# Ranges are values like any other: kept in containers and closures, sliced, hashed, compared,
# copied, and freed when the last name lets go (ASan and the leak check run this file too).
from dataclasses import asdict, dataclass

r = range(2, 20, 3)
print(r, len(r), r[1], r[-1], list(r[1:4]), r[::-1])
kept = [r, r, (r, r)]
del r
print(kept[0] == kept[2][1], kept[2][0] is kept[1])
d = {range(3): "a", range(0, 3): "b", range(0): "empty", range(5, 5): "also empty"}
print(len(d), d[range(3)], d[range(1, 1)])
s = {range(0, 10, 2), range(0, 9, 2), range(1)}
print(len(s), range(0, 10, 2) in s)
def make(n):
    rr = range(n)
    def inner(k):
        return rr[k] + len(rr)
    return inner
f = make(7)
print(f(2), f(-1))
it = iter(range(3))
print(next(it), next(it), list(it))
@dataclass
class Span:
    r: range
    rs: list
print(asdict(Span(range(4), [range(2), range(1, 2)])))
sub = range(10)[2:8:2][1:]
print(sub, list(sub), 6 in sub, 5 in sub)
total = 0
for i in range(3):
    for j in range(i, 4):
        total += j
print(total, sum(range(101)), list(reversed(range(4))), sorted(range(3), reverse=True))
print(range(3) == range(0, 3, 1), range(0) == range(4, 1), hash(range(3)) == hash(range(0, 3)))
z = list(zip(range(3), range(10, 13)))
print(z, list(enumerate(range(5, 8))), max(range(9)), min(range(2, 9)))
print(repr(range(-3, 3)), str(range(1, 10, 4)), bool(range(0)), bool(range(1)))

# expect: range(2, 20, 3) 6 5 17 [5, 8, 11] range(17, -1, -3)
# expect: True True
# expect: 2 b also empty
# expect: 2 True
# expect: 9 13
# expect: 0 1 [2]
# expect: {'r': range(0, 4), 'rs': [range(0, 2), range(1, 2)]}
# expect: range(4, 8, 2) [4, 6] True False
# expect: 17 5050 [3, 2, 1, 0] [2, 1, 0]
# expect: True True True
# expect: [(0, 10), (1, 11), (2, 12)] [(0, 5), (1, 6), (2, 7)] 8 2
# expect: range(-3, 3) range(1, 10, 4) False True
