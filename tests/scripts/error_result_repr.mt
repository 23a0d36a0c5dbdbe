# a cell's result is shown through its __repr__: one that raises ends the cell with its error,
# located at the result's line, as CPython's displayhook passes it on
class A:
    def __repr__(self):
        raise ValueError("boom in repr")
print("before")
# expect: before
[1, A()]
# expect-tb:   Cell line 8, column 1:
# expect-tb:     [1, A()]
# expect-tb:   In __repr__(), line 5, column 9 of the cell defining it:
# expect-error: ValueError: boom in repr
