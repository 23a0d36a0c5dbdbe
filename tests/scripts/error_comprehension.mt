# A comprehension's loop variable does not leak into the enclosing scope, as in Python 3.
squares = [q * q for q in range(3)]
print(squares)
# expect: [0, 1, 4]
print(q)
# expect-error: NameError: name 'q' is not defined
# expect-tb:   Cell line 5, column 7:
