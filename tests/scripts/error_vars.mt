# vars() of a value without a __dict__ (a generator): CPython's TypeError, located at the call.
gen = (x * x for x in range(3))
print(next(gen))
# expect: 0
d = vars(gen)
# expect-error: TypeError: vars() argument must have __dict__ attribute
# expect-tb:   Cell line 5, column 5:
# expect-tb:     d = vars(gen)
