# annotated assignments, as MiniTorch's code writes them: the annotation is parsed, not evaluated
# (as Python 3.14 defers them), so it may name types the language lacks (List, Optional).
# Expected lines: python3 on this script with list, tuple and "Tensor" as the annotations.
count: int = 0
count += 1
print(count)
# expect: 1
weights: List[float] = [0.5, 0.25]
print(weights)
# expect: [0.5, 0.25]
pair: Tuple[int, int] = 3, 4
print(pair)
# expect: (3, 4)
declared: Optional["Tensor"]
try:
    print(declared)
except NameError as err:
    print(err)
# expect: name 'declared' is not defined
table = [0, 0]
table[1]: int = 7
print(table)
# expect: [0, 7]

def scale(xs, k):
    total: float = 0.0
    for x in xs:
        total += k * x
    return total

print(scale([1, 2, 3], 2))
# expect: 12.0
