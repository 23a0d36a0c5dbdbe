# assert: a true condition does nothing, a false one raises AssertionError with the message's str
assert True
assert 1 + 1 == 2, "arithmetic"
assert [0], "a non-empty list is true"
assert (1, 2) != [1, 2]
def checked_div(a, b):
    assert b != 0, "b must not be zero"
    return a / b
print(checked_div(6, 3))
# expect: 2.0
n = 3
assert n > 5, ("n is", n)
# expect-tb:   Cell line 12, column 1:
# expect-tb:     assert n > 5, ("n is", n)
# expect-tb:     ^
# expect-error: AssertionError: ('n is', 3)
