# an except clause must name exception classes; the check happens when an error reaches it,
# and its TypeError replaces that error (Python's message)
try:
    1 / 0
except len:
    pass
# expect-tb:   Cell line 5, column 8:
# expect-tb:     except len:
# expect-tb:            ^
# expect-error: TypeError: catching classes that do not inherit from BaseException is not allowed
