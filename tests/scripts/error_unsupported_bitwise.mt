# bitwise operators are not in the language: the SyntaxError names the operator (Python 2's
# `print >>f` ends here too)
x = 12
y = x >> 2
# expect-tb:   Cell line 4, column 7:
# expect-tb:     y = x >> 2
# expect-tb:           ^
# expect-error: SyntaxError: the bitwise operator '>>' is not supported in the MiniTorch language
