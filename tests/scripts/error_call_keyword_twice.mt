# a keyword given by name and by ** unpacking: CPython's message, which names a function of
# the cell as the main module's
def f(a, **kw):
    return kw
f(**{"a": 1, "b": 2}, b=3)
# expect-tb:   Cell line 5, column 1:
# expect-error: TypeError: __main__.f() got multiple values for keyword argument 'b'
