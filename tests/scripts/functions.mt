# def, return, defaults, keyword arguments, local scope, recursion
def area(w, h=2):
    "the area of a w x h rectangle"
    return w * h
print(area(3), area(3, 4), area(h=5, w=2))
# expect: 6 12 10

def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(10))
# expect: 3628800

count = 100
def bump():
    count = 1
    return count + 1
print(bump(), count)
# expect: 2 100

def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
print(collatz(27))
# expect: 111

def apply(f, xs):
    out = []
    for x in xs:
        out += [f(x)]
    return out
print(apply(area, [1, 2, 3]))
# expect: [2, 4, 6]
print(area)
# expect: <function area(w, h=...)>
