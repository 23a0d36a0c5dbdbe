# f(*x) needs an iterable: the caret points at the star
def f(*a):
    return a
xs = 5
f(*xs)
# expect-tb:   Cell line 5, column 3:
# expect-tb:     f(*xs)
# expect-tb:       ^
# expect-error: TypeError: __main__.f() argument after * must be an iterable, not int
