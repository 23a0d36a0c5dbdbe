# a closure read before the enclosing function assigned the variable
def outer():
    def inner():
        return later
    value = inner()
    later = 1
    return value


outer()
# expect-error: NameError: cannot access free variable 'later' where it is not associated with a value in enclosing scope
