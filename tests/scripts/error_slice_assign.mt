# An extended slice (a step other than 1) takes exactly as many items as it has: Python's
# ValueError, located at the subscript.
xs = [0, 1, 2, 3, 4]
xs[::2] = ["a", "b", "c"]
print(xs)
# expect: ['a', 1, 'b', 3, 'c']
xs[::2] = [9]
# expect-error: ValueError: attempt to assign sequence of size 1 to extended slice of size 3
# expect-tb:   Cell line 7, column 3:
