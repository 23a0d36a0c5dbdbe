# super() outside a method
def f(x):
    return super()


f(1)
# expect-tb:   In f(), line 3, column 12 of the cell defining it:
# expect-error: RuntimeError: super(): __class__ cell not found
