# a bare assert that fails: the error's name alone, as in Python; located inside the function
def positive(x):
    assert x > 0
    return x
positive(1)
positive(-2)
# expect-tb:   In positive(), line 3, column 5 of the cell defining it:
# expect-tb:         assert x > 0
# expect-tb:         ^
# expect-error: AssertionError
