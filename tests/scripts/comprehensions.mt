# List and dict comprehensions with if clauses and several for clauses, and generator
# expressions (evaluated at once into a list). As in Python 3 the loop variables live in the
# comprehension's own scope. Expected lines worked out with python3.
xs = [1, 2, 3, 4]
print([x * x for x in xs], [x for x in xs if x % 2 == 0])
# expect: [1, 4, 9, 16] [2, 4]

print([(x, y) for x in range(3) for y in range(x)])
# expect: [(1, 0), (2, 0), (2, 1)]

print([(x, y) for x in range(4) if x > 1 for y in "ab" if y != "a"])
# expect: [(2, 'b'), (3, 'b')]

print({k: v for k, v in [("a", 1), ("b", 2)]}, {x: x * x for x in range(4) if x})
# expect: {'a': 1, 'b': 2} {1: 1, 2: 4, 3: 9}

print(sum(x * x for x in xs), list(x + 1 for x in xs), tuple(c for c in "hi"), max(x % 3 for x in xs))
# expect: 30 [2, 3, 4, 5] ('h', 'i') 2

print(min((x - 2) ** 2 for x in xs), sum((x for x in xs), 10))
# expect: 0 20

x = "outer"
print([x for x in range(3)], x)
# expect: [0, 1, 2] outer

i = 100
print([i for i in range(2)], i)
# expect: [0, 1] 100

def f(n):
    k = 10
    return [k + i for i in range(n)]
print(f(3))
# expect: [10, 11, 12]

print([[y for y in range(x)] for x in range(4)])
# expect: [[], [0], [0, 1], [0, 1, 2]]

print([x for x in [x for x in range(3)]])
# expect: [0, 1, 2]

def g(v):
    return v * 2
print([g(i) for i in range(3)])
# expect: [0, 2, 4]

pairs = [(1, "a"), (2, "b")]
print([n for n, _ in pairs], [s for _, s in pairs])
# expect: [1, 2] ['a', 'b']

print([i if i % 2 else -i for i in range(5)], [c for c in "abc" if c not in "b"])
# expect: [0, 1, -2, 3, -4] ['a', 'c']

print({k: [v for v in range(k)] for k in range(3)})
# expect: {0: [], 1: [0], 2: [0, 1]}

X = [(0.0, 1.0), (2.0, 3.0)]
y = [1, 0]
print([[p[0], p[1]] for p in X], [label for label in y if label == 1])
# expect: [[0.0, 1.0], [2.0, 3.0]] [1]

grid = [[r * 3 + c for c in range(3)] for r in range(3)]
print([row[i] for i, row in enumerate(grid)] if False else [grid[j][j] for j in range(3)])

# expect: [0, 4, 8]
