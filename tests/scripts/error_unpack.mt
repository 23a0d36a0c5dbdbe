# unpacking more values than targets
a, b = 1, 2
a, b = b, a
print(a, b)
# expect: 2 1
a, b = (1, 2, 3)
# expect-tb:   Cell line 6, column 1:
# expect-error: ValueError: too many values to unpack (expected 2)
