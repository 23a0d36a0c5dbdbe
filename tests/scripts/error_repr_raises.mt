# repr() of an instance whose __repr__ raises raises there, with the traceback through
# __repr__ (it used to return '' and the error came out at the next line that raised)
class A:
    def __repr__(self):
        raise ValueError("boom in repr")
a = A()
s = repr(a)
print("s =", s)
x = undefined_name
# expect-tb:   Cell line 7, column 5:
# expect-tb:     s = repr(a)
# expect-tb:   In __repr__(), line 5, column 9 of the cell defining it:
# expect-tb:             raise ValueError("boom in repr")
# expect-error: ValueError: boom in repr
