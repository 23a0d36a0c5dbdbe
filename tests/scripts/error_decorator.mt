# a decorator that is not callable: the error points at the decorator, as Python 3.11's does
size = 3
print("before")
# expect: before
@size
def f():
    return 1
# expect-tb:   Cell line 5, column 2:
# expect-error: TypeError: 'int' object is not callable
