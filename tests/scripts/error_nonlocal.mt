# nonlocal needs a variable of an enclosing function
def outer():
    def inner():
        nonlocal missing
        missing = 1
    return inner


outer()
# expect-error: SyntaxError: no binding for nonlocal 'missing' found
