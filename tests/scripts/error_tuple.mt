# a tuple is immutable
t = (1, 2)
print(t[0])
# expect: 1
t[0] = 3
# expect-tb:   Cell line 5, column 2:
# expect-error: TypeError: 'tuple' object does not support item assignment
