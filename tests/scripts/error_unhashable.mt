# A list cannot be a dict key: Python's TypeError, located at the subscript.
d = {(1, 2): "a tuple is fine"}
print(d[1, 2])
# expect: a tuple is fine
d[[1, 2]] = "a list is not"
# expect-error: TypeError: unhashable type: 'list'
# expect-tb:   Cell line 5, column 2:
