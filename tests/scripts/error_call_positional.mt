# too many positional arguments, with a keyword-only one given: CPython's message
def f(a, b=2, *, k):
    return a
f(1, 2, 3, k=4)
# expect-tb:   Cell line 4, column 1:
# expect-error: TypeError: f() takes from 1 to 2 positional arguments but 3 positional arguments (and 1 keyword-only argument) were given
