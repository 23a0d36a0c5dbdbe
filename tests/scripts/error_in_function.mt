# an error inside a function shows the call in the cell, then the line in the function
def halve(x):
    return x / 2
print(halve(9))
# expect: 4.5
halve("a")
# expect-tb:   Cell line 6, column 1:
# expect-tb:     halve("a")
# expect-tb:   In halve(), line 3, column 14 of the cell defining it:
# expect-tb:         return x / 2
# expect-error: TypeError: unsupported operand type(s) for /: 'str' and 'int'
