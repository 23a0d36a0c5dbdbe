# a for loop's target in parentheses alone is the target itself, as in Python; with a comma, a
# tuple to unpack into. Expectations: CPython's.
for (x) in [1, 2]:
    print(x)
for (a, b) in [(1, 2)]:
    print(a, b)
for [c] in [[3]]:
    print(c)
for (d,) in [(4,)]:
    print(d)
# expect: 1
# expect: 2
# expect: 1 2
# expect: 3
# expect: 4
