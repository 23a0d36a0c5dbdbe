# a missing key whose repr raises: KeyError all the same, shown as CPython's traceback shows it
class A:
    def __repr__(self):
        raise ValueError("boom in repr")
d = {1: 2}
d[A()]
# expect-tb:   Cell line 6, column 2:
# expect-error: KeyError: <exception str() failed>
