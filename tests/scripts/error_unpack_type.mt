# an int cannot be unpacked
a, b = 5
# expect-error: TypeError: cannot unpack non-iterable int object
