# a for loop unpacking fewer values than targets (the second item is short)
for i, x, y in [(0, 1, 2), (3, 4)]:
    print(i + x + y)
# expect: 3
# expect-tb:   Cell line 2, column 5:
# expect-error: ValueError: not enough values to unpack (expected 3, got 2)
