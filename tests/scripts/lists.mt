# lists are mutable and shared, as in Python
xs = [3, 1, 2]
ys = xs
ys.append(0)
xs[0] = 30
print(xs, ys)
# expect: [30, 1, 2, 0] [30, 1, 2, 0]

xs.sort()
print(xs, xs.pop(), xs.index(2), len(xs))
# expect: [0, 1, 2] 30 2 3

grid = []
for i in range(2):
    grid.append([0] * 3)
grid[1][2] = 7
grid[0] += [1]
print(grid)
# expect: [[0, 0, 0, 1], [0, 0, 7]]

def histogram(values, bins=[]):
    counts = [0] * 3
    for v in values:
        counts[min(v, 2)] += 1
    return counts
print(histogram([0, 1, 1, 5, 2]))
# expect: [1, 2, 2]

stack = []
for token in [1, 2, "+", 4, "*"]:
    if type(token) == str:
        b = stack.pop()
        a = stack.pop()
        stack.append(a + b if token == "+" else a * b)
    else:
        stack.append(token)
print(stack)
# expect: [12]

xs.append(xs)
# expect-error: ValueError: a list cannot hold itself, directly or through another list, a function's default or a bound method (reference cycles are not supported)
