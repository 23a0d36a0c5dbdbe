# a bare raise in an except clause passes the error on: the traceback shows where it first
# happened (the call, then the line inside the function), as Python's does
def parse(s):
    return int(s)

try:
    parse("seven")
except ValueError:
    print("cannot parse")
# expect: cannot parse
    raise
# expect-tb:   Cell line 7, column 5:
# expect-tb:         parse("seven")
# expect-tb:   In parse(), line 4, column 12 of the cell defining it:
# expect-tb:         return int(s)
# expect-error: ValueError: invalid literal for int() with base 10: 'seven'
