# `with` starts a statement; as a value it is CPython's SyntaxError, located at the word
x = with
# expect-tb:   Cell line 2, column 5:
# expect-error: SyntaxError: invalid syntax: `with` starts a statement of its own
